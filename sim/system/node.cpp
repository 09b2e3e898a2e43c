// node.cpp: a node's devices, host models and threads, and its phases of the step loop.
#include "sim/system/node.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::sim {

namespace {
std::vector<std::unique_ptr<Device>> checked(std::vector<std::unique_ptr<Device>> devices) {
  if (devices.empty()) throw std::invalid_argument("Node: a node needs at least one device");
  for (auto& d : devices)
    if (!d) throw std::invalid_argument("Node: a null device");
  return devices;
}
}  // namespace

Node::Node(NodeConfig cfg, std::vector<std::unique_ptr<Device>> devices)
    : cfg_(cfg),
      devices_(checked(std::move(devices))),
      mem_(cfg_.mem),
      sched_(SchedConfig{cfg_.num_pe, cfg_.num_threads, cfg_.stack_bytes}),
      platform_(sched_, mem_, cfg_.cpu, cfg_.clock_mhz) {
  for (auto& d : devices_) {
    const auto own = cfg_.device_bus.find(d->id());
    buses_.push_back(std::make_unique<HostBus>(sched_, own == cfg_.device_bus.end() ? cfg_.bus : own->second));
    platform_.add_device(d->id(), *buses_.back());  // throws on a repeated id
    dma_.push_back(&d->host().dma);
    links_.push_back(d->make_host_links(mem_));
    const CompletionOrder* order = nullptr;  // PCIe: a read completion does not pass posted writes
    for (auto& l : links_.back()) {
      if (!l) throw std::invalid_argument(fmt::format("Node: device {} declares a null host link", d->name()));
      if (l->completion_order() && order)
        throw std::invalid_argument(fmt::format("Node: device {} has two host links that order its register reads", d->name()));
      if (l->completion_order()) order = l->completion_order();
    }
    buses_.back()->order_completions(order);
  }
  for (const auto& [id, bus] : cfg_.device_bus)
    if (!platform_.has_device(id))
      throw std::invalid_argument(fmt::format("Node: device_bus names device {:#x}, which the node does not have", id));
  // Synchronous reset with idle host ports.
  for (auto& d : devices_) d->set_reset(true);
  for (unsigned i = 0; i < cfg_.reset_cycles; ++i) {
    for (auto& d : devices_) d->eval();
    for (auto& d : devices_) d->edge();
    ++now_;
  }
  for (size_t i = 0; i < devices_.size(); ++i) {
    devices_[i]->set_reset(false);
    devices_[i]->host() = HostPorts{};
    for (auto& l : links_[i]) l->idle();
  }
}

Node::~Node() { sched_.shutdown(); }  // unwind threads while bus and memory exist

Scheduler::ThreadId Node::spawn(unsigned pe, unsigned thread, std::function<void()> fn, std::string name) {
  return sched_.spawn(CpuId{pe, thread}, std::move(fn), std::move(name));
}

void Node::drive() {
  mem_.drive(dma_, now_);
  for (auto& links : links_)
    for (auto& l : links) l->drive(now_);
  sched_.run_cycle(now_);
  for (size_t i = 0; i < devices_.size(); ++i) buses_[i]->drive(devices_[i]->host().mmio, now_);
}

void Node::eval() {
  for (auto& d : devices_) d->eval();
}

void Node::sample() {
  for (size_t i = 0; i < devices_.size(); ++i) buses_[i]->sample(devices_[i]->host().mmio, now_);
  mem_.sample(dma_, now_);
  for (auto& links : links_)
    for (auto& l : links) l->sample(now_);
  for (size_t i = 0; i < devices_.size(); ++i) platform_.io(i).irq_line(devices_[i]->host().irq, now_);
}

void Node::edge() {
  for (auto& d : devices_) d->edge();
  ++now_;
}

void Node::close_traces() {
  for (auto& d : devices_) d->close_trace();
}

uint64_t Node::progress() const {
  uint64_t p = mem_.stats().requests() + sched_.finished_threads() + platform_.irq_calls() + user_progress_;
  for (auto& b : buses_) p += b->stats().requests();
  for (auto& d : devices_) p += d->progress();
  for (auto& links : links_)
    for (auto& l : links) p += l->progress();
  return p;
}

std::string Node::describe() const {
  std::string s = fmt::format("cycle {}: {} thread(s) still running\n", now_, sched_.live_threads());
  s += sched_.describe_running();
  for (size_t i = 0; i < devices_.size(); ++i) {
    const HostBus& b = *buses_[i];
    s += fmt::format("  {}: bus {} queued, {} writes, {} reads; irq line {}\n", devices_[i]->name(), b.queued(),
                     b.stats().writes, b.stats().reads, devices_[i]->host().irq ? "high" : "low");
    for (auto& l : links_[i]) s += "    " + l->describe() + "\n";
    const std::string more = devices_[i]->describe();
    if (!more.empty()) s += more + "\n";
  }
  s += fmt::format("  dma: {} pending, {} reads, {} writes", mem_.dma_pending(), mem_.stats().dma_reads,
                   mem_.stats().dma_writes);
  return s;
}

NodeStats Node::stats() const {
  NodeStats st{now_, {}, mem_.stats(), sched_.finished_threads(), platform_.irq_calls()};
  for (auto& b : buses_) {
    const BusStats& x = b->stats();
    st.bus.writes += x.writes;
    st.bus.reads += x.reads;
    st.bus.read_cycles += x.read_cycles;
    st.bus.full_stalls += x.full_stalls;
    st.bus.not_ready_cycles += x.not_ready_cycles;
    st.bus.max_queued = std::max(st.bus.max_queued, x.max_queued);
    st.bus.wc_bursts += x.wc_bursts;
    st.bus.link_cycles += x.link_cycles;
  }
  return st;
}

}  // namespace hpcnet::sim
