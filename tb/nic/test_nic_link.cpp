// test_nic_link: the NIC's link layer, nic_link_tx and nic_link_rx (Verilated), joined by a C++
// link with a configurable delay each way (flits one way, credits the other) and a random extra
// delay on the credit return (credits stay in order, one a cycle). Random packets on every VC,
// random idle cycles at the sender's inputs and random back-pressure on the receiver's outputs.
// Checked every cycle against C++ references: the sender's in_ready_o and link outputs against a
// model of its credit counters and round-robin arbiter (a credit usable the cycle after it
// arrives, a head only with a credit, the flit on the link one cycle after it was taken); every
// flit delivered by the receiver exactly once, in order per VC, bytes identical, out_last_o on
// each packet's last flit; the receiver returns a credit only for a packet that has left it, the
// sender never holds more than Credits, and every credit is back at the end. Further: fairness
// of the saturated link, a blocked VC beside a flowing one, link utilisation against the link
// delay (the credit round trip), the receiver's exact latency and credit timing, and the RTL's
// protocol assertions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <vector>

#include "Vnic_link_rx.h"
#include "Vnic_link_rx_b8.h"
#include "Vnic_link_rx_v3.h"
#include "Vnic_link_tx.h"
#include "Vnic_link_tx_c8.h"
#include "Vnic_link_tx_v3.h"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/harness.hpp"

