// opq_tb.hpp: harness of ssm_opq (model Vssm_opq: 5 PEs x 4 threads = 20 windows, 2 cores,
// depth 4). The test drives one cycle at a time with an In record (the csr's push, the cores'
// readiness, done/park, hand-off queries/takes and update broadcasts); the harness checks every
// output against a reference of the queues (per-window FIFO, window state, park order, the
// round-robin pointer) before applying the cycle to the reference.
#pragma once
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <deque>

#include "Vssm_opq.h"
#include "sim/core/harness.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "unit_util.hpp"

namespace ssmu {

constexpr unsigned kWin = 20, kCores = 2, kDepth = 4;
constexpr unsigned kExt = 2;  // completion ports of the collective units (coll, burst)
struct In {
  bool push = false;
  unsigned push_win = 0;
  Op push_op;
  unsigned disp_ready = 0;  // bit per core
  bool coll_ready = false;  // the collective unit takes an operation
  unsigned ext_done = 0;    // bit per completion port
  unsigned ext_win[kExt] = {};
  struct Core {
    bool park = false, done = false, ho = false, take = false, upd = false;
    unsigned win = 0;
    std::uint64_t ho_addr = 0, upd_addr = 0;
  } core[kCores];
};
struct Out {
  int disp_core = -1;  // core that took a dispatch this cycle, -1 if none
  bool disp_coll = false;  // the collective unit took a dispatch this cycle (disp_win, disp_op)
  unsigned disp_win = 0;
  Op disp_op;
  bool ho_found[kCores] = {};
  unsigned ho_win[kCores] = {};
};

class OpqTb {
 public:
  enum WS { Idle, Busy, Parked };
  // reference
  std::array<std::deque<Op>, kWin> q;
  std::array<WS, kWin> ws{};
  std::array<std::uint64_t, kWin> park_seq{};
  std::uint64_t parks = 0, cycle = 0, dispatches = 0;  // cycle: the harness's cycles()
  unsigned rr = 0;  // round-robin pointer

  OpqTb() {
    hpcnet::tb::sync_reset(h_);
    cycle = h_.cycles();
  }
  Vssm_opq& m() { return h_.dut(); }

  Out cycle_with(const In& in);  // one clock cycle: drive, check, update the reference
  Out idle() { return cycle_with(In{}); }

  // The oldest parked lock on addr (park order), or -1.
  int oldest_lock(std::uint64_t addr) const {
    int best = -1;
    for (unsigned w = 0; w < kWin; ++w)
      if (ws[w] == Parked && q[w].front().opcode == kLock && q[w].front().addr == addr &&
          (best < 0 || park_seq[w] < park_seq[best]))
        best = int(w);
    return best;
  }
  // Dispatchable now: a head waiting in an idle window, and a taker for it (the collective unit
  // for barrier/reduce/burst, any core for the rest).
  bool eligible(unsigned w, const In& in) const {
    if (q[w].empty() || ws[w] != Idle) return false;
    return is_coll(q[w].front().opcode) ? in.coll_ready : in.disp_ready != 0;
  }

 private:
  hpcnet::sim::Harness<Vssm_opq> h_{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  void tick() {
    hpcnet::tb::tick(h_);
    cycle = h_.cycles();
  }
};

}  // namespace ssmu
