// alu_tb.hpp: harness of ssm_alu (model Vssm_alu, TagW = 8) and the host references.
//   AluTb::issue() drives one operation (or a bubble) per cycle with a fresh tag; after every clock
//   edge the harness checks the output: out_valid_o exactly Latency cycles after each issue, in
//   issue order, with the issued tag and the reference result, and no out_valid_o otherwise.
//   References: double sum = the host's SSE `addsd` with a as the first source (the instruction g++
//   emits for `a + b` on x86-64; the tests also check it equals plain C++ `a + b` whenever a and b
//   are not both NaN, where the compiler is free to commute the operands); double max/min = the
//   documented rule written with host double comparisons; integers = host integer arithmetic (all
//   three the shared hpcnet/tb/alu_ref.hpp).
//   The random operand generator (FpGen) favours close exponents (cancellation), subnormals,
//   large exponent differences near the sticky boundary, rounding ties and overflow.
#pragma once
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "Vssm_alu.h"
#include "sim/core/harness.hpp"
#include "hpcnet/tb/alu_ref.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/fp_ref.hpp"
#include "hpcnet/tb/red_codes.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"

namespace alutb {

using hpcnet::tb::seed;

constexpr unsigned kLatency = 4;  // ssm_alu's documented Latency
constexpr unsigned kTagMask = 0xff;
using namespace hpcnet::tb::red;  // kInt64 .. kInt32 (int32 x 2 lanes), kSum, kMax, kMin
constexpr unsigned kOpA = 3;       // the op code red_op leaves unused: ssm_alu gives a
constexpr std::uint64_t kQuiet = 0x0008000000000000ull;

using hpcnet::tb::bits;
using hpcnet::tb::dbl;
using hpcnet::tb::host_add;
inline bool is_nan(std::uint64_t u) { return std::isnan(dbl(u)); }

// ---------------------------------------------------------------- references
inline std::uint64_t ref_fadd(std::uint64_t a, std::uint64_t b) { return bits(host_add(dbl(a), dbl(b))); }
// Plain C++ `a + b` (volatile: computed at run time by the host, not folded by the compiler).
inline std::uint64_t cxx_fadd(std::uint64_t a, std::uint64_t b) {
  volatile double x = dbl(a), y = dbl(b);
  double r = x + y;
  return bits(r);
}

// The documented max/min rule, written independently of the RTL's key trick (fp_ref.hpp).
inline std::uint64_t ref_fmaxmin(std::uint64_t a, std::uint64_t b, bool max) { return hpcnet::tb::fmaxmin(a, b, max); }

struct AluOp {
  unsigned type = kInt64, op = kSum;
  std::uint64_t a = 0, b = 0;
};

// The shared reference of the reduction ALU (hpcnet/tb/alu_ref.hpp): op kOpA gives a.
inline std::uint64_t reference(const AluOp& o) { return hpcnet::tb::alu_ref(o.type, o.op, o.a, o.b); }

inline std::string hex(std::uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%016llx", static_cast<unsigned long long>(v));
  return s;
}

// ---------------------------------------------------------------- harness
class AluTb {
 public:
  std::uint64_t issued = 0, checked = 0, errors = 0;

  AluTb() { hpcnet::tb::sync_reset(h_); }
  Vssm_alu& m() { return h_.dut(); }
  std::uint64_t cycle() const { return h_.cycles(); }

  // One cycle: drive `o` (nullptr: a bubble), clock, check the output of the cycle.
  void issue(const AluOp* o) {
    Vssm_alu& d = m();
    d.in_valid_i = o != nullptr;
    if (o) {
      d.in_type_i = std::uint8_t(o->type);
      d.in_op_i = std::uint8_t(o->op);
      d.in_a_i = o->a;
      d.in_b_i = o->b;
      d.in_tag_i = std::uint8_t(tag_);
      q_.push_back({*o, reference(*o), tag_, h_.cycles() + kLatency});
      tag_ = (tag_ + 1) & kTagMask;
      ++issued;
    } else {  // garbage on the data inputs of a bubble
      d.in_type_i = std::uint8_t(junk_() & 3);
      d.in_op_i = std::uint8_t(junk_() & 3);
      d.in_a_i = junk_();
      d.in_b_i = junk_();
      d.in_tag_i = std::uint8_t(junk_());
    }
    hpcnet::tb::tick(h_);
    check();
  }
  void issue(const AluOp& o) { issue(&o); }
  void bubble(unsigned n = 1) {
    for (unsigned i = 0; i < n; ++i) issue(nullptr);
  }
  void drain() { bubble(kLatency + 1); }
  bool idle() const { return q_.empty(); }

