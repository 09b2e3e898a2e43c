// bench/net/net_run_table.cpp: see net_run_table.hpp.
#include "net/net_run_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace hpcnet::bench {

using namespace hpcnet::sim;

namespace {
Cell run_yes_no(bool b) { return shown_as(word(b ? "true" : "false"), b ? "yes" : "NO"); }
Cell no_value() { return num(std::numeric_limits<double>::quiet_NaN()); }  // tidy "", shown "-"
}  // namespace

Results net_run_results(const NetRunOptions& o, const NetSpec& sp, bool trace) {
  Results r({{"", "network"},
             {"model", ""},
             {"run", "~"},
             {"", "traffic"},
             {"pattern", "~"},
             {"offered_load_flits_per_node_cycle", "~"},
             {"traffic_trace", "~"},
             {"cycles", ""},
             {"delivered_pkts", "delivered"},
             {"avg_latency_cycles", "avg latency"},
             {"p99_latency_cycles", "p99 latency"},
             {"max_latency_cycles", "max latency"},
             {"offered_flits_per_node_cycle", "offered"},
             {"accepted_flits_per_node_cycle", "accepted"},
             {"tagged_drained", "~"},
             {"stable", "stable"},
             {"max_age_cycles", "max age"},
             {"min_source_delivered_pkts", "~"},
             {"min_source_node", "~"},
             {"", "min src delivered"},
             {"max_router_wait_cycles", "max wait"},
             {"wait_bound_cycles", "wait bound"},
             {"hold_pct", "hold %"},
             {"max_link_util_flits_per_cycle", "max link util"},
             {"cycles_per_cpu_s", "cycles/cpu-s"},
             {"cycles_per_wall_s", "cycles/wall-s"},
             {"serial_steps", "serial steps"}},
            "net_run");
  // the run's configuration (trace mode: the window is the trace's, the seed unused)
  r.config("mesh", sp.shape.name())
      .config("mode", mode_name(sp.mode))
      .config("buffer_depth_pkts", sp.buf_pkts)
      .config("packet_flits", sp.pkt_flits)
      .config("threads", sp.threads)
      .config("joined", sp.joined() ? "true" : "false")
      .config("seed", trace ? std::string() : std::to_string(o.seed))
      .config("warmup_cycles", trace ? std::string() : std::to_string(o.warmup))
      .config("measure_cycles", trace ? std::string() : std::to_string(o.measure))
      .config("drain_limit_cycles", std::to_string(o.drain_limit))
      .config("ej_ready_prob", o.ej_ready)
      .config("max_queue_pkts", o.max_queue ? std::to_string(o.max_queue) : std::string())
      .config("starve_t_cycles", o.starve_t)
      .config("wait_arb", o.no_wait_arb ? "false" : "true")
      .config("stable_tolerance", kStableTolerance);
  return r;
}

std::vector<Cell> net_run_row(const NetRunOptions& o, const NetSpec& sp, const NetRunRow& r, const NetStats& s) {
  const double hold = 100.0 * static_cast<double>(s.hold_cycles) / static_cast<double>(std::max<uint64_t>(s.cycles, 1));
  return {word(sp.label()),
          word(sp.model),
          num(r.run),
          word(r.traffic),
          r.trace ? word("") : word(o.pattern),
          r.trace ? no_value() : num(o.load, 3),
          word(r.trace ? o.trace : std::string()),
          num(s.cycles),
          num(s.delivered),
          num(s.avg_latency(), 2),
          num(s.percentile(0.99)),
          num(s.lat_max),
          num(s.offered(), 4),
          num(s.accepted(), 4),
          run_yes_no(s.tagged_drained),
          // a trace is a finite workload, not a steady state: no stability verdict
          r.trace ? no_value() : run_yes_no(s.stable),
          num(s.max_age),
          num(s.min_src_delivered),
          num(s.min_src),
          word(fmt::format("{} (node {})", s.min_src_delivered, s.min_src)),
          num(s.max_wait),
          o.starve_t ? num(starvation_wait_bound(sp, o.starve_t)) : shown_as(no_value(), "none (off)"),
          num(hold, 2),
          num(r.max_link_util, 3),
          num(s.cycles_per_cpu_s(), 0),
          num(s.cycles_per_s(), 0),
          sp.threads > 1 ? num(r.serial_steps) : no_value()};
}

}  // namespace hpcnet::bench
