// Integration: lock contention. All 20 threads increment one counter in host memory under
// ssm_lock; the final count is exact and an occupancy check never sees two holders.
#include <catch2/catch.hpp>

#include <vector>

#include "sim/ssm/ssm_node.hpp"

using hpcnet::sim::SsmNode;

namespace {

struct LockRun {
  uint64_t final_count = 0;
  unsigned max_holders = 0;
  uint64_t cycles = 0;
  std::vector<uint64_t> per_thread;
};

LockRun contend(unsigned cores, unsigned iters) {
  hpcnet::sim::SsmSystemConfig cfg;
  cfg.num_cores = cores;
  SsmNode n(cfg);
  auto& p = n.platform();
  const hpcnet::DmaRegion counter = p.dma_alloc(64, 64);
  constexpr uint64_t kLock = 0x40000;
  LockRun r;
  r.per_thread.assign(20, 0);
  unsigned holders = 0;
  const uint64_t t0 = n.sys.cycles();
  n.run_all([&](unsigned pe, unsigned t) {
    for (unsigned i = 0; i < iters; ++i) {
      REQUIRE(ssm_lock(kLock) == SSM_OK);
      ++holders;                                  // occupancy check
      if (holders > r.max_holders) r.max_holders = holders;
      const uint64_t v = p.mem_read64(counter.phys);  // read-modify-write that costs time
      p.compute(5);
      p.mem_write64(counter.phys, v + 1);
      ++r.per_thread[pe * 4 + t];
      --holders;
      ssm_unlock(kLock);
    }
    CHECK(ssm_quiet() == SSM_OK);
  });
  r.cycles = n.sys.cycles() - t0;
  n.sys.spawn(0, 0, [&] { r.final_count = p.mem_read64(counter.phys); });
  n.sys.run();
  CHECK(n.drv.errors().empty());
  return r;
}

}  // namespace

TEST_CASE("ssm: 20 threads x 100 increments under ssm_lock on 2 cores", "[ssm][lock]") {
  const LockRun r = contend(2, 100);
  CHECK(r.final_count == 2000);
  CHECK(r.max_holders == 1);
  for (uint64_t c : r.per_thread) CHECK(c == 100);
}

TEST_CASE("ssm: 20 threads x 50 increments under ssm_lock on 1 core", "[ssm][lock]") {
  const LockRun r = contend(1, 50);
  CHECK(r.final_count == 1000);
  CHECK(r.max_holders == 1);
}

TEST_CASE("ssm: lock waiters are served in FIFO order", "[ssm][lock]") {
  SsmNode n;
  auto& p = n.platform();
  constexpr uint64_t kLock = 0x48000;
  std::vector<unsigned> order;
  n.sys.spawn(0, 0, [&] {
    REQUIRE(ssm_lock(kLock) == SSM_OK);
    p.compute(3000);  // everyone else queues meanwhile, in a known order
    ssm_unlock(kLock);
    CHECK(ssm_quiet() == SSM_OK);
  });
  for (unsigned k = 1; k < 8; ++k) {
    n.sys.spawn(k / 4, k % 4, [&, k] {
      p.compute(200 * k);  // arrive in order k = 1, 2, ...
      REQUIRE(ssm_lock(kLock) == SSM_OK);
      order.push_back(k);
      ssm_unlock(kLock);
      CHECK(ssm_quiet() == SSM_OK);
    });
  }
  n.sys.run();
  REQUIRE(order.size() == 7);
  for (unsigned i = 0; i < 7; ++i) CHECK(order[i] == i + 1);
}
