// host_memory.cpp: sparse memory, physical allocator and DMA slave timing.
#include "sim/host/host_memory.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace hpcnet::sim {

HostMemory::HostMemory(MemConfig cfg)
    : cfg_(cfg), tokens_(cfg.burst_bytes) {
  free_[cfg_.alloc_base] = cfg_.alloc_size;
}

uint8_t* HostMemory::page_for_write(uint64_t addr) {
  auto& p = pages_[addr / kPageBytes];
  if (!p) p = std::make_unique<Page>(Page{});
  return p->data();
}

const uint8_t* HostMemory::page_for_read(uint64_t addr) const {
  auto it = pages_.find(addr / kPageBytes);
  return it == pages_.end() ? nullptr : it->second->data();
}

void HostMemory::read(uint64_t addr, void* dst, size_t n) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (n) {
    const uint64_t off = addr % kPageBytes;
    const size_t chunk = std::min<uint64_t>(n, kPageBytes - off);
    if (const uint8_t* p = page_for_read(addr)) std::memcpy(out, p + off, chunk);
    else std::memset(out, 0, chunk);
    addr += chunk;
    out += chunk;
    n -= chunk;
  }
}

void HostMemory::write(uint64_t addr, const void* src, size_t n) {
  auto* in = static_cast<const uint8_t*>(src);
  while (n) {
    const uint64_t off = addr % kPageBytes;
    const size_t chunk = std::min<uint64_t>(n, kPageBytes - off);
    std::memcpy(page_for_write(addr) + off, in, chunk);
    addr += chunk;
    in += chunk;
    n -= chunk;
  }
}

void HostMemory::fill(uint64_t addr, uint8_t byte, size_t n) {
  while (n) {
    const uint64_t off = addr % kPageBytes;
    const size_t chunk = std::min<uint64_t>(n, kPageBytes - off);
    if (byte == 0 && off == 0 && chunk == kPageBytes) pages_.erase(addr / kPageBytes);  // zero again
    else if (byte != 0 || page_for_read(addr)) std::memset(page_for_write(addr) + off, byte, chunk);
    addr += chunk;
    n -= chunk;
  }
}

uint64_t HostMemory::read64(uint64_t addr) const {
  uint64_t v = 0;
  read(addr, &v, sizeof v);
  return v;
}

void HostMemory::write64(uint64_t addr, uint64_t value) { write(addr, &value, sizeof value); }

DmaRegion HostMemory::alloc(size_t bytes, size_t align) {
  if (align & (align - 1)) throw std::invalid_argument(fmt::format("dma_alloc: alignment {} is not a power of two", align));
  align = std::max<size_t>(align, 64);
  const uint64_t size = (std::max<size_t>(bytes, 1) + 63) & ~uint64_t{63};
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const uint64_t start = it->first, end = it->first + it->second;
    const uint64_t a = (start + align - 1) & ~uint64_t(align - 1);
    if (a + size > end) continue;
    free_.erase(it);
    if (a > start) free_[start] = a - start;
    if (a + size < end) free_[a + size] = end - (a + size);
    used_[a] = size;
    allocated_ += size;
    fill(a, 0, size);
    return DmaRegion{a, bytes};
  }
  throw std::bad_alloc();
}

void HostMemory::free(const DmaRegion& r) {
  auto u = used_.find(r.phys);
  if (u == used_.end()) throw std::invalid_argument(fmt::format("dma_free: 0x{:x} was not allocated", r.phys));
  uint64_t start = u->first, size = u->second;
  used_.erase(u);
  allocated_ -= size;
  auto next = free_.lower_bound(start);
  if (next != free_.end() && start + size == next->first) {  // merge with the following range
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {  // merge with the preceding range
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      prev->second += size;
      return;
    }
  }
  free_[start] = size;
}

void HostMemory::complete(Pending& p, uint64_t now) {
  p.ev.completed = now;
  if (observer_) observer_(p.ev);
}

void HostMemory::ensure_ports(size_t n) {
  while (ports_.size() < n) ports_.emplace_back(cfg_.max_outstanding ? cfg_.max_outstanding : 1);
}

