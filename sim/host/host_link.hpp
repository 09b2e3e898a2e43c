// sim/host/host_link.hpp: a host-side link a device declares beyond the ports every device has
// (HostPorts: MMIO slave, DMA master, interrupt line): PCIe today (PcieAttachment, pcie.hpp). The
// device owns the link's port and, when a node takes it, gives the node the link model over the
// node's host memory (Device::make_host_links); the node runs it in its phases: drive() with the
// host models before the threads run, sample() after host memory has sampled, idle() when reset
// ends (as it idles HostPorts). The node knows no kind of link: a new one needs no line in it.
#pragma once

#include <cstdint>
#include <string>

namespace hpcnet::sim {

class CompletionOrder;  // sim/host/host_bus.hpp

class HostLink {
 public:
  virtual ~HostLink() = default;
  virtual void drive(uint64_t now) = 0;      // the link's outputs on the device's port
  virtual void sample(uint64_t now) = 0;     // this cycle's handshakes
  virtual void idle() = 0;                   // the port's idle values
  virtual uint64_t progress() const = 0;     // requests and responses taken so far (the watchdog's)
  virtual std::string describe() const = 0;  // one line of state for a stall report
  // What the device's register reads wait for (PCIe: a read completion does not pass the
  // device's posted writes; HostBus::order_completions), or nullptr.
  virtual const CompletionOrder* completion_order() const { return nullptr; }
};

}  // namespace hpcnet::sim
