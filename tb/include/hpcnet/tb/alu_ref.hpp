// alu_ref.hpp: the reduction ALU's result `a op b` on the host (rtl/alu/ssm_alu.sv,
// docs/ssm_alu.md), the reference of every test that checks a fold: ssm_alu itself, the
// collective unit, burst reduce and the sync tree. Integers wrap; INT32 is two independent signed
// lanes of the 64-bit word; double sum is the host's addsd with a first (fp_ref.hpp), double
// max/min the documented rule (a NaN a gives a quieted, else a NaN b gives b quieted; -0 < +0;
// equal values give a). An op outside SUM/MAX/MIN gives a. random_operand(): operands of a type for
// the tests that fold many of them.
#pragma once
#include <cstdint>

#include "hpcnet/tb/fp_ref.hpp"
#include "hpcnet/tb/red_codes.hpp"
#include "hpcnet/tb/rng.hpp"

namespace hpcnet::tb {

inline std::uint64_t alu_ref(unsigned type, unsigned op, std::uint64_t a, std::uint64_t b) {
  using namespace red;
  if (op != kSum && op != kMax && op != kMin) return a;
  auto pick = [op](bool a_greater, std::uint64_t x, std::uint64_t y) { return (op == kMax) == a_greater ? x : y; };
  switch (type) {
    case kInt64:
      return op == kSum ? a + b : pick(std::int64_t(a) > std::int64_t(b), a, b);
    case kUint64:
      return op == kSum ? a + b : pick(a > b, a, b);
    case kDouble:
      return op == kSum ? bits(host_add(dbl(a), dbl(b))) : fmaxmin(a, b, op == kMax);
    default: {  // INT32: two lanes
      auto lane = [&](unsigned sh) -> std::uint64_t {
        const std::uint32_t x = std::uint32_t(a >> sh), y = std::uint32_t(b >> sh);
        return op == kSum ? std::uint32_t(x + y) : pick(std::int32_t(x) > std::int32_t(y), x, y);
      };
      return lane(32) << 32 | lane(0);
    }
  }
}

// A random operand of `type`. Doubles: finite (NaN and infinities are the ALU's own tests'
// business), normal values of mixed magnitude (sums round), some subnormals, some zeros of either
// sign. Integers: small positive and negative values and any 64 bits.
inline std::uint64_t random_operand(Rng& rng, unsigned type) {
  if (type == red::kDouble) {
    switch (rng.below(10)) {
      case 0: return (rng() & (1ull << 63)) | (rng() & ((1ull << 52) - 1));  // subnormal
      case 1: return rng() & (1ull << 63);                                    // +-0
      default: {
        const std::uint64_t exp = 1023 - 40 + rng.below(81);
        return (rng() & (1ull << 63)) | exp << 52 | (rng() & ((1ull << 52) - 1));
      }
    }
  }
  switch (rng.below(4)) {
    case 0: return rng() % 1000;
    case 1: return std::uint64_t(-std::int64_t(rng() % 1000));
    default: return rng();
  }
}

}  // namespace hpcnet::tb
