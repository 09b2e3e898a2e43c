// ssm_tree_barrier.cpp: the SSM's io=1 barrier over the global sync tree, measured (ssm_tree_barrier.hpp).
#include "sim/gsn/ssm_tree_barrier.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hpcnet/gsn_formats.hpp"
#include "hpcnet/ssm.h"
#include "sim/gsn/gsn_fabric.hpp"
#include "sim/gsn/gsn_system.hpp"

namespace hpcnet::sim {
namespace {

constexpr uint64_t kBarrierAddr = 0x300000;  // the SSM address the barrier synchronizes on

void check_args(unsigned nodes, unsigned barriers, const SsmTreeOptions& o) {
  const auto counts = gsn_node_counts();
  if (nodes < 2 || std::find(counts.begin(), counts.end(), nodes) == counts.end())
    throw std::invalid_argument(fmt::format(
        "measure_ssm_tree_barrier: no sync tree for {} node(s) (the node counts built: {}; 1 is the SSM's own loopback, no tree)",
        nodes, gsn_node_counts_text()));
  if (barriers == 0) throw std::invalid_argument("measure_ssm_tree_barrier: barriers must be >= 1");
  if (o.late_cycles != 0 && o.late_node >= nodes)
    throw std::invalid_argument(fmt::format("measure_ssm_tree_barrier: late node {} of {} nodes", o.late_node, nodes));
}

const GsnTreeFabric& tree_of(GsnSystem& g) {
  for (size_t i = 0; i < g.cluster().num_fabrics(); ++i)
    if (const auto* t = dynamic_cast<const GsnTreeFabric*>(&g.cluster().fabric(i))) return *t;
  throw std::logic_error("measure_ssm_tree_barrier: the system has no sync tree");
}

// The SSMs' links to the tree, watched once a cycle: the cycle in which the last leaf's k-th
// message went up and the last leaf's k-th came down (every leaf sends and receives one per barrier).
class LeafWatch {
 public:
  explicit LeafWatch(GsnSystem& g) {
    for (unsigned i = 0; i < g.nodes(); ++i) ports_.push_back(&dynamic_cast<SsmDevice&>(g.node(i).node.device(0)).gsn());
    ups_.assign(ports_.size(), 0);
    downs_ = ups_;
  }
  // The handshakes of `cycle`: the ports keep the values the fabric sampled until the next cycle.
  void see(uint64_t cycle) {
    for (size_t i = 0; i < ports_.size(); ++i) {
      const GsnPort& p = *ports_[i];
      if (p.up_valid && p.up_ready) note(last_up, ups_[i]++, cycle);
      if (p.dn_valid && p.dn_ready) note(last_down, downs_[i]++, cycle);
    }
  }
  std::vector<uint64_t> last_up, last_down;  // [k]

