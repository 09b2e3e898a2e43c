// test_lnk: the reliable link layer (rtl/link, docs/link.md) at its own level: lnk_tx and lnk_rx
// (Verilated) joined by sim/link's LinkWire, flits one way, control words the other, each with a
// delay and injected faults. Random packets on every VC, random idle cycles at the sender's inputs
// and random back-pressure at the receiver's outputs. Checked against C++ references:
//   - the CRC-16 (a bitwise software reference): every tail flit's crc as the sender puts it on
//     the link; and the code's guarantees on a 1,400-bit packet from its syndromes (every 1-, 2-
//     and 3-bit error, every odd error, every burst of up to 16 bits detected);
//   - every packet delivered exactly once, in order per VC, bytes identical, whatever the faults
//     (bit errors, bursts, drops and repeats of flits, control words corrupted and lost, the link
//     dead for a while), and every packet acknowledged at the end;
//   - with data-bit errors only, the receiver's CRC drops are exactly the corrupted transmissions
//     of the packet it expected (seq by seq, from the wire's fault log); with no fault, no drop;
//   - the sender's brake (retransmit buffer full mid-packet) and timeouts with the small variant.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <unordered_set>
#include <vector>

#include "Vlnk_rx.h"
#include "Vlnk_rx_s.h"
#include "Vlnk_rx_b24.h"
#include "Vlnk_tx.h"
#include "Vlnk_tx_c24.h"
#include "Vlnk_tx_s.h"
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

constexpr unsigned kPktFlits = 5;
constexpr unsigned kVcs = 2;

// ---------------------------------------------------------------- the CRC reference
uint16_t lk_crc_bit(uint16_t c, bool b) {
  const bool x = ((c >> 15) & 1) != b;
  c = uint16_t(c << 1);
  return x ? uint16_t(c ^ 0x1021) : c;
}
// a flit's 280 protected bits, most significant first: seq (head only), vc (8), head, tail, 6 zeros, data
std::vector<bool> lk_flit_bits(const WireFlit& f) {
  std::vector<bool> b;
  b.reserve(280);
  const unsigned seq = f.head ? f.seq : 0;
  for (int i = 7; i >= 0; --i) b.push_back((seq >> i) & 1);
  for (int i = 7; i >= 0; --i) b.push_back((f.vc >> i) & 1);
  b.push_back(f.head);
  b.push_back(f.tail);
  for (int i = 0; i < 6; ++i) b.push_back(false);
  for (int i = 255; i >= 0; --i) b.push_back((f.data[i / 64] >> (i % 64)) & 1);
  return b;
}
uint16_t lk_crc_bits(uint16_t c, const std::vector<bool>& bits) {
  for (bool x : bits) c = lk_crc_bit(c, x);
  return c;
}

// ---------------------------------------------------------------- the pair
struct LkCfg {
  unsigned delay = 3;
  LinkFaults fwd, fwd_ctl, rev;  // flits forward; (unused) control forward; control words back
  unsigned pkts = 300;           // per VC
  unsigned src_pct = 80, snk_pct = 80;
  unsigned vcs_active = kVcs;    // VCs 0..vcs_active-1 send
};

template <class Tx, class Rx>
struct LkPair {
  LkCfg cfg;
  hpcnet::sim::Harness<Tx> htx{312.5, hpcnet::sim::trace_from_env()};
  hpcnet::sim::Harness<Rx> hrx{312.5, hpcnet::sim::TraceWindow::off()};
  Tx& tx = htx.dut();
  Rx& rx = hrx.dut();
  std::mt19937_64 rng;
  LinkWire fwd, rev;
  uint64_t now = 0;
  struct Src {
    std::deque<WireFlit> flits;  // not yet taken
    bool offered = false;
    std::deque<std::array<uint64_t, 4>> expect;  // taken, not yet delivered
    unsigned made = 0;
    uint64_t delivered = 0;
  };
  std::array<Src, kVcs> vc;
  // on the link as the sender put it: the reference CRC of the packet under way
  uint16_t ref_crc = 0;
  uint64_t crc_checked = 0, crc_bad = 0;
  // the transmissions (head to tail on the sender's link): seq, and whether a flit of it was faulted
  struct Tx_ {
    uint8_t seq;
    bool faulted;
  };
  std::vector<Tx_> sent;
  std::map<unsigned, uint64_t> drops;  // by cause
  std::vector<uint8_t> crc_drop_seqs;
  uint64_t bad_delivery = 0, extra_delivery = 0;

