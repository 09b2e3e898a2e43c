// lu.cpp: SPLASH-2 LU (contiguous blocks) on SharedMemory, with barriers or with ready words
// through the synchronization engine (see lu.hpp).
#include "hpcnet/lu.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "hpcnet/ssm.h"

namespace hpcnet::lu {

namespace {

uint64_t splitmix64(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void check_config(const LuConfig& c) {
  if (c.block == 0 || c.n == 0 || c.n % c.block != 0)
    throw std::invalid_argument(fmt::format("LU: n = {} must be a positive multiple of the block {}", c.n, c.block));
  if (!(c.cycles_per_flop >= 0)) throw std::invalid_argument("LU: cycles_per_flop must be >= 0");
}

// a[0..n) += alpha * b[0..n): 2n flops.
uint64_t daxpy(double* a, const double* b, unsigned n, double alpha) {
  for (unsigned i = 0; i < n; ++i) a[i] += alpha * b[i];
  return 2ull * n;
}

}  // namespace

// --- kernels (SPLASH-2 lu.C, contiguous blocks)

uint64_t lu0(double* a, unsigned n, unsigned stride) {
  uint64_t f = 0;
  for (unsigned k = 0; k < n; ++k)
    for (unsigned j = k + 1; j < n; ++j) {
      a[k + j * stride] /= a[k + k * stride];
      const double alpha = -a[k + j * stride];
      f += 1 + daxpy(&a[k + 1 + j * stride], &a[k + 1 + k * stride], n - k - 1, alpha);
    }
  return f;
}

uint64_t bdiv(double* a, const double* diag, unsigned stride_a, unsigned stride_diag, unsigned dimi, unsigned dimk) {
  uint64_t f = 0;
  for (unsigned k = 0; k < dimk; ++k)
    for (unsigned j = k + 1; j < dimk; ++j) {
      const double alpha = -diag[k + j * stride_diag];
      f += daxpy(&a[j * stride_a], &a[k * stride_a], dimi, alpha);
    }
  return f;
}

uint64_t bmodd(const double* a, double* c, unsigned dimi, unsigned dimj, unsigned stride_a, unsigned stride_c) {
  uint64_t f = 0;
  for (unsigned k = 0; k < dimi; ++k)
    for (unsigned j = 0; j < dimj; ++j) {
      c[k + j * stride_c] /= a[k + k * stride_a];
      const double alpha = -c[k + j * stride_c];
      f += 1 + daxpy(&c[k + 1 + j * stride_c], &a[k + 1 + k * stride_a], dimi - k - 1, alpha);
    }
  return f;
}

uint64_t bmod(const double* a, const double* b, double* c, unsigned dimi, unsigned dimj, unsigned dimk,
              unsigned stridea, unsigned strideb, unsigned stridec) {
  uint64_t f = 0;
  for (unsigned k = 0; k < dimk; ++k)
    for (unsigned j = 0; j < dimj; ++j) {
      const double alpha = -b[k + j * strideb];
      f += daxpy(&c[j * stridec], &a[k * stridea], dimi, alpha);
    }
  return f;
}

// --- host side

BlockMatrix make_matrix(const LuConfig& cfg) {
  check_config(cfg);
  BlockMatrix m;
  m.n = cfg.n;
  m.b = cfg.block;
  m.nb = cfg.n / cfg.block;
  m.data.assign(size_t(cfg.n) * cfg.n, 0.0);
  uint64_t s = cfg.seed;
  for (unsigned c = 0; c < m.n; ++c)
    for (unsigned r = 0; r < m.n; ++r) {
      double v = static_cast<double>(splitmix64(s) >> 11) * 0x1.0p-53;
      if (r == c) v *= 10;
      m.block(r / m.b, c / m.b)[r % m.b + (c % m.b) * m.b] = v;
    }
  return m;
}

uint64_t host_lu(BlockMatrix& m) {
  const unsigned nb = m.nb, b = m.b;
  uint64_t f = 0;
  for (unsigned K = 0; K < nb; ++K) {
    f += lu0(m.block(K, K), b, b);
    for (unsigned I = K + 1; I < nb; ++I) f += bdiv(m.block(I, K), m.block(K, K), b, b, b, b);
    for (unsigned J = K + 1; J < nb; ++J) f += bmodd(m.block(K, K), m.block(K, J), b, b, b, b);
    for (unsigned I = K + 1; I < nb; ++I)
      for (unsigned J = K + 1; J < nb; ++J) f += bmod(m.block(I, K), m.block(K, J), m.block(I, J), b, b, b, b, b, b);
  }
  return f;
}

double relative_residual(const BlockMatrix& a, const BlockMatrix& lu) {
  const unsigned n = a.n;
  double worst = 0, amax = 0;
  for (unsigned r = 0; r < n; ++r)
    for (unsigned c = 0; c < n; ++c) {
      // (L*U)(r, c) = sum over k <= min(r, c) of L(r, k) * U(k, c), L(r, k) = lu(r, k) for k <= r,
      // U(k, c) = lu(k, c) for k < c and 1 for k = c.
      double s = 0;
      const unsigned kmax = std::min(r, c);
      for (unsigned k = 0; k <= kmax; ++k) s += lu.at(r, k) * (k == c ? 1.0 : lu.at(k, c));
      worst = std::max(worst, std::fabs(s - a.at(r, c)));
      amax = std::max(amax, std::fabs(a.at(r, c)));
    }
  return amax > 0 ? worst / amax : worst;
}

// --- parallel versions

ParallelLu::ParallelLu(SharedMemory& mem, Platform& platform, const LuConfig& cfg, std::vector<CpuId> cpus)
    : mem_(mem), plat_(platform), cfg_(cfg), cpus_(std::move(cpus)), p_(static_cast<unsigned>(cpus_.size())) {
  check_config(cfg_);
  if (p_ == 0) throw std::invalid_argument("ParallelLu: no threads");
  rows_ = static_cast<unsigned>(std::sqrt(static_cast<double>(p_)));
  while (rows_ > 1 && p_ % rows_ != 0) --rows_;
  if (rows_ == 0) rows_ = 1;
  cols_ = p_ / rows_;
  nb_ = cfg_.n / cfg_.block;
  b_ = cfg_.block;
  blocks_.resize(size_t(nb_) * nb_);
  for (unsigned J = 0; J < nb_; ++J)
    for (unsigned I = 0; I < nb_; ++I)
      blocks_[size_t(I) + size_t(J) * nb_] = mem_.alloc(size_t(b_) * b_ * sizeof(double), cpus_[owner(I, J)]);
  stats_.resize(p_);
}

void ParallelLu::load(const BlockMatrix& m) {
  if (m.n != cfg_.n || m.b != b_) throw std::invalid_argument("ParallelLu::load: matrix shape differs");
  for (unsigned J = 0; J < nb_; ++J)
    for (unsigned I = 0; I < nb_; ++I) mem_.write(block_addr(I, J), m.block(I, J), size_t(b_) * b_ * sizeof(double));
}

BlockMatrix ParallelLu::result() const {
  BlockMatrix m;
  m.n = cfg_.n;
  m.b = b_;
  m.nb = nb_;
  m.data.assign(size_t(m.n) * m.n, 0.0);
  for (unsigned J = 0; J < nb_; ++J)
    for (unsigned I = 0; I < nb_; ++I) mem_.read(block_addr(I, J), m.block(I, J), size_t(b_) * b_ * sizeof(double));
  return m;
}

unsigned ParallelLu::readers(unsigned I, unsigned J) const {
  std::set<unsigned> r;
  if (I == J) {
    for (unsigned X = I + 1; X < nb_; ++X) {
      r.insert(owner(X, I));
      r.insert(owner(I, X));
    }
  } else if (I > J) {  // column block of step J: read by the interior blocks of its row
    for (unsigned X = J + 1; X < nb_; ++X) r.insert(owner(I, X));
  } else {  // row block of step I: read by the interior blocks of its column
    for (unsigned X = I + 1; X < nb_; ++X) r.insert(owner(X, J));
  }
  r.erase(owner(I, J));
  return static_cast<unsigned>(r.size());
}

void ParallelLu::charge(unsigned id, uint64_t flops) {
  stats_[id].flops += flops;
  ++stats_[id].blocks;
  mem_.compute(static_cast<uint64_t>(std::ceil(static_cast<double>(flops) * cfg_.cycles_per_flop)));
}

void ParallelLu::touch(unsigned id) {
  std::vector<double> buf(size_t(b_) * b_);
  for (unsigned J = 0; J < nb_; ++J)
    for (unsigned I = 0; I < nb_; ++I)
      if (owner(I, J) == id) mem_.read(block_addr(I, J), buf.data(), buf.size() * sizeof(double));
}

void ParallelLu::factor_diag(unsigned id, unsigned K) {
  std::vector<double> d(size_t(b_) * b_);
  const size_t bytes = d.size() * sizeof(double);
  mem_.read(block_addr(K, K), d.data(), bytes);
  charge(id, lu0(d.data(), b_, b_));
  mem_.write(block_addr(K, K), d.data(), bytes);
}

void ParallelLu::do_bdiv(unsigned id, unsigned I, unsigned K) {
  std::vector<double> d(size_t(b_) * b_), a(d.size());
  const size_t bytes = d.size() * sizeof(double);
  mem_.read(block_addr(K, K), d.data(), bytes);
  mem_.read(block_addr(I, K), a.data(), bytes);
  charge(id, bdiv(a.data(), d.data(), b_, b_, b_, b_));
  mem_.write(block_addr(I, K), a.data(), bytes);
}

void ParallelLu::do_bmodd(unsigned id, unsigned K, unsigned J) {
  std::vector<double> d(size_t(b_) * b_), c(d.size());
  const size_t bytes = d.size() * sizeof(double);
  mem_.read(block_addr(K, K), d.data(), bytes);
  mem_.read(block_addr(K, J), c.data(), bytes);
  charge(id, bmodd(d.data(), c.data(), b_, b_, b_, b_));
  mem_.write(block_addr(K, J), c.data(), bytes);
}

void ParallelLu::do_bmod(unsigned id, unsigned I, unsigned J, unsigned K) {
  std::vector<double> a(size_t(b_) * b_), bb(a.size()), c(a.size());
  const size_t bytes = a.size() * sizeof(double);
  mem_.read(block_addr(I, K), a.data(), bytes);
  mem_.read(block_addr(K, J), bb.data(), bytes);
  mem_.read(block_addr(I, J), c.data(), bytes);
  charge(id, bmod(a.data(), bb.data(), c.data(), b_, b_, b_, b_, b_, b_));
  mem_.write(block_addr(I, J), c.data(), bytes);
}

void ParallelLu::run_barrier(unsigned id, const std::function<void()>& barrier) {
  if (id >= p_) throw std::out_of_range("ParallelLu: no such thread");
  LuThreadStats& st = stats_[id];
  st = LuThreadStats{};
  st.start = plat_.now_cycles();
  auto sync = [&] {
    const uint64_t t0 = plat_.now_cycles();
    barrier();
    st.sync_cycles += plat_.now_cycles() - t0;
  };
  for (unsigned K = 0; K < nb_; ++K) {
    if (owner(K, K) == id) factor_diag(id, K);
    sync();
    for (unsigned I = K + 1; I < nb_; ++I)
      if (owner(I, K) == id) do_bdiv(id, I, K);
    for (unsigned J = K + 1; J < nb_; ++J)
      if (owner(K, J) == id) do_bmodd(id, K, J);
    sync();
    for (unsigned I = K + 1; I < nb_; ++I)
      for (unsigned J = K + 1; J < nb_; ++J)
        if (owner(I, J) == id) do_bmod(id, I, J, K);
  }
  st.end = plat_.now_cycles();
}

void ParallelLu::run_putget(unsigned id, uint64_t key_base) {
  if (id >= p_) throw std::out_of_range("ParallelLu: no such thread");
  if (key_base % 8 != 0) throw std::invalid_argument("ParallelLu: key_base must be 8-byte aligned");
  LuThreadStats& st = stats_[id];
  st = LuThreadStats{};
  st.start = plat_.now_cycles();
  std::vector<char> have(size_t(nb_) * nb_, 0);
  auto key = [&](unsigned I, unsigned J) { return key_base + 8 * (uint64_t{I} + uint64_t{J} * nb_); };
  // Wait until block (I, J) is final (no wait for the thread's own blocks: program order).
  auto need = [&](unsigned I, unsigned J) {
    char& h = have[size_t(I) + size_t(J) * nb_];
    if (h || owner(I, J) == id) return;
    const uint64_t t0 = plat_.now_cycles();
    const uint64_t v = ssm_get(key(I, J), 8);
    st.sync_cycles += plat_.now_cycles() - t0;
    const int err = ssm_last_error();
    if (err != 0 || v != uint64_t{std::min(I, J)} + 1)
      throw std::runtime_error(fmt::format("LU put/get: ready word of block ({}, {}) read {} (error {})", I, J, v, err));
    h = 1;
    ++st.gets;
  };
  // Block (I, J) is final: tell its readers (its stores completed before the put is issued;
  // on real hardware the fence orders them).
  auto publish = [&](unsigned I, unsigned J) {
    const unsigned r = readers(I, J);
    if (r == 0) return;
    plat_.fence();
    ssm_put_n(key(I, J), uint64_t{std::min(I, J)} + 1, r);
    ++st.puts;
  };
  for (unsigned K = 0; K < nb_; ++K) {
    if (owner(K, K) == id) {
      factor_diag(id, K);
      publish(K, K);
    }
    for (unsigned I = K + 1; I < nb_; ++I)
      if (owner(I, K) == id) {
        need(K, K);
        do_bdiv(id, I, K);
        publish(I, K);
      }
    for (unsigned J = K + 1; J < nb_; ++J)
      if (owner(K, J) == id) {
        need(K, K);
        do_bmodd(id, K, J);
        publish(K, J);
      }
    for (unsigned I = K + 1; I < nb_; ++I)
      for (unsigned J = K + 1; J < nb_; ++J)
        if (owner(I, J) == id) {
          need(I, K);
          need(K, J);
          do_bmod(id, I, J, K);
        }
  }
  const uint64_t t0 = plat_.now_cycles();
  const int rc = ssm_quiet();
  st.sync_cycles += plat_.now_cycles() - t0;
  if (rc != 0) throw std::runtime_error(fmt::format("LU put/get: a posted put failed ({})", rc));
  st.end = plat_.now_cycles();
}

}  // namespace hpcnet::lu
