// host_bus.cpp: posted-write FIFO, spacing, blocking reads.
#include "sim/host/host_bus.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace hpcnet::sim {

HostBus::HostBus(Scheduler& sched, BusConfig cfg)
    : sched_(sched),
      cfg_(cfg),
      // the buffer plus the requests the link pipeline holds during the latency; when the
      // device stops accepting, the link backs up and the buffer fills
      queue_((cfg.buffer_entries ? cfg.buffer_entries : 1) +
             std::max(cfg.write_latency, cfg.read_latency) /
                 std::max<uint64_t>(std::min(cfg.spacing, cfg.wc_burst_cycles), 1) + 2) {
  if (cfg_.buffer_entries == 0) cfg_.buffer_entries = 1;
}

size_t HostBus::buffered(uint64_t now) const {
  size_t n = 0;
  for (size_t i = queue_.size(); i-- > 0 && queue_[i].depart > now;) ++n;  // departs are monotonic
  return n;
}

bool HostBus::enqueue(const Req& r) {
  const auto me = sched_.current();
  bool waiting = false;
  while (buffered(sched_.now()) >= cfg_.buffer_entries || queue_.full() ||
         (!space_waiters_.empty() && space_waiters_.front() != me)) {
    if (!waiting) {
      waiting = true;
      ++stats_.full_stalls;
      space_waiters_.push_back(me);
      sched_.note("mmio buffer full", r.addr);
    }
    sched_.sleep(1);  // retry next cycle; only the oldest waiter may take a freed entry
    if (sched_.stopping()) {
      std::erase(space_waiters_, me);
      return false;
    }
  }
  if (waiting) space_waiters_.pop_front();  // it was us
  Req q = r;
  q.issued = sched_.now();
  q.depart = have_depart_ ? std::max(q.issued, link_free_) : q.issued;
  q.ready_at = q.depart + (r.write ? cfg_.write_latency : cfg_.read_latency);
  link_free_ = q.depart + gap(q);
  have_depart_ = true;
  queue_.push(q);
  stats_.max_queued = std::max(stats_.max_queued, buffered(sched_.now()));
  return true;
}

void HostBus::write64(uint32_t addr, uint64_t value) {
  Req r;
  r.write = true;
  r.addr = addr;
  r.data[0] = value;
  enqueue(r);
}

void HostBus::write_burst(uint32_t addr, const uint64_t* words, unsigned n) {
  if (n == 0 || n > kBurstWords || addr % 8 != 0 || addr / 64 != (addr + 8 * (n - 1)) / 64)
    throw std::invalid_argument(fmt::format("HostBus::write_burst: {} word(s) at 0x{:x} are not 1..8 aligned words of "
                                            "one 64-byte line", n, addr));
  Req r;
  r.write = true;
  r.burst = true;
  r.addr = addr;
  r.count = n;
  std::copy_n(words, n, r.data.begin());
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
  if (h.done == 0 && have_last_ && now < next_present_) return;  // a burst's later words follow back to back
  if (!h.write && read_outstanding_) return;
  port.req_valid = true;
  port.req_write = h.write;
  port.req_addr = h.addr + 8 * h.done;
  port.req_wdata = h.data[h.done];
}

void HostBus::resume_reader(Scheduler::ThreadId reader, uint64_t resume, uint64_t issued) {
  stats_.read_cycles += resume - issued;
  sched_.wake(reader, resume);
}

void HostBus::sample(const MmioPort& port, uint64_t now) {
  while (!held_.empty() && order_->writes_applied(held_.front().mark)) {
    const HeldRsp& h = held_.front();
    resume_reader(h.reader, std::max(h.resume, now + 1), h.issued);
    held_.pop_front();
  }
  if (port.rsp_valid) {
    if (!read_outstanding_) throw ProtocolError(fmt::format("mmio_rsp_valid at cycle {} without a read outstanding", now));
    read_outstanding_ = false;
    outstanding_.slot->value = port.rsp_rdata;
    outstanding_.slot->done = true;
    const uint64_t resume = now + cfg_.rsp_latency;
    const uint64_t mark = order_ ? order_->write_mark() : 0;
    if (order_ && (!held_.empty() || !order_->writes_applied(mark)))
      held_.push_back({outstanding_.reader, resume, outstanding_.issued, mark});
    else
      resume_reader(outstanding_.reader, resume, outstanding_.issued);
  }
  if (!port.req_valid) return;
  if (!port.req_ready) {
    ++stats_.not_ready_cycles;
    return;
  }
  Req& head = queue_.front();
  if (head.done == 0) {
    have_last_ = true;
    next_present_ = now + gap(head);
    stats_.link_cycles += gap(head);
  }
  if (++head.done < head.count) {
    ++stats_.writes;
    return;
  }
  const Req h = head;
  queue_.pop();
  if (h.write) {
    ++stats_.writes;
    if (h.burst) ++stats_.wc_bursts;
  } else {
    ++stats_.reads;
    read_outstanding_ = true;
    outstanding_ = h;
  }
}

}  // namespace hpcnet::sim
