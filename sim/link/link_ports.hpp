// sim/link/link_ports.hpp: a flit between a Verilated link end's ports and sim/link's wire
// (link_wire.hpp). The port names differ by module (lnk_tx: link_*_o, lnk_end: tx_*_o; lnk_rx:
// link_*_i, lnk_end: rx_*_i), so the ports are passed in; data is the 256-bit port (VlWide<8>).
#pragma once

#include <cstdint>

#include "sim/link/link_wire.hpp"

namespace hpcnet::sim {

// The flit a sender shows (valid is the caller's).
template <class Wide>
WireFlit flit_from_ports(unsigned vc, bool head, bool tail, unsigned seq, unsigned crc, const Wide& data) {
  WireFlit f;
  f.vc = vc;
  f.head = head;
  f.tail = tail;
  f.seq = uint8_t(seq);
  f.crc = uint16_t(crc);
  for (unsigned i = 0; i < 4; ++i) f.data[i] = uint64_t(data[2 * i]) | uint64_t(data[2 * i + 1]) << 32;
  return f;
}

// A flit onto a receiver's ports (vc: its low bit, as a 2-VC link carries it).
template <class C, class S, class Wide>
void flit_to_ports(const WireFlit& f, C& vc, C& head, C& tail, C& seq, S& crc, Wide& data) {
  vc = C(f.vc & 1);
  head = C(f.head);
  tail = C(f.tail);
  seq = C(f.seq);
  crc = S(f.crc);
  for (unsigned i = 0; i < 8; ++i) data[i] = uint32_t(f.data[i / 2] >> (32 * (i % 2)));
}

}  // namespace hpcnet::sim
