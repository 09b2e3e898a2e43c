// formats.hpp: the bit-field helpers every generated header (hpcnet/<stem>.hpp, written by
// scripts/regs/gen_regs.py from rtl/<block>/*.toml) is built on. A format is a little-endian array
// of 64-bit words: bit b of the format is bit b % 64 of word b / 64 (docs/regs.md).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace hpcnet::formats {

// The low `width` bits set (width 0..64).
constexpr std::uint64_t low_mask(unsigned width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

// Bits [bit, bit+width) of the words w (width 1..64; the field may cross a word boundary).
constexpr std::uint64_t get_bits(const std::uint64_t* w, unsigned bit, unsigned width) {
  const unsigned i = bit / 64, s = bit % 64;
  std::uint64_t v = w[i] >> s;
  if (s != 0 && s + width > 64) v |= w[i + 1] << (64 - s);
  return v & low_mask(width);
}

// Writes v, truncated to `width` bits, into bits [bit, bit+width) of the words w.
constexpr void put_bits(std::uint64_t* w, unsigned bit, unsigned width, std::uint64_t v) {
  const unsigned i = bit / 64, s = bit % 64;
  const std::uint64_t m = low_mask(width);
  v &= m;
  w[i] = (w[i] & ~(m << s)) | (v << s);
  if (s != 0 && s + width > 64) w[i + 1] = (w[i + 1] & ~(m >> (64 - s))) | (v >> (64 - s));
}

// The two's-complement value of a `width`-bit field v (v < 2^width).
constexpr std::int64_t sign_extend(std::uint64_t v, unsigned width) {
  const std::uint64_t sign = std::uint64_t{1} << (width - 1);
  return static_cast<std::int64_t>((v ^ sign) - sign);
}

// A nested format of `bits` bits (its packed words sub) at bit `bit` of the words w, and back.
template <std::size_t N>
constexpr void put_words(std::uint64_t* w, unsigned bit, unsigned bits, const std::array<std::uint64_t, N>& sub) {
  for (unsigned k = 0; 64 * k < bits; ++k) put_bits(w, bit + 64 * k, bits - 64 * k < 64 ? bits - 64 * k : 64, sub[k]);
}
template <std::size_t N>
constexpr std::array<std::uint64_t, N> get_words(const std::uint64_t* w, unsigned bit, unsigned bits) {
  std::array<std::uint64_t, N> sub{};
  for (unsigned k = 0; 64 * k < bits; ++k) sub[k] = get_bits(w, bit + 64 * k, bits - 64 * k < 64 ? bits - 64 * k : 64);
  return sub;
}

// A bit field: bits [lsb, lsb+width) of 64-bit word `word` of a register or format (width <= 64).
// get/put/mask work on the one word of a field that lies inside it (every register field);
// read/write work on the whole array of words and take any field, also one crossing a word.
struct Field {
  unsigned word, lsb, width;
  // Position of the field's bit 0 in the whole format.
  constexpr unsigned bit() const { return 64 * word + lsb; }
  // In-place mask of the field inside its word.
  constexpr std::uint64_t mask() const { return low_mask(width) << lsb; }
  // The field's value extracted from word w.
  constexpr std::uint64_t get(std::uint64_t w) const { return (w & mask()) >> lsb; }
  // Value v shifted into place (truncated to the field); OR the results together.
  constexpr std::uint64_t put(std::uint64_t v) const { return (v << lsb) & mask(); }
  // The field's value in the words w, and v (truncated) written into them.
  constexpr std::uint64_t read(const std::uint64_t* w) const { return get_bits(w, bit(), width); }
  constexpr void write(std::uint64_t* w, std::uint64_t v) const { put_bits(w, bit(), width, v); }
  // Element i of a repeated field (count > 1): the field `i * width` bits further up.
  constexpr Field at(unsigned i) const {
    const unsigned b = bit() + i * width;
    return {b / 64, b % 64, width};
  }
};

}  // namespace hpcnet::formats
