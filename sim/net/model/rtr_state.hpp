// sim/net/model/rtr_state.hpp: reading a Verilated router model: its ports (scalars and VlWide alike)
// and the routers' public state (rtl/router/rtr_router.sv, /*verilator public_flat_rd*/) of a
// whole mesh (net_mesh's u_net) or of a block (rtr_router itself): the watchdog's dump of the
// blocked buffers and the link statistics' sampler (net_linkstats.hpp). Both take the block's
// router count and a map from its routers to the network's node ids (-1: a router of the block
// outside the network, net_joined.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "sim/net/net_types.hpp"
#include "sim/net/stats/net_linkstats.hpp"

namespace hpcnet::sim {

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

template <class T>
inline void zero(T& v) {
  if constexpr (std::is_integral_v<bare_t<T>>)
    v = 0;
  else
    for (size_t i = 0; i < sizeof(v) / sizeof(uint32_t); ++i) v.data()[i] = 0;
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

// The widths of rtr_router's localparams for a model of this spec (its BufPkts is buf_max).
struct RtrLayout {
  unsigned dims, nn, np, pf, ns, slotw, depth, idxw, posw, cntw, credw, infow, inw, lim;
  bool wh;
  static unsigned clog2(unsigned v) {
    unsigned b = 0;
    while ((1u << b) < v) ++b;
    return b;
  }
  explicit RtrLayout(const NetSpec& sp)
      : dims(sp.shape.dims), nn(2 * dims), np(nn + 1), pf(sp.pkt_flits), ns(sp.mode == NetMode::dor_wh ? 1 : sp.buf_max),
        slotw(ns > 1 ? clog2(ns) : 1), depth(sp.buf_max * pf), idxw(depth > 1 ? clog2(depth) : 1),
        posw(pf > 1 ? clog2(pf) : 1), cntw(clog2(depth + 1)),
        credw(clog2((sp.mode == NetMode::dor_wh ? depth : sp.buf_max) + 1)), infow(2 * dims + 5), inw(clog2(np)),
        lim(sp.mode == NetMode::dor_wh ? sp.buf_pkts * pf : sp.buf_pkts), wh(sp.mode == NetMode::dor_wh) {}
};

// The longest wait of a packet still waiting for its grant in one of the `routers` routers of a
// model (cycles since its head was written into the input buffer, DOR-WH: since it reached the
// FIFO's front), and the longest wait of a granted one so far (rtr_router's cyc_q, stamp_q, wait_q,
// maxwait_q; docs/router.md#starvation-freedom).
template <class Root>
uint64_t rtr_max_wait(const NetSpec& sp, const Root& st, unsigned routers) {
  using netport::field;
  const RtrLayout L(sp);
  const auto& stamp_q = HPCNET_RTR_STATE(st, stamp_q);
  const auto& wait_q = HPCNET_RTR_STATE(st, wait_q);
  const auto& cnt_q = HPCNET_RTR_STATE(st, cnt_q);
  const auto& busy_q = HPCNET_RTR_STATE(st, busy_q);
  const uint32_t cyc = HPCNET_RTR_STATE(st, cyc_q);
  uint64_t w = HPCNET_RTR_STATE(st, maxwait_q);
  for (unsigned r = 0; r < routers; ++r)
    for (unsigned p = 0; p < L.np; ++p)
      for (unsigned s = 0; s < L.ns; ++s) {
        const bool waiting = L.wh ? field(cnt_q[r], p * L.cntw, L.cntw) != 0 && !field(busy_q[r], p, 1)
                                  : field(wait_q[r], p * L.ns + s, 1) != 0;
        if (waiting) w = std::max<uint64_t>(w, static_cast<uint32_t>(cyc - stamp_q[(r * L.np + p) * L.ns + s]));
      }
  return w;
}

// One model's routers into a network's figures (NetSimBase::RouterWaits): the longest wait of a
// granted packet (rtr_max_wait) and the cycles its injection ports were held (holdcyc_q), each the
// largest over the models so far.
template <class Root>
void fold_rtr_waits(const NetSpec& sp, const Root& st, unsigned routers, uint64_t& max_wait, uint64_t& hold_cycles) {
  max_wait = std::max<uint64_t>(max_wait, rtr_max_wait(sp, st, routers));
  hold_cycles = std::max<uint64_t>(hold_cycles, HPCNET_RTR_STATE(st, holdcyc_q));
}

// After reset: the credits a model's outputs advertise are those of the run-time depth (the
// depth took effect); std::logic_error naming `driver` otherwise.
template <class Root>
void check_reset_credits(const NetSpec& sp, const RtrLayout& L, const Root& st, const char* driver) {
  const unsigned got = HPCNET_RTR_STATE(st, credlim_q);
  if (got != L.lim)
    throw std::logic_error(fmt::format("{}: {}: a model advertises {} credits per output after reset, expected {}", driver,
                                       sp.label(), got, L.lim));
}

// The routers of one model with state, appended to `out` (at most 64 in all, counted in `shown`):
// every router with a packet buffered, an output in use or credits missing.
template <class Root, class Map>
void dump_rtr_block(const NetSpec& sp, const Root& st, unsigned routers, Map node_of, std::string& out, unsigned& shown) {
  using netport::field;
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
  const RtrLayout L(sp);
  const unsigned dims = L.dims, nn = L.nn, np = L.np, pf = L.pf, ns = L.ns, slotw = L.slotw, depth = L.depth;
  const unsigned idxw = L.idxw, posw = L.posw, cntw = L.cntw, credw = L.credw, infow = L.infow, inw = L.inw;
  const unsigned lim = L.lim;
  const bool wh = L.wh;
  auto port = [&](unsigned p) { return port_name(p, dims); };
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
  for (unsigned r = 0; r < routers; ++r) {
    const int node = node_of(r);
    if (node < 0) continue;
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
    const auto c = sp.shape.coords(static_cast<unsigned>(node));
    out += fmt::format("  router {} ({},{}{}):{}{}{}\n", node, c[0], c[1], dims > 2 ? fmt::format(",{}", c[2]) : "",
                       ins, outs.empty() ? "" : "\n    out" + outs, skid ? "\n    ejection skid register full" : "");
    if (++shown == 64) {
      out += "  ... (first 64 routers with state shown)\n";
      return;
    }
  }
}


// One sample of the routers of one model into the probe (net_linkstats.hpp: what is counted);
// `count`: the sampled cycle is in the probe's window.
template <class Root, class Map>
void sample_rtr_block(const RtrLayout& L, const Root& st, unsigned routers, Map node_of, LinkProbe& probe, bool count) {
  using netport::field;
  const auto& occ_q = HPCNET_RTR_STATE(st, occ_q);
  const auto& wait_q = HPCNET_RTR_STATE(st, wait_q);
  const auto& busy_q = HPCNET_RTR_STATE(st, busy_q);
  const auto& rptr_q = HPCNET_RTR_STATE(st, rptr_q);
  const auto& cnt_q = HPCNET_RTR_STATE(st, cnt_q);
  for (unsigned r = 0; r < routers; ++r) {
    const int node = node_of(r);
    if (node < 0) continue;
    const uint64_t busy = L.wh ? field(busy_q[r], 0, L.np) : 0;
    for (unsigned p = 0; p < L.np; ++p) {
      LinkProbe::Input& in = probe.input(static_cast<unsigned>(node), p);
      if (!L.wh) {
        const auto occ = static_cast<uint8_t>(field(occ_q[r], p * L.ns, L.ns));
        const auto wt = static_cast<uint8_t>(field(wait_q[r], p * L.ns, L.ns));
        if (count) {
          in.flits += static_cast<uint64_t>(__builtin_popcount(occ & ~in.occ & 0xFFu)) * L.pf;
          in.occupancy += static_cast<uint64_t>(__builtin_popcount(occ));
          in.blocked += (wt & in.wait) != 0;
        }
        in.occ = occ;
        in.wait = wt;
      } else {
        const auto cnt = static_cast<uint16_t>(field(cnt_q[r], p * L.cntw, L.cntw));
        const auto rp = static_cast<uint16_t>(field(rptr_q[r], p * L.idxw, L.idxw));
        const bool waiting = cnt != 0 && !(busy >> p & 1);
        if (count) {
          const unsigned reads = (rp + L.depth - in.rptr) % L.depth;  // flits read since the last sample
          in.flits += cnt + reads - in.cnt;
          in.occupancy += cnt;
          in.blocked += waiting && in.waiting;
        }
        in.cnt = cnt;
        in.rptr = rp;
        in.waiting = waiting;
      }
    }
  }
  (void)busy_q;
}

// The routers of a network of `blocks` models (root_of(b): model b's root, node_of(b, r): router r
// of block b's node id or -1) for the watchdog.
template <class RootOf, class Map>
std::string dump_routers(const NetSpec& sp, unsigned blocks, unsigned routers, RootOf root_of, Map node_of) {
  const unsigned lim = sp.mode == NetMode::dor_wh ? sp.buf_pkts * sp.pkt_flits : sp.buf_pkts;
  std::string out = fmt::format("routers ({}; input buffers of {} packets, {} credits per output when idle):\n",
                                sp.label(), sp.buf_pkts, lim);
  unsigned shown = 0;
  for (unsigned b = 0; b < blocks && shown < 64; ++b)
    dump_rtr_block(sp, root_of(b), routers, [&](unsigned r) { return node_of(b, r); }, out, shown);
  if (!shown) out += "  every buffer empty, every output idle\n";
  return out;
}
// One sample of every block into the probe.
template <class RootOf, class Map>
void sample_routers(const RtrLayout& L, unsigned blocks, unsigned routers, RootOf root_of, Map node_of, LinkProbe& probe,
                    bool count) {
  for (unsigned b = 0; b < blocks; ++b)
    sample_rtr_block(L, root_of(b), routers, [&](unsigned r) { return node_of(b, r); }, probe, count);
  if (count) probe.counted_cycle();
}

}  // namespace hpcnet::sim
