// gsn_tb.hpp: harness and reference model of gsn_tree (docs/gsn.md) for the Catch2 tests.
//   Msg            the 128-bit message (generated: hpcnet/gsn_formats.hpp), 4 x 32-bit port words
//   reference()    the tree's combined message for one operation, folded in the documented
//                  order (left-packed tree, every node folds its children in index order)
//   GsnTb<V>       one Verilated gsn_tree: drive the leaves, sample, clock
//   run_random()   random traffic (operations on several addresses, leaves in random order with
//                  random delays, random down-path back-pressure, error injection) checked against
//                  the reference: one identical down message per operation at every leaf.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "hpcnet/tb/alu_ref.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/gsn_msg.hpp"
#include "sim/core/harness.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/red_codes.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"

namespace gsnt {

// The message and its codes: generated from rtl/gsn/gsn_formats.toml (types and ops:
// rtl/ssm/ssm_regs.toml).
using Msg = hpcnet::gsn_formats::Msg;
using hpcnet::gsn_formats::Kind;
using hpcnet::ssm_regs::RedOp;
using hpcnet::ssm_regs::RedType;
using namespace hpcnet::tb::red;  // the codes as unsigned numbers (alu())
inline constexpr Kind kBarrier = Kind::BARRIER, kReduce = Kind::REDUCE;
inline unsigned code(RedType t) { return static_cast<unsigned>(t); }
inline unsigned code(RedOp o) { return static_cast<unsigned>(o); }
inline unsigned code(Kind k) { return static_cast<unsigned>(k); }

// The fields the children of one operation must agree on (gsn_node's ref).
inline bool same_ref(const Msg& a, const Msg& b) { return a.kind == b.kind && a.op == b.op && a.type == b.type; }

// Message i of a flat vector of 32-bit words (a Verilated port): bits [i*128 +: 128].
template <class W>
void put_msg(W& w, unsigned i, const Msg& m) {
  hpcnet::tb::put_format(w, i * Msg::kBits, m);
}
template <class W>
Msg get_msg(const W& w, unsigned i) {
  return hpcnet::tb::get_format<Msg>(w, i * Msg::kBits);
}

// ---------------------------------------------------------------------------------------------
// ssm_alu on the host: the shared reference (hpcnet/tb/alu_ref.hpp).
inline double as_double(std::uint64_t v) { return std::bit_cast<double>(v); }
inline std::uint64_t as_bits(double d) { return std::bit_cast<std::uint64_t>(d); }
using hpcnet::tb::alu_ref;

// One tree node's combine: children in index order. err when a child has err or the children's
// kind/type/op are not all equal (the value is then not specified).
inline Msg combine(const std::vector<Msg>& ch) {
  Msg r = ch[0];
  r.zero = 0;
  for (std::size_t c = 1; c < ch.size(); ++c) {
    r.err = r.err || ch[c].err || !same_ref(ch[c], ch[0]);
    if (ch[0].kind == Kind::REDUCE) r.value = alu_ref(code(ch[0].type), code(ch[0].op), r.value, ch[c].value);
  }
  r.err = r.err || ch[0].err;
  if (r.kind == Kind::BARRIER) r.value = 0;
  return r;
}

// Tree shape (gsn_tree.sv): level 0 groups the leaves by Radix, each further level groups the
// nodes below by Radix, until one node is left (at least one level).
inline unsigned tree_depth(unsigned nodes, unsigned radix) {
  unsigned d = 0;
  unsigned n = nodes;
  do {
    n = (n + radix - 1) / radix;
    ++d;
  } while (n > 1);
  return d;
}
// Children of the first node of each level, bottom first (the fullest node of the level).
inline std::vector<unsigned> first_node_children(unsigned nodes, unsigned radix) {
  std::vector<unsigned> k;
  unsigned n = nodes;
  do {
    k.push_back(std::min(n, radix));
    n = (n + radix - 1) / radix;
  } while (n > 1);
  return k;
}

// The combined (down) message for the leaves' messages, in the documented order.
inline Msg reference(const std::vector<Msg>& leaves, unsigned radix) {
  std::vector<Msg> cur = leaves;
  do {
    std::vector<Msg> next;
    for (std::size_t j = 0; j < cur.size(); j += radix) {
      std::vector<Msg> ch(cur.begin() + std::ptrdiff_t(j),
                          cur.begin() + std::ptrdiff_t(std::min(cur.size(), j + radix)));
      next.push_back(combine(ch));
    }
    cur = std::move(next);
  } while (cur.size() > 1);
  return cur[0];
}

// ---------------------------------------------------------------------------------------------
// Model configuration of each Verilated variant (rtl/gsn/models.cmake).
template <class V>
struct Cfg;
#define GSN_CFG(V, n, r, s)                                                  \
  template <>                                                                \
  struct Cfg<V> {                                                            \
    static constexpr unsigned nodes = n, radix = r, slots = s;              \
    static constexpr const char* name = #V;                                  \
  }

template <class V>
class GsnTb {
 public:
  static constexpr unsigned N = Cfg<V>::nodes, R = Cfg<V>::radix, S = Cfg<V>::slots;
  // inputs of the next cycle
  std::vector<bool> up_valid = std::vector<bool>(N), dn_ready = std::vector<bool>(N);
  std::vector<Msg> up_msg = std::vector<Msg>(N);
  // outputs sampled before the clock edge of the last cycle()
  std::vector<bool> up_ready = std::vector<bool>(N), dn_valid = std::vector<bool>(N);
  std::vector<Msg> dn_msg = std::vector<Msg>(N);

