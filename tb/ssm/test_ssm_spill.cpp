// Integration: hash-set conflicts, spill to the host-memory overflow area, overflow-area
// exhaustion handled by the driver's interrupt handler; nothing lost, everything freed.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "sim/ssm/ssm_node.hpp"

using hpcnet::sim::SsmNode;
namespace R = hpcnet::ssm_regs;

namespace {
// `count` 8-byte aligned addresses that all map to hash set `set`.
std::vector<uint64_t> same_set(unsigned set, unsigned count, unsigned sets = 1024) {
  std::vector<uint64_t> out;
  for (uint64_t a = 0x100000; out.size() < count; a += 8)
    if (hpcnet::ssm::hash_set(a, sets) == set) out.push_back(a);
  return out;
}
}  // namespace

TEST_CASE("ssm: six addresses in one hash set spill two entries and get them back", "[ssm][spill]") {
  SsmNode n;
  const auto addrs = same_set(77, 6);
  uint64_t onchip = 0, ovf = 0, onchip_end = 9, ovf_end = 9, free_list = 0;
  std::vector<uint64_t> got;
  n.sys.spawn(2, 1, [&] {
    for (size_t i = 0; i < addrs.size(); ++i) ssm_put(addrs[i], 1000 + i);
    REQUIRE(ssm_quiet() == SSM_OK);
    const uint64_t e = n.drv.read_reg(R::STAT_ENTRIES_OFFSET);
    onchip = R::STAT_ENTRIES_ONCHIP.get(e);
    ovf = R::STAT_ENTRIES_OVERFLOW.get(e);
    for (size_t i = addrs.size(); i-- > 0;) got.push_back(ssm_get(addrs[i], 8));  // spilled ones first
    REQUIRE(ssm_quiet() == SSM_OK);
    const uint64_t e2 = n.drv.read_reg(R::STAT_ENTRIES_OFFSET);
    onchip_end = R::STAT_ENTRIES_ONCHIP.get(e2);
    ovf_end = R::STAT_ENTRIES_OVERFLOW.get(e2);
    free_list = R::OVF_FREE_LIST.get(n.drv.read_reg(R::OVF_FREE_OFFSET));
  });
  n.sys.run();
  CHECK(onchip == 4);
  CHECK(ovf == 2);
  REQUIRE(got.size() == 6);
  for (size_t i = 0; i < 6; ++i) CHECK(got[i] == 1000 + (5 - i));
  CHECK(onchip_end == 0);
  CHECK(ovf_end == 0);
  CHECK(free_list == 2);  // both nodes went back to the free list
}

TEST_CASE("ssm: thousands of live entries exhaust the overflow area and the handler extends it", "[ssm][spill]") {
  hpcnet::ssm::DriverConfig dcfg;
  dcfg.overflow_bytes = 32 * 32;       // 32 nodes at first
  dcfg.overflow_grow_bytes = 64 * 32;  // 64 more per interrupt
  SsmNode n({}, dcfg);
  constexpr unsigned kPerThread = 300;  // 6000 live entries in all
  auto addr_of = [](unsigned w, unsigned i) { return 0x800000ull + (uint64_t(i) * 20 + w) * 8 * 13; };
  uint64_t onchip = 0, ovf = 0;
  n.run_all([&](unsigned pe, unsigned t) {
    const unsigned w = pe * 4 + t;
    for (unsigned i = 0; i < kPerThread; ++i) ssm_put(addr_of(w, i), (uint64_t(w) << 32) | i);
    CHECK(ssm_quiet() == SSM_OK);
  });
  n.sys.spawn(0, 0, [&] {
    const uint64_t e = n.drv.read_reg(R::STAT_ENTRIES_OFFSET);
    onchip = R::STAT_ENTRIES_ONCHIP.get(e);
    ovf = R::STAT_ENTRIES_OVERFLOW.get(e);
  });
  n.sys.run();
  CHECK(onchip + ovf == 20 * kPerThread);
  CHECK(ovf > 32);  // more than the first chunk held
  CHECK(n.drv.overflow_extensions() >= 1);
  // Every value comes back from whichever thread reads it (reversed ownership).
  std::vector<unsigned> wrong(20, 0);
  n.run_all([&](unsigned pe, unsigned t) {
    const unsigned w = 19 - (pe * 4 + t);
    for (unsigned i = 0; i < kPerThread; ++i)
      if (ssm_get(addr_of(w, i), 8) != ((uint64_t(w) << 32) | i)) ++wrong[w];
    CHECK(ssm_quiet() == SSM_OK);
  });
  for (unsigned w = 0; w < 20; ++w) CHECK(wrong[w] == 0);
  uint64_t left = 1;
  n.sys.spawn(0, 0, [&] { left = n.drv.read_reg(R::STAT_ENTRIES_OFFSET); });
  n.sys.run();
  CHECK(left == 0);
  CHECK(n.drv.errors().empty());
  INFO("overflow extensions " << n.drv.overflow_extensions() << ", spilled " << ovf);
}

TEST_CASE("ssm: spills through a slow narrow DMA port (back-pressure on both DMA masters)", "[ssm][spill]") {
  hpcnet::sim::SsmSystemConfig cfg;
  cfg.mem.max_outstanding = 1;   // the port refuses requests while one is in flight
  cfg.mem.bytes_per_cycle = 1.0;
  hpcnet::ssm::DriverConfig dcfg;
  dcfg.overflow_bytes = 4 * 32;
  dcfg.overflow_grow_bytes = 4 * 32;
  SsmNode n(cfg, dcfg);
  const auto addrs = same_set(300, 12);
  std::vector<uint64_t> got(addrs.size(), 0);
  n.run_all([&](unsigned pe, unsigned t) {
    const unsigned w = pe * 4 + t;
    if (w < addrs.size()) {
      ssm_put(addrs[w], 77 + w);
      got[w] = ssm_get(addrs[(w + 5) % addrs.size()], 8);  // every thread reads another's entry
      CHECK(ssm_quiet() == SSM_OK);
    }
  });
  for (size_t w = 0; w < addrs.size(); ++w) CHECK(got[w] == 77 + (w + 5) % addrs.size());
  CHECK(n.drv.overflow_extensions() >= 1);
  CHECK(n.sys.stats().mem.max_pending <= 1);
}