  LkPair(LkCfg c, uint64_t seed)
      : cfg(std::move(c)), rng(seed), fwd(cfg.delay, cfg.fwd, cfg.fwd_ctl, seed * 3 + 1),
        rev(cfg.delay, LinkFaults{}, cfg.rev, seed * 5 + 2) {
    tx.in_valid_i = 0;
    tx.ctl_valid_i = 0;
    rx.link_valid_i = 0;
    rx.out_ready_i = 0;
    tx.up_i = 1;  // the halves alone: the link stays up (its state: test_lnk_state.cpp)
    rx.up_i = 1;
    rx.st_i = 0;
    hpcnet::tb::sync_reset(htx);
    hpcnet::tb::sync_reset(hrx);
    for (unsigned v = 0; v < kVcs; ++v) make(v);
  }
  unsigned rnd(unsigned n) { return unsigned(rng() % n); }
  void make(unsigned v) {
    Src& s = vc[v];
    if (s.made >= cfg.pkts || v >= cfg.vcs_active) return;
    ++s.made;
    for (unsigned k = 0; k < kPktFlits; ++k) {
      WireFlit f;
      f.vc = v;
      f.head = k == 0;
      f.tail = k + 1 == kPktFlits;
      for (auto& w : f.data) w = rng();
      s.flits.push_back(f);
    }
  }
  bool done() const {
    for (unsigned v = 0; v < cfg.vcs_active; ++v) {
      const Src& s = vc[v];
      if (s.made < cfg.pkts || !s.flits.empty() || !s.expect.empty()) return false;
    }
    return true;
  }

  void cycle() {
    // the registered outputs of both ends onto the wires
    if (tx.link_valid_o) {
      const WireFlit f = hpcnet::sim::flit_from_ports(tx.link_vc_o, tx.link_head_o, tx.link_tail_o, tx.link_seq_o, tx.link_crc_o,
                                                      tx.link_data_o);
      if (f.head) {
        ref_crc = 0xFFFF;
        sent.push_back({f.seq, false});
      }
      ref_crc = lk_crc_bits(ref_crc, lk_flit_bits(f));
      if (f.tail) {
        ++crc_checked;
        if (ref_crc != f.crc) ++crc_bad;
      }
      const size_t before = fwd.log().size();
      fwd.put(now, &f, false, 0);
      if (fwd.log().size() != before && !sent.empty()) sent.back().faulted = true;
    }
    rev.put(now, nullptr, true, rx.ctl_o);
    // what arrives this cycle
    WireFlit a;
    rx.link_valid_i = fwd.flit_out(now, a);
    if (rx.link_valid_i) hpcnet::sim::flit_to_ports(a, rx.link_vc_i, rx.link_head_i, rx.link_tail_i, rx.link_seq_i, rx.link_crc_i, rx.link_data_i);
    uint64_t w = 0;
    tx.ctl_valid_i = rev.ctl_out(now, w);
    tx.ctl_i = w;
    // sources and sinks
    unsigned valid = 0, last = 0;
    for (unsigned v = 0; v < kVcs; ++v) {
      Src& s = vc[v];
      if (s.flits.empty()) make(v);
      if (!s.flits.empty() && (s.offered || rnd(100) < cfg.src_pct)) {
        s.offered = true;
        valid |= 1u << v;
        if (s.flits.front().tail) last |= 1u << v;
        for (unsigned i = 0; i < 4; ++i) put_bits(tx.in_data_i, 256 * v + 64 * i, 64, s.flits.front().data[i]);
      }
    }
    tx.in_valid_i = static_cast<CData>(valid);
    tx.in_last_i = static_cast<CData>(last);
    unsigned ready = 0;
    for (unsigned v = 0; v < kVcs; ++v)
      if (rnd(100) < cfg.snk_pct) ready |= 1u << v;
    rx.out_ready_i = static_cast<CData>(ready);
    htx.eval();
    hrx.eval();
    // handshakes
    for (unsigned v = 0; v < kVcs; ++v) {
      Src& s = vc[v];
      if (((valid >> v) & 1) && ((tx.in_ready_o >> v) & 1)) {
        s.expect.push_back(s.flits.front().data);
        s.flits.pop_front();
        s.offered = false;
      }
      if (((rx.out_valid_o >> v) & 1) && ((ready >> v) & 1)) {
        std::array<uint64_t, 4> d;
        for (unsigned i = 0; i < 4; ++i) d[i] = get_bits(rx.out_data_o, 256 * v + 64 * i, 64);
        if (s.expect.empty()) ++extra_delivery;
        else {
          if (d != s.expect.front()) ++bad_delivery;
          s.expect.pop_front();
        }
        ++s.delivered;
      }
    }
    for (unsigned p = 0; p < 2; ++p)
      if ((rx.drop_valid_o >> p) & 1) {
        const unsigned cause = unsigned(get_bits(rx.drop_cause_o, 4 * p, 4));
        ++drops[cause];
        if (cause == 1) crc_drop_seqs.push_back(uint8_t(get_bits(rx.drop_seq_o, 8 * p, 8)));
      }
    hpcnet::tb::tick(htx);
    hpcnet::tb::tick(hrx);
    ++now;
  }

