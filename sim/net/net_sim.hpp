// sim/net/net_sim.hpp: a Verilated mesh (net_mesh) driven by the NetEngine.
//
// NetSimBase is the model-independent part: the run methodology (warm-up, measurement, drain),
// scripted runs, speed. NetSim<V> drives one model class V (all Vnet_mesh_* classes have the same
// port names, only their widths differ) through a Harness<V>, so one code path serves every mesh.
// make_net() finds a built model by name or by (shape, mode, buffer depth); the table of built
// models is generated at configure time from the Vnet_mesh_* models in rtl/*/models.cmake. A
// shape with no model of its own is joined from block models (Vnet_blk_*, net_joined.hpp).
// Per-link and per-router statistics: enable_link_stats() (net_linkstats.hpp).
//
// Buffer depth: a model is built with BufPkts packet slots per input (NetSpec::buf_max) and runs
// with NetSpec::buf_pkts of them (net_mesh's buf_pkts_i, taken during reset); NetSim refuses a
// depth above the model's maximum or below the DBFC minimum with std::invalid_argument.
//
// Watchdog: the message of a Stall (net_engine.hpp) ends with the routers' buffers, read from the
// model's public state (rtr_router.sv, /*verilator public_flat_rd*/): every router with a packet
// in an input buffer, an output in use or credits missing.
//
// Tracing: the TraceWindow argument of make_net(), else the process's request (HPCNET_TRACE or
// the command line, sim/core/trace.hpp); a split mesh traces its first block only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "sim/core/harness.hpp"
#include "sim/core/model_table.hpp"
#include "sim/net/lockstep.hpp"
#include "sim/net/net_engine.hpp"
#include "sim/net/net_linkstats.hpp"
#include "sim/net/rtr_state.hpp"

namespace hpcnet::sim {

// Starvation freedom of the routers (rtr_router's starve_t_i and wait_arb_i, taken at every
// reset; docs/router.md#starvation-freedom): the backstop threshold T in cycles (0: off) and the
// wait-ordered switch allocation.
struct NetFairness {
  static constexpr unsigned kDefaultT = 1000;
  unsigned starve_t = kDefaultT;
  bool wait_arb = true;
};

class NetSimBase {
 public:
  explicit NetSimBase(const NetSpec& spec) : engine_(spec) {}
  virtual ~NetSimBase() = default;
  NetSimBase(const NetSimBase&) = delete;
  NetSimBase& operator=(const NetSimBase&) = delete;

  const NetSpec& spec() const { return engine_.spec(); }
  NetEngine& engine() { return engine_; }

  virtual void reset_model() = 0;  // synchronous reset with idle injection ports
  virtual void step() = 0;         // one cycle (see NetEngine's protocol)
  // A split mesh: steps its pool ran on the calling thread alone so far (LockstepPool's fallback
  // when no core was free); 0 for a whole mesh.
  virtual uint64_t serial_steps() const { return 0; }

  // The routers' starvation settings from the next reset (start(), run()) on.
  void set_fairness(const NetFairness& f) {
    if (f.starve_t > 0xFFFF) throw std::invalid_argument(fmt::format("starvation threshold {} above 65535 cycles", f.starve_t));
    fair_ = f;
  }
  const NetFairness& fairness() const { return fair_; }
  // Since the last reset: the longest wait of a granted packet in one router (cycles since its
  // head was written into the input buffer, DOR-WH: since it reached the FIFO's front) and the
  // cycles the injection ports were held (rtr_router's simulation-only maxwait_q, holdcyc_q).
  struct RouterWaits {
    uint64_t max_wait = 0, hold_cycles = 0;
  };
  virtual RouterWaits router_waits() { return {}; }

  // The multiphase barrier's ports (spec().barrier: net_mesh with Barrier = 1; docs/barrier.md).
  // set_barrier_k: K, the number of phases of a half barrier (taken at each enter). Per node n and
  // cycle, before step(): drive_barrier sets its enter request (full: a full barrier) and its
  // readiness to leave; barrier_out reads the unit's registered outputs (the state after the last
  // edge: the handshakes of the coming edge are enter_valid && enter_ready, leave_valid &&
  // leave_ready). A network without the barrier throws std::logic_error.
  struct BarrierOut {
    bool enter_ready = false, leave_valid = false, busy = false;
    unsigned phase = 0;  // phases completed in the current barrier
  };
  virtual void set_barrier_k(unsigned k);
  virtual void drive_barrier(unsigned n, bool enter_valid, bool full, bool leave_ready);
  virtual BarrierOut barrier_out(unsigned n);

