// net_sim.cpp: run methodology and the model lookup of net_sim.hpp.
#include "sim/net/model/net_sim.hpp"

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace hpcnet::sim {

namespace {
double process_cpu_s() {  // every thread of the process (a split mesh runs several)
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
}  // namespace

long peak_rss_kib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

double estimate_run_s(const NetSpec& s, uint64_t cycles) {
  constexpr double kRouterCyclesPerS = 8e6;  // a whole 8x8 model: about 125,000 cycles/s
  const double speed = kRouterCyclesPerS * (s.joined() ? 0.35 : 1.0) * std::max(1u, s.threads) / (s.threads > 1 ? 1.5 : 1.0);
  return static_cast<double>(cycles) * static_cast<double>(s.shape.nodes()) / speed;
}

namespace {
uint64_t backstop_phi(const NetSpec& s) {
  const uint64_t r = s.shape.nodes(), np = 2ull * s.shape.dims + 1, h = s.shape.diameter();
  const uint64_t per = s.mode == NetMode::dor_wh ? uint64_t{s.buf_pkts} * s.pkt_flits : s.buf_pkts;
  return r * np * per * (h + 1);
}
}  // namespace

uint64_t starvation_wait_bound(const NetSpec& s, unsigned starve_t) {
  if (starve_t == 0) return UINT64_MAX;
  return starve_t + 1 + backstop_phi(s) * (s.pkt_flits + 4ull);
}

uint64_t starvation_age_bound(const NetSpec& s, unsigned starve_t, uint64_t queue_cap) {
  if (starve_t == 0) return UINT64_MAX;
  const uint64_t w = starvation_wait_bound(s, starve_t), p = s.pkt_flits, h = s.shape.diameter();
  const uint64_t drain = backstop_phi(s) * (p + 4);
  return queue_cap * (w + p + drain + 3) + (h + 1) * (w + p + 2) + p;
}

namespace {
[[noreturn]] void no_barrier(const NetSpec& s) {
  throw std::logic_error(fmt::format("{}: this network has no multiphase barrier (net_mesh Barrier = 1: a Vnet_bar_* model; built: {})",
                                     s.label(), barrier_net_list()));
}
}  // namespace

NetSimBase::PortOut NetSimBase::port_out(unsigned) {
  throw std::logic_error(fmt::format("{}: this network's ports cannot be driven from outside", spec().label()));
}
void NetSimBase::set_barrier_k(unsigned) { no_barrier(spec()); }
void NetSimBase::drive_barrier(unsigned, bool, bool, bool) { no_barrier(spec()); }
NetSimBase::BarrierOut NetSimBase::barrier_out(unsigned) { no_barrier(spec()); }

LinkProbe& NetSimBase::enable_link_stats() {
  probe_ = std::make_unique<LinkProbe>(spec().shape, spec().pkt_flits);
  return *probe_;
}

void NetSimBase::start(const NetRunConfig& rc) {
  engine_.configure(rc);
  reset_model();
  if (probe_) {
    probe_->reset();
    probe_->set_window(0, UINT64_MAX);
  }
}

NetStats NetSimBase::run(const NetRunConfig& rc) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const double c0 = process_cpu_s();
  auto last_report = t0;
  start(rc);
  NetEngine& e = engine_;
  const uint64_t end = rc.warmup + rc.measure;
  if (probe_) probe_->set_window(rc.warmup, end);
  const bool skip = rc.skip_idle && rc.ej_ready_prob >= 1.0;
  uint64_t empty_since = 0, no_skip_before = 0;
  // with nothing outstanding for kIdleQuiet cycles and nothing due before T: on at T
  auto skip_idle = [&](uint64_t limit) {
    if (!skip) return;
    if (e.outstanding()) {
      empty_since = UINT64_MAX;
      return;
    }
    if (empty_since == UINT64_MAX) empty_since = e.now();
    if (e.now() - empty_since < kIdleQuiet || e.now() < no_skip_before) return;
    const uint64_t t = std::min(e.next_creation(), limit);
    if (t <= e.now() + kIdleQuiet) {  // soon: step there (and look again only then)
      no_skip_before = t;
      return;
    }
    if (probe_) probe_->idle_cycles(e.now(), t);
    e.skip_to(t);
  };
  // every few seconds: what runs, where it is, what is left (the window's end is known; the
  // drain's is not)
  auto report = [&](const char* phase) {
    if (!rc.progress || (e.now() & 0xFF) != 0) return;
    const auto t = clock::now();
    if (t - last_report < std::chrono::seconds(3)) return;
    last_report = t;
    const double el = std::chrono::duration<double>(t - t0).count();
    const uint64_t now = e.now(), run = now - e.stats().skipped;
    std::string where = fmt::format("cycle {}", now);
    if (now < end) {
      const double rate = static_cast<double>(run) / el;  // cycles simulated per second
      where += fmt::format(" of {} ({:.0f}%, ~{:.0f} s to the window's end at {:.0f} cycles/s)", end,
                           100.0 * static_cast<double>(now) / static_cast<double>(end),
                           static_cast<double>(end - now) / std::max(rate, 1.0), rate);
    }
    if (e.stats().skipped) where += fmt::format(", {} idle cycles skipped", e.stats().skipped);
    std::fprintf(stderr, "  [%s] %s: %s, %llu packets outstanding (%.0f s)\n", e.stats().label.c_str(), phase, where.c_str(),
                 static_cast<unsigned long long>(e.outstanding()), el);
  };
  while (e.now() < end) {
    skip_idle(end);
    if (e.now() >= end) break;
    advance();
    report(e.now() < rc.warmup ? "warm-up" : "measure");
  }
  while (e.tagged_outstanding() && e.now() < end + rc.drain_limit) {
    advance();
    report("drain");
  }
  e.stats().tagged_drained = e.tagged_outstanding() == 0;
  e.stats().stable = e.stats().tagged_drained && e.stats().keeps_up();
  // a point that only fell short of the offered load is drained too (every tagged packet arrived)
  const bool drain = rc.final_drain == NetRunConfig::Drain::always ||
                     (rc.final_drain == NetRunConfig::Drain::if_stable && e.stats().tagged_drained);
  if (drain) {
    e.set_generation(false);
    while (e.outstanding()) {
      advance();
      report("final drain");
    }
    e.checker().check_drained(e.now());
    e.stats().drained = true;
  }
  e.sample_ages();
  const RouterWaits w = router_waits();
  e.stats().max_wait = w.max_wait;
  e.stats().hold_cycles = w.hold_cycles;
  NetStats s = e.stats();
  s.cycles = e.now();
  s.wall_s = std::chrono::duration<double>(clock::now() - t0).count();
  s.cpu_s = process_cpu_s() - c0;
  return s;
}

uint64_t NetSimBase::run_until_drained(uint64_t max_cycles) {
  NetEngine& e = engine_;
  const uint64_t t0 = e.now();
  while (e.outstanding()) {
    if (e.now() - t0 >= max_cycles)
      throw Timeout(fmt::format("{}: {} packets still outstanding after {} cycles\n{}", spec().label(), e.outstanding(),
                                max_cycles, e.dump()));
    advance();
  }
  e.checker().check_drained(e.now());
  return e.now() - t0;
}

namespace {

std::string strip_prefix(const std::string& m) {
  const std::string p = "Vnet_mesh_";
  return m.rfind(p, 0) == 0 ? m.substr(p.size()) : m;
}

}  // namespace

namespace {
// A model's NetSpec from its parameters (the module defaults where a -G is absent): a split mesh
// (META Threads = T) is T blocks of K0 x K1/T routers, so its network is T times its -GK1. The
// default run-time depth is 2 packets (the bubble rule's minimum on a torus), Dims in ADBR (the DBFC
// minimum), at most BufPkts.
NetSpec spec_of(const ModelEntry<NetMake>& e) {
  NetSpec s;
  s.model = e.name;
  const auto dims = static_cast<unsigned>(e.param("Dims", 2));
  const auto threads = static_cast<unsigned>(e.param("Threads", 1));
  const auto k0 = static_cast<unsigned>(e.param("K0", 1)), k1 = static_cast<unsigned>(e.param("K1", 1)) * threads,
             k2 = static_cast<unsigned>(e.param("K2", 1));
  s.shape = dims == 3 ? MeshShape(k0, k1, k2) : MeshShape(k0, k1);
  if (e.param("Torus", 0)) s.shape = s.shape.as_torus();
  s.mode = static_cast<NetMode>(e.param("Mode", 0));
  s.pkt_flits = static_cast<unsigned>(e.param("PktFlits", 5));
  s.flit_bits = static_cast<unsigned>(e.param("FlitW", 256));
  s.buf_max = static_cast<unsigned>(e.param("BufPkts", 2));
  s.threads = threads;
  s.barrier = e.param("Barrier", 0) != 0;
  s.buf_pkts = std::min(s.mode == NetMode::adbr ? std::max(2u, dims) : 2u, s.buf_max);
  return s;
}
}  // namespace

const std::vector<NetModelInfo>& net_models() {
  static const std::vector<NetModelInfo> table = [] {
    std::vector<NetModelInfo> t;
    for (const auto& e : net_model_entries()) t.push_back({spec_of(e), e.make});
    return t;
  }();
  return table;
}

std::string net_model_list() {
  std::string s;
  for (const auto& m : net_models())
    s += fmt::format("{}{} ({}, buffers up to {})", s.empty() ? "" : ", ", m.spec.model, m.spec.label(), m.spec.buf_max);
  return s.empty() ? "none (rtl/router/models.cmake declares none)" : s;
}

std::unique_ptr<NetSimBase> make_net(const std::string& model, TraceWindow trace) {
  return make_net(model, 0, std::move(trace));
}

std::unique_ptr<NetSimBase> make_net(const std::string& model, unsigned buf_pkts, TraceWindow trace) {
  for (const auto& m : net_models())
    if (m.spec.model == model || strip_prefix(m.spec.model) == strip_prefix(model))
      return m.make(net_spec(m, buf_pkts), std::move(trace));
  throw std::invalid_argument(fmt::format("no mesh model '{}' is built; built: {}", model, net_model_list()));
}

NetSpec net_spec(const NetModelInfo& m, unsigned buf_pkts) { return buf_pkts ? m.spec.with_buf(buf_pkts) : m.spec; }

const NetModelInfo* find_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts, unsigned threads) {
  const NetModelInfo* best = nullptr;
  for (const auto& m : net_models()) {
    if (!(m.spec.shape == shape) || m.spec.mode != mode || m.spec.threads != threads || m.spec.barrier) continue;
    if (!net_spec(m, buf_pkts).buf_error().empty()) continue;
    if (!best || m.spec.buf_max < best->spec.buf_max) best = &m;
  }
  return best;
}

