// test_net_mesh.cpp: the Verilated meshes (rtl/net/net_mesh.sv) under the traffic engine and
// its checker: all-to-all delivery in every mode, the run-time buffer depth (checked by NetSim),
// the watchdog's dump of the blocked buffers, and saturated traffic of every pattern (20,000
// cycles; 250,000 in `make test-long`) in ADBR mode at the DBFC minimum buffer depth; the tori
// (DOR-VCT with the bubble rule) likewise: all-to-all, zero-load timing over the wraparound links,
// saturated traffic of every pattern at the bubble rule's minimum depth (2). Every run checks every flit
// (destination, payload, minimal hop count, exactly once, DOR flow order) and fails on a stall.
// A 4x4 mesh driven at its ports takes packets whose route leaves the mesh (ejected where they
// would leave, route field kept).
// HPCNET_NET_CYCLES overrides the length of the saturated runs (HPCNET_NET_CYCLES=1000000: the
// million-cycle runs the suite had before its time budget); HPCNET_SEED their seed;
// HPCNET_TRACE=file[:first[:last]] traces a window of any of these runs.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/net/model/net_mesh_sim.hpp"
#include "sim/net/model/net_sim.hpp"
#include "Vnet_mesh_4x4_adbr.h"
#include "Vnet_mesh_4x4_dorvct.h"
#include "Vnet_mesh_4x4_dorwh.h"
#include "Vrtr_torus_8x8_nobubble.h"
#include "Vrtr_torus_8x8_nobubble___024root.h"
#include "sim/core/errors.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"
#include "same_run.hpp"

using namespace hpcnet::sim;
using Catch::Matchers::Contains;

namespace {

// Every node sends one packet to every node, itself included (a zero-hop packet crosses the
// router from injection to ejection); ejection ports ready with probability ej_prob each cycle.
void all_to_all(std::unique_ptr<NetSimBase> net, double ej_prob) {
  const std::string model = net->spec().model;
  NetRunConfig rc;
  rc.traffic.load = 0;
  rc.ej_ready_prob = ej_prob;
  rc.traffic.seed = 11;
  rc.watchdog = 5000;
  net->start(rc);
  const unsigned n = net->spec().shape.nodes();
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j) net->engine().enqueue(i, (i + j) % n);
  const uint64_t cycles = net->run_until_drained(2000000);
  NetEngine& e = net->engine();
  CHECK(e.stats().delivered == uint64_t{n} * n);
  CHECK(e.checker().flits_checked() == uint64_t{n} * n * net->spec().pkt_flits);
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = 0; j < n; ++j) {
      INFO("pair " << i << " -> " << j);
      REQUIRE(e.pair_count(i, j) == 1);
    }
  // Every ejection port takes n packets: at least n * pkt_flits cycles.
  CHECK(cycles >= uint64_t{n} * net->spec().pkt_flits);
  std::printf("%s (%s) all-to-all (ejection ready %.0f%%): %llu packets in %llu cycles\n", model.c_str(),
              net->spec().label().c_str(), 100 * ej_prob,
              static_cast<unsigned long long>(uint64_t{n} * n), static_cast<unsigned long long>(cycles));
}

void all_to_all(const std::string& model, double ej_prob, unsigned buf = 0) {
  all_to_all(make_net(model, buf), ej_prob);
}

void all_to_all(const std::string& model) {
  all_to_all(model, 1.0);
  all_to_all(model, 0.6);
}

// The same on the network of `shape` that make_net finds: joined from blocks when no whole-mesh
// model of that shape is built (rtl/router/models.cmake).
void all_to_all(const MeshShape& shape, NetMode mode) {
  all_to_all(make_net(shape, mode), 1.0);
  all_to_all(make_net(shape, mode), 0.6);
}

// Offered load 1.0 (a packet every 5 cycles per node) for `cycles`, then creation stops and the
// network drains. Source queues are capped at 16 packets: every source always has packets waiting,
// which is what saturates the network, while memory and the final drain stay bounded (the cap
// only drops packets that would wait at the source, never one in the network).
// Starvation (docs/router.md#starvation-freedom): the longest wait of a granted packet in one
// router must stay within the proven bound W (starvation_wait_bound), the oldest packet of the
// whole run (warm-up included, source queue included) within A (starvation_age_bound), and every
// source must deliver packets.
void check_starvation(const NetSimBase& net, const NetStats& s, uint64_t queue_cap) {
  const NetSpec& sp = net.spec();
  const unsigned t = net.fairness().starve_t;
  INFO(sp.label() << ": max wait " << s.max_wait << " (bound " << starvation_wait_bound(sp, t) << "), max age "
                  << s.max_age << " (bound " << starvation_age_bound(sp, t, queue_cap) << "), fewest delivered "
                  << s.min_src_delivered << " (node " << s.min_src << ")");
  CHECK(s.max_wait <= starvation_wait_bound(sp, t));
  CHECK(s.max_age <= starvation_age_bound(sp, t, queue_cap));
  CHECK(s.min_src_delivered > 0);
}

