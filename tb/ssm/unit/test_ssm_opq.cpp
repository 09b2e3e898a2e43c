// test_ssm_opq: directed tests of ssm_opq: program order with one operation per window in flight,
// full_o, no head-of-line blocking, wake-up of put/get (not lock) heads, hand-off to the oldest
// parked lock, round-robin dispatch. The harness (opq_tb) checks all outputs every cycle.
#include <algorithm>

#include "opq_tb.hpp"

using namespace ssmu;

namespace {

constexpr std::uint64_t kA = 0x1000, kB = 0x2008;

Op mk(unsigned opc, std::uint64_t addr, std::uint64_t id, unsigned ret = 0) {
  Op o;
  o.opcode = opc;
  o.addr = addr;
  o.value = id;
  o.ret = ret ? ret : unsigned(id & 0xfff);
  return o;
}
void push(OpqTb& tb, unsigned w, const Op& o) {
  In in;
  in.push = true;
  in.push_win = w;
  in.push_op = o;
  tb.cycle_with(in);
}
// Offers core c until it takes a dispatch; returns the window.
unsigned dispatch(OpqTb& tb, unsigned c) {
  In in;
  in.disp_ready = 1u << c;
  Out o = tb.cycle_with(in);
  REQUIRE(o.disp_core == int(c));
  return o.disp_win;
}
void feedback(OpqTb& tb, unsigned c, unsigned w, bool park) {
  In in;
  in.core[c].win = w;
  (park ? in.core[c].park : in.core[c].done) = true;
  tb.cycle_with(in);
}
void update(OpqTb& tb, unsigned lane, std::uint64_t addr) {
  In in;
  in.core[lane].upd = true;
  in.core[lane].upd_addr = addr;
  tb.cycle_with(in);
}
Out query(OpqTb& tb, unsigned c, std::uint64_t addr, bool take) {
  In in;
  in.core[c].ho = true;
  in.core[c].ho_addr = addr;
  in.core[c].take = take;
  return tb.cycle_with(in);
}
bool parked(OpqTb& tb, unsigned w) { return (tb.m().parked_o >> w) & 1; }

}  // namespace

TEST_CASE("ssm_opq: program order with one operation per window in flight and full_o", "[ssm_opq]") {
  OpqTb tb;
  std::mt19937_64 rng(seed("ssm_opq order"));
  for (unsigned i = 1; i <= 4; ++i) push(tb, 3, mk(i == 2 ? kPut : kGet, kA, i));
  CHECK((tb.m().full_o >> 3) & 1);
  push(tb, 3, mk(kGet, kA, 5));  // full: dropped
  CHECK(tb.q[3].size() == 4);
  std::vector<std::uint64_t> order;
  bool parked_once = false, pushed_more = false;
  while (!tb.q[3].empty()) {
    In in;
    in.disp_ready = 3;
    Out o = tb.cycle_with(in);
    REQUIRE(o.disp_core >= 0);
    order.push_back(o.disp_op.value);
    for (unsigned k = rng() % 4; k > 0; --k) {  // executing: nothing else is dispatched
      In busy;
      busy.disp_ready = 3;
      REQUIRE(tb.cycle_with(busy).disp_core == -1);
    }
    bool park = o.disp_op.value == 2 && !parked_once;
    feedback(tb, unsigned(o.disp_core), o.disp_win, park);
    if (park) {
      parked_once = true;
      for (int k = 0; k < 3; ++k) REQUIRE(tb.cycle_with(in).disp_core == -1);
      update(tb, 1, kA);
    }
    if (tb.q[3].size() == 3 && !pushed_more) {  // one popped: not full any more, a push is taken again
      CHECK_FALSE((tb.m().full_o >> 3) & 1);
      push(tb, 3, mk(kGet, kA, 6));
      pushed_more = true;
    }
  }
  CHECK(order == std::vector<std::uint64_t>{1, 2, 2, 3, 4, 6});
}

TEST_CASE("ssm_opq: a parked window does not block the others", "[ssm_opq]") {
  OpqTb tb;
  (void)seed("ssm_opq hol");
  push(tb, 0, mk(kLock, kA, 0x10));
  push(tb, 0, mk(kPut, kB, 0x11));
  for (unsigned i = 0; i < 3; ++i) push(tb, 1, mk(kPut, kB + 8 * i, 0x20 + i));
  push(tb, 5, mk(kGet, kB, 0x50));
  REQUIRE(dispatch(tb, 0) == 0);
  feedback(tb, 0, 0, true);  // the lock waits
  unsigned done = 0;
  for (int k = 0; k < 40; ++k) {
    In in;
    in.disp_ready = 2;
    Out o = tb.cycle_with(in);
    if (o.disp_core < 0) continue;
    REQUIRE(o.disp_win != 0);
    feedback(tb, 1, o.disp_win, false);
    ++done;
  }
  CHECK(done == 4);
  CHECK(tb.q[1].empty());
  CHECK(tb.q[5].empty());
  CHECK(parked(tb, 0));
  CHECK(tb.q[0].size() == 2);
}

