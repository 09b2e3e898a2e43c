// sim/link/link_wire.hpp: one direction of a link between two link-layer ends (rtl/link: lnk_tx to
// lnk_rx, and back the receiver's control words) with a delay and injected faults, deterministic
// by seed (docs/link.md "Fault model"). The same wire joins two NICs and, later, a NIC and a
// router port.
//
// Each cycle the sending end puts at most one flit and one control word on the wire; they come out
// `delay` cycles later, in order, one of each per cycle at most. Faults, each with its own rate:
//   bit error : the flit (or control word) gets one bit flipped, anywhere in the bits the wire
//               carries (data, VC, head, tail, seq on a head flit, crc on a tail flit; the
//               control word's 64 bits);
//   burst     : a run of 2..burst_max adjacent bits flipped (the first and last always);
//   drop      : the flit (word) is lost;
//   repeat    : the flit is delivered twice (the flits after it one cycle later);
//   dead      : from dead_at for dead_cycles cycles (0: for good) nothing gets through.
// Every fault is logged (cycle, kind, what) so that a test can match the receiver's drop reports
// and counters against it.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

namespace hpcnet::sim {

// A flit as the link carries it (lnk_tx's link_* outputs).
struct WireFlit {
  unsigned vc = 0;
  bool head = false, tail = false;
  uint8_t seq = 0;
  uint16_t crc = 0;
  std::array<uint64_t, 4> data{};
  static constexpr unsigned kBits = 256 + 1 + 2 + 8 + 16;  // data, vc (its low bit), head, tail, seq, crc
  void flip(unsigned bit);  // bit < kBits
  // The bits this flit carries: data, vc, head, tail, and seq on a head flit, crc on a tail flit
  // (the others are not on the wire); carried bit k (k < carried()) is bit wire_bit(k) of flip().
  unsigned carried() const { return 259 + (head ? 8 : 0) + (tail ? 16 : 0); }
  unsigned wire_bit(unsigned k) const;
  bool operator==(const WireFlit&) const = default;
};

struct LinkFaults {
  double bit_error = 0;   // per flit (or word): probability of a one-bit error
  double burst = 0;       // per flit: probability of an error burst
  unsigned burst_max = 16;
  unsigned bit_span = 0;  // bit errors only in bits [0, bit_span) (0: anywhere; 256: the data)
  double drop = 0;        // per flit: lost
  double repeat = 0;      // per flit: delivered twice (flits only)
  uint64_t dead_at = UINT64_MAX;
  uint64_t dead_cycles = 0;  // 0: dead for good from dead_at
  bool dead(uint64_t cycle) const {
    return cycle >= dead_at && (dead_cycles == 0 || cycle < dead_at + dead_cycles);
  }
};

enum class FaultKind { BitError, Burst, Drop, Repeat, Dead };
const char* to_string(FaultKind k);

struct FaultEvent {
  uint64_t cycle;   // when it was put on the wire
  FaultKind kind;
  bool ctl;         // a control word (else a flit)
  bool head, tail;  // the flit's marks before the fault
  uint8_t seq;      // the flit's seq (head flits)
  unsigned vc;
  unsigned bit, len;  // first bit and length of a bit error or burst
};

class LinkWire {
 public:
  LinkWire(unsigned delay, LinkFaults flit_faults, LinkFaults ctl_faults, uint64_t seed);

  // The sending end's outputs of cycle `now` (no flit: nullptr; every cycle a control word).
  void put(uint64_t now, const WireFlit* flit, bool ctl_valid, uint64_t ctl);
  // What arrives at cycle `now` (call once per cycle, after put of the same cycle).
  bool flit_out(uint64_t now, WireFlit& f);
  bool ctl_out(uint64_t now, uint64_t& w);

  const std::vector<FaultEvent>& log() const { return log_; }
  // New fault rates from now on (e.g. a dead window set once a test's traffic has started).
  void set_faults(const LinkFaults& flit_faults, const LinkFaults& ctl_faults) {
    ff_ = flit_faults;
    cf_ = ctl_faults;
  }
  uint64_t flits_put() const { return flits_put_; }
  bool idle() const { return flits_.empty(); }

 private:
  template <class T>
  struct Slot {
    uint64_t at;
    T v;
  };
  unsigned delay_;
  LinkFaults ff_, cf_;
  std::mt19937_64 rng_;
  std::deque<Slot<WireFlit>> flits_;
  std::deque<Slot<uint64_t>> ctls_;
  uint64_t next_flit_at_ = 0;  // a repeat pushes the next flit one cycle later
  std::vector<FaultEvent> log_;
  uint64_t flits_put_ = 0;
  bool chance(double p);
};

}  // namespace hpcnet::sim
