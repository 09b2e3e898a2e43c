// test_rtr_router: one router (rtr_router, K0 = K1 = K2 = 1) driven through its boundary ports
// (rtr_tb.hpp): zero-load timing, DAMQ behaviour (a blocked packet does not block a later one,
// arrival order per output, capacity), DBFC admission, wormhole flit credits, the run-time buffer
// depth (buf_pkts_i below the model's BufPkts: the credits advertised and the slots used; values
// outside the allowed range rejected by an assertion), heads whose route leaves the network
// (ejected where they are, unchanged), and random traffic in every mode checked
// end to end (every packet once, on a productive output, route field and
// hop counter updated, payload intact, order per input and output in DOR). RTL assertions
// (credits, overflow, protocol) throw from the harness.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <random>
#include <set>

#include "Vrtr_router_2d_adbr.h"
#include "Vrtr_router_2d_dorvct.h"
#include "Vrtr_router_2d_dorwh.h"
#include "Vrtr_router_3d_adbr.h"
#include "sim/core/errors.hpp"
#include "hpcnet/tb/seed.hpp"
#include "rtr_tb.hpp"

using namespace rtrtb;

namespace {
// Network ports: 0 X+, 1 X-, 2 Y+, 3 Y-, (4 Z+, 5 Z-), then local.
constexpr unsigned kXp = 0, kXm = 1, kYp = 2;

template <class V>
void run_until_idle(RouterTb<V>& tb, unsigned limit = 2000) {
  for (unsigned i = 0; i < limit && !tb.idle(); ++i) tb.cycle();
  tb.run(40);
}
}  // namespace

TEST_CASE("rtr_router: zero-load timing of 2 cycles per hop with flits back to back", "[rtr_router]") {
  RouterTb<Vrtr_router_2d_adbr> tb(2, 2, false);
  std::uint64_t t0 = tb.now();
  tb.send(kXp, packet(7, 3, 0));  // travelling X+, 3 hops left in X
  tb.run(12);
  auto& o = tb.out[kXp];
  REQUIRE(o.size() == kFlits);
  // driven (as an upstream router's decision) in cycle t0, decided here 2 cycles later: in the
  // input's link register at the edge ending t0, in the buffer at the next, sent at the one after
  for (unsigned i = 0; i < kFlits; ++i) REQUIRE(o[i].cycle == t0 + 2 + i);
  REQUIRE(hop_of(o[0].data, 0) == 2);
  REQUIRE((o[0].data >> 24 & 0xff) == 1);  // hop counter
  for (unsigned i = 1; i < kFlits; ++i) REQUIRE(o[i].data == body_flit(7, i));
  // injection to ejection of a node's own packet: 2 cycles as well
  std::uint64_t t1 = tb.now();
  tb.send(tb.nn, packet(8, 0, 0));
  tb.run(12);
  REQUIRE(tb.out[tb.nn].size() == kFlits);
  REQUIRE(tb.out[tb.nn][0].cycle == t1 + 2);
  REQUIRE(tb.out[tb.nn][4].cycle == t1 + 6);
  REQUIRE(tb.out[tb.nn][0].data == head_flit(8, 0, 0));
}

