// stencil.cpp: the 2-D Jacobi stencil over the nodes (hpcnet/stencil.hpp).
#include "hpcnet/stencil.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "hpcnet/platform.hpp"
#include "hpcnet/rdma.h"
#include "hpcnet/ssm.h"

namespace hpcnet::stencil {

namespace {

enum Side : unsigned { kNorth = 0, kSouth = 1, kWest = 2, kEast = 3 };
constexpr uint64_t kSlot = 128;  // bytes between halo slots (one packet's block)

uint64_t slot_bytes(const StencilConfig& c) { return std::max<uint64_t>(kSlot, (uint64_t(c.tile) * 8 + kSlot - 1) / kSlot * kSlot); }

// One Jacobi point: the same expression on the host and on the nodes.
double update(double n, double s, double w, double e) { return 0.25 * ((n + s) + (w + e)); }

void check(const StencilConfig& c) {
  if (c.px < 1 || c.py < 1 || c.tile < 1) throw std::invalid_argument("stencil: px, py and tile must be >= 1");
}

}  // namespace

Grid host_jacobi(const StencilConfig& c, std::vector<double>* residuals) {
  check(c);
  Grid g{c.py * c.tile, c.px * c.tile, {}};
  g.data.assign(size_t(g.rows) * g.cols, 0.0);
  std::vector<double> next(g.data.size());
  auto at = [&](int r, int col) -> double {
    if (r < 0) return c.edge;
    if (r >= int(g.rows) || col < 0 || col >= int(g.cols)) return 0.0;
    return g.data[size_t(r) * g.cols + size_t(col)];
  };
  for (unsigned k = 0; k < c.steps; ++k) {
    double res = 0.0;
    for (int r = 0; r < int(g.rows); ++r)
      for (int col = 0; col < int(g.cols); ++col) {
        const double v = update(at(r - 1, col), at(r + 1, col), at(r, col - 1), at(r, col + 1));
        res = std::max(res, std::fabs(v - at(r, col)));
        next[size_t(r) * g.cols + size_t(col)] = v;
      }
    g.data.swap(next);
    if (residuals) residuals->push_back(res);
  }
  return g;
}

NodeResult run_node(const StencilConfig& c, unsigned node, std::vector<uint16_t>& keys, std::vector<uint64_t>& vaddrs) {
  check(c);
  Platform& p = *this_platform();
  NodeResult out;
  const unsigned T = c.tile, x = node % c.px, y = node / c.px;
  const uint64_t sb = slot_bytes(c), hb = uint64_t(T) * 8;
  const uint64_t t_start = p.now_cycles();
  auto fail = [&](int e) {
    if (!out.error && e < 0) out.error = e;
    return e < 0;
  };
  rdma_ep* ep = nullptr;
  if (fail(rdma_open(&ep))) return out;
  // halo slots (4, what the neighbours write) and, for halos above 128 bytes, send slots (4)
  const bool imm = hb <= 128;
  const uint64_t va = rdma_alloc(ep, (imm ? 4 : 8) * sb, 0);
  uint16_t key = 0;
  if (fail(rdma_reg_mr(ep, va, (imm ? 4 : 8) * sb, RDMA_ACCESS_READ | RDMA_ACCESS_WRITE, &key))) return out;
  keys[node] = key;
  vaddrs[node] = va;
  fail(ssm_barrier(c.barrier_addr, 1, 1));  // every node's slots are registered and known

  // neighbour on each side (-1: none) and the slot of theirs my edge goes into
  const std::array<int, 4> nb = {y > 0 ? int(node - c.px) : -1, y + 1 < c.py ? int(node + c.px) : -1,
                                 x > 0 ? int(node - 1) : -1, x + 1 < c.px ? int(node + 1) : -1};
  const std::array<unsigned, 4> their = {kSouth, kNorth, kEast, kWest};
  std::vector<double> u(size_t(T) * T, 0.0), next(u.size());
  std::array<std::vector<double>, 4> ghost, edge;
  for (unsigned s = 0; s < 4; ++s) {
    ghost[s].assign(T, s == kNorth && nb[kNorth] < 0 ? c.edge : 0.0);
    edge[s].assign(T, 0.0);
  }
  const rdma_opts o{0, 0, nullptr, nullptr, -1};
  for (unsigned k = 0; k < c.steps && !out.error; ++k) {
    // 1. halo out
    const uint64_t t0 = p.now_cycles();
    for (unsigned i = 0; i < T; ++i) {
      edge[kNorth][i] = u[i];
      edge[kSouth][i] = u[size_t(T - 1) * T + i];
      edge[kWest][i] = u[size_t(i) * T];
      edge[kEast][i] = u[size_t(i) * T + T - 1];
    }
    for (unsigned s = 0; s < 4; ++s) {
      if (nb[s] < 0) continue;
      const unsigned d = unsigned(nb[s]);
      const rdma_addr remote{keys[d], vaddrs[d] + their[s] * sb};
      if (imm) {
        fail(rdma_write_imm(ep, d, 0, remote, edge[s].data(), unsigned(hb), &o));
      } else {
        rdma_mem_write(ep, va + (4 + s) * sb, edge[s].data(), hb);
        fail(rdma_write(ep, d, 0, remote, rdma_addr{key, va + (4 + s) * sb}, uint32_t(hb), &o));
      }
    }
    fail(rdma_quiet(ep));
    const uint64_t t1 = p.now_cycles();
    // 2. barrier: every halo of this step is in
    fail(ssm_barrier(c.barrier_addr, 1, 1));
    const uint64_t t2 = p.now_cycles();
    for (unsigned s = 0; s < 4; ++s)
      if (nb[s] >= 0) rdma_mem_read(ep, va + s * sb, ghost[s].data(), hb);
    const uint64_t t3 = p.now_cycles();
    // 3. compute
    double res = 0.0;
    auto at = [&](int r, int col) -> double {
      if (r < 0) return ghost[kNorth][size_t(col)];
      if (r >= int(T)) return ghost[kSouth][size_t(col)];
      if (col < 0) return ghost[kWest][size_t(r)];
      if (col >= int(T)) return ghost[kEast][size_t(r)];
      return u[size_t(r) * T + size_t(col)];
    };
    for (int r = 0; r < int(T); ++r)
      for (int col = 0; col < int(T); ++col) {
        const double v = update(at(r - 1, col), at(r + 1, col), at(r, col - 1), at(r, col + 1));
        res = std::max(res, std::fabs(v - at(r, col)));
        next[size_t(r) * T + size_t(col)] = v;
      }
    u.swap(next);
    p.compute(uint64_t(std::llround(c.cycles_per_point * double(T) * T)));
    const uint64_t t4 = p.now_cycles();
    // 4. the global residual
    fail(ssm_reduce(c.reduce_addr, &res, SSM_DOUBLE, SSM_MAX, 1, 1));
    out.residuals.push_back(res);
    const uint64_t t5 = p.now_cycles();
    out.halo += (t1 - t0) + (t3 - t2);
    out.sync += (t2 - t1) + (t5 - t4);
    out.compute += t4 - t3;
  }
  // nobody writes into my slots any more once every node is past its last step
  fail(ssm_barrier(c.barrier_addr, 1, 1));
  rdma_close(ep);
  out.tile = u;
  out.total = p.now_cycles() - t_start;
  return out;
}

Grid gather(const StencilConfig& c, const std::vector<NodeResult>& results) {
  Grid g{c.py * c.tile, c.px * c.tile, {}};
  g.data.assign(size_t(g.rows) * g.cols, 0.0);
  for (unsigned n = 0; n < results.size() && n < c.px * c.py; ++n) {
    const unsigned x = n % c.px, y = n / c.px;
    const std::vector<double>& t = results[n].tile;
    if (t.size() != size_t(c.tile) * c.tile) continue;
    for (unsigned r = 0; r < c.tile; ++r)
      for (unsigned col = 0; col < c.tile; ++col)
        g.data[size_t(y * c.tile + r) * g.cols + x * c.tile + col] = t[size_t(r) * c.tile + col];
  }
  return g;
}

}  // namespace hpcnet::stencil