const NetModelInfo* find_barrier_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts) {
  for (const auto& m : net_models())
    if (m.spec.barrier && m.spec.shape == shape && m.spec.mode == mode && net_spec(m, buf_pkts).buf_error().empty()) return &m;
  return nullptr;
}

std::string barrier_net_list() {
  std::string s;
  for (const auto& m : net_models())
    if (m.spec.barrier) s += fmt::format("{}{} {} (buffers up to {})", s.empty() ? "" : ", ", m.spec.shape.name(), mode_name(m.spec.mode), m.spec.buf_max);
  return (s.empty() ? std::string("none") : s) + bench_models_hint();
}

std::unique_ptr<NetSimBase> make_barrier_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts, TraceWindow trace) {
  if (const NetModelInfo* m = find_barrier_net(shape, mode, buf_pkts)) return m->make(net_spec(*m, buf_pkts), std::move(trace));
  throw std::invalid_argument(fmt::format("no {} {} network with the multiphase barrier{} is built; built: {} (a new one is one line "
                                          "in rtl/router/models.cmake)",
                                          shape.name(), mode_name(mode),
                                          buf_pkts ? fmt::format(" that runs {}-packet buffers", buf_pkts) : "", barrier_net_list()));
}

const std::vector<NetModelInfo>& net_blocks() {
  static const std::vector<NetModelInfo> table = [] {
    std::vector<NetModelInfo> t;
    for (const auto& e : net_block_entries()) {
      NetSpec s = spec_of(e);
      s.block = s.shape.k;
      t.push_back({s, e.make});
    }
    return t;
  }();
  return table;
}

