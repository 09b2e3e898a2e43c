// sim/nic/nic_pair.hpp: the paper's test platform as a configuration of the system layer: two
// nodes, each with a NIC on its PCIe bus (and, with `with_ssm`, the SSM beside it on the same host
// memory), NICs joined back to back (NicBackToBack), the NIC driver initialised on each node
// (node ids 0 and 1) and the RDMA library attached.
//
//   hpcnet::sim::NicPair pair;
//   pair.spawn(0, 0, 0, [&] { rdma_ep* ep; rdma_open(&ep); ... });
//   pair.run();   // until every spawned thread of both nodes returned
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "hpcnet/nic_driver.hpp"
#include "sim/nic/nic_device.hpp"
#include "sim/nic/nic_link.hpp"
#include "sim/nic/nic_node.hpp"
#include "sim/system/cluster.hpp"

namespace hpcnet::sim {

struct NicPairConfig : NicNodeConfig {
  unsigned link_delay = 2;        // cycles a flit or control word takes on the link
  std::array<NicLinkFaults, 2> link_faults{};  // faults of each direction (from node i; none: a perfect wire)
  uint64_t link_seed = 1;         // the faults' random source
  TraceWindow trace;              // node 0's NIC (empty file: none)
  TraceWindow trace1;             // node 1's NIC
  uint64_t watchdog_cycles = 200000;
  uint64_t max_cycles = 0;
};

class NicPair {
 public:
  explicit NicPair(NicPairConfig cfg = {});
  ~NicPair();
  NicPair(const NicPair&) = delete;
  NicPair& operator=(const NicPair&) = delete;

  const NicPairConfig& config() const { return cfg_; }
  Cluster& cluster() { return cluster_; }
  Node& node(unsigned i) { return cluster_.node(i); }
  NicDevice& nic(unsigned i) { return *nics_.at(i); }
  nic::Driver& driver(unsigned i) { return *drivers_.at(i); }
  NicBackToBack& link() { return *link_; }

  Scheduler::ThreadId spawn(unsigned node, unsigned pe, unsigned thread, std::function<void()> fn, std::string name = {});
  void run() { cluster_.run(); }
  uint64_t cycles() const { return cluster_.cycles(); }
  double ns(uint64_t cycles) const { return double(cycles) * 1000.0 / cfg_.clock_mhz; }

 private:
  NicPairConfig cfg_;
  Cluster cluster_;
  std::array<NicDevice*, 2> nics_{};
  NicBackToBack* link_ = nullptr;
  std::array<std::unique_ptr<nic::Driver>, 2> drivers_;
};

}  // namespace hpcnet::sim