void saturated(std::unique_ptr<NetSimBase> net, Pattern p, uint64_t cycles_default, uint64_t seed = 0) {
  const char* env = std::getenv("HPCNET_NET_CYCLES");
  const uint64_t cycles = env ? std::strtoull(env, nullptr, 0) : cycles_default;
  const std::string model = net->spec().label();
  NetRunConfig rc;
  rc.traffic.pattern.pattern = p;
  rc.traffic.load = 1.0;
  rc.traffic.max_queue = 16;
  rc.traffic.seed = seed ? seed : hpcnet::tb::seed("saturated");
  rc.warmup = cycles / 10;
  rc.measure = cycles - rc.warmup;
  rc.drain_limit = 0;
  rc.final_drain = NetRunConfig::Drain::always;
  rc.watchdog = 20000;       // deadlock: no flit injected or ejected for 20,000 cycles
  rc.max_packet_age = 0;     // the ages are checked against the backstop's bound after the run
  const NetStats s = net->run(rc);
  check_starvation(*net, s, rc.traffic.max_queue);
  CHECK(s.drained);
  CHECK(s.delivered == s.created);
  CHECK(s.injected == s.created);
  CHECK(s.created > 0);
  CHECK(net->engine().outstanding() == 0);
  std::printf("%s saturated %s: %llu cycles (%llu to drain), %llu packets delivered, accepted %.3f flits/node/cycle, "
              "latency avg %.1f, 99%% %llu, max %llu cycles (source queueing included), %.2f s (%.0f cycles/s); "
              "whole run: oldest packet %llu cycles, longest router wait %llu (bound %llu), fewest delivered by a source "
              "%llu (node %u), injection held %.2f%% of the cycles\n",
              model.c_str(), pattern_name(p), static_cast<unsigned long long>(s.cycles),
              static_cast<unsigned long long>(s.cycles - cycles), static_cast<unsigned long long>(s.delivered),
              s.accepted(), s.avg_latency(), static_cast<unsigned long long>(s.percentile(0.99)),
              static_cast<unsigned long long>(s.lat_max), s.wall_s, s.cycles_per_s(),
              static_cast<unsigned long long>(s.max_age), static_cast<unsigned long long>(s.max_wait),
              static_cast<unsigned long long>(starvation_wait_bound(net->spec(), net->fairness().starve_t)),
              static_cast<unsigned long long>(s.min_src_delivered), s.min_src,
              100.0 * static_cast<double>(s.hold_cycles) / static_cast<double>(s.cycles));
}

}  // namespace

// --- all-to-all: 2x2, 4x4, 3x3x3 in every mode ---
namespace {
// A 4x4 mesh model driven at its ports (NetSim's sources write minimal routes only): packets of 5
// flits of 256 bits, word 0 of the head the route field, word 1 of every flit the packet id,
// word 0 of the others the position. Every ejected flit is recorded with its node.
template <class V>
struct RawMesh4x4 {
  static constexpr unsigned kNodes = 16, kWords = 8, kFlits = 5;
  struct Flit {
    unsigned node;
    uint32_t w0, id;
  };
  hpcnet::sim::Harness<V> h{312.5, TraceWindow{}};
  V& m = h.dut();
  std::vector<std::deque<Flit>> q{kNodes};
  std::vector<Flit> ejected;
  RawMesh4x4() {
    m.buf_pkts_i = 2;
    m.inj_valid_i = 0;
    m.ej_ready_i = static_cast<std::remove_reference_t<decltype(m.ej_ready_i)>>((1u << kNodes) - 1);
    hpcnet::tb::sync_reset(h);
  }
  void send(unsigned node, uint32_t route, uint32_t id) {
    q[node].push_back({node, route, id});
    for (uint32_t pos = 1; pos < kFlits; ++pos) q[node].push_back({node, 0xb0d00000u | pos, id});
  }
  void run(unsigned cycles) {
    for (unsigned c = 0; c < cycles; ++c) {
      unsigned valid = 0;
      for (unsigned n = 0; n < kNodes; ++n) {
        if (q[n].empty()) continue;
        valid |= 1u << n;
        m.inj_data_i.data()[n * kWords] = q[n].front().w0;
        m.inj_data_i.data()[n * kWords + 1] = q[n].front().id;
      }
      m.inj_valid_i = static_cast<std::remove_reference_t<decltype(m.inj_valid_i)>>(valid);
      h.eval();
      for (unsigned n = 0; n < kNodes; ++n) {
        if ((valid >> n & 1) && (m.inj_ready_o >> n & 1)) q[n].pop_front();
        if (m.ej_valid_o >> n & 1)
          ejected.push_back({n, m.ej_data_o.data()[n * kWords], m.ej_data_o.data()[n * kWords + 1]});
      }
      hpcnet::tb::tick(h);
    }
  }
};
uint32_t route2(int x, int y, int z = 0) {
  return pack_route([&](unsigned d) { return d == 0 ? x : d == 1 ? y : z; });
}
}  // namespace