  // Runs until every packet is delivered and acknowledged (or the limit).
  void run(uint64_t limit) {
    while (!done() && now < limit) cycle();
    for (unsigned i = 0; i < 4 * cfg.delay + 64 && now < limit; ++i) cycle();
    while (tx.unacked_o != 0 && now < limit) cycle();
  }
  uint64_t dirty() const {
    uint64_t n = 0;
    for (auto [c, k] : drops)
      if (c != 6 && c != 7) n += k;
    return n;
  }
};

template <class Tx, class Rx>
void lk_check_exact(LkPair<Tx, Rx>& t, uint64_t limit) {
  t.run(limit);
  INFO("cycles " << t.now << ", retries " << t.tx.retries_o << ", timeouts " << t.tx.timeouts_o
                 << ", faults logged " << t.fwd.log().size() + t.rev.log().size());
  REQUIRE(t.done());
  for (unsigned v = 0; v < kVcs; ++v)
    CHECK(t.vc[v].delivered == (v < t.cfg.vcs_active ? uint64_t(t.cfg.pkts) * kPktFlits : 0));
  CHECK(t.bad_delivery == 0);
  CHECK(t.extra_delivery == 0);
  CHECK(t.tx.unacked_o == 0);
  CHECK(t.crc_checked > 0);
  CHECK(t.crc_bad == 0);  // the RTL's CRC is the reference's on every packet sent
}

}  // namespace

TEST_CASE("lnk: the CRC-16 detects every 1- 2- and 3-bit error and every burst up to 16 bits on a packet", "[link][crc]") {
  // Linear code: an error pattern e goes undetected iff its syndrome (the CRC of e from 0) is 0.
  // s[i]: the syndrome of a single error at bit i of the packet's 1,400 protected bits.
  constexpr unsigned n = 5 * 280;
  std::vector<uint16_t> s(n);
  for (unsigned i = 0; i < n; ++i) {
    uint16_t c = 0;
    for (unsigned k = 0; k < n; ++k) c = lk_crc_bit(c, k == i);
    s[i] = c;
  }
  // 1 bit: nonzero; 2 bits: all distinct
  CHECK(std::count(s.begin(), s.end(), uint16_t(0)) == 0);
  CHECK(std::set<uint16_t>(s.begin(), s.end()).size() == n);
  // 3 bits: s[i] ^ s[j] ^ s[k] != 0, i.e. no s[i] ^ s[j] equals another s[k]
  std::unordered_set<uint16_t> set(s.begin(), s.end());
  uint64_t undetected3 = 0;
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = i + 1; j < n; ++j) undetected3 += set.count(uint16_t(s[i] ^ s[j]));
  CHECK(undetected3 == 0);
  // odd numbers of bits (x + 1 divides the polynomial): a random sample of 5-, 7- and 9-bit errors
  std::mt19937_64 rng(hpcnet::tb::seed("lnk crc odd"));
  uint64_t undetected_odd = 0;
  for (unsigned t = 0; t < 200000; ++t) {
    const unsigned w = 5 + 2 * unsigned(rng() % 3);
    std::set<unsigned> bits;
    while (bits.size() < w) bits.insert(unsigned(rng() % n));
    uint16_t x = 0;
    for (unsigned b : bits) x ^= s[b];
    undetected_odd += x == 0;
  }
  CHECK(undetected_odd == 0);
  // every burst of length 2..16 (first and last bit in error, any bits between), every position
  uint64_t bursts = 0, undetected_b = 0;
  for (unsigned len = 2; len <= 16; ++len)
    for (unsigned at = 0; at + len <= n; ++at)
      for (uint32_t mid = 0; mid < (1u << (len - 2)); ++mid) {
        uint16_t x = uint16_t(s[at] ^ s[at + len - 1]);
        for (unsigned k = 0; k + 2 < len; ++k)
          if ((mid >> k) & 1) x ^= s[at + 1 + k];
        ++bursts;
        undetected_b += x == 0;
      }
  INFO(bursts << " bursts");
  CHECK(undetected_b == 0);
}

