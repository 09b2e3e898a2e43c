// hpcnet/sim/gsn_system.hpp: several nodes (SsmNode: SSM engine, host bus and memory, 5 PEs x 4
// threads, driver and libssm) joined by the global sync network (Verilated gsn_tree), clocked
// together cycle by cycle. Built from the same parts as a single node.
//
//   hpcnet::sim::GsnSystem g({.nodes = 4});
//   g.run_all([&](unsigned node, unsigned pe, unsigned t) { ssm_barrier(A, 20, 1); });
//
// Each cycle: every node runs its host models and threads and settles its engine; the network
// settles on the engines' outputs; engines whose network inputs changed settle again (and the
// network once more), so that both sides of every GSN handshake see the same valid and ready;
// then everything is clocked. libssm calls act on the node of the thread that makes them
// (ssm_select before each node's threads run).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "hpcnet/sim/ports.hpp"
#include "hpcnet/sim/ssm_node.hpp"

namespace hpcnet::sim {

// The network as GsnSystem sees it; make_gsn_net builds the Verilated tree.
class GsnNet {
 public:
  virtual ~GsnNet() = default;
  virtual unsigned nodes() const = 0;
  virtual void set_reset(bool asserted) = 0;
  // Apply the device-driven fields (up_valid, up_msg, dn_ready) of every port, settle, fill in the
  // network-driven ones (up_ready, dn_valid, dn_msg).
  virtual void eval(std::vector<GsnPort*>& ports) = 0;
  virtual void edge() = 0;
};

// The product tree (Radix 4, 4 slots per tree node) for 2, 4, 16 or 64 nodes (rtl/gsn/models.cmake).
std::unique_ptr<GsnNet> make_gsn_net(unsigned nodes, double clock_mhz = 200.0, TraceWindow trace = {});

struct GsnSystemConfig {
  unsigned nodes = 4;                   // 1 (the engine's own loopback), 2, 4, 16, 64
  SsmSystemConfig node;                 // every node alike
  ssm::DriverConfig driver;
  uint64_t watchdog_cycles = 200000;    // no progress anywhere for this long: Stall
  TraceWindow net_trace;                // FST of the network
};

class GsnSystem {
 public:
  explicit GsnSystem(GsnSystemConfig cfg = {});
  ~GsnSystem();
  GsnSystem(const GsnSystem&) = delete;
  GsnSystem& operator=(const GsnSystem&) = delete;

  unsigned nodes() const { return static_cast<unsigned>(nodes_.size()); }
  SsmNode& node(unsigned i) { return *nodes_.at(i); }

  void spawn(unsigned node, unsigned pe, unsigned thread, std::function<void()> fn);
  // fn(node, pe, thread) on the first `threads` threads (pe-major) of every node, until all return.
  void run_all(const std::function<void(unsigned node, unsigned pe, unsigned thread)>& fn, unsigned threads = ~0u);
  void run();   // until every spawned thread of every node has returned
  void step();  // one cycle of everything
  uint64_t cycles() const { return cycles_; }
  uint64_t gsn_messages() const { return msgs_; }  // up-messages the network took

 private:
  void net_settle();

  GsnSystemConfig cfg_;
  std::vector<std::unique_ptr<SsmNode>> nodes_;
  std::unique_ptr<GsnNet> net_;
  std::vector<GsnPort*> ports_;
  uint64_t cycles_ = 0;
  uint64_t msgs_ = 0;
  uint64_t last_progress_ = 0, last_change_ = 0;
};

}  // namespace hpcnet::sim
