// bench/barrier/barrier_bench.hpp: `hpcnet net-barrier`, the multiphase barrier in the router
// network against the all-to-all barrier (and the SSM's barrier over the sync tree): barrier time
// against network size, idle and under background load, the paper's cost model in this model's
// cycles, the crossover against inequality (6), link traffic (docs/barrier.md#results).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/net/barrier/net_barrier.hpp"

namespace hpcnet::bench {

// Background packets a source queues at most (more are not created): beyond the network's
// saturation a node's enter waits for its queue, so this bounds the barrier time there.
inline constexpr size_t kMaxQueue = 4096;

struct BarrierBenchOptions {
  std::vector<std::string> nets;  // shapes, e.g. "4x4", "8x8x8" (ADBR networks with phase units)
  std::vector<sim::BarrierMethod> methods{sim::BarrierMethod::multiphase, sim::BarrierMethod::alltoall};
  std::vector<sim::BarrierKind> kinds{sim::BarrierKind::half, sim::BarrierKind::full};
  std::vector<double> loads{0, 0.05, 0.1};  // background load, flits/node/cycle (uniform)
  unsigned barriers = 5;              // per point, back to back, every node calling in the same cycle
  uint64_t warmup = 2000;             // cycles of background traffic before the first call (load > 0)
  uint64_t gap = 100;                 // cycles from a barrier's last leave to the next call
  uint64_t seed = 1;
  bool progress = true;
};

// One point: a network, a method, a kind, a load.
struct BarrierPoint {
  std::string net;
  unsigned nodes = 0, k = 0, dims = 0, side = 0;
  sim::BarrierMethod method{};
  sim::BarrierKind kind{};
  double load = 0;
  sim::BarrierStats stats;
  double mean = 0;     // mean barrier time: the last call to the last leave, cycles
  uint64_t max = 0;
  double model = 0;    // the cost model's time: multiphase K(lat_hop + lat_inc) + lat_inj + lat_ej;
                       // all-to-all the paper's formula (1)
  double msgs = 0, flit_hops = 0;  // the barrier's own link traffic per barrier
  double wall_s = 0;
};

// The cost model's terms in this model's cycles (docs/barrier.md, the cost model).
struct CostTerms {
  static constexpr double lat_hop = 2, lat_inc = 0, lat_inj_mp = 1, lat_ej_mp = 0;  // multiphase
  static constexpr double rate = 5;               // cycles per 5-flit packet: link, injection, ejection
  static constexpr double lat_pkt = 6;            // all-to-all: a packet's own overhead at zero load
};
// The busiest link's packets of an all-to-all exchange (N^2 - N packets) at best: the bisection
// bound max_d a_d b_d k_d / N over the middle cut of each dimension (twice the links on a torus).
double alltoall_link_bound(const sim::MeshShape& s);
// The paper's formula (1) for an all-to-all half barrier: rate max(link bound, N - 1) + lat_hop K +
// lat_pkt (a lower bound when the last packet sent travels K hops; on 2x2 the measured time is 0.92 of it).
double alltoall_bound(const sim::MeshShape& s);
// Multiphase: 2 tot + 1, tot = K (half) or 2K (full).
double multiphase_model(const sim::MeshShape& s, sim::BarrierKind kind);

BarrierPoint run_barrier_point(const std::string& net, sim::BarrierMethod method, sim::BarrierKind kind, double load,
                               const BarrierBenchOptions& o);

// The SSM's inter-node barrier over the global sync tree (sim/gsn/ssm_tree_barrier.hpp), when the
// gsn block is built; `why` says otherwise.
struct TreePoint {
  unsigned nodes = 0;
  double latency_cycles = 0, latency_ns = 0, msgs = 0, bits = 0;
  double tree_cycles = 0;  // the tree's own part: the last SSM's up message to the last down one
  unsigned levels = 0;
};
bool tree_barrier_available(std::string* why);
TreePoint run_tree_barrier(unsigned nodes, unsigned barriers);

}  // namespace hpcnet::bench
