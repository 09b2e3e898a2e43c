// sim/net/barrier/net_alltoall.hpp: the all-to-all one-sided barrier (seed 002; docs/barrier.md), the
// baseline of the multiphase barrier. It lives above any network that carries packets and reports
// their delivery (no RTL): at its call a node queues one barrier packet to every other node, behind
// the data it queued before; it may leave when it holds a barrier packet of this barrier from every
// other node (N - 1 packets per node, N^2 - N per half barrier). A full barrier is two half barriers
// in a row (the paper: two half barriers give the barrier's guarantees), 2(N^2 - N) packets. Node n
// sends to n + 1, n + 2, ... (mod N), so that the nodes do not all send to the same node at once.
//
// Its guarantee rests on per-flow order: the barrier packet from s to t must not overtake an earlier
// packet from s to t (dimension-order routing; not ADBR, whose packets of one flow take different
// paths).
//
// Rounds: every half barrier is one round; a full barrier two. A node in round r may receive round
// r + 1 packets from a node that finished r before it, never r + 2 (their sender needs this node's
// r + 1 packet first): counts by the round's parity suffice. Barrier packets are recognised at
// delivery by the id the network gave them when they were queued.
//
// Use with the network engine (sketch in docs/barrier.md): Send = the engine's enqueue returning
// the packet's tag; delivered() from its delivery hook; BarrierCheck fed with the calls, the leaves
// and the data packets.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "sim/net/barrier/net_barrier_check.hpp"

namespace hpcnet::sim {

class AllToAllBarrier {
 public:
  // Queue one packet from src to dst now (behind src's earlier packets); returns the id the
  // network will report at its delivery.
  using Send = std::function<uint64_t(unsigned src, unsigned dst)>;

  AllToAllBarrier(unsigned nodes, Send send);

  unsigned nodes() const { return static_cast<unsigned>(node_.size()); }
  // Node n calls a barrier (it must not be in one).
  void call(unsigned n, BarrierKind kind);
  // A packet with this id reached node dst: true if it was a barrier packet (consumed here).
  bool delivered(uint64_t id, unsigned dst);
  // Node n is in a barrier and may leave it.
  bool may_leave(unsigned n) const;
  // Node n leaves (may_leave(n) must hold).
  void leave(unsigned n);
  bool in_barrier(unsigned n) const { return node_.at(n).in; }

  uint64_t barrier_packets() const { return sent_; }  // barrier packets queued so far

 private:
  struct Node {
    bool in = false;
    unsigned rounds_left = 0;   // rounds of the current barrier still to finish (incl. the current one)
    uint64_t round = 0;         // rounds started since reset (the current one is round - 1)
    unsigned got[2] = {0, 0};   // barrier packets held, by round parity
  };
  void start_round(unsigned n);
  void advance(unsigned n);     // finish rounds whose packets are all here

  std::vector<Node> node_;
  Send send_;
  std::unordered_map<uint64_t, uint8_t> tag_;  // barrier packet id -> round parity
  uint64_t sent_ = 0;
};

}  // namespace hpcnet::sim