  // Per-link and per-router statistics (net_linkstats.hpp), gathered by run() (in its measurement
  // window) and run_until_drained() (every cycle, unless the probe's window was set after start()).
  // Off by default. enable_link_stats() (again) starts them over.
  LinkProbe& enable_link_stats();
  void disable_link_stats() { probe_.reset(); }
  const LinkProbe* link_probe() const { return probe_.get(); }
  LinkProbe* link_probe() { return probe_.get(); }

  // Reset and start a run with rc (queues empty, creation per rc.traffic).
  void start(const NetRunConfig& rc);
  // A full measurement run (see net_engine.hpp). Throws NetCheckError, Stall, AssertionFailed.
  NetStats run(const NetRunConfig& rc);
  // Step until nothing is outstanding (creation must be off or exhausted); throws Stall via the
  // watchdog, Timeout after max_cycles. Checks that the network is empty. Returns cycles run.
  uint64_t run_until_drained(uint64_t max_cycles = UINT64_MAX);

  // One cycle and, with link statistics on, one sample of the routers' state (run(),
  // run_until_drained() and NetFabric step with it; step() alone samples nothing).
  void advance() {
    step();
    if (probe_) sample_state(*probe_, probe_->counting(engine_.now() - 1));
  }

 protected:
  // The routers' state into the probe (rtr_state.hpp's sampler over every model of the network;
  // a network without router state, tb/net's fake mesh, counts nothing).
  virtual void sample_state(LinkProbe& probe, bool count) {
    if (count) probe.counted_cycle();
  }

