// nic_link.cpp: the back-to-back link of two NICs.
#include "sim/nic/nic_link.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::sim {

NicBackToBack::NicBackToBack(NicLinkPort& a, NicLinkPort& b, unsigned delay)
    : ab_{&a, &b, std::deque<Slot>(delay)}, ba_{&b, &a, std::deque<Slot>(delay)} {
  if (delay < 1) throw std::invalid_argument("NicBackToBack: the link delay must be at least 1 cycle");
}

void NicBackToBack::drive() {
  // what each side sent `delay` cycles ago: a flit for the other's receiver, and a credit for
  // the other's sender
  for (Way* w : {&ab_, &ba_}) {
    const Slot& s = w->line.front();
    w->to->rx = s.flit;
    w->to->tx_cred_valid = s.cred;
    w->to->tx_cred_vc = s.cred_vc;
  }
}

void NicBackToBack::sample() {
  for (Way* w : {&ab_, &ba_}) {
    w->line.pop_front();
    Slot s;
    s.flit = w->from->tx;
    s.cred = w->from->rx_cred_valid;
    s.cred_vc = w->from->rx_cred_vc;
    if (s.flit.valid) ++flits_;
    w->line.push_back(s);
  }
}

std::string NicBackToBack::describe() const {
  unsigned a = 0, b = 0;
  for (const Slot& s : ab_.line) a += s.flit.valid;
  for (const Slot& s : ba_.line) b += s.flit.valid;
  return fmt::format("nic link: {} flits carried, {} in flight a->b, {} b->a", flits_, a, b);
}

}  // namespace hpcnet::sim
