// gsn_msg.hpp: the sync network's message (generated from rtl/gsn/gsn_formats.toml:
// hpcnet/gsn_formats.hpp) printed for test reports, for the harnesses of the tree, of one tree node
// and of the SSM's collective unit (its network port).
#pragma once
#include <ostream>

#include "hpcnet/gsn_formats.hpp"

namespace hpcnet::gsn_formats {
inline std::ostream& operator<<(std::ostream& os, const Msg& m) {
  return os << "{addr=0x" << std::hex << m.addr << " value=0x" << m.value << std::dec << " kind=" << to_string(m.kind)
            << " type=" << to_string(m.type) << " op=" << to_string(m.op) << " err=" << m.err << " zero=" << m.zero
            << "}";
}
}  // namespace hpcnet::gsn_formats
