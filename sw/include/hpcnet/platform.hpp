// hpcnet/platform.hpp: the platform interface host drivers are written against.
// A driver reaches hardware only through this class: MMIO to the device's register window,
// DMA-able memory with physical addresses, CPU access to that memory, an interrupt handler,
// and time. The simulation implements it on a Verilated model (hpcnet::sim::SimPlatform); a
// real device would implement it on a mapped BAR. Nothing here is simulation-specific.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace hpcnet {

// A physically contiguous buffer the device can reach by DMA.
struct DmaRegion {
  uint64_t phys = 0;
  size_t bytes = 0;
  explicit operator bool() const { return bytes != 0; }
};

// The processing element and hardware thread the caller runs on.
struct CpuId {
  unsigned pe = 0;
  unsigned thread = 0;
  friend bool operator==(const CpuId&, const CpuId&) = default;
};

// CpuId::thread reported by current_cpu() inside the interrupt handler.
inline constexpr unsigned kIrqThread = ~0u;

class Platform {
 public:
  virtual ~Platform() = default;

  // Device register window (offsets are byte offsets into the window, 8-byte aligned).
  virtual void mmio_write64(uint64_t offset, uint64_t value) = 0;  // posted, uncached
  virtual uint64_t mmio_read64(uint64_t offset) = 0;  // blocks for the response; ordered after earlier writes

  // DMA-able host memory.
  virtual DmaRegion dma_alloc(size_t bytes, size_t align) = 0;  // zeroed, physically contiguous
  virtual void dma_free(const DmaRegion& r) = 0;
  virtual uint64_t mem_read64(uint64_t phys) = 0;                // CPU load of DMA-able memory
  virtual void mem_write64(uint64_t phys, uint64_t value) = 0;   // CPU store
  virtual void mem_read(uint64_t phys, void* dst, size_t n) = 0;
  virtual void mem_write(uint64_t phys, const void* src, size_t n) = 0;
  // Orders earlier CPU stores to DMA-able memory before later MMIO writes (a doorbell after
  // filling a descriptor) and later loads after earlier ones. Real hardware: a store/full fence.
  virtual void fence() = 0;

  // Interrupt: the handler runs in a service context (not on a driver thread) while the
  // device's level interrupt line is high; it may use every other call of this interface.
  virtual void set_irq_handler(std::function<void()> handler) = 0;

  // Where and when.
  virtual CpuId current_cpu() const = 0;
  virtual uint64_t now_cycles() const = 0;  // device clock cycles
  virtual double clock_mhz() const = 0;
  virtual void relax() = 0;                 // spin-wait pause between polls
  virtual void compute(uint64_t cycles) = 0;  // the CPU does other work for this long

  // Conveniences built on the calls above.
  double cycles_to_ns(uint64_t cycles) const { return static_cast<double>(cycles) * 1000.0 / clock_mhz(); }
  template <class Pred>
  void spin_until(Pred&& done) {  // poll done() with relax() between polls
    while (!done()) relax();
  }
};

}  // namespace hpcnet
