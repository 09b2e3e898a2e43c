// hpcnet/shmem.hpp: ordinary shared memory as user code sees it.
//
// What would be plain loads and stores of a shared array on a real machine (a barrier's flags, a
// matrix block) goes through this interface, so that a simulation can charge the calling thread
// what the access costs on the node (hpcnet::sim::SimSharedMemory: a directory coherence model
// of the PEs' caches over the host bus, docs/ssm_sw.md). Driver code does not use it: the
// driver's control pages are DMA-able memory reached through hpcnet::Platform.
//
// Addresses are byte addresses returned by alloc(); loads and stores are 8 bytes, 8-byte aligned.
// Every call made from a simulated thread blocks that thread until the access completes, and the
// access takes effect at its completion (a store is visible to every thread from then on; a load
// returns the value at that moment): the memory is sequentially consistent. Calls made from
// outside a thread (set-up, checks) are immediate and cost nothing.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "hpcnet/platform.hpp"

namespace hpcnet {

// Per-thread counters. Words are 8 bytes; a transaction is one 64-byte line crossing the bus.
struct ShmStats {
  uint64_t loads = 0;           // words loaded
  uint64_t stores = 0;          // words stored
  uint64_t load_misses = 0;     // load transactions: the PE had no copy of the line
  uint64_t store_misses = 0;    // store transactions: the PE did not hold the line Modified
  uint64_t invalidations = 0;   // copies in other PEs removed by this thread's stores
  uint64_t remote_writes = 0;   // words stored into memory homed at another thread (see alloc)
  uint64_t mem_cycles = 0;      // cycles this thread spent in loads and stores
  uint64_t compute_cycles = 0;  // cycles charged by compute()

  uint64_t misses() const { return load_misses + store_misses; }
  ShmStats& operator+=(const ShmStats& o) {
    loads += o.loads;
    stores += o.stores;
    load_misses += o.load_misses;
    store_misses += o.store_misses;
    invalidations += o.invalidations;
    remote_writes += o.remote_writes;
    mem_cycles += o.mem_cycles;
    compute_cycles += o.compute_cycles;
    return *this;
  }
};

class SharedMemory {
 public:
  virtual ~SharedMemory() = default;

  // A zeroed region of `bytes` (rounded up to whole 64-byte lines, line-aligned), homed at the
  // thread `home`: the region is "locally accessible" to that thread in the sense of Mellor-Crummey
  // and Scott, and a store to it by any other thread counts as a remote write.
  virtual uint64_t alloc(size_t bytes, CpuId home) = 0;

  virtual uint64_t load64(uint64_t addr) = 0;
  virtual void store64(uint64_t addr, uint64_t value) = 0;
  // `bytes` (a multiple of 8) of consecutive words, as one streaming access: the misses of the
  // lines it touches may overlap (see the implementation for the timing).
  virtual void read(uint64_t addr, void* dst, size_t bytes) = 0;
  virtual void write(uint64_t addr, const void* src, size_t bytes) = 0;
  // The calling thread computes for this long without touching shared memory.
  virtual void compute(uint64_t cycles) = 0;

  // Counters of the thread on `cpu`, of all threads, and a reset (e.g. after a warm-up).
  virtual ShmStats stats(CpuId cpu) const = 0;
  virtual ShmStats total() const = 0;
  virtual void reset_stats() = 0;

  double loadd(uint64_t addr) { return std::bit_cast<double>(load64(addr)); }
  void stored(uint64_t addr, double value) { store64(addr, std::bit_cast<uint64_t>(value)); }
  // Spin on a word until it equals `value` (a loop of loads; a cached copy costs a hit per poll).
  void spin_until_equal(uint64_t addr, uint64_t value) {
    while (load64(addr) != value) {
    }
  }
};

}  // namespace hpcnet
