// test_net_research.cpp: networks of any size joined from block models (NetJoined) against the
// whole-mesh models, cycle for cycle; per-link statistics (LinkProbe) against the checker's
// deliveries and hand arithmetic; packet traces (parsing, validation, delivery of every packet).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "sim/net/stats/net_linkstats.hpp"
#include "sim/net/model/net_sim.hpp"
#include "sim/net/traffic/net_trace.hpp"
#include "hpcnet/tb/bench_models.hpp"
#include "same_run.hpp"

using namespace hpcnet::sim;
using Catch::Matchers::Contains;

namespace {

using Rec = std::tuple<uint32_t, uint32_t, uint32_t, uint64_t, uint64_t, uint64_t, unsigned>;
// Every delivery as (src, seq, dst, created, injected, delivered, hops), sorted.
std::vector<Rec> deliveries(const NetEngine& e) {
  std::vector<Rec> r;
  for (const Delivery& d : e.deliveries())
    r.emplace_back(d.tag.src, d.tag.seq, d.tag.dst, d.tag.created, d.injected, d.delivered, d.hops);
  std::sort(r.begin(), r.end());
  return r;
}

NetRunConfig busy_run(Pattern p, double load, uint64_t seed) {
  NetRunConfig rc;
  rc.traffic.pattern.pattern = p;
  rc.traffic.load = load;
  rc.traffic.seed = seed;
  rc.warmup = 500;
  rc.measure = 3000;
  rc.ej_ready_prob = 0.8;
  rc.final_drain = NetRunConfig::Drain::always;
  return rc;
}

// The same traffic through the whole-mesh model and the network joined from blocks: the same
// statistics, the same latency of every packet, and the same flits on every link.
// starve_t: the routers' starvation threshold (a small one holds the injection ports often: the
// blocks must hold in the same cycles as the whole mesh).
void same_as_whole(const MeshShape& shape, NetMode mode, Pattern p, double load, unsigned threads = 1,
                   unsigned starve_t = NetFairness::kDefaultT) {
  auto whole = find_net(shape, mode) ? make_net(shape, mode) : nullptr;
  REQUIRE(whole);
  auto joined = make_joined(shape, mode, 0, threads);
  whole->set_fairness(NetFairness{starve_t, true});
  joined->set_fairness(NetFairness{starve_t, true});
  REQUIRE(joined->spec().threads == threads);
  REQUIRE(joined->spec().joined());
  CHECK_THAT(joined->spec().label(), Contains("joined"));
  INFO(whole->spec().label() << " against " << joined->spec().label() << " (" << joined->spec().model << "), "
                             << pattern_name(p) << " at " << load);
  const NetRunConfig rc = busy_run(p, load, 7);
  whole->engine().record_deliveries(true);
  joined->engine().record_deliveries(true);
  whole->enable_link_stats();
  joined->enable_link_stats();
  const NetStats a = whole->run(rc), b = joined->run(rc);
  REQUIRE(a.drained);
  REQUIRE(b.drained);
  CHECK(a.delivered > 100);
  if (starve_t < 100) CHECK(a.hold_cycles > 0);  // the backstop held the injection ports
  hpcnet::tb::check_same_run(a, b);
  const auto da = deliveries(whole->engine()), db = deliveries(joined->engine());
  REQUIRE(da.size() == a.delivered);
  CHECK(da == db);
  const NetLinkStats la = link_stats(*whole->link_probe()), lb = link_stats(*joined->link_probe());
  REQUIRE(la.links.size() == lb.links.size());
  for (size_t i = 0; i < la.links.size(); ++i) {
    INFO("link " << la.links[i].src << " -> " << la.links[i].dst);
    CHECK(la.links[i].flits == lb.links[i].flits);
  }
  for (size_t i = 0; i < la.inputs.size(); ++i) {
    CHECK(la.inputs[i].occupancy == lb.inputs[i].occupancy);
    CHECK(la.inputs[i].blocked == lb.inputs[i].blocked);
  }
}

uint64_t flit_hops(const NetEngine& e, unsigned pf) {
  uint64_t s = 0;
  for (const Delivery& d : e.deliveries()) s += uint64_t{d.hops} * pf;
  return s;
}

}  // namespace

