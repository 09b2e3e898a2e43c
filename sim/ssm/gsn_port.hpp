// sim/ssm/gsn_port.hpp: a device's link to the global sync network, as plain values (the SSM
// device drives the up stream and samples the down stream; the GSN fabric does the opposite).
#pragma once

#include <array>
#include <cstdint>

namespace hpcnet::sim {

// A 128-bit global-sync-network message (docs/gsn.md): w[0] = bits 63:0, w[1] = bits 127:64.
struct GsnMsg {
  std::array<uint64_t, 2> w{};
  friend bool operator==(const GsnMsg&, const GsnMsg&) = default;
};

// A valid/ready stream each way.
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

}  // namespace hpcnet::sim
