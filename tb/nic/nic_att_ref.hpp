// nic_att_ref.hpp: the C++ reference of nic_att (rtl/nic/nic_att.sv): the region table, the ATT
// and the checks in the documented order, independent of the RTL. test_nic_att.cpp drives it.
#pragma once
#include <cstdint>
#include <vector>

#include "hpcnet/nic_formats.hpp"

namespace hpcnet::tb::nic_att {

namespace nf = hpcnet::nic_formats;
using St = nf::Status;

constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t kAddrMask = (std::uint64_t{1} << 48) - 1;
constexpr std::uint64_t kPpnMask = (std::uint64_t{1} << 36) - 1;

struct Params {
  unsigned clients, num_keys, att_log2, att_lat, num_vp;
  std::uint64_t att_n() const { return std::uint64_t{1} << att_log2; }
  unsigned depth() const { return att_lat + 4; }    // a client's response buffer
  unsigned latency() const { return att_lat + 3; }  // acceptance to response valid
};

struct Region {
  bool valid = false, rd = false, wr = false;
  std::uint64_t base = 0, len = 0;
  unsigned owner = 0;
  std::uint32_t attb = 0;
};

struct Req {
  unsigned vp = 0;
  std::uint64_t key = 0, addr = 0;
  std::uint32_t len = 0;
  bool write = false, phys = false, phys_ok = false;
};

struct Exp {
  St st = St::OK;
  std::uint64_t paddr = 0;
  bool need_att = false;  // paddr's page number still to be read from the reference ATT
  std::uint64_t idx = 0, acc_cycle = 0;
};

// The reference: the region table and the ATT, and the checks in the documented order.
struct Ref {
  Params p;
  std::vector<Region> tbl;
  std::vector<std::uint64_t> att;
  explicit Ref(Params p_) : p(p_), tbl(p_.num_keys), att(p_.att_n()) {}
  Exp lookup(const Req& q, bool& idx_range) const {
    Exp e;
    idx_range = false;
    if (q.phys) {
      if (q.phys_ok) e.paddr = q.addr;
      else e.st = St::PHYS_DENIED;
      return e;
    }
    if (q.key >= p.num_keys || !tbl[q.key].valid) { e.st = St::BAD_KEY; return e; }
    const Region& r = tbl[q.key];
    if (r.owner != q.vp) { e.st = St::NOT_OWNER; return e; }
    if (q.len == 0 || q.addr < r.base || q.addr + q.len > r.base + r.len) { e.st = St::RANGE; return e; }
    if (!(q.write ? r.wr : r.rd)) { e.st = St::PERM; return e; }
    const std::uint64_t idx = std::uint64_t{r.attb} + (q.addr >> 12) - (r.base >> 12);
    if (idx >= p.att_n()) { e.st = St::RANGE; idx_range = true; return e; }
    e.need_att = true;
    e.idx = idx;
    e.paddr = q.addr & 0xfff;
    return e;
  }
};

}  // namespace hpcnet::tb::nic_att