TEST_CASE("ssm_opq: an update wakes parked put/get heads on its address but never locks", "[ssm_opq]") {
  OpqTb tb;
  (void)seed("ssm_opq wake");
  const unsigned opc[] = {kPut, kGet, kLock, kPut, kGet};
  const std::uint64_t adr[] = {kA, kA, kA, kB, kA + 8};
  for (unsigned w = 0; w < 5; ++w) push(tb, 4 * w, mk(opc[w], adr[w], w + 1));
  for (unsigned w = 0; w < 5; ++w) feedback(tb, 0, dispatch(tb, 0), true);
  for (unsigned w = 0; w < 5; ++w) REQUIRE(parked(tb, 4 * w));
  update(tb, 1, kA);
  CHECK_FALSE(parked(tb, 0));
  CHECK_FALSE(parked(tb, 4));
  CHECK(parked(tb, 8));
  CHECK(parked(tb, 12));
  CHECK(parked(tb, 16));
  // The woken heads are dispatched again (the harness checks it is the same operation).
  unsigned w1 = dispatch(tb, 0), w2 = dispatch(tb, 1);
  CHECK(((w1 == 0 && w2 == 4) || (w1 == 4 && w2 == 0)));
  feedback(tb, 0, w1, true);
  feedback(tb, 1, w2, false);
  update(tb, 0, kB);
  CHECK_FALSE(parked(tb, 12));
  update(tb, 0, kA);
  CHECK(parked(tb, 8));  // locks wait for a hand-off
  CHECK_FALSE(parked(tb, 0));
  CHECK(tb.m().park_events_o == 6);
}

TEST_CASE("ssm_opq: hand-off returns the oldest parked lock on the address", "[ssm_opq]") {
  OpqTb tb;
  (void)seed("ssm_opq hand-off");
  auto park_one = [&](unsigned w, std::uint64_t addr, unsigned opc = kLock) {
    push(tb, w, mk(opc, addr, 0x100 + w));
    REQUIRE(dispatch(tb, 0) == w);
    feedback(tb, 0, w, true);
  };
  park_one(7, kA);
  park_one(12, kA);
  park_one(15, kA, kPut);  // not a lock: never handed over
  park_one(4, kB);
  // Two parks in one cycle: core 0's (window 9) is older than core 1's (window 2).
  push(tb, 9, mk(kLock, kA, 0x109));
  REQUIRE(dispatch(tb, 0) == 9);
  push(tb, 2, mk(kLock, kA, 0x102));
  REQUIRE(dispatch(tb, 1) == 2);
  In both;
  both.core[0].park = both.core[1].park = true;
  both.core[0].win = 9;
  both.core[1].win = 2;
  tb.cycle_with(both);
  CHECK(query(tb, 0, kA, false).ho_win[0] == 7);
  CHECK(query(tb, 1, kB, false).ho_win[1] == 4);
  for (unsigned w : {7u, 12u, 9u, 2u}) {
    Out o = query(tb, 1, kA, true);
    CHECK(o.ho_found[1]);
    CHECK(o.ho_win[1] == w);
    CHECK(tb.q[w].empty());
  }
  CHECK_FALSE(query(tb, 0, kA, false).ho_found[0]);
  CHECK(parked(tb, 15));
}

// Regression (tag rtl-bug): before commit fc9c9e1 a park on core c got seq_ctr + c, so a lone
// park on core 1 and the next park on core 0 got the same number and the lower window (3, the
// younger) won the tie.
TEST_CASE("ssm_opq: hand-off order after a park through core 1 alone", "[ssm_opq][rtl-bug]") {
  OpqTb tb;
  (void)seed("ssm_opq hand-off core 1");
  push(tb, 9, mk(kLock, kA, 0x109));
  REQUIRE(dispatch(tb, 1) == 9);
  feedback(tb, 1, 9, true);  // parked first
  push(tb, 3, mk(kLock, kA, 0x103));
  REQUIRE(dispatch(tb, 0) == 3);
  feedback(tb, 0, 3, true);  // parked second
  Out o = query(tb, 0, kA, false);  // the harness requires window 9
  CHECK(o.ho_win[0] == 9);
}