// Two tiers (docs/testing.md). `make test`: every joined configuration against a whole model of the
// test build (4x4 in every mode, 3x3x3 ADBR from 2x2x2 blocks, the 4x4, 2x4 and 3x3x3 tori from
// single routers). `make test-long` adds the shapes whose whole models only the benchmarks build
// (8x8, 2x2, 4x4x4, the 8x8 and 4x4x4 tori).
TEST_CASE("joined: 8x8 from 4x4 blocks is the whole mesh cycle for cycle in every mode", "[net][joined][long]") {
  HPCNET_REQUIRE_BENCH_MODELS();
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct, NetMode::dor_wh})
    for (Pattern p : {Pattern::uniform, Pattern::transpose}) same_as_whole(MeshShape(8, 8), m, p, 0.3);
}

TEST_CASE("joined: with the starvation backstop holding often (T = 20) the blocks hold as the whole mesh", "[net][joined]") {
  same_as_whole(MeshShape(3, 3, 3), NetMode::adbr, Pattern::bitcomp, 0.4, 1, 20);
  same_as_whole(MeshShape(4, 4).as_torus(), NetMode::dor_vct, Pattern::uniform, 1.0, 1, 20);
  same_as_whole(MeshShape(3, 3, 3).as_torus(), NetMode::dor_vct, Pattern::uniform, 1.0, 1, 20);
}

TEST_CASE("joined: with the starvation backstop holding often (T = 20) the blocks hold as the whole 8x8 mesh", "[net][joined][long]") {
  HPCNET_REQUIRE_BENCH_MODELS();
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct, NetMode::dor_wh}) same_as_whole(MeshShape(8, 8), m, Pattern::bitcomp, 0.4, 1, 20);
  same_as_whole(MeshShape(8, 8), NetMode::adbr, Pattern::bitcomp, 0.4, 2, 20);
  same_as_whole(MeshShape(8, 8).as_torus(), NetMode::dor_vct, Pattern::bitcomp, 0.6, 1, 20);
}

TEST_CASE("joined: on 2 threads (groups of block rows with their own engine shards) as on one", "[net][joined][threads]") {
  same_as_whole(MeshShape(4, 4).as_torus(), NetMode::dor_vct, Pattern::uniform, 0.3, 2);
  // 5x8: blocks used in part along X; the two groups of 4 rows
  auto a = make_net(MeshShape(5, 8), NetMode::adbr), b = make_net(MeshShape(5, 8), NetMode::adbr, 0, 2);
  CHECK(b->spec().label() == "5x8 adbr b2 t2 joined");
  a->engine().record_deliveries(true);
  b->engine().record_deliveries(true);
  const NetRunConfig rc = busy_run(Pattern::uniform, 0.35, 9);
  hpcnet::tb::check_same_run(a->run(rc), b->run(rc));
  CHECK(deliveries(a->engine()) == deliveries(b->engine()));
}

TEST_CASE("joined: on 2 threads as the whole 8x8 and 4x4x4 meshes and the 8x8 torus", "[net][joined][threads][long]") {
  HPCNET_REQUIRE_BENCH_MODELS();
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct, NetMode::dor_wh}) same_as_whole(MeshShape(8, 8), m, Pattern::transpose, 0.3, 2);
  same_as_whole(MeshShape(4, 4, 4), NetMode::adbr, Pattern::uniform, 0.25, 2);
  same_as_whole(MeshShape(8, 8).as_torus(), NetMode::dor_vct, Pattern::uniform, 0.3, 2);
}

TEST_CASE("joined: 4x4 (one block with no link joined) is the whole mesh", "[net][joined]") {
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct, NetMode::dor_wh}) same_as_whole(MeshShape(4, 4), m, Pattern::transpose, 0.35);
}

TEST_CASE("joined: 4x4x4 (8 blocks) is the whole mesh", "[net][joined][long]") {
  HPCNET_REQUIRE_BENCH_MODELS();
  same_as_whole(MeshShape(4, 4, 4), NetMode::adbr, Pattern::uniform, 0.25);
}

