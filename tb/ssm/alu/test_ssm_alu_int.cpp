// test_ssm_alu_int: integer types (int64, uint64, int32 x 2) against host arithmetic, op 3 (= a),
// and the pipeline: back-to-back operations of every type every cycle, with random bubbles, come
// out in issue order with their tags exactly Latency cycles later; a reset drops what is in flight.
#include "alu_tb.hpp"

using namespace alutb;

namespace {

// Integer operands: random bits, small values, extremes of 64-bit and 32-bit lanes, equal pairs.
std::uint64_t int_operand(FpGen& g) {
  static const std::uint64_t edge[] = {0, 1, ~0ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                       0x000000007fffffffull, 0x0000000080000000ull,
                                       0x7fffffff7fffffffull, 0x8000000080000000ull,
                                       0xffffffff00000000ull, 0x00000000ffffffffull,
                                       0x80000000ffffffffull, 0x7fffffff00000001ull};
  switch (g.rnd(0, 5)) {
    case 0: return edge[g.rng() % (sizeof edge / sizeof edge[0])];
    case 1: return std::uint64_t(std::int64_t(g.rnd(0, 200)) - 100);  // small, both signs
    case 2: {  // two small signed lanes
      std::uint32_t lo = std::uint32_t(std::int32_t(g.rnd(0, 200)) - 100);
      std::uint32_t hi = std::uint32_t(std::int32_t(g.rnd(0, 200)) - 100);
      return (std::uint64_t(hi) << 32) | lo;
    }
    default: return g.rng();
  }
}

AluOp random_op(FpGen& g, bool with_double) {
  static const unsigned int_types[] = {kInt64, kUint64, kInt32};
  AluOp o;
  o.type = with_double && g.pct(25) ? unsigned(kDouble) : int_types[g.rnd(0, 2)];
  o.op = g.pct(4) ? unsigned(kOpA) : g.rnd(0, 2);
  if (o.type == kDouble) {
    auto [a, b] = g.pair();
    o.a = a;
    o.b = b;
  } else {
    o.a = int_operand(g);
    o.b = g.pct(10) ? o.a : int_operand(g);
  }
  return o;
}

}  // namespace

TEST_CASE("ssm_alu: int64 uint64 and int32x2 sum max min random mix", "[ssm_alu][int]") {
  AluTb tb;
  FpGen g(seed("ssm_alu integers"));
  // Directed: wrap-around, signed against unsigned order, independent lanes.
  const std::uint64_t imax = 0x7fffffffffffffffull, imin = 0x8000000000000000ull;
  struct D { unsigned type, op; std::uint64_t a, b, r; };
  const D dir[] = {
      {kInt64, kSum, imax, 1, imin},
      {kUint64, kSum, ~0ull, 2, 1},
      {kInt64, kMax, imin, 1, 1},
      {kUint64, kMax, imin, 1, imin},
      {kInt64, kMin, ~0ull, 0, ~0ull},
      {kUint64, kMin, ~0ull, 0, 0},
      {kInt32, kSum, 0x7fffffffffffffffull, 0x0000000100000001ull, 0x8000000000000000ull},
      {kInt32, kSum, 0x00000000ffffffffull, 0x0000000000000001ull, 0},  // no carry between lanes
      {kInt32, kMax, 0x80000000ffffffffull, 0x0000000100000000ull, 0x0000000100000000ull},
      {kInt32, kMin, 0x80000000ffffffffull, 0x0000000100000000ull, 0x80000000ffffffffull},
      {kInt32, kMax, 0x000000057fffffffull, 0xfffffff980000000ull, 0x000000057fffffffull},
  };
  for (const D& d : dir) {
    CHECK(hpcnet::tb::alu_ref(d.type, d.op, d.a, d.b) == d.r);  // the reference agrees with the hand value
    tb.issue(AluOp{d.type, d.op, d.a, d.b});
  }
  std::uint64_t n = 300000;
  for (std::uint64_t i = 0; i < n; ++i) tb.issue(random_op(g, false));
  tb.drain();
  tb.report();
  CHECK(tb.checked == n + sizeof dir / sizeof dir[0]);
  CHECK(tb.errors == 0);
}

TEST_CASE("ssm_alu: back-to-back operations come out in order after exactly Latency cycles",
          "[ssm_alu][pipeline]") {
  AluTb tb;
  FpGen g(seed("ssm_alu pipeline"));
  // A burst with no bubble: one result every cycle, Latency cycles after each issue.
  for (unsigned i = 0; i < 20000; ++i) tb.issue(random_op(g, true));
  // Random bubbles between operations of every type (the tag wraps many times).
  for (unsigned i = 0; i < 100000; ++i) {
    if (g.pct(30)) tb.bubble(g.rnd(1, 6));
    tb.issue(random_op(g, true));
  }
  // Single operations separated by idle periods longer than the pipeline.
  for (unsigned i = 0; i < 200; ++i) {
    tb.issue(random_op(g, true));
    tb.bubble(g.rnd(kLatency, 2 * kLatency));
  }
  tb.drain();
  tb.report();
  CHECK(tb.idle());
  CHECK(tb.checked == tb.issued);
  CHECK(tb.errors == 0);
  // op 3 is defined as a for every type.
  for (unsigned t = 0; t < 4; ++t) tb.issue(AluOp{t, kOpA, 0xfff4000000000001ull, 0x1234});
  tb.drain();
  CHECK(tb.errors == 0);
}

TEST_CASE("ssm_alu: a reset drops the operations in flight", "[ssm_alu][pipeline]") {
  AluTb tb;
  FpGen g(seed("ssm_alu reset"));
  for (unsigned k = 1; k < kLatency; ++k) {  // k operations in flight, none out yet
    for (unsigned i = 0; i < k; ++i) tb.issue(random_op(g, true));
    tb.reset_now();  // checks: nothing comes out after the reset
    tb.bubble(2 * kLatency);
    for (unsigned i = 0; i < 10; ++i) tb.issue(random_op(g, true));
    tb.drain();
  }
  tb.report();
  CHECK(tb.checked == (kLatency - 1) * 10);
  CHECK(tb.errors == 0);
}
