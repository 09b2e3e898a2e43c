// test_lnk_state: the link's state (rtl/link/lnk_state.sv, docs/link.md section 6) with two whole
// ends (lnk_end: sender, receiver and state each) joined by sim/link's wires, packets both ways on
// both VCs, random idle cycles at the sources and back-pressure at the sinks. A small variant
// (Vlnk_end_s: 150-cycle timeout, down after 4 replays or 600 cycles without progress, 16 cycles
// of TRAIN) so that the link goes down within a few hundred cycles.
// Checked against the packets' own contents (each names its VC, index and flit; every word is a
// function of them):
//   - whatever happens, nothing is delivered twice, out of order, torn or corrupted;
//   - a link with no fault never goes down and loses nothing;
//   - dead for good (both directions, or one): each end goes down within the bound, once, the
//     sources are never blocked (what is offered is taken and dropped), neither end comes up;
//   - dead for a while, one or both directions: both ends go down, come back up by themselves,
//     and every packet taken once both were up again is delivered;
//   - dead windows again and again with bit errors: the same.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "Vlnk_end_s.h"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"
#include "sim/core/harness.hpp"
#include "sim/link/link_ports.hpp"
#include "sim/link/link_wire.hpp"

namespace {

using hpcnet::sim::LinkFaults;
using hpcnet::sim::LinkWire;
using hpcnet::sim::WireFlit;
using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;

constexpr unsigned kLsFlits = 5, kLsVcs = 2;
constexpr unsigned kLsTimeout = 150, kLsDownRetries = 4;  // Vlnk_end_s
constexpr uint64_t kLsGiveUp = uint64_t(kLsDownRetries) * kLsTimeout;

// word i of flit k of packet idx on VC v
uint64_t ls_word(unsigned v, uint64_t idx, unsigned k, unsigned i) {
  if (i == 0) return (uint64_t(v) << 60) | (idx << 8) | k;
  uint64_t x = (idx * 0x9E3779B97F4A7C15ull) ^ (uint64_t(v * 8 + k) << 40) ^ i;
  x ^= x >> 31;
  return x * 0xBF58476D1CE4E5B9ull;
}

struct LsEnd {
  hpcnet::sim::Harness<Vlnk_end_s> h;
  Vlnk_end_s& d;
  struct Vc {
    uint64_t next = 0;      // the next packet's index
    unsigned k = 0;         // its next flit
    bool offered = false;
    unsigned wait = 0;      // cycles its flit has been offered while the link is down
    std::vector<uint64_t> taken_at;  // cycle each packet's head was taken
    // what arrives here on this VC from the other end
    int64_t last_idx = -1;  // last packet delivered
    unsigned rk = 0;        // the next flit expected of the packet under way
    uint64_t r_idx = 0;
    std::vector<bool> got;  // by index
  };
  std::array<Vc, kLsVcs> vc;
  uint64_t blocked = 0, bad = 0, up_rise = 0;
  bool was_up = true;
  explicit LsEnd(bool trace) : h(312.5, trace ? hpcnet::sim::trace_from_env() : hpcnet::sim::TraceWindow::off()), d(h.dut()) {}
};

struct LsPair {
  std::mt19937_64 rng;
  LsEnd a{true}, b{false};
  LinkWire ab, ba;  // a's flits and control words to b; b's to a
  uint64_t now = 0;
  bool sending = true;
  unsigned src_pct = 70, snk_pct = 80;