TEST_CASE("ssm_opq: round-robin dispatch over the windows", "[ssm_opq]") {
  OpqTb tb;
  (void)seed("ssm_opq round-robin");
  for (unsigned i = 0; i < kDepth; ++i)
    for (unsigned w = 0; w < kWin; ++w) push(tb, w, mk(kPut, kA + 8 * w, (w << 8) | i));
  std::vector<unsigned> waited(kWin, 0);
  std::vector<unsigned> order;
  std::array<int, kCores> held{-1, -1};
  while (order.size() < kWin * kDepth) {
    In in;
    for (unsigned c = 0; c < kCores; ++c) {
      if (held[c] >= 0) {  // the previous dispatch finishes at once
        in.core[c].done = true;
        in.core[c].win = unsigned(held[c]);
        held[c] = -1;
      } else {
        in.disp_ready |= 1u << c;
      }
    }
    std::vector<bool> elig(kWin);
    for (unsigned w = 0; w < kWin; ++w) elig[w] = tb.eligible(w, in);
    Out o = tb.cycle_with(in);
    if (o.disp_core < 0) continue;
    held[o.disp_core] = int(o.disp_win);
    order.push_back(o.disp_win);
    for (unsigned w = 0; w < kWin; ++w) {  // fairness: at most kWin-1 grants to others
      if (w == o.disp_win || !elig[w]) waited[w] = 0;
      else REQUIRE(++waited[w] <= kWin - 1);
    }
  }
  for (unsigned i = 0; i < order.size(); ++i) CHECK(order[i] == i % kWin);
}

TEST_CASE("ssm_opq: collectives go to the collective unit only and complete through ext_done", "[ssm_opq]") {
  OpqTb tb;
  (void)seed("ssm_opq collectives");
  // windows 0-2: a barrier, a reduce and a burst, each followed by a put; window 3: two puts
  const unsigned opcs[] = {kBarrier, kReduce, kBurst};
  for (unsigned w = 0; w < 3; ++w) {
    Op c = mk(opcs[w], kA, 0x100 + w);
    c.args = 0x8000'0000'0305'0402ull + w;  // any ARGS word passes through unchanged
    push(tb, w, c);
    push(tb, w, mk(kPut, kB, 0x200 + w));
  }
  push(tb, 3, mk(kPut, kB, 0x300));
  push(tb, 3, mk(kPut, kB, 0x301));
  // The collective unit not ready, the cores ready: only window 3's puts are dispatched; the
  // collectives wait at their windows' heads (and hold the puts behind them).
  std::vector<unsigned> to_cores;
  for (unsigned i = 0; i < 6; ++i) {
    In in;
    in.disp_ready = 1;
    Out o = tb.cycle_with(in);
    CHECK_FALSE(o.disp_coll);
    if (o.disp_core >= 0) {
      to_cores.push_back(o.disp_win);
      feedback(tb, 0, o.disp_win, false);
    }
  }
  CHECK(to_cores == std::vector<unsigned>{3, 3});
  // The collective unit ready, no core ready: the three collectives go to it, in window order.
  std::vector<unsigned> to_coll;
  for (unsigned i = 0; i < 5; ++i) {
    In in;
    in.coll_ready = true;
    Out o = tb.cycle_with(in);
    CHECK(o.disp_core < 0);
    if (o.disp_coll) {
      to_coll.push_back(o.disp_win);
      CHECK(o.disp_op.args == 0x8000'0000'0305'0402ull + o.disp_win);
    }
  }
  CHECK(to_coll == std::vector<unsigned>{0, 1, 2});
  // Busy until completed: nothing more comes out of windows 0-2.
  for (unsigned i = 0; i < 4; ++i) {
    In in;
    in.coll_ready = true;
    in.disp_ready = 3;
    Out o = tb.cycle_with(in);
    CHECK(o.disp_core < 0);
    CHECK_FALSE(o.disp_coll);
  }
  // Two completions in one cycle (both ports), then the third: the puts behind become eligible.
  {
    In in;
    in.ext_done = 3;
    in.ext_win[0] = 2;
    in.ext_win[1] = 0;
    tb.cycle_with(in);
  }
  CHECK(tb.q[0].size() == 1);
  CHECK(tb.q[2].size() == 1);
  CHECK(tb.q[1].size() == 2);
  {
    In in;
    in.ext_done = 2;
    in.ext_win[1] = 1;
    tb.cycle_with(in);
  }
  std::vector<unsigned> rest;
  for (unsigned i = 0; i < 6; ++i) {
    In in;
    in.disp_ready = 1;
    Out o = tb.cycle_with(in);
    if (o.disp_core >= 0) {
      CHECK(o.disp_op.opcode == kPut);
      rest.push_back(o.disp_win);
      feedback(tb, 0, o.disp_win, false);
    }
  }
  std::sort(rest.begin(), rest.end());
  CHECK(rest == std::vector<unsigned>{0, 1, 2});
}
