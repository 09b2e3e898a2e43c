// test_host_bus.cpp: MMIO latency, spacing, full-buffer stalls, read round trip and ordering,
// as observed by a fake DUT inside SsmSystem.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "fake_dut.hpp"
#include "hpcnet/sim/ssm_system.hpp"

using namespace hpcnet;
using namespace hpcnet::sim;
using hpcnet::sim::test::FakeDut;

namespace {

struct Rig {
  FakeDut* dut;
  std::unique_ptr<SsmSystem> sys;
  explicit Rig(SsmSystemConfig cfg = {}) {
    auto d = std::make_unique<FakeDut>();
    dut = d.get();
    sys = std::make_unique<SsmSystem>(cfg, std::move(d));
  }
};

}  // namespace

TEST_CASE("host bus: write latency and spacing at the device", "[sim][bus]") {
  for (uint64_t spacing : {2, 5}) {
    SsmSystemConfig cfg;
    cfg.bus.spacing = spacing;
    Rig r(cfg);
    uint64_t t0 = 0;
    r.sys->spawn(0, 0, [&] {
      auto& p = r.sys->platform();
      t0 = p.now_cycles();
      for (uint64_t i = 0; i < 10; ++i) p.mmio_write64(8 * i, i);
    });
    r.sys->run();
    r.sys->run_for(100);
    REQUIRE(r.dut->mmio_log.size() == 10);
    CHECK(r.dut->mmio_log[0].cycle == t0 + 40);
    for (size_t i = 1; i < 10; ++i) {
      INFO("spacing " << spacing << " write " << i);
      CHECK(r.dut->mmio_log[i].cycle - r.dut->mmio_log[i - 1].cycle == spacing);
      CHECK(r.dut->mmio_log[i].addr == 8 * i);
    }
    CHECK(r.sys->bus().stats().writes == 10);
  }
}

TEST_CASE("host bus: a full posted-write buffer stalls the writer", "[sim][bus]") {
  SsmSystemConfig cfg;
  cfg.bus.buffer_entries = 4;
  Rig r(cfg);
  std::vector<uint64_t> done;
  uint64_t t0 = 0;
  r.sys->spawn(0, 0, [&] {
    auto& p = r.sys->platform();
    t0 = p.now_cycles();
    for (uint64_t i = 0; i < 8; ++i) {
      p.mmio_write64(0, i);
      done.push_back(p.now_cycles());
    }
  });
  r.sys->run();
  CHECK(done[3] == t0 + 4);   // four writes fit, one cycle each
  CHECK(done[4] > t0 + 40);   // the fifth waits until the first reached the device
  CHECK(r.sys->bus().stats().full_stalls > 0);
  r.sys->run_for(100);
  CHECK(r.dut->regs[0] == 7);
}

TEST_CASE("host bus: read round trip and ordering after writes", "[sim][bus]") {
  SsmSystemConfig cfg;
  cfg.bus.read_latency = 5;  // even a faster read path keeps reads behind earlier writes
  Rig r(cfg);
  r.dut->read_delay = 3;
  uint64_t t_issue = 0, t_back = 0, value = 0, first = 0, after = 0;
  r.sys->spawn(1, 2, [&] {
    auto& p = r.sys->platform();
    CHECK(p.current_cpu() == CpuId{1, 2});
    first = p.mmio_read64(0x40);
    t_issue = p.now_cycles();
    value = p.mmio_read64(0x40);
    t_back = p.now_cycles();
    p.mmio_write64(0x40, 0xdead'beef);
    after = p.mmio_read64(0x40);
  });
  r.dut->regs[0x40] = 77;
  r.sys->run();
  CHECK(first == 77);
  CHECK(value == 77);
  CHECK(after == 0xdead'beef);
  CHECK(t_back - t_issue == 5 + 3 + 40);  // request latency + device + return latency
  CHECK(r.sys->bus().stats().reads == 3);
}