  // Synchronous reset in the middle of a run: operations in flight are dropped.
  void reset_now() {
    hpcnet::tb::sync_reset(h_);
    q_.clear();
    check();
  }

  // Every operation's result goes through check(); a test may also inspect the expected value.
  void report() const {
    std::printf("ssm_alu: %llu operations issued, %llu checked, %llu mismatches, %llu cycles\n",
                (unsigned long long)issued, (unsigned long long)checked, (unsigned long long)errors,
                (unsigned long long)h_.cycles());
  }

 private:
  struct Pending {
    AluOp op;
    std::uint64_t expect;
    unsigned tag;
    std::uint64_t due;  // harness cycle count at which out_valid_o shows it
  };

  void check() {
    Vssm_alu& d = m();
    bool due = !q_.empty() && q_.front().due == h_.cycles();
    if (!q_.empty() && q_.front().due < h_.cycles()) {
      fail("an operation was never output (due at cycle " + std::to_string(q_.front().due) + ")");
      q_.pop_front();
      return;
    }
    if (!due) {
      if (d.out_valid_o) fail("out_valid_o without an operation due");
      return;
    }
    Pending p = q_.front();
    q_.pop_front();
    ++checked;
    if (!d.out_valid_o) {
      fail("no out_valid_o " + std::to_string(kLatency) + " cycles after the issue");
      return;
    }
    if (d.out_tag_o != p.tag || d.out_result_o != p.expect) {
      fail("type " + std::to_string(p.op.type) + " op " + std::to_string(p.op.op) + " a " +
           hex(p.op.a) + " b " + hex(p.op.b) + ": expected " + hex(p.expect) + " tag " +
           std::to_string(p.tag) + ", got " + hex(d.out_result_o) + " tag " +
           std::to_string(unsigned(d.out_tag_o)));
    }
  }
  void fail(const std::string& what) {
    ++errors;
    if (errors <= 10) FAIL_CHECK("cycle " << h_.cycles() << ": " << what);
  }

