// test_scheduler.cpp: simulated threads: determinism, fairness, exceptions, irq handler, teardown.
#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_device.hpp"
#include "sim/ssm/ssm_system.hpp"

using namespace hpcnet;
using namespace hpcnet::sim;
using hpcnet::sim::test::FakeDevice;
using hpcnet::sim::test::make_system;

namespace {


// 20 threads mixing MMIO, memory polls and compute; returns (cycles, device log signature).
std::pair<uint64_t, std::vector<uint64_t>> busy_run() {
  FakeDevice* dut = nullptr;
  auto sys = make_system(dut);
  DmaRegion flag = sys->memory().alloc(64, 64);
  for (unsigned pe = 0; pe < 5; ++pe)
    for (unsigned t = 0; t < 4; ++t)
      sys->spawn(pe, t, [&sys, flag, pe, t] {
        auto& p = sys->platform();
        auto& io = sys->io();
        for (unsigned i = 0; i < 5; ++i) {
          io.mmio_write64(8 * (pe * 4 + t), i);
          p.compute(pe * 7 + t);
          if (io.mmio_read64(8 * (pe * 4 + t)) != i) throw std::runtime_error("bad read");
          p.mem_write64(flag.phys, p.mem_read64(flag.phys) + 1);
        }
      });
  sys->run();
  std::vector<uint64_t> sig;
  for (auto& m : dut->mmio_log) sig.push_back(m.cycle * 1000 + m.addr);
  return {sys->cycles(), sig};
}

}  // namespace

TEST_CASE("scheduler: same program gives same cycle counts", "[sim][sched]") {
  auto a = busy_run();
  auto b = busy_run();
  CHECK(a.first == b.first);
  CHECK(a.second == b.second);
  CHECK(a.second.size() == 200);
}

TEST_CASE("scheduler: fixed order and fair sharing", "[sim][sched]") {
  Scheduler s(SchedConfig{2, 2, 64 * 1024});
  std::vector<int> order;
  std::vector<int> counts(4, 0);
  for (unsigned i = 0; i < 4; ++i)
    s.spawn(CpuId{i / 2, i % 2}, [&, i] {
      for (int k = 0; k < 100; ++k) {
        order.push_back(int(i));
        ++counts[i];
        s.sleep(1);
      }
    });
  CHECK_THROWS_AS(s.spawn(CpuId{0, 0}, [] {}), std::logic_error);  // cpu already busy
  CHECK_THROWS_AS(s.spawn(CpuId{2, 0}, [] {}), std::out_of_range);
  uint64_t now = 0;
  while (!s.all_done()) s.run_cycle(now++);
  CHECK(now == 101);
  CHECK(counts == std::vector<int>{100, 100, 100, 100});
  for (size_t k = 0; k < order.size(); ++k) REQUIRE(order[k] == int(k % 4));
  CHECK(s.finished_threads() == 4);
}

TEST_CASE("scheduler: an exception in a thread is rethrown by run()", "[sim][sched]") {
  FakeDevice* dut = nullptr;
  auto sys = make_system(dut);
  bool other_done = false;
  sys->spawn(0, 0, [&] {
    sys->platform().compute(50);
    throw std::runtime_error("driver bug");
  });
  sys->spawn(0, 1, [&] {
    sys->platform().compute(100);
    other_done = true;
  });
  CHECK_THROWS_WITH(sys->run(), "driver bug");
  CHECK(sys->cycles() >= 50);
  sys->run();  // the other thread continues
  CHECK(other_done);
}

TEST_CASE("scheduler: unfinished threads are unwound at teardown", "[sim][sched]") {
  struct Guard {
    bool* flag;
    ~Guard() { *flag = true; }
  };
  bool unwound = false;
  {
    FakeDevice* dut = nullptr;
    auto sys = make_system(dut);
    dut->read_delay = FakeDevice::kNever;
    sys->spawn(3, 3, [&] {
      Guard g{&unwound};
      sys->io().mmio_read64(0x8);  // never answered
    });
    sys->run_for(500);
    CHECK(!unwound);
  }
  CHECK(unwound);
}

TEST_CASE("scheduler: teardown unwinds past a thread's own handlers and starts no thread", "[sim][sched]") {
  bool unwound = false, caught = false, after = false, started = false;
  {
    FakeDevice* dut = nullptr;
    auto sys = make_system(dut);
    dut->read_delay = FakeDevice::kNever;
    sys->spawn(0, 0, [&] {
      try {
        struct Guard {
          bool* flag;
          ~Guard() { *flag = true; }
        } g{&unwound};
        sys->io().mmio_read64(0x8);  // never answered
      } catch (const std::exception&) {
        caught = true;  // teardown is not an error of the thread's own
      }
      after = true;
    });
    sys->run_for(500);
    sys->spawn(0, 1, [&] { started = true; });  // spawned, never resumed before teardown
  }
  CHECK(unwound);
  CHECK(!caught);
  CHECK(!after);
  CHECK(!started);
}

TEST_CASE("scheduler: irq handler runs while the line is high", "[sim][sched][irq]") {
  FakeDevice* dut = nullptr;
  SsmSystemConfig cfg;
  cfg.cpu.irq_latency = 100;
  auto sys = make_system(dut, cfg);
  auto& p = sys->platform();
  auto& io = sys->io();
  unsigned calls = 0;
  CpuId where;
  uint64_t started = 0;
  io.set_irq_handler([&] {
    ++calls;
    where = p.current_cpu();
    started = p.now_cycles();
    io.mmio_write64(FakeDevice::kIrqReg, 0);  // acknowledge: the line drops ~40 cycles later
    io.mmio_read64(FakeDevice::kIrqReg);      // flush the posted write
  });
  uint64_t raised = 0;
  sys->spawn(0, 0, [&] {
    io.mmio_write64(FakeDevice::kIrqReg, 1);
    raised = p.now_cycles() - 1 + 40;  // the device sees the write 40 cycles after issue
    p.compute(1000);
  });
  sys->run();
  CHECK(calls == 1);
  CHECK(where.thread == kIrqThread);
  CHECK(started == raised + 1 + 100);  // line visible the cycle after the write, then irq latency
  CHECK(sys->stats().irq_calls == 1);
}
