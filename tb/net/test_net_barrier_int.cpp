// test_net_barrier_int: the multiphase barrier inside the Verilated router networks (net_mesh with
// Barrier = 1: one rtr_phase per router fed with the router's packet slots, slot_occ_o and
// slot_left_o, and a registered one-bit barrier sideband per link; docs/barrier.md, what the router
// integration has to do). The same node protocol and checks as the prototype
// (test_net_barrier_proto.cpp), with the units and the sideband in the RTL instead of C++: a node
// calls a barrier, enters (bar_enter_valid_i) once every packet it created before the call has
// been taken by its injection port, and leaves when bar_leave_valid_o is taken. BarrierCheck checks
// every barrier (sent = creation, arrived = the tail's ejection), Lemma 1 is checked between
// neighbours on bar_phase_o every cycle, the units' and routers' assertions are on.
// The Vnet_bar_* models are driven by NetSim<V> on the spec of the matching Vnet_mesh_/Vnet_torus_
// model (same parameters but Barrier).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vnet_bar_4x4_adbr.h"
#include "Vnet_bar_4x4_adbr___024root.h"
#include "Vnet_bar_4x4_dorvct___024root.h"
#include "Vnet_bar_4x4_dorwh___024root.h"
#include "Vnet_bar_4x4_torus_dorvct___024root.h"
#include "Vnet_bar_4x4x4_adbr.h"
#include "Vnet_bar_4x4x4_adbr___024root.h"
#include "Vnet_bar_4x4_dorvct.h"
#include "Vnet_bar_4x4_dorwh.h"
#include "Vnet_bar_4x4_torus_dorvct.h"
#include "sim/net/net_barrier_check.hpp"
#include "sim/net/net_sim.hpp"
#include "hpcnet/tb/seed.hpp"

using namespace hpcnet::sim;
namespace np = hpcnet::sim::netport;

namespace {

NetSpec spec_of(const std::string& ref, const std::string& model, unsigned buf) {
  for (const NetModelInfo& m : net_models()) {
    if (m.spec.model == ref) {
      NetSpec s = net_spec(m, buf);
      s.model = model;
      return s;
    }
  }
  FAIL("no model " << ref);
  return {};
}

template <class V>
class Bar {
 public:
  Bar(const std::string& ref, const std::string& model, unsigned buf = 2)
      : net_(std::make_unique<NetSim<V>>(spec_of(ref, model, buf), TraceWindow::off())),
        shape_(net_->spec().shape),
        n_(shape_.nodes()),
        check_(n_) {
    nn_ = 2 * shape_.dims;
    NetRunConfig rc;
    rc.traffic.load = 0;
    rc.watchdog = 20000;
    net_->engine().record_deliveries(true);
    net_->start(rc);
    nodes_.resize(n_);
    seq_.assign(n_, 0);
    for (unsigned i = 0; i < n_; ++i) en_.push_back(port_en(i));
    k_ = shape_.diameter();
    dut().bar_k_i = static_cast<np::bare_t<decltype(dut().bar_k_i)>>(k_);
  }

  V& dut() { return net_->harness().dut(); }
  unsigned nodes() const { return n_; }
  unsigned k() const { return k_; }
  uint64_t now() { return net_->engine().now(); }
  NetEngine& engine() { return net_->engine(); }
  BarrierCheck& check() { return check_; }

  void data(unsigned s, unsigned d) {
    engine().enqueue(s, d);
    data_id_[key(s, seq_[s]++)] = check_.sent(s, d, now());
    ++nodes_[s].created;
  }
  void call(unsigned s, BarrierKind kind) {
    Node& nd = nodes_[s];
    REQUIRE(!nd.called);
    nd.called = true;
    nd.kind = kind;
    nd.point = nd.created;
    check_.enter(s, now(), kind);
  }
  bool in_barrier(unsigned s) const { return nodes_[s].called; }