// A route that leaves the mesh: the packet is ejected at the router where its next productive
// hop has no link (rtr_pkg::unroutable), whole, its route field holding the hops it still had and
// its hop counter the hops it made; the mesh goes on delivering. Checked by the invariant (ADBR
// may take either productive port): where it was ejected + what is left = where it started + its
// route, hops made = hops asked - hops left, and what is left leaves the mesh there.
TEMPLATE_TEST_CASE("mesh: a packet whose route leaves the mesh is ejected where it would leave with its route kept",
                   "[net][mesh][unroutable]", Vnet_mesh_4x4_adbr, Vnet_mesh_4x4_dorvct, Vnet_mesh_4x4_dorwh) {
  RawMesh4x4<TestType> net;
  struct Sent {
    unsigned src;
    uint32_t route;
  };
  const std::map<uint32_t, Sent> sent{{1, {0, route2(5, 0)}},      // (0,0): 3 hops X+, then off the edge
                                      {2, {5, route2(1, -3)}},     // (1,1): Y- leaves after one Y hop
                                      {3, {15, route2(0, 0, 1)}},  // dimension 2 of a 2-D mesh
                                      {4, {6, route2(-2, 1)}},     // routable: (2,1) -> (0,2), node 8
                                      {5, {12, route2(-1, 0)}}};   // (0,3): off the edge at once
  for (const auto& [id, s] : sent) net.send(s.src, s.route, id);
  net.run(300);
  REQUIRE(net.ejected.size() == sent.size() * 5);
  std::map<unsigned, std::vector<typename RawMesh4x4<TestType>::Flit>> at_node;  // each port's flits in order
  for (const auto& f : net.ejected) at_node[f.node].push_back(f);
  std::map<uint32_t, unsigned> heads;
  for (const auto& [node, fl] : at_node) {
    REQUIRE(fl.size() % 5 == 0);
    for (size_t i = 0; i < fl.size(); i += 5) {
      const auto& f = fl[i];
      INFO("packet " << f.id << " ejected at node " << f.node);
      REQUIRE(heads.emplace(f.id, f.node).second);
      for (unsigned k = 1; k < 5; ++k) {  // the whole packet, in order
        CHECK(fl[i + k].id == f.id);
        CHECK(fl[i + k].w0 == (0xb0d00000u | k));
      }
      const Sent& s = sent.at(f.id);
      int asked = 0, left = 0;
      bool leaves = false;
      for (unsigned d = 0; d < 3; ++d) {
        const int src = d == 0 ? int(s.src % 4) : d == 1 ? int(s.src / 4) : 0;
        const int at = d == 0 ? int(f.node % 4) : d == 1 ? int(f.node / 4) : 0;
        CHECK(at + route_hops(f.w0, d) == src + route_hops(s.route, d));
        asked += std::abs(route_hops(s.route, d));
        left += std::abs(route_hops(f.w0, d));
        const int next = at + (route_hops(f.w0, d) > 0 ? 1 : -1);
        if (route_hops(f.w0, d) != 0 && (d == 2 || next < 0 || next > 3)) leaves = true;
      }
      CHECK(int(f.w0 >> 24) == asked - left);
      CHECK(leaves == (f.id != 4));
    }
  }
  REQUIRE(heads.size() == sent.size());
  CHECK(heads.at(4) == 8);
  CHECK(heads.at(3) == 15);
  CHECK(heads.at(5) == 12);
  if constexpr (!std::is_same_v<TestType, Vnet_mesh_4x4_adbr>) {  // dimension order: one path
    CHECK(heads.at(1) == 3);
    CHECK(heads.at(2) == 2);
  }
}

