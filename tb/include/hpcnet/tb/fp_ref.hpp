// fp_ref.hpp: host references for the engine's binary64 arithmetic (docs/ssm_alu.md): the sum as
// the host's own SSE2 addsd computes it, and the documented max/min rule, written independently
// of the RTL's comparator.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

namespace hpcnet::tb {

constexpr std::uint64_t kQuietBit = 0x0008000000000000ull;

inline std::uint64_t bits(double d) { return std::bit_cast<std::uint64_t>(d); }
inline double dbl(std::uint64_t u) { return std::bit_cast<double>(u); }

// a + b by the host's FPU (x86-64: addsd with a as the first source, which decides which NaN
// payload propagates).
inline double host_add(double a, double b) {
#if defined(__x86_64__)
  __asm__("addsd %1, %0" : "+x"(a) : "x"(b));
  return a;
#else
  return a + b;
#endif
}

// max/min: a NaN operand gives that NaN quieted (a's if a is a NaN), -0 < +0, equal values give a.
inline std::uint64_t fmaxmin(std::uint64_t a, std::uint64_t b, bool max) {
  double x = dbl(a), y = dbl(b);
  if (std::isnan(x)) return a | kQuietBit;
  if (std::isnan(y)) return b | kQuietBit;
  if (x == y) {
    if (x == 0.0) {
      bool na = std::signbit(x), nb = std::signbit(y);
      if (max) return (na && !nb) ? b : a;
      return (!na && nb) ? b : a;
    }
    return a;  // identical encodings
  }
  if (max) return x > y ? a : b;
  return x < y ? a : b;
}

}  // namespace hpcnet::tb
