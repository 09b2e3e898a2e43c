// counts.hpp: a random test's coverage counts on one line ("what: name 12, name 3, ..."), so that
// a run shows what it exercised.
#pragma once
#include <cstdint>
#include <cstdio>
#include <initializer_list>

namespace hpcnet::tb {

struct Count {
  const char* name;
  std::uint64_t n;
};

inline void print_counts(const char* what, std::initializer_list<Count> counts) {
  std::printf("%s:", what);
  const char* sep = " ";
  for (const Count& c : counts) {
    std::printf("%s%s %llu", sep, c.name, static_cast<unsigned long long>(c.n));
    sep = ", ";
  }
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace hpcnet::tb
