// net_traffic.cpp: traffic patterns and the mesh/mode helpers of net_types.hpp.
#include "sim/net/net_traffic.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

namespace hpcnet::sim {

std::string MeshShape::name() const {
  return (dims == 3 ? fmt::format("{}x{}x{}", k[0], k[1], k[2]) : fmt::format("{}x{}", k[0], k[1])) +
         (torus ? "-torus" : "");
}

MeshShape MeshShape::parse(const std::string& name) {
  static constexpr std::string_view kTorus = "-torus";
  const bool torus = name.size() > kTorus.size() && name.ends_with(kTorus);
  const std::string text = torus ? name.substr(0, name.size() - kTorus.size()) : name;
  std::vector<unsigned> v;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t x = text.find('x', pos);
    const std::string part = text.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
    if (part.empty() || !std::all_of(part.begin(), part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      throw std::invalid_argument(
          fmt::format("bad mesh '{}': expected KxK or KxKxK, e.g. 8x8 or 4x4x4 (a torus: 8x8-torus)", name));
    // a radix too long to convert is out of range (below); 999 stands for it, the text is kept
    v.push_back(part.size() > 9 ? 999u : static_cast<unsigned>(std::min(std::stoul(part), 999ul)));
    if (x == std::string::npos) break;
    pos = x + 1;
  }
  if (v.size() < 2 || v.size() > 3)
    throw std::invalid_argument(fmt::format("bad mesh '{}': 2 or 3 dimensions (e.g. 8x8 or 4x4x4)", name));
  std::vector<std::string> bad;  // every radix outside 2..64, as written
  pos = 0;
  for (unsigned r : v) {
    const size_t x = text.find('x', pos);
    if (r < 2 || r > 64) bad.push_back(text.substr(pos, x == std::string::npos ? std::string::npos : x - pos));
    pos = x + 1;
  }
  if (!bad.empty())
    throw std::invalid_argument(fmt::format("bad mesh '{}': every radix must be 2..64 ({} {})", name, fmt::join(bad, " and "),
                                            bad.size() == 1 ? "is not" : "are not"));
  MeshShape s = v.size() == 2 ? MeshShape(v[0], v[1]) : MeshShape(v[0], v[1], v[2]);
  s.torus = torus;
  return s;
}

const char* mode_name(NetMode m) {
  switch (m) {
    case NetMode::adbr: return "adbr";
    case NetMode::dor_vct: return "dorvct";
    case NetMode::dor_wh: return "dorwh";
  }
  return "?";
}

NetMode parse_mode(const std::string& text) {
  std::string t;
  for (char c : text)
    if (c != '-' && c != '_') t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "adbr") return NetMode::adbr;
  if (t == "dorvct" || t == "vct") return NetMode::dor_vct;
  if (t == "dorwh" || t == "wh" || t == "wormhole") return NetMode::dor_wh;
  throw std::invalid_argument(fmt::format("unknown router mode '{}' (adbr, dorvct, dorwh)", text));
}

std::string NetSpec::label() const {
  return fmt::format("{} {} b{}{}{}{}", shape.name(), mode_name(mode), buf_pkts, threads > 1 ? fmt::format(" t{}", threads) : "",
                     joined() ? " joined" : "", barrier ? " barrier" : "");
}

std::string NetSpec::buf_error() const {
  if (buf_pkts > buf_max)
    return fmt::format("{}: buffer depth {} packets above the model's maximum {} (BufPkts of {}; build a model "
                       "with a larger BufPkts in rtl/router/models.cmake)",
                       label(), buf_pkts, buf_max, model);
  if (buf_pkts < min_buf())
    return mode == NetMode::adbr
               ? fmt::format("{}: buffer depth {} packets below the DBFC minimum {} (ADBR in {} dimensions needs input "
                             "buffers of at least {} packets)",
                             label(), buf_pkts, min_buf(), shape.dims, shape.dims)
           : shape.torus ? fmt::format("{}: buffer depth {} packets below the bubble rule's minimum 2 (a packet entering a "
                                       "ring of the torus needs room for two packets)",
                                       label(), buf_pkts)
                         : fmt::format("{}: buffer depth {} packets: at least 1 needed", label(), buf_pkts);
  return {};
}

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