TEST_CASE("lnk: every packet once in order and intact over a perfect wire with no drop or retry", "[link]") {
  for (unsigned delay : {0u, 3u, 20u}) {
    DYNAMIC_SECTION("delay " << delay) {
      LkCfg c;
      c.delay = delay;
      LkPair<Vlnk_tx, Vlnk_rx> t(c, hpcnet::tb::seed("lnk perfect"));
      lk_check_exact(t, 200000);
      CHECK(t.drops.empty());
      CHECK(t.tx.retries_o == 0);
    }
  }
}

TEST_CASE("lnk: data-bit errors - CRC drops are exactly the corrupted transmissions of the packet expected", "[link]") {
  LkCfg c;
  c.fwd.bit_error = 2e-3;
  c.fwd.bit_span = 256;  // the data only: the framing and seq stay right
  LkPair<Vlnk_tx, Vlnk_rx> t(c, hpcnet::tb::seed("lnk data errors"));
  lk_check_exact(t, 400000);
  // Walk the transmissions in order with the receiver's rule: the one carrying the seq expected is
  // accepted when intact, dropped (CRC) when faulted; the others are SEQ or DUP drops.
  std::vector<uint8_t> want;
  uint8_t exp = 0;
  for (const auto& x : t.sent) {
    if (x.seq != exp) continue;
    if (x.faulted) want.push_back(x.seq);
    else ++exp;
  }
  INFO("faults " << t.fwd.log().size() << " sent " << t.sent.size());
  CHECK(!want.empty());
  CHECK(t.crc_drop_seqs == want);
  CHECK(t.drops.count(2) + t.drops.count(3) + t.drops.count(4) + t.drops.count(5) + t.drops.count(9) == 0);
}

TEST_CASE("lnk: every packet once in order and intact under bit errors bursts drops repeats and control faults", "[link]") {
  struct Mix {
    const char* name;
    double ber, burst, drop, repeat, ctl;
  };
  for (const Mix& m : {Mix{"bit errors 1e-3", 1e-3, 0, 0, 0, 0}, Mix{"bursts", 0, 1e-3, 0, 0, 0},
                       Mix{"drops and repeats", 0, 0, 5e-4, 5e-4, 0}, Mix{"control words hit", 0, 0, 0, 0, 2e-2},
                       Mix{"everything at 1e-4 and more", 1e-4, 2e-4, 2e-4, 2e-4, 1e-2}}) {
    DYNAMIC_SECTION(m.name) {
      LkCfg c;
      c.fwd.bit_error = m.ber;
      c.fwd.burst = m.burst;
      c.fwd.drop = m.drop;
      c.fwd.repeat = m.repeat;
      c.rev.bit_error = m.ctl;
      c.rev.drop = m.ctl;
      c.rev.burst = m.ctl / 2;
      LkPair<Vlnk_tx, Vlnk_rx> t(c, hpcnet::tb::seed("lnk mix"));
      lk_check_exact(t, 600000);
      // every fault on a flit costs its packet (a corrupted seq makes it a DUP or SEQ drop, not a
      // dirty one); no packet is dirty without a fault, and a fault makes at most two dirty
      // packets (a flipped tail: the packet cut short, then its rest without a head)
      const uint64_t faults = t.fwd.log().size();
      uint64_t all = 0;
      for (auto [cause, k] : t.drops) all += k;
      std::string kinds;
      for (const auto& e : t.fwd.log())
        kinds += std::string(" ") + hpcnet::sim::to_string(e.kind) + "@" + std::to_string(e.cycle) + "/bit" + std::to_string(e.bit) + (e.head ? "h" : "") + (e.tail ? "t" : "");
      INFO("forward faults " << faults << ", dirty drops " << t.dirty() << ", all drops " << all << ":" << kinds.substr(0, 400));
      CHECK((faults > 0) == (all > 0));
      CHECK(t.dirty() <= 2 * faults);
    }
  }
}

