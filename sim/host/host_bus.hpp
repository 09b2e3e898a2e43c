// sim/host/host_bus.hpp: the host bus between software threads and a device's MMIO slave.
//
// One FIFO for the whole link, shared by all threads, holding posted writes and reads in issue
// order (so a read is ordered after every earlier write). A request leaves the CPU's posted
// buffer onto the link at depart = max(issue, previous depart + spacing) and is presented to the
// device at depart + write_latency (reads: + read_latency), no earlier than `spacing` cycles
// after the previous request was accepted. Only one read is outstanding at the device; the
// reading thread resumes rsp_latency cycles after mmio_rsp_valid (and not before the device's earlier
// DMA writes are in memory, with order_completions). The posted buffer holds the
// requests that have not departed yet (buffer_entries); a thread issuing into a full buffer
// waits, and waiting threads get the freed entries in arrival order (FIFO, so no CPU starves).
// The link pipeline holds latency/spacing requests; when the device stops accepting, the link
// backs up and then the buffer fills, so back-pressure reaches the writers.
//
// Write-combined writes (write_burst, from Platform::Device::mmio_write_wc): the words of one
// 64-byte line travel as one burst, a single entry of the FIFO that occupies the link for
// wc_burst_cycles instead of spacing (the CPU's WC buffer flushed as one transaction). A burst
// departs like any request, its words are presented back to back (one per cycle, from
// depart + write_latency), and the next request is presented no earlier than wc_burst_cycles
// after the burst's first word was accepted. In general a request occupies the link for its
// `gap` (spacing or wc_burst_cycles): it departs at max(issue, previous depart + previous gap).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/host/ports.hpp"
#include "sim/core/ring.hpp"
#include "sim/core/scheduler.hpp"

namespace hpcnet::sim {

// The writes a device sends towards host memory that a read completion from the same device must
// not pass (PCIe ordering: a completion does not pass posted writes). write_mark() names every
// write posted so far; writes_applied(mark) is true once all of them are in host memory.
class CompletionOrder {
 public:
  virtual ~CompletionOrder() = default;
  virtual uint64_t write_mark() const = 0;
  virtual bool writes_applied(uint64_t mark) const = 0;
};

struct BusConfig {
  uint64_t write_latency = 40;  // issue to presentation at the device
  uint64_t read_latency = 40;   // read request issue to presentation
  uint64_t rsp_latency = 40;    // mmio_rsp_valid to the reading thread resuming
  uint64_t spacing = 2;         // min cycles between consecutive accepted requests (16 B HT packet at 8 B/cycle)
  size_t buffer_entries = 16;   // posted-write buffer (requests issued, not yet on the link)
  uint64_t wc_burst_cycles = 9; // link occupancy of a write-combined 64-byte burst (8 B header + 64 B at 8 B/cycle)
};

struct BusStats {
  uint64_t writes = 0;              // words accepted by the device (a burst's words included)
  uint64_t wc_bursts = 0;           // write-combined bursts whose last word was accepted
  uint64_t reads = 0;               // accepted by the device
  uint64_t read_cycles = 0;         // sum of issue-to-resume times of completed reads
  uint64_t full_stalls = 0;         // times a thread found the buffer full
  uint64_t not_ready_cycles = 0;    // cycles a presented request waited for req_ready
  uint64_t link_cycles = 0;         // link occupancy: the gap (spacing or wc_burst_cycles) of each request accepted
  size_t max_queued = 0;
  uint64_t requests() const { return writes + reads; }
};

class HostBus {
 public:
  HostBus(Scheduler& sched, BusConfig cfg = {});
  const BusConfig& config() const { return cfg_; }

  static constexpr unsigned kBurstWords = 8;  // a 64-byte write-combining line

  // From a simulated thread (no CPU cost charged here; SimPlatform adds it).
  void write64(uint32_t addr, uint64_t value);
  // One write-combined burst: n (1..8) words from addr, all inside one 64-byte line.
  void write_burst(uint32_t addr, const uint64_t* words, unsigned n);
  uint64_t read64(uint32_t addr);  // blocks the thread until the data is back

  // Main loop, once per cycle: drive() before the device settles, sample() after.
  void drive(MmioPort& port, uint64_t now);
  void sample(const MmioPort& port, uint64_t now);

  // A read's data reaches its thread only after the device's writes posted before the response
  // (order: the device's DMA link; none: the response alone decides, as on a bus without DMA).
  void order_completions(const CompletionOrder* order) { order_ = order; }

  bool idle() const { return queue_.empty() && !read_outstanding_ && held_.empty(); }
  size_t queued() const { return queue_.size(); }
  const BusStats& stats() const { return stats_; }

 private:
  struct ReadSlot {
    uint64_t value = 0;
    bool done = false;
  };
  struct Req {
    bool write = false;
    bool burst = false;
    uint32_t addr = 0;           // of word 0
    unsigned count = 1;          // words (a burst: 1..8)
    unsigned done = 0;           // words accepted by the device
    std::array<uint64_t, kBurstWords> data{};
    uint64_t issued = 0;
    uint64_t depart = 0;    // leaves the posted buffer onto the link
    uint64_t ready_at = 0;  // presented to the device
    ReadSlot* slot = nullptr;
    Scheduler::ThreadId reader = 0;
  };
  bool enqueue(const Req& r);  // false when the scheduler is shutting down

  Scheduler& sched_;
  BusConfig cfg_;
  Ring<Req> queue_;
  size_t buffered(uint64_t now) const;  // requests that have not departed at `now`
  std::deque<Scheduler::ThreadId> space_waiters_;  // FIFO of threads waiting for buffer space
  uint64_t gap(const Req& r) const { return r.burst ? cfg_.wc_burst_cycles : cfg_.spacing; }
  uint64_t link_free_ = 0;     // previous depart + its gap
  bool have_depart_ = false;
  bool have_last_ = false;
  uint64_t next_present_ = 0;  // previous request's first accepted word + its gap
  bool read_outstanding_ = false;
  Req outstanding_;
  struct HeldRsp {               // a read response waiting for the writes posted before it
    Scheduler::ThreadId reader = 0;
    uint64_t resume = 0, issued = 0, mark = 0;
  };
  const CompletionOrder* order_ = nullptr;
  std::deque<HeldRsp> held_;
  void resume_reader(Scheduler::ThreadId reader, uint64_t resume, uint64_t issued);
  BusStats stats_;
};

}  // namespace hpcnet::sim
