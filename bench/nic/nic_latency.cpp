// bench/nic/nic_latency.cpp: `hpcnet nic --scenario latency`: ping-pong between node 0 and node 1
// per path and size (half the round trip is the one-way latency), the paper comparison, and the
// breakdown of the smallest message's one-way trip into stages from the probe's timestamps.
//
// Arrival: by default the receiver polls the message's last byte (one CPU load of host memory per
// poll): the NIC writes a message's packets in order and the host model applies writes in order,
// so the last byte landing means the whole message has. --notify event asks for a remote event
// with each write instead (16 bytes after the data) and waits on it with rdma_wait_event.
// Each node sends from two source slots (even and odd iterations) whose last bytes differ, so
// that no CPU store is needed between iterations and a stale last byte never matches.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "nic/nic_bench.hpp"

namespace hpcnet::bench::nicb {

namespace {

constexpr std::array<uint8_t, 2> kStamp = {0xA1, 0xB2};  // last byte of even / odd messages

std::vector<unsigned> path_sizes(const NicBenchOptions& o, const LatPath& p) {
  std::vector<unsigned> s;
  for (unsigned x : o.sizes)
    if (!p.imm || x <= 128) s.push_back(x);
  return s;
}

// One node's side of the ping-pong: its source slots (also kept on the host for immediate
// writes), its destination and its event slot.
struct Side {
  rdma_ep* ep = nullptr;
  Buf src, dst, ev;
  std::vector<uint8_t> host;  // the source slots' bytes: slot k at k * max
};

struct Breakdown {
  std::vector<std::pair<std::string, double>> stages;  // name, cycles
  double total = 0;                                     // cycles, post to seen
};

class PingPong {
 public:
  PingPong(const NicBenchOptions& o, const LatPath& p, unsigned max_size, const std::string& label, bool probe = true)
      : o_(o), p_(p), max_(max_size), rig_(o, label, probe) {
    for (unsigned n = 0; n < 2; ++n) {
      Side& s = side_[n];
      s.ep = rig_.ep(n);
      s.host = random_bytes(o.seed * 1000 + 17 * n + 1, 2 * size_t{max_});
      s.src = rig_.make(n, s.ep, 2 * size_t{max_}, RDMA_ACCESS_READ, s.host);
      s.dst = rig_.make(n, s.ep, max_, RDMA_ACCESS_WRITE, {}, 64);
      s.ev = rig_.make(n, s.ep, 64, RDMA_ACCESS_WRITE, std::vector<uint8_t>(64, 0));
    }
    for (unsigned k = 0; k < 2; ++k)
      for (unsigned i = 0; i < 16; ++i) ev_data_[k][i] = uint8_t(0x40 + 16 * k + i);
    rig_.start_faults();
  }

  uint64_t cycles() { return rig_.pair().cycles(); }

  // The one-way latencies (cycles, half the round trip) of `iters` timed round trips of `size`.
  std::vector<double> run(unsigned size) {
    prepare(size);
    std::vector<double> lat;
    const unsigned total = o_.warmup + o_.iters;
    rig_.pair().spawn(0, 0, 0, [&] {
      for (unsigned it = 0; it < total; ++it) {
        const uint64_t t0 = now();
        post(0, size, it & 1);
        wait(0, size, it & 1);
        if (it >= o_.warmup) lat.push_back(double(now() - t0) / 2.0);
      }
    });
    rig_.pair().spawn(1, 0, 0, [&] {
      for (unsigned it = 0; it < total; ++it) {
        wait(1, size, it & 1);
        post(1, size, it & 1);
      }
    });
    rig_.pair().run();
    // every message completed without error, and the last one's bytes are there on both sides
    for (unsigned n = 0; n < 2; ++n)
      rig_.on(n, [&] { check_rc(rdma_quiet(side_[n].ep), fmt::format("{} {} B ping-pong: rdma_quiet on node {}", p_.name, size, n)); });
    const unsigned last = (total - 1) & 1;
    for (unsigned n = 0; n < 2; ++n) {
      const Side& from = side_[1 - n];
      std::vector<uint8_t> want(from.host.begin() + last * max_, from.host.begin() + last * max_ + size);
      check_bytes(rig_.peek(side_[n].ep, side_[n].dst.va, size), want,
                  fmt::format("{} {} B ping-pong: node {}'s destination", p_.name, size, n));
    }
    return lat;
  }

