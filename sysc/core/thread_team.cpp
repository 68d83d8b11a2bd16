// SPDX-License-Identifier: Apache-2.0
#include "core/thread_team.h"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace icn {
namespace {

// A waiter spins this long, yielding its core now and then, then sleeps.
constexpr auto kSpin = std::chrono::microseconds(1000);

void Pause() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

}  // namespace

ThreadTeam::ThreadTeam(int size) : errors_(static_cast<size_t>(size > 1 ? size : 1)) {
  try {
    for (int member = 1; member < size; ++member) threads_.emplace_back([this, member] { Serve(member); });
  } catch (...) {  // (a thread that could not start: stop those that did)
    Stop();
    throw;
  }
}

ThreadTeam::~ThreadTeam() { Stop(); }

void ThreadTeam::Stop() {
  stop_.store(true);
  generation_.fetch_add(1);
  Notify(asleep_members_, wake_members_);
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}

template <typename Done>
void ThreadTeam::Wait(Done done, std::atomic<int>& sleepers, std::condition_variable& wake) {
  const auto start = std::chrono::steady_clock::now();
  for (int spins = 1; !done(); ++spins) {
    Pause();
    if (spins % 64 != 0) continue;
    // Give the core to a thread of the team that waits for one (more threads than free cores).
    std::this_thread::yield();
    if (std::chrono::steady_clock::now() - start < kSpin) continue;
    // Count in before the last look, under the lock: whoever makes done() true afterwards reads
    // the count (both sequentially consistent) and notifies under the same lock.
    std::unique_lock<std::mutex> lock(sleep_);
    sleepers.fetch_add(1);
    wake.wait(lock, done);
    sleepers.fetch_sub(1);
    return;
  }
}

void ThreadTeam::Notify(std::atomic<int>& sleepers, std::condition_variable& wake) {
  if (sleepers.load() == 0) return;
  sleep_.lock();  // (a sleeper between its count and its wait holds it: the notify comes after the wait)
  sleep_.unlock();
  wake.notify_all();
}

void ThreadTeam::Call(int member) {
  try {
    call_(job_, member);
  } catch (...) {
    errors_[static_cast<size_t>(member)] = std::current_exception();
  }
}

void ThreadTeam::RunErased(void* job, void (*call)(void*, int)) {
  job_ = job;
  call_ = call;
  pending_.store(size() - 1, std::memory_order_relaxed);
  generation_.fetch_add(1);
  Notify(asleep_members_, wake_members_);
  Call(0);
  Wait([this] { return pending_.load() == 0; }, asleep_caller_, wake_caller_);
  for (std::exception_ptr& error : errors_) {
    if (!error) continue;
    std::exception_ptr first = error;
    for (std::exception_ptr& e : errors_) e = nullptr;
    std::rethrow_exception(first);
  }
}

void ThreadTeam::Serve(int member) {
  uint64_t seen = 0;
  for (;;) {
    Wait([&] { return generation_.load() != seen; }, asleep_members_, wake_members_);
    seen = generation_.load();
    if (stop_.load()) return;
    Call(member);
    if (pending_.fetch_sub(1) == 1) Notify(asleep_caller_, wake_caller_);
  }
}

}  // namespace icn
