// test_ssm_system.cpp: watchdog on stalled fake DUTs, DMA through the system, real-model smoke.
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>

#include "fake_device.hpp"
#include "sim/core/errors.hpp"
#include "sim/ssm/ssm_system.hpp"

using namespace hpcnet;
using namespace hpcnet::sim;
using hpcnet::sim::test::FakeDevice;
using hpcnet::sim::test::make_system;
using Catch::Matchers::Contains;

TEST_CASE("watchdog: a device that never accepts MMIO stalls the run", "[sim][watchdog]") {
  FakeDevice* dut = nullptr;
  SsmSystemConfig cfg;
  cfg.watchdog_cycles = 2000;
  auto sys = make_system(dut, cfg);
  dut->mmio_ready = false;
  sys->set_stall_dump([] { return std::string("dut: mmio_req_ready stuck low"); });
  sys->spawn(1, 2, [&] {
    for (int i = 0; i < 100; ++i) sys->io().mmio_write64(0x18, 1);
  }, "writer");
  CHECK_THROWS_AS(sys->run(), Stall);
  try {
    sys->run();
    FAIL("no stall");
  } catch (const Stall& e) {
    CHECK_THAT(e.what(), Contains("pe1.t2 writer") && Contains("mmio buffer full(0x18)") &&
                             Contains("mmio_req_ready stuck low"));
  }
}

TEST_CASE("watchdog: a thread polling memory that never changes is not progress", "[sim][watchdog]") {
  FakeDevice* dut = nullptr;
  SsmSystemConfig cfg;
  cfg.watchdog_cycles = 5000;
  auto sys = make_system(dut, cfg);
  DmaRegion slot = sys->memory().alloc(64, 64);
  sys->spawn(0, 3, [&] {
    auto& p = sys->platform();
    p.spin_until([&] { return p.mem_read64(slot.phys) != 0; });
  });
  try {
    sys->run();
    FAIL("no stall");
  } catch (const Stall& e) {
    CHECK_THAT(e.what(), Contains("pe0.t3: in mem_read64"));
    CHECK(sys->cycles() >= 5000);
    CHECK(sys->cycles() < 5200);
  }
}

TEST_CASE("system: device DMA writes are seen by a polling thread", "[sim][system]") {
  FakeDevice* dut = nullptr;
  auto sys = make_system(dut);
  DmaRegion buf = sys->memory().alloc(64, 64);
  FakeDevice::DmaOp op;
  op.write = true;
  op.addr = buf.phys + 8;
  op.len = 8;
  op.data[0] = 0x2a;
  op.not_before = 500;
  dut->dma_script.push_back(op);
  uint64_t seen_at = 0;
  sys->spawn(2, 0, [&] {
    auto& p = sys->platform();
    p.spin_until([&] { return p.mem_read64(buf.phys + 8) == 0x2a; });
    seen_at = p.now_cycles();
  });
  sys->run();
  REQUIRE(dut->dma_accepts.size() == 1);
  const uint64_t visible = dut->dma_accepts[0].cycle + sys->config().mem.latency;
  CHECK(seen_at >= visible);
  CHECK(seen_at <= visible + 20 + 4 + 20);  // one poll interval (load + relax) plus the load
  CHECK(sys->stats().mem.dma_writes == 1);
}

TEST_CASE("system: max_cycles ends a run with Timeout", "[sim][system]") {
  FakeDevice* dut = nullptr;
  SsmSystemConfig cfg;
  cfg.max_cycles = 1000;
  auto sys = make_system(dut, cfg);
  sys->spawn(0, 0, [&] { sys->platform().compute(5000); });
  CHECK_THROWS_AS(sys->run(), Timeout);
}

TEST_CASE("system: Verilated ssm_top models clock with idle host ports", "[sim][system][verilated]") {
  for (unsigned cores : {1u, 2u}) {
    SsmSystemConfig cfg;
    cfg.num_cores = cores;
    SsmSystem sys(cfg);
    sys.run_for(100);
    CHECK(sys.cycles() == 100 + cfg.reset_cycles);
  }
  SsmSystemConfig bad;
  bad.num_cores = 3;
  CHECK_THROWS_AS(SsmSystem(bad), std::invalid_argument);
}

// Hidden (run by hand: test_sim "[.perf]"): simulation speed with 20 polling threads.
TEST_CASE("system: speed of the Verilated model with 20 polling threads", "[.perf]") {
  SsmSystem sys;
  DmaRegion flag = sys.memory().alloc(64, 64);
  for (unsigned pe = 0; pe < 5; ++pe)
    for (unsigned t = 0; t < 4; ++t)
      sys.spawn(pe, t, [&] {
        auto& p = sys.platform();
        while (p.now_cycles() < 200000) p.mem_read64(flag.phys), p.relax();
      });
  const auto t0 = std::chrono::steady_clock::now();
  sys.run();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN(sys.cycles() << " cycles in " << s << " s: " << double(sys.cycles()) / s / 1e6 << " M cycles/s");
}
