// bench/ssm_coll_bench.cpp: engine collectives and fine-grain synchronization against software
// on simulated shared memory (see ssm_coll_bench.hpp, docs/ssm_sw.md).
#include "ssm/ssm_coll_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "hpcnet/baseline.hpp"
#include "hpcnet/lu.hpp"
#include "sim/host/shared_memory.hpp"
#include "sim/ssm/ssm_node.hpp"

namespace hpcnet::bench {

using sim::SimSharedMemory;
using sim::SsmNode;

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

void progress(const CollBenchOptions& o, const std::string& what) {
  if (o.progress) std::fprintf(stderr, "[%s] ...\n", what.c_str());
}

std::string num(double v, int decimals = 1) {
  if (std::isnan(v)) return "-";
  return fmt::format("{:.{}f}", v, decimals);
}

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
      throw std::runtime_error(fmt::format("{}: a participant left episode {} after {} of {} arrivals", what, e,
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
            if (rc != SSM_OK) throw std::runtime_error(fmt::format("hardware ssm_barrier returned {}", rc));
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
              if (rc != SSM_OK) throw std::runtime_error(fmt::format("hardware ssm_reduce returned {}", rc));
            } else {
              v = red->reduce_double(id, v, SSM_SUM);
            }
            if (v != expect)
              throw std::runtime_error(fmt::format("{} reduce: participant {} got {} instead of {}",
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
      if (rc != SSM_OK) throw std::runtime_error(fmt::format("hardware ssm_barrier returned {}", rc));
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
            throw std::runtime_error(fmt::format("put/get transfer: wrong word {} in iteration {}", w, it));
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
            throw std::runtime_error(fmt::format("barrier transfer: wrong word {} in iteration {}", w, it));
      }
    }
    if (kind == Xfer::PutGet && ssm_quiet() != SSM_OK) throw std::runtime_error("put/get transfer: a put failed");
  });
  return static_cast<double>(cycles) / iters;
}

// --- plots

void run_gnuplot(const std::string& dir, const std::string& name, const std::string& body) {
  namespace fs = std::filesystem;
  for (const char* term : {"pngcairo", "png"}) {
    const fs::path gp = fs::path(dir) / (name + ".gp");
    {
      std::ofstream f(gp);
      if (!f) throw std::runtime_error("cannot write " + gp.string());
      f << "set terminal " << term << " size 900,600 noenhanced\n"
        << "set datafile separator ','\nset datafile missing '-'\nset key outside right top\nset grid\n"
        << body;
    }
    const std::string cmd = fmt::format("cd '{}' && gnuplot '{}.gp' 2>'{}.gp.log'", dir, name, name);
    if (std::system(cmd.c_str()) == 0) return;
  }
  throw std::runtime_error(fmt::format("gnuplot failed for {}/{}.gp (see {}.gp.log; is gnuplot installed?)", dir,
                                       name, name));
}

void prepare(const Table& t, const std::string& dir, const std::string& name) {
  std::filesystem::create_directories(dir);
  t.write_csv((std::filesystem::path(dir) / (name + ".csv")).string());
}

}  // namespace

CollReport bench_barrier(const CollBenchOptions& o) {
  Table t({"placement", "threads", "hw_barrier", "sw_tournament", "sw_dissemination", "speedup_vs_tournament",
           "speedup_vs_dissemination", "hw_reduce", "sw_reduce", "reduce_speedup", "rw_tournament",
           "rw_dissemination", "rw_reduce"});
  const unsigned ops = o.iters ? o.iters : (o.quick ? 8 : 200);
  const unsigned warm = o.quick ? 2 : 10;
  std::string summary = fmt::format(
      "cycles per operation at {} MHz ({} operations after {} warm-up; rw_* = remote writes per operation)\n",
      o.sys.clock_mhz, ops, warm);
  for (const auto& pl : placements(o))
    for (unsigned p : {2u, 4u, 8u, 16u}) {
      const auto cpus = place(p, pl, o.sys);
      auto m = [&](Impl impl, const char* what) {
        progress(o, fmt::format("bench-barrier {} {} threads: {}", pl, p, what));
        return measure_collective(o, impl, cpus, warm, ops);
      };
      const Measure hb = o.sw_only ? Measure{} : m(Impl::HwBarrier, "ssm_barrier");
      const Measure st = m(Impl::SwTournament, "tournament barrier");
      const Measure sd = m(Impl::SwDissemination, "dissemination barrier");
      const Measure hr = o.sw_only ? Measure{} : m(Impl::HwReduce, "ssm_reduce");
      const Measure sr = m(Impl::SwReduce, "tournament reduce");
      t.add({pl, std::to_string(p), num(hb.cycles_per_op), num(st.cycles_per_op), num(sd.cycles_per_op),
             num(st.cycles_per_op / hb.cycles_per_op, 2), num(sd.cycles_per_op / hb.cycles_per_op, 2),
             num(hr.cycles_per_op), num(sr.cycles_per_op), num(sr.cycles_per_op / hr.cycles_per_op, 2),
             num(st.remote_writes_per_op, 0), num(sd.remote_writes_per_op, 0), num(sr.remote_writes_per_op, 0)});
      if (p == 16 && !o.sw_only)
        summary += fmt::format("{} placement, 16 threads: ssm_barrier {:.2f}x faster than the tournament barrier, "
                               "ssm_reduce {:.2f}x faster than the tournament reduce (paper figure 8: about 4x)\n",
                               pl, st.cycles_per_op / hb.cycles_per_op, sr.cycles_per_op / hr.cycles_per_op);
    }
  return {t, summary};
}

