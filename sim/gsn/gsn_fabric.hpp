// sim/gsn/gsn_fabric.hpp: the global sync network as a fabric of the step loop: the Verilated
// combining tree (GsnNet) joined to the GSN links of the nodes' SSMs.
//
// Each cycle, after the SSMs have settled (settle()): the tree settles on their up streams; an
// SSM whose inputs changed settles again, and the tree once more, so that both sides of every
// GSN handshake see the same valid and ready. sample() counts the messages the tree took, and the
// messages on every tree link, per level (sim/gsn/gsn_links.hpp); edge() clocks the tree.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/harness.hpp"
#include "sim/core/model_table.hpp"
#include "sim/gsn/gsn_links.hpp"
#include "sim/ssm/gsn_port.hpp"
#include "sim/ssm/ssm_device.hpp"
#include "sim/system/fabric.hpp"

namespace hpcnet::sim {

// The network as the fabric sees it; make_gsn_net builds the Verilated tree.
class GsnNet {
 public:
  virtual ~GsnNet() = default;
  virtual unsigned nodes() const = 0;
  virtual void set_reset(bool asserted) = 0;
  // Apply the device-driven fields (up_valid, up_msg, dn_ready) of every port, settle, fill in the
  // network-driven ones (up_ready, dn_valid, dn_msg).
  virtual void eval(std::vector<GsnPort*>& ports) = 0;
  virtual void edge() = 0;
  virtual void close_trace() {}
  // The tree's shape as the model has it: tree nodes per level, bottom first (empty: the model
  // exposes no node state, sim/gsn/gsn_links.hpp); and, after eval(), add this cycle's messages
  // on the links of each level.
  virtual std::vector<unsigned> level_nodes() const { return {}; }
  virtual void count_links(std::vector<GsnLinkLevel>& /*levels*/) const {}
};

// The built product trees (generated: every Vgsn_tree_<N> of rtl/gsn/models.cmake, Radix 4, 4 slots).
using GsnMake = std::unique_ptr<GsnNet> (*)(unsigned nodes, double clock_mhz, TraceWindow trace);
const std::vector<ModelEntry<GsnMake>>& gsn_models();

// The node counts a GsnSystem can have in this build: 1 (the SSM's own loopback) and the leaves of
// every built product tree, read from the model table, in increasing order; and as "1, 2, 4, 16".
std::vector<unsigned> gsn_node_counts();
std::string gsn_node_counts_text();

// The product tree for `nodes` leaves (2, 4, 16, 64 are built); std::invalid_argument otherwise.
std::unique_ptr<GsnNet> make_gsn_net(unsigned nodes, double clock_mhz = 200.0, TraceWindow trace = {});

class GsnTreeFabric final : public Fabric {
 public:
  // One SSM per leaf, in leaf order; resets the tree.
  GsnTreeFabric(std::unique_ptr<GsnNet> net, std::vector<SsmDevice*> leaves);
  std::string name() const override { return "gsn tree"; }
  void settle() override;
  void sample() override;
  void edge() override { net_->edge(); }
  uint64_t progress() const override { return msgs_; }
  void close_trace() override { net_->close_trace(); }
  uint64_t messages() const { return msgs_; }  // up messages the tree took
  // Messages on the tree's links since the start, per level of links ([0]: the leaf links; the
  // root's turnaround is no link); empty when the model exposes no node state.
  const std::vector<GsnLinkLevel>& link_levels() const { return levels_; }

 private:
  std::unique_ptr<GsnNet> net_;
  std::vector<SsmDevice*> leaves_;
  std::vector<GsnPort*> ports_;
  std::vector<GsnPort> before_;
  uint64_t msgs_ = 0;
  std::vector<GsnLinkLevel> levels_;
};

}  // namespace hpcnet::sim