// VCT credit timing (docs/router.md, Input buffers and credits): a slot's credit goes back with the
// flit before the tail when the tail is already in the buffer and the packet leaves on a network
// output (it cannot stall there: the tail leaves at the next edge, before a head sent for the credit
// can arrive); otherwise with the tail.
TEMPLATE_TEST_CASE("rtr_router VCT: early credit with the flit before the tail or else with the tail",
                   "[rtr_router][credit]", Vrtr_router_2d_adbr, Vrtr_router_2d_dorvct) {
  RouterTb<TestType> tb(2, 2, false);
  SECTION("network output with the tail here: with flit 3") {
    tb.send(kXp, packet(1, 2, 0));
    tb.run(12);
    REQUIRE(tb.out[kXp].size() == kFlits);
    REQUIRE(tb.cred_at[kXp] == std::vector<std::uint64_t>{tb.out[kXp][kFlits - 2].cycle});
  }
  SECTION("ejection: with the tail") {
    tb.send(kXp, packet(2, 0, 0));
    tb.run(12);
    REQUIRE(tb.out[tb.nn].size() == kFlits);
    // the pulse is the decision to read the tail; the ejection port is a register: one cycle later
    REQUIRE(tb.cred_at[kXp] == std::vector<std::uint64_t>{tb.out[tb.nn][kFlits - 1].cycle - 1});
  }
  SECTION("network output with the tail not here yet: with the tail") {
    tb.ingap[kXp] = true;
    tb.send(kXp, packet(3, 2, 0));
    unsigned calls = 0;  // the input's flits 0-3 go at once, then 3 idle cycles, then the tail
    auto gap = [&calls] {
      const unsigned c = calls++;
      return c >= 4 && c < 7;
    };
    for (unsigned i = 0; i < 16; ++i) tb.cycle(gap);
    REQUIRE(tb.out[kXp].size() == kFlits);
    REQUIRE(tb.out[kXp][kFlits - 1].cycle > tb.out[kXp][kFlits - 2].cycle + 1);  // the tail waited
    REQUIRE(tb.cred_at[kXp] == std::vector<std::uint64_t>{tb.out[kXp][kFlits - 1].cycle});
  }
}

TEST_CASE("rtr_router DOR-VCT with 1-packet buffers: a head follows the early credit without overflow",
          "[rtr_router][credit]") {
  // One slot per input: every packet reuses the slot of the one before; an overflow would fail
  // the RTL assertion a_no_overflow (AssertionFailed). Head to head: 5 flits + 1 cycle.
  RouterTb<Vrtr_router_2d_dorvct> tb(2, 1, false);
  for (unsigned id = 1; id <= 4; ++id) tb.send(kXp, packet(id, 3, 0));
  run_until_idle(tb);
  const auto ps = tb.packets(kXp);
  REQUIRE(ps.size() == 4);
  for (unsigned k = 0; k < 4; ++k) {
    REQUIRE(id_of(ps[k][0]) == k + 1);
    for (unsigned i = 1; i < kFlits; ++i) REQUIRE(ps[k][i] == body_flit(k + 1, i));
  }
  for (unsigned k = 1; k < 4; ++k) REQUIRE(tb.out[kXp][k * kFlits].cycle == tb.out[kXp][(k - 1) * kFlits].cycle + kFlits + 1);
  REQUIRE(tb.cred_at[kXp].size() == 4);
}

TEST_CASE("rtr_router: an assertion is reported by its own harness while other harnesses exist",
          "[rtr_router][harness]") {
  using hpcnet::sim::AssertionFailed;
  // Verilator reports a failed assertion to the thread's current context; every harness makes its
  // own context current (Harness). The newer harness is destroyed first: the older one's model is
  // then destroyed with its own context (not the destroyed one).
  auto older = std::make_unique<RouterTb<Vrtr_router_2d_adbr>>(2, 2, false);
  auto newer = std::make_unique<RouterTb<Vrtr_router_2d_adbr>>(2, 2, false);
  older->m.buf_pkts_i = 1;  // below the DBFC minimum: a_buf_pkts fails at reset
  REQUIRE_THROWS_AS(hpcnet::tb::sync_reset(older->h), AssertionFailed);
  REQUIRE_NOTHROW(newer->run(5));
  newer->send(kXp, packet(1, 2, 0));
  REQUIRE_NOTHROW(newer->run(12));
  REQUIRE(newer->out[kXp].size() == kFlits);
  newer.reset();
  older->m.buf_pkts_i = 2;
  REQUIRE_NOTHROW(hpcnet::tb::sync_reset(older->h));
  older->send(kXp, packet(2, 2, 0));
  REQUIRE_NOTHROW(older->run(12));
  REQUIRE(older->out[kXp].size() == kFlits);
  older.reset();
}