CollReport bench_transfer(const CollBenchOptions& o) {
  Table t({"bytes", "iters", "putget_cycles", "putget_MBps", "sw_barrier_cycles", "sw_barrier_MBps",
           "hw_barrier_cycles", "hw_barrier_MBps"});
  std::vector<unsigned> sizes;
  if (o.quick) sizes = {8, 256, 4096};
  else
    for (unsigned b = 8; b <= 4096; b *= 2) sizes.push_back(b);
  const double mhz = o.sys.clock_mhz;
  auto mbps = [&](unsigned bytes, double cycles) { return std::isnan(cycles) ? kNone : bytes / cycles * mhz; };
  std::string summary =
      fmt::format("cycles per block and MB/s at {} MHz; task0 on PE0, task1 on PE1 (paper figure 6)\n", mhz);
  int crossover = -1;
  for (unsigned bytes : sizes) {
    const unsigned iters = o.iters ? o.iters : (o.quick ? 2 : std::clamp(32768u / bytes, 4u, 64u));
    progress(o, fmt::format("bench-transfer {} B: put/get", bytes));
    const double pg = measure_transfer(o, Xfer::PutGet, bytes, iters);
    progress(o, fmt::format("bench-transfer {} B: write + tournament barrier + read", bytes));
    const double sw = measure_transfer(o, Xfer::SwBarrier, bytes, iters);
    double hw = kNone;
    if (!o.sw_only) {
      progress(o, fmt::format("bench-transfer {} B: write + ssm_barrier + read", bytes));
      hw = measure_transfer(o, Xfer::HwBarrier, bytes, iters);
    }
    if (crossover < 0 && pg > sw) crossover = static_cast<int>(bytes);
    t.add({std::to_string(bytes), std::to_string(iters), num(pg), num(mbps(bytes, pg)), num(sw), num(mbps(bytes, sw)),
           num(hw), num(mbps(bytes, hw))});
  }
  summary += crossover < 0 ? "put/get streams are faster than write + software barrier + read at every size\n"
                           : fmt::format("write + software barrier + read overtakes the put/get stream from {} B\n",
                                         crossover);
  return {t, summary};
}