void HostMemory::drive(DmaPort& port, uint64_t now) {
  one_.assign(1, &port);
  drive(one_, now);
}

void HostMemory::sample(const DmaPort& port, uint64_t now) {
  one_.assign(1, const_cast<DmaPort*>(&port));
  sample(one_, now);
}

void HostMemory::drive_port(PortState& st, DmaPort& port, uint64_t now) {
  // Posted writes at the head whose time has come become visible.
  while (!st.pending.empty() && st.pending.front().ev.write && st.pending.front().due <= now) {
    Pending& p = st.pending.front();
    write(p.ev.addr, p.data.data(), p.ev.len);
    complete(p, now);
    st.pending.pop();
    --outstanding_;
  }
  port.rsp_valid = false;
  if (!st.pending.empty() && st.pending.front().due <= now) {  // a read at the head is due
    Pending& p = st.pending.front();
    if (!st.rsp_presented) {  // the data is read when the response is first presented
      p.data.fill(0);
      read(p.ev.addr, p.data.data(), p.ev.len);
      st.rsp_presented = true;
    } else {
      ++stats_.rsp_stall_cycles;
    }
    port.rsp_valid = true;
    port.rsp_rdata = p.data;
    port.rsp_tag = p.ev.tag;
  }
}

void HostMemory::drive(const std::vector<DmaPort*>& ports, uint64_t now) {
  ensure_ports(ports.size());
  if (now > last_cycle_) tokens_ = std::min(cfg_.burst_bytes, tokens_ + cfg_.bytes_per_cycle * double(now - last_cycle_));
  last_cycle_ = now;
  const size_t n = ports.size();
  for (size_t i = 0; i < n; ++i) drive_port(ports_[i], *ports[i], now);
  const size_t limit = cfg_.max_outstanding ? cfg_.max_outstanding : 1;
  const bool room = tokens_ > 0.0 && outstanding_ < limit;
  all_offered_ = room && outstanding_ + n <= limit;
  if (all_offered_) {  // room for every port at once (the turn stays where it is)
    for (DmaPort* p : ports) p->req_ready = true;
    return;
  }
  // Room for one at most: the next refused port in turn, else the next port in turn.
  size_t pick = next_ % n;
  for (size_t k = 0; k < n; ++k)
    if (ports_[(next_ + k) % n].refused) {
      pick = (next_ + k) % n;
      break;
    }
  for (size_t i = 0; i < n; ++i) ports[i]->req_ready = room && i == pick;
}

void HostMemory::sample(const std::vector<DmaPort*>& ports, uint64_t now) {
  for (size_t i = 0; i < ports.size(); ++i) sample_port(static_cast<unsigned>(i), ports_[i], *ports[i], now);
}

void HostMemory::sample_port(unsigned index, PortState& st, const DmaPort& port, uint64_t now) {
  if (port.rsp_valid && port.rsp_ready) {
    complete(st.pending.front(), now);
    st.pending.pop();
    --outstanding_;
    st.rsp_presented = false;
  }
  st.refused = port.req_valid && !port.req_ready;
  if (!(port.req_valid && port.req_ready)) return;
  const unsigned len = port.req_len;
  if (len == 0 || len > DmaPort::kBeatBytes || (port.req_addr % DmaPort::kBeatBytes) + len > DmaPort::kBeatBytes)
    throw ProtocolError(fmt::format("DMA request at cycle {} on port {}: addr 0x{:x} len {} is empty, too long or "
                                    "crosses a 32-byte boundary", now, index, port.req_addr, len));
  Pending p;
  p.ev = DmaEvent{index, now, 0, port.req_write, port.req_addr, len, port.req_tag};
  p.due = now + cfg_.latency;
  if (port.req_write) {
    std::copy_n(port.req_wdata.begin(), len, p.data.begin());
    ++stats_.dma_writes;
    stats_.dma_bytes_written += len;
  } else {
    ++stats_.dma_reads;
    stats_.dma_bytes_read += len;
  }
  st.pending.push(p);
  ++outstanding_;
  stats_.max_pending = std::max(stats_.max_pending, outstanding_);
  tokens_ -= len;
  if (!all_offered_) next_ = index + 1;
}

}  // namespace hpcnet::sim