NetSpec joined_spec(const NetModelInfo& m, const MeshShape& shape, unsigned buf_pkts, unsigned threads) {
  NetSpec s = net_spec(m, buf_pkts);
  s.shape = shape;
  s.threads = threads;
  return s;
}

std::string joined_error(const NetSpec& s) {
  const MeshShape& sh = s.shape;
  const std::array<unsigned, 3> blk = s.model_block();
  for (unsigned d = 0; d < 3; ++d)
    if (sh.torus && sh.k[d] % blk[d] != 0)
      return fmt::format("{}: a torus is tiled by whole blocks: {} does not divide the radix {}", s.label(), blk[d], sh.k[d]);
  const unsigned top = sh.dims - 1, b = blk[top], rows = (sh.k[top] + b - 1) / b;
  if (s.threads == 0 || (s.threads > 1 && (rows % s.threads != 0 || rows * b != sh.k[top])))
    return fmt::format("{}: {} threads need the radix {} of dimension {} in {} equal groups of whole blocks of {}", s.label(),
                       s.threads, sh.k[top], top, s.threads, b);
  return {};
}

const NetModelInfo* find_block(const MeshShape& shape, NetMode mode, unsigned buf_pkts, unsigned threads) {
  const NetModelInfo* best = nullptr;
  for (const auto& m : net_blocks()) {
    const NetSpec& b = m.spec;
    if (b.shape.dims != shape.dims || b.shape.torus != shape.torus || b.mode != mode) continue;
    const NetSpec j = joined_spec(m, shape, buf_pkts, threads);
    if (!j.buf_error().empty() || !joined_error(j).empty()) continue;
    if (!best || b.shape.nodes() > best->spec.shape.nodes()) best = &m;
  }
  return best;
}

