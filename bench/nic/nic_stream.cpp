// bench/nic/nic_stream.cpp: `hpcnet nic --scenario bandwidth,read,vps`: streaming RDMA writes
// (or reads) from node 0, posted back to back, the last one with a local event: the time from
// the first post to that event is the stream's; the destination bytes are checked after each
// run. vps: the same from many VPs of node 0 at once.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <numeric>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "nic/nic_bench.hpp"

namespace hpcnet::bench::nicb {

namespace {

constexpr size_t kSlotCap = 4u << 20;    // bytes of distinct source (and destination) data per stream
constexpr size_t kVpSlotCap = 512u << 10;  // the same per VP of the vps scenario
constexpr unsigned kMaxMsgs = 4096;

unsigned stream_msgs(const NicBenchOptions& o, unsigned size) {
  return unsigned(std::clamp<uint64_t>(o.bw_bytes / size, o.bw_min_msgs, kMaxMsgs));
}

double wall_now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// One stream: `ep` (node 0) moves `msgs` messages of `size` bytes between its buffer `mine` and
// node 1's buffer `theirs` (slot i % slots of each), writes or reads; the last one carries a
// local event at `ev`. Returns the cycles from the first post to the event.
uint64_t stream(rdma_ep* ep, unsigned vp1, const Buf& mine, const Buf& theirs, const Buf& ev, bool read, unsigned size,
                unsigned msgs, size_t slots, int submit, const std::string& what) {
  rdma_event lev{ev.at(0), {}};
  for (unsigned i = 0; i < 16; ++i) lev.data[i] = uint8_t(0x80 + i);
  const uint64_t t0 = now();
  for (unsigned i = 0; i < msgs; ++i) {
    rdma_opts op{};
    op.submit = submit;
    if (i + 1 == msgs) op.local_event = &lev;
    const uint64_t off = uint64_t(i % slots) * size;
    const int rc = read ? rdma_read(ep, 1, vp1, theirs.at(off), mine.at(off), size, &op)
                        : rdma_write(ep, 1, vp1, theirs.at(off), mine.at(off), size, &op);
    check_rc(rc, fmt::format("{}: posting message {}", what, i));
  }
  rdma_wait_event(ep, ev.va, nullptr);
  const uint64_t t1 = now();
  check_rc(rdma_quiet(ep), what + ": rdma_quiet");
  return t1 - t0;
}

}  // namespace

size_t stream_steps(const NicBenchOptions& o) { return o.bw_sizes.size(); }

double stream_estimate_s(const NicBenchOptions& o) {
  const Bottleneck bn = bottleneck(o);
  const double bytes_per_cycle = bn.gbps * 1000.0 / pair_config(o).clock_mhz;
  double cycles = 0;
  for (unsigned size : o.bw_sizes) cycles += double(size) * stream_msgs(o, size) / bytes_per_cycle + 2000;  // + setup and latency
  return cycles / kNicCyclesPerS;
}

StreamRun stream_run(const NicBenchOptions& o, bool read, unsigned size, unsigned msgs, const std::string& label) {
  const std::string what = fmt::format("{} {}", read ? "RDMA read" : "RDMA write", size_text(size));
  const double w0 = wall_now();
  Rig rig(o, label);
  StreamRun r;
  r.msgs = msgs;
  const size_t slots = std::min<size_t>(msgs, std::max<size_t>(1, kSlotCap / size));
  const size_t bytes = slots * size;
  // the data starts at node 0 for a write, at node 1 for a read
  const unsigned src_node = read ? 1 : 0;
  const std::vector<uint8_t> data = random_bytes(o.seed * 7919 + size, bytes);
  const Buf src = rig.make(src_node, rig.ep(src_node), bytes, RDMA_ACCESS_READ, data);
  const Buf dst = rig.make(1 - src_node, rig.ep(1 - src_node), bytes, RDMA_ACCESS_WRITE, {}, 128);
  const Buf ev = rig.make(0, rig.ep(0), 64, RDMA_ACCESS_WRITE, std::vector<uint8_t>(64, 0));
  const Buf& mine = read ? dst : src;
  const Buf& theirs = read ? src : dst;
  r.setup_s = wall_now() - w0;
  const sim::PcieStats s0[2] = {rig.pair().nic(0).pcie().dma().stats(), rig.pair().nic(1).pcie().dma().stats()};
  const uint64_t c0 = rig.pair().cycles();
  const double t0 = wall_now();
  const std::clock_t k0 = std::clock();
  rig.start_faults();
  rig.pair().spawn(0, 0, 0, [&] {
    r.cycles = stream(rig.ep(0), rdma_vp(rig.ep(1)), mine, theirs, ev, read, size, msgs, slots, submit_mode(o.submit), what);
  });
  // a long stream says every few seconds how far it is: the bytes written into the destination
  const uint64_t total = uint64_t{size} * msgs;
  double last = t0;
  sim::Cluster& cl = rig.pair().cluster();
  cl.run_until([&] {
    if (cl.threads_done()) return true;
    if (o.progress && (cl.cycles() & 0xFFF) == 0 && wall_now() - last >= 3.0) {
      last = wall_now();
      const uint64_t done = rig.pair().nic(1 - src_node).pcie().dma().stats().write_bytes - s0[1 - src_node].write_bytes;
      const double el = last - t0, share = std::min(1.0, double(done) / double(total));
      fmt::print(stderr, "  [nic] {}: {} of {} bytes written ({:.0f}%, cycle {}, {:.0f} s{})\n", what, std::min(done, total), total,
                 100 * share, cl.cycles() - c0, el, share > 0 ? fmt::format(", ~{:.0f} s left", el / share - el) : "");
    }
    return false;
  });
  r.cpu_s = double(std::clock() - k0) / CLOCKS_PER_SEC;
  r.wall_s = wall_now() - t0;
  r.sim_cycles = rig.pair().cycles() - c0;
  const sim::PcieStats s1[2] = {rig.pair().nic(0).pcie().dma().stats(), rig.pair().nic(1).pcie().dma().stats()};
  // the writing side's upstream (write TLPs) and the read side's downstream (completions)
  const unsigned wn = 1 - src_node;
  r.write_up_busy = (s1[wn].up_busy_cycles - s0[wn].up_busy_cycles) / double(r.cycles);
  r.read_down_busy = (s1[src_node].down_busy_cycles - s0[src_node].down_busy_cycles) / double(r.cycles);
  const uint64_t tlps = s1[wn].up_write_tlps - s0[wn].up_write_tlps;
  r.write_tlp_bytes = tlps ? double(s1[wn].write_bytes - s0[wn].write_bytes) / double(tlps) : 0;
  // every slot written holds its source bytes; nothing after the last slot changed
  if (const char* f = std::getenv("HPCNET_NIC_BENCH_FAULT"); f && std::string(f) == "stream") {
    // the test of the check itself (bench/nic/tests.cmake): one destination byte made wrong
    uint8_t b = 0;
    rdma_mem_read(rig.ep(1 - src_node), dst.va + bytes / 2, &b, 1);
    b = uint8_t(b ^ 0x5A);
    rdma_mem_write(rig.ep(1 - src_node), dst.va + bytes / 2, &b, 1);
  }
  std::vector<uint8_t> want = data;
  want.resize(bytes + 128, kGuard);
  check_bytes(rig.peek(rig.ep(1 - src_node), dst.va, bytes + 128), want, what + " stream: the destination");
  const double mhz = rig.pair().config().clock_mhz;
  r.gbps = double(size) * msgs / double(r.cycles) * mhz / 1000.0;
  r.link = read_link_stats(rig.pair());
  return r;
}

void run_stream(const NicBenchOptions& o, Report& rep, Progress& prog, bool read) {
  const std::string name = read ? "read" : "bandwidth";
  const Bottleneck bn = bottleneck(o);
  const double mhz = pair_config(o).clock_mhz;
  Results t({{"size_bytes", "size"},
             {"messages", "msgs"},
             {"cycles", ""},
             {"gbps", "GB/s"},
             {"pct_of_bottleneck", "% of bottleneck"},
             {"msgs_per_us", "msgs/us"},
             {"write_pcie_up_busy_pct", read ? "node 0 PCIe up busy" : "node 1 PCIe up busy"},
             {"read_pcie_down_busy_pct", read ? "node 1 PCIe down busy" : "node 0 PCIe down busy"},
             {"write_tlp_payload_bytes", "B per write TLP"}});
  rep.config(t);
  t.config("submit", o.submit).config("bottleneck_gbps", bn.gbps);
  PlotSeries s{read ? "RDMA read" : "RDMA write", {}, read ? 1 : 0, read ? 2 : -1};
  double peak = 0, best_pct = 0;
  unsigned best_size = 0;
  std::vector<std::pair<unsigned, double>> curve;
  for (unsigned size : o.bw_sizes) {
    const unsigned msgs = stream_msgs(o, size);
    const StreamRun r = stream_run(o, read, size, msgs, fmt::format("{}, {}", name, size_text(size)));
    const double pct = 100.0 * r.gbps / bn.gbps;
    t.add({num(size), num(msgs), num(r.cycles), num(r.gbps, 3), num(pct, 1), num(double(msgs) / (double(r.cycles) / mhz), 2),
           num(100.0 * r.write_up_busy, 1), num(100.0 * r.read_down_busy, 1), num(r.write_tlp_bytes, 1)});
    s.points.emplace_back(size, r.gbps);
    curve.emplace_back(size, r.gbps);
    if (r.gbps > peak) peak = r.gbps;
    if (pct > best_pct) best_pct = pct, best_size = size;
    prog.step(fmt::format("{} {}: {:.3f} GB/s ({:.1f}% of the bottleneck)", name, size_text(size), r.gbps, pct));
  }
  std::vector<std::string> notes;
  notes.push_back(fmt::format("modelled bottleneck {:.3f} GB/s: {} ({})", bn.gbps, bn.what, bn.terms));
  std::sort(curve.begin(), curve.end());
  for (size_t i = 0; i < curve.size(); ++i)
    if (curve[i].second >= peak / 2) {
      std::string between;
      if (i > 0) {  // log-linear between the two sizes around it
        const auto [s0, g0] = curve[i - 1];
        const auto [s1, g1] = curve[i];
        const double x = std::log2(double(s0)) + (peak / 2 - g0) / (g1 - g0) * (std::log2(double(s1)) - std::log2(double(s0)));
        between = fmt::format("; about {:.0f} B interpolated between {} and {}", std::exp2(x), size_text(s0), size_text(s1));
      }
      notes.push_back(fmt::format("half of the peak ({:.3f} of {:.3f} GB/s) is reached at {} (the smallest size measured that "
                                  "reaches it{})",
                                  peak / 2, peak, size_text(curve[i].first), between));
      break;
    }
  notes.push_back(fmt::format("goal >= 90% of the bottleneck at large sizes: best {:.1f}% at {}: {} (the paper: 6.34 GB/s, "
                              "about 80% of raw)",
                              best_pct, size_text(best_size), best_pct >= 90.0 ? "met" : "MISSED"));
  rep.emit(name,
           fmt::format("Streaming RDMA {} from node 0 {} node 1 ({} submission): messages posted back to back, the last "
                       "with a local event; GB/s = bytes / (first post to that event); destination bytes checked",
                       read ? "read" : "write", read ? "of" : "to", o.submit),
           t, notes);
  PlotSpec& p = rep.plot("bandwidth");
  if (p.series.empty()) {
    p.title = "NIC streaming bandwidth against message size";
    p.xlabel = "message size (bytes)";
    p.ylabel = "GB/s";
    p.logx = true;
    p.y_from_zero = true;
    p.xtics = {8, 64, 512, 4096, 32768, 262144};  // gnuplot would print 1048576 as 1.04858e+06
    p.lines.push_back({bn.gbps, fmt::format("modelled bottleneck {:.2f} GB/s", bn.gbps)});
    p.lines.push_back({6.34, "paper: 6.34 GB/s"});
  }
  p.series.push_back(std::move(s));
}

void run_vps(const NicBenchOptions& o, Report& rep, Progress& prog) {
  const Bottleneck bn = bottleneck(o);
  const unsigned size = o.vp_size, msgs = o.vp_msgs, nv = o.vps;
  Rig rig(o, fmt::format("vps, {} VPs", nv));
  const double mhz = rig.pair().config().clock_mhz;
  std::vector<rdma_ep*> eps(nv);
  eps[0] = rig.ep(0);
  rig.on(0, [&] {
    for (unsigned v = 1; v < nv; ++v) check_rc(rdma_open(&eps[v]), fmt::format("rdma_open of VP {}", v));
  });
  const size_t slots = std::min<size_t>(msgs, std::max<size_t>(1, kVpSlotCap / size));
  const size_t bytes = slots * size;
  std::vector<std::vector<uint8_t>> data(nv);
  std::vector<Buf> src(nv), dst(nv), ev(nv);
  for (unsigned v = 0; v < nv; ++v) {
    data[v] = random_bytes(o.seed * 104729 + v, bytes);
    src[v] = rig.make(0, eps[v], bytes, RDMA_ACCESS_READ, data[v]);
    dst[v] = rig.make(1, rig.ep(1), bytes, RDMA_ACCESS_WRITE, {}, 128);
    ev[v] = rig.make(0, eps[v], 64, RDMA_ACCESS_WRITE, std::vector<uint8_t>(64, 0));
  }
  std::vector<uint64_t> start(nv), took(nv);
  const unsigned vp1 = rdma_vp(rig.ep(1));
  const unsigned per_pe = rig.pair().config().num_threads;
  rig.start_faults();
  for (unsigned v = 0; v < nv; ++v)
    rig.pair().spawn(0, v / per_pe, v % per_pe, [&, v] {
      start[v] = now();
      took[v] = stream(eps[v], vp1, src[v], dst[v], ev[v], false, size, msgs, slots, submit_mode(o.submit),
                       fmt::format("VP {} stream", rdma_vp(eps[v])));
    });
  rig.pair().run();
  const uint64_t t0 = *std::min_element(start.begin(), start.end());
  std::vector<double> fin(nv), gbps(nv);
  for (unsigned v = 0; v < nv; ++v) {
    std::vector<uint8_t> want = data[v];
    want.resize(bytes + 128, kGuard);
    check_bytes(rig.peek(rig.ep(1), dst[v].va, bytes + 128), want, fmt::format("VP {} stream: the destination", v));
    fin[v] = double(start[v] + took[v] - t0);
    gbps[v] = double(size) * msgs / fin[v] * mhz / 1000.0;
  }
  const double last = *std::max_element(fin.begin(), fin.end()), first = *std::min_element(fin.begin(), fin.end());
  const double agg = double(size) * msgs * nv / last * mhz / 1000.0;
  const double sum = std::accumulate(gbps.begin(), gbps.end(), 0.0);
  double sq = 0;
  for (double g : gbps) sq += g * g;
  const double jain = sum * sum / (nv * sq);
  const double gmin = *std::min_element(gbps.begin(), gbps.end()), gmax = *std::max_element(gbps.begin(), gbps.end());
  Results t({{"vp", "VP"}, {"messages", "msgs"}, {"bytes", ""}, {"finish_us", "finished at us"}, {"gbps", "GB/s"}});
  rep.config(t);
  t.config("message_bytes", size).config("submit", o.submit);
  for (unsigned v = 0; v < nv; ++v)
    t.add({num(rdma_vp(eps[v])), num(msgs), num(uint64_t{size} * msgs), num(fin[v] / mhz, 2), num(gbps[v], 3)});
  Results sm({{"vps", "VPs"},
              {"message_bytes", "size"},
              {"messages_per_vp", "msgs/VP"},
              {"aggregate_gbps", "aggregate GB/s"},
              {"pct_of_bottleneck", "% of bottleneck"},
              {"min_vp_gbps", "min VP GB/s"},
              {"max_vp_gbps", "max VP GB/s"},
              {"max_over_min", "max/min"},
              {"jain_index", "Jain index"},
              {"first_finish_us", "first done us"},
              {"last_finish_us", "last done us"}});
  rep.config(sm);
  sm.config("submit", o.submit).config("bottleneck_gbps", bn.gbps);
  sm.add({num(nv), num(size), num(msgs), num(agg, 3), num(100.0 * agg / bn.gbps, 1), num(gmin, 3), num(gmax, 3),
          num(gmax / gmin, 3), num(jain, 4), num(first / mhz, 2), num(last / mhz, 2)});
  prog.step(fmt::format("vps: {} VPs, {:.3f} GB/s aggregate, Jain index {:.4f}", nv, agg, jain));
  const std::string how = fmt::format(
      "{} VPs of node 0 (one thread and endpoint each) each stream {} RDMA writes of {} to node 1 at once ({} submission); "
      "a VP's GB/s is its bytes over the time from the common start to its last local event",
      nv, msgs, size_text(size), o.submit);
  rep.emit("vps", "Per VP: " + how, t);
  rep.emit("vps_summary", "VPs streaming at once: aggregate and fairness", sm,
           {fmt::format("modelled bottleneck {:.3f} GB/s: {}", bn.gbps, bn.what),
            "Jain's index: (sum x)^2 / (n sum x^2) of the VPs' GB/s, 1 = all equal"});
}

}  // namespace hpcnet::bench::nicb
