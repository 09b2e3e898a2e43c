// ssm_ret.hpp: a completion as the SSM's units hand it to the return writer (ssm_pkg::ret_t), read
// from a Verilated port, for the harnesses of the units that answer operations on their own
// (ssm_coll, ssm_burst).
#pragma once
#include <cstdint>
#include <ostream>

#include "hpcnet/tb/bits.hpp"

namespace hpcnet::tb {

// ssm_pkg::ret_t: {pe[143:140], thread[139:136], opcode[135:132], ret_offset[131:120],
// addr[119:72], value[71:8], state[7:0]}
struct SsmRet {
  unsigned pe = 0, thread = 0, opcode = 0, ret = 0;
  std::uint64_t addr = 0, value = 0;
  unsigned state = 0;
  bool operator==(const SsmRet&) const = default;
};

template <class W>
SsmRet get_ret(const W& w) {
  SsmRet x;
  x.state = unsigned(get_bits(w, 0, 8));
  x.value = get_bits(w, 8, 64);
  x.addr = get_bits(w, 72, 48);
  x.ret = unsigned(get_bits(w, 120, 12));
  x.opcode = unsigned(get_bits(w, 132, 4));
  x.thread = unsigned(get_bits(w, 136, 4));
  x.pe = unsigned(get_bits(w, 140, 4));
  return x;
}

inline std::ostream& operator<<(std::ostream& os, const SsmRet& x) {
  return os << "{pe=" << x.pe << " thread=" << x.thread << " opc=" << x.opcode << " ret=" << x.ret << " addr=0x"
            << std::hex << x.addr << " value=0x" << x.value << " state=0x" << x.state << std::dec << "}";
}

}  // namespace hpcnet::tb