  LsPair(unsigned delay, uint64_t seed) : rng(seed), ab(delay, {}, {}, seed * 3 + 1), ba(delay, {}, {}, seed * 5 + 2) {
    for (LsEnd* e : {&a, &b}) {
      e->d.in_valid_i = 0;
      e->d.rx_valid_i = 0;
      e->d.ctl_valid_i = 0;
      e->d.out_ready_i = 0;
      e->d.hold_i = 0;
      hpcnet::tb::sync_reset(e->h);
    }
  }
  unsigned rnd(unsigned n) { return unsigned(rng() % n); }
  static WireFlit flit_of(const Vlnk_end_s& d) {
    return hpcnet::sim::flit_from_ports(d.tx_vc_o, d.tx_head_o, d.tx_tail_o, d.tx_seq_o, d.tx_crc_o, d.tx_data_o);
  }
  static void arrive(Vlnk_end_s& d, LinkWire& w, uint64_t now) {
    WireFlit f;
    d.rx_valid_i = w.flit_out(now, f);
    if (d.rx_valid_i) hpcnet::sim::flit_to_ports(f, d.rx_vc_i, d.rx_head_i, d.rx_tail_i, d.rx_seq_i, d.rx_crc_i, d.rx_data_i);
    uint64_t c = 0;
    d.ctl_valid_i = w.ctl_out(now, c);
    d.ctl_i = c;
  }
  void offer(LsEnd& e) {
    unsigned valid = 0, last = 0;
    for (unsigned v = 0; v < kLsVcs; ++v) {
      LsEnd::Vc& s = e.vc[v];
      // a packet once begun is offered flit after flit (lnk_tx's rule); a new one at random
      if (s.offered || (s.k > 0) || (sending && rnd(100) < src_pct)) {
        s.offered = true;
        valid |= 1u << v;
        if (s.k + 1 == kLsFlits) last |= 1u << v;
        for (unsigned i = 0; i < 4; ++i) put_bits(e.d.in_data_i, 256 * v + 64 * i, 64, ls_word(v, s.next, s.k, i));
      }
    }
    e.d.in_valid_i = static_cast<CData>(valid);
    e.d.in_last_i = static_cast<CData>(last);
    unsigned ready = 0;
    for (unsigned v = 0; v < kLsVcs; ++v)
      if (rnd(100) < snk_pct) ready |= 1u << v;
    e.d.out_ready_i = static_cast<CData>(ready);
  }
  void handshakes(LsEnd& e) {
    for (unsigned v = 0; v < kLsVcs; ++v) {
      LsEnd::Vc& s = e.vc[v];
      if (s.offered) {
        if ((e.d.in_ready_o >> v) & 1) {
          if (s.k == 0) s.taken_at.push_back(now);
          s.offered = false;
          s.wait = 0;
          if (++s.k == kLsFlits) {
            s.k = 0;
            ++s.next;
          }
        } else if (e.d.up_o) {
          s.wait = 0;  // waiting for credits or the brake: the link's rules
        } else if (++s.wait > 2 * kLsFlits) {
          ++e.blocked;  // a down link takes whatever is offered (after the other VC's packet)
        }
      }
      if (((e.d.out_valid_o >> v) & 1) && ((e.d.out_ready_i >> v) & 1)) {
        std::array<uint64_t, 4> w;
        for (unsigned i = 0; i < 4; ++i) w[i] = get_bits(e.d.out_data_o, 256 * v + 64 * i, 64);
        const unsigned k = unsigned(w[0] & 0xFF);
        const uint64_t idx = (w[0] >> 8) & ((1ull << 52) - 1);
        bool ok = (w[0] >> 60) == v && k == s.rk && bool((e.d.out_last_o >> v) & 1) == (k + 1 == kLsFlits);
        if (k == 0) ok = ok && int64_t(idx) > s.last_idx;  // once, in order
        else ok = ok && idx == s.r_idx;                     // not torn
        for (unsigned i = 1; i < 4; ++i) ok = ok && w[i] == ls_word(v, idx, k, i);
        e.bad += !ok;
        s.r_idx = idx;
        s.rk = (k + 1) % kLsFlits;
        if (k + 1 == kLsFlits) {
          s.last_idx = int64_t(idx);
          if (s.got.size() <= idx) s.got.resize(idx + 1);
          s.got[idx] = true;
        }
      }
    }
    if (e.d.up_o && !e.was_up) e.up_rise = now;
    e.was_up = e.d.up_o;
  }
  void cycle() {
    for (auto [e, w] : {std::pair{&a, &ab}, std::pair{&b, &ba}}) {
      if (e->d.tx_valid_o) {
        const WireFlit f = flit_of(e->d);
        w->put(now, &f, true, e->d.ctl_o);
      } else {
        w->put(now, nullptr, true, e->d.ctl_o);
      }
    }
    arrive(b.d, ab, now);
    arrive(a.d, ba, now);
    offer(a);
    offer(b);
    a.h.eval();
    b.h.eval();
    handshakes(a);
    handshakes(b);
    hpcnet::tb::tick(a.h);
    hpcnet::tb::tick(b.h);
    ++now;
  }
  void run(uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) cycle();
  }
  // Stop the sources, let everything drain.
  void drain() {
    sending = false;
    run(4 * kLsGiveUp);
  }
  // Packets from `from` taken at or after cycle t and not delivered at `to`.
  static uint64_t lost_after(const LsEnd& from, const LsEnd& to, uint64_t t) {
    uint64_t n = 0;
    for (unsigned v = 0; v < kLsVcs; ++v)
      for (uint64_t i = 0; i < from.vc[v].taken_at.size(); ++i)
        if (from.vc[v].taken_at[i] >= t && (i >= to.vc[v].got.size() || !to.vc[v].got[i])) ++n;
    return n;
  }
  static uint64_t taken(const LsEnd& e) { return e.vc[0].taken_at.size() + e.vc[1].taken_at.size(); }
};

