// rtr_phase_net_tb.hpp: the bench of the phase unit's test (test_rtr_phase.cpp): topologies
// (meshes and tori, 2-D and 3-D), a C++ reference of one unit, and a network of units joined by
// links with random delays, with routers whose data packets overtake each other; the guarantees
// (BarrierCheck), Lemma 1 and Lemma 2 checked as it runs; the random-run driver. Included by
// that one test.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hpcnet/tb/rtr_phase_unit.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/harness.hpp"
#include "sim/net/barrier/net_barrier_check.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"

namespace {

using hpcnet::sim::BarrierCheck;
using hpcnet::sim::BarrierKind;

constexpr unsigned kSlots = 16;  // the models' Slots
constexpr unsigned kLatHop = 2;  // link model delay of the timing test: the router's 2 cycles per hop

// ------------------------------------------------------------------ topology
struct Topo {
  std::array<unsigned, 3> k{1, 1, 1};
  unsigned dims = 2;
  bool torus = false;
  unsigned nodes() const { return k[0] * k[1] * k[2]; }
  unsigned nn() const { return 2 * dims; }
  std::array<int, 3> coord(unsigned n) const {
    return {int(n % k[0]), int(n / k[0] % k[1]), int(n / (k[0] * k[1]))};
  }
  unsigned id(std::array<int, 3> c) const { return unsigned(c[0]) + k[0] * (unsigned(c[1]) + k[1] * unsigned(c[2])); }
  // The node output p of node n leads to, or -1.
  int neighbour(unsigned n, unsigned p) const {
    unsigned d = p / 2;
    int kd = int(k[d]);
    if (kd == 1) return -1;
    auto c = coord(n);
    c[d] += (p % 2 == 0) ? 1 : -1;
    if (c[d] < 0 || c[d] >= kd) {
      if (!torus) return -1;
      c[d] = (c[d] + kd) % kd;
    }
    return int(id(c));
  }
  unsigned diameter() const {
    unsigned s = 0;
    for (unsigned d = 0; d < dims; ++d) s += torus ? k[d] / 2 : k[d] - 1;
    return s;
  }
  // Productive outputs from a to b (minimal routes; on a torus both ways when they tie).
  std::vector<unsigned> productive(unsigned a, unsigned b) const {
    std::vector<unsigned> out;
    auto ca = coord(a), cb = coord(b);
    for (unsigned d = 0; d < dims; ++d) {
      int kd = int(k[d]), diff = cb[d] - ca[d];
      if (diff == 0) continue;
      if (!torus) {
        out.push_back(2 * d + (diff > 0 ? 0 : 1));
        continue;
      }
      int fwd = (diff + kd) % kd, back = kd - fwd;
      if (fwd <= back) out.push_back(2 * d);
      if (back <= fwd) out.push_back(2 * d + 1);
    }
    return out;
  }
  unsigned distance(unsigned a, unsigned b) const {
    unsigned s = 0;
    auto ca = coord(a), cb = coord(b);
    for (unsigned d = 0; d < dims; ++d) {
      int kd = int(k[d]), diff = std::abs(cb[d] - ca[d]);
      s += unsigned(torus ? std::min(diff, kd - diff) : diff);
    }
    return s;
  }
  unsigned port_en(unsigned n) const {
    unsigned m = 0;
    for (unsigned p = 0; p < nn(); ++p)
      if (neighbour(n, p) >= 0) m |= 1u << p;
    return m;
  }
  std::string name() const {
    std::ostringstream s;
    s << k[0];
    for (unsigned d = 1; d < dims; ++d) s << 'x' << k[d];
    s << (torus ? " torus" : " mesh");
    return s.str();
  }
};

// ------------------------------------------------------------------ reference of one unit
// The state machine of docs/barrier.md written again from the description, in C++.
struct PhaseRef {
  enum St { idle, run, done } st = idle;
  unsigned nn = 4, ph = 0, tot = 0, sent = 0, pend = 0;
  std::array<unsigned, 6> cnt{};
  // outputs (functions of the state)
  bool enter_ready() const { return st == idle; }
  bool leave_valid() const { return st == done && pend == 0; }
  unsigned send_valid(unsigned en) const { return (st == run && pend == 0) ? (en & ~sent) : 0; }
  // one clock edge with the cycle's inputs
  void step(unsigned k, unsigned en, bool enter_valid, bool full, bool leave_ready, unsigned send_ready, unsigned recv,
            unsigned occ, unsigned left) {
    unsigned expect = 0;
    for (unsigned p = 0; p < nn; ++p)
      if (en >> (p ^ 1) & 1) expect |= 1u << p;
    unsigned mask = (1u << nn) - 1;
    unsigned sent_now = sent | (send_valid(en) & send_ready);
    bool leave = leave_valid() && leave_ready;
    bool all_recv = true;
    for (unsigned p = 0; p < nn; ++p)
      if ((expect >> p & 1) && cnt[p] == 0 && !(recv >> p & 1)) all_recv = false;
    bool adv = st == run && ((sent_now | ~en) & mask) == mask && all_recv;
    for (unsigned p = 0; p < nn; ++p) cnt[p] += (recv >> p & 1) - ((adv && (expect >> p & 1)) ? 1 : 0);
    unsigned snap = occ & ~left;
    pend &= ~left;
    switch (st) {
      case idle:
        if (enter_valid) {
          ph = 0;
          tot = full ? 2 * k : k;
          sent = 0;
          pend = snap;
          st = tot == 0 ? done : run;
        }
        break;
      case run:
        sent = sent_now;
        if (adv) {
          ++ph;
          sent = 0;
          pend = snap;
          if (ph == tot) st = done;
        }
        break;
      case done:
        if (leave) st = idle;
        break;
    }
  }
};

// ------------------------------------------------------------------ one unit: hpcnet::tb::PhaseUnit
using hpcnet::tb::make_phase_unit;
using UnitIf = hpcnet::tb::PhaseUnit;

// ------------------------------------------------------------------ the network around the units
struct Config {
  unsigned barriers = 12;
  double p_inject = 0.03;      // data packet per node and cycle (when a slot is free)
  unsigned slots = 6;          // slots used per router (<= kSlots)
  unsigned max_residence = 12; // cycles a packet may stay in a router after it could leave
  unsigned max_delay = 5;      // link delay 1..max_delay (FIFO order kept)
  double p_send_ready = 0.6, p_leave_ready = 0.7, p_eject = 0.6;
  unsigned max_gap = 30;       // cycles between a leave and the next enter (0 .. max_gap; often 0)
  uint64_t max_cycles = 400000;
};

struct Item {
  bool barrier = false;
  uint64_t pkt = 0;  // checker id
  uint64_t at = 0;   // cycle it reaches the far end
};
struct Link {
  std::deque<Item> q;
  uint64_t last_at = 0;
  void push(Item it, uint64_t now, unsigned delay) {
    it.at = std::max<uint64_t>(now + delay, last_at + 1);
    last_at = it.at;
    q.push_back(it);
  }
};
struct Slot {
  bool occ = false;
  uint64_t pkt = 0, ready_at = 0;
};
struct Pkt {
  unsigned src, dst, hops = 0;
  uint64_t id;
};

struct Lemma2Rec {
  uint64_t pkt;
  unsigned router, hops;
  uint64_t g;  // phases the router had completed since reset when the packet arrived
};

class PhaseNet {
 public:
  PhaseNet(const Topo& t, const Config& c, uint64_t seed) : topo_(t), cfg_(c), rng_(seed), check_(t.nodes()) {
    const unsigned N = t.nodes();
    for (unsigned n = 0; n < N; ++n) {
      units_.push_back(make_phase_unit(t.dims));
      ref_.emplace_back();
      ref_.back().nn = t.nn();
    }
    links_.resize(N * t.nn());
    slots_.assign(N, std::vector<Slot>(cfg_.slots));
    kinds_.resize(cfg_.barriers);
    for (auto& k : kinds_) k = (rng_() % 2) ? BarrierKind::full : BarrierKind::half;
    node_.resize(N);
    for (auto& nd : node_) nd.next_enter = rng_() % (cfg_.max_gap + 1);
    for (auto& u : units_) u->reset();
    base_.assign(cfg_.barriers + 1, 0);
    for (unsigned b = 0; b < cfg_.barriers; ++b) base_[b + 1] = base_[b] + total(b);
  }

