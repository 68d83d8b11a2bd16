// SPDX-License-Identifier: Apache-2.0
// A fixed team of threads that run one job together and wait for each other: the caller's thread
// is member 0, the others are started once and kept. Run() hands every member the same job with
// its own index and returns when all have finished it, so a simulation can run a cycle's phase on
// every partition at once with two synchronisations per phase and no thread started per cycle.
// A waiting thread spins for up to a millisecond (a busy network's next phase comes sooner),
// yielding its core now and then, then sleeps: with more threads than free cores (tests side by
// side, a sweep's jobs) a spinning thread would hold the core that the one it waits for needs.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace icn {

class ThreadTeam {
 public:
  explicit ThreadTeam(int size);  // size 1: Run() calls the job on the caller's thread, no more
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int size() const { return static_cast<int>(threads_.size()) + 1; }
  // Calls job(member) for every member in [0, size()) at once and returns when all have returned.
  // An exception a member throws is rethrown here (the lowest member's, once all have finished).
  template <typename Job>
  void Run(Job& job) {
    if (threads_.empty()) return job(0);
    RunErased(&job, [](void* j, int member) { (*static_cast<Job*>(j))(member); });
  }

 private:
  void RunErased(void* job, void (*call)(void*, int));
  void Stop();
  void Serve(int member);
  void Call(int member);

  // Spins until done() or the spin time is up, then sleeps on `wake` until done(); `sleepers`
  // counts those asleep, so that whoever makes done() true knows whether to notify.
  template <typename Done>
  void Wait(Done done, std::atomic<int>& sleepers, std::condition_variable& wake);
  // Notifies `wake` if anyone sleeps on it (after the change it waits for is made).
  void Notify(std::atomic<int>& sleepers, std::condition_variable& wake);

  std::atomic<uint64_t> generation_{0};  // one more per Run(); members wait for it to move
  std::atomic<int> pending_{0};          // members still working on this generation's job
  std::atomic<int> asleep_members_{0};
  std::atomic<int> asleep_caller_{0};
  std::mutex sleep_;
  std::condition_variable wake_members_, wake_caller_;
  std::atomic<bool> stop_{false};
  void* job_ = nullptr;
  void (*call_)(void*, int) = nullptr;
  std::vector<std::exception_ptr> errors_;
  std::vector<std::thread> threads_;
};

}  // namespace icn
