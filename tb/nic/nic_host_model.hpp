// nic_host_model.hpp: the host side of the host-DQ tests (test_nic_hdq.cpp, test_nic_dq_hdq.cpp):
// host memory, a DMA read port answering requests with 32-byte-aligned frames after a random
// latency, and software's view of one VP's host DQ ring.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <unordered_map>
#include <vector>

#include "hpcnet/tb/bits.hpp"

namespace nic_tb {

using hpcnet::tb::put_bits;

// Host memory: 64-bit words by address / 8 (unwritten words read 0).
struct HostMem {
  std::unordered_map<std::uint64_t, std::uint64_t> w;
  std::uint64_t read(std::uint64_t addr) const {
    auto it = w.find(addr >> 3);
    return it == w.end() ? 0 : it->second;
  }
  void write(std::uint64_t addr, std::uint64_t v) { w[addr >> 3] = v; }
};

// The DMA read port: takes requests (randomly stalled), answers each after a random latency with
// the 32-byte frames holding its bytes, in address order, bytes outside the request zero, with
// random gaps; a frame shown stays until taken.
struct DmaHost {
  struct Req {
    std::uint64_t addr = 0, ready_at = 0;
    unsigned len = 0, frames = 0, next = 0;
  };
  std::mt19937_64& rng;
  const HostMem& mem;
  std::deque<Req> reqs;
  bool showing = false;
  std::array<std::uint64_t, 4> shown{};  // the frame shown
  unsigned ready_pct = 50, gap_pct = 50, lat_max = 40;
  DmaHost(std::mt19937_64& r, const HostMem& m) : rng(r), mem(m) {}
  unsigned rnd(unsigned n) { return static_cast<unsigned>(rng() % n); }

  std::array<std::uint64_t, 4> frame() const {
    const Req& r = reqs.front();
    const std::uint64_t fa = (r.addr & ~31ull) + 32ull * r.next;
    std::array<std::uint64_t, 4> d{};
    for (unsigned k = 0; k < 4; ++k) {
      const std::uint64_t a = fa + 8 * k;
      d[k] = (a >= r.addr && a < r.addr + r.len) ? mem.read(a) : 0;
    }
    return d;
  }
  bool last() const { return reqs.front().next + 1 == reqs.front().frames; }

  template <class M>
  bool drive(M& m, std::uint64_t now) {  // returns rd_req_ready_i
    const bool rdy = rnd(100) < ready_pct;
    m.rd_req_ready_i = rdy;
    if (!showing && !reqs.empty() && now >= reqs.front().ready_at && rnd(100) < gap_pct) {
      showing = true;
      shown = frame();  // host memory as read now (software may reuse fetched words meanwhile)
    }
    m.rd_rsp_valid_i = showing;
    if (showing) {
      for (unsigned k = 0; k < 4; ++k) put_bits(m.rd_rsp_data_i, 64 * k, 64, shown[k]);
      m.rd_rsp_last_i = last();
    } else {
      for (unsigned k = 0; k < 4; ++k) put_bits(m.rd_rsp_data_i, 64 * k, 64, rng());
      m.rd_rsp_last_i = rnd(2) != 0;
    }
    return rdy;
  }
  void take_req(std::uint64_t addr, unsigned len, std::uint64_t now) {
    Req r;
    r.addr = addr;
    r.len = len;
    r.frames = static_cast<unsigned>(((addr + len - 1) >> 5) - (addr >> 5) + 1);
    r.ready_at = now + 1 + (rnd(20) == 0 ? 250 : rnd(lat_max));
    reqs.push_back(r);
  }
  void frame_taken() {
    showing = false;
    if (++reqs.front().next == reqs.front().frames) reqs.pop_front();
  }
};

// Software's view of one VP's host DQ.
struct SwVp {
  std::uint64_t base = 0;
  unsigned log2 = 0;
  std::uint32_t tail = 0;      // words produced (free running)
  std::uint32_t tail_reg = 0;  // the fetcher's tail register (mirror)
  std::uint64_t fetched = 0;   // words taken by the DQ (free running)
  std::deque<std::uint64_t> exp;     // rung, not yet fetched, in order
  std::deque<std::uint64_t> unrung;  // produced, doorbell not yet written
  std::uint64_t size() const { return 1ull << log2; }
  std::uint32_t mask() const { return static_cast<std::uint32_t>(size() - 1); }
  bool has_ring() const { return log2 != 0; }
  // Ring words software may fill: one stays empty (tail == head means empty).
  unsigned free_words() const {
    return has_ring() ? static_cast<unsigned>(size() - 1 - (tail - static_cast<std::uint32_t>(fetched))) : 0;
  }
};

// Places VP v's ring: somewhere in its own 1 MB, often across a 4 KB boundary.
inline void place_rings(std::vector<SwVp>& sw, std::mt19937_64& rng, const std::vector<unsigned>& log2s) {
  for (unsigned v = 0; v < sw.size(); ++v) {
    SwVp& s = sw[v];
    s.log2 = log2s[v];
    const std::uint64_t bytes = s.has_ring() ? 8 * s.size() : 8;
    const std::uint64_t off = 0x1000 * (rng() % 4) + ((0x1000 - 8 * (rng() % (bytes / 8 + 1))) & 0xFFF);
    s.base = 0x100000000ull * (v + 1) + (rng() % 16) * 0x100000ull + off;
    s.base &= ~7ull;
  }
}


}  // namespace nic_tb