TEST_CASE("rtr_router DAMQ: a blocked packet does not block a later one", "[rtr_router][damq]") {
  RouterTb<Vrtr_router_2d_adbr> tb(2, 2, false);
  tb.hold_credits(kXp);
  tb.send(kXp, packet(1, 2, 0));
  tb.send(kXp, packet(2, 2, 0));
  tb.run(20);
  REQUIRE(tb.packets(kXp).size() == 2);  // both credits of X+ used
  tb.send(kXp, packet(3, 2, 0));         // blocked: X+ has no credit
  tb.send(kXp, packet(4, 0, 1));         // behind it in the same buffer, to Y+
  tb.run(30);
  REQUIRE(tb.packets(kXp).size() == 2);
  REQUIRE(tb.packets(kYp).size() == 1);
  REQUIRE(id_of(tb.packets(kYp)[0][0]) == 4);
  tb.return_credit(kXp);
  tb.run(20);
  REQUIRE(tb.packets(kXp).size() == 3);
  REQUIRE(id_of(tb.packets(kXp)[2][0]) == 3);
}

TEST_CASE("rtr_router DAMQ: packets to the same output leave in arrival order", "[rtr_router][damq]") {
  SECTION("DOR-VCT with 2 slots") {
    RouterTb<Vrtr_router_2d_dorvct> tb(2, 2, false);
    tb.hold_credits(kXp);
    for (unsigned id = 1; id <= 4; ++id) tb.send(kXp, packet(id, 2, 1));
    tb.run(40);
    REQUIRE(tb.packets(kXp).size() == 2);
    for (unsigned n = 0; n < 2; ++n) {
      tb.return_credit(kXp);
      tb.run(20);
    }
    tb.auto_credits(kXp);
    tb.return_credit(kXp, tb.held[kXp]);
    run_until_idle(tb);
    auto ps = tb.packets(kXp);
    REQUIRE(ps.size() == 4);
    for (unsigned n = 0; n < 4; ++n) REQUIRE(id_of(ps[n][0]) == n + 1);
  }
  SECTION("ADBR with 3 slots and two outputs interleaved") {
    RouterTb<Vrtr_router_2d_adbr> tb(2, 3, false);
    tb.hold_credits(kXp);
    tb.hold_credits(kYp);
    // x-only and y-only packets alternate in one buffer; each output sees its own in order
    for (unsigned id = 1; id <= 12; ++id) tb.send(kXp, id % 2 ? packet(id, 1, 0) : packet(id, 0, 1));
    for (unsigned step = 0; step < 40; ++step) {
      tb.run(15);
      if (tb.held[kXp]) tb.return_credit(kXp);
      if (step % 2 && tb.held[kYp]) tb.return_credit(kYp);
    }
    auto px = tb.packets(kXp), py = tb.packets(kYp);
    REQUIRE(px.size() == 6);
    REQUIRE(py.size() == 6);
    for (unsigned n = 0; n < 6; ++n) {
      REQUIRE(id_of(px[n][0]) == 2 * n + 1);
      REQUIRE(id_of(py[n][0]) == 2 * n + 2);
    }
  }
}

TEST_CASE("rtr_router DAMQ capacity: the injection port takes BufPkts packets", "[rtr_router][damq]") {
  auto check = [](auto& tb) {
    tb.ej_ready = false;
    for (unsigned id = 1; id <= 6; ++id) tb.send(tb.nn, packet(id, 0, 0));
    tb.run(60);
    // the ejection buffer holds 2 flits of the first packet, which keeps its slot
    REQUIRE(tb.inj_accepted == tb.bufpkts * kFlits);
    REQUIRE(tb.out[tb.nn].empty());
    tb.ej_ready = true;
    run_until_idle(tb);
    auto ps = tb.packets(tb.nn);
    REQUIRE(ps.size() == 6);
    for (unsigned n = 0; n < 6; ++n) REQUIRE(ps[n] == packet(n + 1, 0, 0));
  };
  SECTION("2 slots") {
    RouterTb<Vrtr_router_2d_adbr> tb(2, 2, false);
    check(tb);
  }
  SECTION("3 slots") {
    RouterTb<Vrtr_router_2d_adbr> tb(2, 3, false);
    check(tb);
  }
}