  // One cycle: the nodes' enter and leave decisions (leave taken with probability p_leave) on the
  // model's ports, the network's edge. Returns the nodes that left in this cycle.
  std::vector<unsigned> cycle(double p_leave, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u01(0, 1);
    const uint64_t c = now();
    V& m = dut();
    std::vector<unsigned> left_now;
    for (unsigned i = 0; i < n_; ++i) {
      Node& nd = nodes_[i];
      const uint64_t injected = nd.created - engine().queue_length(i);
      const bool ev = nd.called && !nd.entered && injected >= nd.point;
      const bool lr = u01(rng) < p_leave;
      np::set_bit(m.bar_enter_valid_i, i, ev);
      np::set_bit(m.bar_enter_full_i, i, nd.kind == BarrierKind::full);
      np::set_bit(m.bar_leave_ready_i, i, lr);
      // the handshakes of this cycle (the units' outputs are registers: the state before the edge)
      if (ev && np::field(m.bar_enter_ready_o, i, 1)) {
        nd.entered = true;
        nd.enter_cycle = c;
      }
      if (lr && np::field(m.bar_leave_valid_o, i, 1)) {
        const unsigned ph = unsigned(np::field(m.bar_phase_o, 9 * i, 9));
        REQUIRE(ph == (nd.kind == BarrierKind::full ? 2 * k_ : k_));
        check_.leave(i, c);
        nd.done += ph;
        nd.called = nd.entered = false;
        nd.last_time = c - nd.enter_cycle;
        left_now.push_back(i);
      }
    }
    net_->advance();
    for (unsigned i = 0; i < n_; ++i) {
      np::set_bit(m.bar_enter_valid_i, i, false);
      np::set_bit(m.bar_leave_ready_i, i, false);
    }
    const auto& log = engine().deliveries();
    for (; seen_ < log.size(); ++seen_) {
      const Delivery& d = log[seen_];
      check_.arrived(data_id_.at(key(d.tag.src, d.tag.seq)), d.delivered);
    }
    // Lemma 1 between neighbours (the state after the edge)
    for (unsigned i = 0; i < n_; ++i)
      for (unsigned p = 0; p < nn_; ++p) {
        if (!(en_[i] >> p & 1)) continue;
        const uint64_t a = g(i), b = g(neighbour(i, p));
        INFO("cycle " << c << " node " << i << " " << a << " phases, neighbour " << neighbour(i, p) << " " << b);
        REQUIRE((a > b ? a - b : b - a) <= 1);
      }
    return left_now;
  }
  uint64_t last_time(unsigned s) const { return nodes_[s].last_time; }
  void drain() { net_->run_until_drained(1000000); }

 private:
  struct Node {
    bool called = false, entered = false;
    BarrierKind kind = BarrierKind::half;
    uint64_t created = 0, point = 0, enter_cycle = 0, done = 0, last_time = 0;
  };
  static uint64_t key(uint32_t s, uint32_t q) { return uint64_t(s) << 32 | q; }
  int neighbour_or_none(unsigned i, unsigned p) const {
    const unsigned d = p / 2;
    const int kd = int(shape_.k[d]);
    if (kd == 1) return -1;
    auto c = shape_.coords(i);
    c[d] += (p % 2 == 0) ? 1 : -1;
    if (c[d] < 0 || c[d] >= kd) {
      if (!shape_.torus) return -1;
      c[d] = (c[d] + kd) % kd;
    }
    return int(shape_.id(c));
  }
  unsigned neighbour(unsigned i, unsigned p) const { return unsigned(neighbour_or_none(i, p)); }
  unsigned port_en(unsigned i) const {
    unsigned m = 0;
    for (unsigned p = 0; p < nn_; ++p)
      if (neighbour_or_none(i, p) >= 0) m |= 1u << p;
    return m;
  }
  uint64_t g(unsigned i) {
    V& m = dut();
    return nodes_[i].done + (np::field(m.bar_busy_o, i, 1) ? np::field(m.bar_phase_o, 9 * i, 9) : 0);
  }

