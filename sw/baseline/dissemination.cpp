// dissemination.cpp: dissemination barrier (MCS 1991 version with parity and sense), see
// baseline.hpp.
#include <stdexcept>

#include "hpcnet/baseline.hpp"

namespace hpcnet::baseline {

DisseminationBarrier::DisseminationBarrier(SharedMemory& mem, std::vector<CpuId> cpus)
    : mem_(mem), p_(static_cast<unsigned>(cpus.size())), rounds_(ceil_log2(p_)) {
  if (cpus.empty()) throw std::invalid_argument("DisseminationBarrier: no participants");
  sense_.assign(p_, 1);
  parity_.assign(p_, 0);
  // myflags[parity][round] of participant i, one line each, homed at i.
  for (unsigned i = 0; i < p_; ++i) base_.push_back(mem_.alloc(64ull * 2 * (rounds_ ? rounds_ : 1), cpus[i]));
}

void DisseminationBarrier::wait(unsigned id) {
  if (id >= p_) throw std::out_of_range("DisseminationBarrier::wait: no such participant");
  const uint64_t sense = sense_[id];
  const unsigned parity = parity_[id];
  for (unsigned r = 0; r < rounds_; ++r) {
    const unsigned partner = static_cast<unsigned>((id + (1ull << r)) % p_);
    mem_.store64(flag(partner, parity, r), sense);  // signal the partner of this round
    mem_.spin_until_equal(flag(id, parity, r), sense);  // and hear from (id - 2^r) mod P
  }
  if (parity == 1) sense_[id] = 1 - sense;
  parity_[id] = 1 - parity;
}

}  // namespace hpcnet::baseline