  NetEngine engine_;
  std::unique_ptr<LinkProbe> probe_;
  NetFairness fair_;
};

// The proven bounds of the starvation backstop (docs/router.md#starvation-freedom), for
// ejection ports that always accept. With T > 0, a packet waits in one router at most
//   W = T + 1 + Phi * G cycles, Phi = R * (2n+1) * B * (H+1) (packets; DOR-WH: flits, times
//   PktFlits), G = PktFlits + 4,
// R routers, n dimensions, B = buf_pkts, H the diameter. Its age (creation to the tail's
// ejection, source queue of at most Q packets included) is at most
//   A = Q * (W + P + Phi * G + 3) + (H + 1) * (W + P + 2) + P.
// Both are UINT64_MAX when T = 0 (the backstop off: no bound).
uint64_t starvation_wait_bound(const NetSpec& s, unsigned starve_t);
uint64_t starvation_age_bound(const NetSpec& s, unsigned starve_t, uint64_t queue_cap);

// Peak resident memory of this process so far (getrusage), KiB.
long peak_rss_kib();

// A rough wall-clock estimate of `cycles` simulated cycles of network `s` (router-cycles per
// second measured on the project's 2-core machine; a network joined from blocks is slower), to
// say up front what a long run will cost; the progress lines measure the real speed.
double estimate_run_s(const NetSpec& s, uint64_t cycles);

// NetSim<V>: the mesh as one model V (spec.threads = 1: net_mesh), or as spec.threads blocks of
// K0 x K1/threads routers (rtr_router, Ext = 1) stacked along Y, each a model V with its own
// harness, evaluated in parallel by a LockstepPool: after every clock edge a block's thread copies
// its boundary outputs (its decisions: flits on the Y links, credit pulses) into its outbox, and
// at the next cycle the neighbouring block's thread copies them into its inputs, which it
// registers at that edge. The result is the same cycle for cycle as the whole mesh (tb/net checks
// it). docs/net_sim.md, Threads.
template <class V>
class NetSim final : public NetSimBase {
 public:
  NetSim(const NetSpec& spec, TraceWindow trace)
      : NetSimBase(checked(spec)), nb_(spec.threads), bn_(spec.shape.nodes() / spec.threads), pool_(spec.threads) {
    using namespace netport;
    if (kBlock != (nb_ > 1))
      throw std::logic_error(fmt::format("NetSim: {}: a model of a block needs threads > 1, a whole mesh threads 1", spec.label()));
    if (nb_ > 1 && (spec.shape.dims != 2 || spec.shape.k[1] % nb_ != 0 || spec.shape.torus))
      throw std::invalid_argument(
          fmt::format("NetSim: {}: a split mesh is 2-D with K1 a multiple of the threads, and no torus", spec.label()));
    if (nb_ > 1 && trace.enabled())
      throw std::invalid_argument(fmt::format("NetSim: {}: tracing needs the whole mesh in one model (threads 1)", spec.label()));
    for (unsigned b = 0; b < nb_; ++b) h_.push_back(std::make_unique<Harness<V>>(312.5, b == 0 ? std::move(trace) : TraceWindow::off()));
    const size_t data_bits = static_cast<size_t>(bn_) * spec.flit_bits;
    if (bits_of<decltype(V::inj_data_i)>() < data_bits || bits_of<decltype(V::ej_data_o)>() < data_bits ||
        bits_of<decltype(V::inj_valid_i)>() < bn_)
      throw std::logic_error("NetSim: model " + spec.model + " has ports narrower than its spec " + spec.label());
    if constexpr (kBlock) {  // sized and cleared by reset_model()
      for (unsigned b = 0; b < nb_; ++b) {
        moved_.push_back(std::make_unique<Moved>());
        for (auto& box : box_) box.push_back(std::make_unique<Outbox>());
      }
      engine_.set_shards(nb_);  // block b's nodes are shard b, run on block b's thread
    }
    engine_.set_state_dump([this] { return dump_routers(); });
    reset_model();
    // the credits each output advertises after reset: the run-time depth took effect
    const unsigned lim = spec.mode == NetMode::dor_wh ? spec.buf_pkts * spec.pkt_flits : spec.buf_pkts;
    for (auto& h : h_) {
      const unsigned got = HPCNET_RTR_STATE((*h->dut().rootp), credlim_q);
      if (got != lim)
        throw std::logic_error(fmt::format("NetSim: {}: the model advertises {} credits per output after reset, expected {}",
                                           spec.label(), got, lim));
    }
  }

  Harness<V>& harness(unsigned block = 0) { return *h_[block]; }
  RouterWaits router_waits() override {
    RouterWaits w;
    for (auto& h : h_) {
      w.max_wait = std::max<uint64_t>(w.max_wait, rtr_max_wait(engine_.spec(), *h->dut().rootp, bn_));
      w.hold_cycles = std::max<uint64_t>(w.hold_cycles, HPCNET_RTR_STATE((*h->dut().rootp), holdcyc_q));
    }
    return w;
  }
  uint64_t serial_steps() const override { return nb_ > 1 ? pool_.serial_steps() : 0; }

  void set_barrier_k(unsigned k) override {
    if constexpr (kBarrierPorts) {
      if (spec().barrier) {
        h_[0]->dut().bar_k_i = static_cast<netport::bare_t<decltype(V::bar_k_i)>>(k);
        return;
      }
    }
    NetSimBase::set_barrier_k(k);
  }
  void drive_barrier(unsigned n, bool enter_valid, bool full, bool leave_ready) override {
    if constexpr (kBarrierPorts) {
      if (spec().barrier) {
        V& m = h_[0]->dut();
        netport::set_bit(m.bar_enter_valid_i, n, enter_valid);
        netport::set_bit(m.bar_enter_full_i, n, full);
        netport::set_bit(m.bar_leave_ready_i, n, leave_ready);
        return;
      }
    }
    NetSimBase::drive_barrier(n, enter_valid, full, leave_ready);
  }
  BarrierOut barrier_out(unsigned n) override {
    if constexpr (kBarrierPorts) {
      if (spec().barrier) {
        const V& m = h_[0]->dut();
        return {netport::field(m.bar_enter_ready_o, n, 1) != 0, netport::field(m.bar_leave_valid_o, n, 1) != 0,
                netport::field(m.bar_busy_o, n, 1) != 0, static_cast<unsigned>(netport::field(m.bar_phase_o, 9 * n, 9))};
      }
    }
    return NetSimBase::barrier_out(n);
  }