  std::unique_ptr<NetSim<V>> net_;
  MeshShape shape_;
  unsigned n_, nn_ = 4, k_ = 0;
  BarrierCheck check_;
  std::vector<Node> nodes_;
  std::vector<unsigned> en_;
  std::vector<uint32_t> seq_;
  std::unordered_map<uint64_t, uint64_t> data_id_;
  size_t seen_ = 0;
};

// Idle network: every node calls in the same cycle, leave always taken: enter to leave 2K + 1
// (half) or 4K + 1 (full) for every node, back to back (docs/barrier.md, the cost model).
template <class V>
void idle(const std::string& ref, const std::string& model, unsigned buf = 2) {
  Bar<V> b(ref, model, buf);
  std::mt19937_64 rng(1);
  for (unsigned i = 0; i < 10; ++i) b.cycle(1.0, rng);
  for (BarrierKind kind : {BarrierKind::half, BarrierKind::full, BarrierKind::half, BarrierKind::full}) {
    for (unsigned s = 0; s < b.nodes(); ++s) b.call(s, kind);
    unsigned left = 0;
    const uint64_t tot = kind == BarrierKind::full ? 2 * b.k() : b.k();
    while (left < b.nodes()) {
      REQUIRE(b.now() < 100000);
      for (unsigned s : b.cycle(1.0, rng)) {
        INFO(model << " node " << s);
        REQUIRE(b.last_time(s) == 2 * tot + 1);
        ++left;
      }
    }
  }
  const std::string rep = b.check().report();
  INFO(rep);
  REQUIRE(rep.empty());
  std::printf("%s idle: half %u cycles, full %u (K = %u)\n", model.c_str(), 2 * b.k() + 1, 4 * b.k() + 1, b.k());
}

// Data between random distinct nodes at `load` packets per node and cycle (half of the calls
// preceded by a data packet to every other node); `barriers` half and full barriers at random
// times, often back to back; leave taken with probability 0.7 per cycle.
template <class V>
void guarantees(const std::string& ref, const std::string& model, const char* name, unsigned barriers, double load,
                unsigned buf = 2) {
  Bar<V> pr(ref, model, buf);
  std::mt19937_64 rng(hpcnet::tb::seed(name));
  std::uniform_real_distribution<double> u01(0, 1);
  const unsigned n = pr.nodes();
  std::vector<BarrierKind> kinds(barriers);
  for (auto& k : kinds) k = rng() % 2 ? BarrierKind::full : BarrierKind::half;
  std::vector<unsigned> done(n, 0);
  std::vector<uint64_t> next_call(n);
  for (auto& c : next_call) c = rng() % 100;
  uint64_t data = 0, left = 0, tsum = 0, tmax = 0;
  while (true) {
    bool all = true;
    for (unsigned x : done) all &= x == barriers;
    if (all) break;
    REQUIRE(pr.now() < 2000000);
    for (unsigned s = 0; s < n; ++s) {
      if (u01(rng) < load) {
        unsigned d = unsigned(rng() % (n - 1));
        pr.data(s, d + (d >= s ? 1 : 0));
        ++data;
      }
      if (!pr.in_barrier(s) && done[s] < barriers && pr.now() >= next_call[s]) {
        if (rng() % 2)
          for (unsigned i = 1; i < n; ++i) {
            pr.data(s, (s + i) % n);
            ++data;
          }
        pr.call(s, kinds[done[s]]);
      }
    }
    for (unsigned s : pr.cycle(0.7, rng)) {
      ++done[s];
      ++left;
      tsum += pr.last_time(s);
      tmax = std::max(tmax, pr.last_time(s));
      next_call[s] = pr.now() + (rng() % 2 ? 0 : rng() % 150);
    }
  }
  pr.drain();
  const std::string rep = pr.check().report();
  INFO(rep);
  REQUIRE(rep.empty());
  std::printf("%s at %.3f packets/node/cycle: %llu cycles, %llu data packets, %llu barriers left, enter to leave: mean %.1f, max %llu\n",
              model.c_str(), load, static_cast<unsigned long long>(pr.now()), static_cast<unsigned long long>(data),
              static_cast<unsigned long long>(left), double(tsum) / double(left), static_cast<unsigned long long>(tmax));
}

}  // namespace

