// net_traffic.cpp: traffic patterns (net_traffic.hpp).
#include "sim/net/traffic/net_traffic.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::sim {

const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::uniform: return "uniform";
    case Pattern::transpose: return "transpose";
    case Pattern::bitcomp: return "bitcomp";
    case Pattern::bitrev: return "bitrev";
    case Pattern::hotspot: return "hotspot";
    case Pattern::neighbor: return "neighbor";
  }
  return "?";
}

Pattern parse_pattern(const std::string& text) {
  std::string t;
  for (char c : text)
    if (c != '-' && c != '_') t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "uniform" || t == "random" || t == "ur") return Pattern::uniform;
  if (t == "transpose") return Pattern::transpose;
  if (t == "bitcomp" || t == "bitcomplement" || t == "complement") return Pattern::bitcomp;
  if (t == "bitrev" || t == "bitreverse" || t == "reverse") return Pattern::bitrev;
  if (t == "hotspot") return Pattern::hotspot;
  if (t == "neighbor" || t == "neighbour" || t == "nn" || t == "nearestneighbor" || t == "nearestneighbour")
    return Pattern::neighbor;
  throw std::invalid_argument(
      fmt::format("unknown traffic pattern '{}' (uniform, transpose, bitcomp, bitrev, hotspot, neighbor)", text));
}

namespace {

bool equal_radices(const MeshShape& s) {
  for (unsigned d = 1; d < s.dims; ++d)
    if (s.k[d] != s.k[0]) return false;
  return true;
}

}  // namespace

Traffic::Traffic(const MeshShape& s, const PatternConfig& cfg) : cfg_(cfg), nodes_(s.nodes()) {
  if (nodes_ < 2) throw std::invalid_argument("traffic needs at least 2 nodes");
  const unsigned n = nodes_;
  const bool pow2 = std::has_single_bit(n);
  const unsigned b = pow2 ? static_cast<unsigned>(std::countr_zero(n)) : 0;
  auto set_perm = [&](auto f) {
    kind_ = Kind::perm;
    perm_.resize(n);
    for (unsigned i = 0; i < n; ++i) {
      const unsigned d = f(i);
      perm_[i] = d == i ? kSilent : d;
    }
  };
  switch (cfg.pattern) {
    case Pattern::uniform: kind_ = Kind::uniform; break;
    case Pattern::transpose:
      if (pow2 && b % 2 == 0) {
        set_perm([&](unsigned i) { return ((i >> (b / 2)) | (i << (b / 2))) & (n - 1); });
      } else if (equal_radices(s)) {
        set_perm([&](unsigned i) {
          const auto c = s.coords(i);
          return s.dims == 2 ? s.id({c[1], c[0], 0}) : s.id({c[1], c[2], c[0]});
        });
      } else {
        throw std::invalid_argument(fmt::format(
            "transpose is not defined on a {} mesh (needs a power-of-two node count with an even number of id bits, "
            "or equal radices)", s.name()));
      }
      break;
    case Pattern::bitcomp:
      set_perm([&](unsigned i) {
        auto c = s.coords(i);
        for (unsigned d = 0; d < 3; ++d) c[d] = static_cast<int>(s.k[d]) - 1 - c[d];
        return s.id(c);
      });
      break;
    case Pattern::bitrev:
      if (pow2) {
        set_perm([&](unsigned i) {
          unsigned r = 0;
          for (unsigned j = 0; j < b; ++j) r |= ((i >> j) & 1u) << (b - 1 - j);
          return r;
        });
      } else if (equal_radices(s)) {
        set_perm([&](unsigned i) {
          const auto c = s.coords(i);
          return s.dims == 2 ? s.id({c[1], c[0], 0}) : s.id({c[2], c[1], c[0]});
        });
      } else {
        throw std::invalid_argument(fmt::format(
            "bitrev is not defined on a {} mesh (needs a power-of-two node count or equal radices)", s.name()));
      }
      break;
    case Pattern::hotspot:
      kind_ = Kind::hotspot;
      if (!(cfg.hotspot_frac >= 0.0 && cfg.hotspot_frac <= 1.0))
        throw std::invalid_argument(fmt::format("hotspot fraction {} outside 0..1", cfg.hotspot_frac));
      frac_ = cfg.hotspot_frac;
      hot_ = cfg.hotspots;
      if (hot_.empty()) hot_.push_back(s.id({static_cast<int>(s.k[0] / 2), static_cast<int>(s.k[1] / 2), static_cast<int>(s.k[2] / 2)}));
      for (unsigned h : hot_)
        if (h >= n) throw std::invalid_argument(fmt::format("hotspot node {} outside the {} mesh (0..{})", h, s.name(), n - 1));
      break;
    case Pattern::neighbor:
      kind_ = Kind::neighbor;
      nb_begin_.reserve(n + 1);
      for (unsigned i = 0; i < n; ++i) {
        nb_begin_.push_back(static_cast<uint32_t>(nb_.size()));
        const auto c = s.coords(i);
        for (unsigned d = 0; d < s.dims; ++d)
          for (int dir : {-1, 1}) {
            auto o = c;
            o[d] += dir;
            // a torus wraps (radix 2: the node on both sides is listed twice, drawn twice as often;
            // dest_probs counts it the same way)
            if (s.torus) o[d] = (o[d] + static_cast<int>(s.k[d])) % static_cast<int>(s.k[d]);
            if (o[d] >= 0 && o[d] < static_cast<int>(s.k[d]) && o[d] != c[d]) nb_.push_back(s.id(o));
          }
      }
      nb_begin_.push_back(static_cast<uint32_t>(nb_.size()));
      break;
  }
}

std::vector<std::pair<uint32_t, double>> Traffic::dest_probs(unsigned src) const {
  std::vector<double> p(nodes_, 0.0);  // per destination, as dest() draws
  auto uniform = [&](double mass) {    // spread evenly over every node but src
    for (uint32_t d = 0; d < nodes_; ++d)
      if (d != src) p[d] += mass / static_cast<double>(nodes_ - 1);
  };
  switch (kind_) {
    case Kind::perm:
      if (perm_[src] != kSilent) p[perm_[src]] = 1.0;
      break;
    case Kind::uniform: uniform(1.0); break;
    case Kind::hotspot: {
      uniform(1.0 - frac_);
      const double each = frac_ / static_cast<double>(hot_.size());
      for (uint32_t h : hot_) {
        if (h == src) uniform(each);  // a hotspot drawn by itself sends uniformly instead
        else p[h] += each;
      }
      break;
    }
    case Kind::neighbor: {
      const uint32_t b = nb_begin_[src], n = nb_begin_[src + 1] - b;
      for (uint32_t i = 0; i < n; ++i) p[nb_[b + i]] += 1.0 / n;
      break;
    }
  }
  std::vector<std::pair<uint32_t, double>> out;
  for (uint32_t d = 0; d < nodes_; ++d)
    if (p[d] > 0) out.emplace_back(d, p[d]);
  return out;
}

}  // namespace hpcnet::sim
