// sim/machine/machine.hpp: the whole machine (docs/machine.md): N nodes, each a host with its NIC
// on its PCIe bus (and, with `with_ssm`, the SSM beside it), the NICs joined by the router network
// (NicNetFabric: two planes of routers, each NIC's link into its router through the link layer),
// the SSMs by the global sync tree. The NIC driver is initialised on every node (node id = router
// id), its route table written from the network's minimal routes (source routing: Driver::
// set_routes), and the RDMA library attached; with the SSM, its driver too, attached to libssm.
//
//   hpcnet::sim::Machine m({.net = {.shape = {4, 4}, .mode = NetMode::dor_vct}});
//   m.spawn(3, 0, 0, [&] { rdma_ep* ep; rdma_open(&ep); ... });
//   m.run();   // until every spawned thread of every node returned
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hpcnet/nic_driver.hpp"
#include "hpcnet/ssm_driver.hpp"
#include "sim/machine/nic_net_fabric.hpp"
#include "sim/nic/nic_node.hpp"
#include "sim/system/cluster.hpp"

namespace hpcnet::sim {

// The nodes a machine can have: a NIC routes to the nodes of its route table, and its receiver
// keeps the messages of that many senders (docs/machine.md section 4): 64 with the default model
// (nic_top's RouteLog2 = 6), 256 with the benchmark model Vnic_top_n256 (RouteLog2 = 8), which a
// machine of more than 64 nodes takes.
inline constexpr unsigned kMachineMaxNodes = 256;

struct MachineConfig {
  NicNetConfig net;                  // shape, routing mode, buffers, NIC-router wires and their faults
  NicNodeConfig node;                // every node alike (with_ssm: an SSM and the sync tree too)
  ssm::DriverConfig ssm_driver;
  TraceWindow nic_trace;             // trace_node's NIC (net.trace: its router end and plane 0)
  unsigned trace_node = 0;
  uint64_t watchdog_cycles = 200000;
  uint64_t max_cycles = 0;
  bool routes = true;                // write every node's route table (false: all routes 0, for tests)
};

class Machine {
 public:
  explicit Machine(MachineConfig cfg);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  const MachineConfig& config() const { return cfg_; }
  unsigned nodes() const { return static_cast<unsigned>(nodes_.size()); }
  Cluster& cluster() { return cluster_; }
  Node& node(unsigned i) { return *nodes_.at(i).node; }
  NicDevice& nic(unsigned i) { return *nodes_.at(i).nic; }
  nic::Driver& driver(unsigned i) { return *drivers_.at(i); }
  ssm::Driver& ssm_driver(unsigned i) { return *ssm_drivers_.at(i); }
  NicNetFabric& net() { return *net_; }
  // The route field of node src's packets for dst (what set_routes wrote).
  uint32_t route(unsigned src, unsigned dst) const { return coords_.route(src, dst); }
  unsigned hops(unsigned src, unsigned dst) const { return coords_.hops(src, dst); }

  Scheduler::ThreadId spawn(unsigned node, unsigned pe, unsigned thread, std::function<void()> fn, std::string name = {});
  void run() { cluster_.run(); }
  uint64_t cycles() const { return cluster_.cycles(); }
  double ns(uint64_t cycles) const { return double(cycles) * 1000.0 / cfg_.node.clock_mhz; }

 private:
  MachineConfig cfg_;
  NodeCoords coords_;
  Cluster cluster_;
  std::vector<NicNodeDevices> nodes_;
  NicNetFabric* net_ = nullptr;
  std::vector<std::unique_ptr<nic::Driver>> drivers_;
  std::vector<std::unique_ptr<ssm::Driver>> ssm_drivers_;
};

}  // namespace hpcnet::sim
