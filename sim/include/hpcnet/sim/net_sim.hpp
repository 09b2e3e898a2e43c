// hpcnet/sim/net_sim.hpp: a Verilated mesh (net_mesh) driven by the NetEngine.
//
// NetSimBase is the model-independent part: the run methodology (warm-up, measurement, drain),
// scripted runs, speed. NetSim<V> drives one model class V (all Vnet_mesh_* classes have the same
// port names, only their widths differ) through a Harness<V>, so one code path serves every mesh.
// make_net() finds a built model by name or by (shape, mode, buffer depth); the table of built
// models is generated at configure time from the Vnet_mesh_* models in rtl/*/models.cmake.
//
// Tracing: HPCNET_TRACE=file[:first[:last]] (cycles of the harness, reset included) or the
// TraceWindow argument of make_net().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "hpcnet/sim/harness.hpp"
#include "hpcnet/sim/net_engine.hpp"

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

}  // namespace netport

template <class V>
class NetSim final : public NetSimBase {
 public:
  NetSim(const NetSpec& spec, TraceWindow trace) : NetSimBase(spec), h_(312.5, std::move(trace)) {
    using namespace netport;
    const size_t data_bits = static_cast<size_t>(spec.shape.nodes()) * spec.flit_bits;
    if (bits_of<decltype(V::inj_data_i)>() < data_bits || bits_of<decltype(V::ej_data_o)>() < data_bits ||
        bits_of<decltype(V::inj_valid_i)>() < spec.shape.nodes())
      throw std::logic_error("NetSim: model " + spec.model + " has ports narrower than its spec " + spec.label());
    reset_model();
  }

  Harness<V>& harness() { return h_; }

  void reset_model() override {
    V& m = h_.dut();
    const unsigned n = engine_.nodes();
    for (unsigned i = 0; i < n; ++i) {
      netport::set_bit(m.inj_valid_i, i, false);
      netport::set_bit(m.ej_ready_i, i, (engine_.ej_ready_bits()[i >> 6] >> (i & 63)) & 1);
    }
    h_.reset(4);
  }

  void step() override {
    V& m = h_.dut();
    NetEngine& e = engine_;
    const unsigned words = e.words();
    e.begin_cycle();
    uint32_t* inj = m.inj_data_i.data();
    for (uint32_t n : e.changed()) {
      const bool v = e.presenting(n);
      if (v) {
        const uint32_t* s = e.stage(n);
        uint32_t* d = inj + static_cast<size_t>(n) * words;
        for (unsigned i = 0; i < words; ++i) d[i] = s[i];
      }
      netport::set_bit(m.inj_valid_i, n, v);
    }
    e.clear_changed();
    if (e.ej_backpressure()) {
      const uint64_t* r = e.ej_ready_bits();
      for (unsigned i = 0; i < e.nodes(); ++i) netport::set_bit(m.ej_ready_i, i, (r[i >> 6] >> (i & 63)) & 1);
    }
    h_.settle();
    const unsigned chunks = e.chunks();
    const uint64_t* valid = e.inj_valid_bits();
    for (unsigned c = 0; c < chunks; ++c) {
      uint64_t acc = valid[c] & netport::chunk64(m.inj_ready_o, c);
      while (acc) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(acc));
        acc &= acc - 1;
        e.accepted(c * 64 + b);
      }
    }
    const uint64_t* ready = e.ej_ready_bits();
    const uint32_t* ej = m.ej_data_o.data();
    for (unsigned c = 0; c < chunks; ++c) {
      uint64_t out = ready[c] & netport::chunk64(m.ej_valid_o, c);
      while (out) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(out));
        out &= out - 1;
        const unsigned n = c * 64 + b;
        e.ejected(n, ej + static_cast<size_t>(n) * words);
      }
    }
    h_.edge();
    e.end_cycle();
  }

 private:
  Harness<V> h_;
};

// --- the built models ---
struct NetModelInfo {
  NetSpec spec;
  std::unique_ptr<NetSimBase> (*make)(const NetSpec&, TraceWindow);
};
const std::vector<NetModelInfo>& net_models();  // generated: every Vnet_mesh_* in hpcnet_models
// The model named `model` ("Vnet_mesh_8x8_adbr" or "8x8_adbr"); throws std::invalid_argument
// listing the built models when there is none.
std::unique_ptr<NetSimBase> make_net(const std::string& model, TraceWindow trace = trace_from_env());
// The model with this shape, mode and buffer depth (0: the smallest built one).
const NetModelInfo* find_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0);
std::unique_ptr<NetSimBase> make_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0,
                                     TraceWindow trace = trace_from_env());
std::string net_model_list();  // "Vnet_mesh_2x2_adbr (2x2 adbr b2), ..."

}  // namespace hpcnet::sim
