// machine_stream.cpp: `hpcnet machine --program stream`: one pair streaming RDMA writes across the
// network (node 0 to the farthest node), alone or with background traffic from every other node.
#include <algorithm>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/results.hpp"
#include "hpcnet/platform.hpp"
#include "hpcnet/rdma.h"
#include "machine/machine_bench.hpp"

namespace hpcnet::bench::machineb {

namespace {

constexpr unsigned kBgBytes = 16384;  // a background write (large: one in progress a sender reaches more load)
constexpr unsigned kStreamDepth = 8;  // stream writes in flight (fenced in groups by rdma_quiet)

// One point: node 0 streams `rounds` writes of `size` bytes to node `dst`; every other node writes
// kBgBytes to random nodes at `load` (a fraction of its link's payload rate) until the stream ends.
// Returns the stream's bytes per cycle (0 on an error).
double stream_point(const MachineOptions& o, double load, uint64_t& cycles_run, uint64_t& bg_bytes, uint64_t& stream_cycles, bool& ok) {
  sim::Machine m(machine_config(o));
  const unsigned N = m.nodes(), dst = o.shape.nodes() - 1;
  std::vector<rdma_ep*> ep(N);
  std::vector<uint64_t> va(N);
  std::vector<uint16_t> key(N);
  const size_t bytes = std::max<size_t>(size_t(o.size) * kStreamDepth, kBgBytes * 2);
  for (unsigned n = 0; n < N; ++n)
    m.spawn(n, 0, 0, [&, n] {
      if (rdma_open(&ep[n]) != 0) throw CheckFailed("stream: no endpoint");
      va[n] = rdma_alloc(ep[n], bytes, 0);
      if (rdma_reg_mr(ep[n], va[n], bytes, RDMA_ACCESS_WRITE | RDMA_ACCESS_READ, &key[n]) != 0) throw CheckFailed("stream: registration");
    });
  m.run();
  bool done = false;
  uint64_t t0 = 0, t1 = 0;
  int err = 0;
  // the stream's source pattern
  std::vector<uint8_t> pat(bytes);
  for (size_t i = 0; i < bytes; ++i) pat[i] = uint8_t(i * 13 + 5);
  rdma_mem_write(ep[0], va[0], pat.data(), bytes);
  m.spawn(0, 0, 0, [&] {
    Platform& p = *this_platform();
    const rdma_opts opt{0, 0, nullptr, nullptr, -1};
    t0 = p.now_cycles();
    for (unsigned r = 0; r < o.rounds; ++r) {
      const size_t off = size_t(r % kStreamDepth) * o.size;
      const int e = rdma_write(ep[0], dst, 0, rdma_addr{key[dst], va[dst] + off}, rdma_addr{key[0], va[0] + off}, o.size, &opt);
      if (e < 0 && !err) err = e;
      if ((r + 1) % kStreamDepth == 0) {
        const int q = rdma_quiet(ep[0]);
        if (q < 0 && !err) err = q;
      }
    }
    const int q = rdma_quiet(ep[0]);
    if (q < 0 && !err) err = q;
    t1 = p.now_cycles();
    done = true;
  });
  bg_bytes = 0;
  if (load > 0)
    for (unsigned n = 1; n < N; ++n)
      m.spawn(n, 0, 0, [&, n] {
        Platform& p = *this_platform();
        std::mt19937_64 rng(o.seed * 7919 + n);
        const rdma_opts opt{0, 0, nullptr, nullptr, -1};
        // a write of kBgBytes every gap cycles: load x 25.6 payload bytes a cycle (32-byte flits, 128 of 160 bytes payload)
        const double gap = kBgBytes / (load * 32.0 * 128.0 / 160.0);
        double next = double(p.now_cycles());
        while (!done) {
          unsigned d = unsigned(rng() % (N - 1));
          d += d >= n;
          if (d == dst || d == 0) continue;  // the stream's ends take no background: its bytes are checked
          const int e = rdma_write(ep[n], d, 0, rdma_addr{key[d], va[d] + kBgBytes}, rdma_addr{key[n], va[n]}, kBgBytes, &opt);
          if (e < 0 && !err) err = e;
          bg_bytes += kBgBytes;
          next += gap;
          while (!done && double(p.now_cycles()) < next) p.relax();
        }
        const int q = rdma_quiet(ep[n]);
        if (q < 0 && !err) err = q;
      });
  m.run();
  cycles_run = m.cycles();
  stream_cycles = t1 - t0;
  std::vector<uint8_t> got(size_t(o.size) * std::min(o.rounds, kStreamDepth));
  rdma_mem_read(ep[dst], va[dst], got.data(), got.size());
  ok = !err && std::equal(got.begin(), got.end(), pat.begin());
  return ok && t1 > t0 ? double(o.size) * o.rounds / double(t1 - t0) : 0.0;
}

}  // namespace

bool run_stream(const MachineOptions& o, const std::string& csv) {
  const Stopwatch sw;
  uint64_t cycles = 0;
  bool all_ok = true;
  Results r({{"load", "background load"}, {"achieved_load", "achieved"}, {"bytes", "bytes/msg"}, {"messages", ""},
             {"bytes_per_cycle", "B/cycle"}, {"gbps", "GB/s"}, {"background_bytes", "background bytes"}, {"checked", ""}});
  r.config("shape", o.shape.name()).config("mode", sim::mode_name(o.mode)).config("src", 0.0)
      .config("dst", double(o.shape.nodes() - 1)).config("hops", double(o.shape.hops(0, o.shape.nodes() - 1)));
  Progress prog("machine stream", o.loads.size(), o.progress);
  for (double load : o.loads) {
    uint64_t c = 0, bg = 0, sc = 0;
    bool ok = false;
    const double bpc = stream_point(o, load, c, bg, sc, ok);
    cycles += c;
    all_ok = all_ok && ok;
    // the background's bytes a cycle of the stream, per background node, over a link's payload rate
    const double achieved = sc && o.shape.nodes() > 2 ? double(bg) / double(sc) / (o.shape.nodes() - 2) / (32.0 * 128.0 / 160.0) : 0.0;
    r.add({num(load, 2), num(achieved, 3), num(o.size), num(o.rounds), num(bpc, 2), num(bpc * 0.3125, 3), num(bg),
           word(ok ? "yes" : "NO")});
    prog.step(fmt::format("load {:.2f}: {:.3f} GB/s", load, bpc * 0.3125));
  }
  fmt::print("\nOne pair streaming across {} {} (node 0 to node {}, {} hops): RDMA writes of {} bytes, {} in flight; "
             "background: every other node writes {} bytes to random nodes at the load given\n",
             o.shape.name(), sim::mode_name(o.mode), o.shape.nodes() - 1, o.shape.hops(0, o.shape.nodes() - 1), o.size,
             kStreamDepth, kBgBytes);
  print_results(r, csv_name(csv, "stream"), "stream");
  print_speed(o, sw.speed(cycles), o.shape.nodes(), csv);
  if (!all_ok) std::fprintf(stderr, "hpcnet: check failed: stream: an error or a wrong byte\n");
  return all_ok;
}

}  // namespace hpcnet::bench::machineb
