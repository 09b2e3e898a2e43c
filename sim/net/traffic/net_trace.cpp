// net_trace.cpp: see net_trace.hpp.
#include "sim/net/traffic/net_trace.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::sim {

uint64_t PacketTrace::packets() const {
  uint64_t n = 0;
  for (const TraceRecord& r : records) n += r.packets;
  return n;
}

uint64_t PacketTrace::padded_flits() const {
  uint64_t n = 0;
  for (const TraceRecord& r : records) n += uint64_t{r.packets} * pkt_flits - r.flits;
  return n;
}

uint64_t PacketTrace::busy_cycles(uint64_t transit) const {
  uint64_t busy = 0, from = 0, to = 0;  // the current busy span [from, to)
  for (const TraceRecord& r : records) {
    const uint64_t until = r.time + uint64_t{r.packets} * pkt_flits + transit;
    if (r.time > to) {
      busy += to - from;
      from = r.time;
      to = until;
    } else {
      to = std::max(to, until);
    }
  }
  return busy + (to - from);
}

namespace {
// An unsigned decimal integer filling the whole field.
bool parse_u64(const std::string& f, uint64_t& v) {
  if (f.empty() || f[0] == '+' || f[0] == '-') return false;
  const auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  return ec == std::errc() && p == f.data() + f.size();
}
}  // namespace

PacketTrace parse_trace(std::istream& in, const std::string& name, const MeshShape& shape, unsigned pkt_flits) {
  if (pkt_flits == 0) throw std::invalid_argument("parse_trace: packets of 0 flits");
  PacketTrace t;
  t.name = name;
  t.pkt_flits = pkt_flits;
  const unsigned nodes = shape.nodes();
  std::string line;
  unsigned ln = 0;
  uint64_t prev = 0;
  auto fail = [&](const std::string& what) { throw std::invalid_argument(fmt::format("{}:{}: {}", name, ln, what)); };
  while (std::getline(in, line)) {
    ++ln;
    if (const size_t h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream ls(line);
    std::vector<std::string> f;
    for (std::string w; ls >> w;) f.push_back(w);
    if (f.empty()) continue;
    if (f.size() != 4) fail(fmt::format("{} fields, expected 4: <time> <src> <dst> <size in flits>", f.size()));
    uint64_t v[4];
    static const char* kWhat[] = {"time", "source node", "destination node", "size"};
    for (unsigned i = 0; i < 4; ++i)
      if (!parse_u64(f[i], v[i])) fail(fmt::format("{} '{}' is not an unsigned integer", kWhat[i], f[i]));
    if (!t.records.empty() && v[0] < prev)
      fail(fmt::format("time {} before the previous line's {} (times must not decrease)", v[0], prev));
    for (unsigned i = 1; i <= 2; ++i)
      if (v[i] >= nodes)
        fail(fmt::format("{} {} outside the {} network (nodes 0..{})", kWhat[i], v[i], shape.name(), nodes - 1));
    if (v[0] > kMaxTraceTime) fail(fmt::format("time {} beyond {} cycles", v[0], kMaxTraceTime));
    if (v[3] == 0 || v[3] > kMaxTraceFlits)
      fail(fmt::format("size {} flits outside 1..{} (packets of {} flits; a size is rounded up to whole packets)", v[3],
                       kMaxTraceFlits, pkt_flits));
    prev = v[0];
    const auto flits = static_cast<uint32_t>(v[3]);
    t.records.push_back({v[0], static_cast<uint32_t>(v[1]), static_cast<uint32_t>(v[2]), flits,
                         (flits + pkt_flits - 1) / pkt_flits, ln});
  }
  if (in.bad()) throw std::invalid_argument(fmt::format("{}: read error after line {}", name, ln));
  if (t.records.empty()) throw std::invalid_argument(fmt::format("{}: no packet in the trace (only blank or comment lines)", name));
  return t;
}

PacketTrace load_trace(const std::string& path, const MeshShape& shape, unsigned pkt_flits) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw std::invalid_argument(fmt::format("the packet trace {} is a folder", path));
  std::ifstream f(path);
  if (!f) throw std::invalid_argument(fmt::format("cannot read the packet trace {}", path));
  return parse_trace(f, path, shape, pkt_flits);
}

}  // namespace hpcnet::sim
