// bench/system/cluster_bench.hpp: `hpcnet cluster`: N SSM nodes joined by the global sync tree
// and by the router mesh. Every thread of every node runs rounds of io=1 barriers and reduces over
// the tree while the mesh carries traffic from every node's network port; every result is checked
// against the host's arithmetic and every mesh packet must arrive exactly once.
#pragma once

#include <cstdint>
#include <string>

#include "common/registry.hpp"
#include "sim/net/net_types.hpp"
#include "sim/net/traffic/net_traffic.hpp"

namespace hpcnet::bench {

struct ClusterOptions {
  unsigned nodes = 16;          // 1, 2, 4, 16, 64 (the built GSN trees); the mesh: 2x2, 4x4, 8x8
  unsigned threads = 4;         // participants per node
  unsigned rounds = 10;         // io=1 barrier + reduce rounds
  double load = 0.1;            // mesh offered load, flits/node/cycle
  sim::Pattern pattern = sim::Pattern::uniform;
  sim::NetMode mode = sim::NetMode::adbr;
  uint64_t seed = 1;
  bool progress = true;
};

struct ClusterReport {
  unsigned nodes = 0, threads = 0, rounds = 0;
  std::string mesh;                    // model name, or why there is none
  uint64_t cycles = 0;                 // the collectives' run (boot excluded)
  uint64_t drain_cycles = 0;           // after the threads: until the mesh was empty
  double barrier_cycles = 0, reduce_cycles = 0;  // per round, node 0's first thread
  uint64_t results = 0, results_right = 0;       // io=1 results returned / equal to the host's
  uint64_t gsn_messages = 0;
  uint64_t packets_created = 0, packets_delivered = 0;
  bool every_packet_once = false;      // the checker found the mesh drained, each packet once
  double avg_packet_latency = 0;
  double wall_s = 0;
  std::string text() const;            // the readable summary
  bool passed() const;                 // every result right, every packet delivered once
  Results results_table(const ClusterOptions& o) const;  // one row: the table "cluster" (--csv, --json)
};

ClusterReport cluster_run(const ClusterOptions& o);

}  // namespace hpcnet::bench