TEST_CASE("rtr_router DBFC: a packet with hops in two dimensions needs two free slots", "[rtr_router][dbfc]") {
  RouterTb<Vrtr_router_2d_adbr> tb(2, 2, false);
  tb.hold_credits(kXp);
  tb.hold_credits(kYp);
  tb.send(tb.nn, packet(1, 1, 0));  // X+ now has 1 free slot
  tb.send(tb.nn, packet(2, 0, 1));  // Y+ now has 1 free slot
  tb.run(30);
  REQUIRE(tb.packets(kXp).size() == 1);
  REQUIRE(tb.packets(kYp).size() == 1);
  tb.send(tb.nn, packet(3, 1, 1));  // k = 2: neither output admits it
  tb.send(tb.nn, packet(4, 3, 0));  // k = 1: X+ admits it
  tb.run(40);
  REQUIRE(tb.packets(kXp).size() == 2);
  REQUIRE(id_of(tb.packets(kXp)[1][0]) == 4);
  REQUIRE(tb.packets(kYp).size() == 1);
  tb.return_credit(kYp);  // Y+ has 2 free slots
  tb.run(20);
  auto py = tb.packets(kYp);
  REQUIRE(py.size() == 2);
  REQUIRE(id_of(py[1][0]) == 3);
  REQUIRE(hop_of(py[1][0], 0) == 1);  // still one hop in X
  REQUIRE(hop_of(py[1][0], 1) == 0);
  REQUIRE((py[1][0] >> 24 & 0xff) == 1);
}

// A credit pulse counts in the decisions of the cycle it arrives in (counter + pulse): a packet
// waiting for a slot leaves in that cycle, its head on the link in the next one.
TEST_CASE("rtr_router credits: a returned slot is used in the cycle its credit arrives", "[rtr_router][credits]") {
  RouterTb<Vrtr_router_2d_adbr> tb(2, 2, false);
  tb.hold_credits(kXp);
  tb.send(tb.nn, packet(1, 3, 0));
  tb.send(tb.nn, packet(2, 3, 0));
  tb.send(tb.nn, packet(3, 3, 0));  // X+ has no free slot left for this one
  tb.run(40);
  REQUIRE(tb.packets(kXp).size() == 2);
  const std::uint64_t pulse = tb.now();
  tb.return_credit(kXp);  // out_cred_i high during the next cycle (cycle `pulse`)
  tb.run(12);
  REQUIRE(tb.packets(kXp).size() == 3);
  CHECK(id_of(tb.packets(kXp)[2][0]) == 3);
  CHECK(tb.out[kXp][2 * kFlits].cycle == pulse + 1);  // granted in cycle `pulse`, on the link next
}

TEST_CASE("rtr_router ADBR: the selection prefers the output with more free slots", "[rtr_router][adbr]") {
  RouterTb<Vrtr_router_2d_adbr> tb(2, 3, false);
  tb.hold_credits(kXp);
  tb.send(tb.nn, packet(1, 4, 0));  // X+ now has 2 free slots, Y+ 3
  tb.run(20);
  tb.send(tb.nn, packet(2, 1, 3));  // fewer hops in X (preferred on a tie) but Y+ has more slots
  tb.run(20);
  REQUIRE(tb.packets(kYp).size() == 1);
  REQUIRE(id_of(tb.packets(kYp)[0][0]) == 2);
  tb.return_credit(kXp);            // X+ 3 free again, Y+ 3 (its credit came back)
  tb.hold_credits(kYp);
  tb.run(20);
  tb.send(tb.nn, packet(3, 2, 2));  // a tie in credits and in hops: the lower dimension
  tb.run(20);
  REQUIRE(tb.packets(kXp).size() == 2);
  REQUIRE(id_of(tb.packets(kXp)[1][0]) == 3);
}

