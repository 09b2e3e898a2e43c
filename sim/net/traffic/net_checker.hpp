// sim/net/traffic/net_checker.hpp: the flit format the traffic generator writes and the checker that
// verifies every delivered flit.
//
// Flit = flit_bits/32 words of 32 bits (word i = bits [32i+31:32i]); at least 5 words.
//   head word 0   route field set by the source: bytes 0..2 = signed remaining hops in dims 0..2
//                 (dest - src coordinate), byte 3 = hop counter (0 at the source). The routers
//                 decrement the hops and count the hop counter; at ejection bytes 0..2 are zero
//                 and byte 3 is the number of network hops travelled.
//   body word 0   pattern word
//   word 1        src node (bits 15:0) | dst node (bits 31:16)
//   word 2        packet sequence number of the source (0, 1, 2, ... in creation order)
//   word 3        creation cycle, bits 31:0
//   word 4        creation cycle bits 47:32 (bits 15:0) | flit index (23:16) | 0xA5 (31:24)
//   words 5..     pattern words: a hash of (src, dst, seq, creation cycle, flit index, word index)
// So every bit of every flit is predictable by the checker.
//
// NetChecker verifies, on every ejected flit: a packet arrives as pkt_flits consecutive beats on
// one ejection port with flit indices 0..pkt_flits-1; it is ejected at its destination; every
// word of every flit is intact; the route field is zero and the hop counter equals the Manhattan
// distance (minimal routing); the packet was injected and is delivered exactly once; and, when
// order checking is on (DOR modes), packets of one (src, dst) flow arrive in sequence order.
// Any violation throws NetCheckError with the cycle, node and the flit as received/expected.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/net/net_types.hpp"

namespace hpcnet::sim {

struct NetCheckError : SimError {
  using SimError::SimError;
};

// What identifies a packet on the wire.
struct PacketTag {
  uint32_t src = 0, dst = 0, seq = 0;
  uint64_t created = 0;  // creation cycle (48 bits carried)
};

inline constexpr uint32_t kFlitMagic = 0xA5;

inline uint32_t flit_pattern_word(const PacketTag& p, unsigned flit, unsigned word) {
  const uint64_t key = (static_cast<uint64_t>(p.seq) << 32) ^ (static_cast<uint64_t>(p.src) << 16) ^ p.dst ^
                       (p.created * 0x9E3779B97F4A7C15ull) ^ (static_cast<uint64_t>(flit) << 56) ^
                       (static_cast<uint64_t>(word) << 48);
  return static_cast<uint32_t>(mix64(key));
}

// Route field of a head flit at the source: the signed hops of the minimal route per dimension
// (dst - src in a mesh, the shorter way round in a torus: MeshShape::offset), hop counter 0.
inline uint32_t route_field(const MeshShape& s, unsigned src, unsigned dst) {
  return pack_route([&](unsigned d) { return s.offset(src, dst, d); });
}

// Write flit `flit` of packet `p` into w[0..words-1]; `route`: the head's route field
// (route_field(), NodeCoords::route), used when flit == 0.
inline void encode_flit(uint32_t* w, unsigned words, uint32_t route, const PacketTag& p, unsigned flit) {
  w[0] = flit == 0 ? route : flit_pattern_word(p, flit, 0);
  w[1] = (p.src & 0xFFFFu) | (p.dst << 16);
  w[2] = p.seq;
  w[3] = static_cast<uint32_t>(p.created);
  w[4] = static_cast<uint32_t>((p.created >> 32) & 0xFFFFu) | ((flit & 0xFFu) << 16) | (kFlitMagic << 24);
  for (unsigned i = 5; i < words; ++i) w[i] = flit_pattern_word(p, flit, i);
}
inline void encode_flit(uint32_t* w, unsigned words, const MeshShape& s, const PacketTag& p, unsigned flit) {
  encode_flit(w, words, flit == 0 ? route_field(s, p.src, p.dst) : 0u, p, flit);
}

// A packet whose tail was ejected.
struct Delivery {
  PacketTag tag;
  uint64_t injected = 0;   // cycle the head flit entered the network
  uint64_t delivered = 0;  // cycle the tail flit left it
  unsigned hops = 0;
};

class NetChecker {
 public:
  NetChecker(const MeshShape& shape, unsigned pkt_flits, unsigned flit_words, bool check_order);

