// sim/system/cluster.hpp: nodes plus fabrics, and the one step loop that clocks them all.
//
//   Cluster c;
//   Node& n = c.add_node(std::make_unique<Node>(cfg, std::move(devices)));
//   c.add_fabric(std::make_unique<GsnTreeFabric>(...));
//   n.spawn(0, 0, [&] { ... });
//   c.run();   // until every spawned thread of every node has returned
//
// One cycle (step()), in this order:
//   1. every node drive():   host memory, due software threads, host buses onto device ports
//   2. every fabric drive(): registered fabric outputs onto device ports
//   3. every node eval():    every device settles
//   4. every fabric settle(): combinational fabric answer; devices whose inputs changed settle again
//   5. every node sample():  host buses, host memory, interrupt lines take the handshakes
//   6. every fabric sample()
//   7. every node edge(), every fabric edge(): rising clock edge
//   8. the watchdog (no progress anywhere for watchdog_cycles: Stall) and max_cycles (Timeout).
// Nodes run in the order added, fabrics likewise. An exception closes every trace first, so the
// waveform of the failure survives.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/watchdog.hpp"
#include "sim/system/fabric.hpp"
#include "sim/system/node.hpp"

namespace hpcnet::sim {

struct ClusterConfig {
  uint64_t watchdog_cycles = 200000;  // 0: off
  uint64_t max_cycles = 0;            // 0: no limit; otherwise run*() throw Timeout beyond it
};

class Cluster {
 public:
  explicit Cluster(ClusterConfig cfg = {});
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  Node& add_node(std::unique_ptr<Node> node);
  Fabric& add_fabric(std::unique_ptr<Fabric> fabric);
  size_t num_nodes() const { return nodes_.size(); }
  Node& node(size_t i) { return *nodes_.at(i); }
  const Node& node(size_t i) const { return *nodes_.at(i); }
  size_t num_fabrics() const { return fabrics_.size(); }
  Fabric& fabric(size_t i) { return *fabrics_.at(i); }

  void step();                                        // one cycle of everything
  void run();                                         // until every node's threads have returned
  void run_for(uint64_t cycles);                      // exactly this many cycles
  void run_until(const std::function<bool()>& done);  // checked before each cycle
  bool threads_done() const;

  uint64_t cycles() const { return cycles_; }  // cycles stepped by this cluster
  uint64_t progress() const;
  void note_progress() { ++user_progress_; }
  // Extra text for a Stall or Timeout message (e.g. a dump of device state).
  void set_stall_dump(std::function<std::string()> fn) { stall_dump_ = std::move(fn); }
  std::string stall_report() const;

 private:
  void check_limits();
  void close_traces();

  ClusterConfig cfg_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Fabric>> fabrics_;
  Watchdog watchdog_;
  uint64_t cycles_ = 0;
  uint64_t user_progress_ = 0;
  std::function<std::string()> stall_dump_;
};

}  // namespace hpcnet::sim
