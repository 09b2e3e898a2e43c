// hpcnet/tb/seed.hpp: the seed of a random test: HPCNET_SEED from the environment when set, else a
// fresh one. Printed (and flushed, so that it survives a crash) either way, so that a failing run
// can be repeated with HPCNET_SEED=<seed>.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace hpcnet::tb {

inline std::uint64_t seed(const char* test) {
  const char* env = std::getenv("HPCNET_SEED");
  std::uint64_t s = env ? std::strtoull(env, nullptr, 0) : std::random_device{}();
  std::printf("%s: HPCNET_SEED=%llu\n", test, static_cast<unsigned long long>(s));
  std::fflush(stdout);
  return s;
}

}  // namespace hpcnet::tb
