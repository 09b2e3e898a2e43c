// test_ssm_coll: directed tests of the collective unit alone (coll_tb.hpp: every beat checked
// against the reference). The checks of docs/ssm.md 11.1 one by one and in their order; the fold
// in window order whatever the arrival order; the entry written by a reduce; every context taken
// (ERR_NO_CONTEXT) and the retry; io=1 rounds: the up message, a poisoned round, the network's
// error and the other kind; an answer or up message held by back-pressure while another one
// becomes due (two bugs found here: the unit replaced a shown, untaken answer or up message).
#include <bit>

#include "coll_tb.hpp"

using namespace ssmu;

namespace {

constexpr std::uint64_t kA = 0x1000, kB = 0x2000, kC = 0x3000;

Op barrier(std::uint64_t addr, unsigned group, bool io = false, unsigned ret = 1) {
  return Op{kBarrier, ret, addr, 0, pack_args({group, 0, 0, io, 0})};
}
Op reduce(std::uint64_t addr, unsigned group, std::uint64_t v, unsigned type = 0, unsigned rop = 0, bool io = false) {
  return Op{kReduce, 2, addr, v, pack_args({group, type, rop, io, 0})};
}
Op burst(std::uint64_t src, std::uint64_t dest, std::uint32_t len, unsigned type = 0, unsigned group = 2) {
  return Op{kBurst, 3, src, dest, pack_args({group, type, 0, false, len})};
}
double as_double(std::uint64_t v) { return std::bit_cast<double>(v); }
std::uint64_t bits_of(double d) { return std::bit_cast<std::uint64_t>(d); }

}  // namespace

TEST_CASE("ssm_coll: each malformed command is answered at once with the first failing check", "[ssm][coll]") {
  struct Case {
    const char* what;
    unsigned win;
    Op op;
    State expect;
  };
  auto with = [](Op op, auto f) {
    Args a = unpack_args(op.args);
    f(op, a);
    op.args = pack_args(a);
    return op;
  };
  const std::vector<Case> cases = {
      {"PE without a control page table (and a bad group)", 4, barrier(kA, 0), State::ERR_NO_CPT},
      {"ret_offset past the table (and a bad group)", 0, barrier(kA, 0, false, 16), State::ERR_RET_OFFSET},
      {"group 0 (and misaligned)", 0, barrier(kA + 4, 0), State::ERR_GROUP},
      {"group above the windows", 0, barrier(kA, kCollWin + 1), State::ERR_GROUP},
      {"barrier misaligned", 0, barrier(kA + 1, 1), State::ERR_ALIGN},
      {"reduce misaligned (and a bad type)", 1, reduce(kA + 4, 1, 0, 5), State::ERR_ALIGN},
      {"reduce of int32", 1, reduce(kA, 1, 0, 3), State::ERR_TYPE},
      {"reduce with rop 3", 1, reduce(kA, 1, 0, 0, 3), State::ERR_TYPE},
      {"burst of type 4 (and io)", 2, with(burst(kA, kB, 64), [](Op&, Args& a) {
         a.type = 4;
         a.io = true;
       }), State::ERR_TYPE},
      {"burst with io (and length 0)", 2, with(burst(kA, kB, 0), [](Op&, Args& a) { a.io = true; }), State::ERR_IO},
      {"burst of length 0", 2, burst(kA, kB, 0), State::ERR_LENGTH},
      {"burst length not whole elements", 2, burst(kA, kB, 20), State::ERR_LENGTH},
      {"burst source misaligned", 3, burst(kA + 4, kB, 64), State::ERR_LENGTH},
      {"burst destination misaligned", 3, burst(kA, kB + 2, 64, 3), State::ERR_LENGTH},
  };
  CollTb tb(1, {.cpt = {16, 16, 0}});
  for (const Case& c : cases) {
    INFO(c.what);
    REQUIRE(check_code({c.win, c.op}, tb.cfg().cpt) == st(c.expect));  // the reference agrees with the table
    tb.issue(c.win, c.op);
    tb.run_until_quiet();
    REQUIRE(tb.answers.back().state == st(c.expect));
  }
  CHECK(tb.answers.size() == cases.size());
  CHECK(tb.ups.empty());
  CHECK(tb.bursts.empty());
  // what is not checked: a barrier's TYPE and ROP, a burst's source alignment to 8 for int32
  tb.issue(0, with(barrier(kA, 1), [](Op&, Args& a) {
    a.type = 7;
    a.rop = 3;
  }));
  tb.issue(1, burst(kA + 4, kB + 4, 12, 3, 1));
  tb.run_until_quiet();
  CHECK(tb.answers.back().state == st(State::OK));
  CHECK(tb.bursts.size() == 1);
}

TEST_CASE("ssm_coll: a reduce folds its members in window order whatever their arrival order", "[ssm][coll]") {
  // double sums where the order shows: 1e16 + 1 + 1 - 1e16 = 0 in window order (each 1 is lost),
  // 1e16 - 1e16 + 1 + 1 = 2 in arrival order
  const std::uint64_t v[kCollWin] = {bits_of(1e16), bits_of(1.0), bits_of(1.0), bits_of(-1e16), 0, 0};
  CollTb tb(2, {.ret_ready_pct = 50, .lk_ready_pct = 50, .cm_ready_pct = 50, .lk_delay_max = 5});
  for (unsigned w : {3u, 0u, 1u, 2u}) tb.issue(w, reduce(kA, 4, v[w], 2));
  tb.run_until_quiet();
  REQUIRE(tb.answers.size() == 4);
  for (const Ret& r : tb.answers) {
    CHECK(r.state == st(State::OK));
    CHECK(as_double(r.value) == 0.0);
  }
  // the members answered in window order, the result in the entry
  for (unsigned i = 0; i < 4; ++i) CHECK(tb.answers[i].pe * kCollThreads + tb.answers[i].thread == i);
  REQUIRE(tb.commits.size() == 1);
  CHECK(as_double(tb.commits[0].value) == 0.0);
  CHECK(tb.commits[0].p);
  CHECK(tb.commits[0].cnt == 1);
}