TEST_CASE("rtr_router DOR-wormhole: flit credits and a packet may stop on the way", "[rtr_router][wormhole]") {
  RouterTb<Vrtr_router_2d_dorwh> tb(2, 2, true);  // 2 of the model's 3 packets: 10 flit credits
  tb.hold_credits(kXp);
  for (unsigned id = 1; id <= 3; ++id) tb.send(tb.nn, packet(id, 2, 0));
  tb.run(60);
  REQUIRE(tb.out[kXp].size() == 2 * kFlits);  // 10 flit credits
  tb.return_credit(kXp, 3);
  tb.run(20);
  REQUIRE(tb.out[kXp].size() == 2 * kFlits + 3);  // the third packet stops after 3 flits
  tb.return_credit(kXp, 2);
  tb.run(20);
  auto ps = tb.packets(kXp);
  REQUIRE(ps.size() == 3);
  REQUIRE(id_of(ps[2][0]) == 3);
  REQUIRE(ps[2][4] == body_flit(3, 4));
}

TEMPLATE_TEST_CASE("rtr_router: a head whose route leaves the network is ejected where it is and unchanged",
                   "[rtr_router][unroutable]", Vrtr_router_2d_adbr, Vrtr_router_2d_dorvct, Vrtr_router_2d_dorwh) {
  constexpr bool wh = std::is_same_v<TestType, Vrtr_router_2d_dorwh>;
  RouterTb<TestType> tb(2, 2, wh);
  tb.m.out_en_i = 0xE;  // no neighbour behind X+ (a mesh edge)
  const std::map<unsigned, std::vector<std::uint64_t>> bad{
      {1, packet(1, 2, 0)},     // injected, towards the missing link
      {2, packet(2, 1, 0)},     // arrives travelling X+ with an X+ hop left
      {3, packet(3, 0, 0, 1)},  // a hop in dimension 2 of a 2-D router
      {5, packet(5, 1, -2)}};   // ADBR: X+ is one of two productive ports; DOR: X+ first
  tb.send(tb.nn, bad.at(1));
  tb.send(kXp, bad.at(2));
  tb.send(kYp, bad.at(3));
  tb.send(tb.nn, packet(4, -1, 1));  // routable: leaves on X- or Y+
  tb.send(tb.nn, bad.at(5));
  run_until_idle(tb);
  REQUIRE(tb.out[kXp].empty());
  // each unroutable packet ejected once, every flit as it came in: route field and hop counter kept
  std::map<unsigned, std::vector<std::uint64_t>> ejected;
  for (const auto& p : tb.packets(tb.nn)) REQUIRE(ejected.emplace(id_of(p[0]), p).second);
  REQUIRE(ejected == bad);
  std::vector<unsigned> sent;
  for (unsigned o = 1; o < tb.nn; ++o)
    for (const auto& p : tb.packets(o)) sent.push_back(id_of(p[0]));
  REQUIRE(sent == std::vector<unsigned>{4});
}

