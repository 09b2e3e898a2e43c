// hpcnet/sw/platform/bar_platform.hpp: hpcnet::Platform on a real Linux machine, over the PCI
// BARs of the node's devices (sysfs resource files mapped with mmap), interrupts from UIO
// (/dev/uioN), write-combined stores through a second, WC mapping of the BAR (sysfs
// resourceN_wc, mapped with the PAT's write-combining type), DMA-able memory from one pinned, physically contiguous region the caller provides
// (e.g. a hugepage or a reserved-memory carve-out with its physical base).
//
// Nothing in the simulator uses it: the build compiles and links the SSM driver and libssm
// (sw/platform/bar_check.cpp) and the NIC driver and RDMA library (sw/nic/bar_check.cpp) against
// it to prove that the driver sources need nothing from sim/. It has never run on hardware.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "hpcnet/platform.hpp"

namespace hpcnet {

struct BarDeviceConfig {
  DeviceId id = 0;
  std::string bar_path;   // e.g. /sys/bus/pci/devices/0000:03:00.0/resource0
  size_t bar_bytes = 0;
  std::string uio_path;   // e.g. /dev/uio0; empty: no interrupt
  std::string wc_path{};  // the same BAR mapped write-combining, e.g. .../resource0_wc (a prefetchable
                          // BAR); empty: mmio_write_wc stores through the uncached mapping
};

struct BarPlatformConfig {
  std::vector<BarDeviceConfig> devices;
  void* dma_virt = nullptr;   // the DMA region as mapped in this process
  uint64_t dma_phys = 0;      // and its physical base
  size_t dma_bytes = 0;
  double clock_mhz = 200.0;   // the devices' clock, for now_cycles()
};

class BarPlatform final : public Platform {
 public:
  explicit BarPlatform(BarPlatformConfig cfg);  // throws std::system_error when a BAR cannot be mapped
  ~BarPlatform() override;

  Device& open(DeviceId id) override;
  bool has_device(DeviceId id) const override;
  DmaRegion dma_alloc(size_t bytes, size_t align) override;
  void dma_free(const DmaRegion& r) override;
  uint64_t mem_read64(uint64_t phys) override;
  void mem_write64(uint64_t phys, uint64_t value) override;
  void mem_read(uint64_t phys, void* dst, size_t n) override;
  void mem_write(uint64_t phys, const void* src, size_t n) override;
  void fence() override;
  CpuId current_cpu() const override;
  uint64_t now_cycles() const override;
  double clock_mhz() const override { return cfg_.clock_mhz; }
  void relax() override;
  void compute(uint64_t cycles) override;
  void* node_local(const void* key) const override { return locals_.get(key); }
  void set_node_local(const void* key, void* value) override { locals_.set(key, value); }

 private:
  class BarDevice;
  uint8_t* virt(uint64_t phys, size_t n) const;

  BarPlatformConfig cfg_;
  std::vector<std::unique_ptr<BarDevice>> devices_;
  std::map<uint64_t, size_t> used_;  // phys -> bytes
  uint64_t next_ = 0;                // bump allocator offset into the DMA region
  NodeLocals locals_;
};

}  // namespace hpcnet
