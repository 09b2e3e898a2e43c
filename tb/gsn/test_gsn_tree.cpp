// test_gsn_tree: directed tests of gsn_tree: latency per configuration against the documented
// formula (and a table of it), the combine order on a non-commutative case (double sum), errors
// (mismatched kind/type/op, err bit, a child contributing twice), slot-full back-pressure, and
// Nodes = 1. The random tests are in test_gsn_random.cpp.
#include "gsn_models.hpp"
#include "sim/core/errors.hpp"

using namespace gsnt;

namespace {

constexpr unsigned kAluLatency = 4;  // ssm_alu

// Every leaf presents its message in cycle 0 with dn_ready high everywhere; returns the cycle in
// which the leaves see the result (all in the same cycle) and checks the result.
template <class V>
unsigned measure(const std::vector<Msg>& msgs) {
  using Tb = GsnTb<V>;
  Tb tb;
  for (unsigned n = 0; n < Tb::N; ++n) {
    tb.up_valid[n] = true;
    tb.up_msg[n] = msgs[n];
    tb.dn_ready[n] = true;
  }
  tb.cycle();
  for (unsigned n = 0; n < Tb::N; ++n) REQUIRE(tb.up_ready[n]);  // all taken at once
  std::fill(tb.up_valid.begin(), tb.up_valid.end(), false);
  const Msg expect = reference(msgs, Tb::R);
  for (unsigned t = 1; t < 500; ++t) {
    tb.cycle();
    if (tb.dn_valid[0]) {
      for (unsigned n = 0; n < Tb::N; ++n) {
        INFO("leaf " << n);
        REQUIRE(tb.dn_valid[n]);
        REQUIRE(tb.dn_msg[n] == expect);
      }
      tb.cycle();
      for (unsigned n = 0; n < Tb::N; ++n) REQUIRE(!tb.dn_valid[n]);
      return t;
    }
  }
  FAIL("no result");
  return 0;
}

std::vector<Msg> ops(unsigned n, Kind kind, RedType type, RedOp op, std::uint64_t addr) {
  std::vector<Msg> v(n);
  for (unsigned i = 0; i < n; ++i) {
    v[i].addr = addr;
    v[i].kind = kind;
    v[i].type = type;
    v[i].op = op;
    v[i].value = kind == kReduce ? 1000 + i : 0;
  }
  return v;
}

// Documented latency: up 2 cycles per level (barrier, or a node with one child), 2 + (k-1)*L for
// a reduce at a node with k children (the critical path runs through the fullest node, the first
// of each level); down 1 cycle per level.
unsigned expected_latency(unsigned nodes, unsigned radix, Kind kind) {
  unsigned t = 0;
  for (unsigned k : first_node_children(nodes, radix))
    t += 2 + (kind == kReduce ? (k - 1) * kAluLatency : 0) + 1;
  return t;
}

template <class V>
void latency_row() {
  constexpr unsigned N = Cfg<V>::nodes, R = Cfg<V>::radix;
  unsigned b = measure<V>(ops(N, kBarrier, RedType::INT64, RedOp::SUM, 0x1000));
  unsigned r = measure<V>(ops(N, kReduce, RedType::INT64, RedOp::SUM, 0x2000));
  std::printf("%-22s nodes %2u radix %u depth %u: barrier %3u cycles, reduce %3u cycles\n", Cfg<V>::name,
              N, R, tree_depth(N, R), b, r);
  CHECK(b == 3 * tree_depth(N, R));
  CHECK(b == expected_latency(N, R, kBarrier));
  CHECK(r == expected_latency(N, R, kReduce));
}

}  // namespace

TEST_CASE("gsn: latency per configuration matches the documented formula", "[gsn]") {
  latency_row<Vgsn_tree_r4_n1>();
  latency_row<Vgsn_tree_2>();
  latency_row<Vgsn_tree_4>();
  latency_row<Vgsn_tree_r4_n5>();
  latency_row<Vgsn_tree_16>();
  latency_row<Vgsn_tree_r2_n8_s1>();
  latency_row<Vgsn_tree_r3_n7>();
}

