// tournament.cpp: tournament barrier and tournament all-reduce (MCS 1991), see baseline.hpp.
#include <bit>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "hpcnet/baseline.hpp"

namespace hpcnet::baseline {

unsigned ceil_log2(unsigned p) {
  unsigned l = 0;
  while ((1ull << l) < p) ++l;
  return l;
}

namespace {

using Role = TournamentBarrier::Role;

// The role of participant i in round k (MCS 1991): k = 0 is the dropout round (the end of the
// wake-up walk); in round k >= 1 participants i mod 2^k = 0 meet i + 2^(k-1).
Role tournament_role(unsigned i, unsigned k, unsigned p) {
  if (k == 0) return Role::Dropout;
  const uint64_t two_k = 1ull << k, half = 1ull << (k - 1);
  if (i % two_k == 0) {
    if (i == 0 && two_k >= p) return Role::Champion;
    if (i + half < p) return Role::Winner;
    return Role::Bye;
  }
  if (i % two_k == half) return Role::Loser;
  return Role::Unused;
}

// The opponent of i in round k (winner/champion: i + 2^(k-1); loser: i - 2^(k-1)).
unsigned opponent_of(unsigned i, unsigned k, Role r) {
  const unsigned half = 1u << (k - 1);
  return r == Role::Loser ? i - half : i + half;
}

void check_cpus(const std::vector<CpuId>& cpus, const char* what) {
  if (cpus.empty()) throw std::invalid_argument(fmt::format("{}: no participants", what));
}

// Lays out the rounds of a tournament (barrier or reduce) over participants `cpus`: each one's
// per-round lines (one 64-byte line a round, homed at that participant), its role per round and
// its opponent's line. `mine` is the Round member holding the participant's own line.
template <class Round>
std::vector<std::vector<Round>> tournament_rounds(SharedMemory& mem, const std::vector<CpuId>& cpus,
                                                  unsigned levels, uint64_t Round::*mine) {
  const auto p = static_cast<unsigned>(cpus.size());
  std::vector<std::vector<Round>> rounds(p, std::vector<Round>(levels + 1));
  for (unsigned i = 0; i < p; ++i) {
    const uint64_t base = mem.alloc(64ull * (levels + 1), cpus[i]);
    for (unsigned k = 0; k <= levels; ++k) {
      rounds[i][k].role = tournament_role(i, k, p);
      rounds[i][k].*mine = base + 64ull * k;
    }
  }
  for (unsigned i = 0; i < p; ++i)
    for (unsigned k = 1; k <= levels; ++k) {
      Round& r = rounds[i][k];
      if (r.role == Role::Winner || r.role == Role::Champion || r.role == Role::Loser)
        r.opponent = rounds[opponent_of(i, k, r.role)][k].*mine;
    }
  return rounds;
}

}  // namespace

// --- tournament barrier

TournamentBarrier::TournamentBarrier(SharedMemory& mem, std::vector<CpuId> cpus)
    : mem_(mem), p_(static_cast<unsigned>(cpus.size())), levels_(ceil_log2(p_)) {
  check_cpus(cpus, "TournamentBarrier");
  rounds_ = tournament_rounds(mem_, cpus, levels_, &Round::flag);
  sense_.assign(p_, 1);
}

void TournamentBarrier::wait(unsigned id) {
  if (id >= p_) throw std::out_of_range("TournamentBarrier::wait: no such participant");
  if (p_ == 1) return;
  const uint64_t sense = sense_[id];
  const auto& rs = rounds_[id];
  unsigned round = 1;
  // Arrival: climb the tournament until losing (or winning it all).
  for (bool up = true; up; ++round) {
    const Round& r = rs[round];
    switch (r.role) {
      case Role::Loser:
        mem_.store64(r.opponent, sense);        // tell the winner I arrived
        mem_.spin_until_equal(r.flag, sense);   // wait to be woken
        up = false;
        break;
      case Role::Winner:
        mem_.spin_until_equal(r.flag, sense);   // wait for the loser's arrival
        break;
      case Role::Bye:
        break;
      case Role::Champion:
        mem_.spin_until_equal(r.flag, sense);
        mem_.store64(r.opponent, sense);        // wake the last loser
        up = false;
        break;
      default:
        throw std::logic_error("TournamentBarrier: impossible role in arrival");
    }
    if (!up) break;
  }
  // Wake-up: walk back down, waking the loser of every round won.
  for (;;) {
    --round;
    const Round& r = rs[round];
    if (r.role == Role::Dropout) break;
    if (r.role == Role::Winner) mem_.store64(r.opponent, sense);
    else if (r.role != Role::Bye) throw std::logic_error("TournamentBarrier: impossible role in wake-up");
  }
  sense_[id] = 1 - sense;
}

// --- combine

uint64_t combine(int type, int op, uint64_t a, uint64_t b) {
  switch (type) {
    case SSM_INT64: {
      const auto x = static_cast<int64_t>(a), y = static_cast<int64_t>(b);
      switch (op) {
        case SSM_SUM: return a + b;  // wraps modulo 2^64
        case SSM_MAX: return static_cast<uint64_t>(x < y ? y : x);
        case SSM_MIN: return static_cast<uint64_t>(y < x ? y : x);
        default: break;
      }
      break;
    }
    case SSM_UINT64:
      switch (op) {
        case SSM_SUM: return a + b;
        case SSM_MAX: return a < b ? b : a;
        case SSM_MIN: return b < a ? b : a;
        default: break;
      }
      break;
    case SSM_DOUBLE: {
      const double x = std::bit_cast<double>(a), y = std::bit_cast<double>(b);
      switch (op) {
        case SSM_SUM: return std::bit_cast<uint64_t>(x + y);
        case SSM_MAX:
        case SSM_MIN: {
          constexpr uint64_t kQuiet = 1ull << 51;  // NaNs propagate quieted, as the host's sum does
          if (std::isnan(x)) return a | kQuiet;
          if (std::isnan(y)) return b | kQuiet;
          const bool max = op == SSM_MAX;
          if (x == y) {  // equal, or +0 against -0: -0 < +0
            const bool a_neg = std::signbit(x);
            return (max ? a_neg : !a_neg) ? b : a;
          }
          return (max ? x > y : x < y) ? a : b;
        }
        default: break;
      }
      break;
    }
    default: break;
  }
  throw std::invalid_argument(fmt::format("combine: unknown type {} or op {}", type, op));
}

uint64_t tournament_reference(int type, int op, std::vector<uint64_t> v) {
  if (v.empty()) throw std::invalid_argument("tournament_reference: no values");
  const size_t p = v.size();
  for (size_t half = 1; half < p; half *= 2)
    for (size_t i = 0; i + half < p; i += 2 * half) v[i] = combine(type, op, v[i], v[i + half]);
  return v[0];
}

// --- tournament reduce

TournamentReduce::TournamentReduce(SharedMemory& mem, std::vector<CpuId> cpus)
    : mem_(mem), p_(static_cast<unsigned>(cpus.size())), levels_(ceil_log2(p_)) {
  check_cpus(cpus, "TournamentReduce");
  rounds_ = tournament_rounds(mem_, cpus, levels_, &Round::line);
  sense_.assign(p_, 1);
}

uint64_t TournamentReduce::reduce(unsigned id, uint64_t value, int type, int op) {
  if (id >= p_) throw std::out_of_range("TournamentReduce::reduce: no such participant");
  combine(type, op, 0, 0);  // rejects an unknown type or op before any traffic
  if (p_ == 1) return value;
  const uint64_t sense = sense_[id];
  const auto& rs = rounds_[id];
  auto send = [&](uint64_t line, uint64_t v) {
    mem_.store64(line + 8, v);       // value first,
    mem_.store64(line, sense);       // then the flag that publishes it
  };
  uint64_t acc = value;
  unsigned round = 1;
  for (bool up = true; up; ++round) {
    const Round& r = rs[round];
    switch (r.role) {
      case Role::Loser:
        send(r.opponent, acc);                   // my partial to the winner
        mem_.spin_until_equal(r.line, sense);    // the result comes back here
        acc = mem_.load64(r.line + 8);
        up = false;
        break;
      case Role::Winner:
        mem_.spin_until_equal(r.line, sense);
        acc = combine(type, op, acc, mem_.load64(r.line + 8));
        break;
      case Role::Bye:
        break;
      case Role::Champion:
        mem_.spin_until_equal(r.line, sense);
        acc = combine(type, op, acc, mem_.load64(r.line + 8));  // acc is the result now
        send(r.opponent, acc);
        up = false;
        break;
      default:
        throw std::logic_error("TournamentReduce: impossible role in arrival");
    }
    if (!up) break;
  }
  for (;;) {
    --round;
    const Round& r = rs[round];
    if (r.role == Role::Dropout) break;
    if (r.role == Role::Winner) send(r.opponent, acc);
    else if (r.role != Role::Bye) throw std::logic_error("TournamentReduce: impossible role in wake-up");
  }
  sense_[id] = 1 - sense;
  return acc;
}

double TournamentReduce::reduce_double(unsigned id, double value, int op) {
  return std::bit_cast<double>(reduce(id, std::bit_cast<uint64_t>(value), SSM_DOUBLE, op));
}

}  // namespace hpcnet::baseline