 private:
  static void note(std::vector<uint64_t>& last, unsigned k, uint64_t cycle) {
    if (last.size() <= k) last.resize(k + 1, 0);
    last[k] = std::max(last[k], cycle);
  }
  std::vector<GsnPort*> ports_;
  std::vector<unsigned> ups_, downs_;
};

// fn(node, its platform) on every node's one thread (PE 0, thread 0), the threads started in the
// same cycle; the leaves watched every cycle (if asked) until all have returned.
template <class Fn>
void on_every_node(GsnSystem& g, LeafWatch* watch, Fn fn) {
  unsigned returned = 0;
  for (unsigned n = 0; n < g.nodes(); ++n)
    g.spawn(n, 0, 0, [&g, &returned, fn, n] {
      fn(n, g.node(n).platform());
      ++returned;
    });
  g.cluster().run_until([&] {
    if (watch && g.cycles() > 0) watch->see(g.cycles() - 1);
    return returned == g.nodes();
  });
}

// Per barrier, from the last node's call to the last node's release; the mean and the largest.
void add_latency(const SsmTreeDetail& d, SsmTreeBarrier& r, double clock_mhz) {
  uint64_t sum = 0;
  for (unsigned b = 0; b < r.barriers; ++b) {
    const uint64_t last_call = *std::max_element(d.call[b].begin(), d.call[b].end());
    const uint64_t last_release = *std::max_element(d.release[b].begin(), d.release[b].end());
    const uint64_t lat = last_release - std::min(last_release, last_call);
    sum += lat;
    r.max_latency_cycles = std::max(r.max_latency_cycles, lat);
  }
  r.latency_cycles = double(sum) / r.barriers;
  r.latency_ns = r.latency_cycles * 1000.0 / clock_mhz;
}

// The messages on the tree's links between two readings of the fabric's counts, per level and per barrier.
void add_link_counts(const std::vector<GsnLinkLevel>& before, const std::vector<GsnLinkLevel>& after,
                     SsmTreeDetail& d, SsmTreeBarrier& r) {
  uint64_t msgs = 0;
  for (size_t l = 0; l < after.size(); ++l) {
    d.level_links.push_back(after[l].links);
    d.level_up.push_back(after[l].up - before[l].up);
    d.level_down.push_back(after[l].down - before[l].down);
    msgs += d.level_up.back() + d.level_down.back();
    r.links += after[l].links;
  }
  r.tree_levels = static_cast<unsigned>(after.size());
  r.link_messages = double(msgs) / r.barriers;
  r.link_bits = r.link_messages * gsn_formats::Msg::kBits;  // every message is one 128-bit beat
}

}  // namespace

SsmTreeBarrier measure_ssm_tree_barrier(unsigned nodes, unsigned barriers) {
  return measure_ssm_tree_barrier(nodes, barriers, SsmTreeOptions{});
}

SsmTreeBarrier measure_ssm_tree_barrier(unsigned nodes, unsigned barriers, const SsmTreeOptions& o) {
  check_args(nodes, barriers, o);
  GsnSystemConfig cfg;
  cfg.nodes = nodes;
  GsnSystem g(cfg);
  const GsnTreeFabric& tree = tree_of(g);
  if (tree.link_levels().empty())
    throw std::logic_error("measure_ssm_tree_barrier: the tree model exposes no node state to count its links by");
  unsigned failed = 0;

  // The warm-up barrier, in a run of its own: when it ends every thread has returned, so no
  // message is on a link and the counts below cover the measured barriers exactly.
  on_every_node(g, nullptr, [&](unsigned, Platform&) { failed += ssm_barrier(kBarrierAddr, 1, 1) != SSM_OK; });
  const auto before = tree.link_levels();
  const uint64_t ports_before = tree.messages();

  // The measured barriers: every node's thread starts in the same cycle; one call per barrier,
  // timed by the node's own clock before the call and after the return.
  LeafWatch watch(g);
  SsmTreeDetail d;
  d.call.assign(barriers, std::vector<uint64_t>(nodes));
  d.release = d.call;
  on_every_node(g, &watch, [&](unsigned node, Platform& p) {
    for (unsigned b = 0; b < barriers; ++b) {
      if (node == o.late_node && o.late_cycles) p.compute(o.late_cycles);
      d.call[b][node] = p.now_cycles();
      failed += ssm_barrier(kBarrierAddr, 1, 1) != SSM_OK;
      d.release[b][node] = p.now_cycles();
    }
  });
  if (failed) throw TreeBarrierFailed(fmt::format("measure_ssm_tree_barrier: {} io=1 barrier call(s) failed on {} nodes", failed, nodes));

  SsmTreeBarrier r;
  r.nodes = nodes;
  r.barriers = barriers;
  add_latency(d, r, cfg.node.clock_mhz);
  add_link_counts(before, tree.link_levels(), d, r);
  d.leaf_up_at_ports = tree.messages() - ports_before;
  // The tree's own part of each barrier, at the leaves: last message up -> last message down.
  if (watch.last_up.size() != barriers || watch.last_down.size() != barriers)
    throw TreeBarrierFailed(fmt::format("measure_ssm_tree_barrier: {} up and {} down rounds at the leaves for {} barriers",
                                  watch.last_up.size(), watch.last_down.size(), barriers));
  for (unsigned b = 0; b < barriers; ++b) d.tree_cycles.push_back(watch.last_down[b] - watch.last_up[b]);
  if (o.detail) *o.detail = std::move(d);
  return r;
}

}  // namespace hpcnet::sim
