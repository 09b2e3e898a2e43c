// sim/host/ports.hpp: the host-side view of a device's MMIO slave, DMA master and irq ports,
// as plain values. Host models (HostBus, HostMemory, PcieDma) drive and sample these; a device
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

// The NIC's PCIe DMA master (docs/nic.md section 2): a read channel (requests, then tagged
// responses of 32-byte frames) and a posted write channel, each valid/ready; served by PcieDma
// (sim/host/pcie.hpp).
struct PcieDmaPort {
  static constexpr unsigned kFrameBytes = 32;     // a response or write beat: one aligned frame
  static constexpr unsigned kMaxReadBytes = 4096; // a read request: 1..4096 bytes inside one 4 KB page
  // read request: valid/addr/len/tag driven by the device, ready by the host
  bool rd_req_valid = false;
  uint64_t rd_req_addr = 0;   // byte address
  unsigned rd_req_len = 0;    // 1..4096, never crossing a 4 KB boundary
  unsigned rd_req_tag = 0;
  bool rd_req_ready = false;
  // read response: valid/tag/data/last driven by the host, ready by the device. The frames of
  // host memory holding the requested bytes, in address order; requests in acceptance order.
  bool rd_rsp_valid = false;
  unsigned rd_rsp_tag = 0;
  std::array<uint8_t, kFrameBytes> rd_rsp_data{};  // byte i is the byte at frame address + i;
                                                   // bytes outside the request are 0
  bool rd_rsp_last = false;   // the request's last frame
  bool rd_rsp_ready = false;
  // write beat (posted): valid/addr/len/data/last driven by the device, ready by the host
  bool wr_valid = false;
  uint64_t wr_addr = 0;       // the first byte this beat writes
  unsigned wr_len = 0;        // 1..32, inside the beat's 32-byte frame
  std::array<uint8_t, kFrameBytes> wr_data{};  // frame aligned: byte i goes to (wr_addr & ~31) + i
  bool wr_last = false;       // the last beat of a write transaction (contiguous, inside one 4 KB page)
  bool wr_ready = false;
};

// A device's host side: what the node's host bus, host memory and interrupt controller drive
// and sample. Fabric ports (the GSN link, a network injection port) belong to the device class.
struct HostPorts {
  MmioPort mmio;
  DmaPort dma;
  PcieDmaPort pcie;
  bool irq = false;  // level interrupt, driven by the device
  bool uses_pcie = false;  // set by a device's constructor: the node serves `pcie` with a PcieDma
};

}  // namespace hpcnet::sim
