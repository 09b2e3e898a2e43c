// sim/net/barrier/net_barrier.hpp: barriers called by the nodes of a network simulation while the network
// engine's own sources send background traffic (docs/barrier.md, Barriers in the network engine).
//
// Two methods on the same network:
//   multiphase  the phase units in the routers (a network with spec().barrier, Vnet_bar_*): a
//               node that calls a barrier enters its router's unit once its injection port has
//               taken every packet it created before the call, and leaves when the unit says so;
//   alltoall    the one-sided all-to-all barrier (AllToAllBarrier, net_alltoall.hpp): N - 1
//               ordinary packets per node and half barrier, through the engine's source queues.
// Calls: every node in the same cycle (together), each node at a random time after its last leave
// (random), or by the caller (manual: call(), then step()). Leaves are taken with a probability per
// cycle (1: at once).
//
// Checked on every barrier (BarrierCheck, net_barrier_check.hpp), with every packet of the run
// (background and scripted; the barrier's own all-to-all packets excepted):
//   multiphase  sent = the cycle the injection port took the packet's head, enter = the cycle the
//               unit took the node's enter: the stronger reading (a packet created before the call
//               is taken before the enter);
//   alltoall    sent = the packet's creation, enter = the call (its barrier packets queue behind).
// Packets are recorded at their delivery; run() drains the network at the end and the engine's
// checker confirms that every packet arrived, so no packet escapes the check. Multiphase also
// checks Lemma 1 every cycle (the phases of two neighbours' units never differ by more than one),
// throwing BarrierError on a violation.
//
// Link traffic of the barrier itself: multiphase, one barrier message (the link sideband's bit) per
// link direction and phase, counted from the phases every unit completed; all-to-all, its packets,
// their flit hops, counted from their deliveries.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/net/barrier/net_alltoall.hpp"
#include "sim/net/barrier/net_barrier_check.hpp"
#include "sim/net/model/net_sim.hpp"

namespace hpcnet::sim {

enum class BarrierMethod : uint8_t { multiphase, alltoall };
const char* method_name(BarrierMethod m);

struct BarrierError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct BarrierPlan {
  BarrierMethod method = BarrierMethod::multiphase;
  std::vector<BarrierKind> kinds;  // the barriers every node runs, in this order
  enum class Calls : uint8_t { together, random, manual };
  Calls calls = Calls::together;
  uint64_t start = 0;  // the first call (together) or the earliest one (random)
  uint64_t gap = 0;    // together: cycles from a barrier's last leave to the next call; random: a node
                       // calls after its own leave plus a uniform 0..2 gap cycles
  double leave_prob = 1.0;  // a node takes its leave with this probability per cycle
  bool lemma1 = true;       // multiphase: Lemma 1 between neighbours every cycle
  // The node's program right before a scheduled call (together, random), e.g. packets it sends
  // first (NetEngine::enqueue): they precede the barrier.
  std::function<void(unsigned node)> before_call;
  uint64_t seed = 1;
  uint64_t max_cycles = 10000000;  // run(): Timeout beyond this cycle
};

// One barrier (the b-th of every node), cycles.
struct BarrierRecord {
  BarrierKind kind = BarrierKind::half;
  uint64_t last_call = 0, last_leave = 0;
  uint64_t min_enter_leave = UINT64_MAX, max_enter_leave = 0;  // per node: enter (multiphase: the handshake) to leave
  unsigned left = 0;                                           // nodes that left it
  uint64_t time() const { return last_leave - last_call; }     // the last call to the last leave
};

struct BarrierStats {
  unsigned nodes = 0, k = 0;
  std::vector<BarrierRecord> barriers;  // completed by every node
  uint64_t cycles = 0;                  // cycles run (the final drain included)
  uint64_t data_packets = 0;            // packets checked (every packet but the all-to-all's own)
  uint64_t msgs = 0, flit_hops = 0;     // the barriers' own link traffic (file comment)
  std::string violations;               // BarrierCheck's report; empty: every guarantee held
  double mean_time(BarrierKind kind) const;  // over the barriers of this kind (0: none)
  uint64_t max_time(BarrierKind kind) const;
  unsigned count(BarrierKind kind) const;
};

class NetBarrier {
 public:
  // Starts net with rc (the background traffic; deliveries recorded) and sets K (the diameter).
  NetBarrier(NetSimBase& net, const NetRunConfig& rc, BarrierPlan plan);

  unsigned nodes() const { return n_; }
  unsigned k() const { return k_; }
  uint64_t now() const { return net_.engine().now(); }
  NetSimBase& net() { return net_; }

  // Node n calls a barrier now (manual calls; it must not be in one).
  void call(unsigned n, BarrierKind kind);
  bool in_barrier(unsigned n) const { return node_[n].called; }
  // Barriers node n has left.
  unsigned done(unsigned n) const { return node_[n].done; }
  // One cycle: calls due (together, random), the barrier ports or the all-to-all's leaves, the
  // network, the deliveries, Lemma 1.
  void step();
  // Steps until every node has left every barrier of the plan (calls together or random), then
  // stops the background traffic, drains the network and checks. Timeout beyond plan.max_cycles;
  // the engine's watchdog throws Stall on a deadlock.
  BarrierStats run();
  // The same, calling barriers of the plan only until `cycle`: then every node completes the
  // barriers some node has called, and the run ends as run() does.
  BarrierStats run_until(uint64_t cycle);
  // Drain and check now (manual calls: once no node is in a barrier).
  BarrierStats finish();

 private:
  struct Node {
    bool called = false, entered = false;
    BarrierKind kind = BarrierKind::half;
    uint64_t point = 0;      // packets created before the call
    uint64_t call = 0, enter = 0, next_call = 0;
    unsigned done = 0;       // barriers left
    uint64_t phases = 0;     // multiphase: phases of the barriers left
  };
  void schedule();
  void ports_before_edge();
  void alltoall_leaves();
  void left(unsigned n);
  void deliveries();
  void check_lemma1();
  bool all_done() const;
  void step_checked();  // step(), Timeout beyond plan.max_cycles
  BarrierRecord& record(unsigned b);

  NetSimBase& net_;
  BarrierPlan plan_;
  unsigned n_, k_, nn_;
  std::vector<Node> node_;
  std::vector<unsigned> port_en_;  // per node: the output ports that lead to a neighbour
  std::vector<unsigned> nbr_;      // per node and port: the neighbour (multiphase Lemma 1)
  BarrierCheck check_;
  std::unique_ptr<AllToAllBarrier> a2a_;
  std::vector<BarrierRecord> rec_;
  std::mt19937_64 rng_;
  size_t seen_ = 0;
  uint64_t data_ = 0, msgs_ = 0, flit_hops_ = 0;
};

}  // namespace hpcnet::sim
