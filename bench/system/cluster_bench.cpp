// cluster_bench.cpp: `hpcnet cluster` (see cluster_bench.hpp).
#include "system/cluster_bench.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "gsn/gsn_sizes.hpp"
#include "sim/gsn/gsn_system.hpp"
#include "sim/net/model/net_fabric.hpp"
#include "sim/net/traffic/net_checker.hpp"

namespace hpcnet::bench {

namespace {

constexpr uint64_t kBarrier = 0x400000, kReduce = 0x400040, kMax = 0x400080;

sim::MeshShape mesh_for(unsigned nodes) {
  const auto k = static_cast<unsigned>(std::lround(std::sqrt(double(nodes))));
  return sim::MeshShape(k, k);
}

// A square mesh of at least 2x2 routers joins the nodes.
bool has_mesh(unsigned nodes) { return nodes >= 4 && mesh_for(nodes).nodes() == nodes; }

// Node i's thread t's contribution in round r (exact in a double).
double contribution(unsigned node, unsigned t, unsigned r) { return double(node) * 64.0 + double(t) + 0.5 * r; }

}  // namespace

ClusterReport cluster_run(const ClusterOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  ClusterReport rep;
  rep.nodes = o.nodes;
  rep.threads = o.threads;
  rep.rounds = o.rounds;
  sim::NetFabric* mesh = nullptr;
  sim::GsnSystemConfig cfg;
  cfg.nodes = o.nodes;
  const sim::MeshShape shape = mesh_for(o.nodes);
  const bool square = has_mesh(o.nodes);
  const sim::NetModelInfo* model = square ? sim::find_net(shape, o.mode) : nullptr;
  if (model) {
    rep.mesh = model->spec.model;
    cfg.more_fabrics = [&](sim::Cluster& c) {
      sim::NetRunConfig rc;
      rc.traffic.pattern.pattern = o.pattern;
      rc.traffic.load = o.load;
      rc.traffic.seed = o.seed;
      rc.warmup = 0;
      rc.measure = UINT64_MAX / 4;  // every packet counts towards the latency
      auto f = std::make_unique<sim::NetFabric>(model->make(sim::net_spec(*model, 0), {}), rc);
      mesh = f.get();
      c.add_fabric(std::move(f));
    };
  } else {
    rep.mesh = square ? sim::net_unavailable(shape, o.mode) : fmt::format("none: no square mesh of {} routers", o.nodes);
  }
  Progress prog("cluster", 2, o.progress);
  sim::GsnSystem g(cfg);
  prog.step(fmt::format("{} nodes booted", o.nodes));
  const uint64_t start = g.cycles();
  uint64_t tb0 = 0, tb1 = 0, tb2 = 0;
  std::vector<uint64_t> right(o.nodes, 0), returned(o.nodes, 0);
  std::vector<double> sum_ref(o.rounds, 0.0);
  for (unsigned r = 0; r < o.rounds; ++r)
    for (unsigned n = 0; n < o.nodes; ++n)
      for (unsigned t = 0; t < o.threads; ++t) sum_ref[r] += contribution(n, t, r);
  g.run_all(
      [&](unsigned node, unsigned pe, unsigned th) {
        Platform& p = g.node(node).platform();
        const unsigned t = pe * g.node(node).node.config().num_threads + th;  // participant index on the node
        const bool timer = node == 0 && t == 0;
        if (timer) tb0 = p.now_cycles();
        for (unsigned r = 0; r < o.rounds; ++r) {
          ++returned[node];
          right[node] += ssm_barrier(kBarrier, o.threads, 1) == SSM_OK;
        }
        if (timer) tb1 = p.now_cycles();
        for (unsigned r = 0; r < o.rounds; ++r) {
          double v = contribution(node, t, r);
          ++returned[node];
          right[node] += ssm_reduce(kReduce, &v, SSM_DOUBLE, SSM_SUM, o.threads, 1) == SSM_OK && v == sum_ref[r];
          uint64_t m = uint64_t(node) * 1000 + t + r;
          const uint64_t want = uint64_t(o.nodes - 1) * 1000 + (o.threads - 1) + r;
          ++returned[node];
          right[node] += ssm_reduce(kMax, &m, SSM_UINT64, SSM_MAX, o.threads, 1) == SSM_OK && m == want;
        }
        if (timer) tb2 = p.now_cycles();
      },
      o.threads);
  prog.step(fmt::format("{} rounds of io=1 barrier, sum and max on {} x {} threads", o.rounds, o.nodes, o.threads));
  rep.cycles = g.cycles() - start;
  rep.barrier_cycles = o.rounds ? double(tb1 - tb0) / o.rounds : 0;
  rep.reduce_cycles = o.rounds ? double(tb2 - tb1) / (2.0 * o.rounds) : 0;
  for (unsigned n = 0; n < o.nodes; ++n) {
    rep.results += returned[n];
    rep.results_right += right[n];
  }
  rep.gsn_messages = g.gsn_messages();
  if (mesh) {
    mesh->stop_traffic();
    const uint64_t d0 = g.cycles();
    g.cluster().run_until([&] { return mesh->drained(); });
    rep.drain_cycles = g.cycles() - d0;
    mesh->check_drained();  // throws NetCheckError otherwise
    const auto& st = mesh->engine().stats();
    rep.packets_created = st.created;
    rep.packets_delivered = mesh->engine().checker().delivered_packets();
    rep.every_packet_once = rep.packets_created == rep.packets_delivered;
    rep.avg_packet_latency = st.avg_latency();
  }
  rep.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

std::string ClusterReport::text() const {
  std::string s;
  s += fmt::format("cluster        : {} nodes x {} threads, each node an SSM on its host bus\n", nodes, threads);
  s += fmt::format("fabrics        : global sync tree (radix 4); router mesh: {}\n", mesh);
  s += fmt::format("collectives    : {} rounds of io=1 barrier, double sum, uint64 max in {} cycles\n", rounds, cycles);
  s += fmt::format("latency        : barrier {:.1f} cycles, reduce {:.1f} cycles per operation (node 0)\n",
                   barrier_cycles, reduce_cycles);
  s += fmt::format("io=1 results   : {} of {} right (host arithmetic)\n", results_right, results);
  s += fmt::format("gsn messages   : {}\n", gsn_messages);
  if (packets_created || every_packet_once)
    s += fmt::format("mesh packets   : {} created, {} delivered, avg latency {:.1f} cycles, drained in {} cycles\n",
                     packets_created, packets_delivered, avg_packet_latency, drain_cycles);
  s += fmt::format("every packet delivered once: {}\n", packets_created ? (every_packet_once ? "yes" : "NO") : "no mesh");
  s += fmt::format("wall time      : {:.1f} s\n", wall_s);
  s += fmt::format("result         : {}\n", results_right == results ? "PASS" : "FAIL");
  return s;
}

bool ClusterReport::passed() const { return results_right == results && (packets_created == 0 || every_packet_once); }

Results ClusterReport::results_table(const ClusterOptions& o) const {
  Results r({{"nodes", ""},          {"threads", ""},           {"rounds", ""},
             {"mesh", ""},           {"cycles", ""},            {"barrier_cycles", ""},
             {"reduce_cycles", ""},  {"results", ""},           {"results_right", ""},
             {"gsn_messages", ""},   {"packets_created", ""},   {"packets_delivered", ""},
             {"every_packet_once", ""}, {"avg_packet_latency_cycles", ""}, {"drain_cycles", ""},
             {"wall_s", ""},         {"result", ""}});
  const bool mesh_on = packets_created > 0 || every_packet_once;
  r.config("load", mesh_on ? fmt::format("{}", o.load) : "")
      .config("pattern", mesh_on ? sim::pattern_name(o.pattern) : "")
      .config("mode", mesh_on ? sim::mode_name(o.mode) : "")
      .config("seed", mesh_on ? std::to_string(o.seed) : "");
  add_node_config(r, sim::GsnSystemConfig{}.node);
  const Cell none = num(std::nan(""));
  r.add({num(nodes), num(threads), num(rounds), word(mesh), num(cycles), num(barrier_cycles), num(reduce_cycles),
         num(results), num(results_right), num(gsn_messages), mesh_on ? num(packets_created) : none,
         mesh_on ? num(packets_delivered) : none, mesh_on ? word(every_packet_once ? "yes" : "no") : none,
         mesh_on ? num(avg_packet_latency) : none, mesh_on ? num(drain_cycles) : none, num(wall_s),
         word(passed() ? "pass" : "fail")});
  return r;
}

void add_cluster_commands(Registry& reg) {
  reg.add("cluster", "N SSM nodes on the GSN tree and the router mesh: io=1 collectives under mesh traffic, checked",
          [](CLI::App& c) -> Runner {
            struct State {
              ClusterOptions o;
              std::string pattern = "uniform", mode = "adbr";
              RunFlags f;
            };
            auto st = std::make_shared<State>();
            c.add_option("--nodes", st->o.nodes,
                         fmt::format("nodes: {} (4, 16 and 64 also get a 2x2, 4x4, 8x8 mesh)", gsn_node_counts_text()))
                ->check(gsn_nodes_validator());
            c.add_option("--threads", st->o.threads, "participants per node (the node's PEs x threads: 1..20)")
                ->check(CLI::Range(1u, 20u));
            c.add_option("--rounds", st->o.rounds, "io=1 barrier + reduce rounds (--quick: 3)")->check(CLI::Range(1u, 1024u));
            c.add_option("--load", st->o.load, "mesh offered load, flits/node/cycle (with a mesh)")->check(CLI::Range(0.0, 1.0));
            c.add_option("--pattern", st->pattern,
                         "mesh traffic pattern: uniform, transpose, bitcomp, bitrev, hotspot, neighbor (with a mesh)")
                ->check(parses(sim::parse_pattern, "PATTERN"));
            c.add_option("--mode", st->mode, "router mode: adbr, dorvct, dorwh, as built for the mesh (with a mesh)")
                ->check(parses(sim::parse_mode, "MODE"));
            c.add_option("--seed", st->o.seed, "mesh traffic seed (with a mesh)");
            add_run_flags(c, st->f, "CI-sized run (3 rounds unless --rounds is given)",
                          "also write the summary as a one-row CSV to this file");
            return [st, &c] {
              st->o.pattern = sim::parse_pattern(st->pattern);
              st->o.mode = sim::parse_mode(st->mode);
              if (!has_mesh(st->o.nodes)) {
                for (const char* opt : {"--load", "--pattern", "--mode", "--seed"})
                  reject_if_given(c, opt, fmt::format("{} node(s) get no mesh (4, 16 and 64 do)", st->o.nodes));
              } else if (const std::string why = sim::net_unavailable(mesh_for(st->o.nodes), st->o.mode); !why.empty()) {
                throw UsageError("--mode", why);
              }
              quick_default(c, st->f, "--rounds", st->o.rounds, 3u);
              st->o.progress = !st->f.quiet;
              ClusterReport r;
              try {
                r = cluster_run(st->o);
              } catch (const sim::NetCheckError& e) {  // a packet lost, duplicated, corrupted or misrouted
                throw CheckFailed(e.what());
              }
              fmt::print("{}", r.text());
              save_results(r.results_table(st->o), st->f.csv, "cluster");
              if (!r.passed())
                std::fprintf(stderr, "hpcnet: check failed: cluster: %s\n",
                             r.results_right != r.results ? "io=1 results differ from the host's" : "mesh packets lost or duplicated");
              return r.passed() ? kExitOk : kExitCheckFailed;
            };
          },
          "which run to trace: the cluster is one run (every node's SSM, the tree and the mesh: FILE, FILE-2.fst, ...)");
}
const CommandBlock kClusterCommands{40, add_cluster_commands};  // the block's commands, registered (common/registry.hpp)

}  // namespace hpcnet::bench