TEST_CASE("joined: the watchdog's dump names the routers of every block by their network numbers", "[net][joined]") {
  auto net = make_net(MeshShape(5, 7), NetMode::adbr);
  NetRunConfig rc = busy_run(Pattern::bitcomp, 0.6, 4);
  net->start(rc);
  for (int i = 0; i < 300; ++i) net->step();
  const std::string d = net->engine().dump();
  CHECK_THAT(d, Contains("routers (5x7 adbr b2 joined; input buffers of 2 packets"));
  // bit-complement at 0.6 fills routers in all four blocks; only the 35 network routers are named
  for (const char* r : {"router 0 (0,0)", "router 34 (4,6)", "router 4 (4,0)", "router 30 (0,6)"}) CHECK_THAT(d, Contains(r));
  CHECK_THAT(d, !Contains("router 35 "));
}

TEST_CASE("joined: blocks used in part (3x3x3 from 2x2x2 blocks) are the whole mesh", "[net][joined]") {
  same_as_whole(MeshShape(3, 3, 3), NetMode::adbr, Pattern::uniform, 0.3);
  same_as_whole(MeshShape(3, 3, 3), NetMode::adbr, Pattern::bitcomp, 0.2);
}

TEST_CASE("joined: blocks used in part (2x2 in a 4x4 block) are the whole mesh", "[net][joined][long]") {
  HPCNET_REQUIRE_BENCH_MODELS();
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct, NetMode::dor_wh}) same_as_whole(MeshShape(2, 2), m, Pattern::uniform, 0.4);
}

TEST_CASE("joined: tori of single routers (4x4 2x4 3x3x3) are the whole torus cycle for cycle", "[net][joined][torus]") {
  same_as_whole(MeshShape(4, 4).as_torus(), NetMode::dor_vct, Pattern::uniform, 0.4);
  same_as_whole(MeshShape(2, 4).as_torus(), NetMode::dor_vct, Pattern::uniform, 0.4);
  same_as_whole(MeshShape(3, 3, 3).as_torus(), NetMode::dor_vct, Pattern::uniform, 0.3);
}

TEST_CASE("joined: tori of single routers (8x8 4x4x4) are the whole torus cycle for cycle", "[net][joined][torus][long]") {
  HPCNET_REQUIRE_BENCH_MODELS();
  same_as_whole(MeshShape(8, 8).as_torus(), NetMode::dor_vct, Pattern::uniform, 0.3);
  same_as_whole(MeshShape(8, 8).as_torus(), NetMode::dor_vct, Pattern::transpose, 0.2);
  same_as_whole(MeshShape(4, 4, 4).as_torus(), NetMode::dor_vct, Pattern::bitcomp, 0.3);
}

