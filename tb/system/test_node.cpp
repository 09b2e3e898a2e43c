// test_node.cpp: the system layer: one node holding two devices (the Verilated SSM and a C++
// fake) on one host bus and one host memory; each device's register window, DMA port and
// interrupt line work at the same time from several threads, and each interrupt reaches its own
// device's handler. Plus the device lookup (Platform::open) and libssm on the calling thread's node.
#include <catch2/catch.hpp>

#include <array>
#include <map>
#include <memory>
#include <vector>

#include "../sim/fake_device.hpp"
#include "hpcnet/ssm.h"
#include "hpcnet/ssm_driver.hpp"
#include "sim/ssm/ssm_system.hpp"

using namespace hpcnet;
using namespace hpcnet::sim;
using hpcnet::sim::test::FakeDevice;

namespace {

struct TwoDeviceNode {
  FakeDevice* fake = nullptr;
  std::unique_ptr<SsmSystem> sys;
  std::unique_ptr<ssm::Driver> drv;

  TwoDeviceNode() {
    auto f = std::make_unique<FakeDevice>();
    fake = f.get();
    std::vector<std::unique_ptr<Device>> more;
    more.push_back(std::move(f));
    SsmSystemConfig cfg;
    sys = std::make_unique<SsmSystem>(cfg, make_ssm_device(cfg.num_cores, cfg.clock_mhz), std::move(more));
    drv = std::make_unique<ssm::Driver>(sys->platform());
    sys->spawn(0, 0, [this] { drv->init(); }, "init");
    sys->run();
    ssm::ssm_attach(drv.get());
  }
  ~TwoDeviceNode() { ssm::ssm_detach(drv.get()); }
};

}  // namespace

TEST_CASE("node: devices are opened by id and an absent id is named", "[system][node]") {
  TwoDeviceNode n;
  Platform& p = n.sys->platform();
  CHECK(p.has_device(ssm::kDeviceId));
  CHECK(p.has_device(FakeDevice::kDefaultId));
  CHECK(&p.open(ssm::kDeviceId).platform() == &p);
  CHECK(p.open(FakeDevice::kDefaultId).id() == FakeDevice::kDefaultId);
  CHECK_FALSE(p.has_device(0x1234));
  CHECK_THROWS_WITH(p.open(0x1234), Catch::Contains("no device with id 0x1234"));
  // a second device with an id already on the node is refused
  std::vector<std::unique_ptr<Device>> more;
  more.push_back(std::make_unique<FakeDevice>(FakeDevice::kDefaultId, "second"));
  CHECK_THROWS_WITH(SsmSystem({}, std::make_unique<FakeDevice>(), std::move(more)), Catch::Contains("a second device"));
}