// 2x2: joined from 4x4 blocks used in part (no whole 2x2 model is built)
TEST_CASE("mesh: all-to-all 2x2 adbr", "[net][mesh]") { all_to_all(MeshShape(2, 2), NetMode::adbr); }
TEST_CASE("mesh: all-to-all 2x2 dorvct", "[net][mesh]") { all_to_all(MeshShape(2, 2), NetMode::dor_vct); }
TEST_CASE("mesh: all-to-all 2x2 dorwh", "[net][mesh]") { all_to_all(MeshShape(2, 2), NetMode::dor_wh); }
TEST_CASE("mesh: all-to-all 4x4 adbr", "[net][mesh]") { all_to_all("Vnet_mesh_4x4_adbr"); }
TEST_CASE("mesh: all-to-all 4x4 dorvct", "[net][mesh]") { all_to_all("Vnet_mesh_4x4_dorvct"); }
TEST_CASE("mesh: all-to-all 4x4 dorwh", "[net][mesh]") { all_to_all("Vnet_mesh_4x4_dorwh"); }
TEST_CASE("mesh: all-to-all 3x3x3 adbr", "[net][mesh]") { all_to_all("Vnet_mesh_3x3x3_adbr"); }
TEST_CASE("mesh: all-to-all 3x3x3 dorvct", "[net][mesh]") { all_to_all("Vnet_mesh_3x3x3_dorvct"); }
TEST_CASE("mesh: all-to-all 3x3x3 dorwh", "[net][mesh]") { all_to_all("Vnet_mesh_3x3x3_dorwh"); }

// --- the largest buffer depth of the test models (BufPkts = 3); the tests above run 2 (2-D) ---
TEST_CASE("mesh: all-to-all 4x4 adbr with 3-packet buffers", "[net][mesh]") {
  all_to_all("Vnet_mesh_4x4_adbr", 0.6, 3);
}
TEST_CASE("mesh: all-to-all 4x4 dorwh with 3-packet buffers", "[net][mesh]") {
  all_to_all("Vnet_mesh_4x4_dorwh", 0.6, 3);
}
TEST_CASE("mesh: all-to-all 3x3x3 dorvct with 3-packet buffers", "[net][mesh]") {
  all_to_all("Vnet_mesh_3x3x3_dorvct", 0.6, 3);
}

// --- tori: all-to-all on 4x4 (the half-way ties) and 3x3x3, at depth 2 and 3 ---
// The checker requires every packet's hop counter to equal the torus distance, so every packet
// that should take a wraparound link has taken it.
TEST_CASE("torus: all-to-all 4x4 dorvct", "[net][torus]") { all_to_all("Vnet_torus_4x4_dorvct"); }
TEST_CASE("torus: all-to-all 3x3x3 dorvct", "[net][torus]") { all_to_all("Vnet_torus_3x3x3_dorvct"); }
TEST_CASE("torus: all-to-all 2x4 dorvct", "[net][torus]") { all_to_all("Vnet_torus_2x4_dorvct"); }
TEST_CASE("torus: all-to-all 4x4 dorvct with 3-packet buffers", "[net][torus]") {
  all_to_all("Vnet_torus_4x4_dorvct", 0.6, 3);
}
TEST_CASE("torus: all-to-all 3x3x3 dorvct with 3-packet buffers", "[net][torus]") {
  all_to_all("Vnet_torus_3x3x3_dorvct", 0.6, 3);
}

TEST_CASE("torus: the bubble rule's minimum depth and the shapes found by name", "[net][torus]") {
  REQUIRE_THROWS_WITH(make_net("Vnet_torus_4x4_dorvct", 1), Contains("below the bubble rule's minimum 2"));
  REQUIRE(make_net("Vnet_torus_4x4_dorvct")->spec().buf_pkts == 2);
  REQUIRE(make_net("Vnet_torus_4x4_dorvct")->spec().shape == MeshShape(4, 4).as_torus());
  REQUIRE(make_net(MeshShape(4, 4).as_torus(), NetMode::dor_vct, 3)->spec().model == "Vnet_torus_4x4_dorvct");
  REQUIRE_THROWS_WITH(make_net(MeshShape(4, 4).as_torus(), NetMode::adbr), Contains("no 4x4-torus adbr mesh model"));
  // the mesh of the same shape is a different model
  REQUIRE(make_net(MeshShape(4, 4), NetMode::dor_vct)->spec().model == "Vnet_mesh_4x4_dorvct");
}

// --- NetSim refuses a buffer depth the model cannot run, naming the limit ---
TEST_CASE("mesh: buffer depth outside the model's range is refused", "[net][mesh]") {
  REQUIRE_THROWS_WITH(make_net("Vnet_mesh_4x4_adbr", 1), Contains("below the DBFC minimum 2"));
  REQUIRE_THROWS_WITH(make_net("Vnet_mesh_3x3x3_adbr", 2), Contains("below the DBFC minimum 3"));
  REQUIRE_THROWS_WITH(make_net("Vnet_mesh_4x4_adbr", 4), Contains("above the model's maximum 3"));
  REQUIRE_THROWS_AS(make_net("Vnet_mesh_4x4_dorvct", 4), std::invalid_argument);
  REQUIRE(make_net("Vnet_mesh_4x4_dorvct", 1)->spec().buf_pkts == 1);
  REQUIRE(make_net(MeshShape(4, 4), NetMode::adbr, 3)->spec().buf_pkts == 3);
  REQUIRE(make_net("Vnet_mesh_3x3x3_adbr")->spec().buf_pkts == 3);  // the default: the DBFC minimum
  REQUIRE(make_net("Vnet_mesh_3x3x3_dorvct")->spec().buf_pkts == 2);
}