  void reset_model() override {
    const unsigned k0 = engine_.spec().shape.k[0];
    for (unsigned b = 0; b < nb_; ++b) {
      V& m = h_[b]->dut();
      for (unsigned l = 0; l < bn_; ++l) {
        const unsigned n = b * bn_ + l;
        netport::set_bit(m.inj_valid_i, l, false);
        netport::set_bit(m.ej_ready_i, l, (engine_.ej_ready_bits()[n >> 6] >> (n & 63)) & 1);
      }
      m.buf_pkts_i = static_cast<netport::bare_t<decltype(m.buf_pkts_i)>>(engine_.spec().buf_pkts);
      m.starve_t_i = static_cast<netport::bare_t<decltype(m.starve_t_i)>>(fair_.starve_t);
      m.wait_arb_i = fair_.wait_arb;
      if constexpr (kBlock) {
        m.hold_i = 0;
        // boundary ports: idle inputs; the Y links to the neighbouring blocks exist
        netport::zero(m.in_valid_i);
        netport::zero(m.out_cred_i);
        netport::zero(m.out_en_i);
        for (unsigned x = 0; x < k0; ++x) {
          if (b + 1 < nb_) netport::set_bit(m.out_en_i, (bn_ - k0 + x) * kNN + kYp, true);
          if (b > 0) netport::set_bit(m.out_en_i, x * kNN + kYm, true);
        }
      }
      h_[b]->reset(4);
      if constexpr (kBlock) h_[b]->settle();  // clock low: the next step starts with its edge
    }
    // split mesh: no flit or credit on the links between the blocks after reset
    const unsigned words = engine_.words();
    cycle_ = 0;
    hold_ = false;
    for (auto& mv : moved_) {
      mv->count = 0;
      mv->starve = false;
    }
    for (auto& box : box_) {
      for (auto& ob : box) {
        ob->up.clear(k0, words);
        ob->down.clear(k0, words);
      }
    }
  }

  void step() override {
    if constexpr (kBlock) {
      step_blocks();
    } else {
      step_whole();
    }
  }

 private:
  static constexpr unsigned kNN = 4, kYp = 2, kYm = 3;  // 2-D ports: Y+ = 2, Y- = 3
  static constexpr bool kBlock = requires(V& m) { m.out_cred_i; };  // rtr_router: a block
  static constexpr bool kBarrierPorts = requires(V& m) { m.bar_k_i; };  // net_mesh (a whole network)

  // The whole mesh in one model: the engine's protocol, in order.
  void step_whole() {
    NetEngine& e = engine_;
    V& m = h_[0]->dut();
    e.begin_cycle();
    for (uint32_t n : e.changed()) set_injection(m, n, n);
    e.clear_changed();
    if (e.ej_backpressure()) set_ej_ready(m, 0);
    h_[0]->settle();
    handshakes(m, 0);
    h_[0]->edge();
    e.moved(m.moved_o);
    e.end_cycle();
  }

  // The handshakes of this cycle of model m, whose lane l is node base + l, to the engine:
  // injections accepted, flits ejected (shard base / bn_'s nodes: on that shard's thread).
  void handshakes(const V& m, unsigned base) {
    NetEngine& e = engine_;
    const unsigned words = e.words(), shard = base / bn_;
    const uint64_t* valid = e.inj_valid_bits(shard);
    const uint32_t* ej = m.ej_data_o.data();
    for (unsigned c = 0; c < e.chunks(); ++c) {
      for (uint64_t acc = valid[c] & netport::chunk64(m.inj_ready_o, c); acc; acc &= acc - 1)
        e.accepted(base + c * 64 + static_cast<unsigned>(__builtin_ctzll(acc)));
      const unsigned w = std::min(64u, bn_ - c * 64);
      const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
      const uint64_t ready = bits(e.ej_ready_bits(), static_cast<unsigned>((e.nodes() + 63) / 64), base + c * 64);
      for (uint64_t out = ready & mask & netport::chunk64(m.ej_valid_o, c); out; out &= out - 1) {
        const unsigned l = c * 64 + static_cast<unsigned>(__builtin_ctzll(out));
        e.ejected(base + l, ej + static_cast<size_t>(l) * words);
      }
    }
  }