TEST_CASE("barrier in the router network: idle barriers take 2K + 1 and 4K + 1 cycles", "[barrier_int]") {
  idle<Vnet_bar_4x4_adbr>("Vnet_mesh_4x4_adbr", "Vnet_bar_4x4_adbr");
  idle<Vnet_bar_4x4_dorvct>("Vnet_mesh_4x4_dorvct", "Vnet_bar_4x4_dorvct");
  idle<Vnet_bar_4x4_dorwh>("Vnet_mesh_4x4_dorwh", "Vnet_bar_4x4_dorwh");
  idle<Vnet_bar_4x4_torus_dorvct>("Vnet_torus_4x4_dorvct", "Vnet_bar_4x4_torus_dorvct");
  idle<Vnet_bar_4x4x4_adbr>("Vnet_mesh_4x4x4_adbr", "Vnet_bar_4x4x4_adbr", 3);
}

TEST_CASE("barrier in the router network: ADBR 4x4 mesh keeps the guarantees under background traffic", "[barrier_int]") {
  guarantees<Vnet_bar_4x4_adbr>("Vnet_mesh_4x4_adbr", "Vnet_bar_4x4_adbr", "barrier int 4x4 adbr", 40, 0.06);
}

TEST_CASE("barrier in the router network: DOR-VCT 4x4 mesh keeps the guarantees under background traffic", "[barrier_int]") {
  guarantees<Vnet_bar_4x4_dorvct>("Vnet_mesh_4x4_dorvct", "Vnet_bar_4x4_dorvct", "barrier int 4x4 dorvct", 40, 0.06);
}

TEST_CASE("barrier in the router network: DOR-WH 4x4 mesh keeps the guarantees under background traffic", "[barrier_int]") {
  guarantees<Vnet_bar_4x4_dorwh>("Vnet_mesh_4x4_dorwh", "Vnet_bar_4x4_dorwh", "barrier int 4x4 dorwh", 40, 0.05);
}

TEST_CASE("barrier in the router network: ADBR 4x4x4 mesh keeps the guarantees under background traffic", "[barrier_int]") {
  guarantees<Vnet_bar_4x4x4_adbr>("Vnet_mesh_4x4x4_adbr", "Vnet_bar_4x4x4_adbr", "barrier int 4x4x4 adbr", 10, 0.04, 3);
}

TEST_CASE("barrier in the router network: 4x4 torus keeps the guarantees under background traffic", "[barrier_int]") {
  guarantees<Vnet_bar_4x4_torus_dorvct>("Vnet_torus_4x4_dorvct", "Vnet_bar_4x4_torus_dorvct", "barrier int 4x4 torus", 40, 0.06);
}

