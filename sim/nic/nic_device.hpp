// sim/nic/nic_device.hpp: the NIC as a device of a node: host side (MMIO, the PCIe DMA channels,
// irq) and its link port (link()), which a fabric joins to another NIC (nic_link.hpp: back to
// back). Implemented for the Verilated nic_top models (make_nic_device).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "hpcnet/nic_driver.hpp"
#include "sim/core/harness.hpp"
#include "sim/core/model_table.hpp"
#include "sim/system/device.hpp"

namespace hpcnet::sim {

// One flit on a link (docs/nic.md section 7): 32 bytes with its VC, head and tail marks.
struct NicFlit {
  bool valid = false;
  unsigned vc = 0;
  bool head = false, tail = false;
  std::array<uint64_t, 4> data{};
};

// A NIC's link port: the flit it sends and the credits it returns (driven by the device), the
// flit it receives and the credits for what it sent (driven by the fabric). No ready: the sender
// reserves room with credits, one packet slot of a VC per credit.
struct NicLinkPort {
  NicFlit tx;                   // device -> fabric
  bool rx_cred_valid = false;   // device -> fabric: a receive slot of VC rx_cred_vc freed
  unsigned rx_cred_vc = 0;
  NicFlit rx;                   // fabric -> device
  bool tx_cred_valid = false;   // fabric -> device: a credit for VC tx_cred_vc
  unsigned tx_cred_vc = 0;
};

class NicDevice : public Device {
 public:
  NicDevice() : Device(nic::kDeviceId, "nic") { host_.uses_pcie = true; }
  NicLinkPort& link() { return link_; }

 protected:
  NicLinkPort link_;
};

using NicMake = std::unique_ptr<NicDevice> (*)(double clock_mhz, TraceWindow trace);
const std::vector<ModelEntry<NicMake>>& nic_models();

// The Verilated nic_top (the default model), with a trace window.
std::unique_ptr<NicDevice> make_nic_device(double clock_mhz = 312.5, TraceWindow trace = {});

}  // namespace hpcnet::sim
