// gsn_node_tb.hpp: harness of one node of the sync tree alone (rtl/gsn/gsn_node.sv, model
// Vgsn_node: 3 children, 2 slots, GSN_ALLOW_DUP). The children's ports have the interface of
// GsnTb (gsn_tb.hpp), so that run_random_on() drives them; the test plays the parent: it takes
// each up message (ready with up_ready_pct) and sends it back down after `latency` cycles and
// random idle cycles, as the root of a tree does. Every cycle the harness checks that the node's
// outputs obey the valid/ready rule (the up message and each child's down message stay, unchanged,
// until taken) and records every up message the parent took.
#pragma once
#include <cstdint>
#include <vector>

#include "Vgsn_node.h"
#include "gsn_tb.hpp"
#include "hpcnet/tb/stream.hpp"

namespace gsnt {

struct ParentCfg {
  unsigned up_ready_pct = 100;  // the parent's ready for the node's up message
  unsigned dn_idle_pct = 0;     // idle cycles before each down message
  unsigned latency = 1;         // cycles from an up message taken to its down message shown
  bool loop = true;             // send every up message back down
};

class GsnNodeTb {
 public:
  static constexpr unsigned N = 3, R = 3, S = 2;  // rtl/gsn/models.cmake: Vgsn_node
  std::vector<bool> up_valid = std::vector<bool>(N), dn_ready = std::vector<bool>(N);
  std::vector<Msg> up_msg = std::vector<Msg>(N);
  std::vector<bool> up_ready = std::vector<bool>(N), dn_valid = std::vector<bool>(N);
  std::vector<Msg> dn_msg = std::vector<Msg>(N);
  std::vector<std::pair<std::uint64_t, Msg>> parent_got;  // (cycle, message) taken by the parent
  hpcnet::tb::StreamSource<Msg> parent_dn;                // what the parent sends down

  explicit GsnNodeTb(std::uint64_t seed = 1, ParentCfg cfg = {}) : rng_(seed), cfg_(cfg) {
    parent_dn.idle_pct = cfg.dn_idle_pct;
    up_sink_.ready_pct = cfg.up_ready_pct;
    hpcnet::tb::sync_reset(h_);
  }
  Vgsn_node& m() { return h_.dut(); }
  std::uint64_t cycles() const { return h_.cycles(); }
  bool p_up_valid() const { return p_up_valid_; }

  void cycle() {
    Vgsn_node& d = h_.dut();
    unsigned uv = 0, dr = 0;
    for (unsigned n = 0; n < N; ++n) {
      uv |= unsigned(up_valid[n]) << n;
      dr |= unsigned(dn_ready[n]) << n;
      put_msg(d.c_up_msg_i, n, up_msg[n]);
    }
    d.c_up_valid_i = static_cast<CData>(uv);
    d.c_dn_ready_i = static_cast<CData>(dr);
    up_sink_.step(rng_);
    parent_dn.step(rng_, cycles());
    d.p_up_ready_i = up_sink_.ready();
    d.p_dn_valid_i = parent_dn.valid();
    if (!parent_dn.empty()) put_msg(d.p_dn_msg_i, 0, parent_dn.data());
    h_.eval();
    p_up_valid_ = d.p_up_valid_o;
    const Msg up = get_msg(d.p_up_msg_o, 0);
    INFO("cycle " << cycles());
    REQUIRE(up_hold_.check(p_up_valid_, up_sink_.ready(), up));
    for (unsigned n = 0; n < N; ++n) {
      up_ready[n] = (d.c_up_ready_o >> n) & 1;
      dn_valid[n] = (d.c_dn_valid_o >> n) & 1;
      dn_msg[n] = get_msg(d.c_dn_msg_o, n);
      INFO("child " << n);
      REQUIRE(dn_hold_[n].check(dn_valid[n], dn_ready[n], dn_msg[n]));
    }
    if (p_up_valid_ && up_sink_.ready()) {
      parent_got.emplace_back(cycles(), up);
      if (cfg_.loop) parent_dn.push(up, cycles() + cfg_.latency);
    }
    parent_dn.fire(d.p_dn_ready_o);
    hpcnet::tb::tick(h_);
  }

 private:
  hpcnet::sim::Harness<Vgsn_node> h_{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  hpcnet::tb::Rng rng_;
  ParentCfg cfg_;
  hpcnet::tb::StreamSink up_sink_;
  hpcnet::tb::HoldCheck<Msg> up_hold_, dn_hold_[N];
  bool p_up_valid_ = false;
};

}  // namespace gsnt