// --- the watchdog: ejection ports that never take a flit block the network; the stall message
// names the blocked packets in the routers' buffers (read from the model) ---
namespace {
// The watchdog's message after 12 packets from src to node 0, whose ejection port never takes a
// flit (empty if the watchdog did not fire).
std::string blocked_stall(std::unique_ptr<NetSimBase> net, unsigned src) {
  NetRunConfig rc;
  rc.traffic.load = 0;
  rc.ej_ready_prob = 1e-12;  // never ready in practice
  rc.watchdog = 3000;
  net->start(rc);
  for (unsigned i = 0; i < 12; ++i) net->engine().enqueue(src, 0);
  try {
    net->run_until_drained(100000);
  } catch (const Stall& e) {
    return e.what();
  }
  return {};
}
std::string blocked_stall(const std::string& model, unsigned src) { return blocked_stall(make_net(model), src); }
}  // namespace

TEST_CASE("mesh: watchdog on a blocked network dumps the routers' buffers", "[net][mesh]") {
  for (const NetMode mode : {NetMode::adbr, NetMode::dor_wh}) {  // 2x2: joined from blocks
    const std::string msg = blocked_stall(make_net(MeshShape(2, 2), mode), 3);  // 2 hops, to a blocked port
    const std::string model = mode_name(mode);
    INFO(msg);
    REQUIRE(!msg.empty());
    CHECK_THAT(msg, Contains("no flit moved inside the network either: deadlock"));
    CHECK_THAT(msg, Contains("routers ("));
    CHECK_THAT(msg, Contains("router 0 (0,0)"));  // the destination, its ejection blocked
    CHECK_THAT(msg, Contains("3->0 #"));            // packets named by source, destination, sequence
    if (std::string(model).find("adbr") != std::string::npos) {
      CHECK_THAT(msg, Contains("waiting"));
      CHECK_THAT(msg, Contains("credits 0/2"));  // an output towards a full buffer
    } else {
      CHECK_THAT(msg, Contains("flits, head 3->0"));
    }
  }
}

namespace {
// A measurement run of uniform traffic at `load`, seeded per model (HPCNET_SEED overrides).
NetRunConfig uniform_run(const char* model, double load, uint64_t warmup, uint64_t measure) {
  NetRunConfig rc;
  rc.traffic.load = load;
  rc.traffic.seed = hpcnet::tb::seed(model);
  rc.warmup = warmup;
  rc.measure = measure;
  return rc;
}
}  // namespace

// --- random traffic at a moderate load in every mode, with ejection back-pressure ---
TEST_CASE("mesh: uniform traffic with ejection back-pressure in every mode", "[net][mesh]") {
  for (const char* m : {"Vnet_mesh_4x4_adbr", "Vnet_mesh_4x4_dorvct", "Vnet_mesh_4x4_dorwh"}) {
    NetRunConfig rc = uniform_run(m, 0.25, 2000, 20000);
    rc.ej_ready_prob = 0.7;
    rc.final_drain = NetRunConfig::Drain::always;
    const NetStats s = make_net(m)->run(rc);
    INFO(m);
    CHECK(s.drained);
    CHECK(s.delivered == s.created);
  }
}

// --- zero-load timing through the whole mesh: 2 cycles per hop, the same fixed overhead ---
// At load 0.01 some packet of every hop count crosses an empty network: its latency (creation to
// tail ejection) is exactly 2 cycles per hop plus the injection, serialization and ejection
// cycles (docs/router.md, Timing), in every mode and dimension.
TEST_CASE("mesh: zero-load latency is 2 cycles per hop plus a fixed overhead in every mode", "[net][mesh]") {
  for (const char* m : {"Vnet_mesh_4x4_adbr", "Vnet_mesh_4x4_dorvct", "Vnet_mesh_4x4_dorwh", "Vnet_mesh_3x3x3_adbr"}) {
    auto net = make_net(m);
    const NetStats s = net->run(uniform_run(m, 0.01, 1000, 30000));
    INFO(m);
    REQUIRE(s.stable);
    const unsigned diam = net->spec().shape.diameter();
    for (unsigned h = 1; h <= diam; ++h) {  // uniform traffic: no packet to the node itself
      CAPTURE(h);
      REQUIRE(s.hop_count[h] > 0);
      // head accepted at injection in the cycle it is created, at the ejection port 2h + 2 cycles
      // later, the tail 4 cycles after that (5 flits)
      CHECK(s.hop_lat_min[h] == 2 * h + 6);
    }
    double icpt = 0;
    CHECK(s.min_per_hop_slope(&icpt) == Approx(2.0).margin(1e-9));
    CHECK(icpt == Approx(6.0).margin(1e-9));
  }
}

