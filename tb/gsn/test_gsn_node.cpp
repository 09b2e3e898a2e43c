// test_gsn_node: one node of the sync tree alone (gsn_node_tb.hpp: 3 children, 2 slots; the test
// plays the parent). Random traffic through run_random_on (gsn_tb.hpp) with the parent's
// back-pressure, latency and idle cycles: every child gets one down message per operation, the
// children's messages combined in child order, err exactly when a contribution was bad, the
// outputs held until taken. Directed: the documented latencies, the kind of the opening message
// when the children disagree, a child contributing twice, a full node holding back only the child
// with a new address, the down broadcast under per-child back-pressure. HPCNET_SEED=<n> repeats
// the random runs.
#include <algorithm>

#include "gsn_node_tb.hpp"

using namespace gsnt;

namespace {

constexpr unsigned kN = GsnNodeTb::N;
constexpr unsigned kAluLatency = 4;  // ssm_alu

Msg op_msg(std::uint64_t addr, Kind kind, std::uint64_t value, RedType type = RedType::INT64,
           RedOp op = RedOp::SUM) {
  Msg m;
  m.addr = addr;
  m.kind = kind;
  m.type = type;
  m.op = op;
  m.value = value;
  return m;
}

// Presents msgs[i] on child i (where given) until the node takes each; returns the cycle in which
// the last was taken. The children take every down message.
std::uint64_t send(GsnNodeTb& tb, const std::vector<std::optional<Msg>>& msgs, unsigned limit = 200) {
  std::uint64_t last = 0;
  for (unsigned n = 0; n < kN; ++n) {
    tb.up_valid[n] = msgs[n].has_value();
    if (msgs[n]) tb.up_msg[n] = *msgs[n];
    tb.dn_ready[n] = true;
  }
  for (unsigned t = 0; std::any_of(tb.up_valid.begin(), tb.up_valid.end(), [](bool v) { return v; }); ++t) {
    REQUIRE(t < limit);
    const std::uint64_t now = tb.cycles();
    tb.cycle();
    for (unsigned n = 0; n < kN; ++n)
      if (tb.up_valid[n] && tb.up_ready[n]) {
        tb.up_valid[n] = false;
        last = now;
      }
  }
  return last;
}
void idle(GsnNodeTb& tb, unsigned cycles) {
  for (unsigned t = 0; t < cycles; ++t) tb.cycle();
}

}  // namespace

TEST_CASE("gsn_node: random traffic against the reference under idle cycles and back-pressure", "[gsn][node]") {
  const std::uint64_t base = hpcnet::tb::seed("gsn_node random");
  struct Run {
    RandomCfg traffic;
    ParentCfg parent;
  };
  std::vector<Run> runs(4);
  runs[0].traffic.streams = GsnNodeTb::S;  // mixed delays, moderate back-pressure both ways
  runs[0].parent = {60, 30, 3, true};
  runs[1].traffic.max_delay = 0;  // back to back, nothing holds back
  runs[1].traffic.ready_pct = 100;
  runs[1].traffic.err_pct = 0;
  runs[2].traffic.ready_pct = 15;  // heavy back-pressure on both sides, more bad contributions
  runs[2].traffic.err_pct = 10;
  runs[2].parent = {20, 50, 8, true};
  runs[3].traffic.streams = GsnNodeTb::S + 3;  // more addresses than slots: a child waits for one
  runs[3].traffic.ordered = true;
  runs[3].traffic.max_delay = 3;
  runs[3].parent = {70, 20, 5, true};
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    runs[i].traffic.rounds = 200;
    const std::uint64_t s = base + i;
    INFO("run " << i << " seed " << s << " (HPCNET_SEED=" << base << ")");
    GsnNodeTb tb(s, runs[i].parent);
    const RandomStats st = run_random_on(tb, s, runs[i].traffic);
    CHECK(tb.parent_got.size() == st.ops);  // one up message per operation
    if (i == 3) CHECK(st.up_stalls > 0);
    bad += st.errs;
  }
  CHECK(bad > 0);
}

