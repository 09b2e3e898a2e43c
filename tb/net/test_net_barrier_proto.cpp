// test_net_barrier_proto: a prototype of the multiphase barrier on the Verilated router networks,
// before the phase unit is inside rtr_router (docs/barrier.md, What the router integration has to
// do). One rtr_phase model per router (Vrtr_phase, Vrtr_phase_3d) beside the network (NetSim), fed
// each cycle with its router's DAMQ slots read from the routers' public state (the link-statistics
// probe: occ_q per input, injection included) and with the slots that left at the cycle's edge
// (occupied before the edge, free after it). Barrier packets travel on a C++ sideband with the
// timing proposed for the RTL (sent in cycle c, on the neighbour's recv_i in cycle c + 1, after
// every flit that left before). What the prototype checks on the real routers is the drain: that
// a snapshot of the DAMQ slots at each phase start is what the guarantees need under DAMQ
// overtaking and adaptive routing. Nodes queue data packets (scripted traffic: the test knows every
// packet's creation), call half and full barriers at random times and enter their unit once every
// packet they created before the call has been taken by the injection port; BarrierCheck checks
// every barrier (sent = creation, arrived = the tail's ejection; ejection ports always ready, so a
// tail is taken in the cycle after it left its slot and no ejection slot is needed), Lemma 1 is
// checked between neighbours every cycle. Also: the idle barrier time (2K + 1 by construction of
// the sideband) and the time under background load (the drain's cost).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "hpcnet/tb/rtr_phase_unit.hpp"
#include "sim/core/harness.hpp"
#include "sim/net/net_barrier_check.hpp"
#include "sim/net/net_linkstats.hpp"
#include "sim/net/net_sim.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"

using namespace hpcnet::sim;