CollReport bench_lu(const CollBenchOptions& o) {
  lu::LuConfig cfg;
  cfg.n = o.quick ? 64 : o.lu_n;
  cfg.block = o.quick ? 8 : o.lu_block;
  cfg.cycles_per_flop = o.lu_cycles_per_flop;
  const unsigned p = o.lu_threads;
  lu::BlockMatrix ref = lu::make_matrix(cfg);
  const uint64_t flops = lu::host_lu(ref);
  Table t({"placement", "version", "threads", "n", "block", "cycles", "us", "sync_avg", "sync_share_%",
           "putget_gain_%"});
  std::string summary = fmt::format(
      "SPLASH-2 LU, {}x{} doubles, {}x{} blocks, {} threads, {} flops at {} cycles/flop; every result "
      "bit-identical to the host LU\nputget_gain_% = this version's cycles / put-get cycles - 1 (paper: about 19%)\n",
      cfg.n, cfg.n, cfg.block, cfg.block, p, flops, cfg.cycles_per_flop);
  for (const auto& pl : placements(o)) {
    const auto cpus = place(p, pl, o.sys);
    struct Result {
      std::string version;
      uint64_t cycles;
      double sync_avg;
    };
    std::vector<Result> res;
    auto run = [&](const std::string& version) {
      progress(o, fmt::format("lu {} {}", pl, version));
      SsmNode n(o.sys);
      SimSharedMemory shm(n.sys);
      lu::ParallelLu par(shm, n.platform(), cfg, cpus);
      baseline::TournamentBarrier bar(shm, cpus);
      par.load(lu::make_matrix(cfg));
      run_threads(n, cpus, [&](unsigned id) { par.touch(id); });
      const uint64_t cycles = run_threads(n, cpus, [&](unsigned id) {
        if (version == "barrier-sw") {
          par.run_barrier(id, [&] { bar.wait(id); });
        } else if (version == "barrier-hw") {
          par.run_barrier(id, [&] {
            const int rc = ssm_barrier(0x40000, p, 0);
            if (rc != SSM_OK) throw std::runtime_error(fmt::format("hardware ssm_barrier returned {}", rc));
          });
        } else {
          par.run_putget(id, 0x100000);
        }
      });
      const lu::BlockMatrix out = par.result();
      if (out.data.size() != ref.data.size() ||
          std::memcmp(out.data.data(), ref.data.data(), ref.data.size() * sizeof(double)) != 0) {
        throw std::runtime_error(fmt::format("lu {}: result differs from the host LU", version));
      }
      double sync = 0;
      for (unsigned id = 0; id < p; ++id) sync += static_cast<double>(par.stats(id).sync_cycles);
      res.push_back({version, cycles, sync / p});
    };
    run("barrier-sw");
    if (!o.sw_only) run("barrier-hw");
    run("putget");
    const double tpg = static_cast<double>(res.back().cycles);
    for (const auto& r : res) {
      const double c = static_cast<double>(r.cycles);
      const bool pg = r.version == "putget";
      t.add({pl, r.version, std::to_string(p), std::to_string(cfg.n), std::to_string(cfg.block), std::to_string(r.cycles),
             num(c / o.sys.clock_mhz, 1), num(r.sync_avg, 0), num(100.0 * r.sync_avg / c, 1),
             pg ? "-" : num(100.0 * (c / tpg - 1.0), 1)});
      if (!pg)
        summary += fmt::format("{} placement: put/get LU is {:.1f}% faster than {} ({} -> {} cycles)\n", pl,
                               100.0 * (c / tpg - 1.0), r.version, r.cycles, res.back().cycles);
    }
  }
  return {t, summary};
}

// --- plots

void plot_barrier(const Table& t, const std::string& dir) {
  prepare(t, dir, "barrier");
  std::string body = "set logscale x 2\nset xlabel 'threads'\nset xtics (2,4,8,16)\nset xrange [1.7:19]\n";
  body += "set output 'barrier.png'\nset ylabel 'cycles per operation'\nset title 'Barrier and reduce: engine vs software (paper figure 8)'\nplot ";
  const char* cols[] = {"hw_barrier", "sw_tournament", "sw_dissemination", "hw_reduce", "sw_reduce"};
  const int idx[] = {3, 4, 5, 8, 9};
  bool first = true;
  for (const char* pl : {"spread", "packed"})
    for (int k = 0; k < 5; ++k) {
      body += fmt::format("{}'barrier.csv' every ::1 using (strcol(1) eq '{}' ? $2 : 1/0):{} with linespoints title '{} {}'",
                          first ? "" : ", ", pl, idx[k], cols[k], pl);
      first = false;
    }
  body += "\nset output 'barrier_speedup.png'\nset ylabel 'software cycles / engine cycles'\nset title 'Speedup of ssm_barrier / ssm_reduce'\nplot ";
  first = true;
  for (const char* pl : {"spread", "packed"})
    for (auto [c, name] : {std::pair{6, "barrier vs tournament"}, {7, "barrier vs dissemination"}, {10, "reduce vs tournament"}}) {
      body += fmt::format("{}'barrier.csv' every ::1 using (strcol(1) eq '{}' ? $2 : 1/0):{} with linespoints title '{} {}'",
                          first ? "" : ", ", pl, c, name, pl);
      first = false;
    }
  body += ", 4 with lines dt 2 title 'paper: ~4x at 16'\n";
  run_gnuplot(dir, "barrier", body);
}

