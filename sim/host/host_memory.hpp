// sim/host/host_memory.hpp: sparse host physical memory, a physical allocator for DMA
// buffers, and the DMA slave that serves the DMA master ports of a node's devices (ports.hpp)
// with one latency, bandwidth and outstanding-request model shared by all of them.
//
// Timing (per request accepted in cycle a, i.e. req_valid && req_ready sampled in cycle a):
//   write: applied to memory at the start of cycle a + latency;
//   read:  data is read at cycle a + latency and rsp_valid is presented from that cycle until
//          rsp_ready; requests complete strictly in acceptance order.
// Bandwidth: a token bucket refilled with bytes_per_cycle each cycle (capped at burst_bytes);
// req_ready is high while tokens > 0 and fewer than max_outstanding requests are pending; an
// accepted request takes len tokens.
// Several ports (one per device of the node): each port completes its own requests in order;
// tokens and max_outstanding are shared. req_ready goes to every port when the outstanding limit
// has room for all of them at once; otherwise to one port a cycle, round-robin among the ports
// that were refused while requesting (so no device starves), or the next in turn if none was.
// With one port this is exactly the single-port model above.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "hpcnet/platform.hpp"
#include "sim/host/ports.hpp"
#include "sim/core/ring.hpp"

namespace hpcnet::sim {

struct MemConfig {
  uint64_t latency = 60;          // cycles from acceptance to write-visible / read response
  double bytes_per_cycle = 8.0;   // 1.6 GB/s HyperTransport at 200 MHz
  double burst_bytes = 32.0;      // token bucket depth
  size_t max_outstanding = 16;    // accepted, not yet completed requests
  uint64_t alloc_base = 0x1000'0000;    // physical allocator arena
  uint64_t alloc_size = 0xF000'0000;    // (sparse: costs nothing until touched)
};

struct MemStats {
  uint64_t dma_reads = 0;
  uint64_t dma_writes = 0;
  uint64_t dma_bytes_read = 0;
  uint64_t dma_bytes_written = 0;
  uint64_t rsp_stall_cycles = 0;  // cycles a read response waited for rsp_ready
  size_t max_pending = 0;
  uint64_t requests() const { return dma_reads + dma_writes; }
};

// One completed DMA request, for observers (tests, logging).
struct DmaEvent {
  unsigned port = 0;       // index of the DMA port (device) that issued it
  uint64_t accepted = 0;   // cycle
  uint64_t completed = 0;  // cycle (write applied / response accepted)
  bool write = false;
  uint64_t addr = 0;
  unsigned len = 0;
  unsigned tag = 0;
};

class HostMemory {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  explicit HostMemory(MemConfig cfg = {});
  const MemConfig& config() const { return cfg_; }

  // Software access (immediate, no timing). Untouched memory reads as zero.
  void read(uint64_t addr, void* dst, size_t n) const;
  void write(uint64_t addr, const void* src, size_t n);
  void fill(uint64_t addr, uint8_t byte, size_t n);
  uint64_t read64(uint64_t addr) const;
  void write64(uint64_t addr, uint64_t value);
  size_t pages_touched() const { return pages_.size(); }

  // Physical allocator: first fit in address order, zeroed, aligned to max(align, 64).
  DmaRegion alloc(size_t bytes, size_t align = 64);
  void free(const DmaRegion& r);
  uint64_t bytes_allocated() const { return allocated_; }

  // DMA slave, called by the node once per cycle with every device's port (always the same
  // ports in the same order): drive() before the devices settle (completes due writes, presents
  // due read responses, sets req_ready), sample() after (handshakes).
  void drive(const std::vector<DmaPort*>& ports, uint64_t now);
  void sample(const std::vector<DmaPort*>& ports, uint64_t now);
  // One port (unit tests, single-device harnesses).
  void drive(DmaPort& port, uint64_t now);
  void sample(const DmaPort& port, uint64_t now);
  bool dma_idle() const { return outstanding_ == 0; }
  size_t dma_pending() const { return outstanding_; }

  void set_observer(std::function<void(const DmaEvent&)> fn) { observer_ = std::move(fn); }
  const MemStats& stats() const { return stats_; }

 private:
  using Page = std::array<uint8_t, kPageBytes>;
  struct Pending {
    DmaEvent ev;
    uint64_t due = 0;
    std::array<uint8_t, DmaPort::kBeatBytes> data{};
  };

  uint8_t* page_for_write(uint64_t addr);
  const uint8_t* page_for_read(uint64_t addr) const;
  void complete(Pending& p, uint64_t now);
  struct PortState {
    explicit PortState(size_t capacity) : pending(capacity) {}
    Ring<Pending> pending;       // this port's accepted requests, in acceptance order
    bool rsp_presented = false;
    bool refused = false;        // requested last cycle without req_ready
  };
  void drive_port(PortState& st, DmaPort& port, uint64_t now);
  void sample_port(unsigned index, PortState& st, const DmaPort& port, uint64_t now);
  void ensure_ports(size_t n);

  MemConfig cfg_;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  std::map<uint64_t, uint64_t> free_;   // start -> bytes
  std::map<uint64_t, uint64_t> used_;   // start -> bytes (rounded)
  uint64_t allocated_ = 0;

  std::vector<PortState> ports_;
  size_t outstanding_ = 0;   // all ports
  unsigned next_ = 0;        // round-robin turn among single offers
  bool all_offered_ = false; // this cycle every port was offered req_ready
  double tokens_;
  uint64_t last_cycle_ = 0;
  std::vector<DmaPort*> one_;  // the single-port calls' list
  std::function<void(const DmaEvent&)> observer_;
  MemStats stats_;
};

}  // namespace hpcnet::sim
