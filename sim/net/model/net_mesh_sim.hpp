// sim/net/model/net_mesh_sim.hpp: NetSim<V>, the driver of a whole network in one Verilated model
// V (net_mesh: Vnet_mesh_*, Vnet_torus_*, Vnet_bar_*; docs/net_sim.md). All of them have the same
// port names, only their widths differ (netport, rtr_state.hpp), so one template drives them all
// through a Harness<V>. Per cycle it follows the engine's protocol (net_engine.hpp) in order;
// with the multiphase barrier built in (spec.barrier) it drives the barrier's ports too.
// A network of several models (blocks joined port to port, on one thread or several) is
// NetJoined<V> (net_joined.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/core/harness.hpp"
#include "sim/net/model/net_sim.hpp"
#include "sim/net/model/rtr_state.hpp"

namespace hpcnet::sim {

template <class V>
class NetSim final : public NetSimBase {
 public:
  NetSim(const NetSpec& spec, TraceWindow trace) : NetSimBase(checked(spec)), h_(312.5, std::move(trace)) {
    if (spec.threads != 1)
      throw std::logic_error(fmt::format("NetSim: {}: a whole network runs on one thread (a split mesh is NetJoined)", spec.label()));
    const size_t data_bits = static_cast<size_t>(spec.shape.nodes()) * spec.flit_bits;
    if (netport::bits_of<decltype(V::inj_data_i)>() < data_bits || netport::bits_of<decltype(V::ej_data_o)>() < data_bits ||
        netport::bits_of<decltype(V::inj_valid_i)>() < spec.shape.nodes())
      throw std::logic_error("NetSim: model " + spec.model + " has ports narrower than its spec " + spec.label());
    engine_.set_state_dump([this] { return dump_routers(engine_.spec(), 1, nodes(), root_of(), node_of()); });
    reset_model();
    check_reset_credits(spec, layout_, *h_.dut().rootp, "NetSim");
  }

  Harness<V>& harness() { return h_; }
  RouterWaits router_waits() override {
    RouterWaits w;
    fold_rtr_waits(engine_.spec(), *h_.dut().rootp, nodes(), w.max_wait, w.hold_cycles);
    return w;
  }

  PortOut port_out(unsigned n) override {
    const V& m = h_.dut();
    return {netport::field(m.inj_ready_o, n, 1) != 0, netport::field(m.ej_valid_o, n, 1) != 0,
            m.ej_data_o.data() + static_cast<size_t>(n) * engine_.words()};
  }

  void set_barrier_k(unsigned k) override {
    if constexpr (kBarrierPorts) {
      if (spec().barrier) {
        h_.dut().bar_k_i = static_cast<netport::bare_t<decltype(V::bar_k_i)>>(k);
        return;
      }
    }
    NetSimBase::set_barrier_k(k);
  }
  void drive_barrier(unsigned n, bool enter_valid, bool full, bool leave_ready) override {
    if constexpr (kBarrierPorts) {
      if (spec().barrier) {
        V& m = h_.dut();
        netport::set_bit(m.bar_enter_valid_i, n, enter_valid);
        netport::set_bit(m.bar_enter_full_i, n, full);
        netport::set_bit(m.bar_leave_ready_i, n, leave_ready);
        return;
      }
    }
    NetSimBase::drive_barrier(n, enter_valid, full, leave_ready);
  }
  BarrierOut barrier_out(unsigned n) override {
    if constexpr (kBarrierPorts) {
      if (spec().barrier) {
        const V& m = h_.dut();
        return {netport::field(m.bar_enter_ready_o, n, 1) != 0, netport::field(m.bar_leave_valid_o, n, 1) != 0,
                netport::field(m.bar_busy_o, n, 1) != 0, static_cast<unsigned>(netport::field(m.bar_phase_o, 9 * n, 9))};
      }
    }
    return NetSimBase::barrier_out(n);
  }

  void reset_model() override {
    V& m = h_.dut();
    const uint64_t* ready = engine_.ej_ready_bits();
    for (unsigned n = 0; n < nodes(); ++n) {
      netport::set_bit(m.inj_valid_i, n, false);
      netport::set_bit(m.ej_ready_i, n, (ready[n >> 6] >> (n & 63)) & 1);
    }
    m.buf_pkts_i = static_cast<netport::bare_t<decltype(m.buf_pkts_i)>>(engine_.spec().buf_pkts);
    m.starve_t_i = static_cast<netport::bare_t<decltype(m.starve_t_i)>>(fair_.starve_t);
    m.wait_arb_i = fair_.wait_arb;
    h_.reset(4);
  }

  // The engine's protocol, in order.
  void step() override {
    NetEngine& e = engine_;
    V& m = h_.dut();
    e.begin_cycle();
    for (uint32_t n : e.changed()) set_injection(m, n);
    e.clear_changed();
    if (e.ej_backpressure()) set_ej_ready(m);
    h_.settle();
    handshakes(m);
    h_.edge();
    e.moved(m.moved_o);
    e.end_cycle();
  }

 private:
  static constexpr bool kBarrierPorts = requires(V& m) { m.bar_k_i; };  // net_mesh with Barrier = 1

  unsigned nodes() const { return engine_.nodes(); }

  // The handshakes of this cycle to the engine: injections accepted, flits ejected.
  void handshakes(const V& m) {
    NetEngine& e = engine_;
    const unsigned words = e.words();
    const uint64_t* valid = e.inj_valid_bits();
    const uint64_t* ready = e.ej_ready_bits();  // 0 beyond the last node
    const uint32_t* ej = m.ej_data_o.data();
    for (unsigned c = 0; c < e.chunks(); ++c) {
      for (uint64_t acc = valid[c] & netport::chunk64(m.inj_ready_o, c); acc; acc &= acc - 1)
        e.accepted(c * 64 + static_cast<unsigned>(__builtin_ctzll(acc)));
      for (uint64_t out = ready[c] & netport::chunk64(m.ej_valid_o, c); out; out &= out - 1) {
        const unsigned n = c * 64 + static_cast<unsigned>(__builtin_ctzll(out));
        e.ejected(n, ej + static_cast<size_t>(n) * words);
      }
    }
  }

  // Node n's injection port from the engine.
  void set_injection(V& m, unsigned n) {
    const NetEngine& e = engine_;
    const bool v = e.presenting(n);
    if (v) {
      const unsigned words = e.words();
      std::copy_n(e.stage(n), words, m.inj_data_i.data() + static_cast<size_t>(n) * words);
    }
    netport::set_bit(m.inj_valid_i, n, v);
  }
  // The engine's ejection ready bits into the model.
  void set_ej_ready(V& m) {
    const uint64_t* r = engine_.ej_ready_bits();
    for (unsigned n = 0; n < nodes(); ++n) netport::set_bit(m.ej_ready_i, n, (r[n >> 6] >> (n & 63)) & 1);
  }

  static const NetSpec& checked(const NetSpec& s) {
    if (const std::string err = s.buf_error(); !err.empty()) throw std::invalid_argument(err);
    return s;
  }

  // The routers' state for the watchdog and the link statistics (rtr_state.hpp).
  auto root_of() {
    return [this](unsigned) -> const auto& { return *h_.dut().rootp; };
  }
  static auto node_of() {
    return [](unsigned, unsigned r) { return static_cast<int>(r); };
  }
  void sample_state(LinkProbe& probe, bool count) override { sample_routers(layout_, 1, nodes(), root_of(), node_of(), probe, count); }

  const RtrLayout layout_{engine_.spec()};
  Harness<V> h_;
};

}  // namespace hpcnet::sim
