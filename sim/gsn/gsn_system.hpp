// sim/gsn/gsn_system.hpp: several SSM nodes joined by the global sync network, as a configuration
// of the system layer: a Cluster of N Nodes (each an SSM with its bus, memory, 5 PEs x 4 threads,
// driver and libssm) and the GSN tree fabric (one node: the SSM's own loopback).
//
//   hpcnet::sim::GsnSystem g({.nodes = 4});
//   g.run_all([&](unsigned node, unsigned pe, unsigned t) { ssm_barrier(A, 20, 1); });
//
// libssm calls act on the node of the thread that makes them (each node's Platform holds its
// driver; no selection call).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "hpcnet/ssm.h"
#include "hpcnet/ssm_driver.hpp"
#include "sim/gsn/gsn_fabric.hpp"
#include "sim/ssm/ssm_system.hpp"
#include "sim/system/cluster.hpp"

namespace hpcnet::sim {

struct GsnSystemConfig {
  unsigned nodes = 4;                   // 1 (the engine's own loopback), 2, 4, 16, 64
  SsmSystemConfig node;                 // every node alike (its trace, watchdog and limit unused)
  ssm::DriverConfig driver;
  uint64_t watchdog_cycles = 200000;    // no progress anywhere for this long: Stall
  TraceWindow net_trace;                // FST of the network
  // More fabrics joined to the nodes before the drivers boot (the cluster scenario's router mesh).
  std::function<void(Cluster&)> more_fabrics;
};

// Add `count` SSM nodes to a cluster, joined by the GSN (the tree for 2..64 nodes, the loopback
// for one); returns their SSMs in node order. The cluster scenario adds more fabrics after.
std::vector<SsmDevice*> add_gsn_nodes(Cluster& c, unsigned count, const SsmSystemConfig& node, TraceWindow net_trace);

class GsnSystem {
 public:
  // A node of the system with its booted driver (attached to libssm).
  struct Member {
    Member(Node& n, const ssm::DriverConfig& c) : node(n), drv(n.platform(), c) {}
    Node& node;
    ssm::Driver drv;
    Platform& platform() { return node.platform(); }
  };

  explicit GsnSystem(GsnSystemConfig cfg = {});
  ~GsnSystem();
  GsnSystem(const GsnSystem&) = delete;
  GsnSystem& operator=(const GsnSystem&) = delete;

  unsigned nodes() const { return static_cast<unsigned>(members_.size()); }
  Member& node(unsigned i) { return *members_.at(i); }
  Cluster& cluster() { return cluster_; }

  void spawn(unsigned node, unsigned pe, unsigned thread, std::function<void()> fn);
  // fn(node, pe, thread) on the first `threads` threads (pe-major) of every node, until all return.
  void run_all(const std::function<void(unsigned node, unsigned pe, unsigned thread)>& fn, unsigned threads = ~0u);
  void run() { cluster_.run(); }  // until every spawned thread of every node has returned
  void step() { cluster_.step(); }
  uint64_t cycles() const { return cluster_.cycles(); }
  uint64_t gsn_messages() const { return tree_ ? tree_->messages() : 0; }  // up-messages the network took

 private:
  GsnSystemConfig cfg_;
  Cluster cluster_;
  GsnTreeFabric* tree_ = nullptr;
  std::vector<std::unique_ptr<Member>> members_;
};

}  // namespace hpcnet::sim
