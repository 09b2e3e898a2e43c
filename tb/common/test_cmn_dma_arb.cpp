// test_cmn_dma_arb: cmn_dma_arb (Verilated) with N random masters and a random host port.
// Masters issue numbered requests, single beats and bursts of up to 4 beats, with random idle
// cycles before a request and between the beats of a burst; a request, once shown, stays
// unchanged until taken. The port stalls at random (back-pressure) and answers every read with a
// tagged response after a random delay, in any order, holding it until taken; masters stall
// responses at random. Checked every cycle against a C++ reference: the port shows exactly the
// request of the master a round-robin model picks (with the hold rules and either fairness
// mode), with the tag {master tag, master index}; every request reaches the port exactly once, in
// order per master, and a burst is never interleaved; with AdvanceOnStall = 1 a master waits for
// at most N-1 grants to others; every response reaches exactly the master its tag names, once,
// with its data and the master's tag.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "Vcmn_dma_arb.h"
#include "Vcmn_dma_arb_legacy.h"
#include "Vcmn_dma_arb_n1.h"
#include "Vcmn_dma_arb_n5.h"
#include "sim/core/harness.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"

namespace {

using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;

struct DmaArbParams {
  unsigned n, req_w, mtag_w, rsp_w;
  bool advance_on_stall;
  unsigned idx_w() const {
    unsigned w = 1;
    while ((1u << w) < n) ++w;
    return w;
  }
};

// A request beat: payload = {random bits, sequence number (seq_w bits), read flag (1)}.
struct DmaBeat {
  std::uint64_t data = 0, tag = 0;
  bool last = true;
};
struct DmaRsp {
  std::uint64_t tag = 0, data = 0;
};

template <class M>
struct DmaArbTb {
  DmaArbParams p;
  hpcnet::sim::Harness<M> h{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  M& m = h.dut();
  std::mt19937_64 rng;
  std::uint64_t req_mask, mtag_mask, rsp_mask, seq_mask;

  struct Master {
    std::deque<DmaBeat> beats;  // the current burst's beats not yet taken
    bool showing = false;    // beats.front() is offered (held until taken)
    std::uint32_t seq = 0;   // next sequence number to issue
    std::uint32_t seen = 0;  // next sequence number expected at the port
    std::deque<DmaRsp> rsps;    // responses expected, any order
    unsigned waited = 0;     // grants to others while this master's request was shown
    unsigned src_pct = 50, rsp_pct = 50;
  };
  std::vector<Master> ms;
  std::vector<DmaRsp> host_pending;  // reads taken, not yet answered
  bool host_showing = false;
  DmaRsp host_rsp;
  // Reference arbiter state.
  unsigned prio = 0, hold_idx = 0;
  bool stall = false, lock = false;
  unsigned taken = 0, answered = 0;
  int granted = -1;  // the master of this cycle's new grant, else -1

  DmaArbTb(DmaArbParams p_, std::uint64_t seed) : p(p_), rng(seed), ms(p_.n) {
    req_mask = p.req_w >= 64 ? ~0ull : (1ull << p.req_w) - 1;
    mtag_mask = (1ull << p.mtag_w) - 1;
    rsp_mask = p.rsp_w >= 64 ? ~0ull : (1ull << p.rsp_w) - 1;
    seq_mask = (1ull << std::min(16u, p.req_w - 1)) - 1;
    m.req_valid_i = 0;
    m.rsp_valid_i = 0;
    m.req_ready_i = 0;
    m.rsp_ready_i = 0;
    hpcnet::tb::sync_reset(h);
  }
  unsigned rnd(unsigned n) { return static_cast<unsigned>(rng() % n); }

  void new_burst(unsigned i) {
    Master& x = ms[i];
    bool read = rnd(3) == 0;
    unsigned n = read ? 1 : (rnd(3) == 0 ? 1 + rnd(4) : 1);
    std::uint64_t tag = rng() & mtag_mask;
    for (unsigned k = 0; k < n; ++k) {
      DmaBeat b;
      b.data = ((rng() << 17) | ((x.seq++ & seq_mask) << 1) | (read ? 1 : 0)) & req_mask;
      b.tag = tag;
      b.last = k == n - 1;
      x.beats.push_back(b);
    }
  }

  // Drives the masters' and the host's inputs for this cycle.
  void drive() {
    for (unsigned i = 0; i < p.n; ++i) {
      Master& x = ms[i];
      if (x.beats.empty()) new_burst(i);
      if (!x.showing && rnd(100) < x.src_pct) x.showing = true;
      const DmaBeat& b = x.beats.front();
      put_bits(m.req_valid_i, i, 1, x.showing);
      // A master not showing a request drives garbage.
      put_bits(m.req_data_i, i * p.req_w, p.req_w, x.showing ? b.data : rng() & req_mask);
      put_bits(m.req_tag_i, i * p.mtag_w, p.mtag_w, x.showing ? b.tag : rng() & mtag_mask);
      put_bits(m.req_last_i, i, 1, x.showing ? b.last : rnd(2));
      put_bits(m.rsp_ready_i, i, 1, rnd(100) < x.rsp_pct);
    }
    if (!host_showing && !host_pending.empty() && rnd(100) < 40) {  // any order
      unsigned k = rnd(static_cast<unsigned>(host_pending.size()));
      host_rsp = host_pending[k];
      host_pending.erase(host_pending.begin() + k);
      host_showing = true;
    }
    m.rsp_valid_i = host_showing;
    put_bits(m.rsp_tag_i, 0, p.mtag_w + p.idx_w(), host_showing ? host_rsp.tag : rng() & ((1ull << (p.mtag_w + p.idx_w())) - 1));
    put_bits(m.rsp_data_i, 0, p.rsp_w, host_showing ? host_rsp.data : rng() & rsp_mask);
  }

  void cycle(bool port_ready) {
    drive();
    m.req_ready_i = port_ready;
    h.eval();
    INFO("cycle " << h.cycles());
    // ---- requests: the reference arbiter
    std::vector<bool> v(p.n);
    bool any = false;
    for (unsigned i = 0; i < p.n; ++i) any |= (v[i] = ms[i].showing);
    bool hold = stall || lock;
    unsigned idx = hold_idx;
    if (!hold) {
      idx = 0;
      for (unsigned k = 0; k < p.n; ++k)
        if (v[(prio + k) % p.n]) {
          idx = (prio + k) % p.n;
          break;
        }
    }
    bool valid = hold ? v[idx] : any;
    REQUIRE(bool(m.req_valid_o) == valid);
    for (unsigned i = 0; i < p.n; ++i) REQUIRE(get_bits(m.req_ready_o, i, 1) == (i == idx && port_ready));
    bool fire = valid && port_ready;
    if (valid) {
      const DmaBeat& b = ms[idx].beats.front();
      REQUIRE(get_bits(m.req_data_o, 0, p.req_w) == b.data);
      REQUIRE(m.req_tag_o == ((b.tag << p.idx_w()) | idx));
      REQUIRE(bool(m.req_last_o) == b.last);
    }
    granted = (!hold && any) ? static_cast<int>(idx) : -1;
    if (!hold && any) {  // a new grant: fairness bookkeeping
      for (unsigned i = 0; i < p.n; ++i) {
        if (i == idx || !v[i]) continue;
        ++ms[i].waited;
        if (p.advance_on_stall) REQUIRE(ms[i].waited <= p.n - 1);
      }
      ms[idx].waited = 0;
      if (p.advance_on_stall || port_ready) prio = (idx + 1) % p.n;
    }
    for (unsigned i = 0; i < p.n; ++i)
      if (!v[i]) ms[i].waited = 0;
    // ---- responses
    unsigned rsp_m = static_cast<unsigned>(host_rsp.tag & ((1u << p.idx_w()) - 1));
    bool rsp_fire = false;
    for (unsigned i = 0; i < p.n; ++i)
      REQUIRE(get_bits(m.rsp_valid_o, i, 1) == (host_showing && i == rsp_m));
    if (host_showing) {
      bool rdy = get_bits(m.rsp_ready_i, rsp_m, 1);
      REQUIRE(bool(m.rsp_ready_o) == rdy);
      REQUIRE(m.rsp_tag_o == (host_rsp.tag >> p.idx_w()));
      REQUIRE(get_bits(m.rsp_data_o, 0, p.rsp_w) == host_rsp.data);
      rsp_fire = rdy;
    }
    hpcnet::tb::tick(h);
    // ---- state after the edge
    stall = valid && !port_ready;
    if (fire) lock = !ms[idx].beats.front().last;
    hold_idx = idx;
    if (fire) {  // the beat reaches the port: in order, once
      Master& x = ms[idx];
      DmaBeat b = x.beats.front();
      x.beats.pop_front();
      x.showing = false;
      REQUIRE(((b.data >> 1) & seq_mask) == (x.seen++ & seq_mask));
      if (b.data & 1) {  // a read: answered later with the port tag
        DmaRsp r{(b.tag << p.idx_w()) | idx, rng() & rsp_mask};
        host_pending.push_back(r);
        x.rsps.push_back({b.tag, r.data});
      }
      ++taken;
    }
    if (rsp_fire) {  // the response reaches its master exactly once
      Master& x = ms[rsp_m];
      bool found = false;
      for (auto it = x.rsps.begin(); it != x.rsps.end(); ++it)
        if (it->tag == (host_rsp.tag >> p.idx_w()) && it->data == host_rsp.data) {
          x.rsps.erase(it);
          found = true;
          break;
        }
      REQUIRE(found);
      host_showing = false;
      ++answered;
    }
  }

  void run(unsigned cycles) {
    const unsigned rates[] = {5, 30, 70, 100};
    unsigned port_pct = 50;
    for (unsigned c = 0; c < cycles; ++c) {
      if (c % 700 == 0) {
        port_pct = rates[rnd(4)];
        for (auto& x : ms) {
          x.src_pct = rates[rnd(4)];
          x.rsp_pct = rates[1 + rnd(3)];
        }
      }
      cycle(rnd(100) < port_pct);
    }
    // Drain: the port and the masters take everything; no new requests.
    for (auto& x : ms) x.rsp_pct = 100;
    for (unsigned c = 0; c < 2000 && (!host_pending.empty() || host_showing); ++c) {
      for (auto& x : ms) x.src_pct = 0;
      cycle(false);
    }
    REQUIRE(host_pending.empty());
    for (auto& x : ms) REQUIRE(x.rsps.empty());  // every read answered once
    REQUIRE(taken > cycles / 8);
    REQUIRE(answered > 0);
  }
};

template <class M>
void dma_random_traffic(DmaArbParams p, const char* name) {
  std::uint64_t base = hpcnet::tb::seed(name);
  for (std::uint64_t k = 0; k < 3; ++k) {  // three seeds a run: base, base + 1, base + 2
    INFO("seed " << base + k);
    DmaArbTb<M> tb(p, base + k);
    tb.run(30000);
  }
}

// AdvanceOnStall = 0 (ssm_top's arbitration): masters always requesting, a port that stalls every
// beat in its first cycle and takes it in the second: the pointer never moves and master 0 wins
// every grant. With AdvanceOnStall = 1 the same traffic goes round.
template <class M>
void stall_first(DmaArbParams p) {
  DmaArbTb<M> tb(p, 7);
  for (auto& x : tb.ms) x.src_pct = 100;
  std::vector<unsigned> grants(p.n);
  for (unsigned c = 0; c < 1200; ++c) {
    tb.cycle(tb.stall);  // ready only for a beat stalled in the cycle before
    if (tb.granted >= 0) ++grants[static_cast<unsigned>(tb.granted)];
  }
  if (p.advance_on_stall) {
    for (unsigned i = 0; i < p.n; ++i) REQUIRE(grants[i] > 100);
  } else {
    REQUIRE(grants[0] > 300);
    for (unsigned i = 1; i < p.n; ++i) REQUIRE(grants[i] == 0);
  }
}

}  // namespace

TEST_CASE("cmn_dma_arb N=3: requests once and in order with bursts whole and responses by tag",
          "[cmn_dma_arb]") {
  dma_random_traffic<Vcmn_dma_arb>({3, 40, 2, 32, true}, "cmn_dma_arb N=3");
}
TEST_CASE("cmn_dma_arb N=3 AdvanceOnStall=0: the same under ssm_top's arbitration",
          "[cmn_dma_arb]") {
  dma_random_traffic<Vcmn_dma_arb_legacy>({3, 40, 2, 32, false}, "cmn_dma_arb N=3 legacy");
}
TEST_CASE("cmn_dma_arb N=5: requests once and in order with bursts whole and responses by tag",
          "[cmn_dma_arb]") {
  dma_random_traffic<Vcmn_dma_arb_n5>({5, 20, 3, 16, true}, "cmn_dma_arb N=5");
}
TEST_CASE("cmn_dma_arb N=1: requests once and in order with bursts whole and responses by tag",
          "[cmn_dma_arb]") {
  dma_random_traffic<Vcmn_dma_arb_n1>({1, 8, 1, 8, true}, "cmn_dma_arb N=1");
}
TEST_CASE("cmn_dma_arb: a port that stalls every first cycle in both fairness modes", "[cmn_dma_arb]") {
  stall_first<Vcmn_dma_arb>({3, 40, 2, 32, true});
  stall_first<Vcmn_dma_arb_legacy>({3, 40, 2, 32, false});
}
