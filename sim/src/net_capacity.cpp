// net_capacity.cpp: see net_capacity.hpp.
#include "hpcnet/sim/net_capacity.hpp"

#include <algorithm>
#include <array>
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
  // cross[d][c][s]: load crossing the cut between coordinates c and c+1 of dimension d, direction s
  std::vector<std::vector<std::array<double, 2>>> cross(3);
  for (unsigned d = 0; d < 3; ++d) cross[d].assign(shape.k[d], {0.0, 0.0});

  for (unsigned src = 0; src < n; ++src) {
    for (const auto& [dst, p] : traffic.dest_probs(src)) {
      eject[dst] += p;
      auto at = shape.coords(src);
      const auto to = shape.coords(dst);
      for (unsigned d = 0; d < 3; ++d) {
        const int lo = std::min(at[d], to[d]), hi = std::max(at[d], to[d]);
        const unsigned s = to[d] > at[d] ? 0 : 1;
        for (int c = lo; c < hi; ++c) cross[d][static_cast<size_t>(c)][s] += p;
        // dimension order: walk dimension d to its destination coordinate
        while (at[d] != to[d]) {
          channel[(static_cast<size_t>(shape.id(at)) * 3 + d) * 2 + s] += p;
          at[d] += s == 0 ? 1 : -1;
        }
      }
    }
  }

  Capacity cap;
  cap.dor_channel = limit(*std::max_element(channel.begin(), channel.end()));
  cap.eject = limit(*std::max_element(eject.begin(), eject.end()));
  cap.cut = kInf;
  for (unsigned d = 0; d < shape.dims; ++d) {
    const double links = static_cast<double>(n / shape.k[d]);  // channels across one cut, one direction
    for (const auto& c : cross[d])
      for (double load : c)
        if (load > 0) cap.cut = std::min(cap.cut, links / load);
  }
  return cap;
}

}  // namespace hpcnet::sim
