// sim_platform.cpp: costs and blocking of the simulated platform, per-device interrupt service
// threads, and the locator that finds the node of the running simulated thread.
#include "sim/host/sim_platform.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::sim {

namespace {
Platform* running_node() {
  const Scheduler* s = Scheduler::running();
  return s ? s->platform() : nullptr;
}
}  // namespace

SimPlatform::SimPlatform(Scheduler& sched, HostMemory& mem, CpuCosts costs, double clock_mhz)
    : sched_(sched), mem_(mem), costs_(costs), clock_mhz_(clock_mhz) {
  sched_.bind_platform(this);
  platform_locator() = &running_node;
}

SimDeviceIo& SimPlatform::add_device(DeviceId id, HostBus& bus) {
  if (has_device(id)) throw std::invalid_argument(fmt::format("node: a second device with id {:#x}", id));
  devices_.push_back(std::make_unique<SimDeviceIo>(*this, id, bus));
  return *devices_.back();
}

Platform::Device& SimPlatform::open(DeviceId id) {
  for (auto& d : devices_)
    if (d->id() == id) return *d;
  std::string ids;
  for (auto& d : devices_) ids += fmt::format("{}{:#x}", ids.empty() ? "" : ", ", d->id());
  throw std::runtime_error(fmt::format("Platform::open: the node has no device with id {:#x} (it has: {})", id,
                                       ids.empty() ? "none" : ids));
}

bool SimPlatform::has_device(DeviceId id) const {
  for (auto& d : devices_)
    if (d->id() == id) return true;
  return false;
}

void SimPlatform::require_thread(const char* what) const {
  if (!sched_.in_thread())
    throw std::logic_error(fmt::format("Platform::{} must be called from a simulated thread (spawn)", what));
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


uint64_t SimPlatform::irq_calls() const {
  uint64_t n = 0;
  for (auto& d : devices_) n += d->irq_calls();
  return n;
}

// ---- one device's window and interrupt line

Platform& SimDeviceIo::platform() { return node_; }

void SimDeviceIo::mmio_write64(uint64_t offset, uint64_t value) {
  node_.require_thread("mmio_write64");
  node_.sched_.note("mmio_write64", offset);
  bus_.write64(static_cast<uint32_t>(offset), value);
  node_.sched_.sleep(node_.costs_.mmio_write);
}

void SimDeviceIo::mmio_write_wc(uint64_t offset, const uint64_t* words, size_t n) {
  node_.require_thread("mmio_write_wc");
  if (offset % 8 != 0)
    throw std::invalid_argument(fmt::format("mmio_write_wc: offset 0x{:x} is not 8-byte aligned", offset));
  node_.sched_.note("mmio_write_wc", offset);
  for (size_t i = 0; i < n;) {  // one burst per 64-byte line (the WC buffer), in order
    const uint64_t addr = offset + 8 * i;
    const size_t k = std::min<size_t>(n - i, HostBus::kBurstWords - (addr % 64) / 8);
    bus_.write_burst(static_cast<uint32_t>(addr), words + i, static_cast<unsigned>(k));
    if (node_.sched_.stopping()) return;
    i += k;
  }
  node_.sched_.sleep(node_.costs_.mmio_write * n);
}

uint64_t SimDeviceIo::mmio_read64(uint64_t offset) {
  node_.require_thread("mmio_read64");
  node_.sched_.note("mmio_read64", offset);
  return bus_.read64(static_cast<uint32_t>(offset));
}

void SimDeviceIo::set_irq_handler(std::function<void()> handler) {
  handler_ = std::move(handler);
  if (!has_service_) {
    has_service_ = true;
    service_ = node_.sched_.spawn_service(CpuId{0, kIrqThread}, [this] { irq_service(); }, "irq");
  }
}

void SimDeviceIo::irq_service() {
  Scheduler& sched = node_.sched_;
  for (;;) {
    service_idle_ = true;
    wake_pending_ = false;
    sched.block();
    if (sched.stopping()) return;
    service_idle_ = false;
    while (line_ && handler_) {
      ++irq_calls_;
      handler_();
      if (sched.stopping()) return;
      sched.sleep(1);
    }
  }
}

void SimDeviceIo::irq_line(bool level, uint64_t now) {
  line_ = level;
  if (level && has_service_ && service_idle_ && !wake_pending_) {
    wake_pending_ = true;
    node_.sched_.wake(service_, now + node_.costs_.irq_latency);
  }
}

}  // namespace hpcnet::sim
