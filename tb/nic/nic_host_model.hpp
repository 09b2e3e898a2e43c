// nic_host_model.hpp: software's side of the host-DQ tests (test_nic_hdq.cpp, test_nic_dq_hdq.cpp):
// its view of one VP's host DQ ring, and the rings placed in host memory (the memory and its DMA
// read port: hpcnet/tb/dma_mem.hpp), and the register window through which the driver sets the
// rings up (nic_pkg::win_t, as nic_regs drives it).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/dma_mem.hpp"
#include "hpcnet/tb/rng.hpp"

namespace nic_tb {

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
  // Software writes word w at the tail (the doorbell for it comes later).
  void produce(hpcnet::tb::SparseMem& mem, std::uint64_t w) {
    mem.write64(base + 8ull * (tail & mask()), w);
    unrung.push_back(w);
    ++tail;
  }
};

// Places VP v's ring: somewhere in its own 1 MB, often across a 4 KB boundary.
inline void place_rings(std::vector<SwVp>& sw, hpcnet::tb::Rng& rng, const std::vector<unsigned>& log2s) {
  for (unsigned v = 0; v < sw.size(); ++v) {
    SwVp& s = sw[v];
    s.log2 = log2s[v];
    const std::uint64_t bytes = s.has_ring() ? 8 * s.size() : 8;
    const std::uint64_t off = 0x1000 * (rng() % 4) + ((0x1000 - 8 * (rng() % (bytes / 8 + 1))) & 0xFFF);
    s.base = 0x100000000ull * (v + 1) + (rng() % 16) * 0x100000ull + off;
    s.base &= ~7ull;
  }
}

// The register window (rtl/nic/nic_pkg.sv win_t, packed: valid, write, vpc, vp, off, wdata from the
// top bit down): one access on port `win`, or none.
template <class W>
void win_drive(W& win, bool valid, bool write, bool vpc, unsigned vp, unsigned off, std::uint64_t wdata) {
  using hpcnet::tb::put_bits;
  put_bits(win, 0, 64, wdata);
  put_bits(win, 64, 12, off);
  put_bits(win, 76, 5, vp);
  put_bits(win, 81, 1, vpc);
  put_bits(win, 82, 1, write);
  put_bits(win, 83, 1, valid);
}

// The driver's set-up of VP v's host DQ ring through nic_hdq's window: VPC.HDQ_BASE, then
// VPC.SIZES (its HDQ_LOG2 field), one write a cycle; the window idle after.
template <class H>
void hdq_setup(H& h, unsigned v, const SwVp& s) {
  namespace nf = hpcnet::nic_formats;
  auto& m = h.dut();
  win_drive(m.win_i, true, true, true, v, nf::VPC_HDQ_BASE_OFFSET, s.base);
  hpcnet::tb::tick(h);
  win_drive(m.win_i, true, true, true, v, nf::VPC_SIZES_OFFSET, nf::VPC_SIZES_HDQ_LOG2.put(s.log2));
  hpcnet::tb::tick(h);
  win_drive(m.win_i, false, false, false, 0, 0, 0);
}

}  // namespace nic_tb