  unsigned total(unsigned b) const { return kinds_[b] == BarrierKind::full ? 2 * topo_.diameter() : topo_.diameter(); }

  void run() {
    const unsigned N = topo_.nodes(), NN = topo_.nn(), K = topo_.diameter();
    std::uniform_real_distribution<double> u01(0, 1);
    auto chance = [&](double p) { return u01(rng_) < p; };
    while (true) {
      bool all_done = true;
      for (auto& nd : node_) all_done &= nd.left == cfg_.barriers;
      if (all_done) break;
      REQUIRE(now_ < cfg_.max_cycles);
      std::vector<unsigned> recv(N, 0), occ(N, 0), left(N, 0), send_ready(N, 0);
      std::vector<std::vector<std::pair<unsigned, Slot>>> incoming(N);  // slot index, new content
      std::vector<unsigned> reserved(N, 0);
      // arrivals: at most one item per link and cycle
      for (unsigned n = 0; n < N; ++n) {
        for (unsigned p = 0; p < NN; ++p) {
          int m = topo_.neighbour(n, p);
          if (m < 0) continue;
          Link& l = links_[n * NN + p];
          if (l.q.empty() || l.q.front().at > now_) continue;
          Item it = l.q.front();
          if (it.barrier) {
            recv[unsigned(m)] |= 1u << p;
            l.q.pop_front();
            continue;
          }
          int s = free_slot(unsigned(m), reserved[unsigned(m)]);
          if (s < 0) continue;  // no room: the link waits (and the barrier packets behind it)
          reserved[unsigned(m)] |= 1u << s;
          Pkt& pk = pkts_[it.pkt];
          ++pk.hops;
          lemma2_.push_back({it.pkt, unsigned(m), pk.hops, g(unsigned(m))});
          incoming[unsigned(m)].push_back({unsigned(s), Slot{true, it.pkt, now_ + 1 + rng_() % (cfg_.max_residence + 1)}});
          l.q.pop_front();
        }
      }
      // departures (any ready packet, in any order: DAMQ; adaptive choice among productive outputs)
      std::vector<std::vector<std::pair<unsigned, uint64_t>>> depart(N);  // output (NN: ejection), pkt
      for (unsigned n = 0; n < N; ++n) {
        for (unsigned s = 0; s < cfg_.slots; ++s) {
          Slot& sl = slots_[n][s];
          if (!sl.occ) continue;
          occ[n] |= 1u << s;
          if (sl.ready_at > now_ || !chance(0.5)) continue;
          Pkt& pk = pkts_[sl.pkt];
          if (pk.dst == n) {
            if (!chance(cfg_.p_eject)) continue;
            depart[n].push_back({NN, sl.pkt});
          } else {
            auto prod = topo_.productive(n, pk.dst);
            REQUIRE(!prod.empty());
            depart[n].push_back({prod[rng_() % prod.size()], sl.pkt});
          }
          left[n] |= 1u << s;
        }
      }
      // injection: a new packet into a free slot (not one reserved by an arrival)
      std::vector<std::pair<unsigned, Slot>> injected(N, {~0u, Slot{}});
      for (unsigned n = 0; n < N; ++n) {
        if (!chance(cfg_.p_inject)) continue;
        int s = free_slot(n, reserved[n]);
        if (s < 0) continue;
        reserved[n] |= 1u << s;
        unsigned dst = unsigned(rng_() % N);
        Pkt pk{n, dst, 0, check_.sent(n, dst, now_)};
        REQUIRE(pk.id == pkts_.size());
        pkts_.push_back(pk);
        sent_.push_back(now_);
        injected[n] = {unsigned(s), Slot{true, pk.id, now_ + 1 + rng_() % (cfg_.max_residence + 1)}};
      }
      // the units' inputs; evaluate; compare with the references
      for (unsigned n = 0; n < N; ++n) {
        Node& nd = node_[n];
        bool ev = nd.entered == nd.left && nd.entered < cfg_.barriers && now_ >= nd.next_enter;
        bool full = ev && kinds_[nd.entered] == BarrierKind::full;
        bool lr = chance(cfg_.p_leave_ready);
        for (unsigned p = 0; p < NN; ++p)
          if (chance(cfg_.p_send_ready)) send_ready[n] |= 1u << p;
        nd.in = {ev, full, lr};
        units_[n]->set(K, topo_.port_en(n), ev, full, lr, send_ready[n], recv[n], occ[n], left[n]);
        units_[n]->settle();
      }
      for (unsigned n = 0; n < N; ++n) compare(n);
      // handshakes
      for (unsigned n = 0; n < N; ++n) {
        Node& nd = node_[n];
        UnitIf& u = *units_[n];
        if (nd.in.ev && u.enter_ready()) {
          check_.enter(n, now_, kinds_[nd.entered]);
          enter_log_.push_back({n, now_});
          nd.sends.assign(NN, 0);
          ++nd.entered;
        }
        if (nd.in.lr && u.leave_valid()) {
          const unsigned b = nd.left;
          INFO(topo_.name() << ": node " << n << " leaves barrier " << b << " in cycle " << now_);
          REQUIRE(u.phase() == total(b));
          for (unsigned p = 0; p < NN; ++p) REQUIRE(nd.sends[p] == ((topo_.port_en(n) >> p & 1) ? total(b) : 0u));
          if (kinds_[b] == BarrierKind::full)  // every unit has done the half barrier's K phases of b
            for (unsigned v = 0; v < N; ++v) REQUIRE(g(v) >= base_[b] + K);
          check_.leave(n, now_);
          nd.done += total(b);
          ++nd.left;
          nd.next_enter = now_ + 1 + ((rng_() % 3 == 0) ? 0 : rng_() % (cfg_.max_gap + 1));
        }
        unsigned sv = u.send_valid() & send_ready[n];
        bool bar_first = chance(0.5);  // order against data leaving on the same link in this cycle
        auto push_bar = [&] {
          for (unsigned p = 0; p < NN; ++p)
            if (sv >> p & 1) {
              links_[n * NN + p].push(Item{true, 0, 0}, now_, delay());
              ++nd.sends[p];
            }
        };
        if (bar_first) push_bar();
        for (auto [o, id] : depart[n]) {
          if (o == NN) {
            check_.arrived(id, now_);
            REQUIRE(pkts_[id].hops == topo_.distance(pkts_[id].src, n));
          } else {
            links_[n * NN + o].push(Item{false, id, 0}, now_, delay());
          }
        }
        if (!bar_first) push_bar();
      }
      // router state and the clock edge
      for (unsigned n = 0; n < N; ++n) {
        for (unsigned s = 0; s < cfg_.slots; ++s)
          if (left[n] >> s & 1) slots_[n][s].occ = false;
        for (auto& [s, sl] : incoming[n]) slots_[n][s] = sl;
        if (injected[n].first != ~0u) slots_[n][injected[n].first] = injected[n].second;
        ref_[n].step(K, topo_.port_en(n), node_[n].in.ev, node_[n].in.full, node_[n].in.lr, send_ready[n], recv[n],
                     occ[n], left[n]);
        units_[n]->edge();
      }
      ++now_;
      // Lemma 1: neighbours' completed phases differ by at most 1
      for (unsigned n = 0; n < N; ++n)
        for (unsigned p = 0; p < NN; ++p) {
          int m = topo_.neighbour(n, p);
          if (m < 0) continue;
          uint64_t a = g(n), b = g(unsigned(m));
          INFO(topo_.name() << ": cycle " << now_ << " node " << n << " at " << a << " phases, neighbour " << m << " at " << b);
          REQUIRE((a > b ? a - b : b - a) <= 1);
        }
    }
    finish();
  }