  GsnTb() { hpcnet::tb::sync_reset(h_); }
  V& m() { return h_.dut(); }
  std::uint64_t cycles() const { return h_.cycles(); }

  // Drive the inputs, settle, sample the outputs, clock. A beat moves on leaf n when
  // up_valid[n] && up_ready[n] (up) or dn_valid[n] && dn_ready[n] (down).
  void cycle() {
    V& d = h_.dut();
    std::uint64_t uv = 0, dr = 0;
    for (unsigned n = 0; n < N; ++n) {
      uv |= std::uint64_t(up_valid[n]) << n;
      dr |= std::uint64_t(dn_ready[n]) << n;
      put_msg(d.up_msg_i, n, up_msg[n]);
    }
    d.up_valid_i = static_cast<std::remove_reference_t<decltype(d.up_valid_i)>>(uv);
    d.dn_ready_i = static_cast<std::remove_reference_t<decltype(d.dn_ready_i)>>(dr);
    h_.eval();
    const std::uint64_t ur = d.up_ready_o, dv = d.dn_valid_o;
    for (unsigned n = 0; n < N; ++n) {
      up_ready[n] = (ur >> n) & 1;
      dn_valid[n] = (dv >> n) & 1;
      dn_msg[n] = get_msg(d.dn_msg_o, n);
    }
    hpcnet::tb::tick(h_);
  }

