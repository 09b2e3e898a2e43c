// cluster.cpp: the step loop over nodes and fabrics, limits and stall reports.
#include "sim/system/cluster.hpp"

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace hpcnet::sim {

Cluster::Cluster(ClusterConfig cfg) : cfg_(cfg), watchdog_(cfg.watchdog_cycles, [this] { return stall_report(); }) {}

// Fabrics first: they hold pointers to the nodes' devices. Nodes unwind their threads in ~Node.
Cluster::~Cluster() {
  fabrics_.clear();
  nodes_.clear();
}

Node& Cluster::add_node(std::unique_ptr<Node> node) {
  nodes_.push_back(std::move(node));
  return *nodes_.back();
}

Fabric& Cluster::add_fabric(std::unique_ptr<Fabric> fabric) {
  fabrics_.push_back(std::move(fabric));
  return *fabrics_.back();
}

void Cluster::close_traces() {
  for (auto& n : nodes_) n->close_traces();
  for (auto& f : fabrics_) f->close_trace();
}

void Cluster::step() {
  try {
    for (auto& n : nodes_) n->drive();
    for (auto& f : fabrics_) f->drive();
    for (auto& n : nodes_) n->eval();
    for (auto& f : fabrics_) f->settle();
    for (auto& n : nodes_) n->sample();
    for (auto& f : fabrics_) f->sample();
    for (auto& n : nodes_) n->edge();
    for (auto& f : fabrics_) f->edge();
    ++cycles_;
    check_limits();
    throw_if_interrupted(cycles_);
  } catch (...) {
    close_traces();  // keep the waveform of the failure
    throw;
  }
}

bool Cluster::threads_done() const {
  for (auto& n : nodes_)
    if (!n->threads_done()) return false;
  return true;
}

void Cluster::run() {
  while (!threads_done()) step();
}

void Cluster::run_for(uint64_t cycles) {
  for (uint64_t i = 0; i < cycles; ++i) step();
}

void Cluster::run_until(const std::function<bool()>& done) {
  while (!done()) step();
}

uint64_t Cluster::progress() const {
  uint64_t p = user_progress_;
  for (auto& n : nodes_) p += n->progress();
  for (auto& f : fabrics_) p += f->progress();
  return p;
}

std::string Cluster::stall_report() const {
  std::string s;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_.size() > 1) s += fmt::format("node {}: ", i);
    s += nodes_[i]->describe() + "\n";
  }
  for (auto& f : fabrics_) {
    const std::string d = f->describe();
    if (!d.empty()) s += fmt::format("{}: {}\n", f->name(), d);
  }
  if (stall_dump_) s += stall_dump_();
  return s;
}

void Cluster::check_limits() {
  watchdog_.check(cycles_, progress());
  if (cfg_.max_cycles && cycles_ >= cfg_.max_cycles)
    throw Timeout(fmt::format("run exceeded max_cycles = {}\n{}", cfg_.max_cycles, stall_report()));
}

}  // namespace hpcnet::sim
