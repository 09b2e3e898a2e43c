// gsn_system.cpp: GsnSystem (nodes + global sync network, lockstep) and the Verilated tree adapter.
#include "hpcnet/sim/gsn_system.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "Vgsn_tree_16.h"
#include "Vgsn_tree_2.h"
#include "Vgsn_tree_4.h"
#include "Vgsn_tree_64.h"
#include "hpcnet/sim/errors.hpp"

namespace hpcnet::sim {
namespace {

template <class V>
class VerilatedGsnNet final : public GsnNet {
 public:
  VerilatedGsnNet(unsigned nodes, double clock_mhz, TraceWindow trace) : n_(nodes), h_(clock_mhz, std::move(trace)) {}
  unsigned nodes() const override { return n_; }
  void set_reset(bool asserted) override { h_.set_reset(asserted); }

  void eval(std::vector<GsnPort*>& ports) override {
    V& d = h_.dut();
    uint64_t up_valid = 0, dn_ready = 0;
    for (unsigned i = 0; i < n_; ++i) {
      const GsnPort& p = *ports[i];
      up_valid |= uint64_t(p.up_valid) << i;
      dn_ready |= uint64_t(p.dn_ready) << i;
      for (unsigned w = 0; w < 4; ++w) d.up_msg_i[4 * i + w] = uint32_t(p.up_msg.w[w / 2] >> (32 * (w % 2)));
    }
    d.up_valid_i = static_cast<std::remove_reference_t<decltype(d.up_valid_i)>>(up_valid);
    d.dn_ready_i = static_cast<std::remove_reference_t<decltype(d.dn_ready_i)>>(dn_ready);
    h_.settle();
    const uint64_t up_ready = d.up_ready_o, dn_valid = d.dn_valid_o;
    for (unsigned i = 0; i < n_; ++i) {
      GsnPort& p = *ports[i];
      p.up_ready = (up_ready >> i) & 1;
      p.dn_valid = (dn_valid >> i) & 1;
      for (unsigned w = 0; w < 2; ++w)
        p.dn_msg.w[w] = uint64_t(d.dn_msg_o[4 * i + 2 * w]) | uint64_t(d.dn_msg_o[4 * i + 2 * w + 1]) << 32;
    }
  }
  void edge() override { h_.edge(); }

 private:
  unsigned n_;
  Harness<V> h_;
};

}  // namespace

std::unique_ptr<GsnNet> make_gsn_net(unsigned nodes, double clock_mhz, TraceWindow trace) {
  switch (nodes) {
    case 2: return std::make_unique<VerilatedGsnNet<Vgsn_tree_2>>(2, clock_mhz, std::move(trace));
    case 4: return std::make_unique<VerilatedGsnNet<Vgsn_tree_4>>(4, clock_mhz, std::move(trace));
    case 16: return std::make_unique<VerilatedGsnNet<Vgsn_tree_16>>(16, clock_mhz, std::move(trace));
    case 64: return std::make_unique<VerilatedGsnNet<Vgsn_tree_64>>(64, clock_mhz, std::move(trace));
    default: throw std::invalid_argument(fmt::format("make_gsn_net: no network model for {} nodes (2, 4, 16, 64)", nodes));
  }
}

GsnSystem::GsnSystem(GsnSystemConfig cfg) : cfg_(std::move(cfg)) {
  if (cfg_.nodes != 1) net_ = make_gsn_net(cfg_.nodes, cfg_.node.clock_mhz, cfg_.net_trace);  // throws on a bad count
  SsmSystemConfig nc = cfg_.node;
  nc.gsn_loopback = (cfg_.nodes == 1);
  nc.watchdog_cycles = 0;  // an idle node makes no progress while others work: one watchdog for all
  nc.trace = {};
  for (unsigned i = 0; i < cfg_.nodes; ++i) nodes_.push_back(std::make_unique<SsmNode>(nc, cfg_.driver));
  for (auto& n : nodes_) ports_.push_back(&n->sys.ports().gsn);
  if (net_) {  // reset the network while the engines idle
    net_->set_reset(true);
    for (int i = 0; i < 10; ++i) {
      net_->eval(ports_);
      net_->edge();
    }
    net_->set_reset(false);
  }
}

GsnSystem::~GsnSystem() = default;

void GsnSystem::spawn(unsigned node, unsigned pe, unsigned thread, std::function<void()> fn) {
  nodes_.at(node)->sys.spawn(pe, thread, std::move(fn));
}

void GsnSystem::run_all(const std::function<void(unsigned, unsigned, unsigned)>& fn, unsigned threads) {
  for (unsigned i = 0; i < nodes(); ++i) {
    const auto& c = nodes_[i]->sys.config();
    unsigned k = 0;
    for (unsigned pe = 0; pe < c.num_pe; ++pe)
      for (unsigned t = 0; t < c.num_threads; ++t)
        if (k++ < threads) spawn(i, pe, t, [fn, i, pe, t] { fn(i, pe, t); });
  }
  run();
}

void GsnSystem::run() {
  auto busy = [this] {
    for (auto& n : nodes_)
      if (!n->sys.scheduler().all_done()) return true;
    return false;
  };
  while (busy()) step();
}

void GsnSystem::net_settle() {
  // The network on the engines' current outputs; engines whose inputs changed settle again.
  std::vector<GsnPort> before;
  before.reserve(ports_.size());
  for (auto* p : ports_) before.push_back(*p);
  net_->eval(ports_);
  bool again = false;
  for (size_t i = 0; i < ports_.size(); ++i) {
    const GsnPort& a = before[i];
    const GsnPort& b = *ports_[i];
    if (a.up_ready != b.up_ready || a.dn_valid != b.dn_valid || !(a.dn_msg == b.dn_msg)) {
      ssm::ssm_select(&nodes_[i]->drv);
      nodes_[i]->sys.settle();
      again = true;
    }
  }
  if (again) net_->eval(ports_);
}

void GsnSystem::step() {
  for (auto& n : nodes_) {
    ssm::ssm_select(&n->drv);
    n->sys.begin_cycle();
  }
  if (net_) {
    net_settle();
    for (auto* p : ports_) msgs_ += p->up_valid && p->up_ready;
  }
  for (auto& n : nodes_) {
    ssm::ssm_select(&n->drv);
    n->sys.end_cycle();
  }
  if (net_) net_->edge();
  ++cycles_;
  uint64_t progress = msgs_;
  for (auto& n : nodes_) progress += n->sys.progress();
  if (progress != last_progress_) {
    last_progress_ = progress;
    last_change_ = cycles_;
  } else if (cfg_.watchdog_cycles && cycles_ - last_change_ > cfg_.watchdog_cycles) {
    std::string s = fmt::format("GsnSystem: no progress for {} cycles at cycle {}\n", cfg_.watchdog_cycles, cycles_);
    for (unsigned i = 0; i < nodes(); ++i)
      s += fmt::format("node {}: {} thread(s) live\n{}", i, nodes_[i]->sys.scheduler().live_threads(),
                       nodes_[i]->sys.scheduler().describe_running());
    throw Stall(s);
  }
}

}  // namespace hpcnet::sim