// Every hop count of the torus (1 .. its diameter, 4 on 4x4 against 6 on the mesh; 3 on 3x3x3)
// occurs at load 0.01, at exactly 2 cycles per hop plus the mesh's fixed overhead: the wraparound
// links are links like the others, and no packet travels further than the torus distance.
TEST_CASE("torus: zero-load latency is 2 cycles per hop over the wraparound links", "[net][torus]") {
  for (const char* m : {"Vnet_torus_4x4_dorvct", "Vnet_torus_3x3x3_dorvct"}) {
    auto net = make_net(m);
    const NetStats s = net->run(uniform_run(m, 0.01, 1000, 30000));
    INFO(m);
    REQUIRE(s.stable);
    const unsigned diam = net->spec().shape.diameter();
    CHECK(diam == (net->spec().shape.dims == 2 ? 4u : 3u));
    for (unsigned h = 1; h <= diam; ++h) {
      CAPTURE(h);
      REQUIRE(s.hop_count[h] > 0);
      CHECK(s.hop_lat_min[h] == 2 * h + 6);
    }
    for (unsigned h = diam + 1; h < s.hop_count.size(); ++h) REQUIRE(s.hop_count[h] == 0);
  }
}

// --- the bubble rule is needed: the same 8x8 torus without it (Bubble = 0, every hop needs one
// free slot) deadlocks under saturated uniform traffic, and the watchdog says so (the saturated
// torus tests below can fail); with the rule, the same traffic runs and drains. The model without
// it is not a Vnet_ model (never offered by make_net), so NetSim is built on it directly.
TEST_CASE("torus: without the bubble rule the 8x8 torus deadlocks and the watchdog catches it", "[net][torus]") {
  NetRunConfig rc;
  rc.traffic.load = 1.0;
  rc.traffic.max_queue = 16;
  rc.traffic.seed = hpcnet::tb::seed("nobubble");
  rc.warmup = 10000;
  rc.measure = 190000;
  rc.final_drain = NetRunConfig::Drain::always;
  rc.watchdog = 5000;
  NetSpec sp;
  sp.model = "Vrtr_torus_8x8_nobubble";
  sp.shape = MeshShape(8, 8).as_torus();
  sp.mode = NetMode::dor_vct;
  sp.buf_pkts = sp.buf_max = 2;
  NetSim<Vrtr_torus_8x8_nobubble> net(sp, TraceWindow{});
  std::string msg;
  try {
    net.run(rc);
  } catch (const Stall& e) {
    msg = e.what();
  }
  INFO(msg.substr(0, 2000));
  REQUIRE_THAT(msg, Contains("no flit moved inside the network either: deadlock"));
  CHECK_THAT(msg, Contains("needs 1 free slots"));  // every packet asks for one slot: no bubble kept
  CHECK_THAT(msg, !Contains("needs 2 free slots"));
  CHECK_THAT(msg, Contains("credits 0/2"));
  // control: the torus with the rule, same traffic, same depth
  auto with_rule = make_net(MeshShape(8, 8).as_torus(), NetMode::dor_vct, 2);
  const NetStats s = with_rule->run(rc);
  CHECK(s.drained);
  CHECK(s.delivered == s.created);
  CHECK(s.delivered > 100000);
}

// --- saturated traffic at offered load 1.0, every pattern, at the minimum depth: ADBR meshes at
// the DBFC minimum (8x8: 2, 4x4x4: 3), DOR-VCT tori at the bubble rule's (2). Two tiers
// (docs/testing.md): `make test` runs 20,000 cycles per case (a deadlock stops the watchdog at
// 20,000; the starvation bound's threshold T is 1,000), on networks joined from blocks when the
// whole-mesh benchmark models are not built; `make test-long` runs the same cases for 250,000
// cycles (on the whole-mesh models it builds) ---
#define HPCNET_SATURATED_TIER(shp, net, mode, mname, depth, pat, kcycles, tags)                   \
  TEST_CASE("saturated: " net " " mname " " #pat " " #kcycles "k cycles", "[net][saturated]" tags) { \
    auto n = make_net(shp, NetMode::mode, depth);                                              \
    REQUIRE(n->spec().buf_pkts == (depth));                                                    \
    REQUIRE(n->spec().shape == MeshShape::parse(net));                                          \
    saturated(std::move(n), Pattern::pat, kcycles * 1000ull);                                   \
  }
