// sim/net/barrier/net_alltoall.cpp: see net_alltoall.hpp.
#include "sim/net/barrier/net_alltoall.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace hpcnet::sim {

AllToAllBarrier::AllToAllBarrier(unsigned nodes, Send send) : node_(nodes), send_(std::move(send)) {}

void AllToAllBarrier::call(unsigned n, BarrierKind kind) {
  Node& nd = node_.at(n);
  if (nd.in) throw std::logic_error("AllToAllBarrier: node " + std::to_string(n) + " calls a barrier while in one");
  nd.in = true;
  nd.rounds_left = kind == BarrierKind::full ? 2 : 1;
  start_round(n);
  advance(n);  // packets of this round that arrived early; one node alone finishes at once
}

void AllToAllBarrier::start_round(unsigned n) {
  Node& nd = node_[n];
  const uint8_t parity = static_cast<uint8_t>(nd.round & 1);
  ++nd.round;
  for (unsigned i = 1; i < nodes(); ++i) {  // n + 1, n + 2, ...: not every node to node 0 first
    tag_.emplace(send_(n, (n + i) % nodes()), parity);
    ++sent_;
  }
}

void AllToAllBarrier::advance(unsigned n) {
  Node& nd = node_[n];
  while (nd.in && nd.rounds_left > 0) {
    unsigned& got = nd.got[(nd.round - 1) & 1];
    if (got < nodes() - 1) return;
    got -= nodes() - 1;
    if (--nd.rounds_left > 0) start_round(n);  // the full barrier's second round
  }
}

bool AllToAllBarrier::delivered(uint64_t id, unsigned dst) {
  auto it = tag_.find(id);
  if (it == tag_.end()) return false;
  Node& nd = node_.at(dst);
  const unsigned parity = it->second;
  tag_.erase(it);
  ++nd.got[parity];
  // at most one round's packets per parity (a round r + 2 packet while in round r would break it)
  if (nd.got[parity] > nodes() - 1)
    throw std::logic_error("AllToAllBarrier: node " + std::to_string(dst) + " holds more than one round of barrier packets of one parity");
  advance(dst);
  return true;
}

bool AllToAllBarrier::may_leave(unsigned n) const {
  const Node& nd = node_.at(n);
  return nd.in && nd.rounds_left == 0;
}

void AllToAllBarrier::leave(unsigned n) {
  if (!may_leave(n)) throw std::logic_error("AllToAllBarrier: node " + std::to_string(n) + " leaves before its barrier completed");
  node_[n].in = false;
}

}  // namespace hpcnet::sim
