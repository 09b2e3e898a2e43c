// hpcnet/lu.hpp: SPLASH-2 LU (contiguous blocks), the application of paper seed 001 §5.2, in two
// synchronization styles on the same shared-memory code (docs/ssm_sw.md):
//
//   run_barrier  the original: per step K, the owner of the diagonal block factors it; BARRIER;
//                owners of the perimeter blocks (column K below, row K right of it) update them;
//                BARRIER; owners of the interior blocks update them. The barrier is a parameter
//                (a software tournament barrier, or the engine's ssm_barrier).
//   run_putget   no global barrier: when a block is final (the diagonal block after lu0, a
//                perimeter block after bdiv/bmodd) its producer ssm_put_n's a "ready" word for it
//                with the number of other threads that read it; each of those ssm_get's the word
//                once before its first use of the block.
//
// Matrix: n x n doubles, pivot-free, in nb x nb blocks of b x b (n a multiple of b), every block
// contiguous and column-major, block (I, J) owned by thread (I mod cols) + (J mod rows) * cols on
// a rows x cols grid of the P threads (rows the largest divisor of P not above sqrt(P)), as in
// SPLASH-2. The factorization leaves L (with its diagonal) and U (unit diagonal, not stored) in
// place. Every block sees the same kernel calls in the same order in all three versions (host,
// barrier, put/get), so their results are bit-identical.
//
// Cost: the blocks live in SharedMemory homed at their owners; each kernel reads its blocks,
// computes, and writes its block back, and the computation is charged cycles_per_flop per
// floating-point operation (a multiply-add counts 2, a division 1).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "hpcnet/platform.hpp"
#include "hpcnet/shmem.hpp"

namespace hpcnet::lu {

struct LuConfig {
  unsigned n = 128;               // matrix order, a multiple of block
  unsigned block = 16;            // block order b
  double cycles_per_flop = 0.25;  // engine cycles (200 MHz) per flop: a ~1 GHz PE at ~0.8 flop/cycle
  uint64_t seed = 1;              // matrix values
};

// Host-side matrix in the SPLASH-2 contiguous-block layout: element (r, c) of block (I, J) at
// data[(I + J*nb)*b*b + r + c*b].
struct BlockMatrix {
  unsigned n = 0, b = 0, nb = 0;
  std::vector<double> data;
  double* block(unsigned I, unsigned J) { return data.data() + (size_t(I) + size_t(J) * nb) * b * b; }
  const double* block(unsigned I, unsigned J) const { return data.data() + (size_t(I) + size_t(J) * nb) * b * b; }
  double at(unsigned row, unsigned col) const { return block(row / b, col / b)[row % b + (col % b) * b]; }
};

// SPLASH-2's InitA: uniform values in [0, 1), the diagonal multiplied by 10 (seeded, portable).
BlockMatrix make_matrix(const LuConfig& cfg);
// The sequential blocked factorization (the kernels below, SPLASH-2 order). Returns the flops.
uint64_t host_lu(BlockMatrix& m);
// max |(L*U)(r, c) - A(r, c)| over the matrix, divided by max |A(r, c)|.
double relative_residual(const BlockMatrix& a, const BlockMatrix& lu);

// SPLASH-2 kernels on column-major blocks; each returns its flop count.
uint64_t lu0(double* a, unsigned n, unsigned stride);
uint64_t bdiv(double* a, const double* diag, unsigned stride_a, unsigned stride_diag, unsigned dimi, unsigned dimk);
uint64_t bmodd(const double* a, double* c, unsigned dimi, unsigned dimj, unsigned stride_a, unsigned stride_c);
uint64_t bmod(const double* a, const double* b, double* c, unsigned dimi, unsigned dimj, unsigned dimk,
              unsigned stridea, unsigned strideb, unsigned stridec);

// Per-thread accounting of one run (engine cycles).
struct LuThreadStats {
  uint64_t start = 0, end = 0;   // cycles at entry and return
  uint64_t sync_cycles = 0;      // in barrier() / ssm_get of ready words / ssm_quiet
  uint64_t flops = 0;
  uint64_t blocks = 0;           // kernel calls
  uint64_t gets = 0, puts = 0;   // ready words (put/get version)
};

class ParallelLu {
 public:
  // cpus[i]: where thread i runs (its blocks are homed there). `platform` gives time and fences.
  ParallelLu(SharedMemory& mem, Platform& platform, const LuConfig& cfg, std::vector<CpuId> cpus);

  // Host side (outside simulated threads): copy a matrix in (removes cached copies) / out.
  void load(const BlockMatrix& m);
  BlockMatrix result() const;

  // Thread side, called by thread id on cpus[id].
  void touch(unsigned id);  // read the thread's own blocks (SPLASH-2 TouchA), before timing
  void run_barrier(unsigned id, const std::function<void()>& barrier);
  // key_base: 8-byte-aligned SSM key space of 8 * nb * nb bytes for the ready words.
  void run_putget(unsigned id, uint64_t key_base);

  unsigned threads() const { return p_; }
  unsigned owner(unsigned I, unsigned J) const { return (I % cols_) + (J % rows_) * cols_; }
  const LuThreadStats& stats(unsigned id) const { return stats_.at(id); }
  // Number of threads other than the owner that read block (I, J) once it is final.
  unsigned readers(unsigned I, unsigned J) const;

 private:
  uint64_t block_addr(unsigned I, unsigned J) const { return blocks_[size_t(I) + size_t(J) * nb_]; }
  void charge(unsigned id, uint64_t flops);
  void factor_diag(unsigned id, unsigned K);
  void do_bdiv(unsigned id, unsigned I, unsigned K);
  void do_bmodd(unsigned id, unsigned K, unsigned J);
  void do_bmod(unsigned id, unsigned I, unsigned J, unsigned K);

  SharedMemory& mem_;
  Platform& plat_;
  LuConfig cfg_;
  std::vector<CpuId> cpus_;
  unsigned p_, rows_, cols_, nb_, b_;
  std::vector<uint64_t> blocks_;  // shared-memory address of block I + J*nb
  std::vector<LuThreadStats> stats_;
};

}  // namespace hpcnet::lu
