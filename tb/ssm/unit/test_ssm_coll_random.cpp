// test_ssm_coll_random: random collectives through ssm_coll alone (coll_tb.hpp) against the
// reference, under random idle cycles on the arrivals and random back-pressure on every port the
// unit drives: barriers and reduces of every type and op on a few addresses, groups of 1..6,
// members that disagree with their group, io=1 rounds answered by the network (sometimes with an
// error or the other kind), malformed commands of every kind, burst hand-offs, PEs without a
// control page table or with a small one, and a slow network and return port that fill both
// contexts. The suite checks that every answer state and every port was exercised.
// HPCNET_SEED=<n> repeats a run.
#include <algorithm>
#include <cstdio>

#include "coll_tb.hpp"
#include "hpcnet/tb/alu_ref.hpp"
#include "hpcnet/tb/seed.hpp"

using namespace ssmu;

namespace {

constexpr std::uint64_t kPool[] = {0x1000, 0x2008, 0x3ff0};  // the round addresses

// Plays the scheduler: one collective for a free window whenever the port is free, keeping the
// contract the reference relies on (coll_tb.hpp) and never starting a group that the free windows
// could not complete.
class Driver {
 public:
  unsigned err_pct = 15, burst_pct = 10, mismatch_pct = 8, io_pct = 30, red_pct = 60;
  Driver(CollTb& tb, hpcnet::tb::Rng& rng) : tb_(tb), rng_(rng) {}

  // draining: only joins of open groups
  void step(bool draining) {
    if (tb_.offering()) return;
    std::vector<unsigned> free;
    unsigned able_free = 0, needs = 0;
    for (unsigned w = 0; w < kCollWin; ++w)
      if (!tb_.busy[w]) {
        free.push_back(w);
        able_free += able(w);
      }
    std::vector<const CollTb::Ctx*> gathering;
    for (const CollTb::Ctx& c : tb_.ctx)
      if (c.st == CollTb::Cs::Gather) {
        gathering.push_back(&c);
        needs += c.group - c.count;
      }
    if (free.empty()) return;
    const unsigned w = free[rng_.below(unsigned(free.size()))];
    if (!able(w)) {
      if (!draining) tb_.issue(w, malformed(w));  // ERR_NO_CPT whatever it is
      return;
    }
    if (!gathering.empty() && (draining || rng_.pct(70))) {
      tb_.issue(w, join(w, *gathering[rng_.below(unsigned(gathering.size()))]));
    } else if (draining) {
      return;
    } else if (rng_.pct(err_pct)) {
      tb_.issue(w, malformed(w));
    } else if (rng_.pct(burst_pct)) {
      tb_.issue(w, burst(w));
    } else if (auto op = open(w, able_free > needs ? able_free - needs : 0)) {
      tb_.issue(w, *op);
    } else {
      tb_.issue(w, malformed(w));
    }
  }

 private:
  CollTb& tb_;
  hpcnet::tb::Rng& rng_;

  bool able(unsigned w) const { return tb_.cfg().cpt[w / kCollThreads] > 0; }
  // a ret_offset inside the PE's table (any 12-bit one for a PE without a table)
  unsigned ret_ok(unsigned w) {
    const std::uint32_t slots = tb_.cfg().cpt[w / kCollThreads];
    return rng_.below(slots == 0 ? 4096 : std::min<std::uint32_t>(slots, 4096));
  }
  Op make(unsigned w, unsigned opcode, std::uint64_t addr, std::uint64_t value, const Args& a) {
    return Op{opcode, ret_ok(w), addr, value, pack_args(a)};
  }

