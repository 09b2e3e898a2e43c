// hpcnet/baseline.hpp: software barriers and reduce over ordinary shared memory, the baselines
// the synchronization engine's ssm_barrier / ssm_reduce are compared with (paper seed 001, §5.3;
// Mellor-Crummey & Scott, "Algorithms for scalable synchronization on shared-memory
// multiprocessors", TOCS 9(1), 1991). docs/ssm_sw.md describes them and their traffic.
//
// Participants are numbered 0..P-1; participant i runs on cpus[i] (given to the constructor) and
// its flags are allocated homed there, i.e. "locally accessible" to it. Each call is made by the
// participant itself, on its own simulated thread; private state (sense, parity) lives in the
// object, one slot per participant, like the processor-private variables of the paper. Every
// flag sits alone in its 64-byte line. Per episode (one wait/reduce by every participant):
//
//   TournamentBarrier     2(P-1) remote writes: each loser writes its winner's arrival flag, each
//                         winner writes its loser's wake-up flag (tree wake-up).
//   DisseminationBarrier  P*ceil(lg P) remote writes: in round k, i writes (i + 2^k) mod P's flag.
//   TournamentReduce      4(P-1) remote writes: the tournament's 2(P-1) messages each write a
//                         value word and a flag word (one line).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hpcnet/platform.hpp"
#include "hpcnet/shmem.hpp"
#include "hpcnet/ssm.h"  // SSM_INT64 / SSM_UINT64 / SSM_DOUBLE, SSM_SUM / SSM_MAX / SSM_MIN

namespace hpcnet::baseline {

// ceil(log2(p)), 0 for p <= 1.
unsigned ceil_log2(unsigned p);

class Barrier {
 public:
  virtual ~Barrier() = default;
  virtual void wait(unsigned id) = 0;  // called by participant id on its own thread
  virtual unsigned size() const = 0;
  virtual std::string name() const = 0;
  // Remote writes of one episode by the textbook count.
  virtual uint64_t remote_writes_per_episode() const = 0;
};

// Tournament barrier with tree wake-up (MCS 1991, figure "tournament barrier").
class TournamentBarrier final : public Barrier {
 public:
  TournamentBarrier(SharedMemory& mem, std::vector<CpuId> cpus);
  void wait(unsigned id) override;
  unsigned size() const override { return p_; }
  std::string name() const override { return "tournament"; }
  uint64_t remote_writes_per_episode() const override { return p_ ? 2ull * (p_ - 1) : 0; }

  enum class Role : uint8_t { Unused, Winner, Loser, Bye, Champion, Dropout };
  Role role(unsigned id, unsigned round) const { return rounds_[id][round].role; }
  unsigned num_rounds() const { return levels_ + 1; }  // round 0 (dropout) .. levels

 private:
  struct Round {
    Role role = Role::Unused;
    uint64_t flag = 0;      // this participant's flag for the round (homed here)
    uint64_t opponent = 0;  // the opponent's flag for the round
  };
  SharedMemory& mem_;
  unsigned p_;
  unsigned levels_;
  std::vector<std::vector<Round>> rounds_;  // [id][round]
  std::vector<uint64_t> sense_;             // private, starts at 1; flags start at 0
};

// Dissemination barrier (Hensgen, Finkel & Manber 1988; MCS 1991 version with parity and sense).
class DisseminationBarrier final : public Barrier {
 public:
  DisseminationBarrier(SharedMemory& mem, std::vector<CpuId> cpus);
  void wait(unsigned id) override;
  unsigned size() const override { return p_; }
  std::string name() const override { return "dissemination"; }
  uint64_t remote_writes_per_episode() const override { return uint64_t{p_} * ceil_log2(p_); }

 private:
  uint64_t flag(unsigned id, unsigned parity, unsigned round) const {
    return base_[id] + (uint64_t{parity} * rounds_ + round) * 64;
  }
  SharedMemory& mem_;
  unsigned p_;
  unsigned rounds_;
  std::vector<uint64_t> base_;  // per participant: [parity][round] flags, one line each
  std::vector<uint64_t> sense_;
  std::vector<unsigned> parity_;
};

// a (op) b for the reduce types and ops of ssm_reduce, on 64-bit images of the values.
//   SSM_INT64 / SSM_UINT64: sum wraps modulo 2^64; max, min as signed / unsigned integers.
//   SSM_DOUBLE: sum is the host's a + b (IEEE 754 binary64, round to nearest even). max and min
//   are IEEE 754-2019 maximum / minimum: a NaN operand gives a NaN (a if a is NaN, else b,
//   quieted, as x86 propagates NaNs through the sum and as the engine's ssm_fp64_cmp does),
//   -0 < +0, otherwise the larger / smaller value.
// Throws std::invalid_argument for another type or op.
uint64_t combine(int type, int op, uint64_t a, uint64_t b);

// The tournament's combine order (what TournamentReduce computes), on the host: round k = 1, 2,
// ... pairs winner i (i mod 2^k = 0) with loser i + 2^(k-1) when that exists:
// v[i] = combine(v[i], v[i + 2^(k-1)]). The result is v[0]. For P = 5: ((v0 v1)(v2 v3)) v4.
uint64_t tournament_reference(int type, int op, std::vector<uint64_t> values);

// All-reduce by a tournament: values combine up the tree (each winner combines its loser's
// partial into its own, in the order of tournament_reference), the champion has the result,
// and the result goes back down the same tree (tree wake-up).
class TournamentReduce {
 public:
  TournamentReduce(SharedMemory& mem, std::vector<CpuId> cpus);
  // Participant id contributes `value` (64-bit image of `type`); every participant gets the
  // result. All participants of an episode must pass the same type and op.
  uint64_t reduce(unsigned id, uint64_t value, int type, int op);
  double reduce_double(unsigned id, double value, int op);
  unsigned size() const { return p_; }
  uint64_t remote_writes_per_episode() const { return p_ ? 4ull * (p_ - 1) : 0; }

 private:
  // A message line: word 0 = flag (sense), word 1 = value. Written by one sender per episode.
  struct Round {
    TournamentBarrier::Role role = TournamentBarrier::Role::Unused;
    uint64_t line = 0;      // this participant's mailbox for the round
    uint64_t opponent = 0;  // the opponent's mailbox for the round
  };
  SharedMemory& mem_;
  unsigned p_;
  unsigned levels_;
  std::vector<std::vector<Round>> rounds_;
  std::vector<uint64_t> sense_;
};

}  // namespace hpcnet::baseline
