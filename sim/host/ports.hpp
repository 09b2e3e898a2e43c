// sim/host/ports.hpp: the host-side view of a device's MMIO slave, DMA master and irq ports,
// as plain values. Host models (HostBus, HostMemory) drive and sample these; a device
// adapter copies them to and from the Verilated signals once per cycle. Fake C++ devices use the
// same structs.
#pragma once

#include <array>
#include <cstdint>

namespace hpcnet::sim {

struct MmioPort {
  // driven by the host bus
  bool req_valid = false;
  bool req_write = false;
  uint32_t req_addr = 0;
  uint64_t req_wdata = 0;
  // driven by the device
  bool req_ready = false;
  bool rsp_valid = false;  // one-cycle pulse answering the (single) outstanding read
  uint64_t rsp_rdata = 0;
};

struct DmaPort {
  static constexpr unsigned kBeatBytes = 32;
  // driven by the device
  bool req_valid = false;
  bool req_write = false;
  uint64_t req_addr = 0;
  unsigned req_len = 0;  // 1..32 bytes, never crossing a 32-byte boundary
  unsigned req_tag = 0;
  std::array<uint8_t, kBeatBytes> req_wdata{};  // byte i goes to req_addr + i
  bool rsp_ready = false;
  // driven by host memory
  bool req_ready = false;
  bool rsp_valid = false;
  unsigned rsp_tag = 0;
  std::array<uint8_t, kBeatBytes> rsp_rdata{};  // byte i is the byte at addr + i; lanes >= len are 0
};

// A device's host side: what the node's host bus, host memory and interrupt controller drive
// and sample. Fabric ports (the GSN link, a network injection port) belong to the device class,
// and so do the ports of host-side links only some devices have (PCIe: PcieAttachment,
// sim/host/pcie.hpp; declared to the node by Device::make_host_links, sim/host/host_link.hpp).
struct HostPorts {
  MmioPort mmio;
  DmaPort dma;
  bool irq = false;  // level interrupt, driven by the device
};

}  // namespace hpcnet::sim
