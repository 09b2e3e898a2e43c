// unit_util.hpp: helpers shared by the SSM unit tests: the random seed (hpcnet::tb::seed, also
// reachable as ssmu::seed), bit-field access to Verilator's wide ports (VlWide, 32-bit words) and
// the hash entry (ssm_pkg::entry_t, the format `entry` of rtl/ssm/ssm_regs.toml, generated
// into hpcnet/ssm_regs.hpp) on the models' flat entry ports.
#pragma once
#include <cstdint>

#include "hpcnet/ssm_regs.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/seed.hpp"

namespace ssmu {

using hpcnet::tb::seed;

using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;

// ssm_pkg::entry_t: {value, l, p, cnt}.
using Entry = hpcnet::ssm_regs::Entry;
constexpr unsigned kEntryW = Entry::kBits;
inline bool is_reset(const Entry& e) { return !e.l && !e.p && e.cnt == 0; }

template <class W>
Entry get_entry(const W& w, unsigned lsb) {
  return hpcnet::tb::get_format<Entry>(w, lsb);
}
template <class W>
void put_entry(W& w, unsigned lsb, const Entry& e) {
  hpcnet::tb::put_format(w, lsb, e);
}

}  // namespace ssmu