namespace {

using UnitIf = hpcnet::tb::PhaseUnit;

class Proto {
 public:
  explicit Proto(const std::string& model) : net_(make_net(model)), shape_(net_->spec().shape), n_(shape_.nodes()), check_(n_) {
    nn_ = 2 * shape_.dims;
    ns_ = net_->spec().buf_max;
    REQUIRE((nn_ + 1) * ns_ <= 16);  // the units' Slots
    for (unsigned i = 0; i < n_; ++i) {
      unit_.push_back(hpcnet::tb::make_phase_unit(shape_.dims));
      unit_.back()->reset();
    }
    NetRunConfig rc;
    rc.traffic.load = 0;
    rc.watchdog = 20000;
    net_->engine().record_deliveries(true);
    net_->enable_link_stats();
    net_->start(rc);
    nodes_.resize(n_);
    recv_.assign(n_, 0);
    seq_.assign(n_, 0);
    for (unsigned i = 0; i < n_; ++i) en_.push_back(port_en(i));
    k_ = shape_.diameter();
  }

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
  // node s calls a barrier now
  void call(unsigned s, BarrierKind kind) {
    Node& nd = nodes_[s];
    REQUIRE(!nd.called);
    nd.called = true;
    nd.kind = kind;
    nd.point = nd.created;
    check_.enter(s, now(), kind);
  }
  bool in_barrier(unsigned s) const { return nodes_[s].called; }
  // one cycle: the node's decisions (leave taken with probability p_leave), the network, the units
  // Returns the nodes that left in this cycle.
  std::vector<unsigned> cycle(double p_leave, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u01(0, 1);
    const uint64_t c = now();
    // the units' view of the slots during this cycle, and the nodes' enter decisions (the queue as
    // it is during this cycle: a head taken at the last edge is in a slot now)
    std::vector<unsigned> occ(n_), ev(n_), lr(n_);
    for (unsigned i = 0; i < n_; ++i) {
      occ[i] = occupied(i);
      Node& nd = nodes_[i];
      const uint64_t injected = nd.created - engine().queue_length(i);
      ev[i] = nd.called && !nd.entered && injected >= nd.point;
      lr[i] = u01(rng) < p_leave;
    }
    net_->advance();
    const auto& log = engine().deliveries();
    for (; seen_ < log.size(); ++seen_) {
      const Delivery& d = log[seen_];
      check_.arrived(data_id_.at(key(d.tag.src, d.tag.seq)), d.delivered);
    }
    std::vector<unsigned> next_recv(n_, 0), left_now;
    for (unsigned i = 0; i < n_; ++i) {
      const unsigned left = occ[i] & ~occupied(i);  // left at this cycle's edge
      Node& nd = nodes_[i];
      UnitIf& u = *unit_[i];
      // the sideband takes a barrier packet in any cycle: send_ready on every output
      u.set(k_, en_[i], ev[i], nd.kind == BarrierKind::full, lr[i], (1u << nn_) - 1, recv_[i], occ[i], left);
      u.settle();
      if (ev[i] && u.enter_ready()) {
        nd.entered = true;
        nd.enter_cycle = c;
      }
      if (lr[i] && u.leave_valid()) {
        REQUIRE(u.phase() == (nd.kind == BarrierKind::full ? 2 * k_ : k_));
        check_.leave(i, c);
        nd.done += u.phase();
        nd.called = nd.entered = false;
        nd.last_time = c - nd.enter_cycle;
        left_now.push_back(i);
      }
      const unsigned sv = u.send_valid();
      for (unsigned p = 0; p < nn_; ++p)
        if (sv >> p & 1) next_recv[neighbour(i, p)] |= 1u << p;
    }
    for (auto& u : unit_) u->edge();
    recv_ = next_recv;
    // Lemma 1 between neighbours
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
  unsigned occupied(unsigned i) {
    const LinkProbe& pr = *net_->link_probe();
    unsigned m = 0;
    for (unsigned p = 0; p <= nn_; ++p) {
      const LinkProbe::Input& in = pr.input(i, p);
      unsigned slots = in.occ & ((1u << ns_) - 1);
      if (net_->spec().mode == NetMode::dor_wh) {
        // A FIFO of BufPkts x PktFlits flits holding whole packets back to back from entry 0: the
        // packet at entries [j*P, j*P + P) is ring slot j, from its head's write to its tail's
        // read, whether or not its other flits are in the FIFO at the moment (a packet being
        // forwarded in cut-through may have none). Slots from rptr's to the one wptr = rptr + cnt
        // has reached.
        const unsigned P = net_->spec().pkt_flits, depth = ns_ * P;
        slots = 0;
        const unsigned first = in.rptr / P, count = (in.rptr + in.cnt + P - 1) / P - first;
        for (unsigned j = 0; j < count; ++j) slots |= 1u << ((first + j) % ns_);
        REQUIRE(in.cnt <= depth);
      }
      m |= slots << (p * ns_);
    }
    return m;
  }
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
  uint64_t g(unsigned i) { return nodes_[i].done + (unit_[i]->busy() ? unit_[i]->phase() : 0); }

  std::unique_ptr<NetSimBase> net_;
  MeshShape shape_;
  unsigned n_, nn_ = 4, ns_ = 2, k_ = 0;
  BarrierCheck check_;
  std::vector<std::unique_ptr<UnitIf>> unit_;
  std::vector<Node> nodes_;
  std::vector<unsigned> recv_, en_;
  std::vector<uint32_t> seq_;
  std::unordered_map<uint64_t, uint64_t> data_id_;
  size_t seen_ = 0;
};

struct LoadRun {
  uint64_t cycles = 0, data = 0, barriers = 0, time_sum = 0, time_max = 0;
};

// Data between random distinct nodes at `load` packets per node and cycle (half of the calls
// preceded by a data packet to every other node); `barriers` half and full barriers at random
// times, often back to back.
LoadRun random_run(const std::string& model, unsigned barriers, double load, uint64_t seed) {
  Proto pr(model);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  const unsigned n = pr.nodes();
  std::vector<BarrierKind> kinds(barriers);
  for (auto& k : kinds) k = rng() % 2 ? BarrierKind::full : BarrierKind::half;
  std::vector<unsigned> done(n, 0);
  std::vector<uint64_t> next_call(n);
  for (auto& c : next_call) c = rng() % 100;
  LoadRun r;
  while (true) {
    bool all = true;
    for (unsigned x : done) all &= x == barriers;
    if (all) break;
    REQUIRE(pr.now() < 2000000);
    for (unsigned s = 0; s < n; ++s) {
      if (u01(rng) < load) {
        unsigned d = unsigned(rng() % (n - 1));
        pr.data(s, d + (d >= s ? 1 : 0));
        ++r.data;
      }
      if (!pr.in_barrier(s) && done[s] < barriers && pr.now() >= next_call[s]) {
        if (rng() % 2)
          for (unsigned i = 1; i < n; ++i) {
            pr.data(s, (s + i) % n);
            ++r.data;
          }
        pr.call(s, kinds[done[s]]);
      }
    }
    for (unsigned s : pr.cycle(0.7, rng)) {
      ++done[s];
      ++r.barriers;
      r.time_sum += pr.last_time(s);
      r.time_max = std::max(r.time_max, pr.last_time(s));
      next_call[s] = pr.now() + (rng() % 2 ? 0 : rng() % 150);
    }
  }
  pr.drain();
  const std::string rep = pr.check().report();
  INFO(rep);
  REQUIRE(rep.empty());
  r.cycles = pr.now();
  return r;
}

void guarantees(const std::string& model, const char* name, unsigned barriers, double load) {
  const uint64_t seed = hpcnet::tb::seed(name);
  LoadRun r = random_run(model, barriers, load, seed);
  std::printf("%s at %.3f packets/node/cycle: %llu cycles, %llu data packets, %llu barriers left, enter to leave: mean %.1f, max %llu cycles\n",
              model.c_str(), load, static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.data),
              static_cast<unsigned long long>(r.barriers), double(r.time_sum) / double(r.barriers),
              static_cast<unsigned long long>(r.time_max));
}

// Idle network: every node calls in the same cycle, leave always taken: enter to leave 2K + 1
// (half) or 4K + 1 (full) for every node.
void idle(const std::string& model) {
  Proto pr(model);
  std::mt19937_64 rng(1);
  for (unsigned i = 0; i < 10; ++i) pr.cycle(1.0, rng);
  for (BarrierKind kind : {BarrierKind::half, BarrierKind::full, BarrierKind::half}) {
    for (unsigned s = 0; s < pr.nodes(); ++s) pr.call(s, kind);
    unsigned left = 0;
    const uint64_t tot = kind == BarrierKind::full ? 2 * pr.k() : pr.k();
    while (left < pr.nodes()) {
      REQUIRE(pr.now() < 100000);
      for (unsigned s : pr.cycle(1.0, rng)) {
        INFO(model << " node " << s);
        REQUIRE(pr.last_time(s) == 2 * tot + 1);
        ++left;
      }
    }
  }
  std::printf("%s idle: half %u cycles, full %u (K = %u)\n", model.c_str(), 2 * pr.k() + 1, 4 * pr.k() + 1, pr.k());
}

}  // namespace

