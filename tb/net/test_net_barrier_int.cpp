// test_net_barrier_int: the multiphase barrier inside the Verilated router networks (net_mesh with
// Barrier = 1, the Vnet_bar_* models: one rtr_phase per router fed with the router's packet slots
// and a registered one-bit barrier sideband per link), driven by NetBarrier (sim/net/barrier/net_barrier.hpp)
// while the network engine's own sources send background traffic. NetBarrier checks every barrier
// with BarrierCheck (sent = the injection of a packet's head, enter = the unit's enter handshake)
// and Lemma 1 between neighbours every cycle; the engine's checker checks every packet at the final
// drain (delivered once, intact, in order where the mode promises it); the units' and routers'
// assertions are on. docs/barrier.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hpcnet/tb/bench_models.hpp"
#include "sim/net/barrier/net_barrier.hpp"
#include "sim/net/model/net_sim.hpp"
#include "hpcnet/tb/seed.hpp"

using namespace hpcnet::sim;

namespace {

// Directed links of a mesh or torus: per dimension d of radix k > 1, k - 1 (mesh) or k (torus)
// links each way in every one of the other dimensions' rows.
uint64_t directed_links(const MeshShape& s) {
  uint64_t sum = 0;
  for (unsigned d = 0; d < s.dims; ++d) {
    if (s.k[d] < 2) continue;
    uint64_t rows = 1;
    for (unsigned e = 0; e < s.dims; ++e)
      if (e != d) rows *= s.k[e];
    sum += 2 * rows * (s.torus ? s.k[d] : s.k[d] - 1);
  }
  return sum;
}

std::vector<const NetModelInfo*> barrier_models() {
  std::vector<const NetModelInfo*> r;
  for (const NetModelInfo& m : net_models())
    if (m.spec.barrier) r.push_back(&m);
  return r;
}

NetRunConfig traffic(double load, uint64_t seed, size_t max_queue = 0) {
  NetRunConfig rc;
  rc.traffic.load = load;
  rc.traffic.seed = seed;
  rc.traffic.max_queue = max_queue;
  rc.watchdog = 20000;
  rc.warmup = rc.measure = 0;
  return rc;
}

std::vector<BarrierKind> random_kinds(unsigned count, std::mt19937_64& rng) {
  std::vector<BarrierKind> k(count);
  for (auto& x : k) x = rng() % 2 ? BarrierKind::full : BarrierKind::half;
  return k;
}

void report(const NetSpec& s, const char* what, const BarrierStats& st) {
  std::printf("%-24s %-40s %6zu barriers (%u half, %u full) in %8llu cycles, %8llu packets; half %.1f (max %llu), full %.1f (max %llu); idle %u / %u\n",
              s.label().c_str(), what, st.barriers.size(), st.count(BarrierKind::half), st.count(BarrierKind::full),
              static_cast<unsigned long long>(st.cycles), static_cast<unsigned long long>(st.data_packets),
              st.mean_time(BarrierKind::half), static_cast<unsigned long long>(st.max_time(BarrierKind::half)),
              st.mean_time(BarrierKind::full), static_cast<unsigned long long>(st.max_time(BarrierKind::full)), 2 * st.k + 1,
              4 * st.k + 1);
}

}  // namespace

