// test_ssm_alu_fp: the double-precision paths of ssm_alu, bit-exact against the host.
//   Sum: every special-value class (zeros, subnormals, normal extremes, ties, Inf, qNaN and sNaN
//   with payloads, with negations and neighbours) crossed with each other, then at least a million
//   random pairs from FpGen (close exponents, cancellation, subnormals, sticky-boundary exponent
//   differences, ties, overflow). Max/min: the same crossing and random pairs against the
//   documented rule. The harness checks every result, tag and latency.
#include "alu_tb.hpp"

#include <cstdlib>

using namespace alutb;

namespace {

// Plain C++ `a + b` must agree with the addsd reference unless both are NaN (where the compiler
// may commute the operands, so only the instruction order is defined).
bool cxx_agrees(std::uint64_t a, std::uint64_t b) {
  if (is_nan(a) && is_nan(b)) return true;
  return cxx_fadd(a, b) == ref_fadd(a, b);
}

std::uint64_t env_count(const char* name, std::uint64_t dflt) {
  const char* v = std::getenv(name);
  return v ? std::strtoull(v, nullptr, 0) : dflt;
}

}  // namespace

TEST_CASE("ssm_alu: double sum of every special-value class crossed", "[ssm_alu][fp]") {
  AluTb tb;
  const auto vals = special_set(true);
  std::uint64_t cxx_mismatch = 0;
  for (std::uint64_t a : vals)
    for (std::uint64_t b : vals) {
      tb.issue(AluOp{kDouble, kSum, a, b});
      if (!cxx_agrees(a, b)) ++cxx_mismatch;
    }
  tb.drain();
  tb.report();
  CHECK(tb.checked == vals.size() * vals.size());
  CHECK(tb.errors == 0);
  CHECK(cxx_mismatch == 0);
  // Spot checks of the rules the crossing relies on (the reference itself).
  CHECK(ref_fadd(0x3ff0000000000000ull, 0xbff0000000000000ull) == 0);                      // x + -x = +0
  CHECK(ref_fadd(0x8000000000000000ull, 0x8000000000000000ull) == 0x8000000000000000ull);  // -0 + -0
  CHECK(ref_fadd(0x7ff0000000000000ull, 0xfff0000000000000ull) == 0xfff8000000000000ull);  // default NaN
  CHECK(ref_fadd(0x7ff0000000000001ull, 0xfff8000000000005ull) == 0x7ff8000000000001ull);  // a first
  CHECK(ref_fadd(0x3ff0000000000000ull, 0x7ff4000000000007ull) == 0x7ffc000000000007ull);  // quiet(b)
}

TEST_CASE("ssm_alu: double sum of a million random pairs", "[ssm_alu][fp][random]") {
  AluTb tb;
  FpGen g(seed("ssm_alu double sum random"));
  const std::uint64_t n = env_count("HPCNET_ALU_PAIRS", 1200000);
  FpCoverage cov;
  std::uint64_t cxx_mismatch = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    auto [a, b] = g.pair();
    tb.issue(AluOp{kDouble, kSum, a, b});
    cov.add(a, b, ref_fadd(a, b));
    if (!cxx_agrees(a, b)) ++cxx_mismatch;
    if (tb.errors > 50) break;
  }
  tb.drain();
  tb.report();
  cov.print();
  CHECK(tb.checked == n);
  CHECK(tb.errors == 0);
  CHECK(cxx_mismatch == 0);
  // The distribution must reach the hard cases, not only uniform random bits.
  CHECK(cov.subnormal > n / 50);
  CHECK(cov.zero_from_nonzero > n / 200);
  CHECK(cov.cancel > n / 20);
  CHECK(cov.carry_binade > n / 20);
  CHECK(cov.tie > n / 50);
  CHECK(cov.overflow > n / 1000);
  CHECK(cov.inexact > n / 4);
}

TEST_CASE("ssm_alu: double max and min of special values crossed and random pairs", "[ssm_alu][fp]") {
  AluTb tb;
  FpGen g(seed("ssm_alu double max/min"));
  const auto vals = special_set(true);
  for (std::uint64_t a : vals)
    for (std::uint64_t b : vals)
      for (unsigned op : {unsigned(kMax), unsigned(kMin)}) tb.issue(AluOp{kDouble, op, a, b});
  for (unsigned i = 0; i < 300000; ++i) {
    auto [a, b] = g.pair();
    unsigned r = g.rnd(0, 9);
    if (r == 0) b = a ^ 0x8000000000000000ull;  // same magnitude, opposite signs
    if (r == 1) b = a;
    tb.issue(AluOp{kDouble, g.pct(50) ? unsigned(kMax) : unsigned(kMin), a, b});
  }
  tb.drain();
  tb.report();
  CHECK(tb.checked == 2 * vals.size() * vals.size() + 300000);
  CHECK(tb.errors == 0);
  // The documented rule, spot-checked on the reference.
  const std::uint64_t pz = 0, nz = 0x8000000000000000ull;
  CHECK(ref_fmaxmin(nz, pz, true) == pz);
  CHECK(ref_fmaxmin(pz, nz, true) == pz);
  CHECK(ref_fmaxmin(nz, pz, false) == nz);
  CHECK(ref_fmaxmin(pz, nz, false) == nz);
  CHECK(ref_fmaxmin(0x7ff0000000000001ull, 0x7ff8000000000002ull, false) == 0x7ff8000000000001ull);
  CHECK(ref_fmaxmin(0x3ff0000000000000ull, 0xfff4000000000000ull, true) == 0xfffc000000000000ull);
}
