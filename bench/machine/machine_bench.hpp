// bench/machine/machine_bench.hpp: `hpcnet machine`: programs on the whole machine (docs/machine.md):
// NICs on the router network (and SSMs on the sync tree), through the driver and the libraries.
//   ping-pong   node 0 and a node h hops away, for every h up to the diameter (and the two-node
//               back-to-back platform for reference): one-way latency of an 8-byte immediate write
//               polled in memory; the per-hop slope and the intercept (least squares);
//   all-to-all  every node writes --size bytes to every other node, --rounds times: aggregate
//               throughput against the network's bisection bound; every byte checked;
//   stream      node 0 streams RDMA writes to the farthest node, alone and with background traffic
//               from every other node at the loads given; bandwidth, the bytes checked;
//   stencil     the 2-D Jacobi (hpcnet/stencil.hpp) on the node grid, checked bit for bit against
//               the host; the time split into compute, halo and synchronisation.
// Every program reports the simulation's speed (cycles per second, peak memory).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/registry.hpp"
#include "sim/machine/machine.hpp"

namespace hpcnet::bench::machineb {

struct MachineOptions {
  sim::MeshShape shape{4, 4};
  sim::NetMode mode = sim::NetMode::adbr;
  std::string program = "ping-pong";
  unsigned rounds = 20;         // ping-pong round trips per distance; all-to-all rounds
  unsigned size = 64;           // all-to-all bytes per message (stream: 65536)
  std::vector<double> loads{0.0};  // stream: background loads
  unsigned tile = 16, steps = 10;
  unsigned trace_node = 0;
  uint64_t seed = 1;
  bool progress = true;
};

// The speed of a run: simulated cycles, wall time, peak memory.
struct Speed {
  uint64_t cycles = 0;
  double wall_s = 0, cpu_s = 0;  // the process's CPU time (this thread's work: the machine runs on one)
  long peak_rss_kib = 0;
  double cycles_per_s() const { return wall_s > 0 ? double(cycles) / wall_s : 0; }
  double cycles_per_cpu_s() const { return cpu_s > 0 ? double(cycles) / cpu_s : 0; }
};

// Wall and CPU time since construction.
class Stopwatch {
 public:
  Stopwatch();
  Speed speed(uint64_t cycles) const;

 private:
  double wall0_, cpu0_;
};

sim::MachineConfig machine_config(const MachineOptions& o);

// Each program prints its tables (csv: the file stem, "" none) and returns whether its checks passed.
bool run_pingpong(const MachineOptions& o, const std::string& csv);
bool run_alltoall(const MachineOptions& o, const std::string& csv);
bool run_stencil(const MachineOptions& o, const std::string& csv);
bool run_stream(const MachineOptions& o, const std::string& csv);

// The speed table every program ends with.
void print_speed(const MachineOptions& o, const Speed& s, unsigned nodes, const std::string& csv);
std::string csv_name(const std::string& stem, const std::string& table);

}  // namespace hpcnet::bench::machineb