TEST_CASE("ssm_coll: with every context taken a new round is refused and its retry succeeds", "[ssm][coll]") {
  static_assert(kCollSlots == 2);
  CollTb tb(3, {.gsn_hold = true});
  tb.issue(0, barrier(kA, 1, true));  // both wait for the network
  tb.issue(1, reduce(kB, 1, 5, 0, 0, true));
  for (unsigned t = 0; t < 30; ++t) tb.cycle();
  REQUIRE(tb.ups.size() == 2);
  tb.issue(2, barrier(kC, 1));
  tb.issue(3, barrier(kA, 1));  // the next round of A: A's context is not gathering
  for (unsigned t = 0; t < 30; ++t) tb.cycle();
  REQUIRE(tb.answers.size() == 2);
  CHECK(tb.answers[0].state == st(State::ERR_NO_CONTEXT));
  CHECK(tb.answers[1].state == st(State::ERR_NO_CONTEXT));
  tb.release_gsn();
  tb.run_until_quiet();
  tb.issue(2, barrier(kC, 1));
  tb.run_until_quiet();
  CHECK(tb.answers.back().state == st(State::OK));
  CHECK(tb.by_state[st(State::OK)] == 3);
}

TEST_CASE("ssm_coll: io=1 rounds send one up message and answer what the network says", "[ssm][coll]") {
  SECTION("a clean round: the local fold goes up and the global result comes back and is stored") {
    CollTb tb(4, {});
    tb.issue(5, reduce(kA, 2, 7, 0, 1, true));
    tb.issue(2, reduce(kA, 2, 9, 0, 1, true));
    tb.run_until_quiet();
    REQUIRE(tb.ups.size() == 1);
    CHECK(tb.ups[0].value == 9);  // max of the local members
    CHECK(!tb.ups[0].err);
    CHECK(tb.commits.size() == 1);  // the global result (checked against the down message)
  }
  SECTION("members that disagree on io: one poisoned up message and ERR_MISMATCH for them") {
    CollTb tb(5, {});
    tb.issue(0, reduce(kA, 3, 1));
    tb.issue(1, reduce(kA, 3, 2, 0, 0, true));
    tb.issue(2, reduce(kA, 3, 3));
    tb.run_until_quiet();
    REQUIRE(tb.ups.size() == 1);
    CHECK(tb.ups[0].err);
    CHECK(tb.by_state[st(State::ERR_MISMATCH)] == 3);
    CHECK(tb.commits.empty());
  }
  SECTION("the network's error and a result of the other kind: ERR_GSN") {
    CollTb tb(6, {.dn_bad_pct = 100});
    for (unsigned i = 0; i < 8; ++i) {
      tb.issue(i % kCollWin, i % 2 ? barrier(kA, 1, true) : reduce(kA, 1, i, 0, 0, true));
      tb.run_until_quiet();
    }
    CHECK(tb.by_state[st(State::ERR_GSN)] == 8);
    CHECK(tb.commits.empty());
  }
}

TEST_CASE("ssm_coll: an answer or up message held by back-pressure stays until a lower context or an error is due", "[ssm][coll]") {
  // every beat shown and not taken must be shown unchanged in the next cycle (HoldCheck)
  SECTION("a release answer shown while a malformed command is refused") {
    CollTb tb(7, {.ret_ready_pct = 0});
    tb.issue(1, barrier(kA, 2));
    tb.issue(3, barrier(kA, 2));
    tb.issue(4, barrier(kA + 1, 1));  // ERR_ALIGN, due while window 1's answer is shown
    for (unsigned t = 0; t < 40; ++t) tb.cycle();
    tb.set_ready(100);
    tb.run_until_quiet();
    CHECK(tb.answers.size() == 3);
    CHECK(tb.by_state[st(State::ERR_ALIGN)] == 1);
  }
  SECTION("a release answer of context 1 shown when context 0 reaches Release") {
    CollTb tb(8, {.ret_ready_pct = 0});
    tb.issue(0, barrier(kA, 2));  // context 0 gathers
    tb.issue(2, barrier(kB, 1));  // context 1 releases at once and is shown
    tb.issue(1, barrier(kA, 2));  // context 0 completes
    for (unsigned t = 0; t < 40; ++t) tb.cycle();
    tb.set_ready(100);
    tb.run_until_quiet();
    CHECK(tb.answers.size() == 3);
  }
  SECTION("the up message of context 1 shown when context 0 reaches Up") {
    CollTb tb(9, {.up_ready_pct = 0});
    tb.issue(0, barrier(kA, 2, true));
    tb.issue(2, barrier(kB, 1, true));
    tb.issue(1, barrier(kA, 2, true));
    for (unsigned t = 0; t < 40; ++t) tb.cycle();
    tb.set_ready(100);
    tb.run_until_quiet();
    REQUIRE(tb.ups.size() == 2);
    CHECK(tb.ups[0].addr == kB);
  }
}