TEST_CASE("joined: any size runs and the modes and refusals name what exists", "[net][joined]") {
  const MeshShape odd(5, 7);
  CHECK(find_net(odd, NetMode::adbr) == nullptr);
  CHECK(net_unavailable(odd, NetMode::adbr).empty());
  CHECK(net_modes_for(odd) == std::vector<NetMode>{NetMode::adbr, NetMode::dor_vct, NetMode::dor_wh});
  CHECK(net_modes_for(MeshShape(6, 6).as_torus()) == std::vector<NetMode>{NetMode::dor_vct});
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct, NetMode::dor_wh}) {
    auto net = make_net(odd, m);
    CHECK(net->spec().label() == fmt::format("5x7 {} b2 joined", mode_name(m)));
    NetRunConfig rc = busy_run(Pattern::uniform, 0.3, 3);
    net->engine().record_deliveries(true);
    const NetStats s = net->run(rc);
    CHECK(s.drained);
    CHECK(s.delivered == s.created);
    INFO(net->spec().label());
    // the longest route of 5x7 (10 hops) was taken
    CHECK(s.hop_count.size() == 11);
    CHECK(s.hop_count[10] > 0);
  }
  // 3-D meshes: ADBR only; 3-D tori: DOR-VCT
  CHECK(net_modes_for(MeshShape(5, 3, 2)) == std::vector<NetMode>{NetMode::adbr});
  CHECK_THAT(net_unavailable(MeshShape(5, 3, 2), NetMode::dor_vct), Contains("no block tiles it"));
  CHECK_THAT(net_unavailable(MeshShape(5, 3, 2), NetMode::dor_vct), Contains("Vnet_blk_2x2x2_adbr"));
  CHECK(net_modes_for(MeshShape(3, 5, 2).as_torus()) == std::vector<NetMode>{NetMode::dor_vct});
  CHECK_THAT(net_unavailable(MeshShape(6, 6).as_torus(), NetMode::adbr), Contains("DOR-VCT with the bubble rule only"));
  CHECK_THAT(net_unavailable(MeshShape(5, 7), NetMode::adbr, 0, 2), Contains("2 threads need the radix 7 of dimension 1"));
  CHECK(net_unavailable(MeshShape(5, 8), NetMode::adbr, 0, 2).empty());
  CHECK_THAT(net_unavailable(MeshShape(5, 7), NetMode::adbr, 1), Contains("DBFC minimum"));
  CHECK_THAT(net_unavailable(MeshShape(5, 7), NetMode::adbr, 5), Contains("above the model's maximum 4"));
  CHECK_THROWS_WITH(make_net(MeshShape(5, 3, 2), NetMode::dor_wh), Contains("no 5x3x2 dorwh mesh model is built"));
}

TEST_CASE("link stats: per-link flits sum to the delivered flits times their hops (whole and joined)", "[net][linkstats]") {
  for (auto mk : {+[] { return make_net(MeshShape(4, 4), NetMode::adbr); }, +[] { return make_net(MeshShape(4, 4), NetMode::dor_wh); },
                  +[] { return make_net(MeshShape(6, 5), NetMode::dor_vct); },
                  +[] { return make_net(MeshShape(6, 4).as_torus(), NetMode::dor_vct); }}) {
    auto net = mk();
    INFO(net->spec().label());
    net->engine().record_deliveries(true);
    net->enable_link_stats();
    // run(): its measurement window only
    NetRunConfig rc = busy_run(Pattern::uniform, 0.35, 5);
    const NetStats s = net->run(rc);
    REQUIRE(s.drained);
    CHECK(link_stats(*net->link_probe()).cycles == rc.measure);
    // the whole run counted: run_until_drained after scripted packets
    net->start(rc);
    net->engine().set_generation(false);
    for (unsigned i = 0; i < net->engine().nodes(); ++i)
      for (unsigned j = 0; j < net->engine().nodes(); ++j) net->engine().enqueue(i, j);
    const uint64_t cyc = net->run_until_drained(1000000);
    const NetLinkStats all = link_stats(*net->link_probe());
    CHECK(all.cycles == cyc);
    CHECK(all.link_flits() == flit_hops(net->engine(), net->spec().pkt_flits));
    uint64_t injected = 0;
    for (const InputStat& i : all.inputs)
      if (i.port == 2 * net->spec().shape.dims) injected += i.flits;
    CHECK(injected == uint64_t{net->engine().nodes()} * net->engine().nodes() * net->spec().pkt_flits);
  }
}

