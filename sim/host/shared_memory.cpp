// shared_memory.cpp: the directory coherence model of SimSharedMemory (see the header).
#include "sim/host/shared_memory.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/ssm/ssm_system.hpp"

namespace hpcnet::sim {

CoherenceConfig CoherenceConfig::from_node(const BusConfig& bus, const MemConfig& mem, uint64_t hit_cycles) {
  CoherenceConfig c;
  c.hit_cycles = hit_cycles;
  c.miss_cycles = bus.read_latency + bus.rsp_latency;
  c.forward_cycles = bus.write_latency;
  c.invalidate_cycles = bus.write_latency;
  c.inval_delay_cycles = 2 * bus.write_latency;
  c.link_ctrl_cycles = bus.spacing;
  c.link_data_cycles =
      std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(static_cast<double>(SimSharedMemory::kLineBytes) /
                                                            mem.bytes_per_cycle)));
  return c;
}

SimSharedMemory::SimSharedMemory(Scheduler& sched, HostMemory& mem, CoherenceConfig cfg)
    : sched_(sched), mem_(mem), cfg_(cfg), stats_(size_t(sched.config().num_pe) * sched.config().num_threads) {
  if (sched.config().num_pe > 64) throw std::invalid_argument("SimSharedMemory: at most 64 PEs");
}

SimSharedMemory::SimSharedMemory(SsmSystem& sys)
    : SimSharedMemory(sys, CoherenceConfig::from_node(sys.config().bus, sys.config().mem)) {}

SimSharedMemory::SimSharedMemory(SsmSystem& sys, CoherenceConfig cfg)
    : SimSharedMemory(sys.scheduler(), sys.memory(), cfg) {
  progress_ = [&sys] { sys.note_progress(); };
}

uint64_t SimSharedMemory::alloc(size_t bytes, CpuId home) {
  if (bytes == 0) bytes = 1;
  const size_t rounded = (bytes + kLineBytes - 1) / kLineBytes * kLineBytes;
  const DmaRegion r = mem_.alloc(rounded, kLineBytes);
  if (!r) throw std::runtime_error(fmt::format("SimSharedMemory: cannot allocate {} bytes", rounded));
  for (uint64_t a = r.phys; a < r.phys + rounded; a += kLineBytes) lines_[a] = Line{0, -1, home};
  return r.phys;
}

void SimSharedMemory::check(uint64_t addr, size_t bytes) const {
  if (addr % 8 != 0 || bytes % 8 != 0)
    throw std::invalid_argument(fmt::format("shared memory: unaligned access 0x{:x} + {}", addr, bytes));
  for (uint64_t a = addr / kLineBytes * kLineBytes; a < addr + bytes; a += kLineBytes)
    if (!lines_.count(a))
      throw std::out_of_range(fmt::format("shared memory: access 0x{:x} + {} outside any allocation", addr, bytes));
}

SimSharedMemory::Line& SimSharedMemory::line(uint64_t addr) { return lines_.at(addr / kLineBytes * kLineBytes); }

const SimSharedMemory::Line& SimSharedMemory::line(uint64_t addr) const {
  return lines_.at(addr / kLineBytes * kLineBytes);
}

ShmStats& SimSharedMemory::my_stats() {
  const CpuId c = sched_.current_cpu();
  if (c.pe >= sched_.config().num_pe || c.thread >= sched_.config().num_threads)
    throw std::logic_error("shared memory: not available to service threads");
  return stats_[size_t(c.pe) * sched_.config().num_threads + c.thread];
}