namespace {
// Random traffic on every input; credits come back after random delays; the ejection port
// stalls at random; inputs have random gaps. Checks every packet end to end.
template <class V>
void random_traffic(unsigned dims, unsigned bufpkts, bool wormhole, bool dor, const char* name) {
  std::mt19937_64 rng(hpcnet::tb::seed(name));
  RouterTb<V> tb(dims, bufpkts, wormhole);
  const unsigned np = tb.nn + 1;
  struct Sent {
    unsigned in;
    std::vector<std::uint64_t> pkt;
  };
  std::map<unsigned, Sent> sent;
  std::map<std::pair<unsigned, unsigned>, std::vector<unsigned>> order;  // (in, out) -> ids
  unsigned next_id = 1;
  for (unsigned p = 0; p < np; ++p) tb.ingap[p] = rng() % 2;
  for (unsigned o = 0; o < tb.nn; ++o) tb.auto_credits(o, int(rng() % 6));
  auto gap = [&] { return rng() % 3 == 0; };
  for (int c = 0; c < 20000; ++c) {
    for (unsigned p = 0; p < np; ++p) {
      if (tb.inq[p].size() >= 3 || rng() % 16) continue;
      // a route consistent with the input: a packet travelling in direction p has no hops
      // left in the opposite direction of p's dimension (minimal routing)
      int hop[3] = {0, 0, 0};
      for (unsigned d = 0; d < dims; ++d) hop[d] = int(rng() % 7) - 3;
      if (p < tb.nn) {
        unsigned d = p / 2;
        hop[d] = (p % 2 == 0) ? std::abs(hop[d]) : -std::abs(hop[d]);
        if (dor)  // dimension order: the lower dimensions are done
          for (unsigned e = 0; e < d; ++e) hop[e] = 0;
      }
      auto pk = packet(next_id, hop[0], hop[1], hop[2]);
      sent[next_id] = {p, pk};
      tb.send(p, pk);
      ++next_id;
    }
    tb.ej_ready = rng() % 4 != 0;
    tb.cycle(gap);
  }
  for (unsigned p = 0; p < np; ++p) tb.ingap[p] = false;
  tb.ej_ready = true;
  run_until_idle(tb, 5000);
  // every packet out exactly once, on a productive port, updated and intact
  std::set<unsigned> seen;
  for (unsigned o = 0; o < np; ++o) {
    REQUIRE(tb.out[o].size() % kFlits == 0);
    for (auto& pk : tb.packets(o)) {
      unsigned id = id_of(pk[0]);
      INFO("packet " << id << " on output " << o);
      REQUIRE(sent.count(id) == 1);
      REQUIRE(seen.insert(id).second);
      const auto& s = sent[id];
      for (unsigned i = 1; i < kFlits; ++i) REQUIRE(pk[i] == s.pkt[i]);
      int h0[3], h1[3];
      for (unsigned d = 0; d < 3; ++d) {
        h0[d] = hop_of(s.pkt[0], d);
        h1[d] = hop_of(pk[0], d);
      }
      if (o == tb.nn) {
        for (unsigned d = 0; d < dims; ++d) REQUIRE(h0[d] == 0);
        REQUIRE(pk[0] == s.pkt[0]);
      } else {
        unsigned d = o / 2;
        int step = (o % 2 == 0) ? 1 : -1;
        REQUIRE(h0[d] * step > 0);  // productive
        if (dor)
          for (unsigned e = 0; e < d; ++e) REQUIRE(h0[e] == 0);
        for (unsigned e = 0; e < 3; ++e) REQUIRE(h1[e] == h0[e] - (e == d ? step : 0));
        REQUIRE((pk[0] >> 24 & 0xff) == 1);
        REQUIRE((pk[0] >> 32) == id);
      }
      order[{s.in, o}].push_back(id);
    }
  }
  REQUIRE(seen.size() == sent.size());
  if (dor)
    for (auto& [k, ids] : order)
      for (size_t i = 1; i < ids.size(); ++i) REQUIRE(ids[i - 1] < ids[i]);
}
}  // namespace