TEST_CASE("link stats: a line of 8 routers with utilization by hand and blocked cycles only under contention", "[net][linkstats]") {
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct, NetMode::dor_wh}) {
    auto net = make_net(MeshShape(8, 1), m);  // joined: two 4x4 blocks, one row used
    INFO(net->spec().label());
    net->enable_link_stats();
    NetRunConfig rc;
    rc.traffic.load = 0;
    net->start(rc);
    NetEngine& e = net->engine();
    // 6 packets 0 -> 7 (X+ links 0->1 .. 6->7), 4 packets 7 -> 2 (X- links 7->6 .. 3->2)
    for (int i = 0; i < 6; ++i) e.enqueue(0, 7);
    for (int i = 0; i < 4; ++i) e.enqueue(7, 2);
    const uint64_t cyc = net->run_until_drained(100000);
    const NetLinkStats s = link_stats(*net->link_probe());
    REQUIRE(s.cycles == cyc);
    REQUIRE(s.links.size() == 14);  // 7 X+ and 7 X- links
    const unsigned pf = net->spec().pkt_flits;
    for (const LinkStat& l : s.links) {
      INFO(port_name(l.port, 2) << " " << l.src << " -> " << l.dst);
      const bool xp = l.port == 0, xm = l.port == 1;
      REQUIRE((xp || xm));
      const uint64_t want = xp ? 6u * pf : (l.src >= 3 ? 4u * pf : 0u);
      CHECK(l.flits == want);
      CHECK(l.utilization == Approx(static_cast<double>(want) / static_cast<double>(cyc)));
      // one stream per link and direction, one source each: a packet never waits for another
      CHECK(l.dst_blocked == 0);
    }
    // two sources into one ejection port: packets wait at router 7's inputs
    net->start(rc);
    for (int i = 0; i < 5; ++i) {
      e.enqueue(0, 7);
      e.enqueue(6, 7);
    }
    net->run_until_drained(100000);
    const NetLinkStats c = link_stats(*net->link_probe());
    uint64_t blocked = 0;
    for (const InputStat& i : c.inputs) blocked += i.router == 7 || i.router == 6 ? i.blocked : 0;
    CHECK(blocked > 0);
  }
}

TEST_CASE("link stats: CSV and latency histogram", "[net][linkstats]") {
  auto net = make_net(MeshShape(4, 4), NetMode::adbr);
  net->enable_link_stats();
  const NetStats s = net->run(busy_run(Pattern::transpose, 0.3, 2));
  const NetLinkStats ls = link_stats(*net->link_probe());
  CHECK(ls.links.size() == 48);  // 2 x (3 x 4) x 2 directions
  CHECK(ls.cycles == 3000);
  const std::string path = "net_research_links.csv";
  write_link_csv(ls, path);
  std::ifstream f(path);
  std::string header;
  std::getline(f, header);
  CHECK(header.rfind("src,dst,dir,src_x,src_y", 0) == 0);
  unsigned rows = 0;
  for (std::string l; std::getline(f, l);) ++rows;
  CHECK(rows == 48);
  for (unsigned w : {1u, 4u, 10u}) {
    const auto bins = latency_histogram(s, w);
    uint64_t n = 0;
    for (const HistBin& b : bins) {
      n += b.count;
      CHECK(b.hi - b.lo <= w);
    }
    CHECK(n == s.tagged_delivered);
    CHECK(bins.back().hi > s.lat_max);
    CHECK(bins.back().lo <= s.lat_max);
  }
}

