// net_capacity.cpp: see net_capacity.hpp.
#include "sim/net/stats/net_capacity.hpp"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <vector>

namespace hpcnet::sim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double limit(double load) { return load > 0 ? 1.0 / load : kInf; }

}  // namespace

double Capacity::dor() const { return std::min({dor_channel, eject, 1.0}); }
double Capacity::any() const { return std::min({cut, eject, 1.0}); }

Capacity ideal_capacity(const MeshShape& shape, const Traffic& traffic) {
  const unsigned n = shape.nodes();
  // channel (node, dimension, direction): the link leaving `node` towards + (s = 0) or - (s = 1)
  std::vector<double> channel(static_cast<size_t>(n) * 6, 0.0), eject(n, 0.0);
  // pair[d][a * k + b]: load from coordinate a to coordinate b of dimension d (the cuts)
  std::vector<std::vector<double>> pair(3);
  for (unsigned d = 0; d < 3; ++d) pair[d].assign(static_cast<size_t>(shape.k[d]) * shape.k[d], 0.0);

  for (unsigned src = 0; src < n; ++src) {
    for (const auto& [dst, p] : traffic.dest_probs(src)) {
      eject[dst] += p;
      auto at = shape.coords(src);
      const auto to = shape.coords(dst);
      for (unsigned d = 0; d < 3; ++d) {
        const int k = static_cast<int>(shape.k[d]);
        pair[d][static_cast<size_t>(at[d] * k + to[d])] += p;
        const int off = ring_offset(at[d], to[d], shape.k[d], shape.torus);
        const unsigned s = off > 0 ? 0 : 1;
        // dimension order: walk dimension d to its destination coordinate (round the ring in a torus)
        for (int h = 0; h < std::abs(off); ++h) {
          channel[(static_cast<size_t>(shape.id(at)) * 3 + d) * 2 + s] += p;
          at[d] = (at[d] + (s == 0 ? 1 : -1) + k) % k;
        }
      }
    }
  }

  Capacity cap;
  cap.dor_channel = limit(*std::max_element(channel.begin(), channel.end()));
  cap.eject = limit(*std::max_element(eject.begin(), eject.end()));
  cap.cut = kInf;
  for (unsigned d = 0; d < shape.dims; ++d) {
    const unsigned k = shape.k[d];
    const double lines = static_cast<double>(n / k);  // channels across one cut, one direction
    auto from_to = [&](unsigned a, unsigned b) { return pair[d][static_cast<size_t>(a) * k + b]; };
    if (!shape.torus) {
      // the cut between coordinates c and c+1: what crosses it towards + and towards -
      for (unsigned c = 0; c + 1 < k; ++c) {
        double up = 0, down = 0;
        for (unsigned a = 0; a <= c; ++a)
          for (unsigned b = c + 1; b < k; ++b) {
            up += from_to(a, b);
            down += from_to(b, a);
          }
        for (double load : {up, down})
          if (load > 0) cap.cut = std::min(cap.cut, lines / load);
      }
      continue;
    }
    // torus: every arc of coordinates [first, first+len) of the ring; 2 channels per line leave it
    // (one each way round), and whatever the arc's nodes send outside it must take one of them
    for (unsigned first = 0; first < k; ++first)
      for (unsigned len = 1; len < k; ++len) {
        double load = 0;
        for (unsigned i = 0; i < len; ++i)
          for (unsigned b = 0; b < k; ++b)
            if ((b + k - first) % k >= len) load += from_to((first + i) % k, b);
        if (load > 0) cap.cut = std::min(cap.cut, 2 * lines / load);
      }
  }
  return cap;
}

}  // namespace hpcnet::sim
