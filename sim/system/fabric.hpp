// sim/system/fabric.hpp: a fabric joins ports of devices on different nodes (the global sync
// tree joins the SSMs' GSN links; the router network joins the nodes' injection/ejection ports).
// It is a plug-in of the cluster's step loop: each hook runs once per cycle at its place in the
// order documented in system/cluster.hpp. A fabric that changes a device's inputs in settle()
// re-evaluates that device (Device::eval) so both sides of a handshake agree.
#pragma once

#include <cstdint>
#include <string>

namespace hpcnet::sim {

class Fabric {
 public:
  virtual ~Fabric() = default;
  virtual std::string name() const = 0;
  virtual void drive() {}    // registered outputs onto device ports, before the devices settle
  virtual void settle() {}   // combinational answer to the devices' settled outputs
  virtual void sample() {}   // this cycle's handshakes
  virtual void edge() {}     // rising clock edge
  virtual uint64_t progress() const { return 0; }  // messages moved, for the watchdog
  virtual std::string describe() const { return {}; }
  virtual void close_trace() {}
};

}  // namespace hpcnet::sim
