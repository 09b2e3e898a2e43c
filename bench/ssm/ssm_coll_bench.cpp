// bench/ssm_coll_bench.cpp: engine collectives and fine-grain synchronization against software
// on simulated shared memory (see ssm_coll_bench.hpp, docs/ssm_sw.md).
#include "ssm/ssm_coll_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/plot.hpp"
#include "hpcnet/baseline.hpp"
#include "hpcnet/lu.hpp"
#include "sim/host/shared_memory.hpp"
#include "sim/ssm/ssm_node.hpp"

namespace hpcnet::bench {

using sim::SimSharedMemory;
using sim::SsmNode;

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// Participant i of p: spread = PE i mod PEs (thread i / PEs), packed = PE-major (SsmNode::run_all).
std::vector<CpuId> place(unsigned p, const std::string& placement, const sim::SsmSystemConfig& c) {
  if (p > c.num_pe * c.num_threads)
    throw std::invalid_argument(fmt::format("{} threads do not fit on {} PEs x {} threads", p, c.num_pe, c.num_threads));
  std::vector<CpuId> cpus;
  for (unsigned i = 0; i < p; ++i)
    cpus.push_back(placement == "spread" ? CpuId{i % c.num_pe, i / c.num_pe} : CpuId{i / c.num_threads, i % c.num_threads});
  return cpus;
}

std::vector<std::string> placements(const CollBenchOptions& o) {
  if (o.placement == "both") return {"spread", "packed"};
  return {o.placement};
}

// Runs fn(i) for every participant on its cpu; returns the cycles from spawn to the last return.
uint64_t run_threads(SsmNode& n, const std::vector<CpuId>& cpus, const std::function<void(unsigned)>& fn) {
  const uint64_t t0 = n.sys.cycles();
  for (unsigned i = 0; i < cpus.size(); ++i) n.sys.spawn(cpus[i].pe, cpus[i].thread, [fn, i] { fn(i); });
  n.sys.run();
  return n.sys.cycles() - t0;
}

// Host-side check that nobody leaves barrier episode e before all p have arrived at it.
struct ArrivalCheck {
  std::vector<unsigned> arrived;
  unsigned p;
  ArrivalCheck(unsigned episodes, unsigned participants) : arrived(episodes, 0), p(participants) {}
  void arrive(unsigned e) { ++arrived[e]; }
  void leave(unsigned e, const char* what) const {
    if (arrived[e] != p)
      throw CheckFailed(fmt::format("{}: a participant left episode {} after {} of {} arrivals", what, e,
                                           arrived[e], p));
  }
};

struct Measure {
  double cycles_per_op = kNone;
  double remote_writes_per_op = kNone;
};

// --- bench-barrier

enum class Impl { HwBarrier, SwTournament, SwDissemination, HwReduce, SwReduce };

Measure measure_collective(const CollBenchOptions& o, Impl impl, const std::vector<CpuId>& cpus, unsigned warm,
                           unsigned ops) {
  SsmNode n(o.sys);
  SimSharedMemory shm(n.sys);
  const unsigned p = static_cast<unsigned>(cpus.size());
  std::unique_ptr<baseline::Barrier> bar;
  std::unique_ptr<baseline::TournamentReduce> red;
  if (impl == Impl::SwTournament) bar = std::make_unique<baseline::TournamentBarrier>(shm, cpus);
  if (impl == Impl::SwDissemination) bar = std::make_unique<baseline::DisseminationBarrier>(shm, cpus);
  if (impl == Impl::SwReduce) red = std::make_unique<baseline::TournamentReduce>(shm, cpus);
  constexpr uint64_t kAddr = 0x40000;  // the engine's barrier / reduce entry
  auto episodes = [&](unsigned count, unsigned first) {
    ArrivalCheck check(count, p);
    return run_threads(n, cpus, [&](unsigned id) {
      for (unsigned e = 0; e < count; ++e) {
        const unsigned ep = first + e;
        check.arrive(e);
        switch (impl) {
          case Impl::HwBarrier: {
            const int rc = ssm_barrier(kAddr, p, 0);
            if (rc != SSM_OK) throw CheckFailed(fmt::format("hardware ssm_barrier returned {}", rc));
            check.leave(e, "ssm_barrier");
            break;
          }
          case Impl::SwTournament:
          case Impl::SwDissemination:
            bar->wait(id);
            check.leave(e, "software barrier");
            break;
          case Impl::HwReduce:
          case Impl::SwReduce: {
            // Small integers in doubles: exact in every combine order.
            double v = static_cast<double>(id + 1 + ep);
            const double expect = p * (p + 1) / 2.0 + double(p) * ep;
            if (impl == Impl::HwReduce) {
              const int rc = ssm_reduce(kAddr, &v, SSM_DOUBLE, SSM_SUM, p, 0);
              if (rc != SSM_OK) throw CheckFailed(fmt::format("hardware ssm_reduce returned {}", rc));
            } else {
              v = red->reduce_double(id, v, SSM_SUM);
            }
            if (v != expect)
              throw CheckFailed(fmt::format("{} reduce: participant {} got {} instead of {}",
                                                   impl == Impl::HwReduce ? "hardware" : "software", id, v, expect));
            break;
          }
        }
      }
    });
  };
  episodes(warm, 0);
  shm.reset_stats();
  const uint64_t cycles = episodes(ops, warm);
  Measure m;
  m.cycles_per_op = static_cast<double>(cycles) / ops;
  if (impl == Impl::SwTournament || impl == Impl::SwDissemination || impl == Impl::SwReduce)
    m.remote_writes_per_op = static_cast<double>(shm.total().remote_writes) / ops;
  return m;
}

// --- bench-transfer

enum class Xfer { PutGet, SwBarrier, HwBarrier };

double measure_transfer(const CollBenchOptions& o, Xfer kind, unsigned bytes, unsigned iters) {
  SsmNode n(o.sys);
  SimSharedMemory shm(n.sys);
  const std::vector<CpuId> cpus = {CpuId{0, 0}, CpuId{1, 0}};  // task0, task1 on two PEs
  const unsigned words = bytes / 8;
  const uint64_t area = shm.alloc(bytes, cpus[1]);
  baseline::TournamentBarrier bar(shm, cpus);
  constexpr uint64_t kKeys = 0x200000, kBarrier = 0x40000;
  auto value = [](unsigned it, unsigned w) { return (uint64_t{it} << 32) | w; };
  auto sync = [&](unsigned id) {
    if (kind == Xfer::SwBarrier) {
      bar.wait(id);
    } else {
      const int rc = ssm_barrier(kBarrier, 2, 0);
      if (rc != SSM_OK) throw CheckFailed(fmt::format("hardware ssm_barrier returned {}", rc));
    }
  };
  const uint64_t cycles = run_threads(n, cpus, [&](unsigned id) {
    std::vector<uint64_t> buf(words);
    for (unsigned it = 0; it < iters; ++it) {
      if (kind == Xfer::PutGet) {
        // Paper figure 6: task0 puts block A word by word, task1 gets it.
        for (unsigned w = 0; w < words; ++w) {
          if (id == 0) {
            ssm_put(kKeys + 8ull * w, value(it, w));
          } else if (ssm_get(kKeys + 8ull * w, 8) != value(it, w)) {
            throw CheckFailed(fmt::format("put/get transfer: wrong word {} in iteration {}", w, it));
          }
        }
      } else if (id == 0) {  // task0: Write(A); Barrier
        for (unsigned w = 0; w < words; ++w) buf[w] = value(it, w);
        shm.write(area, buf.data(), bytes);
        sync(0);
      } else {  // task1: Barrier; Read(A) (task0 may already write the next block, as in the paper)
        sync(1);
        shm.read(area, buf.data(), bytes);
        for (unsigned w = 0; w < words; ++w)
          if ((buf[w] & 0xFFFFFFFF) != w || ((buf[w] >> 32) != it && (buf[w] >> 32) != it + 1))
            throw CheckFailed(fmt::format("barrier transfer: wrong word {} in iteration {}", w, it));
      }
    }
    if (kind == Xfer::PutGet && ssm_quiet() != SSM_OK) throw CheckFailed("put/get transfer: a put failed");
  });
  return static_cast<double>(cycles) / iters;
}

}  // namespace

