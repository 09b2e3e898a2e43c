// test_nic_dq: nic_dq (Verilated) against a C++ reference of per-VP word queues. Writers (one per
// VP) write descriptors word by word, by PIO or through the fetched-word port (fw), interleaved at
// word level across VPs, pausing at random for long stretches (a preempted process: a descriptor
// is written in parts with other VPs' words in between); some head words carry an NWORDS outside
// 2..MaxWords (bad descriptors); VPs are disabled and re-enabled; vp_ok_i toggles at random and the
// descriptor output stalls at random. The reference keeps each VP's accepted words in order and
// cuts them into descriptors by NWORDS itself. Checked every cycle:
//   - pio_drop_o exactly when the VP is disabled, out of range or its DQ is full (words_o =
//     DqWords); fw_ready_o exactly as documented; every word taken lands in its VP's queue;
//   - words_o = words held: the reference's words minus the words the read-out has freed, which
//     grow by at most one a cycle, only for the one descriptor being read out, only after it was
//     complete;
//   - head_ok_o exactly when (no read-out of the VP) the VP is enabled and its head descriptor is
//     complete or bad, head_ctrl_o its head word;
//   - a descriptor is chosen exactly when the engine is free and some VP has head_ok & vp_ok, and
//     it is the one a round-robin pointer picks; no VP with head_ok & vp_ok waits for more than
//     NumVp-1 others' descriptors;
//   - every descriptor leaves exactly once, in order per VP, with its VP, words (exact; zeros
//     above NWORDS), word count and bad flag; a disabled VP is emptied once its read-out is done.
// At the end, with all VPs enabled and allowed, every complete descriptor leaves.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "Vnic_dq.h"
#include "Vnic_dq_s.h"
#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"
#include "sim/core/harness.hpp"

namespace {

using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;
namespace nf = hpcnet::nic_formats;

struct DqParams {
  unsigned num_vp, dq_words, max_words;
  unsigned cnt_w() const {
    unsigned w = 0;
    while ((1u << w) < dq_words + 1) ++w;
    return w;
  }
};

// Words a descriptor with head word w takes: NWORDS, or 1 when NWORDS is outside 2..max.
unsigned need_of(std::uint64_t w, unsigned max_words) {
  const unsigned nw = static_cast<unsigned>(nf::DESC_CTRL_NWORDS.get(w));
  return (nw < 2 || nw > max_words) ? 1 : nw;
}

template <class M>
struct DqTb {
  DqParams p;
  hpcnet::sim::Harness<M> h{312.5, hpcnet::sim::trace_from_env()};
  M& m = h.dut();
  std::mt19937_64 rng;
  unsigned cw;

  // ---- reference
  struct RefVp {
    std::deque<std::uint64_t> q;  // words taken, not yet handed out
    unsigned f = 0;               // of them, words the read-out has freed (the front descriptor's)
    unsigned waited = 0;          // choices of others while this VP had head_ok & vp_ok
    std::uint64_t delivered = 0;
  };
  std::vector<RefVp> ref;
  unsigned prio = 0;  // round-robin pointer
  bool prev_valid = false, prev_free = false;
  std::vector<bool> prev_req;
  std::uint64_t descs = 0, bads = 0, drops = 0, fw_stalls = 0, flushes = 0, picks_contended = 0;

  // ---- stimulus
  struct Writer {
    std::deque<std::pair<std::uint64_t, bool>> words;  // next words, by fw?
    std::uint64_t pause_until = 0;
    bool fw_shown = false;
    unsigned ok_pct = 100;
  };
  std::vector<Writer> wr;
  std::vector<bool> en, ok;
  std::vector<std::uint64_t> en_until;  // a disabled VP is re-enabled at this cycle
  bool random_writes = true, random_en = true;
  unsigned pio_pct = 50, fw_pct = 50, fw_share = 30, ready_pct = 70, bad_pct = 5;
  std::deque<std::pair<unsigned, std::uint64_t>> script;  // directed PIO writes, one a cycle
  // This cycle's inputs.
  bool pio_v = false, fw_v = false, rdy = false;
  unsigned pio_vp = 0, fw_vp = 0;
  std::uint64_t pio_d = 0, fw_d = 0;
  bool pio_retry = false;

