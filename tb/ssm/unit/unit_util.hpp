// unit_util.hpp: helpers shared by the SSM unit tests: the random seed (hpcnet::tb::seed, also
// reachable as ssmu::seed), bit-field access to Verilator's wide ports (VlWide, 32-bit words), the
// opcodes and a queued operation (ssm_pkg::op_t) on a port, and the hash entry (ssm_pkg::entry_t,
// the format `entry` of rtl/ssm/ssm_regs.toml, generated into hpcnet/ssm_regs.hpp) on the models'
// flat entry ports.
#pragma once
#include <cstdint>
#include <ostream>

#include "hpcnet/ssm_regs.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/seed.hpp"

// Printed in its own namespace, so that Catch2 finds it for the entries of a failed check.
namespace hpcnet::ssm_regs {
inline std::ostream& operator<<(std::ostream& os, const Entry& e) {
  return os << "{v=0x" << std::hex << e.value << std::dec << " l=" << e.l << " p=" << e.p
            << " cnt=" << e.cnt << "}";
}
}  // namespace hpcnet::ssm_regs

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

// The opcodes (rtl/ssm/ssm_regs.toml) as plain numbers: the tests draw them from ranges.
constexpr unsigned code(hpcnet::ssm_regs::Opcode o) { return static_cast<unsigned>(o); }
constexpr unsigned kPut = code(hpcnet::ssm_regs::Opcode::PUT), kGet = code(hpcnet::ssm_regs::Opcode::GET),
                   kLock = code(hpcnet::ssm_regs::Opcode::LOCK), kUnlock = code(hpcnet::ssm_regs::Opcode::UNLOCK),
                   kTrylock = code(hpcnet::ssm_regs::Opcode::TRYLOCK), kBarrier = code(hpcnet::ssm_regs::Opcode::BARRIER),
                   kReduce = code(hpcnet::ssm_regs::Opcode::REDUCE), kBurst = code(hpcnet::ssm_regs::Opcode::BURST);
// The tests draw rnd(kPut, kTrylock) and rnd(kBarrier, kBurst): each range holds only its kind.
static_assert(kTrylock - kPut == 4 && kBurst - kBarrier == 2);
inline bool is_coll(unsigned opc) { return opc == kBarrier || opc == kReduce || opc == kBurst; }

// ssm_pkg::op_t: {opcode[191:188], ret_offset[187:176], addr[175:128], value[127:64], args[63:0]}.
struct Op {
  unsigned opcode = kPut, ret = 0;
  std::uint64_t addr = 0, value = 0, args = 0x801;  // args: the window's ARGS word, passed through
  bool operator==(const Op& o) const {
    return opcode == o.opcode && ret == o.ret && addr == o.addr && value == o.value && args == o.args;
  }
};
inline std::ostream& operator<<(std::ostream& os, const Op& o) {
  return os << "{opc=" << o.opcode << " ret=" << o.ret << " addr=0x" << std::hex << o.addr
            << " id=0x" << o.value << std::dec << "}";
}

// ssm_pkg::op_t on a model's port.
template <class W>
void put_op(W& w, const Op& o) {
  put_bits(w, 0, 64, o.args);
  put_bits(w, 64, 64, o.value);
  put_bits(w, 128, 48, o.addr);
  put_bits(w, 176, 12, o.ret);
  put_bits(w, 188, 4, o.opcode);
}
template <class W>
Op get_op(const W& w) {
  Op o;
  o.args = get_bits(w, 0, 64);
  o.value = get_bits(w, 64, 64);
  o.addr = get_bits(w, 128, 48);
  o.ret = unsigned(get_bits(w, 176, 12));
  o.opcode = unsigned(get_bits(w, 188, 4));
  return o;
}

}  // namespace ssmu
