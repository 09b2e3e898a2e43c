// bits.hpp: bit-field access to Verilator's ports, for harnesses: wide ports (VlWide: 32-bit
// words) and narrow ones (CData/SData/IData/QData: plain integers) alike.
#pragma once
#include <cstdint>
#include <type_traits>

namespace hpcnet::tb {

// Bits [lsb, lsb+width) of a port value (width <= 64).
template <class W>
std::uint64_t get_bits(const W& w, unsigned lsb, unsigned width) {
  if constexpr (std::is_integral_v<W>) {  // a narrow port: one integer
    const std::uint64_t m = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
    return (std::uint64_t(w) >> lsb) & m;
  } else {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < width;) {  // one 32-bit word (or the part of it in the field) per step
      const unsigned b = lsb + i, s = b % 32, n = (32 - s < width - i) ? 32 - s : width - i;
      v |= ((std::uint64_t(w[b / 32]) >> s) & ((std::uint64_t{1} << n) - 1)) << i;
      i += n;
    }
    return v;
  }
}

// Writes v into bits [lsb, lsb+width) of a port value (width <= 64).
template <class W>
void put_bits(W& w, unsigned lsb, unsigned width, std::uint64_t v) {
  if constexpr (std::is_integral_v<W>) {  // a narrow port: one integer
    const std::uint64_t m = (width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1) << lsb;
    w = static_cast<W>((std::uint64_t(w) & ~m) | ((v << lsb) & m));
  } else {
    for (unsigned i = 0; i < width;) {
      const unsigned b = lsb + i, s = b % 32, n = (32 - s < width - i) ? 32 - s : width - i;
      const std::uint32_t m = static_cast<std::uint32_t>(((std::uint64_t{1} << n) - 1) << s);
      w[b / 32] = (w[b / 32] & ~m) | (static_cast<std::uint32_t>((v >> i) << s) & m);
      i += n;
    }
  }
}

// A generated format F (hpcnet/<stem>.hpp: F::kBits, pack(), unpack()) at bits [lsb, lsb + F::kBits)
// of a wide value held in 32-bit words, e.g. element i of a flat port vector at lsb = i * F::kBits.
template <class F, class W>
void put_format(W& w, unsigned lsb, const F& f) {
  const auto words = f.pack();
  for (unsigned b = 0; b < F::kBits; b += 64) put_bits(w, lsb + b, F::kBits - b < 64 ? F::kBits - b : 64, words[b / 64]);
}
template <class F, class W>
F get_format(const W& w, unsigned lsb) {
  typename F::Words words{};
  for (unsigned b = 0; b < F::kBits; b += 64) words[b / 64] = get_bits(w, lsb + b, F::kBits - b < 64 ? F::kBits - b : 64);
  return F::unpack(words);
}

}  // namespace hpcnet::tb
