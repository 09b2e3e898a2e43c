// test_rtr_route: the route computation (rtr_route: rtr_pkg::route_info + route_sel, as the router
// uses them) against a C++ reference, exhaustively over small cases: every remaining-hop
// combination in a small range x every free-output pattern x every credit value per output
// (2-D), and the 3-D equivalent with a smaller range; plus random large hop counts.
// Reference (docs/router.md): productive directions of the dimensions with hops left; k = their
// number (DBFC: a packet with hops in k dimensions may enter a buffer with >= k free packet
// slots); DOR: the lowest such dimension only, k = 1; no hop left: ejection, k = 0. Admissible:
// candidate, free, credit >= k. Selection: most credits, then the dimension with the fewest hops
// left (Sel = 0), then the lowest port. Torus (DOR-VCT with the bubble rule of Puente et al.): the
// same single port, k = 1 when it is the input port the packet is buffered at (the packet
// continues in its ring), 2 when it enters a ring (from injection or another dimension); every
// input port x every hop combination x every free pattern x credits 0..3.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <string>
#include <type_traits>

#include "Vrtr_route_2d_adbr.h"
#include "Vrtr_route_2d_dor.h"
#include "Vrtr_route_3d_adbr.h"
#include "Vrtr_route_2d_torus.h"
#include "Vrtr_route_3d_torus.h"
#include "sim/net/net_types.hpp"
#include "hpcnet/tb/seed.hpp"

namespace {

struct Ref {
  unsigned omask = 0, k = 0, pref = 0, cand = 0, sel = 0;
};

// hops[d] signed, free: bit per port (local = 2*dims), cred[o] per network output; torus: DOR with
// the bubble rule for a packet in input port `inport`.
Ref reference(unsigned dims, bool adbr, const int* hops, unsigned free, const unsigned* cred, bool torus = false,
              unsigned inport = 0) {
  Ref r;
  unsigned nn = 2 * dims;
  int best_abs = 0;
  bool found = false;
  for (unsigned d = 0; d < dims; ++d) {
    if (hops[d] == 0) continue;
    if (!adbr && found) continue;
    unsigned port = 2 * d + (hops[d] < 0 ? 1 : 0);
    r.omask |= 1u << port;
    r.k = adbr ? r.k + 1 : torus ? (port == inport ? 1 : 2) : 1;
    int a = std::abs(hops[d]);
    if (!found || a < best_abs) {
      best_abs = a;
      r.pref = d;
    }
    found = true;
  }
  if (!found) r.omask = 1u << nn;
  for (unsigned p = 0; p < nn; ++p)
    if ((r.omask >> p & 1) && (free >> p & 1) && cred[p] >= r.k) r.cand |= 1u << p;
  if ((r.omask >> nn & 1) && (free >> nn & 1)) r.cand |= 1u << nn;
  // selection
  int best = -1;
  unsigned bp = 0;
  for (unsigned p = 0; p < nn; ++p) {
    if (!(r.cand >> p & 1)) continue;
    int c = int(cred[p]);
    bool pref = p / 2 == r.pref;
    bool bpref = best >= 0 && bp / 2 == r.pref;
    if (best < 0 || c > best || (adbr && c == best && pref && !bpref)) {
      best = c;
      bp = p;
    }
  }
  if (best >= 0) r.sel = 1u << bp;
  if (r.cand >> nn & 1) r.sel = 1u << nn;
  return r;
}

template <class M>
void check(M& m, unsigned dims, bool adbr, const int* hops, unsigned free, const unsigned* cred, bool torus = false,
           unsigned inport = 0) {
  const std::uint32_t route = hpcnet::sim::pack_route([&](unsigned d) { return d < dims ? hops[d] : 0; });
  std::uint32_t cw = 0;
  for (unsigned p = 0; p < 2 * dims; ++p) cw |= cred[p] << (3 * p);
  m.route_i = route;
  m.ofree_i = static_cast<std::remove_reference_t<decltype(m.ofree_i)>>(free);
  m.credit_i = static_cast<std::remove_reference_t<decltype(m.credit_i)>>(cw);
  // a mesh ignores the input port: give it one that varies with the case
  m.inport_i = static_cast<std::remove_reference_t<decltype(m.inport_i)>>(torus ? inport : free % (2 * dims + 1));
  m.eval();
  Ref r = reference(dims, adbr, hops, free, cred, torus, inport);
  INFO("hops " << hops[0] << "," << hops[1] << "," << (dims > 2 ? hops[2] : 0) << " free 0x"
               << std::hex << free << " credits 0x" << cw << std::dec << (torus ? " torus, input port " : "")
               << (torus ? std::to_string(inport) : std::string()));
  REQUIRE(unsigned(m.omask_o) == r.omask);
  REQUIRE(unsigned(m.k_o) == r.k);
  if (adbr && r.k > 0) REQUIRE(unsigned(m.pref_o) == r.pref);
  REQUIRE(unsigned(m.cand_o) == r.cand);
  REQUIRE(unsigned(m.sel_o) == r.sel);
}

template <class M>
void exhaustive_2d(bool adbr) {
  auto ctx = std::make_unique<VerilatedContext>();
  M m(ctx.get());
  std::array<unsigned, 4> cred{};
  long n = 0;
  for (int x = -3; x <= 3; ++x)
    for (int y = -3; y <= 3; ++y)
      for (unsigned free = 0; free < 32; ++free)
        for (unsigned c = 0; c < 5 * 5 * 5 * 5; ++c) {
          unsigned v = c;
          for (auto& k : cred) {
            k = v % 5;
            v /= 5;
          }
          int hops[3] = {x, y, 0};
          check(m, 2, adbr, hops, free, cred.data());
          ++n;
        }
  REQUIRE(n == 7 * 7 * 32 * 625);
}

// 3-D: hops -2..2 in every dimension; every credit value 0..3 per output with every output free,
// then every free pattern with the credit patterns `cpats` (2 bits per output).
template <class M>
void sweep_3d(M& m, bool adbr, bool torus, unsigned inport, std::initializer_list<unsigned> cpats) {
  std::array<unsigned, 6> cred{};
  for (int x = -2; x <= 2; ++x)
    for (int y = -2; y <= 2; ++y)
      for (int z = -2; z <= 2; ++z) {
        int hops[3] = {x, y, z};
        for (unsigned c = 0; c < 4096; ++c) {
          for (unsigned p = 0; p < 6; ++p) cred[p] = (c >> (2 * p)) & 3;
          check(m, 3, adbr, hops, 0x7f, cred.data(), torus, inport);
        }
        for (unsigned free = 0; free < 128; ++free)
          for (unsigned c : cpats) {
            for (unsigned p = 0; p < 6; ++p) cred[p] = (c >> (2 * p)) & 3;
            check(m, 3, adbr, hops, free, cred.data(), torus, inport);
          }
      }
}

}  // namespace