TEST_CASE("rtr_router random traffic: 2-D ADBR", "[rtr_router][random]") {
  random_traffic<Vrtr_router_2d_adbr>(2, 2, false, false, "rtr_router 2d adbr");
}
TEST_CASE("rtr_router random traffic: 2-D ADBR with 3 slots", "[rtr_router][random]") {
  random_traffic<Vrtr_router_2d_adbr>(2, 3, false, false, "rtr_router 2d adbr b3");
}
TEST_CASE("rtr_router random traffic: 2-D DOR-VCT (order per input and output)", "[rtr_router][random]") {
  random_traffic<Vrtr_router_2d_dorvct>(2, 2, false, true, "rtr_router 2d dorvct");
}
TEST_CASE("rtr_router random traffic: 2-D DOR-wormhole", "[rtr_router][random]") {
  random_traffic<Vrtr_router_2d_dorwh>(2, 2, true, true, "rtr_router 2d dorwh");
}
TEST_CASE("rtr_router random traffic: 3-D ADBR", "[rtr_router][random]") {
  random_traffic<Vrtr_router_3d_adbr>(3, 3, false, false, "rtr_router 3d adbr");
}

// Vrtr_router_2d_adbr is built with BufPkts = 3, Vrtr_router_2d_dorwh with 3 x 5 flit entries per
// input. At depth d each network output advertises d packets (d x 5 flits) of credit, and the
// injection buffer takes d packets (d x 5 flits): with the credits of X+ held, X+ sends d packets
// and the injection port accepts 2d (d sent, d waiting).
TEST_CASE("rtr_router run-time buffer depth: credits advertised and slots used", "[rtr_router][depth]") {
  auto vct = [](unsigned depth) {
    RouterTb<Vrtr_router_2d_adbr> tb(2, depth, false);
    tb.hold_credits(kXp);
    for (unsigned id = 1; id <= 8; ++id) tb.send(tb.nn, packet(id, 1, 0));
    tb.run(100);
    REQUIRE(tb.packets(kXp).size() == depth);
    REQUIRE(tb.out[kXp].size() == depth * kFlits);
    REQUIRE(tb.inj_accepted == 2 * depth * kFlits);
  };
  SECTION("ADBR depth 2 of 3") { vct(2); }
  SECTION("ADBR depth 3 of 3") { vct(3); }
  auto wh = [](unsigned depth) {
    RouterTb<Vrtr_router_2d_dorwh> tb(2, depth, true);
    tb.hold_credits(kXp);
    for (unsigned id = 1; id <= 8; ++id) tb.send(tb.nn, packet(id, 1, 0));
    tb.run(100);
    REQUIRE(tb.out[kXp].size() == depth * kFlits);
    REQUIRE(tb.inj_accepted == 2 * depth * kFlits);
  };
  SECTION("DOR-wormhole depth 1 of 3") { wh(1); }
  SECTION("DOR-wormhole depth 2 of 3") { wh(2); }
  SECTION("DOR-wormhole depth 3 of 3") { wh(3); }
}

TEST_CASE("rtr_router run-time buffer depth: values outside the range fail an assertion at reset",
          "[rtr_router][depth]") {
  using hpcnet::sim::AssertionFailed;
  // ADBR: Dims (the DBFC minimum) .. BufPkts; DOR: 1 .. BufPkts
  REQUIRE_THROWS_AS(RouterTb<Vrtr_router_2d_adbr>(2, 1, false), AssertionFailed);
  REQUIRE_THROWS_AS(RouterTb<Vrtr_router_2d_adbr>(2, 4, false), AssertionFailed);
  REQUIRE_THROWS_AS(RouterTb<Vrtr_router_3d_adbr>(3, 2, false), AssertionFailed);
  REQUIRE_THROWS_AS(RouterTb<Vrtr_router_2d_dorvct>(2, 0, false), AssertionFailed);
  REQUIRE_THROWS_AS(RouterTb<Vrtr_router_2d_dorvct>(2, 3, false), AssertionFailed);
  REQUIRE_NOTHROW(RouterTb<Vrtr_router_2d_dorvct>(2, 1, false));
  REQUIRE_NOTHROW(RouterTb<Vrtr_router_3d_adbr>(3, 3, false));
}
