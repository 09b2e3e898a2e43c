// sim/host/sim_platform.hpp: hpcnet::Platform for one simulated node: Scheduler (the CPUs),
// HostMemory (shared by the node's devices) and, per device, a HostBus (its register window)
// and an interrupt line with its own handler.
//
// Every call made from a simulated thread costs simulated time (CpuCosts) and yields:
//   mmio_write64: enqueue (blocks while the bus buffer is full), then mmio_write cycles;
//   mmio_write_wc: one bus burst per 64-byte line touched (HostBus::write_burst; each blocks
//                 while the buffer is full), then mmio_write cycles per word; the flush is free;
//   mmio_read64 : blocks for the bus round trip;
//   mem_*       : mem_access cycles per 64-byte line touched; stores apply at the call,
//                 loads read memory when the cost has elapsed;
//   relax       : relax cycles (at least 1); compute(n): n cycles; fence, now, dma_alloc: free.
// Memory calls from outside a thread (test set-up) are immediate; MMIO needs a thread.
// Interrupts: each device has a service thread (CpuId{0, kIrqThread}) that calls the device's
// handler irq_latency cycles after its line is seen high, and again (one cycle after it returns)
// for as long as it stays high.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "hpcnet/platform.hpp"
#include "sim/core/scheduler.hpp"
#include "sim/host/host_bus.hpp"
#include "sim/host/host_memory.hpp"

namespace hpcnet::sim {

struct CpuCosts {
  uint64_t mmio_write = 1;    // issuing an uncached store
  uint64_t mem_access = 20;   // CPU load/store of DMA-able memory, per 64-byte line
  uint64_t relax = 4;         // one spin-wait pause
  uint64_t irq_latency = 100; // line high to handler start
};

class SimPlatform;

// One device's register window (over its HostBus) and interrupt line.
class SimDeviceIo final : public Platform::Device {
 public:
  SimDeviceIo(SimPlatform& node, DeviceId id, HostBus& bus) : node_(node), id_(id), bus_(bus) {}
  DeviceId id() const override { return id_; }
  void mmio_write64(uint64_t offset, uint64_t value) override;
  void mmio_write_wc(uint64_t offset, const uint64_t* words, size_t n) override;
  uint64_t mmio_read64(uint64_t offset) override;
  void set_irq_handler(std::function<void()> handler) override;
  Platform& platform() override;

  // Main loop: the device's interrupt line as sampled this cycle.
  void irq_line(bool level, uint64_t now);
  uint64_t irq_calls() const { return irq_calls_; }

 private:
  void irq_service();

  SimPlatform& node_;
  DeviceId id_;
  HostBus& bus_;
  std::function<void()> handler_;
  bool has_service_ = false;
  Scheduler::ThreadId service_ = 0;
  bool line_ = false;
  bool service_idle_ = false;
  bool wake_pending_ = false;
  uint64_t irq_calls_ = 0;
};

class SimPlatform final : public Platform {
 public:
  SimPlatform(Scheduler& sched, HostMemory& mem, CpuCosts costs = {}, double clock_mhz = 200.0);
  SimPlatform(const SimPlatform&) = delete;
  SimPlatform& operator=(const SimPlatform&) = delete;

  // The node adds each device with its register window's bus (in host-bus order).
  SimDeviceIo& add_device(DeviceId id, HostBus& bus);
  SimDeviceIo& io(size_t index) { return *devices_.at(index); }

  Device& open(DeviceId id) override;
  bool has_device(DeviceId id) const override;
  DmaRegion dma_alloc(size_t bytes, size_t align) override;
  void dma_free(const DmaRegion& r) override;
  uint64_t mem_read64(uint64_t phys) override;
  void mem_write64(uint64_t phys, uint64_t value) override;
  void mem_read(uint64_t phys, void* dst, size_t n) override;
  void mem_write(uint64_t phys, const void* src, size_t n) override;
  void fence() override {}
  CpuId current_cpu() const override { return sched_.current_cpu(); }
  uint64_t now_cycles() const override { return sched_.now(); }
  double clock_mhz() const override { return clock_mhz_; }
  void relax() override;
  void compute(uint64_t cycles) override;
  void* node_local(const void* key) const override { return locals_.get(key); }
  void set_node_local(const void* key, void* value) override { locals_.set(key, value); }

  uint64_t irq_calls() const;  // every device's handler calls
  const CpuCosts& costs() const { return costs_; }
  Scheduler& scheduler() { return sched_; }

 private:
  void require_thread(const char* what) const;
  void charge(uint64_t phys, size_t n);
  friend class SimDeviceIo;

  Scheduler& sched_;
  HostMemory& mem_;
  CpuCosts costs_;
  double clock_mhz_;
  std::vector<std::unique_ptr<SimDeviceIo>> devices_;
  NodeLocals locals_;
};

}  // namespace hpcnet::sim
