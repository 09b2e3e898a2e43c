// sim/nic/nic_device.hpp: the NIC as a device of a node: host side (MMIO, irq), its PCIe link
// (pcie(): the DMA channels, which it declares to its node) and its link port (link()), which a
// fabric joins to another NIC (nic_link.hpp: back to back). Implemented for the Verilated nic_top
// models (make_nic_device).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "hpcnet/nic_driver.hpp"
#include "sim/core/harness.hpp"
#include "sim/core/model_table.hpp"
#include "sim/host/pcie.hpp"
#include "sim/system/device.hpp"

namespace hpcnet::sim {

// One flit on a link (docs/link.md): 32 bytes with its VC, head and tail marks, the packet's
// sequence number (head flit) and CRC-16 (tail flit).
struct NicFlit {
  bool valid = false;
  unsigned vc = 0;
  bool head = false, tail = false;
  uint8_t seq = 0;
  uint16_t crc = 0;
  std::array<uint64_t, 4> data{};
};

// A NIC's link port (the reliable link layer, docs/link.md): the flit it sends and its
// receiver's control word (acknowledgements, credits) for the other end's sender, both driven by
// the device; the flit it receives and the other end's control word, driven by the fabric (a
// control word may be lost: ctl_in_valid low). No ready: the sender reserves room with credits.
struct NicLinkPort {
  NicFlit tx;                   // device -> fabric
  uint64_t ctl_out = 0;         // device -> fabric, every cycle
  NicFlit rx;                   // fabric -> device
  bool ctl_in_valid = false;    // fabric -> device
  uint64_t ctl_in = 0;
};

class NicDevice : public Device {
 public:
  NicDevice() : Device(nic::kDeviceId, "nic") {}
  NicLinkPort& link() { return link_; }
  // Its PCIe link: the configuration (set before the NIC joins a node), the DMA port the adapter
  // drives, and the node's PcieDma serving it (statistics).
  PcieAttachment& pcie() { return pcie_; }
  std::vector<std::unique_ptr<HostLink>> make_host_links(HostMemory& mem) override { return pcie_.host_links(mem); }

 protected:
  NicLinkPort link_;
  PcieAttachment pcie_;
};

using NicMake = std::unique_ptr<NicDevice> (*)(double clock_mhz, TraceWindow trace);
const std::vector<ModelEntry<NicMake>>& nic_models();

// The Verilated nic_top (the default model), with a trace window.
std::unique_ptr<NicDevice> make_nic_device(double clock_mhz = 312.5, TraceWindow trace = {});

}  // namespace hpcnet::sim