CollReport bench_barrier(const CollBenchOptions& o) {
  Results t({{"placement", ""},
             {"threads", ""},
             {"hw_barrier_cycles", "hw_barrier"},
             {"sw_tournament_cycles", "sw_tournament"},
             {"sw_dissemination_cycles", "sw_dissemination"},
             {"speedup_vs_tournament", ""},
             {"speedup_vs_dissemination", ""},
             {"hw_reduce_cycles", "hw_reduce"},
             {"sw_reduce_cycles", "sw_reduce"},
             {"reduce_speedup", ""},
             {"tournament_remote_writes_per_op", "rw_tournament"},
             {"dissemination_remote_writes_per_op", "rw_dissemination"},
             {"reduce_remote_writes_per_op", "rw_reduce"}});
  const unsigned ops = o.iters ? o.iters : (o.quick ? 8 : 200);
  const unsigned warm = o.quick ? 2 : 10;
  t.config("ops", ops).config("warmup_ops", warm);
  add_node_config(t, o.sys);
  std::string summary = fmt::format(
      "cycles per operation at {} MHz ({} operations after {} warm-up; rw_* = remote writes per operation)\n",
      o.sys.clock_mhz, ops, warm);
  const std::vector<std::string> pls = placements(o);
  constexpr unsigned kThreads[] = {2, 4, 8, 16};
  static constexpr const char* kImpl[] = {"ssm_barrier", "tournament barrier", "dissemination barrier", "ssm_reduce",
                                         "tournament reduce"};
  static constexpr const char* kSpeedup[] = {"barrier vs tournament", "barrier vs dissemination", "reduce vs tournament"};
  std::vector<PlotSeries> cycles, speedups;  // [placement * 5 + implementation], [placement * 3 + ratio]
  for (size_t i = 0; i < pls.size(); ++i) {
    for (int k = 0; k < 5; ++k) cycles.push_back({fmt::format("{} {}", kImpl[k], pls[i]), {}, k, int(i)});
    for (int k = 0; k < 3; ++k) speedups.push_back({fmt::format("{} {}", kSpeedup[k], pls[i]), {}, k, int(i)});
  }
  Progress prog("bench-barrier", pls.size() * std::size(kThreads) * (o.sw_only ? 3 : 5), o.progress);
  for (size_t i = 0; i < pls.size(); ++i)
    for (unsigned p : kThreads) {
      const auto cpus = place(p, pls[i], o.sys);
      auto m = [&](Impl impl) {
        const std::string label = fmt::format("{} {} threads: {}", pls[i], p, kImpl[int(impl)]);
        name_next_run(label);
        const Measure r = measure_collective(o, impl, cpus, warm, ops);
        prog.step(label);
        return r;
      };
      const Measure hb = o.sw_only ? Measure{} : m(Impl::HwBarrier);
      const Measure st = m(Impl::SwTournament);
      const Measure sd = m(Impl::SwDissemination);
      const Measure hr = o.sw_only ? Measure{} : m(Impl::HwReduce);
      const Measure sr = m(Impl::SwReduce);
      const double speedup[] = {st.cycles_per_op / hb.cycles_per_op, sd.cycles_per_op / hb.cycles_per_op,
                                sr.cycles_per_op / hr.cycles_per_op};
      t.add({word(pls[i]), num(p), num(hb.cycles_per_op), num(st.cycles_per_op), num(sd.cycles_per_op),
             num(speedup[0], 2), num(speedup[1], 2), num(hr.cycles_per_op), num(sr.cycles_per_op), num(speedup[2], 2),
             num(st.remote_writes_per_op, 0), num(sd.remote_writes_per_op, 0), num(sr.remote_writes_per_op, 0)});
      const Measure* per_impl[] = {&hb, &st, &sd, &hr, &sr};
      for (int k = 0; k < 5; ++k) cycles[i * 5 + k].points.emplace_back(p, per_impl[k]->cycles_per_op);
      for (int k = 0; k < 3; ++k) speedups[i * 3 + k].points.emplace_back(p, speedup[k]);
      if (p == 16 && !o.sw_only)
        summary += fmt::format("{} placement, 16 threads: ssm_barrier {:.2f}x faster than the tournament barrier, "
                               "ssm_reduce {:.2f}x faster than the tournament reduce (paper figure 8: about 4x)\n",
                               pls[i], speedup[0], speedup[2]);
    }
  PlotSpec cyc;
  cyc.title = "Barrier and reduce: engine vs software (paper figure 8)";
  cyc.xlabel = "threads";
  cyc.ylabel = "cycles per operation";
  cyc.logx = true;
  cyc.series = cycles;
  cyc.y_from_zero = true;
  cyc.xtics = {2, 4, 8, 16};
  PlotSpec spd = cyc;
  spd.title = "Speedup of ssm_barrier / ssm_reduce over software";
  spd.ylabel = "software cycles / engine cycles";
  spd.series = speedups;
  spd.lines = {{4.0, "paper: about 4x at 16 threads"}};
  std::vector<Plot> plots{{"barrier", cyc}};
  if (!o.sw_only) plots.push_back({"barrier_speedup", spd});
  return {t, summary, plots};
}

