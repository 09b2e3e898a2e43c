// machine_programs.cpp: `hpcnet machine --program all-to-all | stencil`, and what every program shares.
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/results.hpp"
#include "hpcnet/platform.hpp"
#include "hpcnet/rdma.h"
#include "hpcnet/stencil.hpp"
#include "machine/machine_bench.hpp"

namespace hpcnet::bench::machineb {

sim::MachineConfig machine_config(const MachineOptions& o) {
  sim::MachineConfig c;
  c.net.shape = o.shape;
  c.net.mode = o.mode;
  c.trace_node = o.trace_node;
  c.node.with_ssm = o.program == "stencil";
  return c;
}

std::string csv_name(const std::string& stem, const std::string& table) {
  if (stem.empty()) return {};
  std::filesystem::path p = stem;
  if (p.extension() == ".csv") p.replace_extension();
  return p.string() + "-" + table + ".csv";
}

namespace {
double wall_now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
double cpu_now() { return double(std::clock()) / CLOCKS_PER_SEC; }
}  // namespace

Stopwatch::Stopwatch() : wall0_(wall_now()), cpu0_(cpu_now()) {}
Speed Stopwatch::speed(uint64_t cycles) const { return {cycles, wall_now() - wall0_, cpu_now() - cpu0_, sim::peak_rss_kib()}; }

void print_speed(const MachineOptions& o, const Speed& s, unsigned nodes, const std::string& csv) {
  Results r({{"nodes", ""}, {"cycles", ""}, {"wall_s", "wall (s)"}, {"cpu_s", "CPU (s)"}, {"cycles_per_s", "cycles/s"},
             {"cycles_per_cpu_s", "cycles/CPU-s"}, {"node_cycles_per_cpu_s", "node-cycles/CPU-s"},
             {"peak_rss_mib", "peak memory (MiB)"}});
  r.config("shape", o.shape.name()).config("mode", sim::mode_name(o.mode)).config("program", o.program);
  r.add({num(nodes), num(s.cycles), num(s.wall_s, 2), num(s.cpu_s, 2), num(s.cycles_per_s(), 0), num(s.cycles_per_cpu_s(), 0),
         num(s.cycles_per_cpu_s() * nodes, 0), num(double(s.peak_rss_kib) / 1024.0)});
  fmt::print("\nSimulation speed (the whole run: boot, program, checks)\n");
  print_results(r, csv_name(csv, "speed"), "speed");
}

namespace {

// Byte i of what node s writes to node d in round k.
uint8_t a2a_byte(unsigned s, unsigned d, unsigned k, unsigned i) { return uint8_t(s * 31 + d * 17 + k * 7 + i * 3 + 1); }

// The bisection bound of uniform all-to-all traffic, payload bytes per cycle over the whole
// network: the cut across the longest dimension (half the nodes on each side) carries
// (N/2)^2 of the N(N-1) ordered pairs each way; each link carries 32-byte flits, 128 payload
// bytes in 5 flits.
double bisection_bound(const sim::MeshShape& s) {
  unsigned d = 0;
  for (unsigned i = 1; i < s.dims; ++i)
    if (s.k[i] > s.k[d]) d = i;
  const double n = s.nodes(), links = double(s.nodes() / s.k[d]) * (s.torus ? 2 : 1);
  const double cut_bytes_per_cycle = 2.0 * links * 32.0 * 128.0 / 160.0;  // both directions
  const double crossing = (n / 2.0) * (n / 2.0) * 2.0 / (n * (n - 1.0));
  return cut_bytes_per_cycle / crossing;
}

}  // namespace

bool run_alltoall(const MachineOptions& o, const std::string& csv) {
  const Stopwatch sw;
  sim::Machine m(machine_config(o));
  const unsigned N = m.nodes();
  std::vector<rdma_ep*> ep(N);
  std::vector<uint64_t> va(N);
  std::vector<uint16_t> key(N);
  // node d's memory: N slots of blk bytes the others write (slot s: node s's), then, for RDMA writes
  // (messages above 128 bytes), N source slots (slot d: what goes to node d)
  const bool imm = o.size <= 128;
  const size_t blk = (o.size + 127) / 128 * 128, bytes = blk * N * (imm ? 1 : 2);
  for (unsigned n = 0; n < N; ++n)
    m.spawn(n, 0, 0, [&, n] {
      if (rdma_open(&ep[n]) != 0) throw CheckFailed("all-to-all: no endpoint");
      va[n] = rdma_alloc(ep[n], bytes, 0);
      if (rdma_reg_mr(ep[n], va[n], bytes, RDMA_ACCESS_WRITE | RDMA_ACCESS_READ, &key[n]) != 0)
        throw CheckFailed("all-to-all: registration");
    });
  m.run();
  // RDMA writes send the same data every round, from source slots filled before the timed part
  // (from outside the simulated threads: no simulated CPU time)
  if (!imm)
    for (unsigned s = 0; s < N; ++s)
      for (unsigned d = 0; d < N; ++d) {
        std::vector<uint8_t> v(o.size);
        for (unsigned i = 0; i < o.size; ++i) v[i] = a2a_byte(s, d, 0, i);
        rdma_mem_write(ep[s], va[s] + (N + d) * blk, v.data(), o.size);
      }
  std::vector<uint64_t> t_end(N, 0);
  std::vector<int> err(N, 0);
  const uint64_t t_start = m.cycles();
  for (unsigned s = 0; s < N; ++s)
    m.spawn(s, 0, 0, [&, s] {
      std::vector<uint8_t> data(o.size);
      const rdma_opts opt{0, imm ? unsigned(RDMA_F_MORE) : 0u, nullptr, nullptr, -1};
      for (unsigned k = 0; k < o.rounds; ++k) {
        for (unsigned j = 1; j < N; ++j) {
          const unsigned d = (s + j) % N;
          const rdma_addr to{key[d], va[d] + s * blk};
          int e = 0;
          if (imm) {
            for (unsigned i = 0; i < o.size; ++i) data[i] = a2a_byte(s, d, k, i);
            e = rdma_write_imm(ep[s], d, 0, to, data.data(), o.size, &opt);
          } else {
            e = rdma_write(ep[s], d, 0, to, rdma_addr{key[s], va[s] + (N + d) * blk}, o.size, &opt);
          }
          if (e < 0 && !err[s]) err[s] = e;
        }
      }
      const int q = rdma_quiet(ep[s]);
      if (q < 0 && !err[s]) err[s] = q;
      t_end[s] = this_platform()->now_cycles();
    });
  m.run();
  const uint64_t cycles = m.cycles() - t_start;
  // every byte: the last round's data from every source, nothing else
  uint64_t bad = 0;
  for (unsigned d = 0; d < N; ++d) {
    std::vector<uint8_t> got(blk * N);
    rdma_mem_read(ep[d], va[d], got.data(), got.size());
    for (unsigned s = 0; s < N; ++s)
      for (unsigned i = 0; i < blk; ++i) {
        const uint8_t want = s != d && i < o.size ? a2a_byte(s, d, imm ? o.rounds - 1 : 0, i) : 0;
        bad += got[s * blk + i] != want;
      }
  }
  int errors = 0;
  for (int e : err) errors += e != 0;
  const double payload = double(N) * (N - 1) * o.rounds * o.size, rate = payload / double(cycles);
  const double bound = bisection_bound(o.shape), inject = double(N) * 32.0 * 128.0 / 160.0;
  Results r({{"nodes", ""}, {"bytes", "bytes/msg"}, {"rounds", ""}, {"cycles", ""}, {"bytes_per_cycle", "B/cycle"},
             {"gbps", "GB/s"}, {"bisection_bound_bytes_per_cycle", "bisection bound"}, {"of_bisection", "of bound"},
             {"injection_bound_bytes_per_cycle", "injection bound"}, {"errors", ""}, {"bytes_wrong", ""}});
  r.config("shape", o.shape.name()).config("mode", sim::mode_name(o.mode));
  r.add({num(N), num(o.size), num(o.rounds), num(cycles), num(rate, 2), num(rate * m.config().node.clock_mhz / 1000.0, 3),
         num(bound, 1), num(rate / bound, 3), num(inject, 1), num(uint64_t(errors)), num(bad)});
  fmt::print("\nAll-to-all on {} {}: every node writes {} bytes to every other node, {} rounds ({})\n", o.shape.name(),
             sim::mode_name(o.mode), o.size, o.rounds, imm ? "immediate writes, submitted together" : "RDMA writes, submitted together");
  print_results(r, csv_name(csv, "alltoall"), "alltoall");
  print_speed(o, sw.speed(m.cycles()), N, csv);
  if (bad || errors) std::fprintf(stderr, "hpcnet: check failed: all-to-all: %llu bytes wrong, %d nodes with errors\n",
                                  static_cast<unsigned long long>(bad), errors);
  return !bad && !errors;
}

bool run_stencil(const MachineOptions& o, const std::string& csv) {
  namespace st = hpcnet::stencil;
  if (o.shape.dims != 2) throw UsageError("--shape", "the stencil runs on a 2-D mesh or torus");
  const Stopwatch sw;
  sim::Machine m(machine_config(o));
  const unsigned N = m.nodes();
  st::StencilConfig c;
  c.px = o.shape.k[0];
  c.py = o.shape.k[1];
  c.tile = o.tile;
  c.steps = o.steps;
  std::vector<uint16_t> keys(N);
  std::vector<uint64_t> vaddrs(N);
  std::vector<st::NodeResult> res(N);
  const uint64_t t0 = m.cycles();
  for (unsigned i = 0; i < N; ++i) m.spawn(i, 0, 0, [&, i] { res[i] = st::run_node(c, i, keys, vaddrs); });
  m.run();
  const uint64_t cycles = m.cycles() - t0;
  std::vector<double> want_res;
  const st::Grid want = st::host_jacobi(c, &want_res);
  const st::Grid got = st::gather(c, res);
  bool same = got.data.size() == want.data.size() &&
              std::memcmp(got.data.data(), want.data.data(), want.data.size() * sizeof(double)) == 0;
  int errors = 0;
  double comp = 0, halo = 0, sync = 0, total = 0;
  for (const st::NodeResult& r : res) {
    errors += r.error != 0;
    same = same && r.residuals == want_res;
    comp += double(r.compute) / N;
    halo += double(r.halo) / N;
    sync += double(r.sync) / N;
    total += double(r.total) / N;
  }
  Results r({{"nodes", ""}, {"grid", ""}, {"steps", ""}, {"cycles", ""}, {"per_step_cycles", "cycles/step"},
             {"compute_cycles", "compute"}, {"halo_cycles", "halo"}, {"sync_cycles", "sync"},
             {"compute_share", "compute %"}, {"halo_share", "halo %"}, {"sync_share", "sync %"},
             {"residual", "last residual"}, {"bit_identical", "= host"}});
  r.config("shape", o.shape.name()).config("mode", sim::mode_name(o.mode)).config("tile", double(o.tile))
      .config("cycles_per_point", c.cycles_per_point);
  const double parts = comp + halo + sync;
  r.add({num(N), word(fmt::format("{}x{}", want.cols, want.rows)), num(o.steps), num(cycles), num(double(cycles) / o.steps),
         num(comp), num(halo), num(sync), num(100.0 * comp / parts), num(100.0 * halo / parts), num(100.0 * sync / parts),
         word(want_res.empty() ? "" : fmt::format("{:.6g}", want_res.back())), word(same ? "yes" : "NO")});
  fmt::print("\nJacobi stencil on {} {}: {}x{} points a node, {} steps; time per node, average (cycles)\n",
             o.shape.name(), sim::mode_name(o.mode), o.tile, o.tile, o.steps);
  print_results(r, csv_name(csv, "stencil"), "stencil");
  print_speed(o, sw.speed(m.cycles()), N, csv);
  if (!same || errors) std::fprintf(stderr, "hpcnet: check failed: stencil: %s\n", errors ? "an RDMA or SSM error" : "differs from the host's");
  return same && !errors;
}

}  // namespace hpcnet::bench::machineb
