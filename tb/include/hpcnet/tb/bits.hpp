// bits.hpp: bit-field access to Verilator's ports, for harnesses: wide ports (VlWide: 32-bit
// words) and narrow ones (CData/SData/IData/QData: plain integers) alike.
#pragma once
#include <cstdint>
#include <type_traits>

namespace hpcnet::tb {

// Bits [lsb, lsb+width) of a port value (width <= 64).
template <class W>
std::uint64_t get_bits(const W& w, unsigned lsb, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    unsigned b = lsb + i;
    if constexpr (std::is_integral_v<W>) v |= std::uint64_t((std::uint64_t(w) >> b) & 1u) << i;
    else v |= std::uint64_t((w[b / 32] >> (b % 32)) & 1u) << i;
  }
  return v;
}

// Writes v into bits [lsb, lsb+width) of a port value (width <= 64).
template <class W>
void put_bits(W& w, unsigned lsb, unsigned width, std::uint64_t v) {
  for (unsigned i = 0; i < width; ++i) {
    unsigned b = lsb + i;
    if constexpr (std::is_integral_v<W>) {
      const W m = static_cast<W>(std::uint64_t(1) << b);
      w = static_cast<W>(((v >> i) & 1u) ? (w | m) : (w & static_cast<W>(~m)));
    } else {
      const std::uint32_t m = 1u << (b % 32);
      if ((v >> i) & 1u) w[b / 32] |= m;
      else w[b / 32] &= ~m;
    }
  }
}

}  // namespace hpcnet::tb