void plot_transfer(const Table& t, const std::string& dir) {
  prepare(t, dir, "transfer");
  const std::string body =
      "set output 'transfer.png'\nset logscale x 2\nset logscale y 10\nset xlabel 'block bytes'\nset ylabel 'MB/s'\n"
      "set title 'Block transfer: put/get stream vs write + barrier + read (paper figure 6)'\n"
      "plot 'transfer.csv' every ::1 using 1:4 with linespoints title 'ssm_put/ssm_get stream', "
      "'' every ::1 using 1:6 with linespoints title 'write + tournament barrier + read', "
      "'' every ::1 using 1:8 with linespoints title 'write + ssm_barrier + read'\n";
  run_gnuplot(dir, "transfer", body);
}

void plot_lu(const Table& t, const std::string& dir) {
  prepare(t, dir, "lu");
  const std::string body =
      "set output 'lu.png'\nset style data histograms\nset style fill solid 0.8 border -1\nset ylabel 'cycles'\n"
      "set yrange [0:*]\nset xtics rotate by -30\nunset key\nset title 'SPLASH-2 LU: barriers vs ssm_put/ssm_get (paper figure 7)'\n"
      "plot 'lu.csv' every ::1 using 6:xticlabels(strcol(1).' '.strcol(2)) title 'cycles'\n";
  run_gnuplot(dir, "lu", body);
}

// --- CLI

void add_coll_commands(Registry& reg) {
  struct Scenario {
    const char* name;
    const char* help;
    CollReport (*bench)(const CollBenchOptions&);
    void (*plot)(const Table&, const std::string&);
  };
  static const Scenario kScenarios[] = {
      {"bench-barrier", "ssm_barrier / ssm_reduce vs software tournament and dissemination, 2-16 threads", bench_barrier,
       plot_barrier},
      {"bench-transfer", "block transfer: ssm_put/ssm_get stream vs write + barrier + read, 8 B - 4 KB", bench_transfer,
       plot_transfer},
      {"lu", "SPLASH-2 LU: barrier-synchronized (software, ssm_barrier) vs ssm_put/ssm_get", bench_lu, plot_lu},
  };
  for (const Scenario& sc : kScenarios) {
    reg.add(sc.name, sc.help, [&sc](CLI::App& s) -> Runner {
      struct State {
        CollBenchOptions o;
        std::string csv, plot;
        bool quiet = false;
      };
      auto st = std::make_shared<State>();
      s.add_option("--csv", st->csv, "also write the table as CSV to this file");
      s.add_option("--plot", st->plot, "write PNG plots (gnuplot), their CSV and scripts into this directory");
      s.add_flag("--quick", st->o.quick, "few iterations and sizes (CI)");
      s.add_flag("--quiet", st->quiet, "no progress lines");
      s.add_flag("--sw-only", st->o.sw_only, "leave out the engine's collectives (columns '-')");
      s.add_option("--placement", st->o.placement, "threads on PEs: spread, packed or both")
          ->check(CLI::IsMember({"spread", "packed", "both"}));
      s.add_option("--iters", st->o.iters, "operations / blocks per figure (0: default)")->check(CLI::Range(0u, 1000000u));
      add_system_options(s, st->o.sys);
      if (sc.bench == bench_lu) {
        s.add_option("--n", st->o.lu_n, "matrix order")->check(CLI::Range(8u, 4096u));
        s.add_option("--block", st->o.lu_block, "block order (divides n)")->check(CLI::Range(2u, 256u));
        s.add_option("--threads", st->o.lu_threads, "threads")->check(CLI::Range(1u, 64u));
        s.add_option("--cycles-per-flop", st->o.lu_cycles_per_flop, "engine cycles per flop")->check(CLI::Range(0.0, 1000.0));
      }
      return [st, &sc]() -> int {
        st->o.progress = !st->quiet;
        const CollReport r = sc.bench(st->o);
        fmt::print("{}\n{}", r.table.text(), r.summary);
        if (!st->csv.empty()) {
          r.table.write_csv(st->csv);
          fmt::print("CSV written to {}\n", st->csv);
        }
        if (!st->plot.empty()) {
          sc.plot(r.table, st->plot);
          fmt::print("plots written to {}\n", st->plot);
        }
        return 0;
      };
    });
  }
}

}  // namespace hpcnet::bench