CollReport bench_transfer(const CollBenchOptions& o) {
  Results t({{"bytes", ""},
             {"iters", ""},
             {"putget_cycles", ""},
             {"putget_mb_per_s", "putget_MB/s"},
             {"sw_barrier_cycles", ""},
             {"sw_barrier_mb_per_s", "sw_barrier_MB/s"},
             {"hw_barrier_cycles", ""},
             {"hw_barrier_mb_per_s", "hw_barrier_MB/s"}});
  add_node_config(t, o.sys);
  std::vector<unsigned> sizes;
  if (o.quick) sizes = {8, 256, 4096};
  else
    for (unsigned b = 8; b <= 4096; b *= 2) sizes.push_back(b);
  const double mhz = o.sys.clock_mhz;
  auto mbps = [&](unsigned bytes, double cycles) { return std::isnan(cycles) ? kNone : bytes / cycles * mhz; };
  std::string summary =
      fmt::format("cycles per block and MB/s at {} MHz; task0 on PE0, task1 on PE1 (paper figure 6)\n", mhz);
  PlotSeries series[] = {{"ssm_put/ssm_get stream", {}}, {"write + tournament barrier + read", {}},
                         {"write + ssm_barrier + read", {}}};
  Progress prog("bench-transfer", sizes.size() * (o.sw_only ? 2 : 3), o.progress);
  int crossover = -1;
  for (unsigned bytes : sizes) {
    const unsigned iters = o.iters ? o.iters : (o.quick ? 2 : std::clamp(32768u / bytes, 4u, 64u));
    auto m = [&](Xfer kind, const char* what) {
      const std::string label = fmt::format("{} B: {}", bytes, what);
      name_next_run(label);
      const double c = measure_transfer(o, kind, bytes, iters);
      prog.step(label);
      return c;
    };
    const double pg = m(Xfer::PutGet, "put/get");
    const double sw = m(Xfer::SwBarrier, "write + tournament barrier + read");
    const double hw = o.sw_only ? kNone : m(Xfer::HwBarrier, "write + ssm_barrier + read");
    if (crossover < 0 && pg > sw) crossover = static_cast<int>(bytes);
    t.add({num(bytes), num(iters), num(pg), num(mbps(bytes, pg)), num(sw), num(mbps(bytes, sw)), num(hw),
           num(mbps(bytes, hw))});
    const double cyc[] = {pg, sw, hw};
    for (int k = 0; k < 3; ++k) series[k].points.emplace_back(bytes, mbps(bytes, cyc[k]));
  }
  summary += crossover < 0 ? "put/get streams are faster than write + software barrier + read at every size\n"
                           : fmt::format("write + software barrier + read overtakes the put/get stream from {} B\n",
                                         crossover);
  PlotSpec spec;
  spec.title = "Block transfer: put/get stream vs write + barrier + read (paper figure 6)";
  spec.xlabel = "block bytes";
  spec.ylabel = "MB/s";
  spec.logx = true;
  spec.logy = true;
  spec.series = {series[0], series[1], series[2]};
  return {t, summary, {{"transfer", spec}}};
}

