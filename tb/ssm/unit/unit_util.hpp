// unit_util.hpp: helpers shared by the SSM unit tests: the random seed (hpcnet::tb::seed, also
// reachable as ssmu::seed), bit-field access to Verilator's wide ports (VlWide, 32-bit words) and
// the entry_t packing of ssm_pkg ({value[73:10], l[9], p[8], cnt[7:0]}).
#pragma once
#include <cstdint>

#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/seed.hpp"

namespace ssmu {

using hpcnet::tb::seed;

using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;

// ssm_pkg::entry_t.
struct Entry {
  std::uint64_t value = 0;
  bool l = false, p = false;
  unsigned cnt = 0;
  bool is_reset() const { return !l && !p && cnt == 0; }
  bool operator==(const Entry& o) const {
    return value == o.value && l == o.l && p == o.p && cnt == o.cnt;
  }
};
constexpr unsigned kEntryW = 74;

template <class W>
Entry get_entry(const W& w, unsigned lsb) {
  Entry e;
  e.cnt = unsigned(get_bits(w, lsb, 8));
  e.p = get_bits(w, lsb + 8, 1);
  e.l = get_bits(w, lsb + 9, 1);
  e.value = get_bits(w, lsb + 10, 64);
  return e;
}
template <class W>
void put_entry(W& w, unsigned lsb, const Entry& e) {
  put_bits(w, lsb, 8, e.cnt);
  put_bits(w, lsb + 8, 1, e.p);
  put_bits(w, lsb + 9, 1, e.l);
  put_bits(w, lsb + 10, 64, e.value);
}

}  // namespace ssmu