TEST_CASE("trace: format errors name the line", "[net][trace]") {
  const MeshShape sh(4, 4);
  auto err = [&](const std::string& text) {
    std::istringstream in(text);
    try {
      parse_trace(in, "t.trace", sh, 5);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(err("0 1 2 5\n# c\n\n3 1 16 5\n"), Contains("t.trace:4: destination node 16 outside the 4x4 network (nodes 0..15)"));
  CHECK_THAT(err("0 1 2 5\n10 1 2 5\n9 1 2 5\n"), Contains("t.trace:3: time 9 before the previous line's 10"));
  CHECK_THAT(err("0 1 2 0\n"), Contains("t.trace:1: size 0 flits outside 1.."));
  CHECK_THAT(err("0 1 2\n"), Contains("t.trace:1: 3 fields, expected 4"));
  CHECK_THAT(err("0 1 -2 5\n"), Contains("t.trace:1: destination node '-2' is not an unsigned integer"));
  CHECK_THAT(err("x 1 2 5\n"), Contains("t.trace:1: time 'x'"));
  std::istringstream ok("# time src dst flits\n0 0 15 12  # three packets\n0 3 3 1\n7 15 0 5\n");
  const PacketTrace t = parse_trace(ok, "ok", sh, 5);
  CHECK(t.records.size() == 3);
  CHECK(t.packets() == 5);
  CHECK(t.padded_flits() == 3 + 4);
  CHECK(t.records[2].line == 4);
}

TEST_CASE("trace: every packet delivered once at 2 cycles per hop + 6 when alone", "[net][trace]") {
  for (bool joined : {false, true}) {
    const MeshShape sh(4, 4);
    auto net = joined ? make_joined(sh, NetMode::adbr) : make_net(sh, NetMode::adbr);
    INFO(net->spec().label());
    // sparse: one packet every 100 cycles, each alone in the network
    std::ostringstream txt;
    std::vector<std::pair<unsigned, unsigned>> sent;
    uint64_t t = 0;
    for (unsigned s = 0; s < 16; ++s)
      for (unsigned d : {(s * 7 + 3) % 16, 15 - s}) {
        txt << t << " " << s << " " << d << " 5\n";
        sent.emplace_back(s, d);
        t += 100;
      }
    std::istringstream in(txt.str());
    auto tr = std::make_shared<PacketTrace>(parse_trace(in, "sparse", sh, net->spec().pkt_flits));
    net->engine().set_trace(tr);
    net->engine().record_deliveries(true);
    NetRunConfig rc;
    rc.warmup = 0;
    rc.measure = tr->last_time() + 1;
    rc.final_drain = NetRunConfig::Drain::always;
    const NetStats s = net->run(rc);
    REQUIRE(s.drained);
    CHECK(!net->engine().trace_pending());
    REQUIRE(net->engine().deliveries().size() == sent.size());
    std::map<std::pair<unsigned, unsigned>, unsigned> want, got;
    for (const auto& p : sent) ++want[p];
    for (const Delivery& d : net->engine().deliveries()) {
      ++got[{d.tag.src, d.tag.dst}];
      const uint64_t i = d.tag.created / 100;  // the record's line - 1
      CHECK(d.tag.created % 100 == 0);
      CHECK(sent[i] == std::make_pair(d.tag.src, d.tag.dst));
      CHECK(d.delivered - d.tag.created == 2 * sh.hops(d.tag.src, d.tag.dst) + 6);
    }
    CHECK(got == want);
    CHECK(s.tagged_delivered == sent.size());
  }
}

TEST_CASE("trace: a dense trace with multi-packet messages and the example file", "[net][trace]") {
  auto net = make_net(MeshShape(8, 8), NetMode::dor_vct);
  std::ostringstream txt;
  uint64_t want = 0;
  for (unsigned t = 0; t < 400; t += 2)
    for (unsigned s = t % 5; s < 64; s += 5) {
      const unsigned flits = 1 + (s * 13 + t) % 17;
      txt << t << " " << s << " " << (s * 29 + t) % 64 << " " << flits << "\n";
      want += (flits + 4) / 5;
    }
  std::istringstream in(txt.str());
  net->engine().set_trace(std::make_shared<PacketTrace>(parse_trace(in, "dense", MeshShape(8, 8), 5)));
  net->engine().record_deliveries(true);
  NetRunConfig rc;
  rc.warmup = 0;
  rc.measure = 400;
  rc.final_drain = NetRunConfig::Drain::always;
  const NetStats s = net->run(rc);
  CHECK(s.drained);
  CHECK(s.delivered == want);
  std::map<std::pair<uint32_t, uint32_t>, int> seen;  // (src, seq): once each
  for (const Delivery& d : net->engine().deliveries()) CHECK(++seen[{d.tag.src, d.tag.seq}] == 1);
  const PacketTrace ex = load_trace(HPCNET_EXAMPLE_TRACE, MeshShape(8, 8), 5);
  CHECK(ex.records.size() >= 10);
  net->engine().set_trace(std::make_shared<PacketTrace>(ex));
  rc.measure = ex.last_time() + 1;
  const NetStats x = net->run(rc);
  CHECK(x.drained);
  CHECK(x.delivered == ex.packets());
}

// Idle gaps (issue 34): with nothing outstanding for kIdleQuiet cycles and nothing due, the run
// jumps to the next message's time instead of simulating the idle cycles one by one. The routers
// are idle then, so every delivery (cycle, hops, order) and the cycle count are those of the run
// cycle by cycle, in every mode, joined and whole, with link statistics counting the idle cycles.
TEST_CASE("trace: idle gaps skipped give the deliveries of the run cycle by cycle", "[net][trace]") {
  std::ostringstream txt;
  for (uint64_t burst = 0; burst < 4; ++burst)  // bursts of contention 3000 cycles apart
    for (unsigned k = 0; k < 24; ++k) txt << burst * 3000 + k / 3 << " " << (k * 5) % 16 << " " << (k * 11 + burst) % 16 << " 7\n";
  for (const std::string name : {"Vnet_mesh_4x4_adbr", "Vnet_mesh_4x4_dorvct", "Vnet_mesh_4x4_dorwh", "Vnet_torus_4x4_dorvct", "joined"}) {
    INFO(name);
    std::vector<Delivery> runs[2];
    NetStats st[2];
    uint64_t link_cycles[2] = {0, 0};
    for (int skip = 0; skip < 2; ++skip) {
      auto net = name == "joined" ? make_joined(MeshShape(4, 4), NetMode::adbr) : make_net(name);
      std::istringstream in(txt.str());
      net->engine().set_trace(std::make_shared<PacketTrace>(parse_trace(in, "bursts", net->spec().shape, net->spec().pkt_flits)));
      net->engine().record_deliveries(true);
      net->enable_link_stats();
      NetRunConfig rc;
      rc.warmup = 0;
      rc.measure = 9000 + 1;
      rc.final_drain = NetRunConfig::Drain::always;
      rc.skip_idle = skip == 1;
      st[skip] = net->run(rc);
      runs[skip] = net->engine().deliveries();
      link_cycles[skip] = link_stats(*net->link_probe()).cycles;
    }
    CHECK(st[0].skipped == 0);
    CHECK(st[1].skipped > 8000);  // about 3 x 3000 cycles less the bursts and the quiet time
    CHECK(st[0].cycles == st[1].cycles);
    CHECK(st[0].lat_sum == st[1].lat_sum);
    CHECK(link_cycles[0] == link_cycles[1]);
    REQUIRE(runs[0].size() == 4 * 24 * 2);
    REQUIRE(runs[0].size() == runs[1].size());
    for (size_t i = 0; i < runs[0].size(); ++i) {
      const Delivery &a = runs[0][i], &b = runs[1][i];
      CHECK(std::tie(a.tag.src, a.tag.dst, a.tag.seq, a.tag.created, a.injected, a.delivered, a.hops) ==
            std::tie(b.tag.src, b.tag.dst, b.tag.seq, b.tag.created, b.injected, b.delivered, b.hops));
    }
  }
}

// A message at cycle 2^40 (the latest a trace takes) runs at once, with its exact latency and the
// run's exact cycle count.
TEST_CASE("trace: a message at cycle 2^40 runs in moments with exact latency", "[net][trace]") {
  auto net = make_net(MeshShape(4, 4), NetMode::adbr);
  const uint64_t late = kMaxTraceTime;
  std::istringstream in(fmt::format("0 0 5 5\n{} 3 12 10\n", late));
  net->engine().set_trace(std::make_shared<PacketTrace>(parse_trace(in, "late", MeshShape(4, 4), 5)));
  net->engine().record_deliveries(true);
  NetRunConfig rc;
  rc.warmup = 0;
  rc.measure = late + 1;
  rc.final_drain = NetRunConfig::Drain::always;
  rc.skip_idle = true;
  const auto t0 = std::chrono::steady_clock::now();
  const NetStats s = net->run(rc);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  REQUIRE(s.tagged_delivered == 3);
  const MeshShape sh(4, 4);
  const auto& d = net->engine().deliveries();
  CHECK(d[0].delivered - d[0].tag.created == 2 * sh.hops(0, 5) + 6);
  CHECK(d[1].tag.created == late);
  CHECK(d[1].delivered - late == 2 * sh.hops(3, 12) + 6);
  CHECK(d[2].delivered - late == 2 * sh.hops(3, 12) + 6 + 5);  // the message's second packet, right behind
  CHECK(s.cycles == d[2].delivered + 1);
  CHECK(s.skipped > late - 1000);
  CHECK(s.lat_max == 2 * sh.hops(3, 12) + 6 + 5);
}