TEST_CASE("barrier prototype on the router network: idle barriers take 2K + 1 and 4K + 1 cycles", "[barrier_proto]") {
  idle("Vnet_mesh_4x4_adbr");
  idle("Vnet_torus_4x4_dorvct");
  idle("Vnet_torus_4x4x4_dorvct");
}

TEST_CASE("barrier prototype on the router network: ADBR 4x4 mesh keeps the guarantees under background traffic", "[barrier_proto]") {
  guarantees("Vnet_mesh_4x4_adbr", "barrier proto 4x4 adbr", 40, 0.06);
}

TEST_CASE("barrier prototype on the router network: DOR-VCT 4x4 mesh keeps the guarantees under background traffic", "[barrier_proto]") {
  guarantees("Vnet_mesh_4x4_dorvct", "barrier proto 4x4 dorvct", 40, 0.06);
}

TEST_CASE("barrier prototype on the router network: DOR-WH 4x4 mesh with FIFO packets as ring slots keeps the guarantees", "[barrier_proto]") {
  guarantees("Vnet_mesh_4x4_dorwh", "barrier proto 4x4 dorwh", 40, 0.05);
}

TEST_CASE("barrier prototype on the router network: 4x4 and 4x4x4 tori keep the guarantees under background traffic", "[barrier_proto]") {
  guarantees("Vnet_torus_4x4_dorvct", "barrier proto 4x4 torus", 40, 0.06);
  guarantees("Vnet_torus_4x4x4_dorvct", "barrier proto 4x4x4 torus", 10, 0.04);
}

TEST_CASE("barrier prototype on the router network: ADBR 8x8 mesh near saturation keeps the guarantees", "[barrier_proto]") {
  guarantees("Vnet_mesh_8x8_adbr_b2", "barrier proto 8x8 adbr", 6, 0.05);
}


namespace {
// Every node but node 0 queues a burst of `burst` packets to node 0 (a hotspot), then every node
// calls in the same cycle; the next round starts when every node has left. The packets of the
// bursts are still in the network when the last node enters (ejecting them at node 0 takes 5
// cycles each): the drains, not the phases, decide when node 0 leaves.
void hotspot(const std::string& model, unsigned rounds, unsigned burst) {
  Proto pr(model);
  std::mt19937_64 rng(hpcnet::tb::seed("barrier proto hotspot"));
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
  std::printf("%s: bursts of %u packets to node 0, then every node calls: call to leave mean %.1f, max %llu cycles (the bursts alone: %u packets at node 0, %u cycles of ejection)\n",
              model.c_str(), burst, double(sum) / double(count), static_cast<unsigned long long>(worst), (n - 1) * burst,
              5 * (n - 1) * burst);
}
}  // namespace

TEST_CASE("barrier prototype on the router network: bursts to a hotspot before a common call are delivered before the leaves", "[barrier_proto]") {
  hotspot("Vnet_mesh_4x4_adbr", 10, 3);
  hotspot("Vnet_mesh_4x4_dorwh", 10, 3);
  hotspot("Vnet_torus_4x4_dorvct", 10, 3);
}

namespace {
// Uniform background traffic at `load` packets per node and cycle (scripted, to random distinct
// nodes, never stopping); after a warm-up every node calls in the same cycle, repeatedly.
void under_load(const std::string& model, double load, unsigned rounds) {
  Proto pr(model);
  std::mt19937_64 rng(hpcnet::tb::seed("barrier proto under load"));
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
  std::printf("%s, half barriers under uniform load %.3f packets/node/cycle (%.2f flits): call to leave mean %.1f (max %llu), enter to leave mean %.1f cycles; idle %u\n",
              model.c_str(), load, 5 * load, double(sum_call) / double(count), static_cast<unsigned long long>(max_call),
              double(sum_enter) / double(count), 2 * pr.k() + 1);
}
}  // namespace

TEST_CASE("barrier prototype on the router network: half barrier time under uniform background load", "[barrier_proto]") {
  for (double load : {0.01, 0.03, 0.05}) under_load("Vnet_mesh_4x4_adbr", load, 20);
  for (double load : {0.01, 0.03}) under_load("Vnet_mesh_8x8_adbr_b2", load, 10);
}
