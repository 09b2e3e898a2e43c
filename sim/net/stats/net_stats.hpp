// sim/net/stats/net_stats.hpp: the statistics of one network run (NetStats: packet counts,
// latencies and their histograms, throughput of the measurement window, the whole run's
// starvation figures) and the stability criterion (docs/net_sim.md, Methodology). The engine
// (net_engine.hpp) fills them; NetSimBase::run returns them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hpcnet::sim {

// Stability (Dally & Towles, sec. 23.1: a network is stable while accepted traffic equals offered
// traffic): the accepted throughput of the measurement window at least (1 - kStableTolerance) x
// the offered one, AND every tagged packet delivered within the drain limit.
inline constexpr double kStableTolerance = 0.05;

struct NetStats {
  std::string label;  // network and traffic, for messages
  unsigned nodes = 0;
  uint64_t cycles = 0;  // cycles run (after reset)
  uint64_t skipped = 0; // of those, idle cycles jumped over (NetRunConfig::skip_idle), not simulated
  uint64_t warmup = 0, measure = 0;
  uint64_t created = 0, throttled = 0, injected = 0, delivered = 0;  // packets
  uint64_t win_created_flits = 0, win_injected_flits = 0, win_ejected_flits = 0;
  uint64_t tagged = 0, tagged_delivered = 0;
  double lat_sum = 0, net_lat_sum = 0, hops_sum = 0;
  uint64_t lat_max = 0;
  std::vector<uint64_t> lat_hist;                 // tagged packets per latency (last bucket: overflow)
  std::vector<uint64_t> hop_count;                // tagged packets per hop count
  std::vector<double> hop_lat;                    // their latency sum
  std::vector<uint64_t> hop_lat_min;              // their least latency (UINT64_MAX: none)
  size_t max_queue_seen = 0;                      // longest source queue (packets)
  // Starvation (docs/net_sim.md#starvation-statistics), over the WHOLE run, warm-up included:
  // the oldest packet's age (creation to delivery, source queueing included; packets still queued
  // or in the network sampled every 1024 cycles and at the end), the fewest packets delivered by
  // a source that created (or tried to create) any, and which source that is.
  uint64_t max_age = 0;
  uint64_t min_src_delivered = 0;
  unsigned min_src = 0;
  // From the routers (NetSimBase::router_waits; 0 for a network without them): the longest wait
  // of a granted packet in one router, and the cycles the injection ports were held.
  uint64_t max_wait = 0;
  uint64_t hold_cycles = 0;
  bool tagged_drained = true;                     // every tagged packet delivered within the drain limit
  bool stable = true;                             // tagged_drained and keeps_up() (kStableTolerance)
  bool drained = false;                           // the network was emptied and checked at the end
  double wall_s = 0;                              // wall-clock time of the run
  double cpu_s = 0;                               // CPU time of the run (the whole process)

  double avg_latency() const { return tagged_delivered ? lat_sum / static_cast<double>(tagged_delivered) : 0; }
  double avg_net_latency() const { return tagged_delivered ? net_lat_sum / static_cast<double>(tagged_delivered) : 0; }
  double avg_hops() const { return tagged_delivered ? hops_sum / static_cast<double>(tagged_delivered) : 0; }
  double accepted() const;  // flits/node/cycle ejected during the window
  double offered() const;   // flits/node/cycle created during the window
  // accepted() >= (1 - kStableTolerance) x offered(): the network kept up with its sources.
  bool keeps_up() const { return accepted() >= (1.0 - kStableTolerance) * offered(); }
  uint64_t percentile(double p) const;  // latency percentile of the tagged packets (0 < p <= 1)
  // Least-squares slope and intercept of latency against hop count (zero-load: cycles per hop).
  double per_hop_slope(double* intercept = nullptr) const;
  // The same fit over the least latency seen per hop count, one point per hop count: at low load
  // some packet of every hop count crosses an empty network, so this is the contention-free
  // cycles per hop (router + link) and the fixed overhead (injection, serialization, ejection).
  double min_per_hop_slope(double* intercept = nullptr) const;
  double cycles_per_s() const { return wall_s > 0 ? static_cast<double>(cycles) / wall_s : 0; }
  // Simulated cycles per CPU second: the speed figure that does not depend on other load on the machine.
  double cycles_per_cpu_s() const { return cpu_s > 0 ? static_cast<double>(cycles) / cpu_s : 0; }
};

}  // namespace hpcnet::sim