  DqTb(DqParams p_, std::uint64_t seed)
      : p(p_), rng(seed), cw(p_.cnt_w()), ref(p_.num_vp), prev_req(p_.num_vp), wr(p_.num_vp),
        en(p_.num_vp, true), ok(p_.num_vp, true), en_until(p_.num_vp, 0) {
    m.pio_valid_i = 0;
    m.fw_valid_i = 0;
    m.desc_ready_i = 0;
    put_bits(m.vp_en_i, 0, p.num_vp, ~0ull);
    put_bits(m.vp_ok_i, 0, p.num_vp, 0);
    hpcnet::tb::sync_reset(h);
  }
  unsigned rnd(unsigned n) { return static_cast<unsigned>(rng() % n); }
  std::uint64_t now() const { return h.cycles(); }

  void new_desc(unsigned v) {
    const bool fw = rnd(100) < fw_share;
    std::uint64_t w0 = rng();
    unsigned n;
    if (rnd(100) < bad_pct) {
      std::vector<unsigned> badnw = {0, 1};
      for (unsigned k = p.max_words + 1; k < 32; ++k) badnw.push_back(k);
      nf::DESC_CTRL_NWORDS.write(&w0, badnw[rnd(static_cast<unsigned>(badnw.size()))]);
      n = 1;
    } else {
      n = 2 + rnd(p.max_words - 1);
      nf::DESC_CTRL_NWORDS.write(&w0, n);
    }
    wr[v].words.push_back({w0, fw});
    for (unsigned k = 1; k < n; ++k) wr[v].words.push_back({rng(), fw});
  }

  unsigned words_of(unsigned v) const { return static_cast<unsigned>(get_bits(m.words_o, v * cw, cw)); }

  // A writer may write now: not paused, no fw word of its own waiting.
  bool can_write(unsigned v, bool fw) {
    Writer& x = wr[v];
    if (x.words.empty()) new_desc(v);
    return now() >= x.pause_until && !x.fw_shown && x.words.front().second == fw;
  }

  void drive() {
    const unsigned n = p.num_vp;
    // Enables: a VP is disabled now and then for a while, then re-enabled with a fresh writer.
    if (random_en) {
      for (unsigned v = 0; v < n; ++v) {
        if (!en[v] && now() >= en_until[v]) {
          en[v] = true;
          if (!wr[v].fw_shown) wr[v].words.clear();
        } else if (en[v] && rnd(20000) == 0) {
          en[v] = false;
          en_until[v] = now() + 50 + rnd(300);
        }
      }
    }
    for (unsigned v = 0; v < n; ++v) ok[v] = rnd(100) < wr[v].ok_pct;
    // PIO: a directed write, or a random writer's next word (now and then one to a disabled or
    // nonexistent VP).
    pio_v = false;
    pio_retry = false;
    if (!script.empty()) {
      pio_v = true;
      pio_vp = script.front().first;
      pio_d = script.front().second;
      script.pop_front();
    } else if (random_writes && rnd(100) < pio_pct) {
      if (rnd(200) == 0) {  // a VP beyond NumVp (dropped), or with 32 VPs a stray word to any
        pio_v = true;
        pio_vp = n < 32 ? n + rnd(32 - n) : rnd(32);
        pio_d = rng();
      } else {
        const unsigned s = rnd(n);
        for (unsigned k = 0; k < n && !pio_v; ++k) {
          const unsigned v = (s + k) % n;
          if (can_write(v, false) && (en[v] || rnd(10) == 0)) {
            pio_v = true;
            pio_vp = v;
            pio_d = wr[v].words.front().first;
            pio_retry = rnd(2) == 0;  // a dropped word is written again
          }
        }
      }
    }
    if (!pio_v) {
      pio_vp = rnd(32);
      pio_d = rng();
    }
    // fw: a word shown stays until taken.
    if (!fw_v && random_writes && rnd(100) < fw_pct) {
      const unsigned s = rnd(n);
      for (unsigned k = 0; k < n && !fw_v; ++k) {
        const unsigned v = (s + k) % n;
        if (can_write(v, true) && !(pio_v && pio_vp == v)) {
          fw_v = true;
          fw_vp = v;
          fw_d = wr[v].words.front().first;
          wr[v].fw_shown = true;
        }
      }
    }
    m.pio_valid_i = pio_v;
    m.pio_vp_i = static_cast<std::uint8_t>(pio_vp);
    m.pio_data_i = pio_d;
    m.fw_valid_i = fw_v;
    m.fw_vp_i = static_cast<std::uint8_t>(fw_v ? fw_vp : rnd(n));
    m.fw_data_i = fw_v ? fw_d : rng();
    rdy = rnd(100) < ready_pct;
    m.desc_ready_i = rdy;
    for (unsigned v = 0; v < n; ++v) {
      put_bits(m.vp_en_i, v, 1, en[v]);
      put_bits(m.vp_ok_i, v, 1, ok[v]);
    }
  }

