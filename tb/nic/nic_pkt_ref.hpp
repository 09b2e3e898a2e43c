// nic_pkt_ref.hpp: the reference of the packets a read-engine job becomes (docs/nic.md section 3,
// rtl/nic/nic_pktz.sv), shared by the read engine's test (nic_rdeng_job.hpp) and the
// packetizer's (test_nic_pktz.cpp): a job of len bytes to destination dst = {KEY, ADDR} is one
// 5-flit packet per destination 128-byte block it touches. Packet p's head is the job's template
// with FIRST on packet 0, LAST on the last, LEN its valid bytes, ADDR {the key, the destination
// address of its first valid byte}, MSG_LEN the job length, AUX 0 (on the LAST packet, the status
// it carries); its payload frame k (0..3) holds destination bytes (ADDR & ~127) + 32k + i, the
// job's byte t at destination ADDR + t, zero outside the job.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/rng.hpp"

namespace nic_tb {

namespace nfr = hpcnet::nic_formats;
using Bytes32 = std::array<std::uint8_t, 32>;
inline constexpr std::uint64_t kPktAddrMask = (std::uint64_t{1} << 48) - 1;

// Packets of a job of len bytes (>= 1) to dst.
inline unsigned pkt_ref_count(std::uint64_t dst, std::uint32_t len) {
  return static_cast<unsigned>(((dst & 127) + len + 127) / 128);
}

inline nfr::PktHead pkt_ref_head(const nfr::PktHead& tmpl, std::uint64_t dst, std::uint32_t len, unsigned p,
                                 std::uint64_t last_aux) {
  const std::uint64_t d0 = dst & kPktAddrMask, b = (d0 & ~std::uint64_t{127}) + 128ull * p;
  const std::uint64_t first = std::max(d0, b), end = std::min(d0 + len, b + 128);
  nfr::PktHead h = tmpl;
  h.first = p == 0;
  h.last = p + 1 == pkt_ref_count(dst, len);
  h.len = static_cast<std::uint32_t>(end - first);
  h.msg_len = len;
  h.addr.key = static_cast<std::uint32_t>(dst >> 48);
  h.addr.addr = first;
  h.aux = h.last ? last_aux : 0;
  return h;
}

// Payload frame k of packet p; byte(t) is the job's byte t.
template <class ByteOf>
Bytes32 pkt_ref_payload(std::uint64_t dst, std::uint32_t len, unsigned p, unsigned k, ByteOf byte) {
  Bytes32 r{};
  const std::uint64_t d0 = dst & kPktAddrMask, f = (d0 & ~std::uint64_t{127}) + 128ull * p + 32ull * k;
  for (unsigned i = 0; i < 32; ++i)
    if (f + i >= d0 && f + i < d0 + len) r[i] = byte(static_cast<std::uint32_t>(f + i - d0));
  return r;
}

// A random template: every field random, those the engine sets (FIRST, LAST, LEN, MSG_LEN, ADDR,
// AUX) too, so that a field not set shows.
inline nfr::PktHead random_pkt_tmpl(hpcnet::tb::Rng& rng) {
  auto rnd = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
  nfr::PktHead t;
  t.rhead = static_cast<std::uint32_t>(rng());
  t.ptype = rnd(100) < 50 ? nfr::PktType::WRITE : nfr::PktType::READ_DATA;
  t.src_node = rnd(1 << 14);
  t.dst_node = rnd(1 << 14);
  t.src_vp = rnd(32);
  t.dst_vp = rnd(32);
  t.phys = rnd(100) < 50;
  t.rev = rnd(100) < 50;
  t.msg_id = rnd(256);
  t.aux = rng();
  t.first = rnd(100) < 50;
  t.last = rnd(100) < 50;
  t.len = rnd(256);
  t.msg_len = static_cast<std::uint32_t>(rng());
  t.addr.key = rnd(1 << 16);
  t.addr.addr = rng() & kPktAddrMask;
  return t;
}

}  // namespace nic_tb