  // A split mesh: every block's thread does all the work of its nodes, on its own model and its
  // engine shard, so that their memory stays in the cache of the core that runs them and only the
  // links between the blocks cross between cores: it creates its nodes' packets, presents their
  // flits, takes its neighbours' boundary outputs of the last cycle from their outboxes, hands its
  // handshakes to the engine (injections accepted, flits ejected and checked), evaluates the clock
  // edge and the clock low phase, and writes its boundary outputs (its decisions for the next
  // edge) into its outbox. The caller then settles the cycle (NetEngine::end_cycle: deliveries,
  // statistics, watchdog).
  void step_blocks() {
    NetEngine& e = engine_;
    e.begin_serial();
    const unsigned par = static_cast<unsigned>(cycle_ & 1);
    pool_.run([this, par](unsigned b) { run_block(b, par); });
    ++cycle_;
    uint32_t moved = 0;
    bool starve = false;
    for (auto& mv : moved_) {
      moved += mv->count;
      starve = starve || mv->starve;
    }
    hold_ = starve;  // every block's hold_i at the next edge: the blocks' flags ORed
    e.moved(moved);
    e.end_cycle();
  }

  // Block b's share of a cycle (its own thread); par: the outbox parity the neighbours wrote in
  // the last cycle (read now), this cycle's outboxes are the other one.
  void run_block(unsigned b, unsigned par) {
    NetEngine& e = engine_;
    const unsigned words = e.words(), base = b * bn_, k0 = e.spec().shape.k[0];
    V& m = h_[b]->dut();
    e.generate(b);
    for (uint32_t n : e.changed(b)) set_injection(m, n, n - base);
    e.clear_changed(b);
    if (e.ej_backpressure()) set_ej_ready(m, base);
    // the links from the neighbours: their outputs after the last edge
    if (b > 0) take_links(m, box_[par][b - 1]->up, 0, kYp, kYm, words, k0);                // from below
    if (b + 1 < nb_) take_links(m, box_[par][b + 1]->down, (bn_ - k0) * kNN, kYm, kYp, words, k0);  // from above
    // the handshakes of this cycle (the clock is low: the outputs are those after the last edge)
    handshakes(m, base);
    m.hold_i = hold_;  // the starving flags of every block after the last edge, ORed
    h_[b]->edge();
    h_[b]->settle();
    moved_[b]->count = m.moved_o;
    moved_[b]->starve = m.starve_o;
    // this block's boundary outputs for its neighbours (their inputs at the next edge)
    Outbox& ob = *box_[par ^ 1][b];
    if (b > 0) give_links(m, ob.down, 0, kYm, kYp, words, k0);                  // bottom row
    if (b + 1 < nb_) give_links(m, ob.up, (bn_ - k0) * kNN, kYp, kYm, words, k0);  // top row
  }

  // One row of a block's boundary: per router x of the row, the flit on output `out` (valid,
  // data) and the credit pulse of input `cin`.
  struct Row {
    std::vector<uint8_t> valid, cred;
    std::vector<uint32_t> data;
    void clear(unsigned k0, unsigned words) {
      valid.assign(k0, 0);
      cred.assign(k0, 0);
      data.assign(static_cast<size_t>(k0) * words, 0);
    }
  };
  // A block's boundary outputs after an edge: `up` (top row, to block b+1), `down` (bottom row,
  // to block b-1). Cache-line aligned: written by the block's thread, read by its neighbours'.
  struct alignas(64) Outbox {
    Row up, down;
  };
  // A block's progress counter after its edge (cache-line aligned: one per thread).
  struct alignas(64) Moved {
    uint32_t count = 0;
    bool starve = false;  // the block's starving flag after its edge (starve_o)
  };

