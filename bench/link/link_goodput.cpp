// bench/link/link_goodput.cpp: `hpcnet link --scenario ber,delay`: goodput of a stream of RDMA
// writes from node 0 to node 1 (nicb::stream_run: posted back to back, the last with a local event,
// every byte checked) against the bit error rate per flit and against the link delay, per
// retransmit buffer; the link layer's counters of each run (replays, timeouts, drops) and the
// faults injected; where goodput falls below 90%.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "link/link_bench.hpp"

namespace hpcnet::bench::linkb {

namespace {

constexpr double kLevel = 0.9;  // the goodput level whose crossing the notes give

std::string rate_text(double b) { return b == 0 ? "0" : fmt::format("{:g}", b); }

// Every stream is run once per process (the sweeps share points: the error-free references).
const nicb::StreamRun& stream(const LinkBenchOptions& o, const Point& p, Progress& prog) {
  static std::map<Point, nicb::StreamRun> done;
  auto it = done.find(p);
  if (it != done.end()) return it->second;
  const std::string what = fmt::format("retx {}, delay {}, BER {}", p.retx, p.delay, rate_text(p.ber));
  nicb::StreamRun r = nicb::stream_run(point_options(o, p), false, o.msg_size, o.msgs, "link goodput, " + what);
  prog.step(fmt::format("{}: {:.3f} GB/s, {} replays", what, r.gbps, r.link.replays[0] + r.link.replays[1]));
  return done.emplace(p, std::move(r)).first->second;
}

std::vector<Cell> row(const Point& p, const nicb::StreamRun& r, const nicb::StreamRun& ref, double frac) {
  const LinkStats& l = r.link;
  const double extra = 100.0 * (double(l.flits[0]) - double(ref.link.flits[0])) / double(ref.link.flits[0]);
  return {num(p.retx),
          num(p.delay),
          word(rate_text(p.ber)),
          num(r.gbps, 3),
          num(frac, 3),
          num(l.flit_faults[0] + l.flit_faults[1]),
          num(l.dirty(0) + l.dirty(1)),
          num(l.seq[0] + l.seq[1] + l.dup[0] + l.dup[1]),
          num(l.replays[0]),
          num(l.replays[1]),
          num(l.timeouts[0] + l.timeouts[1]),
          num(extra, 1)};
}

std::vector<Column> columns(const std::string& frac_key, const std::string& frac_shown) {
  return {{"retx_flits", "retx"},
          {"delay_cycles", "delay"},
          {"ber_per_flit", "BER/flit"},
          {"gbps", "GB/s"},
          {frac_key, frac_shown},
          {"flit_faults", "faults"},
          {"dirty_drops", "dirty drops"},
          {"seq_dup_drops", "seq+dup drops"},
          {"replays_0to1", "replays 0->1"},
          {"replays_1to0", "replays 1->0"},
          {"timeouts", ""},
          {"extra_flits_pct", "extra flits %"}};
}

// What one fault costs: the stream's extra cycles per fault injected, at the lowest rate with at
// least 10 faults (else the highest with any); and the rate where that cost alone would take
// goodput below 90% (a linear model: the rates below it see too few faults in one stream).
std::string fault_cost(const LinkBenchOptions& o, const std::vector<Point>& pts, const std::string& what, Progress& prog) {
  const Point* at = nullptr;
  uint64_t n = 0;
  for (const Point& p : pts) {
    const nicb::StreamRun& x = stream(o, p, prog);
    const uint64_t k = x.link.flit_faults[0] + x.link.flit_faults[1];
    if (p.ber == 0 || k == 0 || (at && n >= 10)) continue;
    at = &p;
    n = k;
  }
  if (!at) return what + ": no fault injected at any rate (a longer stream, --msgs, sees some)";
  const nicb::StreamRun& x = stream(o, *at, prog);
  const nicb::StreamRun& ref = stream(o, {at->retx, at->delay, 0.0}, prog);
  const double cost = (double(x.cycles) - double(ref.cycles)) / double(n);
  const double flits = double(ref.link.flits[0] + ref.link.flits[1]);
  if (cost < 0.5)
    return fmt::format("{}: no cycle lost to the {} faults at BER {} (the link's slack over PCIe, 8.0 against 7.3 GB/s, "
                       "absorbs the replays)", what, n, rate_text(at->ber));
  return fmt::format("{}: a fault costs about {:.0f} cycles of the stream (at BER {}: {} faults); at that cost alone goodput "
                     "would fall below 90% at a BER of about {:.2g} per flit ({:.0f} flits both ways per error-free stream "
                     "of {} cycles)", what, cost, rate_text(at->ber), n, double(ref.cycles) / (9.0 * flits * cost), flits,
                     ref.cycles);
}

}  // namespace

nicb::NicBenchOptions point_options(const LinkBenchOptions& o, const Point& p) {
  nicb::NicBenchOptions q = o.nic;
  q.link_delay = p.delay;
  q.link_retx = p.retx;
  q.faults = LinkFaultOptions{};
  q.faults.ber = p.ber;
  q.faults.seed = o.link_seed;
  return q;
}

double crossing_point(const std::vector<std::pair<double, double>>& pts, double level, bool logx) {
  for (size_t i = 0; i < pts.size(); ++i) {
    if (pts[i].second >= level) continue;
    if (i == 0) return pts[0].first;
    auto x = [&](double v) { return logx ? std::log10(v) : v; };
    const auto [x0, y0] = pts[i - 1];
    const auto [x1, y1] = pts[i];
    if (logx && x0 <= 0) return x1;  // from 0 no log scale: the first rate below
    const double t = (y0 - level) / (y0 - y1);
    const double v = x(x0) + t * (x(x1) - x(x0));
    return logx ? std::pow(10.0, v) : v;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

std::set<Point> goodput_points(const LinkBenchOptions& o, bool by_delay) {
  std::set<Point> s;
  for (unsigned r : o.retx) {
    if (!by_delay) {
      for (unsigned d : o.ber_delays) {
        s.insert({r, d, 0.0});
        for (double b : o.bers) s.insert({r, d, b});
      }
    } else {
      s.insert({r, *std::min_element(o.delays.begin(), o.delays.end()), 0.0});
      for (unsigned d : o.delays)
        for (double b : o.delay_bers) s.insert({r, d, b});
    }
  }
  return s;
}

void run_goodput(const LinkBenchOptions& o, nicb::Report& rep, Progress& prog, bool by_delay) {
  const unsigned shortest = by_delay ? *std::min_element(o.delays.begin(), o.delays.end()) : 0;
  Results t(by_delay ? columns("fraction_of_short_link", "of short link") : columns("fraction_of_error_free", "of error-free"));
  rep.config(t);
  t.config("message_bytes", o.msg_size).config("messages", o.msgs).config("submit", o.nic.submit);
  t.config("link_seed", fmt::format("{}", o.link_seed));
  std::vector<std::string> notes;
  PlotSpec& plot = rep.plot(by_delay ? "goodput_delay" : "goodput_ber");
  int style = 0;
  // a series: one retransmit buffer and one delay (ber) or one error rate (delay)
  for (unsigned r : o.retx) {
    const std::vector<double> outer = by_delay ? o.delay_bers : std::vector<double>(o.ber_delays.begin(), o.ber_delays.end());
    for (double v : outer) {
      std::vector<Point> pts;
      if (by_delay)
        for (unsigned d : o.delays) pts.push_back({r, d, v});
      else
        for (double b : o.bers) pts.push_back({r, unsigned(v), b});
      std::sort(pts.begin(), pts.end());
      PlotSeries s{by_delay ? fmt::format("retx {}, BER {}", r, rate_text(v)) : fmt::format("retx {}, delay {}", r, unsigned(v)),
                   {}, style % 8, r == nicb::kDefaultLinkRetx ? -1 : 2};
      ++style;
      std::vector<std::pair<double, double>> curve;
      for (const Point& p : pts) {
        const nicb::StreamRun& ref = stream(o, {r, by_delay ? shortest : p.delay, 0.0}, prog);
        const nicb::StreamRun& x = stream(o, p, prog);
        const double frac = x.gbps / ref.gbps;
        t.add(row(p, x, stream(o, {r, p.delay, 0.0}, prog), frac));
        const double xv = by_delay ? double(p.delay) : p.ber;
        curve.emplace_back(xv, frac);
        if (by_delay || p.ber > 0) s.points.emplace_back(xv, frac);
      }
      const double at = crossing_point(curve, kLevel, !by_delay);
      const std::string what = by_delay ? fmt::format("retransmit buffer {} flits, BER {}", r, rate_text(v))
                                        : fmt::format("retransmit buffer {} flits, delay {}", r, unsigned(v));
      const double low = std::min_element(curve.begin(), curve.end(), [](auto& a, auto& b) { return a.second < b.second; })->second;
      if (std::isnan(at))
        notes.push_back(fmt::format("{}: goodput stays at or above 90% (lowest {:.3f})", what, low));
      else
        notes.push_back(fmt::format("{}: goodput falls below 90% at {} {} (interpolated between the points around it)",
                                    what, by_delay ? "a delay of about" : "a BER of about",
                                    by_delay ? fmt::format("{:.0f} cycles", at) : fmt::format("{:.2g} per flit", at)));
      if (!by_delay) notes.push_back(fault_cost(o, pts, what, prog));
      plot.series.push_back(std::move(s));
    }
  }
  if (plot.title.empty()) {
    plot.title = by_delay ? "Link: goodput of streaming RDMA writes against link delay"
                          : "Link: goodput of streaming RDMA writes against bit error rate";
    plot.xlabel = by_delay ? "link delay (cycles each way)" : "bit error rate (per flit)";
    plot.ylabel = by_delay ? "goodput / error-free goodput on the shortest link" : "goodput / error-free goodput";
    plot.logx = !by_delay;
    if (!by_delay)  // decades (gnuplot's own tics on a log axis are powers of 2)
      for (double b : o.bers)
        if (b > 0 && std::abs(std::log10(b) - std::round(std::log10(b))) < 1e-9) plot.xtics.push_back(b);
    plot.y_from_zero = true;
    plot.lines.push_back({kLevel, "90%"});
  }
  notes.push_back(fmt::format(
      "{} RDMA writes of {} from node 0 to node 1 per point, every byte checked; faults: a one-bit error per flit at the "
      "rate, both directions (control words not hit); replays 0->1 are node 0's (the data), 1->0 node 1's (the write "
      "acknowledgements); extra flits: flits on the wire 0->1 beyond the error-free run's",
      o.msgs, nicb::size_text(o.msg_size)));
  if (by_delay)
    rep.emit("goodput_delay",
             fmt::format("Goodput against link delay (each way), as a fraction of the error-free goodput at delay {}", shortest),
             t, notes);
  else
    rep.emit("goodput_ber", "Goodput against bit error rate per flit, as a fraction of the error-free goodput at the same delay",
             t, notes);
}

}  // namespace hpcnet::bench::linkb
