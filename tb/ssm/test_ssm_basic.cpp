// Integration: single operations through the driver and libssm on the Verilated engine.
#include <catch2/catch.hpp>

#include "sim/ssm/ssm_node.hpp"

using hpcnet::sim::SsmNode;
namespace R = hpcnet::ssm_regs;

TEST_CASE("ssm: init discovers the engine", "[ssm]") {
  SsmNode n;
  CHECK(n.drv.info().num_pe == 5);
  CHECK(n.drv.info().num_threads == 4);
  CHECK(n.drv.info().num_cores == 2);
  CHECK(n.drv.info().hash_sets == 1024);
  CHECK(n.drv.info().hash_ways == 4);
}

TEST_CASE("ssm: put then get returns the value and frees the entry", "[ssm]") {
  SsmNode n;
  uint64_t got = 0, got4 = 0, entries_live = 1, entries_after = 1;
  n.sys.spawn(0, 0, [&] {
    ssm_put(0x1000, 0x1122334455667788ull);
    got = ssm_get(0x1000, 8);
    ssm_put(0x1008, 0xAABBCCDD99887766ull);
    CHECK(ssm_quiet() == SSM_OK);  // the put has executed
    entries_live = R::STAT_ENTRIES_ONCHIP.get(n.drv.read_reg(R::STAT_ENTRIES_OFFSET));
    got4 = ssm_get(0x1008, 4);
    CHECK(ssm_quiet() == SSM_OK);
    entries_after = R::STAT_ENTRIES_ONCHIP.get(n.drv.read_reg(R::STAT_ENTRIES_OFFSET));
  });
  n.sys.run();
  CHECK(got == 0x1122334455667788ull);
  CHECK(got4 == 0x99887766ull);
  CHECK(entries_live == 1);
  CHECK(entries_after == 0);
}

TEST_CASE("ssm: get waits in the engine for a later put", "[ssm]") {
  SsmNode n;
  uint64_t got = 0, t_get_done = 0, t_put = 0;
  n.sys.spawn(1, 2, [&] {
    got = ssm_get(0x2000, 8);
    t_get_done = n.platform().now_cycles();
  });
  n.sys.spawn(3, 1, [&] {
    n.platform().compute(2000);
    t_put = n.platform().now_cycles();
    ssm_put(0x2000, 42);
  });
  n.sys.run();
  CHECK(got == 42);
  CHECK(t_get_done > t_put);
}

TEST_CASE("ssm: lock trylock and unlock", "[ssm]") {
  SsmNode n;
  int a = -9, b = -9, c = -9, d = -9;
  n.sys.spawn(0, 0, [&] {
    a = ssm_lock(0x3000);
    b = ssm_trylock(0x3000);
    ssm_unlock(0x3000);
    c = ssm_trylock(0x3000);
    ssm_unlock(0x3000);
    d = ssm_quiet();
  });
  n.sys.run();
  CHECK(a == SSM_OK);
  CHECK(b == SSM_BUSY);
  CHECK(c == SSM_OK);
  CHECK(d == SSM_OK);
}