  hpcnet::sim::Harness<Vssm_alu> h_{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  std::deque<Pending> q_;
  unsigned tag_ = 0;
  std::mt19937_64 junk_{12345};
};

// ---------------------------------------------------------------- operand generators
// Special-value classes of binary64 (positive; the tests add the negations and neighbours).
inline std::vector<std::uint64_t> special_values() {
  return {
      0x0000000000000000ull,  // +0
      0x0000000000000001ull,  // min subnormal
      0x0000000000000002ull,
      0x0000000000000003ull,
      0x0000000080000001ull,  // subnormal
      0x0008000000000000ull,  // subnormal, top fraction bit only
      0x000ffffffffffffeull,
      0x000fffffffffffffull,  // max subnormal
      0x0010000000000000ull,  // min normal
      0x0010000000000001ull,
      0x001fffffffffffffull,
      0x0020000000000000ull,
      0x0360000000000000ull,  // 2^-969: min normal * 2^53
      0x3c90000000000000ull,  // 2^-54
      0x3ca0000000000000ull,  // 2^-53: half an ulp of 1.0 (tie)
      0x3ca0000000000001ull,
      0x3cb0000000000000ull,  // 2^-52: an ulp of 1.0
      0x3cafffffffffffffull,
      0x3fb999999999999aull,  // 0.1
      0x3fe0000000000000ull,  // 0.5
      0x3ff0000000000000ull,  // 1.0
      0x3ff0000000000001ull,  // 1 + ulp
      0x3ff0000000000002ull,
      0x3ff8000000000000ull,  // 1.5
      0x3fffffffffffffffull,  // 2 - ulp
      0x4000000000000000ull,  // 2.0
      0x4008000000000000ull,  // 3.0
      0x4330000000000000ull,  // 2^52
      0x4340000000000000ull,  // 2^53
      0x4340000000000001ull,
      0x01a56e1fc2f8f359ull,  // 1e-300
      0x7e37e43c8800759cull,  // 1e300
      0x7fd0000000000000ull,  // 2^1022
      0x7fdfffffffffffffull,  // max / 2
      0x7fe0000000000000ull,  // 2^1023
      0x7feffffffffffffeull,
      0x7fefffffffffffffull,  // max normal
      0x7ff0000000000000ull,  // Inf
      0x7ff8000000000000ull,  // qNaN (positive default)
      0x7ff8000000000123ull,  // qNaN with payload
      0x7ffc0000000abcdeull,
      0x7fffffffffffffffull,  // qNaN, all ones
      0x7ff0000000000001ull,  // sNaN, payload 1
      0x7ff4000000000000ull,  // sNaN
      0x7ff7ffffffffffffull,  // sNaN, largest payload
      0x7ff00000deadbeefull,  // sNaN
  };
}

// The crossed special set: each value, its negation, and its finite non-zero neighbours.
inline std::vector<std::uint64_t> special_set(bool neighbours) {
  std::vector<std::uint64_t> v;
  for (std::uint64_t x : special_values()) {
    for (std::uint64_t s : {0ull, 0x8000000000000000ull}) {
      std::uint64_t y = x | s;
      v.push_back(y);
      bool finite_nonzero = (x & 0x7ff0000000000000ull) != 0x7ff0000000000000ull && x != 0;
      if (neighbours && finite_nonzero) {
        v.push_back(y + 1);
        v.push_back(y - 1);
      }
    }
  }
  return v;
}

class FpGen {
 public:
  explicit FpGen(std::uint64_t s) : rng(s) {}
  hpcnet::tb::Rng rng;

  unsigned rnd(unsigned lo, unsigned hi) { return rng.rnd(lo, hi); }
  bool pct(unsigned p) { return rng.pct(p); }
  std::uint64_t frac() { return rng() & 0x000fffffffffffffull; }
  // A fraction with its low `tz` bits zero (many trailing zeros make exact ties likely).
  std::uint64_t frac_tz(unsigned tz) { return tz >= 52 ? 0 : (frac() >> tz) << tz; }
  static std::uint64_t make(unsigned sign, unsigned exp, std::uint64_t f) {
    return (std::uint64_t(sign & 1) << 63) | (std::uint64_t(exp & 0x7ff) << 52) |
           (f & 0x000fffffffffffffull);
  }
  static unsigned exp_of(std::uint64_t x) { return unsigned((x >> 52) & 0x7ff); }
  static int clamp_exp(int e) { return e < 0 ? 0 : e > 2046 ? 2046 : e; }
  std::uint64_t special() {
    static const std::vector<std::uint64_t> s = special_set(false);
    return s[rng() % s.size()];
  }