TEST_CASE("gsn_node: latency of a barrier and a reduce from the children to the parent and back", "[gsn][node]") {
  // documented (gsn_node.sv): up 2 cycles for a barrier, 2 + (NumChild-1)*L for a reduce; down 1
  for (Kind kind : {kBarrier, kReduce}) {
    GsnNodeTb tb(1, {100, 0, 0, false});
    const std::uint64_t at = send(tb, {op_msg(0x40, kind, 1), op_msg(0x40, kind, 2), op_msg(0x40, kind, 3)});
    idle(tb, 30);
    REQUIRE(tb.parent_got.size() == 1);
    const std::uint64_t expect = kind == kBarrier ? 2 : 2 + (kN - 1) * kAluLatency;
    CHECK(tb.parent_got[0].first - at == expect);
    CHECK(tb.parent_got[0].second.value == (kind == kBarrier ? 0u : 6u));
    CHECK(!tb.parent_got[0].second.err);
  }
  GsnNodeTb tb(1, {100, 0, 0, false});
  tb.parent_dn.push(op_msg(0x80, kReduce, 42));
  std::fill(tb.dn_ready.begin(), tb.dn_ready.end(), true);
  const std::uint64_t at = tb.cycles();  // shown now, taken at once (the register is empty)
  unsigned seen = 0;
  for (unsigned t = 0; t < 5; ++t) {
    const std::uint64_t now = tb.cycles();
    tb.cycle();
    for (unsigned n = 0; n < kN; ++n)
      if (tb.dn_valid[n]) {
        CHECK(now - at == 1);
        CHECK(tb.dn_msg[n].value == 42);
        ++seen;
      }
  }
  CHECK(seen == kN);
}

TEST_CASE("gsn_node: children that disagree give err and the fields of the message that opened the slot", "[gsn][node]") {
  struct Case {
    const char* what;
    Msg opener, other;
  };
  const Msg red = op_msg(0x100, kReduce, 5, RedType::UINT64, RedOp::MAX);
  Msg bad_type = red, bad_op = red, bad_err = red;
  bad_type.type = RedType::DOUBLE;
  bad_op.op = RedOp::MIN;
  bad_err.err = true;
  const std::vector<Case> cases = {{"kind", red, op_msg(0x100, kBarrier, 0)},
                                   {"kind (a barrier opens)", op_msg(0x100, kBarrier, 0), red},
                                   {"type", red, bad_type},
                                   {"op", red, bad_op},
                                   {"err bit", red, bad_err},
                                   {"err bit on the opener", bad_err, red}};
  for (const Case& c : cases) {
    INFO(c.what);
    GsnNodeTb tb(1, {100, 0, 0, false});
    send(tb, {std::nullopt, c.opener, std::nullopt});  // child 1 opens the slot alone
    idle(tb, 3);
    send(tb, {c.other, std::nullopt, c.other});
    idle(tb, 20);
    REQUIRE(tb.parent_got.size() == 1);
    const Msg& got = tb.parent_got[0].second;
    CHECK(got.err);
    CHECK(got.addr == 0x100);
    CHECK(same_ref(got, c.opener));
    CHECK(got.zero == 0);
  }
}

TEST_CASE("gsn_node: a child that contributes twice is absorbed and sets err", "[gsn][node]") {
  GsnNodeTb tb(1, {100, 0, 0, false});
  send(tb, {op_msg(0x200, kReduce, 1), std::nullopt, std::nullopt});
  send(tb, {op_msg(0x200, kReduce, 100), std::nullopt, std::nullopt});  // taken at once, absorbed
  idle(tb, 5);
  CHECK(tb.parent_got.empty());
  send(tb, {std::nullopt, op_msg(0x200, kReduce, 2), op_msg(0x200, kReduce, 3)});
  idle(tb, 30);
  REQUIRE(tb.parent_got.size() == 1);  // one message for the operation, nothing for the repeat
  CHECK(tb.parent_got[0].second.err);
  // the slot is free and clean again: the next round on the address is not in error
  send(tb, {op_msg(0x200, kReduce, 1), op_msg(0x200, kReduce, 2), op_msg(0x200, kReduce, 3)});
  idle(tb, 30);
  REQUIRE(tb.parent_got.size() == 2);
  CHECK(!tb.parent_got[1].second.err);
  CHECK(tb.parent_got[1].second.value == 6);
}