namespace {
// Every node but node 0 queues a burst of `burst` packets to node 0 (a hotspot), then every node
// calls in the same cycle; the next round starts when every node has left. The drains, not the
// phases, decide when node 0 leaves (the prototype's test, on the RTL units).
template <class V>
void hotspot(const std::string& ref, const std::string& model, unsigned rounds, unsigned burst) {
  Bar<V> pr(ref, model);
  std::mt19937_64 rng(hpcnet::tb::seed("barrier int hotspot"));
  const unsigned n = pr.nodes();
  uint64_t worst = 0, sum = 0, count = 0;
  for (unsigned r = 0; r < rounds; ++r) {
    for (unsigned s = 1; s < n; ++s)
      for (unsigned i = 0; i < burst; ++i) pr.data(s, 0);
    const uint64_t c0 = pr.now();
    const BarrierKind kind = r % 2 ? BarrierKind::full : BarrierKind::half;
    for (unsigned s = 0; s < n; ++s) pr.call(s, kind);
    unsigned left = 0;
    while (left < n) {
      REQUIRE(pr.now() < c0 + 100000);
      for ([[maybe_unused]] unsigned s : pr.cycle(1.0, rng)) {
        ++left;
        const uint64_t t = pr.now() - 1 - c0;  // call to leave
        worst = std::max(worst, t);
        sum += t;
        ++count;
      }
    }
  }
  pr.drain();
  const std::string rep = pr.check().report();
  INFO(rep);
  REQUIRE(rep.empty());
  std::printf("%s: bursts of %u packets to node 0, then every node calls: call to leave mean %.1f, max %llu cycles\n",
              model.c_str(), burst, double(sum) / double(count), static_cast<unsigned long long>(worst));
}

// Uniform background traffic at `load` packets per node and cycle (never stopping); after a
// warm-up every node calls a half barrier in the same cycle, repeatedly.
template <class V>
void under_load(const std::string& ref, const std::string& model, double load, unsigned rounds) {
  Bar<V> pr(ref, model);
  std::mt19937_64 rng(hpcnet::tb::seed("barrier int under load"));
  std::uniform_real_distribution<double> u01(0, 1);
  const unsigned n = pr.nodes();
  auto background = [&] {
    for (unsigned s = 0; s < n; ++s)
      if (u01(rng) < load) {
        unsigned d = unsigned(rng() % (n - 1));
        pr.data(s, d + (d >= s ? 1 : 0));
      }
  };
  for (unsigned i = 0; i < 2000; ++i) {
    background();
    pr.cycle(1.0, rng);
  }
  uint64_t sum_call = 0, sum_enter = 0, max_call = 0, count = 0;
  for (unsigned r = 0; r < rounds; ++r) {
    const uint64_t c0 = pr.now();
    for (unsigned s = 0; s < n; ++s) pr.call(s, BarrierKind::half);
    unsigned left = 0;
    while (left < n) {
      REQUIRE(pr.now() < c0 + 200000);
      background();
      for (unsigned s : pr.cycle(1.0, rng)) {
        ++left;
        const uint64_t t = pr.now() - 1 - c0;
        sum_call += t;
        max_call = std::max(max_call, t);
        sum_enter += pr.last_time(s);
        ++count;
      }
    }
  }
  const std::string rep = pr.check().report();
  INFO(rep);
  REQUIRE(rep.empty());
  std::printf("%s, half barriers under uniform load %.3f packets/node/cycle: call to leave mean %.1f (max %llu), enter to leave mean %.1f cycles; idle %u\n",
              model.c_str(), load, double(sum_call) / double(count), static_cast<unsigned long long>(max_call),
              double(sum_enter) / double(count), 2 * pr.k() + 1);
}
}  // namespace

TEST_CASE("barrier in the router network: bursts to a hotspot before a common call are delivered before the leaves", "[barrier_int]") {
  hotspot<Vnet_bar_4x4_adbr>("Vnet_mesh_4x4_adbr", "Vnet_bar_4x4_adbr", 10, 3);
  hotspot<Vnet_bar_4x4_dorvct>("Vnet_mesh_4x4_dorvct", "Vnet_bar_4x4_dorvct", 10, 3);
  hotspot<Vnet_bar_4x4_dorwh>("Vnet_mesh_4x4_dorwh", "Vnet_bar_4x4_dorwh", 10, 3);
  hotspot<Vnet_bar_4x4_torus_dorvct>("Vnet_torus_4x4_dorvct", "Vnet_bar_4x4_torus_dorvct", 10, 3);
}

TEST_CASE("barrier in the router network: half barrier time under uniform background load", "[barrier_int]") {
  for (double load : {0.01, 0.03, 0.05}) under_load<Vnet_bar_4x4_adbr>("Vnet_mesh_4x4_adbr", "Vnet_bar_4x4_adbr", load, 20);
}
