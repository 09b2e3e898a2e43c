// sim/net/barrier/net_barrier_check.hpp: the guarantees of the barrier and the half barrier (seed 002,
// docs/barrier.md), checked on logs, independent of the RTL and of how the barrier is built
// (multiphase, all-to-all, the SSM's tree): it is fed what the nodes see.
//
//   enter(n, cycle, kind)      node n enters its next barrier (half or full) in `cycle`
//   leave(n, cycle)            node n leaves its current barrier in `cycle` (told it may)
//   sent(src, dst, cycle)      a data packet handed to the network (taken by the router's
//                              injection port) in `cycle`; returns its id
//   arrived(id, cycle)         that packet delivered to its destination node in `cycle`
//
// Barrier b is the b-th barrier of every node (0, 1, ...); all nodes must run the same sequence of
// kinds. "Before entering" means a cycle strictly below the enter cycle (a packet taken in the
// same cycle as the enter is the barrier's successor); "by the time it leaves" means in the leave
// cycle or before. check() reports, for every completed barrier (left), with L_t = node t's leave
// and E_u = node u's enter of barrier b:
//   - half barrier (guarantees 1 and 3 of the paper): E_u <= L_t for every node u (every node has
//     entered), and every packet to t that its sender sent before E_sender(b) has arrived by L_t;
//   - full barrier (adds guarantee 5): also every packet t sent before E_t(b) has arrived (at its
//     destination) by L_t;
//   - the logs' own form: enters and leaves alternate per node, E < L, the same kind of barrier b
//     at every node.
// A packet that never arrived counts as arriving after every leave. Checking is O(P log B) for P
// packets and B barriers: per packet only the first barrier its sender entered after sending it
// (and the first full one) can be violated first; later ones leave later.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace hpcnet::sim {

enum class BarrierKind : uint8_t { half, full };

struct BarrierViolation {
  enum class Kind : uint8_t {
    malformed,        // enter/leave out of order, leave not after enter, unknown node or packet
    kind_mismatch,    // barrier b is half at one node, full at another
    not_all_entered,  // a node left barrier b before some node entered it
    to_node_missing,  // a packet sent to the leaving node before its sender entered: not arrived
    own_missing,      // full barrier: a packet the leaving node sent before entering: not arrived
  };
  Kind kind;
  unsigned node = 0;      // the leaving node (or the node of a malformed record)
  unsigned barrier = 0;   // b
  uint64_t packet = 0;    // id (to_node_missing, own_missing); the late node (not_all_entered)
  std::string what;       // one line, with the cycles involved
};

const char* to_string(BarrierViolation::Kind k);

class BarrierCheck {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  explicit BarrierCheck(unsigned nodes);
  unsigned nodes() const { return static_cast<unsigned>(node_.size()); }

  void enter(unsigned n, uint64_t cycle, BarrierKind kind);
  void leave(unsigned n, uint64_t cycle);
  uint64_t sent(unsigned src, unsigned dst, uint64_t cycle);
  void arrived(uint64_t id, uint64_t cycle);

  // Every violation found in the records so far (barriers not yet left by a node are checked for
  // the nodes that left them). Stops after `limit` violations.
  std::vector<BarrierViolation> check(size_t limit = 100) const;
  // check() as one message (empty: none), for REQUIRE and for a simulation's error.
  std::string report(size_t limit = 10) const;

  // barriers node n has entered, and left
  size_t entered(unsigned n) const { return node_.at(n).size(); }
  size_t left(unsigned n) const;
  size_t packets() const { return pkt_.size(); }

 private:
  struct Bar {
    uint64_t enter = 0, leave = kNever;
    BarrierKind kind = BarrierKind::half;
  };
  struct Pkt {
    unsigned src = 0, dst = 0;
    uint64_t sent = 0, arrived = kNever;
  };
  std::vector<std::vector<Bar>> node_;
  std::vector<Pkt> pkt_;
  std::vector<BarrierViolation> malformed_;  // found while recording
};

}  // namespace hpcnet::sim
