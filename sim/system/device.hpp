// sim/system/device.hpp: a device on a node's host bus, as the step loop sees it.
//
// A device has a host side (HostPorts: MMIO slave, DMA master, interrupt line) that its node
// drives and samples, may declare host-side links of its own (PCIe: make_host_links) that its
// node runs, and may have fabric ports of its own (the SSM's GSN link) that a Fabric joins to
// other nodes. Each cycle the step loop (system/cluster.hpp) applies the host models'
// and fabrics' outputs, calls eval() (settle with the clock low; may be called again in the same
// cycle when a fabric changes an input), then edge(). Verilated adapters copy the ports to and
// from the model's signals in eval(); C++ fakes compute them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hpcnet/platform.hpp"
#include "sim/host/host_link.hpp"
#include "sim/host/ports.hpp"

namespace hpcnet::sim {

class HostMemory;  // sim/host/host_memory.hpp

class Device {
 public:
  Device(DeviceId id, std::string name) : id_(id), name_(std::move(name)) {}
  virtual ~Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  DeviceId id() const { return id_; }
  const std::string& name() const { return name_; }
  HostPorts& host() { return host_; }
  const HostPorts& host() const { return host_; }

  virtual void set_reset(bool asserted) = 0;
  // Apply every input port (host side and fabric ports), settle, fill in the outputs.
  virtual void eval() = 0;
  // Rising clock edge.
  virtual void edge() = 0;
  // Flush and close any open waveform (called before an error is reported).
  virtual void close_trace() {}
  // Events the watchdog counts as progress beyond the host side's (e.g. fabric messages sent).
  virtual uint64_t progress() const { return 0; }
  // Extra lines for a stall report.
  virtual std::string describe() const { return {}; }
  // The host-side links this device needs beyond HostPorts (a device on PCIe returns its
  // PcieAttachment's host_links(mem)): called once, by the node that takes the device, with the
  // node's host memory; the node runs them (host_link.hpp).
  virtual std::vector<std::unique_ptr<HostLink>> make_host_links(HostMemory& mem) {
    (void)mem;
    return {};
  }

 protected:
  HostPorts host_;

 private:
  DeviceId id_;
  std::string name_;
};

}  // namespace hpcnet::sim