namespace {

using hpcnet::sim::AssertionFailed;
using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;

constexpr unsigned kFlitW = 256;
constexpr unsigned kWords = kFlitW / 32;
using Flit = std::array<std::uint32_t, kWords>;

struct Params {
  unsigned vcs, flits, credits;  // Vcs, PktFlits, Credits (= the receiver's BufPkts)
};

// A flit as the link carries it.
struct LinkFlit {
  unsigned vc = 0;
  bool head = false, tail = false;
  Flit data{};
};
// A flit the receiver must deliver.
struct Expect {
  Flit data{};
  bool last = false;
};

// A narrow port (CData, SData, IData) set from a wider value.
template <class T>
void set(T& port, std::uint64_t v) {
  port = static_cast<T>(v);
}

template <class W>
void put_flit(W& w, unsigned lsb, const Flit& f) {
  for (unsigned i = 0; i < kWords; ++i) put_bits(w, lsb + 32 * i, 32, f[i]);
}
template <class W>
Flit get_flit(const W& w, unsigned lsb) {
  Flit f{};
  for (unsigned i = 0; i < kWords; ++i) f[i] = static_cast<std::uint32_t>(get_bits(w, lsb + 32 * i, 32));
  return f;
}

// How a run drives the link.
struct Cfg {
  unsigned delay = 0;        // link delay each way, cycles (0: a wire)
  unsigned cred_extra = 0;   // random extra delay of a credit, 0..cred_extra cycles
  bool random_rates = true;  // random idle at the inputs and back-pressure at the outputs
  unsigned pkts = 200;       // packets per VC
  std::vector<bool> active;  // VCs that send (empty: all)
};

template <class Tx, class Rx>
struct LinkTb {
  Params p;
  Cfg cfg;
  hpcnet::sim::Harness<Tx> htx{312.5, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  hpcnet::sim::Harness<Rx> hrx{312.5, hpcnet::sim::TraceWindow::off()};
  Tx& tx = htx.dut();
  Rx& rx = hrx.dut();
  std::mt19937_64 rng;
  std::uint64_t now = 0;  // cycles since reset

  struct Vc {
    std::deque<LinkFlit> src;   // flits not yet taken by the sender
    bool offered = false;       // src.front() is offered (held until taken)
    unsigned made = 0;          // packets generated
    std::deque<Expect> expect;  // flits taken by the sender, not yet delivered
    unsigned src_pct = 100, snk_pct = 100;
    bool blocked = false;       // the receiver's output held not ready
    // reference sender state
    unsigned cred = 0;
    bool busy = false;
    // counters
    std::uint64_t sent_flits = 0, delivered_flits = 0, delivered_pkts = 0, credits_out = 0;
    std::uint64_t last_delivery = 0;
  };
  std::vector<Vc> vcs;
  unsigned ptr = 0;            // reference round-robin pointer
  bool exp_link = false;       // a flit expected on the link this cycle
  LinkFlit exp_flit;
  std::deque<std::pair<std::uint64_t, LinkFlit>> wire;    // flits on the link (arrival cycle)
  std::deque<std::pair<std::uint64_t, unsigned>> cwire;   // credits on the way back
  bool hold_credits = false;   // credits stay queued (not delivered to the sender)
  std::vector<int> link_log;   // per cycle: the VC on the link, -1 idle

  LinkTb(Params p_, Cfg c, std::uint64_t seed) : p(p_), cfg(std::move(c)), rng(seed), vcs(p_.vcs) {
    if (cfg.active.empty()) cfg.active.assign(p.vcs, true);
    for (auto& v : vcs) v.cred = p.credits;
    tx.in_valid_i = 0;
    tx.cred_valid_i = 0;
    rx.link_valid_i = 0;
    rx.out_ready_i = 0;
    hpcnet::tb::sync_reset(htx);
    hpcnet::tb::sync_reset(hrx);
  }
  unsigned rnd(unsigned n) { return static_cast<unsigned>(rng() % n); }
  Flit random_flit() {
    Flit f;
    for (auto& w : f) w = static_cast<std::uint32_t>(rng());
    return f;
  }

  void make_packet(unsigned v) {
    for (unsigned i = 0; i < p.flits; ++i) {
      LinkFlit f;
      f.vc = v;
      f.head = i == 0;
      f.tail = i == p.flits - 1;
      f.data = random_flit();
      f.data[0] = (vcs[v].made << 8) | (v << 4) | i;  // readable in a failure: packet, VC, flit
      vcs[v].src.push_back(f);
    }
    ++vcs[v].made;
  }

  bool all_delivered() const {
    for (unsigned v = 0; v < p.vcs; ++v)
      if (cfg.active[v] && (vcs[v].made < cfg.pkts || !vcs[v].src.empty() || !vcs[v].expect.empty()))
        return false;
    return true;
  }
  bool credits_home() const {
    for (const Vc& x : vcs)
      if (x.cred != p.credits) return false;
    return true;
  }

  void cycle() {
    INFO("cycle " << now);
    // ---- the sender's link register (this cycle's flit): as the reference expects
    REQUIRE(bool(tx.link_valid_o) == exp_link);
    link_log.push_back(exp_link ? static_cast<int>(exp_flit.vc) : -1);
    if (exp_link) {
      REQUIRE(tx.link_vc_o == exp_flit.vc);
      REQUIRE(bool(tx.link_head_o) == exp_flit.head);
      REQUIRE(bool(tx.link_tail_o) == exp_flit.tail);
      REQUIRE(get_flit(tx.link_data_o, 0) == exp_flit.data);
      wire.emplace_back(now + cfg.delay, exp_flit);
    }
    // ---- the receiver's credit output (from its state)
    if (rx.cred_valid_o) {
      unsigned v = rx.cred_vc_o;
      REQUIRE(v < p.vcs);
      Vc& x = vcs[v];
      ++x.credits_out;
      REQUIRE(x.credits_out <= x.delivered_pkts);  // only for a packet that has left
      std::uint64_t t = now + cfg.delay + (cfg.cred_extra ? rnd(cfg.cred_extra + 1) : 0);
      if (!cwire.empty()) t = std::max(t, cwire.back().first);  // in order
      cwire.emplace_back(t, v);
    }
    // ---- link to the receiver
    if (!wire.empty() && wire.front().first == now) {
      const LinkFlit& f = wire.front().second;
      rx.link_valid_i = 1;
      set(rx.link_vc_i, f.vc);
      rx.link_head_i = f.head;
      rx.link_tail_i = f.tail;
      put_flit(rx.link_data_i, 0, f.data);
      wire.pop_front();
    } else {  // idle: garbage
      REQUIRE((wire.empty() || wire.front().first > now));
      rx.link_valid_i = 0;
      set(rx.link_vc_i, rnd(p.vcs));
      set(rx.link_head_i, rnd(2));
      set(rx.link_tail_i, rnd(2));
      put_flit(rx.link_data_i, 0, random_flit());
    }
    // ---- credits to the sender (one a cycle)
    int cred_vc = -1;
    if (!hold_credits && !cwire.empty() && cwire.front().first <= now) {
      cred_vc = static_cast<int>(cwire.front().second);
      cwire.pop_front();
    }
    tx.cred_valid_i = cred_vc >= 0;
    set(tx.cred_vc_i, cred_vc >= 0 ? static_cast<unsigned>(cred_vc) : rnd(p.vcs));
    // ---- the sender's inputs and the receiver's readiness
    if (cfg.random_rates && now % 500 == 0) {
      static const unsigned rates[] = {10, 50, 90, 100};
      for (Vc& x : vcs) {
        x.src_pct = rates[rnd(4)];
        x.snk_pct = rates[rnd(4)];
      }
    }
    for (unsigned v = 0; v < p.vcs; ++v) {
      Vc& x = vcs[v];
      if (cfg.active[v] && x.src.empty() && x.made < cfg.pkts) make_packet(v);
      if (!x.offered && !x.src.empty() && rnd(100) < x.src_pct) x.offered = true;
      const LinkFlit* f = x.offered ? &x.src.front() : nullptr;
      put_bits(tx.in_valid_i, v, 1, f != nullptr);
      put_flit(tx.in_data_i, v * kFlitW, f ? f->data : random_flit());
      put_bits(tx.in_last_i, v, 1, f ? f->tail : rnd(2));
      put_bits(rx.out_ready_i, v, 1, !x.blocked && rnd(100) < x.snk_pct);
    }
    htx.eval();
    hrx.eval();
    // ---- reference sender: credits and round-robin
    int g = -1;
    for (unsigned k = 0; k < p.vcs && g < 0; ++k) {
      unsigned v = (ptr + k) % p.vcs;
      if (vcs[v].offered && (vcs[v].busy || vcs[v].cred > 0)) g = static_cast<int>(v);
    }
    for (unsigned v = 0; v < p.vcs; ++v) {
      INFO("VC " << v);
      REQUIRE(get_bits(tx.in_ready_o, v, 1) == (static_cast<int>(v) == g));
    }
    exp_link = g >= 0;
    if (g >= 0) {
      Vc& x = vcs[g];
      exp_flit = x.src.front();
      x.src.pop_front();
      x.offered = false;
      x.expect.push_back({exp_flit.data, exp_flit.tail});
      ++x.sent_flits;
      if (exp_flit.head) --x.cred;
      x.busy = !exp_flit.tail;
      ptr = (static_cast<unsigned>(g) + 1) % p.vcs;
    }
    if (cred_vc >= 0) {
      Vc& x = vcs[cred_vc];
      REQUIRE(x.cred < p.credits);  // credits never exceed Credits
      ++x.cred;
    }
    // ---- the receiver's outputs
    for (unsigned v = 0; v < p.vcs; ++v) {
      INFO("VC " << v);
      Vc& x = vcs[v];
      if (!get_bits(rx.out_valid_o, v, 1) || !get_bits(rx.out_ready_i, v, 1)) continue;
      REQUIRE(!x.expect.empty());  // nothing delivered twice or out of nowhere
      const Expect e = x.expect.front();
      x.expect.pop_front();
      REQUIRE(get_flit(rx.out_data_o, v * kFlitW) == e.data);
      REQUIRE(get_bits(rx.out_last_o, v, 1) == e.last);
      ++x.delivered_flits;
      x.delivered_pkts += e.last;
      x.last_delivery = now;
    }
    hpcnet::tb::tick(htx);
    hpcnet::tb::tick(hrx);
    ++now;
  }

  // Runs until every packet is delivered and every credit is back.
  void run(std::uint64_t limit) {
    while (!all_delivered()) {
      REQUIRE(now < limit);
      cycle();
    }
    for (Vc& x : vcs) x.blocked = false;
    while (!credits_home() || !cwire.empty()) {
      REQUIRE(now < limit);
      cycle();
    }
    for (unsigned v = 0; v < p.vcs; ++v) {
      INFO("VC " << v);
      REQUIRE(vcs[v].delivered_pkts == (cfg.active[v] ? cfg.pkts : 0));
      REQUIRE(vcs[v].credits_out == vcs[v].delivered_pkts);
    }
  }
};

// Random packets on every VC through links of several delays: delivered once, in order, intact.
template <class Tx, class Rx>
void random_traffic(Params p, unsigned pkts, const char* name) {
  std::uint64_t base = hpcnet::tb::seed(name);
  const unsigned delays[] = {0, 1, 4, 10};
  for (unsigned k = 0; k < 4; ++k) {
    INFO("seed " << base + k << " delay " << delays[k]);
    Cfg c;
    c.delay = delays[k];
    c.cred_extra = k == 0 ? 0 : 8;
    c.pkts = pkts;
    LinkTb<Tx, Rx> tb(p, c, base + k);
    tb.run(400000);
  }
}

// Both VCs saturated at the sender, the receiver always ready: the link's utilisation over
// `window` cycles after a warm-up, for one link delay.
template <class Tx, class Rx>
double utilisation(Params p, unsigned delay, std::vector<bool> active, unsigned window,
                   std::vector<std::uint64_t>* per_vc = nullptr) {
  Cfg c;
  c.delay = delay;
  c.random_rates = false;
  c.pkts = 1u << 30;  // endless
  c.active = std::move(active);
  LinkTb<Tx, Rx> tb(p, c, 1);
  const unsigned warm = 200 + 4 * delay;
  for (unsigned i = 0; i < warm + window; ++i) tb.cycle();
  unsigned busy = 0;
  std::vector<std::uint64_t> n(p.vcs);
  for (unsigned i = warm; i < warm + window; ++i)
    if (tb.link_log[i] >= 0) {
      ++busy;
      ++n[static_cast<unsigned>(tb.link_log[i])];
    }
  if (per_vc) *per_vc = n;
  return double(busy) / window;
}

// The credit round trip of a VC when `k` VCs are saturated, from the modules' documented timing: a
// credit taken with a head at cycle h is usable again at h + k*(P-1) (its tail taken, the VCs
// alternating) + 1 (link register) + D (link) + 2 (tail written, head read: out_valid_o) + (P-1)
// (the packet leaves) + 1 (credit register) + D (link back) + 1 (the counter updated). Full rate
// needs Credits * k * P >= that round trip: with Credits = 4 and P = 5, D <= 11 for two VCs and
// D <= 3 for one.
unsigned round_trip(const Params& p, unsigned k, unsigned d) {
  return k * (p.flits - 1) + p.flits + 4 + 2 * d;
}

}  // namespace

TEST_CASE("nic_link: random packets on both VCs arrive once and in order with their bytes",
          "[nic_link]") {
  random_traffic<Vnic_link_tx, Vnic_link_rx>({2, 5, 4}, 3000, "nic_link 2 VCs");
}

TEST_CASE("nic_link Vcs=3 PktFlits=2 Credits=2: random packets arrive once and in order with their bytes",
          "[nic_link]") {
  random_traffic<Vnic_link_tx_v3, Vnic_link_rx_v3>({3, 2, 2}, 3000, "nic_link 3 VCs");
}

TEST_CASE("nic_link: saturated VCs share the link flit by flit", "[nic_link]") {
  const Params p{2, 5, 4};
  for (unsigned d : {0u, 10u}) {
    INFO("delay " << d);
    Cfg c;
    c.delay = d;
    c.random_rates = false;
    c.pkts = 400;
    LinkTb<Vnic_link_tx, Vnic_link_rx> tb(p, c, 1);
    tb.run(100000);
    // While both VCs have flits to send, they alternate on the link: the counts never differ by
    // more than one flit (less than a packet), and no VC is on the link twice in a row.
    std::int64_t diff = 0;
    unsigned both = 0;
    for (std::size_t i = 0; i < tb.link_log.size(); ++i) {
      int v = tb.link_log[i];
      if (v < 0) continue;
      diff += v == 0 ? 1 : -1;
      REQUIRE(std::abs(diff) <= 1);
      if (i > 0 && tb.link_log[i - 1] == v) {
        // only at the end, when the other VC has finished
        REQUIRE(tb.vcs[1 - v].sent_flits == c.pkts * p.flits);
      } else {
        ++both;
      }
    }
    REQUIRE(both > 2 * c.pkts * p.flits - 10);
  }
}

TEST_CASE("nic_link: a VC whose receiver stops never blocks the other VC", "[nic_link]") {
  const Params p{2, 5, 4};
  Cfg c;
  c.delay = 3;
  c.random_rates = false;
  c.pkts = 500;
  LinkTb<Vnic_link_tx, Vnic_link_rx> tb(p, c, hpcnet::tb::seed("nic_link blocked VC"));
  for (int i = 0; i < 100; ++i) tb.cycle();
  tb.vcs[0].blocked = true;  // VC0's receiver takes nothing for 2000 cycles
  for (int i = 0; i < 200; ++i) tb.cycle();
  // VC0 stopped with its credits spent (the receiver's buffer full, nothing lost); VC1 flows at
  // the full link rate.
  const auto sent0 = tb.vcs[0].sent_flits, got1 = tb.vcs[1].delivered_flits;
  const auto t0 = tb.now;
  for (int i = 0; i < 1800; ++i) tb.cycle();
  REQUIRE(tb.vcs[0].sent_flits == sent0);
  REQUIRE(tb.vcs[0].cred == 0);
  REQUIRE(tb.vcs[0].expect.size() == p.credits * p.flits);  // a full buffer, waiting
  const double rate1 = double(tb.vcs[1].delivered_flits - got1) / double(tb.now - t0);
  std::printf("nic_link blocked VC0: VC1 delivers %.3f flits/cycle (delay 3, Credits 4)\n", rate1);
  REQUIRE(rate1 > 0.99);
  tb.vcs[0].blocked = false;
  tb.run(100000);
}

TEST_CASE("nic_link: full rate when the credits cover the round trip at link delay 0 and 10",
          "[nic_link]") {
  const Params p4{2, 5, 4}, p8{2, 5, 8};
  const unsigned window = 2000;
  // Both VCs saturated: one flit per cycle at delay 0 and 10, each VC half of it.
  for (unsigned d : {0u, 10u}) {
    std::vector<std::uint64_t> n;
    double u = utilisation<Vnic_link_tx, Vnic_link_rx>(p4, d, {true, true}, window, &n);
    std::printf("nic_link Credits=4 delay %2u, both VCs: utilisation %.3f (VC0 %llu VC1 %llu flits)\n", d,
                u, static_cast<unsigned long long>(n[0]), static_cast<unsigned long long>(n[1]));
    INFO("delay " << d);
    REQUIRE(u == 1.0);
    REQUIRE(n[0] == window / 2);
    REQUIRE(n[1] == window / 2);
  }
  // Utilisation against the delay: full rate exactly while Credits * k * PktFlits covers the
  // round trip (k saturated VCs), below it beyond.
  for (unsigned k : {1u, 2u}) {
    std::vector<bool> act{true, k == 2};
    for (unsigned d = 0; d <= 16; ++d) {
      const unsigned rt = round_trip(p4, k, d), cover = p4.credits * k * p4.flits;
      double u = utilisation<Vnic_link_tx, Vnic_link_rx>(p4, d, act, window);
      std::printf("nic_link Credits=4 delay %2u, %u VC(s): round trip %2u cycles, credits cover %2u:"
                  " utilisation %.3f\n", d, k, rt, cover, u);
      INFO("VCs " << k << " delay " << d);
      if (cover >= rt) {
        REQUIRE(u == 1.0);
      } else {
        REQUIRE(u < 1.0);
        REQUIRE(u > double(cover) / rt - 0.02);
      }
    }
  }
  // Eight credits: full rate for one VC alone up to the delay where 8 * 5 covers the round trip.
  for (unsigned d : {10u, 13u, 14u}) {
    const unsigned rt = round_trip(p8, 1, d), cover = p8.credits * p8.flits;
    double u = utilisation<Vnic_link_tx_c8, Vnic_link_rx_b8>(p8, d, {true, false}, window);
    std::printf("nic_link Credits=8 delay %2u, 1 VC: round trip %2u, credits cover %2u: utilisation %.3f\n",
                d, rt, cover, u);
    INFO("delay " << d);
    if (cover >= rt) REQUIRE(u == 1.0);
    else REQUIRE(u < 1.0);
  }
}

TEST_CASE("nic_link_tx: a packet starts only with a credit and a returned credit counts from the next cycle",
          "[nic_link]") {
  const Params p{2, 5, 4};
  Cfg c;
  c.delay = 2;
  c.random_rates = false;
  c.pkts = 50;
  LinkTb<Vnic_link_tx, Vnic_link_rx> tb(p, c, 1);
  tb.hold_credits = true;  // the receiver's credits do not come back
  for (int i = 0; i < 300; ++i) tb.cycle();
  // Exactly Credits packets per VC went; the heads of the next ones wait.
  for (unsigned v = 0; v < 2; ++v) {
    INFO("VC " << v);
    REQUIRE(tb.vcs[v].sent_flits == p.credits * p.flits);
    REQUIRE(tb.vcs[v].delivered_pkts == p.credits);
    REQUIRE(tb.vcs[v].cred == 0);
    REQUIRE(tb.vcs[v].offered);
    REQUIRE(get_bits(tb.tx.in_ready_o, v, 1) == 0);
  }
  REQUIRE(tb.cwire.size() == 2 * p.credits);
  // Credits one at a time (the reference checks the cycle in which each head goes).
  tb.hold_credits = false;
  tb.run(100000);
}

TEST_CASE("nic_link_rx: a packet leaves 2 cycles after its tail and its credit 1 cycle after its last flit",
          "[nic_link]") {
  hpcnet::sim::Harness<Vnic_link_rx> h{312.5, hpcnet::sim::TraceWindow::off()};
  Vnic_link_rx& m = h.dut();
  std::mt19937_64 rng(7);
  m.link_valid_i = 0;
  m.out_ready_i = 3;
  hpcnet::tb::sync_reset(h);
  auto send = [&](unsigned vc, unsigned i, const Flit& f) {
    m.link_valid_i = 1;
    set(m.link_vc_i, vc);
    m.link_head_i = i == 0;
    m.link_tail_i = i == 4;
    put_flit(m.link_data_i, 0, f);
  };
  std::vector<Flit> pkt(5);
  for (auto& f : pkt)
    for (auto& w : f) w = static_cast<std::uint32_t>(rng());
  // One packet on VC1, back to back, the output always ready.
  for (unsigned i = 0; i < 5; ++i) {  // link cycles 0..4
    send(1, i, pkt[i]);
    h.eval();
    REQUIRE(m.out_valid_o == 0);
    REQUIRE(!m.cred_valid_o);
    hpcnet::tb::tick(h);
  }
  m.link_valid_i = 0;
  h.eval();  // cycle 5: the tail (cycle 4) is in, the head is being read
  REQUIRE(m.out_valid_o == 0);
  hpcnet::tb::tick(h);
  for (unsigned i = 0; i < 5; ++i) {  // cycles 6..10: tail + 2 = head flit + PktFlits + 1
    h.eval();
    INFO("flit " << i);
    REQUIRE(m.out_valid_o == 2);
    REQUIRE(get_flit(m.out_data_o, kFlitW) == pkt[i]);
    REQUIRE(get_bits(m.out_last_o, 1, 1) == (i == 4));
    REQUIRE(!m.cred_valid_o);
    hpcnet::tb::tick(h);
  }
  h.eval();  // cycle 11: the credit, one cycle after the last flit left
  REQUIRE(m.out_valid_o == 0);
  REQUIRE(m.cred_valid_o);
  REQUIRE(m.cred_vc_o == 1);
  hpcnet::tb::tick(h);
  h.eval();
  REQUIRE(!m.cred_valid_o);
  // Packets on both VCs, interleaved flit by flit, held at the outputs until both are whole: the
  // two last flits leave together and their credits leave one a cycle.
  m.out_ready_i = 0;
  for (unsigned i = 0; i < 10; ++i) {
    send(i % 2, i / 2, pkt[i / 2]);
    h.eval();
    hpcnet::tb::tick(h);
  }
  m.link_valid_i = 0;
  h.eval();
  hpcnet::tb::tick(h);
  h.eval();
  REQUIRE(m.out_valid_o == 3);
  m.out_ready_i = 3;
  for (unsigned i = 0; i < 5; ++i) {
    h.eval();
    REQUIRE(m.out_valid_o == 3);
    REQUIRE(m.out_last_o == (i == 4 ? 3 : 0));
    REQUIRE(!m.cred_valid_o);
    hpcnet::tb::tick(h);
  }
  h.eval();
  REQUIRE(m.out_valid_o == 0);
  REQUIRE(m.cred_valid_o);
  unsigned first = m.cred_vc_o;
  hpcnet::tb::tick(h);
  h.eval();
  REQUIRE(m.cred_valid_o);
  REQUIRE(m.cred_vc_o == 1 - first);
  hpcnet::tb::tick(h);
  h.eval();
  REQUIRE(!m.cred_valid_o);
}

TEST_CASE("nic_link: protocol errors trip the RTL assertions", "[nic_link]") {
  Flit f{};
  // The receiver: a head inside a packet, a body flit without a head, a packet too short or too
  // long, a flit finding the buffer full.
  auto rx_run = [&](const std::vector<std::array<unsigned, 3>>& flits, bool ready) {
    hpcnet::sim::Harness<Vnic_link_rx> h{312.5, hpcnet::sim::TraceWindow::off()};
    Vnic_link_rx& m = h.dut();
    m.link_valid_i = 0;
    m.out_ready_i = ready ? 3 : 0;
    hpcnet::tb::sync_reset(h);
    for (const auto& x : flits) {  // {vc, head, tail}
      m.link_valid_i = 1;
      set(m.link_vc_i, x[0]);
      set(m.link_head_i, x[1]);
      set(m.link_tail_i, x[2]);
      put_flit(m.link_data_i, 0, f);
      h.eval();
      hpcnet::tb::tick(h);
    }
    m.link_valid_i = 0;
    for (int i = 0; i < 4; ++i) {
      h.eval();
      hpcnet::tb::tick(h);
    }
  };
  using F = std::vector<std::array<unsigned, 3>>;
  const F good{{0, 1, 0}, {1, 1, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 0, 0}, {0, 0, 1},
               {1, 0, 0}, {1, 0, 0}, {1, 0, 1}};
  REQUIRE_NOTHROW(rx_run(good, true));
  REQUIRE_THROWS_AS(rx_run(F{{0, 1, 0}, {0, 0, 0}, {0, 1, 0}}, true), AssertionFailed);   // head inside
  REQUIRE_THROWS_AS(rx_run(F{{1, 0, 0}}, true), AssertionFailed);                        // no head
  REQUIRE_THROWS_AS(rx_run(F{{0, 1, 0}, {0, 0, 1}}, true), AssertionFailed);             // too short
  REQUIRE_THROWS_AS(rx_run(F{{0, 1, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, true),
                    AssertionFailed);                                                    // too long
  F five{{0, 1, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 1}};
  F four_pkts, five_pkts;
  for (int i = 0; i < 4; ++i) four_pkts.insert(four_pkts.end(), five.begin(), five.end());
  five_pkts = four_pkts;
  five_pkts.insert(five_pkts.end(), five.begin(), five.end());
  REQUIRE_NOTHROW(rx_run(four_pkts, false));                          // BufPkts packets fit
  REQUIRE_THROWS_AS(rx_run(five_pkts, false), AssertionFailed);       // one more has no room
  // The sender: a credit it did not give out.
  {
    hpcnet::sim::Harness<Vnic_link_tx> h{312.5, hpcnet::sim::TraceWindow::off()};
    Vnic_link_tx& m = h.dut();
    m.in_valid_i = 0;
    m.cred_valid_i = 0;
    hpcnet::tb::sync_reset(h);
    m.cred_valid_i = 1;
    m.cred_vc_i = 1;
    h.eval();
    REQUIRE_THROWS_AS(hpcnet::tb::tick(h), AssertionFailed);
  }
  // The sender: a packet whose last flit is not its fifth.
  {
    hpcnet::sim::Harness<Vnic_link_tx> h{312.5, hpcnet::sim::TraceWindow::off()};
    Vnic_link_tx& m = h.dut();
    m.in_valid_i = 0;
    m.cred_valid_i = 0;
    hpcnet::tb::sync_reset(h);
    m.in_valid_i = 1;
    m.in_last_i = 0;
    h.eval();
    hpcnet::tb::tick(h);
    m.in_last_i = 1;
    h.eval();
    REQUIRE_THROWS_AS(hpcnet::tb::tick(h), AssertionFailed);
  }
}