  bool complete_at(unsigned v, std::size_t pos) const {
    const auto& q = ref[v].q;
    return q.size() > pos && q.size() - pos >= need_of(q[pos], p.max_words);
  }

  void cycle() {
    const unsigned n = p.num_vp;
    drive();
    h.eval();
    INFO("cycle " << now());
    // ---- words held and the read-out's progress
    std::vector<unsigned> fnew(n);
    int picked = -1;
    unsigned busy = 0;
    for (unsigned v = 0; v < n; ++v) {
      RefVp& r = ref[v];
      const unsigned w = words_of(v);
      INFO("VP " << v << " words_o " << w << " reference " << r.q.size() << " freed " << r.f);
      REQUIRE(w <= r.q.size());
      fnew[v] = static_cast<unsigned>(r.q.size()) - w;
      REQUIRE(fnew[v] >= r.f);
      REQUIRE(fnew[v] <= r.f + 1);  // one word a cycle
      if (fnew[v] > 0) {  // only the front descriptor, only a complete one
        REQUIRE(complete_at(v, 0));
        REQUIRE(fnew[v] <= need_of(r.q[0], p.max_words));
        ++busy;
      }
      if (r.f == 0 && fnew[v] == 1) {
        REQUIRE(picked < 0);
        picked = static_cast<int>(v);
      }
    }
    REQUIRE(busy <= 1);  // one read-out at a time
    // ---- the choice made in the cycle before
    if (prev_valid) {
      int expect = -1;
      if (prev_free)
        for (unsigned k = 0; k < n; ++k)
          if (prev_req[(prio + k) % n]) {
            expect = static_cast<int>((prio + k) % n);
            break;
          }
      REQUIRE(picked == expect);
      if (picked >= 0) {
        unsigned others = 0;
        for (unsigned v = 0; v < n; ++v) {
          if (v == static_cast<unsigned>(picked) || !prev_req[v]) {
            ref[v].waited = 0;
            continue;
          }
          ++others;
          ++ref[v].waited;
          REQUIRE(ref[v].waited <= n - 1);
        }
        if (others) ++picks_contended;
        prio = (static_cast<unsigned>(picked) + 1) % n;
      }
    } else {
      REQUIRE(picked < 0);
    }
    // ---- the descriptor offered
    const bool dv = m.desc_valid_o;
    unsigned dvp = 0, dn = 0;
    if (dv) {
      dvp = m.desc_vp_o;
      REQUIRE(dvp < n);
      const RefVp& r = ref[dvp];
      REQUIRE(!r.q.empty());
      dn = need_of(r.q[0], p.max_words);
      INFO("descriptor of VP " << dvp << " words " << dn);
      REQUIRE(fnew[dvp] == dn);  // all its words read
      REQUIRE(m.desc_nwords_o == dn);
      const unsigned nw = static_cast<unsigned>(nf::DESC_CTRL_NWORDS.get(r.q[0]));
      REQUIRE(bool(m.desc_bad_o) == (nw < 2 || nw > p.max_words));
      for (unsigned k = 0; k < p.max_words; ++k) {
        INFO("word " << k);
        REQUIRE(get_bits(m.desc_words_o, k * 64, 64) == (k < dn ? r.q[k] : 0));
      }
    }
    // ---- head_ok_o and head_ctrl_o
    for (unsigned v = 0; v < n; ++v) {
      const RefVp& r = ref[v];
      const bool hok = get_bits(m.head_ok_o, v, 1);
      INFO("head of VP " << v << " freed " << fnew[v]);
      if (fnew[v] == 0) {
        REQUIRE(hok == (en[v] && complete_at(v, 0)));
        if (hok) REQUIRE(get_bits(m.head_ctrl_o, v * 64, 64) == r.q[0]);
      } else if (hok) {  // the next descriptor, while this one is offered
        const unsigned d = need_of(r.q[0], p.max_words);
        REQUIRE(en[v]);
        REQUIRE(fnew[v] == d);
        REQUIRE((dv && dvp == v));
        REQUIRE(complete_at(v, d));
        REQUIRE(get_bits(m.head_ctrl_o, v * 64, 64) == r.q[d]);
      }
    }
    // ---- writes
    bool pio_acc = false;
    if (pio_v) {
      const bool exp_drop = pio_vp >= n || !en[pio_vp] || words_of(pio_vp) == p.dq_words;
      REQUIRE(bool(m.pio_drop_o) == exp_drop);
      pio_acc = !exp_drop;
      if (exp_drop) ++drops;
    } else {
      REQUIRE(!m.pio_drop_o);
    }
    const unsigned fvp = m.fw_vp_i;
    const bool exp_fw_ready = !pio_v && (!en[fvp] || words_of(fvp) != p.dq_words);
    REQUIRE(bool(m.fw_ready_o) == exp_fw_ready);
    if (fw_v && !exp_fw_ready && !pio_v) ++fw_stalls;  // a full DQ
    // ---- bookkeeping for the next cycle's choice check
    const bool acc = dv && rdy, dbad = m.desc_bad_o;
    prev_valid = true;
    prev_free = busy == 0 || acc;
    for (unsigned v = 0; v < n; ++v) prev_req[v] = get_bits(m.head_ok_o, v, 1) && ok[v];

    hpcnet::tb::tick(h);

    // ---- the reference after the edge
    if (pio_v && pio_vp < n) {
      Writer& x = wr[pio_vp];
      if (pio_acc) ref[pio_vp].q.push_back(pio_d);
      if (!x.words.empty() && x.words.front().first == pio_d && (pio_acc || !pio_retry)) {
        x.words.pop_front();
        if (rnd(60) == 0) x.pause_until = now() + 20 + rnd(300);  // preempted, maybe mid-descriptor
      }
    }
    if (fw_v && exp_fw_ready) {
      if (en[fw_vp]) ref[fw_vp].q.push_back(fw_d);
      Writer& x = wr[fw_vp];
      x.words.pop_front();
      x.fw_shown = false;
      fw_v = false;
      if (rnd(60) == 0) x.pause_until = now() + 20 + rnd(300);
    }
    for (unsigned v = 0; v < n; ++v) ref[v].f = fnew[v];
    if (acc) {
      RefVp& r = ref[dvp];
      r.q.erase(r.q.begin(), r.q.begin() + dn);
      r.f -= dn;
      ++r.delivered;
      ++descs;
      if (dbad) ++bads;
    }
    for (unsigned v = 0; v < n; ++v)  // disabled and not being read out: emptied
      if (!en[v] && fnew[v] == 0) {
        if (!ref[v].q.empty()) ++flushes;
        ref[v].q.clear();
        ref[v].f = 0;
      }
  }