void check_lu(const CollBenchOptions& o) {
  const unsigned room = o.sys.num_pe * o.sys.num_threads;
  if (o.lu_threads > room)
    throw UsageError("--threads", fmt::format("{} threads do not fit on the node's {} PEs x {} threads", o.lu_threads,
                                              o.sys.num_pe, o.sys.num_threads));
  if (o.lu_n % o.lu_block != 0)
    throw UsageError("--block", fmt::format("{} does not divide --n {}", o.lu_block, o.lu_n));
}

CollReport bench_lu(const CollBenchOptions& o) {
  check_lu(o);
  lu::LuConfig cfg;
  cfg.n = o.lu_n;
  cfg.block = o.lu_block;
  cfg.cycles_per_flop = o.lu_cycles_per_flop;
  cfg.seed = o.lu_seed;
  const unsigned p = o.lu_threads;
  lu::BlockMatrix ref = lu::make_matrix(cfg);
  const uint64_t flops = lu::host_lu(ref);
  Results t({{"placement", ""},
             {"version", ""},
             {"threads", ""},
             {"n", ""},
             {"block", ""},
             {"cycles", ""},
             {"time_us", "us"},
             {"sync_avg_cycles", "sync_avg"},
             {"sync_share_pct", "sync_share_%"},
             {"putget_gain_pct", "putget_gain_%"}});
  t.config("cycles_per_flop", cfg.cycles_per_flop)
      .config("flops", std::to_string(flops))
      .config("seed", std::to_string(cfg.seed));
  add_node_config(t, o.sys);
  std::string summary = fmt::format(
      "SPLASH-2 LU, {}x{} doubles, {}x{} blocks, {} threads, {} flops at {} cycles/flop; every result "
      "bit-identical to the host LU\nputget_gain_% = this version's cycles / put-get cycles - 1 (paper: about 19%)\n",
      cfg.n, cfg.n, cfg.block, cfg.block, p, flops, cfg.cycles_per_flop);
  const std::vector<std::string> pls = placements(o);
  std::vector<std::string> versions{"barrier-sw", "barrier-hw", "putget"};
  if (o.sw_only) versions.erase(versions.begin() + 1);
  Progress prog("lu", pls.size() * versions.size(), o.progress);
  PlotSpec bars;
  bars.title = "SPLASH-2 LU: barriers vs ssm_put/ssm_get (paper figure 7)";
  bars.xlabel = "version";
  bars.ylabel = "cycles";
  bars.y_from_zero = true;
  bars.categories = versions;
  for (size_t i = 0; i < pls.size(); ++i) {
    const auto cpus = place(p, pls[i], o.sys);
    std::vector<uint64_t> cycles;
    std::vector<double> sync_avg;
    for (const std::string& version : versions) {
      const std::string label = fmt::format("{} {}", pls[i], version);
      name_next_run(label);
      SsmNode n(o.sys);
      SimSharedMemory shm(n.sys);
      lu::ParallelLu par(shm, n.platform(), cfg, cpus);
      baseline::TournamentBarrier bar(shm, cpus);
      par.load(lu::make_matrix(cfg));
      run_threads(n, cpus, [&](unsigned id) { par.touch(id); });
      cycles.push_back(run_threads(n, cpus, [&](unsigned id) {
        if (version == "barrier-sw") {
          par.run_barrier(id, [&] { bar.wait(id); });
        } else if (version == "barrier-hw") {
          par.run_barrier(id, [&] {
            const int rc = ssm_barrier(0x40000, p, 0);
            if (rc != SSM_OK) throw CheckFailed(fmt::format("hardware ssm_barrier returned {}", rc));
          });
        } else {
          par.run_putget(id, 0x100000);
        }
      }));
      const lu::BlockMatrix out = par.result();
      if (out.data.size() != ref.data.size() ||
          std::memcmp(out.data.data(), ref.data.data(), ref.data.size() * sizeof(double)) != 0)
        throw CheckFailed(fmt::format("lu {}: result differs from the host LU", version));
      double sync = 0;
      for (unsigned id = 0; id < p; ++id) sync += static_cast<double>(par.stats(id).sync_cycles);
      sync_avg.push_back(sync / p);
      prog.step(label);
    }
    const double tpg = static_cast<double>(cycles.back());
    PlotSeries s{fmt::format("{} placement", pls[i]), {}};
    for (size_t v = 0; v < versions.size(); ++v) {
      const double c = static_cast<double>(cycles[v]);
      const bool pg = versions[v] == "putget";
      t.add({word(pls[i]), word(versions[v]), num(p), num(cfg.n), num(cfg.block), num(cycles[v]),
             num(c / o.sys.clock_mhz, 1), num(sync_avg[v], 0), num(100.0 * sync_avg[v] / c, 1),
             num(pg ? kNone : 100.0 * (c / tpg - 1.0), 1)});
      s.points.emplace_back(v, c);
      if (!pg)
        summary += fmt::format("{} placement: put/get LU is {:.1f}% faster than {} ({} -> {} cycles)\n", pls[i],
                               100.0 * (c / tpg - 1.0), versions[v], cycles[v], cycles.back());
    }
    bars.series.push_back(std::move(s));
  }
  return {t, summary, {{"lu", bars}}};
}

