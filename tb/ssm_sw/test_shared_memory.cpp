// test_shared_memory.cpp: the coherence cost model of SimSharedMemory (default node numbers:
// hit 2, miss 80, forward 40, invalidate 40, invalidation delivered 80 cycles after the store,
// link 8 per line moved / 2 per upgrade).
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "sw_node.hpp"

using namespace hpcnet;
using namespace hpcnet::sim;
using hpcnet::sim::test::SwNode;

namespace {

// Cost of one call, measured from inside the thread.
template <class F>
uint64_t timed(SwNode& n, F&& f) {
  const uint64_t t0 = n.sched.now();
  f();
  return n.sched.now() - t0;
}

}  // namespace

TEST_CASE("shm: default costs come from the node's bus and memory", "[shm]") {
  const auto c = CoherenceConfig::from_node(BusConfig{}, MemConfig{});
  CHECK(c.hit_cycles == 2);
  CHECK(c.miss_cycles == 80);
  CHECK(c.forward_cycles == 40);
  CHECK(c.invalidate_cycles == 40);
  CHECK(c.inval_delay_cycles == 80);
  CHECK(c.link_data_cycles == 8);
  CHECK(c.link_ctrl_cycles == 2);
  BusConfig slow;
  slow.read_latency = 100;
  slow.rsp_latency = 50;
  slow.write_latency = 70;
  MemConfig m;
  m.bytes_per_cycle = 4;
  const auto d = CoherenceConfig::from_node(slow, m, 3);
  CHECK(d.miss_cycles == 150);
  CHECK(d.forward_cycles == 70);
  CHECK(d.invalidate_cycles == 70);
  CHECK(d.inval_delay_cycles == 140);
  CHECK(d.link_data_cycles == 16);
  CHECK(d.hit_cycles == 3);
}

TEST_CASE("shm: load miss then hit then upgrade then store hit", "[shm]") {
  SwNode n;
  const uint64_t a = n.shm.alloc(64, CpuId{0, 0});
  std::vector<uint64_t> cost;
  n.run(1, [&](unsigned) {
    cost.push_back(timed(n, [&] { n.shm.load64(a); }));       // cold miss
    cost.push_back(timed(n, [&] { n.shm.load64(a + 8); }));   // same line: hit
    cost.push_back(timed(n, [&] { n.shm.store64(a, 5); }));   // shared -> modified: upgrade
    cost.push_back(timed(n, [&] { n.shm.store64(a + 8, 6); }));  // modified: hit
  });
  CHECK(cost == std::vector<uint64_t>{80, 2, 80, 2});
  const ShmStats s = n.shm.stats(CpuId{0, 0});
  CHECK(s.loads == 2);
  CHECK(s.stores == 2);
  CHECK(s.load_misses == 1);
  CHECK(s.store_misses == 1);
  CHECK(s.invalidations == 0);
  CHECK(s.remote_writes == 0);
  CHECK(s.mem_cycles == 164);
  CHECK(n.shm.owner(a) == 0);
  CHECK(n.shm.load64(a) == 5);
  CHECK(n.shm.load64(a + 8) == 6);
}

TEST_CASE("shm: a store invalidates other PEs and their next load is forwarded", "[shm]") {
  SwNode n;
  const uint64_t a = n.shm.alloc(64, CpuId{0, 0});
  uint64_t store_cost = 0, reload_cost = 0, reloaded = 0;
  // Participant 0 = PE0.t0, participant 4 = PE1.t0 (run() places i on PE i/4).
  n.run(5, [&](unsigned id) {
    if (id == 4) {
      n.shm.load64(a);                 // PE1 gets a shared copy (cycles 0..80)
      n.shm.compute(200);              // PE0's store happens meanwhile
      reload_cost = timed(n, [&] { reloaded = n.shm.load64(a); });
    } else if (id == 0) {
      n.shm.compute(100);
      store_cost = timed(n, [&] { n.shm.store64(a, 42); });
    }
  });
  CHECK(store_cost == 120);   // round trip + the other sharer's acknowledgement
  CHECK(reload_cost == 120);  // miss + forward from PE0's modified copy
  CHECK(reloaded == 42);
  CHECK(n.shm.stats(CpuId{0, 0}).invalidations == 1);
  CHECK(n.shm.stats(CpuId{0, 0}).store_misses == 1);
  CHECK(n.shm.sharers(a) == 0b11);  // PE0 downgraded to shared, PE1 shared
  CHECK(n.shm.owner(a) == -1);
}

