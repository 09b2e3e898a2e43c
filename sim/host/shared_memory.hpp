// sim/host/shared_memory.hpp: hpcnet::SharedMemory for simulated threads, with a small
// directory coherence model of the node's PE caches over the host bus (docs/ssm_sw.md).
//
// Model (per 64-byte line, MSI at PE granularity; the threads of one PE share its cache). The
// directory sits across the host bus from every PE; L = one bus crossing (bus write_latency).
//   state      sharers (PEs holding a copy) and owner (the PE holding it Modified, if any).
//              Caches are unbounded: only cold and coherence misses exist.
//   load       hit if the caller's PE holds a copy: hit_cycles. Otherwise a miss: miss_cycles
//              (2L: request to the directory, line back), plus forward_cycles (L) if another PE
//              holds the line Modified (the directory forwards the request to that PE, which
//              sends the line and keeps a shared copy: 3 hops). The PE joins the sharers.
//   store      hit if the caller's PE holds the line Modified: hit_cycles. Otherwise a
//              transaction of miss_cycles, plus forward_cycles when another PE holds it Modified,
//              or invalidate_cycles (L) when other PEs hold shared copies (the directory sends
//              them invalidations and their acknowledgements come to the writer). The PE becomes
//              the owner and sole sharer.
//   invalidate an invalidated PE keeps reading its old copy (hits) until the invalidation reaches
//              it, inval_delay_cycles (2L: request to the directory, invalidation to the PE)
//              after the store was issued; its next load after that misses. So a write reaches a
//              spinning reader on another PE after about 2L + 3L = 5L (200 cycles by default).
//   link       every transaction crosses one node-wide link, one at a time: it starts when the
//              link is free and occupies it link_data_cycles when a line moves (64 B at the
//              bus's 8 B/cycle) or link_ctrl_cycles for an upgrade without data (one bus packet).
//   streaming  read()/write() walk their lines in order; a hit costs hit_cycles of issue time,
//              a miss is issued one cycle after the previous transaction started, so misses
//              overlap and are limited by the link; the call completes with its last line.
//   effect     the directory state changes when an access is issued (later requests see the new
//              owner); the data is read or written when the access completes, and the thread
//              sleeps until then. A store is visible to everybody at its completion.
// Defaults come from the node (from_node): hit 2, miss = bus read_latency + rsp_latency = 80,
// forward = invalidate = bus write_latency = 40, inval_delay = 2 * write_latency = 80,
// link_ctrl = bus spacing = 2, link_data = 64 / memory bytes_per_cycle = 8.
//
// Remote write: a stored word homed at another thread than the caller (homes are given to
// alloc()). Host-side calls (not from a simulated thread) are immediate; a host-side store
// removes every cached copy of its lines (like an I/O write), a host-side load changes nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "hpcnet/shmem.hpp"
#include "sim/host/host_bus.hpp"
#include "sim/host/host_memory.hpp"
#include "sim/core/scheduler.hpp"

namespace hpcnet::sim {

class SsmSystem;

struct CoherenceConfig {
  uint64_t hit_cycles = 2;         // load of a cached line, store to a Modified line
  uint64_t miss_cycles = 80;       // directory transaction: bus read_latency + rsp_latency
  uint64_t forward_cycles = 40;    // extra when another PE holds the line Modified: bus write_latency
  uint64_t invalidate_cycles = 40; // extra for a store while other PEs share it: bus write_latency
  uint64_t inval_delay_cycles = 80;  // store issue to the other PEs losing their copies: 2 * write_latency
  uint64_t link_data_cycles = 8;   // link occupancy of a transaction that moves a line (64 B / 8 B per cycle)
  uint64_t link_ctrl_cycles = 2;   // link occupancy of an upgrade without data (bus spacing)

  // The numbers above, derived from a node's bus and memory configuration.
  static CoherenceConfig from_node(const BusConfig& bus, const MemConfig& mem, uint64_t hit_cycles = 2);
};

class SimSharedMemory final : public SharedMemory {
 public:
  static constexpr uint64_t kLineBytes = 64;

  // Data lives in `mem` (allocated from its physical allocator), time comes from `sched`.
  SimSharedMemory(Scheduler& sched, HostMemory& mem, CoherenceConfig cfg = {});
  // On a node: the node's memory and scheduler, costs from_node(its bus, its memory), and every
  // store counts as progress for the node's watchdog (a thread spinning on loads does not).
  explicit SimSharedMemory(SsmSystem& sys);
  SimSharedMemory(SsmSystem& sys, CoherenceConfig cfg);

  uint64_t alloc(size_t bytes, CpuId home) override;
  uint64_t load64(uint64_t addr) override;
  void store64(uint64_t addr, uint64_t value) override;
  void read(uint64_t addr, void* dst, size_t bytes) override;
  void write(uint64_t addr, const void* src, size_t bytes) override;
  void compute(uint64_t cycles) override;

  ShmStats stats(CpuId cpu) const override;
  ShmStats total() const override;
  void reset_stats() override;

  const CoherenceConfig& config() const { return cfg_; }
  uint64_t link_transactions() const { return link_transactions_; }
  // Called on every store from a simulated thread (watchdog progress).
  void set_progress_hook(std::function<void()> fn) { progress_ = std::move(fn); }
  // The PEs holding a copy of the line of `addr` (bit pe) and its owner (-1: none); for tests.
  uint64_t sharers(uint64_t addr) const;
  int owner(uint64_t addr) const;

 private:
  struct Line {
    uint64_t sharers = 0;      // bit per PE
    int owner = -1;            // PE holding it Modified, -1: none
    CpuId home;
    uint64_t stale = 0;        // PEs invalidated whose invalidation has not arrived yet
    uint64_t stale_until = 0;  // ... they lose their copies at this cycle
  };
  // Issues the accesses to the lines of [addr, addr + bytes) for the calling thread, updates
  // the directory and counters, and returns the cycle the whole access completes.
  uint64_t issue(uint64_t addr, size_t bytes, bool store);
  Line& line(uint64_t addr);
  const Line& line(uint64_t addr) const;
  ShmStats& my_stats();
  void check(uint64_t addr, size_t bytes) const;
  void host_store(uint64_t addr, size_t bytes);

  Scheduler& sched_;
  HostMemory& mem_;
  CoherenceConfig cfg_;
  std::unordered_map<uint64_t, Line> lines_;  // by line address; a line exists iff allocated
  std::vector<ShmStats> stats_;               // pe * num_threads + thread
  uint64_t link_free_ = 0;
  uint64_t link_transactions_ = 0;
  std::function<void()> progress_;
};

}  // namespace hpcnet::sim