  void run(unsigned cycles) {
    const unsigned pio_rates[] = {10, 40, 80, 100}, fw_rates[] = {0, 30, 70, 100},
                   ready_rates[] = {10, 50, 90, 100}, ok_rates[] = {0, 20, 70, 100, 100};
    for (unsigned c = 0; c < cycles; ++c) {
      if (c % 1000 == 0) {
        pio_pct = pio_rates[rnd(4)];
        fw_pct = fw_rates[rnd(4)];
        ready_pct = ready_rates[rnd(4)];
        for (auto& x : wr) x.ok_pct = ok_rates[rnd(5)];
      }
      cycle();
    }
    drain();
  }

  // No new words; every VP enabled and allowed; the output always ready: every complete
  // descriptor leaves, then only incomplete ones stay.
  void drain() {
    random_writes = false;
    random_en = false;
    ready_pct = 100;
    for (unsigned v = 0; v < p.num_vp; ++v) {
      en[v] = true;
      wr[v].ok_pct = 100;
    }
    for (unsigned c = 0; c < 20000 && fw_v; ++c) cycle();  // the fw word shown is taken
    for (unsigned c = 0; c < 20000; ++c) {
      bool more = false;
      for (unsigned v = 0; v < p.num_vp; ++v) more |= complete_at(v, 0) || ref[v].f != 0;
      if (!more) break;
      cycle();
    }
    for (unsigned v = 0; v < p.num_vp; ++v) {
      INFO("VP " << v);
      REQUIRE(!complete_at(v, 0));
      REQUIRE(ref[v].f == 0);
    }
    for (unsigned c = 0; c < 5; ++c) cycle();
    REQUIRE(!m.desc_valid_o);
    REQUIRE(get_bits(m.head_ok_o, 0, p.num_vp) == 0);
  }
};

template <class M>
void dq_random_run(DqParams p, const char* name, unsigned cycles, bool expect_full) {
  const std::uint64_t base = hpcnet::tb::seed(name);
  for (std::uint64_t k = 0; k < 2; ++k) {
    INFO("seed " << base + k);
    DqTb<M> tb(p, base + k);
    tb.run(cycles);
    INFO("descriptors " << tb.descs << " bad " << tb.bads << " drops " << tb.drops << " fw stalls "
                        << tb.fw_stalls << " flushes " << tb.flushes << " contended " << tb.picks_contended);
    REQUIRE(tb.descs > cycles / 100);
    REQUIRE(tb.bads > 0);
    REQUIRE(tb.drops > 0);
    REQUIRE(tb.flushes > 0);
    REQUIRE(tb.picks_contended > 10);  // the fairness check had work
    if (expect_full) REQUIRE(tb.fw_stalls > 0);
    for (unsigned v = 0; v < p.num_vp; ++v) REQUIRE(tb.ref[v].delivered > 0);
  }
}

const DqParams kDqDefault{32, 512, 24};
const DqParams kDqSmall{5, 32, 24};

}  // namespace