#if HPCNET_BENCH_MODELS  // the 64-node tree is a benchmark model (rtl/gsn/models.cmake)
TEST_CASE("gsn: latency of the 64-node product tree matches the documented formula", "[gsn][long]") {
  latency_row<Vgsn_tree_64>();
}
#endif

TEST_CASE("gsn: double sum is folded in the nested tree order", "[gsn]") {
  // 1e16 + 1 + 1 + ... depends on the order: the tree order must be the documented one, and for
  // 16 leaves radix 4 it is not the flat left fold.
  std::vector<Msg> m = ops(16, kReduce, RedType::DOUBLE, RedOp::SUM, 0x3000);
  for (unsigned i = 0; i < 16; ++i) m[i].value = as_bits(i % 4 == 0 ? 1e16 * (i == 0 ? 1 : -1) : 1.0);
  double flat = 0;
  for (unsigned i = 0; i < 16; ++i) flat = i == 0 ? as_double(m[0].value) : flat + as_double(m[i].value);
  Msg ref = reference(m, 4);
  INFO("tree order " << as_double(ref.value) << " flat left fold " << flat);
  REQUIRE(as_bits(flat) != ref.value);  // the case distinguishes the orders
  measure<Vgsn_tree_16>(m);             // checks against the tree-order reference
}

TEST_CASE("gsn: a mismatched or erroneous contribution gives err at every leaf", "[gsn]") {
  for (unsigned what = 0; what < 4; ++what) {
    std::vector<Msg> m = ops(16, kReduce, RedType::UINT64, RedOp::MAX, 0x4000);
    Msg& bad = m[9];
    if (what == 0) bad.kind = kBarrier;
    if (what == 1) bad.type = RedType::DOUBLE;
    if (what == 2) bad.op = RedOp::MIN;
    if (what == 3) bad.err = true;
    INFO("case " << what);
    GsnTb<Vgsn_tree_16> tb;
    for (unsigned n = 0; n < 16; ++n) {
      tb.up_valid[n] = true;
      tb.up_msg[n] = m[n];
      tb.dn_ready[n] = true;
    }
    tb.cycle();
    std::fill(tb.up_valid.begin(), tb.up_valid.end(), false);
    unsigned got = 0;
    for (unsigned t = 0; t < 200 && got == 0; ++t) {
      tb.cycle();
      for (unsigned n = 0; n < 16; ++n)
        if (tb.dn_valid[n]) {
          REQUIRE(tb.dn_msg[n].err);
          REQUIRE(tb.dn_msg[n].addr == 0x4000);
          ++got;
        }
    }
    REQUIRE(got == 16);
    // the address is usable again at once, without error
    std::vector<Msg> ok = ops(16, kReduce, RedType::UINT64, RedOp::MAX, 0x4000);
    for (unsigned n = 0; n < 16; ++n) {
      tb.up_valid[n] = true;
      tb.up_msg[n] = ok[n];
    }
    tb.cycle();
    std::fill(tb.up_valid.begin(), tb.up_valid.end(), false);
    got = 0;
    for (unsigned t = 0; t < 200 && got == 0; ++t) {
      tb.cycle();
      for (unsigned n = 0; n < 16; ++n)
        if (tb.dn_valid[n]) {
          REQUIRE(tb.dn_msg[n] == reference(ok, 4));
          ++got;
        }
    }
    REQUIRE(got == 16);
  }
}

// Leaf 0 sends its message twice into the open context, then the others contribute: every leaf
// gets exactly one down message, with err. Vgsn_tree_r2_n4_dup is built with GSN_ALLOW_DUP.
static void duplicate_is_an_error(const std::vector<Msg>& m) {
  GsnTb<Vgsn_tree_r2_n4_dup> tb;
  std::fill(tb.dn_ready.begin(), tb.dn_ready.end(), true);
  tb.up_valid[0] = true;
  tb.up_msg[0] = m[0];
  tb.cycle();
  REQUIRE(tb.up_ready[0]);
  tb.cycle();  // the same message again: absorbed into the open context as an error
  REQUIRE(tb.up_ready[0]);
  tb.up_valid[0] = false;
  for (unsigned n = 1; n < 4; ++n) {
    tb.up_valid[n] = true;
    tb.up_msg[n] = m[n];
  }
  tb.cycle();
  for (unsigned n = 1; n < 4; ++n) REQUIRE(tb.up_ready[n]);
  std::fill(tb.up_valid.begin(), tb.up_valid.end(), false);
  std::vector<unsigned> got(4);
  for (unsigned t = 0; t < 200; ++t) {
    tb.cycle();
    for (unsigned n = 0; n < 4; ++n)
      if (tb.dn_valid[n]) {
        REQUIRE(tb.dn_msg[n].err);
        ++got[n];
      }
  }
  for (unsigned n = 0; n < 4; ++n) REQUIRE(got[n] == 1);
}