  uint64_t cycles() const { return now_; }
  size_t packets() const { return pkts_.size(); }

 private:
  struct In {
    bool ev = false, full = false, lr = false;
  };
  struct Node {
    unsigned entered = 0, left = 0;
    uint64_t next_enter = 0, done = 0;  // done: phases of the barriers left
    std::vector<unsigned> sends;
    In in;
  };

  unsigned delay() { return 1 + unsigned(rng_() % cfg_.max_delay); }
  int free_slot(unsigned n, unsigned reserved) {
    std::vector<unsigned> f;
    for (unsigned s = 0; s < cfg_.slots; ++s)
      if (!slots_[n][s].occ && !(reserved >> s & 1)) f.push_back(s);
    return f.empty() ? -1 : int(f[rng_() % f.size()]);
  }
  // phases node n has completed since reset (the unit's phase_o while in a barrier)
  uint64_t g(unsigned n) { return node_[n].done + (units_[n]->busy() ? units_[n]->phase() : 0); }

  void compare(unsigned n) {
    UnitIf& u = *units_[n];
    const PhaseRef& r = ref_[n];
    INFO(topo_.name() << ": node " << n << " cycle " << now_);
    REQUIRE(u.enter_ready() == r.enter_ready());
    REQUIRE(u.leave_valid() == r.leave_valid());
    REQUIRE(u.send_valid() == r.send_valid(topo_.port_en(n)));
    REQUIRE(u.busy() == (r.st != PhaseRef::idle));
    REQUIRE(u.phase() == r.ph);
  }

