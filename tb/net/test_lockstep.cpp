// test_lockstep.cpp: LockstepPool (sim/net/model/lockstep.hpp): every index runs once per
// step, in parallel, the step ends only when all have finished, and an exception of any index
// reaches the caller after the step.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "sim/net/model/lockstep.hpp"

using hpcnet::sim::LockstepPool;

TEST_CASE("LockstepPool: every index once per step and all done when run returns", "[lockstep]") {
  for (unsigned n : {1u, 2u, 3u}) {
    LockstepPool pool(n, std::chrono::hours(1));  // never falls back to serial steps here
    std::vector<unsigned> count(n, 0);  // written by one thread each, read after run()
    std::vector<std::thread::id> who(n);
    for (unsigned step = 1; step <= 5000; ++step) {
      pool.run([&](unsigned i) {
        ++count[i];
        who[i] = std::this_thread::get_id();
      });
      for (unsigned i = 0; i < n; ++i) REQUIRE(count[i] == step);
    }
    REQUIRE(who[0] == std::this_thread::get_id());  // index 0 on the caller's thread
    for (unsigned i = 1; i < n; ++i) REQUIRE(who[i] != who[0]);
  }
  REQUIRE_THROWS_AS(LockstepPool(0), std::invalid_argument);
}

TEST_CASE("LockstepPool: sleeping threads are woken: idle workers and a caller waiting long", "[lockstep]") {
  // A waiting thread sleeps after 200 us of spinning; notify() is called only when one sleeps, so
  // a lost wake-up would hang run() here.
  LockstepPool pool(2, std::chrono::hours(1));
  std::vector<unsigned> count(2, 0);
  for (unsigned step = 1; step <= 20; ++step) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the worker falls asleep
    pool.run([&](unsigned i) {
      ++count[i];
      // odd steps: the worker takes 2 ms, so the caller falls asleep waiting for it
      if (i == 1 && step % 2 == 1) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    });
    REQUIRE(count[0] == step);
    REQUIRE(count[1] == step);
  }
  REQUIRE(pool.serial_steps() == 0);
}

TEST_CASE("LockstepPool: the indices of a step run at the same time", "[lockstep]") {
  // each index waits until every index has started: this returns only if they run in parallel
  LockstepPool pool(2);
  std::atomic<unsigned> started{0};
  pool.run([&](unsigned) {
    started.fetch_add(1);
    while (started.load() < 2) std::this_thread::yield();
  });
  REQUIRE(started.load() == 2);
}

TEST_CASE("LockstepPool: an exception of a worker reaches the caller and the pool goes on", "[lockstep]") {
  LockstepPool pool(2);
  std::atomic<unsigned> ran{0};
  REQUIRE_THROWS_WITH(pool.run([&](unsigned i) {
                        ran.fetch_add(1);
                        if (i == 1) throw std::runtime_error("block 1 failed");
                      }),
                      "block 1 failed");
  REQUIRE(ran.load() == 2);  // index 0 finished its part too
  pool.run([&](unsigned) { ran.fetch_add(1); });
  REQUIRE(ran.load() == 4);
}

TEST_CASE("LockstepPool: a slow worker makes the next steps run on the caller and then parallel again", "[lockstep]") {
  // a worker that takes far longer than `slow` stands for one the scheduler did not run
  LockstepPool pool(2, std::chrono::microseconds(1000), 5);
  std::vector<std::thread::id> who(2);
  for (unsigned slow = 0; slow < 6; ++slow) {  // six slow steps out of eight
    pool.run([&](unsigned i) {
      if (i == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      who[i] = std::this_thread::get_id();
    });
    REQUIRE(who[1] != who[0]);
    REQUIRE(pool.serial_steps() == 0);
  }
  for (unsigned step = 0; step < 5; ++step) {
    pool.run([&](unsigned i) { who[i] = std::this_thread::get_id(); });
    REQUIRE(who[1] == who[0]);  // both on the caller
  }
  REQUIRE(pool.serial_steps() == 5);
  pool.run([&](unsigned i) { who[i] = std::this_thread::get_id(); });
  REQUIRE(who[1] != who[0]);  // parallel again
  REQUIRE(pool.serial_steps() == 5);
  // slow again soon after: the pool falls back again (after at most six slow steps; fewer when the
  // machine made a step slow before) and that serial run is twice as long
  unsigned slow = 0;
  for (; slow < 8; ++slow) {
    pool.run([&](unsigned i) {
      if (i == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      who[i] = std::this_thread::get_id();
    });
    if (who[1] == who[0]) break;  // this step ran on the caller: the serial run started
  }
  REQUIRE(slow <= 6);
  unsigned serial = 1;
  for (;;) {
    pool.run([&](unsigned i) { who[i] = std::this_thread::get_id(); });
    if (who[1] != who[0]) break;  // parallel again
    ++serial;
    REQUIRE(serial <= 20);
  }
  REQUIRE(serial == 10);
  REQUIRE(pool.serial_steps() == 15);
}