  // One operand pair; the mode mix is documented in docs/ssm_alu.md (tests).
  std::pair<std::uint64_t, std::uint64_t> pair() {
    unsigned mode = rnd(0, 99);
    std::uint64_t a, b;
    if (mode < 12) {  // uniform random bits (a few NaN and Inf)
      a = rng();
      b = rng();
    } else if (mode < 32) {  // close exponents, random signs: carries and cancellation
      unsigned e = rnd(1, 2046);
      a = make(unsigned(rng()), e, frac_tz(rnd(0, 40)));
      b = make(unsigned(rng()), unsigned(clamp_exp(int(e) + int(rnd(0, 6)) - 3)), frac_tz(rnd(0, 40)));
    } else if (mode < 44) {  // near-total cancellation: b = -a with the low bits changed
      unsigned e = rnd(1, 2046);
      a = make(unsigned(rng()), e, frac());
      unsigned k = rnd(1, 52);
      std::uint64_t m = (k >= 64) ? ~0ull : ((1ull << k) - 1);
      b = (a ^ 0x8000000000000000ull) ^ (rng() & m);
      if (pct(30)) b = make(unsigned(b >> 63), unsigned(clamp_exp(int(exp_of(b)) + (pct(50) ? 1 : -1))), b);
      if (pct(10)) b = a ^ 0x8000000000000000ull;  // exact cancellation: +0
    } else if (mode < 58) {  // subnormal and tiny operands (results becoming subnormal)
      a = make(unsigned(rng()), rnd(0, 3), pct(30) ? (frac() >> rnd(0, 52)) : frac());
      b = make(unsigned(rng()), rnd(0, 3), pct(30) ? (frac() >> rnd(0, 52)) : frac());
    } else if (mode < 72) {  // large exponent differences around the guard/round/sticky boundary
      unsigned e = rnd(1, 2046);
      int d = int(rnd(45, 70));
      if (pct(10)) d = int(rnd(71, 2046));
      a = make(unsigned(rng()), e, frac_tz(rnd(0, 52)));
      b = make(unsigned(rng()), unsigned(clamp_exp(int(e) - d)), frac_tz(rnd(0, 52)));
    } else if (mode < 86) {  // rounding ties: b's lowest set bit at half an ulp of a (or near it)
      unsigned e = rnd(60, 2000);
      a = make(unsigned(rng()), e, frac());
      unsigned d = rnd(1, 54);  // b's fraction bits below a's ulp: only the top one may be set
      b = make(unsigned(rng()), e - d, frac_tz(d - 1 > 52 ? 52 : d - 1));
      if (pct(25)) b ^= 1;  // just off the tie
    } else if (mode < 94) {  // near overflow, same sign mostly
      unsigned s = unsigned(rng());
      a = make(s, rnd(2043, 2046), frac_tz(rnd(0, 52)));
      b = make(pct(85) ? s : ~s, pct(50) ? rnd(2040, 2046) : rnd(1990, 2046), frac_tz(rnd(0, 52)));
    } else {  // one special value against a random one
      a = special();
      b = pct(50) ? rng() : make(unsigned(rng()), rnd(0, 2046), frac());
    }
    if (pct(50)) std::swap(a, b);
    return {a, b};
  }
};

// Classes of one double sum, for the coverage counts of the random test.
struct FpCoverage {
  std::uint64_t total = 0, subnormal = 0, zero_from_nonzero = 0, cancel = 0, tie = 0,
                inexact = 0, overflow = 0, nan = 0, carry_binade = 0;
  void add(std::uint64_t a, std::uint64_t b, std::uint64_t r) {
    ++total;
    double x = dbl(a), y = dbl(b), s = dbl(r);
    if (std::isnan(s)) { ++nan; return; }
    if (!std::isfinite(x) || !std::isfinite(y)) return;
    if (std::isinf(s)) { ++overflow; return; }
    unsigned ea = FpGen::exp_of(a), eb = FpGen::exp_of(b), er = FpGen::exp_of(r);
    unsigned emax = ea > eb ? ea : eb;
    if (er == 0 && s != 0.0) ++subnormal;
    if (s == 0.0 && (x != 0.0 || y != 0.0)) ++zero_from_nonzero;
    if (s != 0.0 && er + 3 <= emax) ++cancel;
    if (er > emax) ++carry_binade;
    // TwoSum: the exact rounding error of s = x + y (no overflow here).
    double bb = s - x;
    double err = (x - (s - bb)) + (y - bb);
    if (err != 0.0) {
      ++inexact;
      double next = std::nextafter(s, err > 0 ? HUGE_VAL : -HUGE_VAL);
      if (std::fabs(next - s) == 2.0 * std::fabs(err)) ++tie;
    }
  }
  void print() const {
    std::printf("double sums: %llu, subnormal results %llu, exact zero from non-zero %llu, "
                "cancellation >= 3 binades %llu, carry into next binade %llu, inexact %llu, "
                "exact ties %llu, overflow to Inf %llu, NaN %llu\n",
                (unsigned long long)total, (unsigned long long)subnormal,
                (unsigned long long)zero_from_nonzero, (unsigned long long)cancel,
                (unsigned long long)carry_binade, (unsigned long long)inexact,
                (unsigned long long)tie, (unsigned long long)overflow, (unsigned long long)nan);
  }
};

}  // namespace alutb