  void finish() {
    // every barrier packet was taken (links empty of barrier packets)
    for (auto& l : links_)
      for (auto& it : l.q) REQUIRE(!it.barrier);
    std::string rep = check_.report();
    INFO(rep);
    REQUIRE(rep.empty());
    // Lemma 2: a packet sent before its sender entered barrier b reaches its n-th router before
    // that router completes phase n-1 of b (at most n-1 phases of b done at the arrival)
    unsigned checked = 0;
    for (const auto& r : lemma2_) {
      const Pkt& pk = pkts_[r.pkt];
      const auto& e = enters_of(pk.src);
      auto it = std::upper_bound(e.begin(), e.end(), sent_cycle(r.pkt));
      if (it == e.end()) continue;
      size_t b = size_t(it - e.begin());
      INFO(topo_.name() << ": packet " << r.pkt << " " << pk.src << " -> " << pk.dst << " hop " << r.hops << " at router "
                        << r.router << ": " << r.g << " phases done, barrier " << b << " starts at " << base_[b]);
      REQUIRE(r.g <= base_[b] + r.hops - 1);
      ++checked;
    }
    lemma2_checked_ = checked;
  }
  // the checker keeps the logs; these two small indexes are rebuilt from what the test saw
  const std::vector<uint64_t>& enters_of(unsigned n) {
    if (enters_.empty()) {
      enters_.resize(topo_.nodes());
      for (const auto& e : enter_log_) enters_[e.first].push_back(e.second);
    }
    return enters_[n];
  }
  uint64_t sent_cycle(uint64_t id) const { return sent_[id]; }