#define HPCNET_SATURATED(shp, net, mode, mname, depth, pat)                 \
  HPCNET_SATURATED_TIER(shp, net, mode, mname, depth, pat, 20, "")          \
  HPCNET_SATURATED_TIER(shp, net, mode, mname, depth, pat, 250, "[long]")
// every pattern on one network
#define HPCNET_SATURATED_ALL(shp, net, mode, mname, depth)     \
  HPCNET_SATURATED(shp, net, mode, mname, depth, uniform)      \
  HPCNET_SATURATED(shp, net, mode, mname, depth, transpose)    \
  HPCNET_SATURATED(shp, net, mode, mname, depth, bitcomp)      \
  HPCNET_SATURATED(shp, net, mode, mname, depth, bitrev)       \
  HPCNET_SATURATED(shp, net, mode, mname, depth, hotspot)      \
  HPCNET_SATURATED(shp, net, mode, mname, depth, neighbor)
HPCNET_SATURATED_ALL(MeshShape(8, 8), "8x8", adbr, "adbr", 2)
HPCNET_SATURATED_ALL(MeshShape(4, 4, 4), "4x4x4", adbr, "adbr", 3)
HPCNET_SATURATED_ALL(MeshShape(8, 8).as_torus(), "8x8-torus", dor_vct, "dorvct", 2)
HPCNET_SATURATED_ALL(MeshShape(4, 4, 4).as_torus(), "4x4x4-torus", dor_vct, "dorvct", 2)
// The other modes on the 8x8 mesh, and other seeds, bit-complement (the pattern that starved
// sources before the backstop): 20,000 cycles in `make test`, 200,000 in `make test-long`
#define HPCNET_SATURATED_SEED_TIER(shp, net, mode, mname, pat, seed, kcycles, tags)                          \
  TEST_CASE("saturated: " net " " mname " " #pat " seed " #seed " " #kcycles "k cycles", "[net][saturated]" tags) { \
    saturated(make_net(shp, NetMode::mode, 0), Pattern::pat, kcycles * 1000ull, seed);                       \
  }
#define HPCNET_SATURATED_SEED(shp, net, mode, mname, pat, seed)               \
  HPCNET_SATURATED_SEED_TIER(shp, net, mode, mname, pat, seed, 20, "")        \
  HPCNET_SATURATED_SEED_TIER(shp, net, mode, mname, pat, seed, 200, "[long]")
HPCNET_SATURATED_SEED(MeshShape(8, 8), "8x8", dor_vct, "dorvct", bitcomp, 7)
HPCNET_SATURATED_SEED(MeshShape(8, 8), "8x8", dor_wh, "dorwh", bitcomp, 7)
HPCNET_SATURATED_SEED(MeshShape(8, 8), "8x8", adbr, "adbr", bitcomp, 12345)
HPCNET_SATURATED_SEED(MeshShape(8, 8).as_torus(), "8x8-torus", dor_vct, "dorvct", bitcomp, 12345)

// --- starvation (issue 22): the cases that starved sources before the backstop, 150,000 cycles at
// offered load 1.0 with source queues of 16 packets. With the backstop off (the router as it was:
// T = 0, plain rotating allocation) a packet waits longer than the proven bound of the backstop
// (so check_starvation fails there); with the defaults every check passes ---
namespace {
NetStats starve_run(NetSimBase& net, const NetFairness& f) {
  net.set_fairness(f);
  NetRunConfig rc;
  rc.traffic.pattern.pattern = Pattern::bitcomp;
  rc.traffic.load = 1.0;
  rc.traffic.max_queue = 16;
  rc.traffic.seed = 1;
  rc.warmup = 0;
  rc.measure = 150000;
  rc.drain_limit = 0;
  rc.final_drain = NetRunConfig::Drain::always;
  rc.max_packet_age = 0;
  return net.run(rc);
}
void starvation_case(std::unique_ptr<NetSimBase> net) {
  const NetSpec& sp = net->spec();
  const NetStats off = starve_run(*net, NetFairness{0, false});
  const NetStats on = starve_run(*net, NetFairness{});
  const uint64_t w = starvation_wait_bound(sp, NetFairness::kDefaultT);
  std::printf("%s bitcomp at 1.0, 150,000 cycles: backstop off: longest wait %llu, oldest packet %llu, fewest delivered %llu "
              "(node %u); on (T = %u): longest wait %llu (bound %llu), oldest %llu, fewest delivered %llu (node %u), "
              "held %.2f%%; accepted %.3f -> %.3f\n",
              sp.label().c_str(), static_cast<unsigned long long>(off.max_wait), static_cast<unsigned long long>(off.max_age),
              static_cast<unsigned long long>(off.min_src_delivered), off.min_src, NetFairness::kDefaultT,
              static_cast<unsigned long long>(on.max_wait), static_cast<unsigned long long>(w),
              static_cast<unsigned long long>(on.max_age), static_cast<unsigned long long>(on.min_src_delivered), on.min_src,
              100.0 * static_cast<double>(on.hold_cycles) / static_cast<double>(on.cycles), off.accepted(), on.accepted());
  INFO(sp.label());
  CHECK(off.drained);
  CHECK(off.max_wait > w);  // starvation without the backstop: beyond what the backstop guarantees
  CHECK(on.drained);
  CHECK(on.delivered == on.created);
  check_starvation(*net, on, 16);
}
}  // namespace