  // Writes row `first` (port 0 of its first router) of model m into r: output `out`, credits of
  // input `cin`.
  static void give_links(const V& m, Row& r, unsigned first, unsigned out, unsigned cin, unsigned words, unsigned k0) {
    for (unsigned x = 0; x < k0; ++x) {
      const unsigned p = first + x * kNN;
      const bool v = netport::field(m.out_valid_o, p + out, 1);
      r.valid[x] = v;
      if (v) std::copy_n(m.out_data_o.data() + static_cast<size_t>(p + out) * words, words, r.data.data() + static_cast<size_t>(x) * words);
      r.cred[x] = static_cast<uint8_t>(netport::field(m.in_cred_o, p + cin, 1));
    }
  }
  // A neighbour's row r into row `first` of model m: its flits into input `in`, its credits to
  // output `cout`.
  static void take_links(V& m, const Row& r, unsigned first, unsigned in, unsigned cout, unsigned words, unsigned k0) {
    for (unsigned x = 0; x < k0; ++x) {
      const unsigned p = first + x * kNN;
      netport::set_bit(m.in_valid_i, p + in, r.valid[x]);
      if (r.valid[x]) std::copy_n(r.data.data() + static_cast<size_t>(x) * words, words, m.in_data_i.data() + static_cast<size_t>(p + in) * words);
      netport::set_bit(m.out_cred_i, p + cout, r.cred[x]);
    }
  }

  // Node n's injection port (lane l of model m) from the engine.
  void set_injection(V& m, unsigned n, unsigned l) {
    const NetEngine& e = engine_;
    const bool v = e.presenting(n);
    if (v) {
      const unsigned words = e.words();
      std::copy_n(e.stage(n), words, m.inj_data_i.data() + static_cast<size_t>(l) * words);
    }
    netport::set_bit(m.inj_valid_i, l, v);
  }
  // The engine's ejection ready bits of nodes base.. into model m.
  void set_ej_ready(V& m, unsigned base) {
    const uint64_t* r = engine_.ej_ready_bits();
    for (unsigned l = 0; l < bn_; ++l) netport::set_bit(m.ej_ready_i, l, (r[(base + l) >> 6] >> ((base + l) & 63)) & 1);
  }

  static const NetSpec& checked(const NetSpec& s) {
    if (const std::string err = s.buf_error(); !err.empty()) throw std::invalid_argument(err);
    return s;
  }
  // 64 bits of a bit array of n words from bit `lsb` (any alignment)
  static uint64_t bits(const uint64_t* a, unsigned n, unsigned lsb) {
    const unsigned i = lsb >> 6, o = lsb & 63;
    return o == 0 ? a[i] : (a[i] >> o) | (i + 1 < n ? a[i + 1] << (64 - o) : 0);
  }