TEST_CASE("gsn: a child contributing twice sets err with one result per leaf and no hang", "[gsn]") {
  std::vector<Msg> m = ops(4, kReduce, RedType::INT64, RedOp::SUM, 0x5000);
  // One harness alive at a time: Verilator 5.006 hangs when a model is destroyed while another,
  // already destroyed context is still the thread's current one.
  duplicate_is_an_error(m);
  // the default models stop the simulation at the assertion
  GsnTb<Vgsn_tree_4> strict;
  strict.up_valid[0] = true;
  strict.up_msg[0] = m[0];
  strict.cycle();
  REQUIRE_THROWS_AS((strict.cycle(), strict.cycle()), hpcnet::sim::AssertionFailed);
}

TEST_CASE("gsn: no free slot back-pressures only the new address", "[gsn]") {
  // One node (4 leaves, 4 slots): leaf 0 opens 4 addresses, the 5th waits; leaf 1 meanwhile can
  // still contribute to an open one; when address 0 completes, the 5th is taken.
  GsnTb<Vgsn_tree_4> tb;
  std::fill(tb.dn_ready.begin(), tb.dn_ready.end(), true);
  auto msg = [](unsigned a, unsigned n) {
    Msg x;
    x.addr = 0x10000 + 8 * a;
    x.kind = kReduce;
    x.type = RedType::INT64;
    x.value = 10 * a + n;
    return x;
  };
  for (unsigned a = 0; a < 4; ++a) {
    tb.up_valid[0] = true;
    tb.up_msg[0] = msg(a, 0);
    tb.cycle();
    REQUIRE(tb.up_ready[0]);
  }
  tb.up_msg[0] = msg(4, 0);
  for (unsigned t = 0; t < 20; ++t) {
    tb.cycle();
    REQUIRE(!tb.up_ready[0]);
  }
  // leaves 1..3 complete address 0 (leaf 0 keeps presenting address 4)
  for (unsigned n = 1; n < 4; ++n) {
    tb.up_valid[n] = true;
    tb.up_msg[n] = msg(0, n);
  }
  tb.cycle();
  for (unsigned n = 1; n < 4; ++n) REQUIRE(tb.up_ready[n]);
  REQUIRE(!tb.up_ready[0]);
  for (unsigned n = 1; n < 4; ++n) tb.up_valid[n] = false;
  std::vector<unsigned> downs(4);
  auto count_downs = [&] {
    for (unsigned n = 0; n < 4; ++n)
      if (tb.dn_valid[n]) ++downs[n];
  };
  unsigned waited = 0;
  do {
    tb.cycle();
    count_downs();
    REQUIRE(++waited < 100);
  } while (!tb.up_ready[0]);
  tb.up_valid[0] = false;
  // then the rest completes
  for (unsigned a = 1; a < 5; ++a) {
    for (unsigned n = 1; n < 4; ++n) {
      tb.up_valid[n] = true;
      tb.up_msg[n] = msg(a, n);
    }
    tb.cycle();
    count_downs();
    for (unsigned n = 1; n < 4; ++n) REQUIRE(tb.up_ready[n]);
    for (unsigned n = 1; n < 4; ++n) tb.up_valid[n] = false;
  }
  for (unsigned t = 0; t < 100; ++t) {
    tb.cycle();
    count_downs();
  }
  for (unsigned n = 0; n < 4; ++n) REQUIRE(downs[n] == 5);
}