std::unique_ptr<NetSimBase> make_joined(const MeshShape& shape, NetMode mode, unsigned buf_pkts, unsigned threads) {
  const NetModelInfo* b = find_block(shape, mode, buf_pkts, threads);
  if (!b)
    throw std::invalid_argument(fmt::format("no block tiles the {} {} network with {}-packet buffers on {} threads", shape.name(),
                                            mode_name(mode), buf_pkts, threads));
  return b->make(joined_spec(*b, shape, buf_pkts, threads), TraceWindow{});
}

std::vector<NetMode> net_modes_for(const MeshShape& shape, unsigned threads) {
  std::vector<NetMode> r;
  for (NetMode m : {NetMode::adbr, NetMode::dor_vct, NetMode::dor_wh})
    if (find_net(shape, m, 0, threads) || find_block(shape, m, 0, threads)) r.push_back(m);
  return r;
}

std::unique_ptr<NetSimBase> make_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts, unsigned threads,
                                     TraceWindow trace) {
  if (const NetModelInfo* m = find_net(shape, mode, buf_pkts, threads)) return m->make(net_spec(*m, buf_pkts), std::move(trace));
  if (const NetModelInfo* b = find_block(shape, mode, buf_pkts, threads))
    return b->make(joined_spec(*b, shape, buf_pkts, threads), std::move(trace));
  throw std::invalid_argument(net_unavailable(shape, mode, buf_pkts, threads));
}

namespace {
std::string block_list() {
  std::string s;
  for (const auto& m : net_blocks())
    s += fmt::format("{}{} ({}{}, {} {}, buffers up to {})", s.empty() ? "" : ", ", m.spec.model, m.spec.shape.dims, "-D",
                     m.spec.shape.torus ? "torus" : "mesh", mode_name(m.spec.mode), m.spec.buf_max);
  return s.empty() ? "none" : s;
}
}  // namespace

std::string net_unavailable(const MeshShape& shape, NetMode mode, unsigned buf_pkts, unsigned threads) {
  if (find_net(shape, mode, buf_pkts, threads) || find_block(shape, mode, buf_pkts, threads)) return {};
  for (const auto& m : net_models())  // a model of this network exists: the depth is the reason
    if (!m.spec.barrier && m.spec.shape == shape && m.spec.mode == mode && m.spec.threads == threads && buf_pkts != 0 &&
        !m.spec.with_buf(buf_pkts).buf_error().empty())
      return m.spec.with_buf(buf_pkts).buf_error();
  if (buf_pkts != 0)  // a block would tile it at the default depth: the depth is the reason
    if (const NetModelInfo* b = find_block(shape, mode, 0, threads)) return joined_spec(*b, shape, buf_pkts, threads).buf_error();
  std::string why;
  if (shape.torus && mode != NetMode::dor_vct) {
    why = " (a torus runs DOR-VCT with the bubble rule only)";
  } else if (threads > 1) {  // a block of this mode tiles it on one thread: the threads are the reason
    if (const NetModelInfo* b = find_block(shape, mode)) why = fmt::format(" ({})", joined_error(joined_spec(*b, shape, 0, threads)));
  }
  return fmt::format("no {} {} mesh model{}{} is built, and no block tiles it{}; built: models {}; blocks {}", shape.name(),
                     mode_name(mode), buf_pkts ? fmt::format(" that runs {}-packet buffers", buf_pkts) : "",
                     threads > 1 ? fmt::format(" split for {} threads", threads) : "", why, net_model_list(), block_list());
}

}  // namespace hpcnet::sim