TEST_CASE("gsn_node: with every slot open a new address waits at its own child only", "[gsn][node]") {
  static_assert(GsnNodeTb::S == 2);
  GsnNodeTb tb(1, {100, 0, 0, false});
  send(tb, {std::nullopt, op_msg(0xa0, kBarrier, 0), std::nullopt});  // child 1 opens A and B
  send(tb, {std::nullopt, op_msg(0xb0, kBarrier, 0), std::nullopt});
  // child 1 presents C: no free slot; child 0 joins A in the same cycles
  tb.up_valid = {true, true, false};
  tb.up_msg[0] = op_msg(0xa0, kBarrier, 0);
  tb.up_msg[1] = op_msg(0xc0, kBarrier, 0);
  tb.cycle();
  CHECK(tb.up_ready[0]);
  CHECK(!tb.up_ready[1]);
  tb.up_valid[0] = false;
  for (unsigned t = 0; t < 10; ++t) {
    tb.cycle();
    REQUIRE(!tb.up_ready[1]);
  }
  // child 2 completes A; its slot leaves, and C takes it
  tb.up_valid[2] = true;
  tb.up_msg[2] = op_msg(0xa0, kBarrier, 0);
  unsigned waited = 0;
  for (; !tb.up_ready[1]; ++waited) {
    REQUIRE(waited < 10);
    tb.cycle();
    if (tb.up_ready[2]) tb.up_valid[2] = false;
  }
  tb.up_valid[1] = false;
  send(tb, {op_msg(0xb0, kBarrier, 0), std::nullopt, op_msg(0xb0, kBarrier, 0)});
  send(tb, {op_msg(0xc0, kBarrier, 0), std::nullopt, op_msg(0xc0, kBarrier, 0)});
  idle(tb, 10);
  REQUIRE(tb.parent_got.size() == 3);
  CHECK(tb.parent_got[0].second.addr == 0xa0);
  CHECK(tb.parent_got[1].second.addr == 0xb0);
  CHECK(tb.parent_got[2].second.addr == 0xc0);
  for (const auto& [cycle, m] : tb.parent_got) CHECK(!m.err);
}

TEST_CASE("gsn_node: every child gets every down message in order under its own back-pressure", "[gsn][node]") {
  hpcnet::tb::Rng rng(hpcnet::tb::seed("gsn_node down"));
  GsnNodeTb tb(2, {100, 40, 0, false});
  constexpr unsigned kMsgs = 30;
  for (unsigned i = 0; i < kMsgs; ++i) tb.parent_dn.push(op_msg(0x1000 + 8 * i, kReduce, rng()));
  std::vector<std::vector<std::uint64_t>> got(kN);
  const unsigned ready_pct[kN] = {100, 30, 5};
  for (unsigned t = 0; t < 3000 && !(got[0].size() == kMsgs && got[1].size() == kMsgs && got[2].size() == kMsgs); ++t) {
    for (unsigned n = 0; n < kN; ++n) tb.dn_ready[n] = rng.pct(ready_pct[n]);
    tb.cycle();
    for (unsigned n = 0; n < kN; ++n)
      if (tb.dn_valid[n] && tb.dn_ready[n]) got[n].push_back(tb.dn_msg[n].addr);
  }
  for (unsigned n = 0; n < kN; ++n) {
    INFO("child " << n);
    REQUIRE(got[n].size() == kMsgs);
    for (unsigned i = 0; i < kMsgs; ++i) CHECK(got[n][i] == 0x1000 + 8 * i);
  }
  CHECK(tb.parent_dn.empty());
}
