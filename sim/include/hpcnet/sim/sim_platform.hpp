// hpcnet/sim/sim_platform.hpp: hpcnet::Platform on Scheduler + HostBus + HostMemory.
//
// Every call made from a simulated thread costs simulated time (CpuCosts) and yields:
//   mmio_write64: enqueue (blocks while the bus buffer is full), then mmio_write cycles;
//   mmio_read64 : blocks for the bus round trip;
//   mem_*       : mem_access cycles per 64-byte line touched; stores apply at the call,
//                 loads read memory when the cost has elapsed;
//   relax       : relax cycles (at least 1); compute(n): n cycles; fence, now, dma_alloc: free.
// Memory calls from outside a thread (test set-up) are immediate; MMIO needs a thread.
// Interrupts: a service thread (CpuId{0, kIrqThread}) calls the handler irq_latency cycles after
// the line is seen high, and again (one cycle after it returns) for as long as it stays high.
#pragma once

#include <cstdint>
#include <functional>

#include "hpcnet/platform.hpp"
#include "hpcnet/sim/host_bus.hpp"
#include "hpcnet/sim/host_memory.hpp"
#include "hpcnet/sim/scheduler.hpp"

namespace hpcnet::sim {

struct CpuCosts {
  uint64_t mmio_write = 1;    // issuing an uncached store
  uint64_t mem_access = 20;   // CPU load/store of DMA-able memory, per 64-byte line
  uint64_t relax = 4;         // one spin-wait pause
  uint64_t irq_latency = 100; // line high to handler start
};

class SimPlatform final : public Platform {
 public:
  SimPlatform(Scheduler& sched, HostBus& bus, HostMemory& mem, CpuCosts costs = {}, double clock_mhz = 200.0);

  void mmio_write64(uint64_t offset, uint64_t value) override;
  uint64_t mmio_read64(uint64_t offset) override;
  DmaRegion dma_alloc(size_t bytes, size_t align) override;
  void dma_free(const DmaRegion& r) override;
  uint64_t mem_read64(uint64_t phys) override;
  void mem_write64(uint64_t phys, uint64_t value) override;
  void mem_read(uint64_t phys, void* dst, size_t n) override;
  void mem_write(uint64_t phys, const void* src, size_t n) override;
  void fence() override {}
  void set_irq_handler(std::function<void()> handler) override;
  CpuId current_cpu() const override { return sched_.current_cpu(); }
  uint64_t now_cycles() const override { return sched_.now(); }
  double clock_mhz() const override { return clock_mhz_; }
  void relax() override;
  void compute(uint64_t cycles) override;

  // Main loop: the device's interrupt line as sampled this cycle.
  void irq_line(bool level, uint64_t now);
  uint64_t irq_calls() const { return irq_calls_; }
  const CpuCosts& costs() const { return costs_; }

 private:
  void require_thread(const char* what) const;
  void charge(uint64_t phys, size_t n);
  void irq_service();

  Scheduler& sched_;
  HostBus& bus_;
  HostMemory& mem_;
  CpuCosts costs_;
  double clock_mhz_;
  std::function<void()> handler_;
  bool has_service_ = false;
  Scheduler::ThreadId service_ = 0;
  bool line_ = false;
  bool service_idle_ = false;
  bool wake_pending_ = false;
  uint64_t irq_calls_ = 0;
};

}  // namespace hpcnet::sim