void ls_check_clean(LsPair& p) {
  CHECK(p.a.bad == 0);
  CHECK(p.b.bad == 0);
  CHECK(p.a.blocked == 0);
  CHECK(p.b.blocked == 0);
}

}  // namespace

TEST_CASE("lnk state: with no fault the link never goes down and loses nothing", "[link][state]") {
  LsPair p(5, hpcnet::tb::seed("lnk state clean"));
  p.run(20000);
  p.drain();
  ls_check_clean(p);
  CHECK(p.a.d.downs_o == 0);
  CHECK(p.b.d.downs_o == 0);
  CHECK(LsPair::taken(p.a) > 1000);
  CHECK(LsPair::lost_after(p.a, p.b, 0) == 0);
  CHECK(LsPair::lost_after(p.b, p.a, 0) == 0);
}

TEST_CASE("lnk state: a link dead for good goes down at both ends within the bound and drops what is offered", "[link][state]") {
  for (bool both : {true, false}) {
    DYNAMIC_SECTION((both ? "both directions dead" : "one direction dead")) {
      LsPair p(5, hpcnet::tb::seed("lnk state dead"));
      p.run(3000);
      LinkFaults dead;
      dead.dead_at = p.now;  // for good
      p.ab.set_faults(dead, dead);
      if (both) p.ba.set_faults(dead, dead);
      const uint64_t t0 = p.now;
      uint64_t a_down = 0, b_down = 0;
      while (p.now < t0 + 20 * kLsGiveUp) {
        p.cycle();
        if (!a_down && !p.a.d.up_o) a_down = p.now;
        if (!b_down && !p.b.d.up_o) b_down = p.now;
      }
      INFO("down after " << a_down - t0 << " (a) and " << b_down - t0 << " (b) cycles; bound " << 2 * kLsGiveUp);
      REQUIRE(a_down);
      REQUIRE(b_down);
      CHECK(a_down - t0 <= 2 * kLsGiveUp + 64);  // no progress for the give-up time (it may start late by a timeout)
      CHECK(b_down - t0 <= 2 * kLsGiveUp + 64);
      // the sources went on: what was offered was taken and dropped
      const uint64_t ta = LsPair::taken(p.a), tb = LsPair::taken(p.b);
      p.run(2000);
      CHECK(LsPair::taken(p.a) > ta + 200);
      CHECK(LsPair::taken(p.b) > tb + 200);
      ls_check_clean(p);
      // neither end comes up again: b hears nothing from a, and a, which hears b's READY, waits
      // for b to have heard it; each went down once
      CHECK(p.a.up_rise < t0);
      CHECK(p.b.up_rise < t0);
      CHECK(p.a.d.downs_o == 1);
      CHECK(p.b.d.downs_o == 1);
    }
  }
}

TEST_CASE("lnk state: a link dead past the give-up time comes back up by itself and delivers what is sent after", "[link][state]") {
  for (bool both : {true, false}) {
    DYNAMIC_SECTION((both ? "both directions" : "one direction")) {
      LsPair p(7, hpcnet::tb::seed("lnk state back"));
      p.run(3000);
      LinkFaults dead;
      dead.dead_at = p.now;
      dead.dead_cycles = 5 * kLsGiveUp;
      p.ab.set_faults(dead, dead);
      if (both) p.ba.set_faults(dead, dead);
      p.run(5 * kLsGiveUp + 6000);
      p.drain();
      ls_check_clean(p);
      INFO("downs a " << p.a.d.downs_o << " b " << p.b.d.downs_o << "; up again at " << p.a.up_rise << " and " << p.b.up_rise);
      CHECK(p.a.d.downs_o >= 1);
      CHECK(p.b.d.downs_o >= 1);
      CHECK(p.a.d.up_o);
      CHECK(p.b.d.up_o);
      const uint64_t t_up = std::max(p.a.up_rise, p.b.up_rise);
      CHECK(t_up > 3000 + 5 * kLsGiveUp - 1);  // not up while the wire was dead
      CHECK(t_up < 3000 + 5 * kLsGiveUp + 8 * kLsTimeout);  // and soon after
      CHECK(LsPair::lost_after(p.a, p.b, t_up) == 0);
      CHECK(LsPair::lost_after(p.b, p.a, t_up) == 0);
      // delivered after coming back (not only before the wire died)
      CHECK(p.b.vc[0].last_idx > 0);
      CHECK(p.a.vc[0].taken_at.back() > t_up);
    }
  }
}

