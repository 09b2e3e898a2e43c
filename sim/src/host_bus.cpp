// host_bus.cpp: posted-write FIFO, spacing, blocking reads.
#include "hpcnet/sim/host_bus.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hpcnet/sim/errors.hpp"

namespace hpcnet::sim {

HostBus::HostBus(Scheduler& sched, BusConfig cfg)
    : sched_(sched), cfg_(cfg), queue_(cfg.buffer_entries ? cfg.buffer_entries : 1) {}

bool HostBus::enqueue(const Req& r) {
  while (queue_.full()) {
    ++stats_.full_stalls;
    space_waiters_.push_back(sched_.current());
    sched_.note("mmio buffer full", r.addr);
    sched_.block();
    if (sched_.stopping()) return false;
  }
  Req q = r;
  q.issued = sched_.now();
  q.ready_at = q.issued + (r.write ? cfg_.write_latency : cfg_.read_latency);
  queue_.push(q);
  stats_.max_queued = std::max(stats_.max_queued, queue_.size());
  return true;
}

void HostBus::write64(uint32_t addr, uint64_t value) {
  Req r;
  r.write = true;
  r.addr = addr;
  r.data = value;
  enqueue(r);
}

uint64_t HostBus::read64(uint32_t addr) {
  ReadSlot slot;
  Req r;
  r.addr = addr;
  r.slot = &slot;
  r.reader = sched_.current();
  if (!enqueue(r)) return ~uint64_t{0};
  sched_.note("mmio_read64", addr);
  while (!slot.done) {
    sched_.block();
    if (sched_.stopping()) return ~uint64_t{0};
  }
  return slot.value;
}

void HostBus::drive(MmioPort& port, uint64_t now) {
  port.req_valid = false;
  if (queue_.empty()) return;
  const Req& h = queue_.front();
  if (now < h.ready_at) return;
  if (have_last_ && now < last_accept_ + cfg_.spacing) return;
  if (!h.write && read_outstanding_) return;
  port.req_valid = true;
  port.req_write = h.write;
  port.req_addr = h.addr;
  port.req_wdata = h.data;
}

void HostBus::sample(const MmioPort& port, uint64_t now) {
  if (port.rsp_valid) {
    if (!read_outstanding_) throw ProtocolError(fmt::format("mmio_rsp_valid at cycle {} without a read outstanding", now));
    read_outstanding_ = false;
    outstanding_.slot->value = port.rsp_rdata;
    outstanding_.slot->done = true;
    const uint64_t resume = now + cfg_.rsp_latency;
    stats_.read_cycles += resume - outstanding_.issued;
    sched_.wake(outstanding_.reader, resume);
  }
  if (!port.req_valid) return;
  if (!port.req_ready) {
    ++stats_.not_ready_cycles;
    return;
  }
  const Req h = queue_.front();
  queue_.pop();
  have_last_ = true;
  last_accept_ = now;
  if (h.write) {
    ++stats_.writes;
  } else {
    ++stats_.reads;
    read_outstanding_ = true;
    outstanding_ = h;
  }
  for (auto id : space_waiters_) sched_.wake(id, now + 1);
  space_waiters_.clear();
}

}  // namespace hpcnet::sim