  // The routers' state for the watchdog and the link statistics (rtr_state.hpp).
  auto root_of() {
    return [this](unsigned b) -> const auto& { return *h_[b]->dut().rootp; };
  }
  auto node_of() const {
    return [this](unsigned b, unsigned r) { return static_cast<int>(b * bn_ + r); };
  }
  std::string dump_routers() { return sim::dump_routers(engine_.spec(), nb_, bn_, root_of(), node_of()); }
  void sample_state(LinkProbe& probe, bool count) override {
    sample_routers(layout_, nb_, bn_, root_of(), node_of(), probe, count);
  }
  const RtrLayout layout_{engine_.spec()};
  const unsigned nb_;  // blocks (threads)
  const unsigned bn_;  // routers per block
  std::vector<std::unique_ptr<Harness<V>>> h_;
  LockstepPool pool_;
  // split mesh: per block its progress counter and its outboxes of the two cycle parities
  std::vector<std::unique_ptr<Moved>> moved_;
  std::vector<std::unique_ptr<Outbox>> box_[2];
  // steps since reset (outbox parity): written by the caller every step, on a line of its own
  // (the blocks' threads read the members above)
  alignas(64) uint64_t cycle_ = 0;
  bool hold_ = false;  // split mesh: the blocks' starving flags ORed (every block's hold_i)
};

// --- the built models ---
struct NetModelInfo {
  NetSpec spec;
  std::unique_ptr<NetSimBase> (*make)(const NetSpec&, TraceWindow);
};
// The generated table (hpcnet_model_table: every Vnet_mesh_* and Vnet_torus_* with its -G parameters
// and Threads) and the specs derived from it, in the order rtl/router/models.cmake adds them.
using NetMake = std::unique_ptr<NetSimBase> (*)(const NetSpec&, TraceWindow);
const std::vector<ModelEntry<NetMake>>& net_model_entries();
const std::vector<NetModelInfo>& net_models();
template <class V>
std::unique_ptr<NetSimBase> make_net_sim(const NetSpec& s, TraceWindow w) {
  return std::make_unique<NetSim<V>>(s, std::move(w));
}
// The model named `model` ("Vnet_mesh_8x8_adbr" or "8x8_adbr") with buffers of buf_pkts packets
// (0: the model's default, 2 or the DBFC minimum); throws std::invalid_argument listing the built
// models when there is none, or naming the limits for a depth the model cannot run.
std::unique_ptr<NetSimBase> make_net(const std::string& model, TraceWindow trace = {});
std::unique_ptr<NetSimBase> make_net(const std::string& model, unsigned buf_pkts, TraceWindow trace = {});
// A model with this shape and mode that runs buffers of buf_pkts packets (0: the default depth),
// split for `threads` threads (1: the whole mesh in one model), the smallest such model (fewest
// slots: the fastest); nullptr if none is built (make_net then joins blocks, find_block).
const NetModelInfo* find_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1);
// The network of this shape and mode with the multiphase barrier built in (Vnet_bar_*, spec.barrier)
// that runs buffers of buf_pkts packets (0: the default depth); nullptr if none is built. find_net
// never returns one (their phase units cost simulation time); make_net(model name) does.
const NetModelInfo* find_barrier_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0);
std::string barrier_net_list();  // "4x4 adbr (buffers up to 3), ..."
// That network, or std::invalid_argument naming the ones built.
std::unique_ptr<NetSimBase> make_barrier_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, TraceWindow trace = {});
// That model's spec with buf_pkts (0: its default depth).
NetSpec net_spec(const NetModelInfo& m, unsigned buf_pkts);
// The whole-mesh (or split) model when one is built (find_net), else the network joined from
// blocks (find_block, NetJoined); throws std::invalid_argument with net_unavailable's
// message when neither exists.
std::unique_ptr<NetSimBase> make_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1,
                                     TraceWindow trace = {});
std::string net_model_list();  // "Vnet_mesh_2x2_adbr (2x2 adbr b2), ..."

// Blocks (Vnet_blk_*, rtl/router/models.cmake) that tile a network of any size (NetJoined,
// net_joined.hpp): spec.shape is the block's shape, spec.block its size.
const std::vector<ModelEntry<NetMake>>& net_block_entries();
const std::vector<NetModelInfo>& net_blocks();
// The block that tiles `shape` in `mode` and runs buffers of buf_pkts packets (0: the default
// depth): the same dimensions and topology (a torus: a block that divides every radix), the
// largest such block (fewest models per cycle); nullptr if none is built.
const NetModelInfo* find_block(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1);
// The spec of the network `shape` joined from block m, with buf_pkts (0: the default depth), on
// `threads` threads.
NetSpec joined_spec(const NetModelInfo& m, const MeshShape& shape, unsigned buf_pkts, unsigned threads = 1);
// Why the blocks of joined spec s cannot build its network (empty if they can): a torus needs
// blocks that divide every radix; T threads need the blocks' rows along the highest dimension
// (Y in 2-D, Z in 3-D) in T equal groups of whole blocks.
std::string joined_error(const NetSpec& s);
// The network joined from blocks even when a whole-mesh model is built (tests, speed comparisons);
// throws std::invalid_argument when no block tiles it.
std::unique_ptr<NetSimBase> make_joined(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1);
// The modes `shape` can run in on `threads` threads: a whole-mesh (or split) model, or a block
// that tiles it. In the order adbr, dorvct, dorwh.
std::vector<NetMode> net_modes_for(const MeshShape& shape, unsigned threads = 1);
// Why make_net(shape, mode, buf_pkts, threads) cannot build the network: a depth below the minimum
// of the mode (DBFC, the bubble rule) or above what the models run, or neither a model nor a block
// for it (the message names what is built); empty if it can.
std::string net_unavailable(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1);

}  // namespace hpcnet::sim
