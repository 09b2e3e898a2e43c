// sim/net/net_sim.hpp: a Verilated mesh (net_mesh) driven by the NetEngine.
//
// NetSimBase is the model-independent part: the run methodology (warm-up, measurement, drain),
// scripted runs, speed. NetSim<V> drives one model class V (all Vnet_mesh_* classes have the same
// port names, only their widths differ) through a Harness<V>, so one code path serves every mesh.
// make_net() finds a built model by name or by (shape, mode, buffer depth); the table of built
// models is generated at configure time from the Vnet_mesh_* models in rtl/*/models.cmake.
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

namespace hpcnet::sim {

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

  // Reset and start a run with rc (queues empty, creation per rc.traffic).
  void start(const NetRunConfig& rc);
  // A full measurement run (see net_engine.hpp). Throws NetCheckError, Stall, AssertionFailed.
  NetStats run(const NetRunConfig& rc);
  // Step until nothing is outstanding (creation must be off or exhausted); throws Stall via the
  // watchdog, Timeout after max_cycles. Checks that the network is empty. Returns cycles run.
  uint64_t run_until_drained(uint64_t max_cycles = UINT64_MAX);

 protected:
  NetEngine engine_;
};

// Peak resident memory of this process so far (getrusage), KiB.
long peak_rss_kib();

// --- Verilator port access: scalars (CData/SData/IData/QData) and VlWide<N> alike ---
namespace netport {

template <class T>
using bare_t = std::remove_cv_t<std::remove_reference_t<T>>;

template <class T>
inline uint64_t chunk64(const T& v, unsigned c) {  // bits [64c+63 : 64c]
  if constexpr (std::is_integral_v<bare_t<T>>) {
    return c == 0 ? static_cast<uint64_t>(v) : 0;
  } else {
    constexpr unsigned kWords = sizeof(bare_t<T>) / sizeof(uint32_t);
    const uint32_t* w = v.data();
    const uint64_t lo = 2 * c < kWords ? w[2 * c] : 0;
    const uint64_t hi = 2 * c + 1 < kWords ? w[2 * c + 1] : 0;
    return lo | (hi << 32);
  }
}

template <class T>
inline void set_bit(T& v, unsigned n, bool b) {
  if constexpr (std::is_integral_v<bare_t<T>>) {
    using U = bare_t<T>;
    const U m = static_cast<U>(U{1} << n);
    v = b ? static_cast<U>(v | m) : static_cast<U>(v & static_cast<U>(~m));
  } else {
    uint32_t& w = v.data()[n >> 5];
    const uint32_t m = 1u << (n & 31);
    w = b ? (w | m) : (w & ~m);
  }
}

template <class T>
constexpr size_t bits_of() {
  return sizeof(bare_t<T>) * 8;
}

// Bits [lsb + w - 1 : lsb] of a port or signal (w <= 57, any alignment).
template <class T>
inline uint64_t field(const T& v, unsigned lsb, unsigned w) {
  const uint64_t lo = chunk64(v, lsb / 64) >> (lsb % 64);
  const uint64_t hi = lsb % 64 + w > 64 ? chunk64(v, lsb / 64 + 1) << (64 - lsb % 64) : 0;
  return (lo | hi) & ((uint64_t{1} << w) - 1);
}

}  // namespace netport

