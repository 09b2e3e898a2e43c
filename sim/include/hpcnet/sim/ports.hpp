// hpcnet/sim/ports.hpp: the host-side view of a device's MMIO slave, DMA master and irq ports,
// as plain values. Host models (HostBus, HostMemory) drive and sample these; a DUT adapter copies
// them to and from the Verilated signals once per cycle. Fake C++ DUTs use the same structs.
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

// A 128-bit global-sync-network message (docs/gsn.md): w[0] = bits 63:0, w[1] = bits 127:64.
struct GsnMsg {
  std::array<uint64_t, 2> w{};
  friend bool operator==(const GsnMsg&, const GsnMsg&) = default;
};

// The device's link to the global sync network (a valid/ready stream each way).
struct GsnPort {
  // driven by the device
  bool up_valid = false;
  GsnMsg up_msg;
  bool dn_ready = false;
  // driven by the network
  bool up_ready = false;
  bool dn_valid = false;
  GsnMsg dn_msg;
};

struct DevicePorts {
  MmioPort mmio;
  DmaPort dma;
  GsnPort gsn;
  bool irq = false;  // level interrupt, driven by the device
};

}  // namespace hpcnet::sim