TEST_CASE("node: SSM and a fake device: interleaved MMIO and DMA from several threads and irqs to their own handlers",
          "[system][node]") {
  TwoDeviceNode n;
  Platform& p = n.sys->platform();
  Platform::Device& fake_io = p.open(FakeDevice::kDefaultId);
  HostMemory& mem = n.sys->memory();

  // The fake's DMA: 48 writes of a known pattern into one buffer and 48 reads of another, issued
  // while the SSM is busy with its own DMA (completions, spills).
  const DmaRegion wbuf = p.dma_alloc(48 * 32, 64), rbuf = p.dma_alloc(48 * 32, 64);
  std::vector<uint8_t> rpattern(48 * 32);
  for (size_t i = 0; i < rpattern.size(); ++i) rpattern[i] = uint8_t(i * 7 + 3);
  mem.write(rbuf.phys, rpattern.data(), rpattern.size());
  for (unsigned i = 0; i < 48; ++i) {
    FakeDevice::DmaOp w;
    w.write = true;
    w.addr = wbuf.phys + 32 * i;
    w.len = 32;
    w.tag = i % 8;
    for (unsigned b = 0; b < 32; ++b) w.data[b] = uint8_t(i ^ (b * 13));
    w.not_before = n.fake->cycle + 200;
    n.fake->dma_script.push_back(w);
    FakeDevice::DmaOp r;
    r.addr = rbuf.phys + 32 * i;
    r.len = 32;
    r.tag = 8 + i % 8;
    r.not_before = n.fake->cycle + 200;
    n.fake->dma_script.push_back(r);
  }
  std::map<unsigned, unsigned> dma_by_port;
  mem.set_observer([&](const DmaEvent& e) { ++dma_by_port[e.port]; });

  // Interrupts: the fake raises its line when a thread writes kIrqReg; its handler acknowledges.
  unsigned fake_irqs = 0;
  CpuId fake_irq_cpu{};
  fake_io.set_irq_handler([&] {
    ++fake_irqs;
    fake_irq_cpu = p.current_cpu();
    fake_io.mmio_write64(FakeDevice::kIrqReg, 0);
    (void)fake_io.mmio_read64(FakeDevice::kIrqReg);  // the acknowledge has landed
  });

  constexpr unsigned kThreads = 6, kWrites = 20;
  std::array<uint64_t, kThreads> ssm_ok{};
  std::array<uint64_t, kThreads> fake_read_ok{};
  for (unsigned t = 0; t < kThreads; ++t) {
    n.sys->spawn(1 + t / 4, t % 4, [&, t] {
      for (uint64_t i = 0; i < kWrites; ++i) {
        fake_io.mmio_write64(8 * t, (uint64_t(t) << 32) | i);          // fake window
        ssm_ok[t] += ssm_put(0x4000 + 64 * t, i) == SSM_OK;            // SSM window (libssm)
        ssm_ok[t] += ssm_get(0x4000 + 64 * t, 8) == i;
        fake_read_ok[t] += fake_io.mmio_read64(8 * t) == ((uint64_t(t) << 32) | i);
      }
      if (t == 0) {  // one interrupt from each device
        fake_io.mmio_write64(FakeDevice::kIrqReg, 1);
        ssm_put_n(0x9000, 1, 0);  // zero readers: the engine reports ERR_READERS by interrupt
        CHECK(ssm_quiet() == -int(ssm_regs::State::ERR_READERS));
      }
    });
  }
  n.sys->run();
  n.sys->run_for(3000);  // let both handlers run

  for (unsigned t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    CHECK(ssm_ok[t] == 2 * kWrites);
    CHECK(fake_read_ok[t] == kWrites);
  }
  // The fake saw each thread's writes in that thread's order, exactly once.
  std::array<uint64_t, kThreads> next{};
  unsigned writes = 0;
  for (const auto& m : n.fake->mmio_log) {
    if (!m.write || m.addr == FakeDevice::kIrqReg) continue;
    const unsigned t = m.addr / 8;
    REQUIRE(t < kThreads);
    CHECK(m.data == ((uint64_t(t) << 32) | next[t]));
    ++next[t];
    ++writes;
  }
  CHECK(writes == kThreads * kWrites);
  // DMA: every fake write landed, every fake read returned memory's bytes; both ports were served.
  REQUIRE(n.fake->dma_script.empty());
  std::vector<uint8_t> got(48 * 32);
  mem.read(wbuf.phys, got.data(), got.size());
  for (unsigned i = 0; i < 48; ++i)
    for (unsigned b = 0; b < 32; ++b) CHECK(got[32 * i + b] == uint8_t(i ^ (b * 13)));
  REQUIRE(n.fake->dma_rsps.size() == 48);
  for (unsigned i = 0; i < 48; ++i) {
    CHECK(n.fake->dma_rsps[i].tag == 8 + i % 8);
    for (unsigned b = 0; b < 32; ++b) CHECK(n.fake->dma_rsps[i].data[b] == rpattern[32 * i + b]);
  }
  CHECK(dma_by_port[0] > 0);      // the SSM's completions
  CHECK(dma_by_port[1] == 96);    // the fake's requests
  // Each interrupt reached its own device's handler only.
  CHECK(fake_irqs == 1);
  CHECK(fake_irq_cpu.thread == kIrqThread);
  REQUIRE(n.drv->errors().size() == 1);
  CHECK(n.drv->errors()[0].code == ssm_regs::State::ERR_READERS);
}
