// nic_link.cpp: the back-to-back link of two NICs over the link layer's wire.
#include "sim/nic/nic_link.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::sim {

NicBackToBack::NicBackToBack(NicLinkPort& a, NicLinkPort& b, unsigned delay, std::array<NicLinkFaults, 2> faults,
                             uint64_t seed)
    : ab_{&a, &b, LinkWire(delay, faults[0].flits, faults[0].ctl, seed * 2 + 1)},
      ba_{&b, &a, LinkWire(delay, faults[1].flits, faults[1].ctl, seed * 2 + 2)} {
  if (delay < 1) throw std::invalid_argument("NicBackToBack: the link delay must be at least 1 cycle");
}

void NicBackToBack::drive() {
  // what arrives this cycle at each end: the other's flit and its receiver's control word
  for (Way* w : {&ab_, &ba_}) {
    WireFlit f;
    NicFlit& rx = w->to->rx;
    rx.valid = w->wire.flit_out(now_, f);
    if (rx.valid) {
      rx.vc = f.vc & 1;
      rx.head = f.head;
      rx.tail = f.tail;
      rx.seq = f.seq;
      rx.crc = f.crc;
      rx.data = f.data;
    }
    uint64_t c = 0;
    w->to->ctl_in_valid = w->wire.ctl_out(now_, c);
    w->to->ctl_in = c;
  }
}

void NicBackToBack::sample() {
  for (Way* w : {&ab_, &ba_}) {
    const NicFlit& t = w->from->tx;
    WireFlit f;
    if (t.valid) {
      f.vc = t.vc;
      f.head = t.head;
      f.tail = t.tail;
      f.seq = t.seq;
      f.crc = t.crc;
      f.data = t.data;
      ++flits_;
    }
    w->wire.put(now_, t.valid ? &f : nullptr, true, w->from->ctl_out);
  }
  ++now_;
}

std::string NicBackToBack::describe() const {
  return fmt::format("nic link: {} flits carried; faults injected a->b {}, b->a {}", flits_, ab_.wire.log().size(),
                     ba_.wire.log().size());
}

}  // namespace hpcnet::sim