 private:
  hpcnet::sim::Harness<V> h_{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
};

// ---------------------------------------------------------------------------------------------
using hpcnet::tb::random_operand;

// Random traffic: `streams` addresses (each a sequence of `rounds` operations); a leaf sends round
// r of an address only after it received the down message of round r-1 of that address.
//   ordered = false: each leaf picks a random eligible address (the tree holds at most `streams`
//     addresses at once: streams <= Slots keeps it deadlock-free, docs/gsn.md);
//   ordered = true : all leaves send the operations in one global order (an interleaving of the
//     streams); with a single-level tree this is deadlock-free for any number of addresses and
//     exercises the slot-full back-pressure.
struct RandomCfg {
  unsigned streams = 2, rounds = 30;
  unsigned max_delay = 6;   // idle cycles before a leaf presents its next message: 0..max_delay
  unsigned ready_pct = 70;  // dn_ready probability per leaf per cycle
  unsigned err_pct = 5;     // rounds with one bad contribution (mismatch or err bit)
  unsigned reduce_pct = 60;
  bool ordered = false;
};
struct RandomStats {
  std::uint64_t ops = 0, errs = 0, cycles = 0, up_stalls = 0;
};

// Tb: GsnTb<V> (a whole tree) or any harness with its interface (N leaves, R children per node,
// the leaves' port vectors, cycle(), cycles()) whose down messages are the tree's results: the
// single node of tb/gsn/gsn_node_tb.hpp with a parent that turns each up message round.
template <class Tb>
RandomStats run_random_on(Tb& tb, std::uint64_t seed, const RandomCfg& cfg) {
  constexpr unsigned N = Tb::N;
  hpcnet::tb::Rng rng(seed);
  auto pct = [&](unsigned p) { return rng.pct(p); };

  struct Round {
    std::vector<Msg> msgs;
    Msg expect;
    unsigned ups = 0, downs = 0;
    std::optional<Msg> first_down;
  };
  struct Stream {
    std::uint64_t addr;
    std::vector<Round> rounds;
  };
  std::vector<Stream> st(cfg.streams);
  std::map<std::uint64_t, unsigned> by_addr;
  for (unsigned a = 0; a < cfg.streams; ++a) {
    std::uint64_t addr;
    do addr = (rng() & 0xffffffffffffull) & ~7ull; while (by_addr.count(addr));
    if (a == 1) addr = st[0].addr ^ (1ull << 47);  // differ in the top address bit only
    st[a].addr = addr;
    by_addr[addr] = a;
  }
  RandomStats stats;
  auto make_round = [&](unsigned a) {
    Round r;
    Msg base;
    base.addr = st[a].addr;
    base.kind = pct(cfg.reduce_pct) ? Kind::REDUCE : Kind::BARRIER;
    base.type = static_cast<RedType>(rng() % 4);
    base.op = static_cast<RedOp>(rng() % 3);
    if (base.kind == Kind::BARRIER && pct(50)) {
      base.type = RedType{};
      base.op = RedOp{};
    }
    for (unsigned n = 0; n < N; ++n) {
      Msg m = base;
      m.value = base.kind == Kind::REDUCE ? random_operand(rng, code(m.type)) : (pct(80) ? 0 : rng());
      if (pct(10)) m.zero = unsigned(rng() & 0x3ff);  // ignored by the tree
      r.msgs.push_back(m);
    }
    if (pct(cfg.err_pct)) {
      Msg& m = r.msgs[rng() % N];
      switch (rng() % 4) {
        case 0: m.kind = static_cast<Kind>(code(m.kind) ^ 1); break;
        case 1: m.type = static_cast<RedType>((code(m.type) + 1 + unsigned(rng() % 3)) % 4); break;
        case 2: m.op = static_cast<RedOp>((code(m.op) + 1 + unsigned(rng() % 2)) % 3); break;
        default: m.err = true; break;
      }
      ++stats.errs;
    }
    r.expect = reference(r.msgs, Tb::R);
    return r;
  };
  // Global order for the ordered mode: a random interleaving of the streams' rounds.
  std::vector<unsigned> order;
  {
    std::vector<unsigned> left(cfg.streams, cfg.rounds);
    for (unsigned k = 0; k < cfg.streams * cfg.rounds; ++k) {
      unsigned a;
      do a = unsigned(rng() % cfg.streams); while (left[a] == 0);
      --left[a];
      order.push_back(a);
    }
  }

  struct Leaf {
    std::vector<unsigned> sent, recv;  // rounds sent / down messages received, per stream
    bool busy = false;                 // presenting a message
    unsigned stream = 0, delay = 0;
    std::size_t next = 0;              // ordered mode: index into `order`
  };
  std::vector<Leaf> leaf(N);
  for (auto& l : leaf) {
    l.sent.assign(cfg.streams, 0);
    l.recv.assign(cfg.streams, 0);
    l.delay = unsigned(rng() % (cfg.max_delay + 1));
  }
  const std::uint64_t total_downs = std::uint64_t(N) * cfg.streams * cfg.rounds;
  std::uint64_t downs = 0, progress_at = 0;

  while (downs < total_downs) {
    // leaves: choose and present messages
    for (unsigned n = 0; n < N; ++n) {
      Leaf& l = leaf[n];
      if (!l.busy) {
        if (l.delay > 0) {
          --l.delay;
        } else {
          int pick = -1;
          if (cfg.ordered) {
            if (l.next < order.size()) {
              unsigned a = order[l.next];
              if (l.recv[a] == l.sent[a]) pick = int(a);
            }
          } else {
            std::vector<unsigned> el;
            for (unsigned a = 0; a < cfg.streams; ++a)
              if (l.sent[a] < cfg.rounds && l.recv[a] == l.sent[a]) el.push_back(a);
            if (!el.empty()) pick = int(el[rng() % el.size()]);
          }
          if (pick >= 0) {
            unsigned a = unsigned(pick);
            unsigned r = l.sent[a];
            while (st[a].rounds.size() <= r) st[a].rounds.push_back(make_round(a));
            l.busy = true;
            l.stream = a;
            tb.up_msg[n] = st[a].rounds[r].msgs[n];
          }
        }
      }
      tb.up_valid[n] = l.busy;
      tb.dn_ready[n] = pct(cfg.ready_pct);
    }
    tb.cycle();
    // handshakes of this cycle
    for (unsigned n = 0; n < N; ++n) {
      Leaf& l = leaf[n];
      if (tb.up_valid[n] && tb.up_ready[n]) {
        Round& rd = st[l.stream].rounds[l.sent[l.stream]];
        ++rd.ups;
        ++l.sent[l.stream];
        ++l.next;
        l.busy = false;
        l.delay = unsigned(rng() % (cfg.max_delay + 1));
        progress_at = tb.cycles();
      } else if (tb.up_valid[n]) {
        ++stats.up_stalls;
      }
      if (tb.dn_valid[n] && tb.dn_ready[n]) {
        const Msg& got = tb.dn_msg[n];
        INFO("leaf " << n << " cycle " << tb.cycles() << " got " << got);
        REQUIRE(by_addr.count(got.addr));
        unsigned a = by_addr[got.addr];
        REQUIRE(l.recv[a] < l.sent[a]);  // one down message per operation the leaf joined
        Round& rd = st[a].rounds[l.recv[a]];
        INFO("stream " << a << " round " << l.recv[a] << " expect " << rd.expect);
        REQUIRE(rd.ups == N);  // no result before every leaf contributed
        REQUIRE(got.err == rd.expect.err);
        REQUIRE(got.zero == 0);
        REQUIRE(got.addr == rd.expect.addr);
        if (!rd.expect.err) REQUIRE(got == rd.expect);
        if (rd.first_down) REQUIRE(got == *rd.first_down);  // identical at every leaf
        else rd.first_down = got;
        ++rd.downs;
        ++l.recv[a];
        ++downs;
        progress_at = tb.cycles();
      }
    }
    if (tb.cycles() - progress_at > 5000) {
      std::ostringstream os;
      for (unsigned n = 0; n < N; ++n) {
        os << "leaf " << n << (leaf[n].busy ? " presenting stream " : " idle, last ") << leaf[n].stream
           << " sent/recv";
        for (unsigned a = 0; a < cfg.streams; ++a) os << " " << leaf[n].sent[a] << "/" << leaf[n].recv[a];
        os << "\n";
      }
      FAIL("no progress for 5000 cycles (deadlock)\n" << os.str());
    }
  }
  // drain: nothing more may come down
  for (unsigned n = 0; n < N; ++n) {
    tb.up_valid[n] = false;
    tb.dn_ready[n] = true;
  }
  for (unsigned c = 0; c < 200; ++c) {
    tb.cycle();
    for (unsigned n = 0; n < N; ++n) {
      INFO("leaf " << n);
      REQUIRE(!tb.dn_valid[n]);
    }
  }
  stats.ops = std::uint64_t(cfg.streams) * cfg.rounds;
  stats.cycles = tb.cycles();
  return stats;
}
template <class V>
RandomStats run_random(std::uint64_t seed, const RandomCfg& cfg) {
  GsnTb<V> tb;
  return run_random_on(tb, seed, cfg);
}

}  // namespace gsnt
