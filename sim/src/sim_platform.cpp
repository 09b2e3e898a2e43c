// sim_platform.cpp: costs and blocking of the simulated platform, interrupt service thread.
#include "hpcnet/sim/sim_platform.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::sim {

SimPlatform::SimPlatform(Scheduler& sched, HostBus& bus, HostMemory& mem, CpuCosts costs, double clock_mhz)
    : sched_(sched), bus_(bus), mem_(mem), costs_(costs), clock_mhz_(clock_mhz) {}

void SimPlatform::require_thread(const char* what) const {
  if (!sched_.in_thread())
    throw std::logic_error(fmt::format("Platform::{} must be called from a simulated thread (spawn)", what));
}

void SimPlatform::mmio_write64(uint64_t offset, uint64_t value) {
  require_thread("mmio_write64");
  sched_.note("mmio_write64", offset);
  bus_.write64(static_cast<uint32_t>(offset), value);
  sched_.sleep(costs_.mmio_write);
}

uint64_t SimPlatform::mmio_read64(uint64_t offset) {
  require_thread("mmio_read64");
  sched_.note("mmio_read64", offset);
  return bus_.read64(static_cast<uint32_t>(offset));
}

DmaRegion SimPlatform::dma_alloc(size_t bytes, size_t align) { return mem_.alloc(bytes, align); }

void SimPlatform::dma_free(const DmaRegion& r) { mem_.free(r); }

void SimPlatform::charge(uint64_t phys, size_t n) {
  if (!sched_.in_thread() || n == 0) return;
  const uint64_t lines = (phys + n - 1) / 64 - phys / 64 + 1;
  sched_.sleep(costs_.mem_access * lines);
}

uint64_t SimPlatform::mem_read64(uint64_t phys) {
  sched_.note("mem_read64", phys);
  charge(phys, 8);
  return mem_.read64(phys);
}

void SimPlatform::mem_write64(uint64_t phys, uint64_t value) {
  sched_.note("mem_write64", phys);
  mem_.write64(phys, value);
  charge(phys, 8);
}

void SimPlatform::mem_read(uint64_t phys, void* dst, size_t n) {
  sched_.note("mem_read", phys);
  charge(phys, n);
  mem_.read(phys, dst, n);
}

void SimPlatform::mem_write(uint64_t phys, const void* src, size_t n) {
  sched_.note("mem_write", phys);
  mem_.write(phys, src, n);
  charge(phys, n);
}

void SimPlatform::relax() {
  require_thread("relax");
  sched_.sleep(costs_.relax ? costs_.relax : 1);
}

void SimPlatform::compute(uint64_t cycles) {
  require_thread("compute");
  sched_.note("compute", 0, false);
  sched_.sleep(cycles);
}

void SimPlatform::set_irq_handler(std::function<void()> handler) {
  handler_ = std::move(handler);
  if (!has_service_) {
    has_service_ = true;
    service_ = sched_.spawn_service(CpuId{0, kIrqThread}, [this] { irq_service(); }, "irq");
  }
}

void SimPlatform::irq_service() {
  for (;;) {
    service_idle_ = true;
    wake_pending_ = false;
    sched_.block();
    if (sched_.stopping()) return;
    service_idle_ = false;
    while (line_ && handler_) {
      ++irq_calls_;
      handler_();
      if (sched_.stopping()) return;
      sched_.sleep(1);
    }
  }
}

void SimPlatform::irq_line(bool level, uint64_t now) {
  line_ = level;
  if (level && has_service_ && service_idle_ && !wake_pending_) {
    wake_pending_ = true;
    sched_.wake(service_, now + costs_.irq_latency);
  }
}

}  // namespace hpcnet::sim