// Idle network, every node calls in the same cycle, leaves taken at once: every node's enter to
// leave is 2K + 1 (half) or 4K + 1 (full) cycles, the cost model's K(lat_hop + lat_inc) + lat_inj +
// lat_ej with lat_hop + lat_inc = 2, lat_inj = 1, lat_ej = 0 (docs/barrier.md); one barrier message
// per directed link and phase. Every barrier network built, back to back.
namespace {
void idle_barriers(size_t min_models) {
  const auto models = barrier_models();
  REQUIRE(models.size() >= min_models);
  for (const NetModelInfo* m : models) {
    auto net = m->make(m->spec, TraceWindow::off());
    BarrierPlan plan;
    plan.kinds = {BarrierKind::half, BarrierKind::full, BarrierKind::half, BarrierKind::full};
    plan.start = 10;
    plan.max_cycles = 100000;
    NetBarrier b(*net, traffic(0, 1), plan);
    const BarrierStats st = b.run();
    INFO(m->spec.label());
    REQUIRE(st.violations.empty());
    REQUIRE(st.barriers.size() == 4);
    const uint64_t k = m->spec.shape.diameter();
    uint64_t phases = 0;
    for (const BarrierRecord& r : st.barriers) {
      const uint64_t tot = r.kind == BarrierKind::full ? 2 * k : k;
      CHECK(r.min_enter_leave == 2 * tot + 1);
      CHECK(r.max_enter_leave == 2 * tot + 1);
      CHECK(r.time() == 2 * tot + 1);
      phases += tot;
    }
    CHECK(st.msgs == phases * directed_links(m->spec.shape));
    std::printf("%s idle: half %llu cycles, full %llu (K = %llu), %llu barrier messages per half barrier\n", m->spec.label().c_str(),
                static_cast<unsigned long long>(2 * k + 1), static_cast<unsigned long long>(4 * k + 1),
                static_cast<unsigned long long>(k), static_cast<unsigned long long>(k * directed_links(m->spec.shape)));
  }
}
}  // namespace

// the test build's barrier networks (4x4 in every mode and the torus, 4x4x4, the 3x3x3 torus)
TEST_CASE("barrier in the router network: idle barriers take 2K + 1 and 4K + 1 cycles", "[barrier_int]") {
  idle_barriers(6);
}

// and the benchmark's too (2x2, 8x8, 16x16, 8x8x8)
TEST_CASE("barrier in the router network: idle barriers take 2K + 1 and 4K + 1 cycles on every size", "[barrier_int][long]") {
  HPCNET_REQUIRE_BENCH_MODELS();
  idle_barriers(10);
}

namespace {
// Background traffic at `load` flits per node and cycle (uniform; beyond saturation the source
// queues are capped at 16 packets), half and full barriers in a random sequence, each node calling
// at a random time after its last leave (often back to back), leaves taken with probability 0.7.
void guarantees(const std::string& model, unsigned buf, double load, unsigned barriers, const char* name) {
  std::mt19937_64 rng(hpcnet::tb::seed(name));
  auto net = make_net(model, buf);
  BarrierPlan plan;
  plan.kinds = random_kinds(barriers, rng);
  plan.calls = BarrierPlan::Calls::random;
  plan.start = 200;
  plan.gap = 60;
  plan.leave_prob = 0.7;
  plan.seed = rng();
  plan.max_cycles = 3000000;
  NetBarrier b(*net, traffic(load, rng(), 16), plan);
  const BarrierStats st = b.run();
  INFO(net->spec().label() << " load " << load << "\n" << st.violations);
  REQUIRE(st.violations.empty());
  REQUIRE(st.barriers.size() == barriers);
  if (load > 0) REQUIRE(st.data_packets > 0);
  report(net->spec(), fmt::format("random calls, load {:.2f}", load).c_str(), st);
}
}  // namespace

TEST_CASE("barrier in the router network: the guarantees hold in every mode and topology from idle to saturation", "[barrier_int]") {
  struct Net {
    const char* model;
    unsigned buf;
  };
  for (Net n : {Net{"Vnet_bar_4x4_adbr", 2}, Net{"Vnet_bar_4x4_dorvct", 2}, Net{"Vnet_bar_4x4_dorwh", 2},
                Net{"Vnet_bar_4x4_torus_dorvct", 2}, Net{"Vnet_bar_4x4x4_adbr", 3}, Net{"Vnet_bar_3x3x3_torus_dorvct", 2}})
    for (double load : {0.05, 0.25, 1.0}) guarantees(n.model, n.buf, load, std::string(n.model).find("x4x4") != std::string::npos ? 8 : 12, n.model);
}

