// gsn_fabric.cpp: the Verilated tree adapter and the tree as a fabric of the step loop.
#include "sim/gsn/gsn_fabric.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace hpcnet::sim {

std::vector<unsigned> gsn_node_counts() {
  std::vector<unsigned> n{1};
  for (const auto& m : gsn_models()) n.push_back(static_cast<unsigned>(m.param("Nodes", 0)));
  std::sort(n.begin(), n.end());
  return n;
}

std::string gsn_node_counts_text() {
  std::string s;
  for (unsigned n : gsn_node_counts()) s += (s.empty() ? "" : ", ") + std::to_string(n);
  return s;
}

std::unique_ptr<GsnNet> make_gsn_net(unsigned nodes, double clock_mhz, TraceWindow trace) {
  const auto* m = find_model(gsn_models(), {{"Nodes", long(nodes)}});
  if (!m)
    throw std::invalid_argument(fmt::format("make_gsn_net: no network model for {} nodes (built: {}{})", nodes,
                                            model_names(gsn_models()), bench_models_hint()));
  return m->make(nodes, clock_mhz, std::move(trace));
}

GsnTreeFabric::GsnTreeFabric(std::unique_ptr<GsnNet> net, std::vector<SsmDevice*> leaves)
    : net_(std::move(net)), leaves_(std::move(leaves)) {
  if (leaves_.size() != net_->nodes())
    throw std::invalid_argument(fmt::format("GsnTreeFabric: {} SSMs for a tree of {} leaves", leaves_.size(), net_->nodes()));
  for (auto* d : leaves_) ports_.push_back(&d->gsn());
  before_.resize(ports_.size());
  // One level of links per tree level: the leaves' links, then one per node of the level below.
  const std::vector<unsigned> shape = net_->level_nodes();
  if (!shape.empty() && shape.back() != 1)
    throw std::logic_error(fmt::format("GsnTreeFabric: the tree model's top level has {} nodes, not one root", shape.back()));
  for (size_t l = 0; l < shape.size(); ++l) levels_.push_back({l == 0 ? net_->nodes() : shape[l - 1]});
  net_->set_reset(true);  // reset the tree while the engines idle
  for (int i = 0; i < 10; ++i) {
    net_->eval(ports_);
    net_->edge();
  }
  net_->set_reset(false);
}

void GsnTreeFabric::settle() {
  // The tree on the engines' current outputs; engines whose inputs changed settle again.
  for (size_t i = 0; i < ports_.size(); ++i) before_[i] = *ports_[i];
  net_->eval(ports_);
  bool again = false;
  for (size_t i = 0; i < ports_.size(); ++i) {
    const GsnPort& a = before_[i];
    const GsnPort& b = *ports_[i];
    if (a.up_ready != b.up_ready || a.dn_valid != b.dn_valid || !(a.dn_msg == b.dn_msg)) {
      leaves_[i]->eval();
      again = true;
    }
  }
  if (again) net_->eval(ports_);
}

void GsnTreeFabric::sample() {
  for (auto* p : ports_) msgs_ += p->up_valid && p->up_ready;
  net_->count_links(levels_);
}

}  // namespace hpcnet::sim
