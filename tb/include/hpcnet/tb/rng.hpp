// rng.hpp: the tests' seeded random source. One Rng per run, seeded from hpcnet::tb::seed() (which
// prints the seed, so that HPCNET_SEED=<n> repeats the run): raw 64-bit draws, uniform integers in
// a closed range, percent chances, a uniform double. Rng is a uniform random bit generator, so the
// standard algorithms (std::shuffle) and distributions take it as it is.
#pragma once
#include <cstdint>
#include <random>

namespace hpcnet::tb {

class Rng {
 public:
  using result_type = std::mt19937_64::result_type;
  explicit Rng(std::uint64_t seed) : gen_(seed) {}

  static constexpr result_type min() { return std::mt19937_64::min(); }
  static constexpr result_type max() { return std::mt19937_64::max(); }
  result_type operator()() { return gen_(); }  // 64 random bits

  // uniform in [lo, hi]
  unsigned rnd(unsigned lo, unsigned hi) { return std::uniform_int_distribution<unsigned>(lo, hi)(gen_); }
  // uniform in [0, n), n > 0
  unsigned below(unsigned n) { return rnd(0, n - 1); }
  // true with probability p percent (p >= 100: always, 0: never)
  bool pct(unsigned p) { return rnd(0, 99) < p; }
  // uniform in [0, 1)
  double u01() { return std::uniform_real_distribution<double>(0.0, 1.0)(gen_); }

 private:
  std::mt19937_64 gen_;
};

}  // namespace hpcnet::tb