  void reset();
  void set_check_order(bool on) { check_order_ = on; }

  // The head flit of packet (src, seq) entered the network at cycle `now`. Sequence numbers of
  // one source must be injected in order 0, 1, 2, ... Touches only source src's state: calls
  // for different sources may run on different threads (not concurrently with settle()).
  void injected(const PacketTag& p, uint64_t now);

  // A flit left ejection port `node` at cycle `now`. Returns the delivery when it was a tail,
  // else nullptr (valid until the next call). Throws NetCheckError on any violation.
  // ejected() = check_flit() + settle(): a driver that ejects on several threads calls
  // check_flit() on the thread that owns the node and settle() later, on one thread, in node order.
  const Delivery* ejected(unsigned node, const uint32_t* w, uint64_t now);

  // A head or a tail flit: the checks that need the source's record of the packet, and for a tail
  // the delivery itself. w: the flit, kept by the caller until settle().
  struct Pending {
    unsigned node = 0;
    bool head = false, tail = false;
    PacketTag tag;
    const uint32_t* w = nullptr;
  };
  // The checks of the ejection port alone (format, destination, route field, hop count, payload,
  // flit order): touches only port `node`'s state and reads no source's record, so calls for
  // different nodes may run on different threads. Returns true when p must be settled (head or
  // tail). Throws NetCheckError on any violation.
  bool check_flit(unsigned node, const uint32_t* w, uint64_t now, Pending& p);
  // The head's record of injection (injected once, not yet delivered, same destination and
  // creation cycle) and the tail's delivery (flow order in DOR modes). Returns the delivery for a
  // tail, else nullptr (valid until the next call).
  const Delivery* settle(const Pending& p, uint64_t now);
  void add_flits(uint64_t n) { flits_ += n; }  // flits checked by check_flit (ejected() counts its own)

  uint64_t in_flight() const { return injected_packets() - delivered_; }  // injected, tail not yet ejected
  uint64_t injected_packets() const;  // O(nodes)
  uint64_t delivered_packets() const { return delivered_; }
  uint64_t flits_checked() const { return flits_; }
  // Throws NetCheckError unless every injected packet was delivered and no ejection is partial.
  void check_drained(uint64_t now) const;
  // Packets in flight (src, dst, seq, age), oldest injection first, at most `max` lines, and
  // partially ejected packets.
  std::string dump(uint64_t now, size_t max = 40) const;
  // Cycle of the oldest packet still in flight, UINT64_MAX if none (O(nodes)).
  uint64_t oldest_injection() const;
  // Creation cycle of the oldest packet still in flight, UINT64_MAX if none (O(nodes)).
  uint64_t oldest_creation() const;

 private:
  struct Flight {
    uint64_t created = 0;
    uint64_t injected = 0;
    uint32_t dst = 0;
    uint8_t state = 0;  // 0 free, 1 in flight, 2 delivered
  };
  struct Source {
    std::vector<Flight> ring;  // indexed by seq & (size-1)
    uint32_t base = 0;         // lowest sequence number not yet delivered (or not yet injected)
    uint32_t next = 0;         // next sequence number to be injected
  };
  struct Port {  // ejection port state
    bool busy = false;
    unsigned flit = 0;  // next flit index expected
    PacketTag tag;
  };
  [[noreturn]] void fail(unsigned node, const uint32_t* w, uint64_t now, const std::string& what,
                         const PacketTag* expect, unsigned flit) const;
  Flight* find(uint32_t src, uint32_t seq);

  MeshShape shape_;
  NodeCoords coords_;
  unsigned nodes_, pkt_flits_, words_;
  bool check_order_;
  std::vector<Source> src_;
  std::vector<Port> port_;
  std::vector<uint32_t> last_seq_;  // DOR order: [dst * nodes + src] = last delivered seq + 1
  // written by settle() (one thread) every cycle: a line of their own, away from what
  // check_flit() and injected() read on the shards' threads
  alignas(64) Delivery last_;
  uint64_t delivered_ = 0, flits_ = 0;
};

}  // namespace hpcnet::sim