  // A new round on an address with no round between completion and release; its group within
  // what the free windows can complete besides the open groups (spare). Windows busy with a
  // refused or handed-off command come back, so the open groups always complete.
  std::optional<Op> open(unsigned w, unsigned spare) {
    std::vector<std::uint64_t> addrs;
    for (std::uint64_t a : kPool)
      if (std::none_of(tb_.ctx.begin(), tb_.ctx.end(),
                       [&](const CollTb::Ctx& c) { return c.addr == a && c.st != CollTb::Cs::Release; }))
        addrs.push_back(a);
    if (addrs.empty() || spare == 0) return std::nullopt;
    Args a;
    a.group = rng_.rnd(1, std::min(spare, kCollWin));
    a.io = rng_.pct(io_pct);
    const bool red = rng_.pct(red_pct);
    a.type = rng_.below(3);
    a.rop = rng_.below(3);
    const std::uint64_t v = red ? hpcnet::tb::random_operand(rng_, a.type) : rng_();
    return make(w, red ? kReduce : kBarrier, addrs[rng_.below(unsigned(addrs.size()))], v, a);
  }

  // A member of an open group; now and then one that disagrees on kind, GROUP, TYPE, ROP or IO.
  Op join(unsigned w, const CollTb::Ctx& c) {
    Args a{c.group, c.type, c.rop, c.io, 0};
    bool red = c.red;
    if (rng_.pct(mismatch_pct)) {
      switch (rng_.below(5)) {
        case 0: red = !red; break;
        case 1: a.group = 1 + (c.group % kCollWin); break;
        case 2: a.type = (c.type + 1) % 3; break;
        case 3: a.rop = (c.rop + 1) % 3; break;
        default: a.io = !a.io; break;
      }
    }
    const std::uint64_t v = red ? hpcnet::tb::random_operand(rng_, a.type) : rng_();
    return make(w, red ? kReduce : kBarrier, c.addr, v, a);
  }

  Op burst(unsigned w) {
    Args a;
    a.group = rng_.rnd(1, kCollWin);
    a.type = rng_.below(4);
    a.rop = rng_.below(3);
    const unsigned eb = a.type == 3 ? 4 : 8;
    a.len = eb * rng_.rnd(1, 64);
    const std::uint64_t src = (rng_() & 0xffffffffff) & ~std::uint64_t(eb - 1);
    const std::uint64_t dest = (rng_() & 0xffffffffff) & ~std::uint64_t(eb - 1);
    return make(w, kBurst, src, dest | (rng_() << 48), a);  // bits above the 48-bit address ignored
  }

  // A command that fails a check (which one: docs/ssm.md 11.1), now and then several at once.
  Op malformed(unsigned w) {
    const std::uint32_t slots = tb_.cfg().cpt[w / kCollThreads];
    for (;;) {
      Op op = rng_.pct(50) ? open_any(w) : burst(w);
      Args a = unpack_args(op.args);
      switch (rng_.below(8)) {
        case 0: op.ret = std::min<std::uint32_t>(slots + rng_.below(8), 4095); break;
        case 1: a.group = rng_.pct(30) ? 0 : rng_.rnd(kCollWin + 1, 255); break;
        case 2: op.addr += rng_.rnd(1, 7); break;
        case 3: a.type = rng_.rnd(3, 7); break;
        case 4: a.rop = 3; break;
        case 5: a.io = true; break;
        case 6: a.len = rng_.pct(30) ? 0 : a.len + rng_.rnd(1, 3); break;
        default:  // anything at all
          a = unpack_args(rng_());
          op.addr = rng_() & 0xffffffffffff;
          op.ret = rng_.below(4096);
          break;
      }
      op.args = pack_args(a);
      if (check_code({w, op}, tb_.cfg().cpt) != st(State::OK) || op.opcode == kBurst) return op;
    }
  }
  Op open_any(unsigned w) {
    Args a;
    a.group = rng_.rnd(1, kCollWin);
    a.type = rng_.below(3);
    a.rop = rng_.below(3);
    a.io = rng_.pct(io_pct);
    return make(w, rng_.pct(50) ? kReduce : kBarrier, kPool[rng_.below(3)], rng_(), a);
  }
};

void run(CollTb& tb, hpcnet::tb::Rng& rng, unsigned ops) {
  Driver drv(tb, rng);
  std::uint64_t issued_before = tb.answers.size() + tb.bursts.size();
  while (tb.answers.size() + tb.bursts.size() < issued_before + ops) {
    drv.step(false);
    tb.cycle();
    INFO(tb.describe());
    REQUIRE(tb.cycles() - tb.progress_at < 3000);
  }
  for (std::uint64_t t = 0; !tb.quiet(); ++t) {  // drain: complete the open groups
    drv.step(true);
    tb.cycle();
    INFO(tb.describe());
    REQUIRE(tb.cycles() - tb.progress_at < 3000);
  }
  for (unsigned t = 0; t < 50; ++t) tb.cycle();  // nothing more comes out
  REQUIRE(tb.quiet());
}

}  // namespace