// One router state array of a model: net_mesh's u_net (a whole mesh) or the top itself (a block of
// a split mesh, rtr_router with external boundary ports).
#define HPCNET_RTR_STATE(root, f)                                                      \
  ([&]() -> auto& {                                                                    \
    if constexpr (requires { root.net_mesh__DOT__u_net__DOT__##f; })                   \
      return root.net_mesh__DOT__u_net__DOT__##f;                                      \
    else                                                                               \
      return root.rtr_router__DOT__##f;                                                \
  }())

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
  uint64_t serial_steps() const override { return nb_ > 1 ? pool_.serial_steps() : 0; }

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
      if constexpr (kBlock) {
        // boundary ports: idle inputs; the Y links to the neighbouring blocks exist
        zero(m.in_valid_i);
        zero(m.out_cred_i);
        zero(m.out_en_i);
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
    for (auto& mv : moved_) mv->count = 0;
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
    for (auto& mv : moved_) moved += mv->count;
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
    h_[b]->edge();
    h_[b]->settle();
    moved_[b]->count = m.moved_o;
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
  template <class T>
  static void zero(T& v) {
    if constexpr (std::is_integral_v<netport::bare_t<T>>)
      v = 0;
    else
      for (size_t i = 0; i < sizeof(v) / sizeof(uint32_t); ++i) v.data()[i] = 0;
  }
  // 64 bits of a bit array of n words from bit `lsb` (any alignment)
  static uint64_t bits(const uint64_t* a, unsigned n, unsigned lsb) {
    const unsigned i = lsb >> 6, o = lsb & 63;
    return o == 0 ? a[i] : (a[i] >> o) | (i + 1 < n ? a[i + 1] << (64 - o) : 0);
  }

  // The routers' state for the watchdog (layout of rtl/router/rtr_router.sv's state arrays).
  std::string dump_routers() {
    const NetSpec& sp = engine_.spec();
    const unsigned lim = sp.mode == NetMode::dor_wh ? sp.buf_pkts * sp.pkt_flits : sp.buf_pkts;
    std::string out = fmt::format("routers ({}; input buffers of {} packets, {} credits per output when idle):\n",
                                  sp.label(), sp.buf_pkts, lim);
    unsigned shown = 0;
    for (unsigned b = 0; b < nb_ && shown < 64; ++b) dump_block(*h_[b]->dut().rootp, b * bn_, out, shown);
    if (!shown) out += "  every buffer empty, every output idle\n";
    return out;
  }
  template <class Root>
  void dump_block(const Root& st, unsigned first, std::string& out, unsigned& shown) {
    using netport::field;
    const NetSpec& sp = engine_.spec();
    const auto& mem_q = HPCNET_RTR_STATE(st, mem_q);
    const auto& busy_q = HPCNET_RTR_STATE(st, busy_q);
    const auto& rpos_q = HPCNET_RTR_STATE(st, rpos_q);
    const auto& occ_q = HPCNET_RTR_STATE(st, occ_q);
    const auto& wait_q = HPCNET_RTR_STATE(st, wait_q);
    const auto& rslot_q = HPCNET_RTR_STATE(st, rslot_q);
    const auto& info_q = HPCNET_RTR_STATE(st, info_q);
    const auto& rptr_q = HPCNET_RTR_STATE(st, rptr_q);
    const auto& cnt_q = HPCNET_RTR_STATE(st, cnt_q);
    const auto& conn_q = HPCNET_RTR_STATE(st, conn_q);
    const auto& cin_q = HPCNET_RTR_STATE(st, cin_q);
    const auto& credit_q = HPCNET_RTR_STATE(st, credit_q);
    const auto& skv_q = HPCNET_RTR_STATE(st, skv_q);
    // the widths of rtr_router's localparams
    auto clog2 = [](unsigned v) {
      unsigned b = 0;
      while ((1u << b) < v) ++b;
      return b;
    };
    const unsigned dims = sp.shape.dims, nn = 2 * dims, np = nn + 1, pf = sp.pkt_flits;
    const bool wh = sp.mode == NetMode::dor_wh;
    const unsigned ns = wh ? 1 : sp.buf_max, slotw = ns > 1 ? clog2(ns) : 1, depth = sp.buf_max * pf;
    const unsigned idxw = depth > 1 ? clog2(depth) : 1, posw = pf > 1 ? clog2(pf) : 1, cntw = clog2(depth + 1);
    const unsigned credw = clog2((wh ? depth : sp.buf_max) + 1), infow = 2 * dims + 5, inw = clog2(np);
    const unsigned lim = wh ? sp.buf_pkts * pf : sp.buf_pkts;
    static const char* kPort[] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};
    auto port = [&](unsigned p) { return std::string(p == nn ? "local" : kPort[p]); };
    auto ports = [&](uint64_t mask) {
      std::string t;
      for (unsigned p = 0; p < np; ++p)
        if (mask >> p & 1) t += (t.empty() ? "" : ",") + port(p);
      return t.empty() ? std::string("-") : t;
    };
    // a flit of the net_sim format: word 1 = src | dst << 16, word 2 = sequence, word 4 [23:16] = flit index
    auto pkt = [&](size_t idx) {
      const auto& f = mem_q[idx];
      return fmt::format("{}->{} #{} flit {}", field(f, 32, 16), field(f, 48, 16), field(f, 64, 32), field(f, 144, 8));
    };
    for (unsigned r = 0; r < bn_; ++r) {
      const uint64_t busy = field(busy_q[r], 0, np), conn = field(conn_q[r], 0, np);
      std::string ins;
      for (unsigned p = 0; p < np; ++p) {
        const size_t base = (static_cast<size_t>(r) * np + p) * depth;
        std::string slots;
        if (wh) {
          if (const uint64_t c = field(cnt_q[r], p * cntw, cntw))
            slots = fmt::format(" {} flits, head {}{}", c, pkt(base + field(rptr_q[r], p * idxw, idxw)),
                                busy >> p & 1 ? " (being sent)" : " (waiting)");
        } else {
          for (unsigned s = 0; s < ns; ++s) {
            if (!field(occ_q[r], p * ns + s, 1)) continue;
            const uint64_t info = field(info_q[r], (p * ns + s) * infow, infow), k = info >> np & 3;
            const bool sending = (busy >> p & 1) && field(rslot_q[r], p * slotw, slotw) == s;
            slots += fmt::format(" [slot {}: {}, {}, {}]", s, pkt(base + s * pf),
                                 field(wait_q[r], p * ns + s, 1) ? "waiting"
                                 : sending ? fmt::format("being sent, flit {}", field(rpos_q[r], p * posw, posw))
                                           : "granted",
                                 k ? fmt::format("needs {} free slots on {}", k, ports(info & ((1u << np) - 1)))
                                   : std::string("to the ejection port"));
          }
        }
        if (!slots.empty()) ins += fmt::format("\n    in {:5}:{}", port(p), slots);
      }
      std::string outs;
      for (unsigned o = 0; o < np; ++o) {
        const uint64_t c = o < nn ? field(credit_q[r], o * credw, credw) : lim;
        if (!(conn >> o & 1) && c == lim) continue;
        const std::string from =
            conn >> o & 1 ? fmt::format("carries a packet from {}, ", port(unsigned(field(cin_q[r], o * inw, inw)))) : "";
        outs += fmt::format(" {}: {}credits {}/{};", port(o), from, c, lim);
      }
      const bool skid = field(skv_q, r, 1);
      if (ins.empty() && outs.empty() && !skid) continue;
      const auto c = sp.shape.coords(first + r);
      out += fmt::format("  router {} ({},{}{}):{}{}{}\n", first + r, c[0], c[1], dims > 2 ? fmt::format(",{}", c[2]) : "",
                         ins, outs.empty() ? "" : "\n    out" + outs, skid ? "\n    ejection skid register full" : "");
      if (++shown == 64) {
        out += "  ... (first 64 routers with state shown)\n";
        return;
      }
    }
  }

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
// slots: the fastest); nullptr if none is built.
const NetModelInfo* find_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1);
// That model's spec with buf_pkts (0: its default depth).
NetSpec net_spec(const NetModelInfo& m, unsigned buf_pkts);
std::unique_ptr<NetSimBase> make_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1,
                                     TraceWindow trace = {});
std::string net_model_list();  // "Vnet_mesh_2x2_adbr (2x2 adbr b2), ..."
// Why find_net(shape, mode, buf_pkts, threads) finds nothing: a depth below the minimum of the mode
// (DBFC, the bubble rule), or no such model built (the message lists the built ones); empty if
// it finds one.
std::string net_unavailable(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1);

}  // namespace hpcnet::sim
