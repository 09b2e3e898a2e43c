// nic_win.hpp: nic_pkg::win_t (rtl/nic/nic_pkg.sv), the register window through which nic_regs
// routes an access to a VP's user page or VPC element to the units that keep per-VP context
// (docs/nic.md section 6), as a struct, put into and read from a Verilated port. The packed
// struct's 84 bits, from bit 0: wdata (64), off (12), vp (5), vpc, write, valid.
#pragma once

#include <cstdint>

#include "hpcnet/tb/bits.hpp"

namespace nic_tb {

struct NicWin {
  bool valid = false;  // an access this cycle
  bool write = false;  // a write (else a read)
  bool vpc = false;    // a VPC element (else the VP's user page)
  unsigned vp = 0;     // the user page, or the VPC element
  unsigned off = 0;    // offset in the page or in the element (12 bits)
  std::uint64_t wdata = 0;
  bool operator==(const NicWin&) const = default;
};

template <class W>
void put_win(W& port, const NicWin& w) {
  hpcnet::tb::put_bits(port, 0, 64, w.wdata);
  hpcnet::tb::put_bits(port, 64, 12, w.off);
  hpcnet::tb::put_bits(port, 76, 5, w.vp);
  hpcnet::tb::put_bits(port, 81, 1, w.vpc);
  hpcnet::tb::put_bits(port, 82, 1, w.write);
  hpcnet::tb::put_bits(port, 83, 1, w.valid);
}

template <class W>
NicWin get_win(const W& port) {
  NicWin w;
  w.wdata = hpcnet::tb::get_bits(port, 0, 64);
  w.off = static_cast<unsigned>(hpcnet::tb::get_bits(port, 64, 12));
  w.vp = static_cast<unsigned>(hpcnet::tb::get_bits(port, 76, 5));
  w.vpc = hpcnet::tb::get_bits(port, 81, 1) != 0;
  w.write = hpcnet::tb::get_bits(port, 82, 1) != 0;
  w.valid = hpcnet::tb::get_bits(port, 83, 1) != 0;
  return w;
}

}  // namespace nic_tb
