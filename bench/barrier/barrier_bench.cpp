// barrier_bench.cpp: the points of `hpcnet net-barrier` (barrier_bench.hpp).
#include "barrier/barrier_bench.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "sim/net/model/net_sim.hpp"

namespace hpcnet::bench {

using namespace hpcnet::sim;

double alltoall_link_bound(const MeshShape& s) {
  const double n = s.nodes();
  double worst = 0;
  for (unsigned d = 0; d < s.dims; ++d) {
    const unsigned k = s.k[d];
    if (k < 2) continue;
    const double a = static_cast<double>(k / 2) * n / k, b = n - a;  // nodes on either side of the middle cut
    const double links = n / k * (s.torus ? 2 : 1);                  // links across the cut, each way
    worst = std::max(worst, a * b / links);
  }
  return worst;
}

double alltoall_bound(const MeshShape& s) {
  return CostTerms::rate * std::max(alltoall_link_bound(s), static_cast<double>(s.nodes() - 1)) + CostTerms::lat_hop * s.diameter() +
         CostTerms::lat_pkt;
}

double multiphase_model(const MeshShape& s, BarrierKind kind) {
  const double tot = (kind == BarrierKind::full ? 2.0 : 1.0) * s.diameter();
  return tot * (CostTerms::lat_hop + CostTerms::lat_inc) + CostTerms::lat_inj_mp + CostTerms::lat_ej_mp;
}

BarrierPoint run_barrier_point(const std::string& net, BarrierMethod method, BarrierKind kind, double load, const BarrierBenchOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const MeshShape shape = MeshShape::parse(net);
  auto sim = make_barrier_net(shape, NetMode::adbr);
  BarrierPlan plan;
  plan.method = method;
  plan.kinds.assign(o.barriers, kind);
  plan.start = load > 0 ? o.warmup : 10;
  plan.gap = o.gap;
  plan.seed = o.seed;
  plan.max_cycles = plan.start + uint64_t{o.barriers} * 1000000;
  NetRunConfig rc;
  rc.traffic.load = load;
  rc.traffic.seed = o.seed;
  rc.traffic.max_queue = kMaxQueue;  // beyond saturation: bounded queues, a barrier waits for at most these
  rc.warmup = rc.measure = 0;
  NetBarrier b(*sim, rc, plan);
  BarrierPoint p;
  p.net = net;
  p.nodes = shape.nodes();
  p.k = shape.diameter();
  p.dims = shape.dims;
  p.side = shape.k[0];
  p.method = method;
  p.kind = kind;
  p.load = load;
  p.stats = b.run();
  p.mean = p.stats.mean_time(kind);
  p.max = p.stats.max_time(kind);
  p.model = method == BarrierMethod::multiphase ? multiphase_model(shape, kind)
                                                : alltoall_bound(shape) * (kind == BarrierKind::full ? 2 : 1);
  const double nb = static_cast<double>(std::max<size_t>(1, p.stats.barriers.size()));
  p.msgs = static_cast<double>(p.stats.msgs) / nb;
  p.flit_hops = static_cast<double>(p.stats.flit_hops) / nb;
  p.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return p;
}

}  // namespace hpcnet::bench