TEST_CASE("lnk state: dead windows again and again with bit errors never deliver twice out of order or torn", "[link][state]") {
  LsPair p(4, hpcnet::tb::seed("lnk state flap"));
  std::mt19937_64 r(hpcnet::tb::seed("lnk state flap windows"));
  uint64_t t = 2000;
  for (unsigned w = 0; w < 12; ++w) {
    p.run(t - std::min(t, p.now));
    LinkFaults f;
    f.bit_error = 2e-3;
    f.drop = 1e-3;
    f.dead_at = p.now;
    f.dead_cycles = 50 + r() % (3 * kLsGiveUp);  // shorter and longer than the give-up time
    p.ab.set_faults(f, f);
    LinkFaults g = f;
    g.dead_cycles = (r() & 1) ? f.dead_cycles : 0;
    g.dead_at = (r() & 1) ? f.dead_at : UINT64_MAX;
    if (g.dead_cycles == 0) g.dead_cycles = 20;
    p.ba.set_faults(g, g);
    t = p.now + f.dead_cycles + 500 + r() % 3000;
  }
  p.run(t - std::min(t, p.now));
  p.ab.set_faults({}, {});
  p.ba.set_faults({}, {});
  p.run(8 * kLsGiveUp);
  p.drain();
  INFO("downs a " << p.a.d.downs_o << " b " << p.b.d.downs_o);
  ls_check_clean(p);
  CHECK(p.a.d.downs_o + p.b.d.downs_o >= 2);
  CHECK(p.a.d.up_o);
  CHECK(p.b.d.up_o);
  const uint64_t t_up = std::max(p.a.up_rise, p.b.up_rise);
  CHECK(LsPair::lost_after(p.a, p.b, t_up) == 0);
  CHECK(LsPair::lost_after(p.b, p.a, t_up) == 0);
}

TEST_CASE("lnk state: one outage is one down at each end whatever its length at a delay of 50", "[link][state]") {
  // The control words of a round before (READY and HEARD still on the wire when an end times out
  // and starts a new round) must not bring an end up: 100 cycles of words in flight each way, far
  // more than the 16 cycles of TRAIN. Outages of 40 lengths around the give-up and READY timeouts.
  unsigned extra = 0, worst = 0;
  for (unsigned k = 0; k < 40; ++k) {
    LsPair p(50, hpcnet::tb::seed("lnk state one down") + k);
    p.run(1000);
    LinkFaults dead;
    dead.dead_at = p.now;
    dead.dead_cycles = 2 * kLsGiveUp + 31 * k;
    p.ab.set_faults(dead, dead);
    if (k % 2) p.ba.set_faults(dead, dead);
    p.run(dead.dead_cycles + 20 * kLsTimeout);
    INFO("outage " << dead.dead_cycles << " cycles: downs a " << p.a.d.downs_o << " b " << p.b.d.downs_o);
    CHECK(p.a.d.up_o);
    CHECK(p.b.d.up_o);
    CHECK(p.a.d.downs_o >= 1);
    CHECK(p.b.d.downs_o >= 1);
    const unsigned d = std::max<unsigned>(p.a.d.downs_o, p.b.d.downs_o);
    worst = std::max(worst, d);
    extra += d > 1;
    ls_check_clean(p);
  }
  INFO(extra << " of 40 outages counted more than one down, at most " << worst);
  CHECK(worst <= 2);     // an end that said HEARD may time out as the other goes up: one more down
  CHECK(extra <= 2);  // 0 of 400 measured; without the rounds 123 of 400 (up to 3 downs)
}