// --- CLI

void add_coll_commands(Registry& reg) {
  struct Scenario {
    const char* name;
    const char* help;
    CollReport (*bench)(const CollBenchOptions&);
    const char* runs;  // what a run is (--trace-run)
  };
  static const Scenario kScenarios[] = {
      {"bench-barrier", "ssm_barrier / ssm_reduce vs software tournament and dissemination, 2-16 threads", bench_barrier,
       "which run to trace; one node per measurement, in this order: each placement (spread, then packed), 2, 4, 8, "
       "16 threads: ssm_barrier, tournament barrier, dissemination barrier, ssm_reduce, tournament reduce (--sw-only: "
       "the three software ones); run 1 = ssm_barrier, 2 threads, the first placement"},
      {"bench-transfer", "block transfer: ssm_put/ssm_get stream vs write + barrier + read, 8 B - 4 KB", bench_transfer,
       "which run to trace; one node per measurement, in this order: each block size (8 B up): put/get stream, "
       "write + tournament barrier + read, write + ssm_barrier + read (not with --sw-only); run 1 = put/get, 8 B"},
      {"lu", "SPLASH-2 LU: barrier-synchronized (software, ssm_barrier) vs ssm_put/ssm_get", bench_lu,
       "which run to trace; one node per LU, in this order: each placement (spread, then packed): barrier-sw, "
       "barrier-hw (not with --sw-only), putget; run 1 = barrier-sw, the first placement (the put/get LU: run 3, "
       "with --sw-only 2)"},
  };
  for (const Scenario& sc : kScenarios) {
    reg.add(sc.name, sc.help, [&sc](CLI::App& s) -> Runner {
      struct State {
        CollBenchOptions o;
        RunFlags f;
        std::string plot;
      };
      auto st = std::make_shared<State>();
      const bool lu = sc.bench == bench_lu;
      add_run_flags(s, st->f, lu ? "CI-sized run (--n 64 --block 8 unless given)" : "few iterations and sizes (CI)",
                    "also write the table as CSV to this file");
      s.add_option("--plot", st->plot, "write PNG plots (gnuplot) and their scripts into this folder");
      s.add_flag("--sw-only", st->o.sw_only, "leave out the engine's collectives (their columns empty, '-' on screen)");
      if (sc.bench != bench_transfer)  // the transfer always runs task0 on PE0, task1 on PE1
        s.add_option("--placement", st->o.placement, "threads on PEs: spread, packed or both")
            ->check(CLI::IsMember({"spread", "packed", "both"}));
      if (sc.bench == bench_barrier)
        s.add_option("--iters", st->o.iters, "operations per figure (0: 200, with --quick 8)")
            ->check(CLI::Range(0u, 1000000u));
      if (sc.bench == bench_transfer)
        s.add_option("--iters", st->o.iters, "blocks per figure (0: 32768 / bytes within 4..64, with --quick 2)")
            ->check(CLI::Range(0u, 1000000u));
      add_system_options(s, st->o.sys);
      const unsigned room = st->o.sys.num_pe * st->o.sys.num_threads;
      if (lu) {
        s.add_option("--n", st->o.lu_n, "matrix order (a multiple of --block; --quick: 64)")->check(CLI::Range(8u, 4096u));
        s.add_option("--block", st->o.lu_block, "block order, divides --n (--quick: 8)")->check(CLI::Range(2u, 256u));
        s.add_option("--threads", st->o.lu_threads, fmt::format("threads, at most the node's PEs x threads ({})", room))
            ->check(CLI::Range(1u, room));
        s.add_option("--cycles-per-flop", st->o.lu_cycles_per_flop, "engine cycles per flop")->check(CLI::Range(0.0, 1000.0));
        s.add_option("--seed", st->o.lu_seed, "seed of the matrix values");
      }
      return [st, &sc, &s]() -> int {
        st->o.progress = !st->f.quiet;
        st->o.quick = st->f.quick;
        if (sc.bench == bench_lu) {
          quick_default(s, st->f, "--n", st->o.lu_n, 64u);
          quick_default(s, st->f, "--block", st->o.lu_block, 8u);
        }
        const CollReport r = sc.bench(st->o);
        print_results(r.table, st->f.csv, sc.name);
        fmt::print("{}", r.summary);
        if (!st->plot.empty()) write_plots(st->plot, r.plots);
        return kExitOk;
      };
    }, sc.runs);
  }
}

}  // namespace hpcnet::bench
