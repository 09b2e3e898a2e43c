// net_types.cpp: the mesh shape, router mode and model description of net_types.hpp.
#include "sim/net/net_types.hpp"

#include <algorithm>
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

}  // namespace hpcnet::sim