TEST_CASE("starvation: 8x8 torus dorvct bitcomp depth 2 starves without the backstop and is bounded with it", "[net][starvation]") {
  starvation_case(make_net(MeshShape(8, 8).as_torus(), NetMode::dor_vct, 2));
}
TEST_CASE("starvation: 8x8 mesh adbr bitcomp depth 2 starves without the backstop and is bounded with it", "[net][starvation]") {
  starvation_case(make_net(MeshShape(8, 8), NetMode::adbr, 2));
}
TEST_CASE("starvation: 2x8 mesh adbr bitcomp starves without the backstop and is bounded with it", "[net][starvation]") {
  starvation_case(make_net(MeshShape(2, 8), NetMode::adbr, 2));
}

// --- a mesh split into blocks evaluated by two threads (NetSim, docs/net_sim.md, Threads) ---
// The split model (two 4x2 blocks joined by NetSim) must be the same cycle for cycle as the whole
// mesh: same seed, same traffic, so every packet's latency, every count and histogram agree.
TEST_CASE("mesh split for 2 threads: cycle for cycle the whole mesh in every mode", "[net][mesh][threads]") {
  // the default starvation threshold at load 0.35, and T = 15 at load 0.5: the backstop then holds
  // the injection ports often, and the two blocks must hold in the same cycles as the whole mesh
  // (hold_i). (At 0.35 with T = 15 about one run in ten of 4x4 ADBR transpose never held, e.g.
  // HPCNET_SEED=2657677294; at 0.5 none of 60 runs failed.)
  for (const unsigned t : {NetFairness::kDefaultT, 15u})
  for (const char* mode : {"adbr", "dorvct", "dorwh"}) {
    for (Pattern p : {Pattern::uniform, Pattern::transpose}) {
      const std::string whole = fmt::format("Vnet_mesh_4x4_{}", mode), split = whole + "_t2";
      auto a = make_net(whole);
      auto b = make_net(split);
      a->set_fairness(NetFairness{t, true});
      b->set_fairness(NetFairness{t, true});
      REQUIRE(b->spec().threads == 2);
      REQUIRE(b->spec().buf_pkts == a->spec().buf_pkts);
      NetRunConfig rc = uniform_run(whole.c_str(), t == 15 ? 0.5 : 0.35, 1000, 6000);
      rc.traffic.pattern.pattern = p;
      rc.ej_ready_prob = 0.8;
      rc.final_drain = NetRunConfig::Drain::always;
      const NetStats sa = a->run(rc), sb = b->run(rc);
      INFO(whole << " " << pattern_name(p) << " T " << t);
      REQUIRE(sb.drained);
      REQUIRE(sa.tagged_delivered > 500);
      if (t == 15) CHECK(sa.hold_cycles > 0);
      hpcnet::tb::check_same_run(sa, sb);
    }
  }
}

TEST_CASE("mesh split for 2 threads: the watchdog dumps the routers of every block", "[net][mesh][threads]") {
  const std::string msg = blocked_stall("Vnet_mesh_4x4_adbr_t2", 15);  // from block 1 to block 0
  INFO(msg);
  REQUIRE(!msg.empty());
  CHECK_THAT(msg, Contains("4x4 adbr b2 t2"));
  CHECK_THAT(msg, Contains("router 0 (0,0)"));   // block 0: the destination, its ejection blocked
  CHECK_THAT(msg, Contains("router 8 (0,2)"));   // block 1: packets waiting on the way
  CHECK_THAT(msg, Contains("15->0 #"));
  REQUIRE_THROWS_WITH(make_net(MeshShape(4, 4), NetMode::adbr, 0, 3), Contains("split for 3 threads"));
  REQUIRE(make_net(MeshShape(4, 4), NetMode::dor_wh, 0, 2)->spec().threads == 2);
}