TEST_CASE("shm: an invalidated PE reads its old copy until the invalidation arrives", "[shm]") {
  SwNode n;
  const uint64_t a = n.shm.alloc(64, CpuId{0, 0});
  uint64_t stale_reads = 0, seen_at = 0;
  n.run(5, [&](unsigned id) {
    if (id == 4) {  // PE1 spins on the flag
      while (n.shm.load64(a) != 1) ++stale_reads;
      seen_at = n.sched.now();
    } else if (id == 0) {
      n.shm.compute(100);
      n.shm.store64(a, 1);  // issued at 100, invalidation reaches PE1 at 180, done at 220
    }
  });
  // Polls hit until 180; the reload at 180 is forwarded from PE0: 180 + 120.
  CHECK(seen_at >= 300);
  CHECK(seen_at <= 302);
  CHECK(n.shm.stats(CpuId{1, 0}).load_misses == 2);
  CHECK(stale_reads > 40);
}

TEST_CASE("shm: threads of one PE share its cache and a store is visible when it completes", "[shm]") {
  SwNode n;
  const uint64_t a = n.shm.alloc(64, CpuId{0, 1});
  uint64_t hit_cost = 0, early = 99, late = 0, seen_at = 0;
  n.run(2, [&](unsigned id) {
    if (id == 0) {
      n.shm.store64(a, 7);  // cold: cycles 0..80
    } else {
      n.shm.compute(10);
      hit_cost = timed(n, [&] { early = n.shm.load64(a); });  // PE0 owns the line: hit, old value
      while ((late = n.shm.load64(a)) != 7) {
      }
      seen_at = n.sched.now();
    }
  });
  CHECK(hit_cost == 2);
  CHECK(early == 0);
  CHECK(late == 7);
  CHECK(seen_at >= 80);
  CHECK(seen_at <= 82);
  CHECK(n.shm.stats(CpuId{0, 1}).load_misses == 0);
  CHECK(n.shm.stats(CpuId{0, 0}).remote_writes == 1);  // homed at PE0.t1
}

TEST_CASE("shm: remote writes count stores to memory homed at another thread", "[shm]") {
  SwNode n;
  const uint64_t mine = n.shm.alloc(128, CpuId{0, 0});
  const uint64_t other = n.shm.alloc(64, CpuId{1, 0});
  n.run(1, [&](unsigned) {
    n.shm.store64(mine, 1);
    n.shm.store64(mine + 64, 1);
    n.shm.store64(other, 1);
    n.shm.store64(other + 8, 1);
    const uint64_t buf[4] = {1, 2, 3, 4};
    n.shm.write(other + 16, buf, sizeof buf);
  });
  const ShmStats s = n.shm.stats(CpuId{0, 0});
  CHECK(s.stores == 8);
  CHECK(s.remote_writes == 6);
  n.shm.reset_stats();
  CHECK(n.shm.total().stores == 0);
}

TEST_CASE("shm: transactions share one link and streaming overlaps misses", "[shm]") {
  SwNode n;
  const uint64_t a = n.shm.alloc(64, CpuId{0, 0});
  const uint64_t b = n.shm.alloc(64, CpuId{1, 0});
  const uint64_t blk = n.shm.alloc(256, CpuId{0, 0});
  std::vector<uint64_t> cost(5, 0);
  n.run(5, [&](unsigned id) {
    if (id == 0) cost[0] = timed(n, [&] { n.shm.load64(a); });
    if (id == 4) cost[4] = timed(n, [&] { n.shm.load64(b); });
  });
  CHECK(cost[0] == 80);
  CHECK(cost[4] == 88);  // waited for the link behind PE0's line
  uint64_t cold = 0, warm = 0;
  n.run(1, [&](unsigned) {
    n.shm.compute(100);
    uint64_t buf[32];
    cold = timed(n, [&] { n.shm.read(blk, buf, sizeof buf); });  // 4 lines: 3 * 8 + 80
    warm = timed(n, [&] { n.shm.read(blk, buf, sizeof buf); });  // 4 hits
  });
  CHECK(cold == 104);
  CHECK(warm == 8);
  CHECK(n.shm.stats(CpuId{0, 0}).load_misses == 1 + 4);
  CHECK(n.shm.link_transactions() == 6);
}

TEST_CASE("shm: host-side access is immediate and a host store drops cached copies", "[shm]") {
  SwNode n;
  const uint64_t a = n.shm.alloc(64, CpuId{0, 0});
  n.shm.store64(a, 3);
  CHECK(n.shm.load64(a) == 3);
  n.run(1, [&](unsigned) { n.shm.load64(a); });
  CHECK(n.shm.sharers(a) == 1);
  n.shm.store64(a, 4);
  CHECK(n.shm.sharers(a) == 0);
  CHECK(n.shm.total().loads == 1);
}

TEST_CASE("shm: accesses outside allocations or unaligned are refused", "[shm]") {
  SwNode n;
  const uint64_t a = n.shm.alloc(8, CpuId{0, 0});
  CHECK_THROWS_AS(n.shm.load64(a + 64), std::out_of_range);
  CHECK_THROWS_AS(n.shm.load64(a + 4), std::invalid_argument);
  uint64_t buf[16];
  CHECK_THROWS_AS(n.shm.read(a, buf, 128), std::out_of_range);
  CHECK_THROWS_AS(n.shm.compute(1), std::logic_error);
}