// Chosen times (manual calls): every node but node 0 queues a burst of packets to node 0 (a
// hotspot), then every node calls in the same cycle; the drains, not the phases, decide when node
// 0 leaves. Also half of the rounds start with a packet from every node to every other one.
TEST_CASE("barrier in the router network: bursts queued right before a common call arrive before the leaves", "[barrier_int]") {
  for (const char* model : {"Vnet_bar_4x4_adbr", "Vnet_bar_4x4_dorvct", "Vnet_bar_4x4_dorwh", "Vnet_bar_4x4_torus_dorvct"}) {
    auto net = make_net(model, 2);
    BarrierPlan plan;
    plan.calls = BarrierPlan::Calls::manual;
    NetBarrier b(*net, traffic(0.05, hpcnet::tb::seed(model)), plan);
    const unsigned n = b.nodes();
    uint64_t worst = 0;
    for (unsigned r = 0; r < 12; ++r) {
      for (unsigned s = 1; s < n; ++s)
        for (unsigned i = 0; i < 3; ++i) net->engine().enqueue(s, 0);
      if (r % 2)
        for (unsigned s = 0; s < n; ++s)
          for (unsigned t = 1; t < n; ++t) net->engine().enqueue(s, (s + t) % n);
      const uint64_t c0 = b.now();
      for (unsigned s = 0; s < n; ++s) b.call(s, r % 3 ? BarrierKind::half : BarrierKind::full);
      bool any = true;
      while (any) {
        REQUIRE(b.now() < c0 + 100000);
        b.step();
        any = false;
        for (unsigned s = 0; s < n; ++s) any = any || b.in_barrier(s);
      }
      worst = std::max(worst, b.now() - c0);
    }
    const BarrierStats st = b.finish();
    INFO(model << "\n" << st.violations);
    REQUIRE(st.violations.empty());
    REQUIRE(st.barriers.size() == 12);
    std::printf("%s: bursts before a common call: 12 barriers, call to the last leave at most %llu cycles\n", model,
                static_cast<unsigned long long>(worst));
  }
}

// Barriers called at random times over saturated traffic (offered load 1.0, source queues capped at
// 16): no deadlock (the engine's watchdog), no barrier stuck (NetBarrier's limit), every guarantee,
// Lemma 1 every cycle, every packet delivered. 100,000 cycles in `make test`, a million in
// `make test-long` (HPCNET_NET_CYCLES overrides both; docs/testing.md).
namespace {
void barriers_over_saturation(uint64_t cycles) {
  if (const char* e = std::getenv("HPCNET_NET_CYCLES")) cycles = std::strtoull(e, nullptr, 10);
  std::mt19937_64 rng(hpcnet::tb::seed("barrier int million"));
  auto net = make_net("Vnet_bar_4x4_adbr", 2);
  BarrierPlan plan;
  plan.kinds = random_kinds(1000000, rng);
  plan.calls = BarrierPlan::Calls::random;
  plan.gap = 100;
  plan.leave_prob = 0.7;
  plan.seed = rng();
  plan.max_cycles = cycles + 200000;
  NetBarrier b(*net, traffic(1.0, rng(), 16), plan);
  const BarrierStats st = b.run_until(cycles);
  INFO(st.violations);
  REQUIRE(st.violations.empty());
  REQUIRE(st.cycles >= cycles);
  REQUIRE(st.barriers.size() > 100);
  REQUIRE(st.data_packets > cycles / 10);
  report(net->spec(), fmt::format("{} cycles, saturated, random calls", cycles).c_str(), st);
}
}  // namespace

TEST_CASE("barrier in the router network: 100k cycles of barriers over saturated traffic", "[barrier_int]") {
  barriers_over_saturation(100000);
}

TEST_CASE("barrier in the router network: a million cycles of barriers over saturated traffic", "[barrier_int][long]") {
  barriers_over_saturation(1000000);
}

// A run that cannot finish in time (the limit below the barrier's own time) stops with a Timeout
// naming where every node stands: its barriers left, entered or not, its unit's phase.
TEST_CASE("barrier in the router network: a barrier beyond the cycle limit reports every node's phase", "[barrier_int]") {
  auto net = make_net("Vnet_bar_4x4_adbr", 2);
  BarrierPlan plan;
  plan.kinds = {BarrierKind::full};
  plan.start = 10;
  plan.max_cycles = 20;  // the full barrier takes 25 cycles
  NetBarrier b(*net, traffic(0, 1), plan);
  REQUIRE_THROWS_WITH(b.run(), Catch::Contains("node 0 has left 0 of 1 barriers by cycle 20") &&
                                   Catch::Contains("node 15: left 0 barriers, in its unit: phase 4"));
}