TEST_CASE("nic_dq: 5 VPs with 32-word DQs against per-VP word queues (drops and stalls when full)",
          "[nic_dq]") {
  dq_random_run<Vnic_dq_s>(kDqSmall, "nic_dq small", 100000, true);
}

TEST_CASE("nic_dq: 32 VPs with 512-word DQs against per-VP word queues", "[nic_dq]") {
  dq_random_run<Vnic_dq>(kDqDefault, "nic_dq default", 40000, false);
}

// A descriptor written in two halves by a preempted writer, other VPs' descriptors in between:
// nothing of it leaves until its last word is in, then it leaves exactly once.
TEST_CASE("nic_dq: a descriptor written in two halves leaves once and only when complete", "[nic_dq]") {
  DqTb<Vnic_dq> tb(kDqDefault, hpcnet::tb::seed("nic_dq halves"));
  tb.random_writes = false;
  tb.random_en = false;
  tb.ready_pct = 100;
  std::vector<std::uint64_t> d(16);
  for (auto& w : d) w = tb.rng();
  nf::DESC_CTRL_NWORDS.write(&d[0], 16);
  auto other = [&](unsigned v) {  // a whole 3-word descriptor of VP v
    std::uint64_t w0 = tb.rng();
    nf::DESC_CTRL_NWORDS.write(&w0, 3);
    tb.script.push_back({v, w0});
    tb.script.push_back({v, tb.rng()});
    tb.script.push_back({v, tb.rng()});
  };
  for (unsigned k = 0; k < 8; ++k) {
    tb.script.push_back({7, d[k]});
    other(k % 2 ? 3 : 20);
  }
  for (unsigned c = 0; c < 400; ++c) {
    if (c % 40 == 0) other(c % 80 ? 9 : 31);
    tb.cycle();
    REQUIRE(!(tb.m.desc_valid_o && tb.m.desc_vp_o == 7));
    REQUIRE(!hpcnet::tb::get_bits(tb.m.head_ok_o, 7, 1));
  }
  REQUIRE(tb.ref[7].delivered == 0);
  REQUIRE(tb.descs == 8 + 10);
  for (unsigned k = 8; k < 16; ++k) {
    tb.script.push_back({7, d[k]});
    other(2);
  }
  for (unsigned c = 0; c < 200; ++c) tb.cycle();
  REQUIRE(tb.ref[7].delivered == 1);  // the words were checked against d by the reference
  REQUIRE(tb.ref[7].q.empty());
  REQUIRE(tb.descs == 8 + 10 + 1 + 8);
}

