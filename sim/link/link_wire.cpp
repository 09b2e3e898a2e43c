// link_wire.cpp: a link direction with a delay and injected faults (link_wire.hpp).
#include "sim/link/link_wire.hpp"

#include <algorithm>

namespace hpcnet::sim {

void WireFlit::flip(unsigned bit) {
  if (bit < 256) {
    data[bit / 64] ^= uint64_t{1} << (bit % 64);
    return;
  }
  bit -= 256;
  if (bit == 0) vc ^= 1u;
  else if (bit == 1) head = !head;
  else if (bit == 2) tail = !tail;
  else if (bit < 11) seq = uint8_t(seq ^ (1u << (bit - 3)));
  else crc = uint16_t(crc ^ (1u << (bit - 11)));
}

unsigned WireFlit::wire_bit(unsigned k) const {
  if (k < 259) return k;
  k -= 259;
  if (head) {
    if (k < 8) return 259 + k;
    k -= 8;
  }
  return 267 + k;
}

const char* to_string(FaultKind k) {
  switch (k) {
    case FaultKind::BitError: return "bit-error";
    case FaultKind::Burst: return "burst";
    case FaultKind::Drop: return "drop";
    case FaultKind::Repeat: return "repeat";
    case FaultKind::Dead: return "dead";
  }
  return "?";
}

LinkWire::LinkWire(unsigned delay, LinkFaults flit_faults, LinkFaults ctl_faults, uint64_t seed)
    : delay_(delay), ff_(flit_faults), cf_(ctl_faults), rng_(seed) {}

bool LinkWire::chance(double p) {
  return p > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < p;
}

void LinkWire::put(uint64_t now, const WireFlit* flit, bool ctl_valid, uint64_t ctl) {
  const uint64_t at = now + delay_;
  if (flit) {
    ++flits_put_;
    WireFlit f = *flit;
    FaultEvent e{now, FaultKind::Drop, false, f.head, f.tail, f.seq, f.vc, 0, 0};
    auto record = [&](FaultKind k, unsigned bit, unsigned len) {
      e.kind = k;
      e.bit = bit;
      e.len = len;
      log_.push_back(e);
    };
    if (ff_.dead(now)) {
      record(FaultKind::Dead, 0, 0);
    } else if (chance(ff_.drop)) {
      record(FaultKind::Drop, 0, 0);
    } else {
      const WireFlit orig = f;  // the carried bits as sent
      const unsigned n = orig.carried();
      if (chance(ff_.bit_error)) {
        const unsigned k = unsigned(rng_() % (ff_.bit_span ? std::min(ff_.bit_span, n) : n));
        f.flip(orig.wire_bit(k));
        record(FaultKind::BitError, orig.wire_bit(k), 1);
      }
      if (chance(ff_.burst)) {  // adjacent carried bits
        const unsigned len = 2 + unsigned(rng_() % std::max(1u, ff_.burst_max - 1));
        const unsigned k = unsigned(rng_() % (n - len + 1));
        f.flip(orig.wire_bit(k));
        f.flip(orig.wire_bit(k + len - 1));
        for (unsigned i = 1; i + 1 < len; ++i)
          if (rng_() & 1) f.flip(orig.wire_bit(k + i));
        record(FaultKind::Burst, orig.wire_bit(k), len);
      }
      const uint64_t t = std::max(at, next_flit_at_);
      flits_.push_back({t, f});
      next_flit_at_ = t + 1;
      if (chance(ff_.repeat)) {
        flits_.push_back({t + 1, f});
        next_flit_at_ = t + 2;
        record(FaultKind::Repeat, 0, 0);
      }
    }
  }
  if (ctl_valid) {
    FaultEvent e{now, FaultKind::Drop, true, false, false, 0, 0, 0, 0};
    if (cf_.dead(now)) {
      e.kind = FaultKind::Dead;
      log_.push_back(e);
    } else if (chance(cf_.drop)) {
      log_.push_back(e);
    } else {
      uint64_t w = ctl;
      if (chance(cf_.bit_error)) {
        e.kind = FaultKind::BitError;
        e.bit = unsigned(rng_() % 64);
        e.len = 1;
        w ^= uint64_t{1} << e.bit;
        log_.push_back(e);
      }
      if (chance(cf_.burst)) {
        e.kind = FaultKind::Burst;
        e.len = 2 + unsigned(rng_() % std::max(1u, cf_.burst_max - 1));
        e.bit = unsigned(rng_() % (64 - e.len + 1));
        w ^= uint64_t{1} << e.bit;
        w ^= uint64_t{1} << (e.bit + e.len - 1);
        log_.push_back(e);
      }
      ctls_.push_back({at, w});
    }
  }
}

bool LinkWire::flit_out(uint64_t now, WireFlit& f) {
  if (flits_.empty() || flits_.front().at > now) return false;
  f = flits_.front().v;
  flits_.pop_front();
  return true;
}

bool LinkWire::ctl_out(uint64_t now, uint64_t& w) {
  if (ctls_.empty() || ctls_.front().at > now) return false;
  w = ctls_.front().v;
  ctls_.pop_front();
  return true;
}

}  // namespace hpcnet::sim