TEST_CASE("ssm_coll: random collectives against the reference under idle cycles and back-pressure", "[ssm][coll][random]") {
  const std::uint64_t base = hpcnet::tb::seed("ssm_coll random");
  const std::vector<CollCfg> cfgs = {
      {},  // nothing holds back
      // back-pressure everywhere, idle arrivals, a slow hash table and network, network errors
      {.in_idle_pct = 30, .ret_ready_pct = 50, .bu_ready_pct = 50, .lk_ready_pct = 60, .cm_ready_pct = 50,
       .up_ready_pct = 50, .dn_idle_pct = 30, .lk_delay_max = 6, .dn_latency_max = 20, .dn_bad_pct = 15},
      // heavy back-pressure; PE 1 without a control page table, PE 2 with a small one
      {.cpt = {64, 0, 4}, .in_idle_pct = 10, .ret_ready_pct = 20, .bu_ready_pct = 30, .lk_ready_pct = 25,
       .cm_ready_pct = 20, .up_ready_pct = 25, .dn_idle_pct = 40, .lk_delay_max = 4, .dn_latency_max = 10,
       .dn_bad_pct = 10},
      // a slow network and return port keep both contexts taken (ERR_NO_CONTEXT)
      {.ret_ready_pct = 30, .up_ready_pct = 40, .dn_idle_pct = 60, .lk_delay_max = 2, .dn_latency_max = 80,
       .dn_bad_pct = 20},
      // the return port nearly blocked while commands keep arriving
      {.cpt = {16, 16, 16}, .ret_ready_pct = 8, .lk_delay_max = 1, .dn_latency_max = 3},
  };
  std::map<unsigned, unsigned> states;
  std::uint64_t bursts = 0, ups = 0, commits = 0;
  for (std::size_t i = 0; i < cfgs.size(); ++i) {
    const std::uint64_t s = base + i;
    INFO("config " << i << " seed " << s << " (HPCNET_SEED=" << base << ")");
    CollTb tb(s, cfgs[i]);
    hpcnet::tb::Rng rng(s * 7 + 1);
    run(tb, rng, 2000);
    for (auto [k, n] : tb.by_state) states[k] += n;
    bursts += tb.bursts.size();
    ups += tb.ups.size();
    commits += tb.commits.size();
    std::printf("ssm_coll random config %zu: %zu answers, %zu bursts, %zu up messages, %zu commits, %llu cycles\n", i,
                tb.answers.size(), tb.bursts.size(), tb.ups.size(), tb.commits.size(),
                static_cast<unsigned long long>(tb.cycles()));
  }
  // the suite drove every answer the unit gives and every port
  for (State s : {State::OK, State::ERR_NO_CPT, State::ERR_RET_OFFSET, State::ERR_GROUP, State::ERR_ALIGN,
                  State::ERR_TYPE, State::ERR_IO, State::ERR_LENGTH, State::ERR_MISMATCH, State::ERR_NO_CONTEXT,
                  State::ERR_GSN}) {
    INFO("state " << hpcnet::ssm_regs::to_string(s));
    CHECK(states[st(s)] > 0);
  }
  CHECK(bursts > 0);
  CHECK(ups > 0);
  CHECK(commits > 0);
}