TEST_CASE("lnk: a link dead for 10000 cycles then back delivers everything once", "[link]") {
  LkCfg c;
  c.pkts = 400;
  c.fwd.dead_at = 2000;
  c.fwd.dead_cycles = 10000;
  c.rev.dead_at = 2000;
  c.rev.dead_cycles = 10000;
  LkPair<Vlnk_tx, Vlnk_rx> t(c, hpcnet::tb::seed("lnk dead"));
  lk_check_exact(t, 400000);
  CHECK(t.tx.timeouts_o > 0);  // the sender found out by its timeout
}

TEST_CASE("lnk: the small variant brakes mid-packet and times out and still delivers everything once", "[link]") {
  // A 17-flit retransmit buffer (3.4 packets), 2 packets of room per VC and a 150-cycle timeout at
  // a delay of 40: the buffer is full most of the time, the brake comes mid-packet (a body flit
  // offered, the buffer full) and the packet goes on with that flit once an acknowledgement comes;
  // the control words dead for 3,000 cycles end in timeouts.
  LkCfg c;
  c.delay = 40;
  c.pkts = 150;
  c.fwd.bit_error = 1e-3;
  c.rev.drop = 0.3;
  c.rev.dead_at = 5000;
  c.rev.dead_cycles = 3000;
  LkPair<Vlnk_tx_s, Vlnk_rx_s> t(c, hpcnet::tb::seed("lnk small"));
  uint64_t brakes = 0;
  while (!t.done() && t.now < 400000) {
    for (unsigned v = 0; v < kVcs; ++v)
      if (t.tx.full_o && t.vc[v].offered && !t.vc[v].flits.front().head) ++brakes;
    t.cycle();
  }
  lk_check_exact(t, 600000);
  CHECK(brakes > 0);
  CHECK(t.tx.timeouts_o > 0);
}

TEST_CASE("lnk: one flit a cycle at a link delay of 50 with the default retransmit buffer and 24 packets per VC", "[link]") {
  // The paper's 30-metre cables: about 50 cycles each way. One VC streams; the link must carry a
  // flit every cycle once the stream runs. What bounds it: the acknowledgement's round trip for
  // the retransmit buffer (2 x 50 + about 5 cycles: the default 160 flits cover it) and the
  // credits' round trip for the receive buffer (2 x 50 + about 17 cycles: 24 packets per VC).
  // With the receiver's default 4 packets the same link is credit-bound (4 x 5 flits per round trip).
  auto util = [](auto& t) {
    uint64_t flits = 0, cycles = 0;
    while (!t.done() && t.now < 200000) {
      const bool streaming = t.now > 400 && t.vc[0].made < t.cfg.pkts;
      t.cycle();
      if (streaming) {
        ++cycles;
        flits += t.tx.link_valid_o;
      }
    }
    lk_check_exact(t, 300000);
    return double(flits) / double(cycles);
  };
  LkCfg c;
  c.delay = 50;
  c.pkts = 600;
  c.src_pct = 100;
  c.snk_pct = 100;
  c.vcs_active = 1;
  LkPair<Vlnk_tx_c24, Vlnk_rx_b24> big(c, hpcnet::tb::seed("lnk window"));
  const double u24 = util(big);
  LkPair<Vlnk_tx, Vlnk_rx> small(c, hpcnet::tb::seed("lnk window small"));
  const double u4 = util(small);
  INFO("link utilisation at delay 50: " << u24 << " with 24 packets per VC, " << u4 << " with 4");
  CHECK(u24 >= 0.99);
  CHECK(big.tx.retries_o == 0);
  CHECK(u4 < 0.25);  // 20 flits per credit round trip of about 117 cycles
}
