// rtr_tb.hpp: harness of one router (rtr_router with K0 = K1 = K2 = 1: every network port is a
// boundary port; 64-bit flits) running input buffers of `bufpkts` packets (buf_pkts_i, at most the
// model's BufPkts): the test plays the upstream routers (it sends a packet's head on a
// network input only with a credit for that input, as a router would), the downstream routers
// (it returns credits for what the router sent, automatically after a delay or when told), the
// injecting node and the ejecting node. Every flit leaving the router is recorded with its cycle.
// Packets: 5 flits; head [23:0] route field, [31:24] hop counter, [63:32] packet id; body flits
// carry the id and their position.
// Boundary timing (rtr_router.sv): the router's out_valid_o/out_data_o and in_cred_o are its
// decisions of the cycle (combinational), and it registers in_valid_i/in_data_i and out_cred_i at
// the edge. So the test drives an input as a neighbour's decision would (a credit seen in cycle c
// is used from cycle c+1), and a flit seen on an output in cycle c is the one the router sends at
// the edge that ends cycle c.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <type_traits>
#include <vector>

#include "sim/core/harness.hpp"
#include "sim/net/net_types.hpp"
#include "hpcnet/tb/cycle.hpp"

namespace rtrtb {

constexpr unsigned kFlits = 5;

struct Flit {
  std::uint64_t data = 0;
  std::uint64_t cycle = 0;
};

// A head flit: the head format (rtl/router/rtr_formats.toml) with hops {x, y, z} left and `hops`
// travelled, the packet id above it.
inline std::uint64_t head_flit(unsigned id, int x, int y, int z = 0, unsigned hops = 0) {
  hpcnet::rtr_formats::Head h;
  h.route.hops = {x, y, z};
  h.hop_count = hops;
  return std::uint64_t(id) << 32 | h.pack()[0];
}
inline std::uint64_t body_flit(unsigned id, unsigned pos) {
  return std::uint64_t(id) << 32 | 0xb0d000u | pos;
}
inline std::vector<std::uint64_t> packet(unsigned id, int x, int y, int z = 0) {
  std::vector<std::uint64_t> p{head_flit(id, x, y, z)};
  for (unsigned i = 1; i < kFlits; ++i) p.push_back(body_flit(id, i));
  return p;
}
inline int hop_of(std::uint64_t head, unsigned d) { return hpcnet::sim::route_hops(static_cast<std::uint32_t>(head), d); }
inline unsigned id_of(std::uint64_t f) { return unsigned(f >> 32); }

// 64-bit lane p of a Verilator port (a 64-bit QData or a VlWide of 32-bit words).
template <class W>
std::uint64_t lane(const W& w, unsigned p) {
  if constexpr (sizeof(W) <= 8) {
    (void)p;
    return std::uint64_t(w);
  } else {
    return std::uint64_t(w[2 * p]) | std::uint64_t(w[2 * p + 1]) << 32;
  }
}
template <class W>
void set_lane(W& w, unsigned p, std::uint64_t v) {
  if constexpr (sizeof(W) <= 8) {
    (void)p;
    w = v;
  } else {
    w[2 * p] = std::uint32_t(v);
    w[2 * p + 1] = std::uint32_t(v >> 32);
  }
}

template <class V>
class RouterTb {
 public:
  const unsigned dims, nn, bufpkts;
  const bool wormhole;
  hpcnet::sim::Harness<V> h{312.5, hpcnet::sim::trace_from_env()};
  V& m = h.dut();

  // upstream side: packets queued per input (network 0..nn-1, injection nn)
  std::vector<std::deque<std::vector<std::uint64_t>>> inq;
  std::vector<unsigned> inpos, incred;
  std::vector<std::vector<std::uint64_t>> cred_at;  // cycles at which each input's credit pulse was seen
  std::vector<bool> ingap;  // random gaps between flits on that input
  // downstream side: flits per output (network 0..nn-1, ejection nn), credits to return
  std::vector<std::vector<Flit>> out;
  std::vector<std::deque<std::uint64_t>> cred_due;  // cycles at which a credit goes back
  std::vector<int> cred_delay;                      // <0: hold credits (return_credit() by hand)
  std::vector<unsigned> held;                       // credits held back per output
  bool ej_ready = true;
  std::uint64_t inj_accepted = 0;
  bool inj_held = false;  // a flit offered last cycle and not taken: it stays valid

