// nic_exec_ref.hpp: what descriptor execution must do with one descriptor (docs/nic.md section 5,
// the descriptor table; section 3, the packet stream), for the module test test_nic_exec.cpp.
// Written from the documentation, not from rtl/nic/nic_exec.sv:
//   - the descriptor's own checks, in the order the documentation lists them: DQ's bad flag and
//     NWORDS, TYPE, a flag the type does not take (REV on a read or a mini-packet: BAD_FLAGS),
//     NWORDS against the type and flags, lengths (RDMA LEN 1.., IMM 1..128, MP 0..120), DST_VP
//     below NumVp, PHYS only on a VP with PHYS_OK, event addresses 16-byte aligned (INFO 0);
//   - the translations it asks for, in order: the local event (16 bytes), an RDMA read's local
//     destination (LEN bytes); a failure ends the descriptor with that status, INFO 3 for the
//     event, 1 for the local destination;
//   - the record for the completion unit (nic_cmpl_pkg::rec_t, CmplRec);
//   - what it sends: RDMA_WRITE an engine 0 job (a WRITE head template) and, after engine 0's
//     success with REV, an EVENT; RDMA_READ a READ_REQ (ADDR the remote source, AUX the local
//     destination); IMM_WRITE one WRITE packet per destination 128-byte block (one or two) and
//     the EVENT with REV; MP_SEND an MP packet (payload bytes 8.. the data, AUX the TAG << 16).
//     Every head: SRC_NODE this node, SRC_VP the VP, DST_NODE, DST_VP, PHYS and REV of the
//     descriptor, MSG_ID {epoch, slot}.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hpcnet/nic_formats.hpp"
#include "nic_cmpl_ref.hpp"
#include "nic_pkt_ref.hpp"