  // `trips` one-way messages of `size` from node 0 to node 1, each timestamped by the probe; the
  // stages of the trip with the median one-way time (so that they add up to it).
  Breakdown breakdown(unsigned size) {
    prepare(size);
    std::vector<Breakdown> trips;
    for (unsigned k = 0; k < o_.trips; ++k) {
      const unsigned par = k & 1;
      uint64_t t_post = 0, t_seen = 0;
      rig_.pair().spawn(0, 0, 0, [&] {
        rig_.probe()->arm();
        t_post = now();
        post(0, size, par);
      });
      rig_.pair().spawn(1, 0, 0, [&] {
        wait(1, size, par);
        t_seen = now();
        rig_.probe()->disarm();
      });
      rig_.pair().run();
      rig_.on(0, [&] { check_rc(rdma_quiet(side_[0].ep), fmt::format("{} breakdown: rdma_quiet", p_.name)); });
      trips.push_back({stages(t_post, t_seen), double(t_seen - t_post)});
    }
    std::sort(trips.begin(), trips.end(), [](const Breakdown& x, const Breakdown& y) { return x.total < y.total; });
    return trips[trips.size() / 2];
  }

 private:
  void prepare(unsigned size) {
    // outside the threads (no simulated time): the stamps at the slots' last bytes, the
    // destinations' last bytes cleared (so a stale stamp from another size never matches)
    for (unsigned n = 0; n < 2; ++n) {
      Side& s = side_[n];
      for (unsigned k = 0; k < 2; ++k) {
        s.host[k * max_ + size - 1] = kStamp[k];
        rdma_mem_write(s.ep, s.src.va + k * max_ + size - 1, &kStamp[k], 1);
      }
      const uint8_t zero = 0;
      rdma_mem_write(s.ep, s.dst.va + size - 1, &zero, 1);
      rdma_mem_write(s.ep, s.ev.va, std::array<uint8_t, 16>{}.data(), 16);
    }
  }

  void post(unsigned n, unsigned size, unsigned par) {
    const Side& me = side_[n];
    const Side& peer = side_[1 - n];
    rdma_event ev{peer.ev.at(0), {}};
    std::copy(ev_data_[par].begin(), ev_data_[par].end(), ev.data);
    rdma_opts op{};
    op.submit = p_.submit;
    if (o_.notify == "event") op.remote_event = &ev;
    const unsigned vp = rdma_vp(peer.ep);
    const int rc = p_.imm ? rdma_write_imm(me.ep, 1 - n, vp, peer.dst.at(0), me.host.data() + par * max_, size, &op)
                          : rdma_write(me.ep, 1 - n, vp, peer.dst.at(0), me.src.at(par * max_), size, &op);
    check_rc(rc, fmt::format("{} {} B: posting the write on node {}", p_.name, size, n));
  }

  void wait(unsigned n, unsigned size, unsigned par) {
    const Side& me = side_[n];
    if (o_.notify == "event") {
      std::array<uint8_t, 16> got{};
      rdma_wait_event(me.ep, me.ev.va, got.data());
      if (got != ev_data_[par])
        throw CheckFailed(fmt::format("{} {} B: node {} got a remote event with wrong bytes", p_.name, size, n));
      return;
    }
    uint8_t b = 0;
    for (;;) {
      rdma_mem_read(me.ep, me.dst.va + size - 1, &b, 1);
      if (b == kStamp[par]) return;
      this_platform()->relax();
    }
  }