  RouterTb(unsigned dims_, unsigned bufpkts_, bool wormhole_)
      : dims(dims_), nn(2 * dims_), bufpkts(bufpkts_), wormhole(wormhole_), inq(2 * dims_ + 1),
        inpos(2 * dims_ + 1, 0), incred(2 * dims_, wormhole_ ? bufpkts_ * kFlits : bufpkts_), cred_at(2 * dims_),
        ingap(2 * dims_ + 1, false), out(2 * dims_ + 1), cred_due(2 * dims_),
        cred_delay(2 * dims_, 1), held(2 * dims_, 0) {
    m.in_valid_i = 0;
    m.out_cred_i = 0;
    m.out_en_i = static_cast<std::remove_reference_t<decltype(m.out_en_i)>>((1u << nn) - 1);
    m.inj_valid_i = 0;
    m.ej_ready_i = 1;
    m.buf_pkts_i = static_cast<std::remove_reference_t<decltype(m.buf_pkts_i)>>(bufpkts);
    hpcnet::tb::sync_reset(h);
  }
  std::uint64_t now() const { return h.cycles(); }

  void send(unsigned port, std::vector<std::uint64_t> pkt) { inq[port].push_back(std::move(pkt)); }
  void hold_credits(unsigned o) { cred_delay[o] = -1; }
  void auto_credits(unsigned o, int delay = 1) { cred_delay[o] = delay; }
  void return_credit(unsigned o, unsigned n = 1) {
    REQUIRE(held[o] >= n);
    held[o] -= n;
    for (unsigned i = 0; i < n; ++i) cred_due[o].push_back(now());
  }
  std::vector<std::vector<std::uint64_t>> packets(unsigned o) const {
    std::vector<std::vector<std::uint64_t>> ps;
    for (size_t i = 0; i + kFlits <= out[o].size(); i += kFlits) {
      std::vector<std::uint64_t> p;
      for (unsigned k = 0; k < kFlits; ++k) p.push_back(out[o][i + k].data);
      ps.push_back(p);
    }
    return ps;
  }

  // One clock cycle. rng_gap: a function deciding random gaps (nullptr: none).
  template <class Gap>
  void cycle(Gap&& gap) {
    // drive the inputs
    std::uint32_t valid = 0, creds = 0;
    for (unsigned p = 0; p < nn; ++p) {
      set_lane(m.in_data_i, p, 0);
      if (inq[p].empty() || (ingap[p] && gap())) continue;
      bool head = inpos[p] == 0;
      bool ok = wormhole ? incred[p] > 0 : (!head || incred[p] > 0);
      if (!ok) continue;
      if (wormhole || head) --incred[p];
      valid |= 1u << p;
      set_lane(m.in_data_i, p, inq[p].front()[inpos[p]]);
      if (++inpos[p] == kFlits) {
        inpos[p] = 0;
        inq[p].pop_front();
      }
    }
    m.in_valid_i = static_cast<std::remove_reference_t<decltype(m.in_valid_i)>>(valid);
    bool injv = !inq[nn].empty() && (inj_held || !(ingap[nn] && gap()));
    m.inj_valid_i = injv;
    set_lane(m.inj_data_i, 0, injv ? inq[nn].front()[inpos[nn]] : 0);
    for (unsigned o = 0; o < nn; ++o) {
      if (!cred_due[o].empty() && cred_due[o].front() <= now()) {
        cred_due[o].pop_front();
        creds |= 1u << o;
      }
    }
    m.out_cred_i = static_cast<std::remove_reference_t<decltype(m.out_cred_i)>>(creds);
    m.ej_ready_i = ej_ready;
    h.eval();
    // sample (before the edge)
    inj_held = injv && !m.inj_ready_o;
    if (injv && m.inj_ready_o) {
      ++inj_accepted;
      if (++inpos[nn] == kFlits) {
        inpos[nn] = 0;
        inq[nn].pop_front();
      }
    }
    for (unsigned p = 0; p < nn; ++p) {
      if (m.in_cred_o >> p & 1) {
        ++incred[p];
        cred_at[p].push_back(now());
      }
    }
    for (unsigned o = 0; o < nn; ++o) {
      if (!(m.out_valid_o >> o & 1)) continue;
      out[o].push_back({lane(m.out_data_o, o), now()});
      bool tail = out[o].size() % kFlits == 0;
      if (wormhole || tail) {
        if (cred_delay[o] < 0) ++held[o];
        else cred_due[o].push_back(now() + std::uint64_t(cred_delay[o]));
      }
    }
    if (m.ej_valid_o && ej_ready) out[nn].push_back({lane(m.ej_data_o, 0), now()});
    hpcnet::tb::tick(h);
  }
  void cycle() {
    cycle([] { return false; });
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }
  bool idle() const {
    for (const auto& q : inq)
      if (!q.empty()) return false;
    return true;
  }
};

}  // namespace rtrtb
