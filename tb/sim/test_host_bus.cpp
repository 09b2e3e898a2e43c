// test_host_bus.cpp: MMIO latency, spacing, full-buffer stalls, read round trip and ordering,
// as observed by a fake DUT inside SsmSystem.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <vector>

#include "fake_device.hpp"
#include "sim/ssm/ssm_system.hpp"

using namespace hpcnet;
using namespace hpcnet::sim;
using hpcnet::sim::test::FakeDevice;

namespace {

struct Rig {
  FakeDevice* dut;
  std::unique_ptr<SsmSystem> sys;
  explicit Rig(SsmSystemConfig cfg = {}) {
    auto d = std::make_unique<FakeDevice>();
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
      auto& io = r.sys->io();
      t0 = p.now_cycles();
      for (uint64_t i = 0; i < 10; ++i) io.mmio_write64(8 * i, i);
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
  // Spacing 2, one write issued per cycle: the backlog of writes not yet on the link grows by
  // one every two cycles until the 4-entry buffer is full; from then on the writer runs at the
  // link's pace (one write per 2 cycles).
  SsmSystemConfig cfg;
  cfg.bus.buffer_entries = 4;
  cfg.bus.spacing = 2;
  Rig r(cfg);
  std::vector<uint64_t> done;
  uint64_t t0 = 0;
  r.sys->spawn(0, 0, [&] {
    auto& p = r.sys->platform();
    auto& io = r.sys->io();
    t0 = p.now_cycles();
    for (uint64_t i = 0; i < 20; ++i) {
      io.mmio_write64(0, i);
      done.push_back(p.now_cycles());
    }
  });
  r.sys->run();
  CHECK(done[3] == t0 + 4);  // no stall while the backlog is small
  CHECK(r.sys->bus().stats().full_stalls > 0);
  CHECK(r.sys->bus().stats().max_queued == 4);
  for (uint64_t k = 10; k < 20; ++k) {
    INFO("write " << k);
    CHECK(done[k] - done[k - 1] == 2);  // paced by the link
  }
  r.sys->run_for(100);
  CHECK(r.dut->regs[0] == 19);
  for (size_t i = 1; i < r.dut->mmio_log.size(); ++i) CHECK(r.dut->mmio_log[i].cycle - r.dut->mmio_log[i - 1].cycle >= 2);
}

TEST_CASE("host bus: threads waiting for buffer space are served in arrival order", "[sim][bus]") {
  SsmSystemConfig cfg;
  cfg.bus.buffer_entries = 2;
  cfg.bus.spacing = 8;
  Rig r(cfg);
  std::vector<unsigned> per_thread(8, 0);
  for (unsigned t = 0; t < 8; ++t)
    r.sys->spawn(t / 4, t % 4, [&, t] {
      for (uint64_t i = 0; i < 10; ++i) {
        r.sys->io().mmio_write64(8 * t, i);
        ++per_thread[t];
      }
    });
  // Stop half way: with FIFO service every thread has made about the same progress.
  r.sys->run_for(8 * 40);
  unsigned lo = 100, hi = 0;
  for (unsigned c : per_thread) { lo = std::min(lo, c); hi = std::max(hi, c); }
  CHECK(hi - lo <= 1);
  CHECK(lo >= 3);
  r.sys->run();
}

TEST_CASE("host bus: read round trip and ordering after writes", "[sim][bus]") {
  SsmSystemConfig cfg;
  cfg.bus.read_latency = 5;  // even a faster read path keeps reads behind earlier writes
  Rig r(cfg);
  r.dut->read_delay = 3;
  uint64_t t_issue = 0, t_back = 0, value = 0, first = 0, after = 0;
  r.sys->spawn(1, 2, [&] {
    auto& p = r.sys->platform();
    auto& io = r.sys->io();
    CHECK(p.current_cpu() == CpuId{1, 2});
    first = io.mmio_read64(0x40);
    t_issue = p.now_cycles();
    value = io.mmio_read64(0x40);
    t_back = p.now_cycles();
    io.mmio_write64(0x40, 0xdead'beef);
    after = io.mmio_read64(0x40);
  });
  r.dut->regs[0x40] = 77;
  r.sys->run();
  CHECK(first == 77);
  CHECK(value == 77);
  CHECK(after == 0xdead'beef);
  CHECK(t_back - t_issue == 5 + 3 + 40);  // request latency + device + return latency
  CHECK(r.sys->bus().stats().reads == 3);
}
