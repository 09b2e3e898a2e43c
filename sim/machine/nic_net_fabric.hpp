// sim/machine/nic_net_fabric.hpp: the NICs of a machine on the router network (docs/machine.md).
// Node n's NIC link goes over a link wire (the back-to-back link's wire: a delay and injected
// faults, nic_link.hpp) to the router's end of the link (RouterPort: a reliable-link end), whose
// VC0 and VC1 feed router n's injection port of plane 0 and plane 1: two router networks of the
// same shape and mode, one per VC (requests and RDMA-write data on plane 0, responses on plane
// 1), so that the two never wait on each other inside the network (the deadlock argument,
// docs/machine.md). Each plane is a NetSimBase with external ports (NetEngine::set_external).
//
// Per cluster cycle: drive() puts each wire's arrivals on the NIC's and the router end's inputs
// and settles the router ends against the planes' registered outputs; sample() puts both ends'
// flits and control words on the wires; edge() drives the planes' ports from the router ends,
// steps the planes (a whole cycle each) and clocks the router ends.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/machine/router_port.hpp"
#include "sim/net/model/net_sim.hpp"
#include "sim/nic/nic_link.hpp"
#include "sim/system/fabric.hpp"

namespace hpcnet::sim {

struct NicNetConfig {
  MeshShape shape{4, 4};
  NetMode mode = NetMode::adbr;
  unsigned buf_pkts = 0;                 // router input buffers, packets (0: the model's default)
  unsigned link_delay = 2;               // cycles on each NIC-router wire
  std::vector<NicLinkFaults> faults;     // per node: its NIC link's faults, both ways (empty or shorter: none)
  uint64_t seed = 1;                     // the faults' random source
  double clock_mhz = 312.5;
  TraceWindow trace;                     // plane 0 (its first block) and trace_node's router end
  unsigned trace_node = 0;
};

class NicNetFabric final : public Fabric {
 public:
  // nics[n]: node n's NIC link port. Throws std::invalid_argument when no model builds the network.
  NicNetFabric(const NicNetConfig& cfg, const std::vector<NicLinkPort*>& nics);
  ~NicNetFabric() override;
  std::string name() const override;
  void drive() override;
  void sample() override;
  void edge() override;
  uint64_t progress() const override;
  std::string describe() const override;
  void close_trace() override;

  unsigned nodes() const { return static_cast<unsigned>(ports_.size()); }
  NetSimBase& plane(unsigned v) { return *plane_.at(v); }
  RouterPort& router_port(unsigned n) { return *ports_.at(n); }
  NicBackToBack& wire(unsigned n) { return *wires_.at(n); }
  // Flits the routers took at their injection ports, per plane.
  uint64_t plane_flits(unsigned v) const { return plane_.at(v)->engine().port_flits(); }

 private:
  NicNetConfig cfg_;
  std::array<std::unique_ptr<NetSimBase>, 2> plane_;
  std::vector<std::unique_ptr<RouterPort>> ports_;
  std::vector<std::unique_ptr<NicBackToBack>> wires_;
};

}  // namespace hpcnet::sim