  // The stages of one trip from the probe's records (docs/nic_bench.md#breakdown).
  std::vector<std::pair<std::string, double>> stages(uint64_t t_post, uint64_t t_seen) const {
    const sim::NicProbe::Node& a = rig_.probe()->node(0);
    const sim::NicProbe::Node& b = rig_.probe()->node(1);
    auto first_at = [&](const std::vector<uint64_t>& v, uint64_t from, const char* what) {
      auto it = std::lower_bound(v.begin(), v.end(), from);
      if (it == v.end()) throw std::runtime_error(fmt::format("nic breakdown ({}): no {} seen after cycle {}", p_.name, what, from));
      return *it;
    };
    // the descriptor is at the NIC with the last MMIO write before the NIC's first action
    uint64_t act = UINT64_MAX;
    if (!a.rd_req.empty()) act = a.rd_req.front();
    if (!a.tx_head.empty()) act = std::min(act, a.tx_head.front());
    uint64_t t_desc = 0;
    bool seen = false;
    for (uint64_t t : a.mmio_wr)
      if (t <= act) t_desc = t, seen = true;
    if (!seen) throw std::runtime_error(fmt::format("nic breakdown ({}): no descriptor write seen at the NIC", p_.name));
    std::vector<std::pair<std::string, double>> s;
    auto add = [&](const char* name, uint64_t from, uint64_t to) { s.emplace_back(name, double(to - from)); };
    add(p_.submit == RDMA_SUBMIT_DMA ? "CPU: descriptor to memory, doorbell to the NIC"
                                     : "CPU: descriptor to the NIC (PIO)",
        t_post, t_desc);
    uint64_t t = t_desc;
    if (p_.submit == RDMA_SUBMIT_DMA) {
      const uint64_t rq = first_at(a.rd_req, t, "descriptor read request");
      const uint64_t dn = first_at(a.rd_last, rq, "descriptor read data");
      add("NIC: doorbell to descriptor read request", t, rq);
      add("PCIe: descriptor read (DMA)", rq, dn);
      t = dn;
    }
    if (!p_.imm) {
      const uint64_t rq = first_at(a.rd_req, t + 1, "data read request");
      const uint64_t dn = first_at(a.rd_last, rq, "data read data");
      add("NIC: descriptor to data read request", t, rq);
      add("PCIe: data read (DMA)", rq, dn);
      t = dn;
    }
    const uint64_t tx = first_at(a.tx_head, t, "head flit sent");
    add("NIC: to the first flit on the link", t, tx);
    const uint64_t rx = first_at(b.rx_head, tx, "head flit received");
    add("link: first flit sent to received", tx, rx);
    const uint64_t wr = first_at(b.wr_beat, rx, "write beat at the receiver");
    add("receiver NIC: packet to write beat", rx, wr);
    uint64_t app = first_at(b.applied, wr, "write applied at the receiver");
    for (uint64_t x : b.applied)
      if (x <= t_seen) app = std::max(app, x);  // with --notify event: the event's write
    add("PCIe: write to host memory", wr, app);
    add("receiver CPU: seen by polling", app, t_seen);
    return s;
  }