TEST_CASE("rtr_route 2-D ADBR: candidates with DBFC admission and selection (exhaustive)", "[rtr_route]") {
  exhaustive_2d<Vrtr_route_2d_adbr>(true);
}

TEST_CASE("rtr_route 2-D DOR: one port and one free slot (exhaustive)", "[rtr_route]") {
  exhaustive_2d<Vrtr_route_2d_dor>(false);
}

TEST_CASE("rtr_route 3-D ADBR: candidates with DBFC admission and selection", "[rtr_route]") {
  auto ctx = std::make_unique<VerilatedContext>();
  Vrtr_route_3d_adbr m(ctx.get());
  sweep_3d(m, true, false, 0, {0u, 0x555u, 0xaaau, 0xfffu, 0x1b6u, 0xe49u});
}

TEST_CASE("rtr_route 2-D torus: DOR with the bubble rule (k by input port) exhaustive", "[rtr_route]") {
  auto ctx = std::make_unique<VerilatedContext>();
  Vrtr_route_2d_torus m(ctx.get());
  std::array<unsigned, 4> cred{};
  long n = 0, k2 = 0;
  for (unsigned in = 0; in < 5; ++in)
    for (int x = -3; x <= 3; ++x)
      for (int y = -3; y <= 3; ++y)
        for (unsigned free = 0; free < 32; ++free)
          for (unsigned c = 0; c < 256; ++c) {
            for (unsigned p = 0; p < 4; ++p) cred[p] = (c >> (2 * p)) & 3;
            int hops[3] = {x, y, 0};
            check(m, 2, false, hops, free, cred.data(), true, in);
            k2 += m.k_o == 2;
            ++n;
          }
  REQUIRE(n == 5L * 7 * 7 * 32 * 256);
  REQUIRE(k2 > 0);  // the entering case occurs (and the reference decides each one)
}

TEST_CASE("rtr_route 3-D torus: DOR with the bubble rule (k by input port)", "[rtr_route]") {
  auto ctx = std::make_unique<VerilatedContext>();
  Vrtr_route_3d_torus m(ctx.get());
  for (unsigned in = 0; in < 7; ++in) sweep_3d(m, false, true, in, {0u, 0x555u, 0xaaau, 0xfffu});
}

TEST_CASE("rtr_route: large hop counts (random)", "[rtr_route]") {
  std::mt19937_64 rng(hpcnet::tb::seed("rtr_route large"));
  auto ctx = std::make_unique<VerilatedContext>();
  Vrtr_route_2d_adbr m2(ctx.get());
  Vrtr_route_3d_adbr m3(ctx.get());
  for (int i = 0; i < 200000; ++i) {
    int hops[3];
    for (int& h : hops) h = int(rng() % 255) - 127;  // -127..127 (meshes up to 128 per dimension)
    if (rng() % 4 == 0) hops[rng() % 3] = 0;
    unsigned cred[6];
    for (unsigned& c : cred) c = unsigned(rng() % 8);
    check(m2, 2, true, hops, unsigned(rng() % 32), cred);
    check(m3, 3, true, hops, unsigned(rng() % 128), cred);
  }
}