namespace nic_tb {

namespace nxf = hpcnet::nic_formats;

inline constexpr unsigned kExMaxWords = 24;
using ExPkt = std::array<std::uint64_t, 20>;  // 5 flits of 4 words: the head, then the payload

struct ExDesc {
  std::array<std::uint64_t, kExMaxWords> w{};  // w[0] is desc_ctrl; words past NWORDS are noise
  unsigned vp = 0;
  bool bad = false;  // the DQ's flag (NWORDS outside 2..24)
  nxf::DescCtrl c() const { return nxf::DescCtrl::unpack({w[0]}); }
};

struct ExXlReq {
  unsigned vp = 0;
  std::uint64_t addr = 0;
  std::uint32_t len = 0;
  bool phys = false, phys_ok = false;
  bool operator==(const ExXlReq&) const = default;
};

inline constexpr unsigned ex_st(nxf::Status s) { return static_cast<unsigned>(s); }

// Descriptor layout: where the local event, the remote event and the data start.
struct ExLayout {
  unsigned lev_at = 0, rev_at = 0, dat_at = 0, need = 0;
};
inline ExLayout ex_layout(const nxf::DescCtrl& c) {
  using T = nxf::DescType;
  ExLayout l;
  const unsigned base = (c.type == T::IMM_WRITE) ? 2 : (c.type == T::MP_SEND) ? 1 : 4;
  l.lev_at = base;
  l.rev_at = base + (c.lev ? 3 : 0);
  l.dat_at = l.rev_at + (c.rev ? 3 : 0);
  const unsigned dw = (c.short_len + 7) / 8;
  l.need = c.type == T::IMM_WRITE ? l.dat_at + dw : c.type == T::MP_SEND ? l.dat_at + (dw ? dw : 1) : l.dat_at;
  return l;
}

// The descriptor's own checks (no translation): the status, OK when it passes.
inline unsigned ex_static_status(const ExDesc& d, unsigned num_vp, bool phys_ok) {
  using T = nxf::DescType;
  using S = nxf::Status;
  const nxf::DescCtrl c = d.c();
  const ExLayout l = ex_layout(c);
  const unsigned t = static_cast<unsigned>(c.type);
  const bool rdma = c.type == T::RDMA_WRITE || c.type == T::RDMA_READ;
  if (d.bad) return ex_st(S::BAD_NWORDS);
  if (t < 1 || t > 4) return ex_st(S::BAD_TYPE);
  if (c.rev && (c.type == T::RDMA_READ || c.type == T::MP_SEND)) return ex_st(S::BAD_FLAGS);
  if (c.nwords != l.need) return ex_st(S::BAD_NWORDS);
  if (rdma && static_cast<std::uint32_t>(d.w[1]) == 0) return ex_st(S::BAD_LEN);
  if (c.type == T::IMM_WRITE && (c.short_len == 0 || c.short_len > 128)) return ex_st(S::BAD_LEN);
  if (c.type == T::MP_SEND && c.short_len > 120) return ex_st(S::BAD_LEN);
  if (c.dst_vp >= num_vp) return ex_st(S::BAD_VP);
  if (c.phys && !phys_ok) return ex_st(S::PHYS_DENIED);
  if ((c.lev && (d.w[l.lev_at] & 15)) || (c.rev && (d.w[l.rev_at] & 15))) return ex_st(S::EV_ALIGN);
  return ex_st(S::OK);
}

// The translations a descriptor that passed its checks asks for, in order; info: the INFO of a
// failure of each.
struct ExXlStep {
  ExXlReq req;
  unsigned info = 0;
};
inline std::vector<ExXlStep> ex_xl_plan(const ExDesc& d, bool phys_ok) {
  const nxf::DescCtrl c = d.c();
  const ExLayout l = ex_layout(c);
  std::vector<ExXlStep> p;
  if (c.lev) p.push_back({ExXlReq{d.vp, d.w[l.lev_at], 16, c.phys, phys_ok}, 3});
  if (c.type == nxf::DescType::RDMA_READ)
    p.push_back({ExXlReq{d.vp, d.w[2], static_cast<std::uint32_t>(d.w[1]), c.phys, phys_ok}, 1});
  return p;
}

// The completion unit's record (lev_pa: the local event's translation).
inline CmplRec ex_record(const ExDesc& d, std::uint64_t lev_pa) {
  using T = nxf::DescType;
  const nxf::DescCtrl c = d.c();
  const ExLayout l = ex_layout(c);
  CmplRec r;
  r.vp = d.vp;
  r.tag = c.tag;
  r.typ = static_cast<unsigned>(c.type);
  r.dst_node = c.dst_node;
  r.len = (c.type == T::RDMA_WRITE || c.type == T::RDMA_READ) ? static_cast<std::uint32_t>(d.w[1]) : c.short_len;
  r.cq_ok = c.cq_ok;
  r.intr = c.intr;
  r.lev = c.lev;
  if (c.lev) {
    r.lev_pa = lev_pa;
    r.lev_key = c.phys ? 0 : static_cast<unsigned>(d.w[l.lev_at] >> 48);
    r.lev_phys = c.phys;
    r.lev_data = {d.w[l.lev_at + 1], d.w[l.lev_at + 2]};
  }
  return r;
}

template <class W>
CmplRec ex_get_rec(const W& port) {
  using hpcnet::tb::get_bits;
  CmplRec r;
  r.vp = static_cast<unsigned>(get_bits(port, 0, 5));
  r.tag = static_cast<unsigned>(get_bits(port, 5, 16));
  r.typ = static_cast<unsigned>(get_bits(port, 21, 4));
  r.dst_node = static_cast<unsigned>(get_bits(port, 25, 14));
  r.len = static_cast<std::uint32_t>(get_bits(port, 39, 32));
  r.cq_ok = get_bits(port, 71, 1);
  r.intr = get_bits(port, 72, 1);
  r.lev = get_bits(port, 73, 1);
  r.lev_phys = get_bits(port, 74, 1);
  r.lev_key = static_cast<unsigned>(get_bits(port, 75, 16));
  r.lev_pa = get_bits(port, 91, 48);
  r.lev_data = {get_bits(port, 139, 64), get_bits(port, 203, 64)};
  return r;
}

// The head fields every packet and the job take from the descriptor.
inline nxf::PktHead ex_head_tmpl(const ExDesc& d, unsigned node, unsigned msg_id) {
  const nxf::DescCtrl c = d.c();
  nxf::PktHead h;
  h.src_node = node;
  h.dst_node = c.dst_node;
  h.src_vp = d.vp;
  h.dst_vp = c.dst_vp;
  h.phys = c.phys;
  h.rev = c.rev;
  h.msg_id = msg_id;
  return h;
}

inline void ex_put_head(ExPkt& p, const nxf::PktHead& h) {
  const auto hw = h.pack();
  for (unsigned i = 0; i < 4; ++i) p[i] = hw[i];
}
// Payload byte i (0..127) of packet p.
inline void ex_put_byte(ExPkt& p, unsigned i, std::uint8_t v) {
  p[4 + i / 8] |= std::uint64_t{v} << (8 * (i % 8));
}
inline std::uint8_t ex_desc_byte(const ExDesc& d, unsigned word, unsigned i) {  // byte i from word on
  return static_cast<std::uint8_t>(d.w[word + i / 8] >> (8 * (i % 8)));
}

// The remote event's packet (16 bytes at the REV address).
inline ExPkt ex_event_pkt(const ExDesc& d, unsigned node, unsigned msg_id) {
  const ExLayout l = ex_layout(d.c());
  nxf::PktHead h = ex_head_tmpl(d, node, msg_id);
  h.ptype = nxf::PktType::EVENT;
  h.first = h.last = true;
  h.len = h.msg_len = 16;
  h.addr = nxf::Vaddr::unpack({d.w[l.rev_at]});
  ExPkt p{};
  ex_put_head(p, h);
  p[4] = d.w[l.rev_at + 1];
  p[5] = d.w[l.rev_at + 2];
  return p;
}

// Engine 0's job head (RDMA_WRITE): the template with PTYPE WRITE.
inline nxf::PktHead ex_job_head(const ExDesc& d, unsigned node, unsigned msg_id) {
  nxf::PktHead h = ex_head_tmpl(d, node, msg_id);
  h.ptype = nxf::PktType::WRITE;
  return h;
}

// The packets this unit sends itself for a dispatched RDMA_READ, IMM_WRITE or MP_SEND.
inline std::vector<ExPkt> ex_packets(const ExDesc& d, unsigned node, unsigned msg_id) {
  using T = nxf::DescType;
  const nxf::DescCtrl c = d.c();
  const ExLayout l = ex_layout(c);
  const nxf::PktHead t = ex_head_tmpl(d, node, msg_id);
  std::vector<ExPkt> out;
  if (c.type == T::RDMA_READ) {
    nxf::PktHead h = t;
    h.ptype = nxf::PktType::READ_REQ;
    h.first = h.last = true;
    h.addr = nxf::Vaddr::unpack({d.w[3]});
    h.msg_len = static_cast<std::uint32_t>(d.w[1]);
    h.aux = d.w[2];
    ExPkt p{};
    ex_put_head(p, h);
    out.push_back(p);
  } else if (c.type == T::MP_SEND) {
    nxf::PktHead h = t;
    h.ptype = nxf::PktType::MP;
    h.first = h.last = true;
    h.len = h.msg_len = c.short_len;
    h.aux = std::uint64_t{c.tag} << 16;
    ExPkt p{};
    ex_put_head(p, h);
    for (unsigned i = 0; i < c.short_len; ++i) ex_put_byte(p, 8 + i, ex_desc_byte(d, l.dat_at, i));
    out.push_back(p);
  } else {  // IMM_WRITE
    nxf::PktHead wt = t;
    wt.ptype = nxf::PktType::WRITE;
    const std::uint64_t dst = d.w[1];
    const unsigned n = pkt_ref_count(dst, c.short_len);
    for (unsigned k = 0; k < n; ++k) {
      ExPkt p{};
      ex_put_head(p, pkt_ref_head(wt, dst, c.short_len, k, 0));
      for (unsigned f = 0; f < 4; ++f) {
        const Bytes32 b = pkt_ref_payload(dst, c.short_len, k, f, [&](std::uint32_t i) { return ex_desc_byte(d, l.dat_at, i); });
        for (unsigned i = 0; i < 32; ++i) ex_put_byte(p, 32 * f + i, b[i]);
      }
      out.push_back(p);
    }
    if (c.rev) out.push_back(ex_event_pkt(d, node, msg_id));
  }
  return out;
}

}  // namespace nic_tb