 public:
  unsigned lemma2_checked_ = 0;  // arrivals the Lemma 2 check applied to

 private:
  Topo topo_;
  Config cfg_;
  std::mt19937_64 rng_;
  BarrierCheck check_;
  std::vector<std::unique_ptr<UnitIf>> units_;
  std::vector<PhaseRef> ref_;
  std::vector<Link> links_;
  std::vector<std::vector<Slot>> slots_;
  std::vector<BarrierKind> kinds_;
  std::vector<uint64_t> base_;  // phases of the barriers before b
  std::vector<Node> node_;
  std::vector<Pkt> pkts_;
  std::vector<Lemma2Rec> lemma2_;
  std::vector<std::pair<unsigned, uint64_t>> enter_log_;  // (node, cycle) of every enter
  std::vector<std::vector<uint64_t>> enters_;            // per node, built from it at the end
  std::vector<uint64_t> sent_;                           // send cycle per packet id
  uint64_t now_ = 0;
};

}  // namespace

namespace {

Topo mesh(unsigned k0, unsigned k1, unsigned k2 = 1) { return Topo{{k0, k1, k2}, k2 > 1 ? 3u : 2u, false}; }
Topo torus(unsigned k0, unsigned k1, unsigned k2 = 1) { return Topo{{k0, k1, k2}, k2 > 1 ? 3u : 2u, true}; }

void random_run(const Topo& t, const Config& c, const char* name) {
  const uint64_t seed = hpcnet::tb::seed(name);
  PhaseNet net(t, c, seed);
  net.run();
  std::printf("%s: %llu cycles, %zu data packets, %u hops under Lemma 2\n", t.name().c_str(),
              static_cast<unsigned long long>(net.cycles()), net.packets(), net.lemma2_checked_);
  REQUIRE(net.packets() > 0);
  REQUIRE(net.lemma2_checked_ > 0);
}

// Idle network, every unit entering in the same cycle, links of exactly `hop` cycles (a barrier
// packet sent in cycle c is on the neighbour's recv_i in cycle c + hop), send and leave always
// ready: every unit leaves each barrier exactly tot * (hop + lat_inc) + lat_ej cycles after its
// enter, lat_inc = lat_ej = 1, and enters the next one in the cycle after its leave.
void idle_timing(const Topo& t, unsigned hop, const std::vector<BarrierKind>& kinds) {
  const unsigned N = t.nodes(), NN = t.nn(), K = t.diameter();
  std::vector<std::unique_ptr<UnitIf>> u;
  for (unsigned n = 0; n < N; ++n) {
    u.push_back(make_phase_unit(t.dims));
    u.back()->reset();
  }
  std::vector<std::deque<uint64_t>> link(N * NN);  // arrival cycles
  std::vector<unsigned> b(N, 0);
  std::vector<uint64_t> enter(N, 0);
  std::vector<bool> in(N, false);
  uint64_t first_enter = 5;
  for (uint64_t now = 0; now < 100000; ++now) {
    bool done = true;
    for (unsigned n = 0; n < N; ++n) done &= b[n] == kinds.size();
    if (done) return;
    std::vector<unsigned> recv(N, 0);
    for (unsigned n = 0; n < N; ++n)
      for (unsigned p = 0; p < NN; ++p) {
        auto& q = link[n * NN + p];
        if (!q.empty() && q.front() == now) {
          recv[unsigned(t.neighbour(n, p))] |= 1u << p;
          q.pop_front();
        }
        REQUIRE((q.empty() || q.front() > now));
      }
    for (unsigned n = 0; n < N; ++n) {
      bool ev = !in[n] && b[n] < kinds.size() && now >= first_enter;
      u[n]->set(K, t.port_en(n), ev, ev && kinds[b[n]] == BarrierKind::full, true, (1u << NN) - 1, recv[n], 0, 0);
      u[n]->settle();
      if (ev && u[n]->enter_ready()) {
        if (b[n] > 0) REQUIRE(now == enter[n] + 1);  // back to back: the cycle after the leave
        enter[n] = now;
        in[n] = true;
        if (n > 0) REQUIRE(enter[n] == enter[0]);
      }
      if (in[n] && u[n]->leave_valid()) {
        unsigned tot = kinds[b[n]] == BarrierKind::full ? 2 * K : K;
        INFO(t.name() << ": node " << n << " barrier " << b[n] << " (" << tot << " phases, hop " << hop << ")");
        REQUIRE(now - enter[n] == uint64_t(tot) * (hop + 1) + 1);
        enter[n] = now;  // the leave cycle: the next enter is one cycle later
        in[n] = false;
        ++b[n];
      }
      unsigned sv = u[n]->send_valid();
      for (unsigned p = 0; p < NN; ++p)
        if (sv >> p & 1) link[n * NN + p].push_back(now + hop);
    }
    for (auto& x : u) x->edge();
  }
  FAIL("idle barriers did not finish");
}

}  // namespace