  const NicBenchOptions& o_;
  const LatPath& p_;
  unsigned max_;
  Rig rig_;
  std::array<Side, 2> side_;
  std::array<std::array<uint8_t, 16>, 2> ev_data_{};
};

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

}  // namespace

PingPongRun pingpong_run(const NicBenchOptions& o, unsigned iters, const std::string& label) {
  NicBenchOptions q = o;
  q.iters = iters;
  q.warmup = 0;
  q.notify = "last-byte";
  const LatPath& p = lat_path("pio");
  auto wall = [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
  PingPongRun r;
  const double w0 = wall();
  PingPong pp(q, p, 8, label, false);  // no probe: the model alone is timed
  r.setup_s = wall() - w0;
  const uint64_t c0 = pp.cycles();
  const double t0 = wall();
  const std::clock_t k0 = std::clock();
  const std::vector<double> v = pp.run(8);
  r.cpu_s = double(std::clock() - k0) / CLOCKS_PER_SEC;
  r.wall_s = wall() - t0;
  r.sim_cycles = pp.cycles() - c0;
  r.mean_us = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()) / pair_config(o).clock_mhz;
  return r;
}

size_t latency_steps(const NicBenchOptions& o) {
  size_t n = 0;
  for (const std::string& p : o.paths) n += path_sizes(o, lat_path(p)).size() + 1;
  return n;
}

void run_latency(const NicBenchOptions& o, Report& rep, Progress& prog) {
  const double mhz = pair_config(o).clock_mhz;
  auto us = [&](double cycles) { return cycles / mhz; };
  Results lat({{"path", ""},
               {"size_bytes", "size"},
               {"iterations", "iters"},
               {"min_latency_us", "min us"},
               {"median_latency_us", "median us"},
               {"mean_latency_us", "mean us"},
               {"p99_latency_us", "p99 us"},
               {"min_latency_cycles", "min cycles"}});
  Results cmp({{"path", ""},
               {"size_bytes", "size"},
               {"min_latency_us", "measured min us"},
               {"paper_us", "paper us"},
               {"ratio_to_paper", "measured / paper"},
               {"within_20_pct", "within 20%"}});
  Results brk({{"path", ""}, {"size_bytes", "size"}, {"stage", ""}, {"cycles", ""}, {"ns", ""}, {"share_pct", "share"}});
  for (Results* r : {&lat, &cmp, &brk}) {
    rep.config(*r);
    r->config("notify", o.notify);
  }
  std::vector<std::string> brk_notes;
  std::vector<PlotSeries> series;
  std::map<std::string, double> min_small;  // path -> min latency (us) at the smallest size
  const unsigned smallest = *std::min_element(o.sizes.begin(), o.sizes.end());
  int style = 0;
  for (const std::string& name : o.paths) {
    const LatPath& p = lat_path(name);
    const std::vector<unsigned> sizes = path_sizes(o, p);
    if (sizes.empty()) {
      prog.step(fmt::format("latency {}: no size of at most 128 bytes", p.name));
      continue;
    }
    PingPong pp(o, p, *std::max_element(sizes.begin(), sizes.end()), fmt::format("latency, {}", p.name));
    PlotSeries s{p.label, {}, style++};
    double half_rt_small = 0;
    for (unsigned size : sizes) {
      const std::vector<double> v = pp.run(size);
      const double mn = *std::min_element(v.begin(), v.end());
      const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
      lat.add({word(p.name), num(size), num(o.iters), num(us(mn), 3), num(us(percentile(v, 0.5)), 3), num(us(mean), 3),
               num(us(percentile(v, 0.99)), 3), num(mn, 1)});
      s.points.emplace_back(size, us(mn));
      if (size == sizes.front()) {
        min_small[p.name] = us(mn);
        half_rt_small = mean;
      }
      prog.step(fmt::format("latency {} {} B: min {:.3f} us", p.name, size, us(mn)));
    }
    series.push_back(std::move(s));
    const unsigned bsize = sizes.front();
    const Breakdown b = pp.breakdown(bsize);
    for (const auto& [stage, c] : b.stages)
      brk.add({word(p.name), num(bsize), word(stage), num(c, 1), num(c * 1000.0 / mhz, 1), num(100.0 * c / b.total, 1)});
    brk_notes.push_back(fmt::format("{}: one way {:.0f} cycles = {:.3f} us (the median trip of {}); the ping-pong's mean half "
                                    "round trip at {} B: {:.3f} us",
                                    p.name, b.total, us(b.total), o.trips, bsize, us(half_rt_small)));
    prog.step(fmt::format("latency {} breakdown at {} B", p.name, bsize));
    if (bsize != smallest) brk_notes.push_back(fmt::format("{}: the smallest size it takes is {} B", p.name, bsize));
  }
  const std::string how = o.notify == "event" ? "the receiver waits on a remote event (16 bytes written after the data)"
                                              : "the receiver polls the message's last byte";
  rep.emit("latency",
           fmt::format("One-way latency: half the ping-pong round trip between node 0 and node 1 ({}; {} timed round trips "
                       "after {} untimed ones per point)",
                       how, o.iters, o.warmup),
           lat);
  // the paper's figures (seed 004, section 3) against the minimum at the smallest size
  for (const std::string& name : o.paths) {
    const LatPath& p = lat_path(name);
    if (!min_small.count(name)) continue;
    const double m = min_small[name];
    const double r = m / p.paper_us;
    cmp.add({word(name), num(path_sizes(o, p).front()), num(m, 3), num(p.paper_us, 2), num(r, 2),
             word(std::abs(r - 1.0) <= 0.2 ? "yes" : "no")});
  }
  std::vector<std::string> notes;
  for (const char* imm : {"imm", "imm-dma"}) {
    if (!(min_small.count("dma") && min_small.count(imm) && min_small.count("pio"))) continue;
    const double d = min_small["dma"], i = min_small[imm], q = min_small["pio"];
    notes.push_back(fmt::format("the paper's order dma > imm > pio (2.5 > 1.95 > 1.57 us) with {} as its immediate path: {} "
                                "(measured {:.3f} > {:.3f} > {:.3f} us)",
                                imm, d > i && i > q ? "kept" : "NOT kept", d, i, q));
  }
  notes.push_back("the paper does not say how its immediate descriptors were submitted: imm (PIO) and imm-dma are both "
                  "compared with its 1.95 us");
  rep.emit("latency_paper", "Minimum latency against the paper (PCIe 2.0 x16 host bus, seed 004 section 3)", cmp, notes);
  rep.emit("breakdown",
           fmt::format("Where the time goes: one-way trip of the smallest message from node 0 to node 1, stages from cycle "
                       "timestamps (the trip with the median time of {}; {})",
                       o.trips, how),
           brk, brk_notes);
  PlotSpec spec;
  spec.title = "NIC one-way latency against message size (min of the ping-pong round trips / 2)";
  spec.xlabel = "message size (bytes)";
  spec.ylabel = "one-way latency (us)";
  spec.logx = true;
  spec.y_from_zero = true;
  spec.series = std::move(series);
  for (const std::string& name : o.paths) {
    const LatPath& p = lat_path(name);
    if (name == "dma" || name == "pio" || name == "imm") spec.lines.push_back({p.paper_us, fmt::format("paper, {}: {} us", name, p.paper_us)});
  }
  rep.add_plot({"latency", std::move(spec)});
}

}  // namespace hpcnet::bench::nicb
