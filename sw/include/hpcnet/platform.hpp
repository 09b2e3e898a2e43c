// hpcnet/platform.hpp: the platform interface host drivers are written against.
//
// A Platform is one node as its drivers see it: DMA-able host memory with physical addresses
// (shared by every device of the node), CPU access to that memory, the CPUs, time, and the
// node's devices. A driver opens its device by id and gets that device's own register window
// and interrupt line (Platform::Device). Nothing here is simulation-specific: the simulation
// implements it on Verilated models (hpcnet::sim::SimPlatform), a real machine on mapped BARs
// (sw/platform/bar_platform.hpp, compiled by the build to prove the drivers need nothing else).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

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

// CpuId::thread reported by current_cpu() inside an interrupt handler.
inline constexpr unsigned kIrqThread = ~0u;

// Which device of a node (like a PCI vendor/device pair). Each driver header names its own
// (ssm::kDeviceId); a node holds at most one device of each id.
using DeviceId = uint32_t;

class Platform {
 public:
  // One device of the node: its register window and its interrupt line.
  class Device {
   public:
    virtual ~Device() = default;
    virtual DeviceId id() const = 0;
    // Register window (offsets are byte offsets into the window, 8-byte aligned).
    virtual void mmio_write64(uint64_t offset, uint64_t value) = 0;  // posted, uncached
    virtual uint64_t mmio_read64(uint64_t offset) = 0;  // blocks for the response; ordered after earlier writes
    // n consecutive 64-bit words from offset through the window's write-combining mapping, then
    // flushed (a store fence): the device sees each 64-byte line as one burst, in order, before any
    // later MMIO write or read. The default writes them one by one with mmio_write64 (a platform
    // without write combining behaves the same, only slower).
    virtual void mmio_write_wc(uint64_t offset, const uint64_t* words, size_t n) {
      for (size_t i = 0; i < n; ++i) mmio_write64(offset + 8 * i, words[i]);
    }
    // The handler runs in a service context (not on a driver thread) while this device's level
    // interrupt line is high; it may use every other call of this interface and of the node's.
    virtual void set_irq_handler(std::function<void()> handler) = 0;
    virtual Platform& platform() = 0;  // the node the device sits in
  };

  virtual ~Platform() = default;

  // The node's device with this id; throws std::runtime_error naming the id if there is none.
  virtual Device& open(DeviceId id) = 0;
  virtual bool has_device(DeviceId id) const = 0;

  // DMA-able host memory, shared by every device of the node.
  virtual DmaRegion dma_alloc(size_t bytes, size_t align) = 0;  // zeroed, physically contiguous
  virtual void dma_free(const DmaRegion& r) = 0;
  virtual uint64_t mem_read64(uint64_t phys) = 0;                // CPU load of DMA-able memory
  virtual void mem_write64(uint64_t phys, uint64_t value) = 0;   // CPU store
  virtual void mem_read(uint64_t phys, void* dst, size_t n) = 0;
  virtual void mem_write(uint64_t phys, const void* src, size_t n) = 0;
  // Orders earlier CPU stores to DMA-able memory before later MMIO writes (a doorbell after
  // filling a descriptor) and later loads after earlier ones. Real hardware: a store/full fence.
  virtual void fence() = 0;

  // Where and when.
  virtual CpuId current_cpu() const = 0;
  virtual uint64_t now_cycles() const = 0;  // device clock cycles
  virtual double clock_mhz() const = 0;
  virtual void relax() = 0;                 // spin-wait pause between polls
  virtual void compute(uint64_t cycles) = 0;  // the CPU does other work for this long

  // Per-node state of a library whose C API takes no handle (libssm keeps its driver here),
  // found by a key the library owns (the address of one of its objects). nullptr when unset.
  virtual void* node_local(const void* key) const = 0;
  virtual void set_node_local(const void* key, void* value) = 0;

  // Conveniences built on the calls above.
  double cycles_to_ns(uint64_t cycles) const { return static_cast<double>(cycles) * 1000.0 / clock_mhz(); }
  template <class Pred>
  void spin_until(Pred&& done) {  // poll done() with relax() between polls
    while (!done()) relax();
  }
};

// A table of node-local pointers, the storage behind Platform::node_local for implementations.
class NodeLocals {
 public:
  void* get(const void* key) const {
    for (const auto& [k, v] : entries_)
      if (k == key) return v;
    return nullptr;
  }
  void set(const void* key, void* value) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->first == key) {
        if (value)
          it->second = value;
        else
          entries_.erase(it);
        return;
      }
    if (value) entries_.emplace_back(key, value);
  }

 private:
  std::vector<std::pair<const void*, void*>> entries_;
};

// The node the calling thread runs on, for libraries whose C API takes no handle (libssm).
// A process on a real machine runs on one node and installs a locator that returns its platform;
// the simulator installs one that returns the node of the running simulated thread. nullptr when
// no locator is installed or the caller runs on no node.
using PlatformLocator = Platform* (*)();
inline PlatformLocator& platform_locator() {
  static PlatformLocator locator = nullptr;
  return locator;
}
inline Platform* this_platform() { return platform_locator() ? platform_locator()() : nullptr; }

}  // namespace hpcnet
