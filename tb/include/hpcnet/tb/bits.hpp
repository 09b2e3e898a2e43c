// bits.hpp: bit-field access to Verilator's wide ports (VlWide: 32-bit words), for harnesses.
#pragma once
#include <cstdint>

namespace hpcnet::tb {

// Bits [lsb, lsb+width) of a wide value held in 32-bit words (width <= 64).
template <class W>
std::uint64_t get_bits(const W& w, unsigned lsb, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    unsigned b = lsb + i;
    v |= std::uint64_t((w[b / 32] >> (b % 32)) & 1u) << i;
  }
  return v;
}

// Writes v into bits [lsb, lsb+width) of a wide value held in 32-bit words (width <= 64).
template <class W>
void put_bits(W& w, unsigned lsb, unsigned width, std::uint64_t v) {
  for (unsigned i = 0; i < width; ++i) {
    unsigned b = lsb + i;
    const std::uint32_t m = 1u << (b % 32);
    if ((v >> i) & 1u) w[b / 32] |= m;
    else w[b / 32] &= ~m;
  }
}

}  // namespace hpcnet::tb
