// net_linkstats.cpp: see net_linkstats.hpp.
#include "sim/net/stats/net_linkstats.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/net/traffic/net_engine.hpp"

namespace hpcnet::sim {

LinkProbe::LinkProbe(const MeshShape& shape, unsigned pkt_flits)
    : shape_(shape), pf_(pkt_flits), ports_(2 * shape.dims + 1), in_(static_cast<size_t>(shape.nodes()) * ports_) {}

void LinkProbe::reset() {
  std::fill(in_.begin(), in_.end(), Input{});
  cycles_ = 0;
}

std::string port_name(unsigned port, unsigned dims) {
  static const char* kPort[] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};
  return port == 2 * dims ? "local" : kPort[port];
}

int upstream(const MeshShape& s, unsigned n, unsigned port) {
  const unsigned d = port / 2;
  if (port >= 2 * s.dims || s.k[d] < 2) return -1;
  auto c = s.coords(n);
  const int k = static_cast<int>(s.k[d]);
  c[d] += port % 2 == 0 ? -1 : 1;  // input 2d receives what travels in the + direction: from coordinate - 1
  if (c[d] < 0 || c[d] >= k) {
    if (!s.torus) return -1;
    c[d] = (c[d] + k) % k;
  }
  return static_cast<int>(s.id(c));
}

NetLinkStats link_stats(const LinkProbe& probe) {
  NetLinkStats r;
  r.shape = probe.shape();
  r.pkt_flits = probe.pkt_flits();
  r.cycles = probe.cycles();
  const double cyc = r.cycles ? static_cast<double>(r.cycles) : 1.0;
  const MeshShape& s = r.shape;
  for (unsigned n = 0; n < s.nodes(); ++n) {
    for (unsigned p = 0; p < probe.ports(); ++p) {
      const LinkProbe::Input& in = probe.input(n, p);
      // VCT counts slots, wormhole flits: both as packets
      const double occ = static_cast<double>(in.occupancy) / cyc;
      InputStat is{n, p, in.flits, in.blocked, occ};
      r.inputs.push_back(is);
      const int up = upstream(s, n, p);
      if (up < 0) continue;
      LinkStat l;
      l.src = static_cast<unsigned>(up);
      l.dst = n;
      l.port = p;
      const int cs = s.coords(l.src)[p / 2], cd = s.coords(n)[p / 2];
      l.wrap = p % 2 == 0 ? cd < cs : cd > cs;
      l.flits = in.flits;
      l.utilization = static_cast<double>(in.flits) / cyc;
      l.dst_occupancy = occ;
      l.dst_blocked = static_cast<double>(in.blocked) / cyc;
      r.links.push_back(l);
    }
  }
  return r;
}

uint64_t NetLinkStats::link_flits() const {
  uint64_t f = 0;
  for (const LinkStat& l : links) f += l.flits;
  return f;
}

double NetLinkStats::max_utilization() const {
  double m = 0;
  for (const LinkStat& l : links) m = std::max(m, l.utilization);
  return m;
}

namespace {
std::ofstream open_csv(const std::string& path) {
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  return f;
}
void close_csv(std::ofstream& f, const std::string& path) {  // a write that failed after the open (disk full)
  f.close();
  if (!f) throw std::runtime_error("cannot write " + path);
}
}  // namespace

void write_link_csv(const NetLinkStats& s, const std::string& path) {
  std::ofstream f = open_csv(path);
  f << "src,dst,dir,src_x,src_y,src_z,dst_x,dst_y,dst_z,wrap,flits,utilization,dst_occupancy,dst_blocked\n";
  for (const LinkStat& l : s.links) {
    const auto a = s.shape.coords(l.src), b = s.shape.coords(l.dst);
    f << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{:.6f},{:.6f},{:.6f}\n", l.src, l.dst, port_name(l.port, s.shape.dims),
                     a[0], a[1], a[2], b[0], b[1], b[2], l.wrap ? 1 : 0, l.flits, l.utilization, l.dst_occupancy,
                     l.dst_blocked);
  }
  close_csv(f, path);
}

void write_input_csv(const NetLinkStats& s, const std::string& path) {
  std::ofstream f = open_csv(path);
  f << "router,x,y,z,port,flits,occupancy,blocked_cycles,blocked_frac\n";
  const double cyc = s.cycles ? static_cast<double>(s.cycles) : 1.0;
  for (const InputStat& i : s.inputs) {
    const auto c = s.shape.coords(i.router);
    f << fmt::format("{},{},{},{},{},{},{:.6f},{},{:.6f}\n", i.router, c[0], c[1], c[2], port_name(i.port, s.shape.dims),
                     i.flits, i.occupancy, i.blocked, static_cast<double>(i.blocked) / cyc);
  }
  close_csv(f, path);
}

std::vector<HistBin> latency_histogram(const NetStats& s, unsigned width) {
  if (width == 0) throw std::invalid_argument("latency histogram: bin width 0");
  std::vector<HistBin> bins;
  const size_t n = s.lat_hist.size();
  if (n == 0) return bins;
  size_t last = 0;  // last occupied bucket below the overflow bucket, + 1
  for (size_t i = 0; i + 1 < n; ++i)
    if (s.lat_hist[i]) last = i + 1;
  for (size_t lo = 0; lo < last; lo += width) {
    HistBin b{lo, std::min<uint64_t>(lo + width, n - 1), 0, false};
    for (size_t i = lo; i < b.hi; ++i) b.count += s.lat_hist[i];
    bins.push_back(b);
  }
  if (s.lat_hist[n - 1]) bins.push_back(HistBin{n - 1, UINT64_MAX, s.lat_hist[n - 1], true});
  return bins;
}

void write_histogram_csv(const std::vector<HistBin>& bins, const std::string& path) {
  std::ofstream f = open_csv(path);
  uint64_t total = 0, cum = 0;
  for (const HistBin& b : bins) total += b.count;
  f << "lo,hi,count,fraction,cumulative\n";
  for (const HistBin& b : bins) {
    cum += b.count;
    const double t = total ? static_cast<double>(total) : 1.0;
    f << fmt::format("{},{},{},{:.6f},{:.6f}\n", b.lo, b.overflow ? std::string("inf") : std::to_string(b.hi), b.count,
                     static_cast<double>(b.count) / t, static_cast<double>(cum) / t);
  }
  close_csv(f, path);
}

}  // namespace hpcnet::sim
