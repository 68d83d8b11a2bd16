// SPDX-License-Identifier: Apache-2.0
// The thread team behind sim.threads: every member runs each job once with its own index, a job
// sees what the previous one wrote, and a member's exception reaches the caller.
#include "catch.h"

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/thread_team.h"

using icn::ThreadTeam;

TEST_CASE("a thread team runs a job once per member, on distinct threads, again and again", "[threads]") {
  for (const int size : {1, 2, 3}) {
    ThreadTeam team(size);
    REQUIRE(team.size() == size);
    std::vector<long> sums(static_cast<size_t>(size), 0);
    std::vector<std::thread::id> ids(static_cast<size_t>(size));
    // Each job reads what every member wrote in the one before (Run() returns after all finish).
    for (long round = 1; round <= 20000; ++round) {
      long seen = 0;
      for (const long s : sums) seen += s;
      REQUIRE(seen == size * (round - 1) * round / 2);
      auto job = [&](int member) {
        sums[static_cast<size_t>(member)] += round;
        ids[static_cast<size_t>(member)] = std::this_thread::get_id();
      };
      team.Run(job);
    }
    CHECK(ids[0] == std::this_thread::get_id());
    for (size_t a = 0; a < ids.size(); ++a) {
      for (size_t b = a + 1; b < ids.size(); ++b) CHECK(ids[a] != ids[b]);
    }
  }
}

TEST_CASE("a thread team wakes members that fell asleep between jobs", "[threads]") {
  ThreadTeam team(3);
  std::atomic<int> calls{0};
  auto job = [&](int) { calls.fetch_add(1); };
  for (int i = 0; i < 3; ++i) {
    team.Run(job);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // past the members' spinning
  }
  CHECK(calls.load() == 9);
}

TEST_CASE("a thread team's caller sleeps through a long job and is woken when it ends", "[threads]") {
  ThreadTeam team(2);
  std::atomic<int> calls{0};
  auto job = [&](int member) {
    if (member == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the caller's spin
    calls.fetch_add(1);
  };
  for (int i = 0; i < 3; ++i) team.Run(job);
  CHECK(calls.load() == 6);
}

TEST_CASE("a member's exception is rethrown by Run once all members finished", "[threads]") {
  ThreadTeam team(3);
  std::atomic<int> finished{0};
  auto failing = [&](int member) {
    if (member == 2) throw std::runtime_error("member 2 failed");
    finished.fetch_add(1);
  };
  CHECK_THROWS_WITH(team.Run(failing), "member 2 failed");
  CHECK(finished.load() == 2);
  // The caller's own, and the lowest member's of several.
  auto caller_fails = [&](int member) {
    if (member == 0) throw std::runtime_error("member 0 failed");
  };
  CHECK_THROWS_WITH(team.Run(caller_fails), "member 0 failed");
  auto two_fail = [&](int member) {
    if (member > 0) throw std::runtime_error("member " + std::to_string(member) + " failed");
  };
  CHECK_THROWS_WITH(team.Run(two_fail), "member 1 failed");
  // The team is still usable, and no error is thrown again.
  auto fine = [&](int) { finished.fetch_add(1); };
  team.Run(fine);
  CHECK(finished.load() == 5);
}