uint64_t SimSharedMemory::issue(uint64_t addr, size_t bytes, bool store) {
  const uint64_t now = sched_.now();
  const CpuId me = sched_.current_cpu();
  const unsigned pe = me.pe;
  const uint64_t mine = uint64_t{1} << pe;
  ShmStats& st = my_stats();
  uint64_t issue_at = now;  // when the next line's access is issued
  uint64_t done = now;
  const uint64_t first = addr / kLineBytes * kLineBytes;
  for (uint64_t la = first; la < addr + bytes; la += kLineBytes) {
    Line& l = lines_.at(la);
    const uint64_t lo = std::max(la, addr), hi = std::min(la + kLineBytes, addr + bytes);
    const uint64_t words = (hi - lo) / 8;
    bool hit;
    bool data = true;      // the transaction moves the line
    uint64_t extra = 0;    // forward or invalidation hop
    if (l.stale && issue_at >= l.stale_until) l.stale = 0;  // the invalidations have arrived
    if (store) {
      st.stores += words;
      if (!(l.home == me)) st.remote_writes += words;
      hit = l.owner == static_cast<int>(pe);
      if (!hit) {
        const uint64_t others = l.sharers & ~mine;
        if (l.owner >= 0) extra = cfg_.forward_cycles;
        else if (others) extra = cfg_.invalidate_cycles;
        data = l.owner >= 0 || !(l.sharers & mine);
        st.invalidations += static_cast<uint64_t>(std::popcount(others));
        ++st.store_misses;
        if (others) {  // they keep their (old) copies until the invalidation reaches them
          l.stale = (l.stale | others) & ~mine;
          l.stale_until = std::max(l.stale_until, issue_at + cfg_.inval_delay_cycles);
        }
        l.stale &= ~mine;
        l.sharers = mine;
        l.owner = static_cast<int>(pe);
      }
    } else {
      st.loads += words;
      hit = (l.sharers & mine) != 0 || (l.stale & mine) != 0;
      if (!hit) {
        if (l.owner >= 0) extra = cfg_.forward_cycles;
        ++st.load_misses;
        l.owner = -1;  // a Modified copy elsewhere is downgraded to shared
        l.sharers |= mine;
      }
    }
    if (hit) {
      issue_at += cfg_.hit_cycles;
      done = std::max(done, issue_at);
    } else {
      const uint64_t start = std::max(issue_at, link_free_);
      link_free_ = start + (data ? cfg_.link_data_cycles : cfg_.link_ctrl_cycles);
      ++link_transactions_;
      done = std::max(done, start + cfg_.miss_cycles + extra);
      issue_at = start + 1;
    }
  }
  st.mem_cycles += done - now;
  return done;
}

void SimSharedMemory::host_store(uint64_t addr, size_t bytes) {
  for (uint64_t la = addr / kLineBytes * kLineBytes; la < addr + bytes; la += kLineBytes) {
    Line& l = lines_.at(la);
    l.sharers = 0;
    l.owner = -1;
  }
}

uint64_t SimSharedMemory::load64(uint64_t addr) {
  check(addr, 8);
  if (!sched_.in_thread()) return mem_.read64(addr);
  sched_.note("shm_load", addr);
  const uint64_t done = issue(addr, 8, false);
  sched_.sleep(done - sched_.now());
  return mem_.read64(addr);
}

void SimSharedMemory::store64(uint64_t addr, uint64_t value) {
  check(addr, 8);
  if (!sched_.in_thread()) {
    host_store(addr, 8);
    mem_.write64(addr, value);
    return;
  }
  sched_.note("shm_store", addr);
  const uint64_t done = issue(addr, 8, true);
  if (progress_) progress_();
  sched_.sleep(done - sched_.now());
  mem_.write64(addr, value);
}

void SimSharedMemory::read(uint64_t addr, void* dst, size_t bytes) {
  if (bytes == 0) return;
  check(addr, bytes);
  if (sched_.in_thread()) {
    sched_.note("shm_read", addr);
    const uint64_t done = issue(addr, bytes, false);
    sched_.sleep(done - sched_.now());
  }
  mem_.read(addr, dst, bytes);
}

void SimSharedMemory::write(uint64_t addr, const void* src, size_t bytes) {
  if (bytes == 0) return;
  check(addr, bytes);
  if (!sched_.in_thread()) {
    host_store(addr, bytes);
    mem_.write(addr, src, bytes);
    return;
  }
  sched_.note("shm_write", addr);
  const uint64_t done = issue(addr, bytes, true);
  if (progress_) progress_();
  // The data is applied when the access completes; copy it now, the caller may reuse `src`.
  std::vector<uint8_t> copy(static_cast<const uint8_t*>(src), static_cast<const uint8_t*>(src) + bytes);
  sched_.sleep(done - sched_.now());
  mem_.write(addr, copy.data(), bytes);
}

void SimSharedMemory::compute(uint64_t cycles) {
  if (!sched_.in_thread()) throw std::logic_error("SharedMemory::compute must be called from a simulated thread");
  my_stats().compute_cycles += cycles;
  sched_.note("compute", 0, false);
  sched_.sleep(cycles);
}

ShmStats SimSharedMemory::stats(CpuId cpu) const {
  if (cpu.pe >= sched_.config().num_pe || cpu.thread >= sched_.config().num_threads)
    throw std::out_of_range("SimSharedMemory::stats: no such cpu");
  return stats_[size_t(cpu.pe) * sched_.config().num_threads + cpu.thread];
}

ShmStats SimSharedMemory::total() const {
  ShmStats t;
  for (const auto& s : stats_) t += s;
  return t;
}

void SimSharedMemory::reset_stats() {
  for (auto& s : stats_) s = ShmStats{};
  link_transactions_ = 0;
}

uint64_t SimSharedMemory::sharers(uint64_t addr) const { return line(addr).sharers; }

int SimSharedMemory::owner(uint64_t addr) const { return line(addr).owner; }

}  // namespace hpcnet::sim