// The documented latency: last word written in cycle t, desc_valid_o in cycle t+n+2 (idle engine,
// vp_ok high); then one VP's descriptors back to back every n+2 cycles and two VPs' every n+1.
TEST_CASE("nic_dq: latency from the last word to desc_valid is n+2 cycles", "[nic_dq]") {
  DqTb<Vnic_dq> tb(kDqDefault, hpcnet::tb::seed("nic_dq latency"));
  tb.random_writes = false;
  tb.random_en = false;
  tb.ready_pct = 100;
  for (unsigned n : {1u, 2u, 3u, 7u, 16u, 24u}) {
    INFO("n " << n);
    std::uint64_t w0 = tb.rng();
    nf::DESC_CTRL_NWORDS.write(&w0, n == 1 ? 0 : n);
    tb.script.push_back({4, w0});
    for (unsigned k = 1; k < n; ++k) tb.script.push_back({4, tb.rng()});
    std::uint64_t t = 0;
    for (unsigned c = 0; c < 100; ++c) {
      const bool last = tb.script.size() == 1;
      tb.cycle();
      if (last) t = tb.now() - 1;  // the cycle of the last write (tick() advanced the count)
      if (tb.m.desc_valid_o) break;
    }
    REQUIRE(tb.m.desc_valid_o);
    REQUIRE(tb.now() == t + n + 2);
    for (unsigned c = 0; c < 5; ++c) tb.cycle();
  }
  // Back to back: 6 descriptors of 5 words from one VP, then alternating between two VPs.
  for (unsigned vps : {1u, 2u}) {
    INFO("VPs " << vps);
    for (unsigned k = 0; k < 6; ++k)
      for (unsigned v = 0; v < vps; ++v) {
        std::uint64_t w0 = tb.rng();
        nf::DESC_CTRL_NWORDS.write(&w0, 5);
        tb.script.push_back({10 + v, w0});
        for (unsigned j = 1; j < 5; ++j) tb.script.push_back({10 + v, tb.rng()});
      }
    tb.wr[10].ok_pct = tb.wr[11].ok_pct = 0;  // held back while written
    while (!tb.script.empty()) tb.cycle();
    tb.wr[10].ok_pct = tb.wr[11].ok_pct = 100;
    std::vector<std::uint64_t> at;
    for (unsigned c = 0; c < 200; ++c) {
      if (tb.m.desc_valid_o) at.push_back(tb.now());
      tb.cycle();
    }
    REQUIRE(at.size() == 6 * vps);
    for (std::size_t i = 1; i < at.size(); ++i) REQUIRE(at[i] - at[i - 1] == (vps == 1 ? 7u : 6u));
  }
}
