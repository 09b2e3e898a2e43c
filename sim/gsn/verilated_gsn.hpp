// sim/gsn/verilated_gsn.hpp: GsnNet over a Verilated gsn_tree model class V (the port copy between
// the nodes' GSN links and the tree's packed port vectors), and the messages on its links read from
// its nodes (sim/gsn/gsn_links.hpp: needs <V>___024root.h, included by the generated table).
// make_verilated_gsn<V> is the factory the generated model table (gsn_models_gen.cpp) lists for
// every product tree.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "sim/core/harness.hpp"
#include "sim/gsn/gsn_fabric.hpp"

namespace hpcnet::sim {

template <class V>
class VerilatedGsnNet final : public GsnNet {
 public:
  VerilatedGsnNet(unsigned nodes, double clock_mhz, TraceWindow trace)
      : n_(nodes), h_(clock_mhz, std::move(trace)), probes_(gsn_node_probes(*h_.dut().rootp)) {}
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
  void close_trace() override { h_.close_trace(); }
  std::vector<unsigned> level_nodes() const override {
    std::vector<unsigned> shape;
    for (const auto& p : probes_) {
      if (p.level >= shape.size()) shape.resize(p.level + 1, 0);
      ++shape[p.level];
    }
    return shape;
  }
  void count_links(std::vector<GsnLinkLevel>& levels) const override {
    for (const auto& p : probes_) {
      levels[p.level].up += p.up();
      levels[p.level].down += p.down();
    }
  }

 private:
  unsigned n_;
  Harness<V> h_;
  std::vector<GsnNodeProbe> probes_;  // the tree's nodes inside h_'s model
};

template <class V>
std::unique_ptr<GsnNet> make_verilated_gsn(unsigned nodes, double clock_mhz, TraceWindow trace) {
  return std::make_unique<VerilatedGsnNet<V>>(nodes, clock_mhz, std::move(trace));
}

}  // namespace hpcnet::sim
