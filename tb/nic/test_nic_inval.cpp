// test_nic_inval: nic_inval (Verilated), the deregistration fence (docs/nic.md section 4,
// "Deregistration"), against a C++ reference of its phases, under random idle cycles:
//   - fences (fence_i with a random fence_key_i) only while busy_o is low, as nic_regs holds a
//     KEY_CTRL write while busy; back to back, after random gaps, and "quick" ones with nothing
//     held and no read outstanding;
//   - per fence, a random hold_i pattern per holder (not holding, or holding one or two intervals
//     of 0..300 cycles from a random start), every one dropping eventually; once the hold phase
//     is over, random hold_i noise (an engine's next job of the fenced key holds while its
//     lookup, which will fail, is out: it must not extend the fence);
//   - a DMA read stream: issues and completions (in order, never more completed than issued,
//     never above the RdW-bit counter) at rates that change every few hundred cycles, so that
//     fences meet no reads, a few, or many outstanding.
// The reference: idle -> hold phase (from the cycle after fence_i: active_o, key_o = the fenced
// key) until the first cycle with hold_i all zero; N = the reads issued up to and including that
// cycle -> reads phase until N reads have completed (in order: the first N completions) -> idle.
// busy_o = active_o or fence_i. Checked every cycle: active_o, busy_o and (while active) key_o
// equal the reference's; busy_o is high in the fence cycle itself; the fence never ends in a
// cycle a holder holds (while in the hold phase); a quick fence is over 2 cycles after fence_i;
// reads issued after the hold phase are not waited for (seen to happen, and the cycle-exact end
// proves it). Reruns: HPCNET_SEED=<seed>.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "Vnic_inval.h"
#include "Vnic_inval_h2.h"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"
#include "sim/core/harness.hpp"

// REQUIRE with the cycle's context, formatted only when it fails (checked every cycle).
#define INVAL_CHECK(cond)                                                                              \
  do {                                                                                                 \
    if (!(cond)) {                                                                                     \
      INFO("cycle " << cyc << ", fence " << st.fences << " at cycle " << fence_at << " key " << fkey     \
                    << (quick ? " (quick)" : "") << ", hold_i " << hold << ", reads issued "           \
                    << ref.issued << " done " << ref.done << ", reference phase " << int(ref.ph)       \
                    << " waiting for " << ref.wait_for << " reads");                                   \
      REQUIRE(cond);                                                                                   \
    }                                                                                                  \
  } while (0)

namespace {

// The phases as the brief of nic_inval states them (independent of its state encoding).
struct InvalRef {
  enum class Ph { Idle, Hold, Reads } ph = Ph::Idle;
  std::uint16_t key = 0;
  std::uint64_t issued = 0, done = 0;  // DMA reads issued / completed since reset
  std::uint64_t wait_for = 0;          // reads phase: the first wait_for reads must complete
  bool active() const { return ph != Ph::Idle; }
  bool busy(bool fence) const { return active() || fence; }
  // The clock edge with these inputs.
  void step(bool fence, std::uint16_t fkey, unsigned hold, bool issue, bool done_in) {
    issued += issue;
    done += done_in;
    switch (ph) {
      case Ph::Idle:
        if (fence) {
          ph = Ph::Hold;
          key = fkey;
        }
        break;
      case Ph::Hold:
        if (hold == 0) {
          wait_for = issued;
          ph = done >= wait_for ? Ph::Idle : Ph::Reads;
        }
        break;
      case Ph::Reads:
        if (done >= wait_for) ph = Ph::Idle;
        break;
    }
  }
};

struct InvalCfg {
  unsigned holders, rd_w;
};

struct InvalStats {
  unsigned fences = 0, quick = 0, held = 0, reads_phase = 0, late_reads_not_waited = 0,
           hold_noise_ignored = 0, back_to_back = 0, max_out = 0;
  std::int64_t max_len = 0;
};

template <class M>
InvalStats inval_random(InvalCfg c, unsigned n_fences, const char* name) {
  const std::uint64_t seed = hpcnet::tb::seed(name);
  std::mt19937_64 rng(seed);
  auto rnd = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
  auto pct = [&](unsigned x) { return rnd(100) < x; };

  hpcnet::sim::Harness<M> h{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  M& m = h.dut();
  m.fence_i = 0;
  m.fence_key_i = 0;
  m.hold_i = 0;
  m.rd_issue_i = 0;
  m.rd_done_i = 0;
  hpcnet::tb::sync_reset(h);

  const std::uint64_t out_max = (std::uint64_t{1} << c.rd_w) - 1;  // the counter's range
  InvalRef ref;
  InvalStats st;
  // the current fence's hold pattern: per holder up to two [from, to) intervals, in cycles since
  // the fence cycle (1 = the first active cycle)
  struct Iv {
    std::int64_t from, to;
  };
  std::vector<std::vector<Iv>> pat(c.holders);
  std::int64_t cyc = 0, fence_at = -1, next_fence = 5, idle_since = 0;
  bool quick = false;
  std::uint64_t hold_end_issued = 0;  // reads issued up to the end of the current hold phase
  unsigned rate_issue = 30, rate_done = 30, out_cap = 4;
  bool prev_holding = false;  // the previous cycle was in the hold phase with hold_i not zero
  std::uint16_t fkey = 0;

  while (st.fences < n_fences || ref.active()) {
    if (cyc % 300 == 0) {  // read-stream rates: none, a trickle, heavy; the outstanding cap
      static const unsigned rates[] = {0, 5, 30, 60, 90};
      rate_issue = rates[rnd(5)];
      rate_done = rates[1 + rnd(4)];
      static const unsigned caps[] = {1, 3, 8, 40, 1000};
      out_cap = static_cast<unsigned>(std::min<std::uint64_t>(caps[rnd(5)], out_max));
    }
    const std::uint64_t out = ref.issued - ref.done;
    // a fence: only while idle (busy_o low), at the planned cycle
    bool fence = false;
    if (!ref.active() && st.fences < n_fences && cyc >= next_fence) {
      fence = true;
      quick = pct(15);
      if (quick && out != 0) quick = false;  // a quick fence needs no read outstanding
      fkey = static_cast<std::uint16_t>(rng());
      fence_at = cyc;
      for (auto& v : pat) {
        v.clear();
        if (quick || pct(30)) continue;  // this holder holds nothing
        static const unsigned lens[] = {1, 4, 30, 300};
        const std::int64_t from = 1 + (pct(70) ? 0 : rnd(4));
        v.push_back({from, from + rnd(lens[rnd(4)])});
        if (pct(20)) {
          const std::int64_t f2 = v.back().to + 1 + rnd(20);
          v.push_back({f2, f2 + 1 + rnd(lens[rnd(3)])});
        }
      }
      ++st.fences;
      if (idle_since == cyc) ++st.back_to_back;
    }
    // hold_i: the pattern in the hold phase, noise in the reads phase, low while idle
    unsigned hold = 0;
    if (fence || ref.ph == InvalRef::Ph::Hold) {
      const std::int64_t k = cyc - fence_at;
      for (unsigned i = 0; i < c.holders; ++i)
        for (const Iv& iv : pat[i])
          if (k >= iv.from && k < iv.to) hold |= 1u << i;
    } else if (ref.ph == InvalRef::Ph::Reads && pct(20)) {
      hold = static_cast<unsigned>(rng()) & ((1u << c.holders) - 1);
    }
    // reads: no issue around a quick fence (nothing outstanding at its hold phase)
    const bool in_quick = quick && fence_at >= 0 && cyc - fence_at <= 1;
    bool issue = !in_quick && out < out_cap && pct(rate_issue);
    bool done = out > 0 && pct(rate_done);

    m.fence_i = fence;
    m.fence_key_i = static_cast<SData>(fence ? fkey : rng());  // sampled with fence_i only
    m.hold_i = static_cast<CData>(hold);
    m.rd_issue_i = issue;
    m.rd_done_i = done;
    h.eval();

    INVAL_CHECK(bool(m.active_o) == ref.active());
    INVAL_CHECK(bool(m.busy_o) == ref.busy(fence));
    if (ref.active()) INVAL_CHECK(unsigned(m.key_o) == unsigned(ref.key));
    if (fence) INVAL_CHECK(m.busy_o);  // busy in the fence cycle itself
    // the fence never ends after a hold-phase cycle in which a holder held
    if (prev_holding) INVAL_CHECK(m.active_o);
    // a quick fence: active in the next cycle only, over (not busy) 2 cycles after fence_i
    if (quick && cyc - fence_at == 1) INVAL_CHECK(m.active_o);
    if (quick && cyc - fence_at == 2 && !fence) {
      INVAL_CHECK(!m.active_o);
      INVAL_CHECK(!m.busy_o);
    }

    // the edge
    const InvalRef::Ph before = ref.ph;
    ref.step(fence, fkey, hold, issue, done);
    if (before == InvalRef::Ph::Hold) {
      if (ref.ph != InvalRef::Ph::Hold) hold_end_issued = ref.issued;
      if (ref.ph == InvalRef::Ph::Reads) ++st.reads_phase;
    }
    if (before == InvalRef::Ph::Reads && hold != 0) ++st.hold_noise_ignored;
    if (before != InvalRef::Ph::Idle && ref.ph == InvalRef::Ph::Idle) {
      // fence over: reads issued after its hold phase may still be outstanding
      if (before == InvalRef::Ph::Reads && ref.issued > ref.done && ref.issued > hold_end_issued)
        ++st.late_reads_not_waited;
      if (quick) ++st.quick;
      else if (cyc - fence_at > 2) ++st.held;
      st.max_len = std::max(st.max_len, cyc + 1 - fence_at);
      idle_since = cyc + 1;
      next_fence = cyc + 1 + (pct(25) ? 0 : rnd(pct(50) ? 4 : 60));
    }
    prev_holding = before == InvalRef::Ph::Hold && hold != 0;
    st.max_out = std::max<unsigned>(st.max_out, static_cast<unsigned>(ref.issued - ref.done));
    hpcnet::tb::tick(h);
    ++cyc;
    if (cyc > 200000000) FAIL("no end after 200M cycles");
  }
  // idle afterwards, whatever the reads do
  for (int i = 0; i < 20; ++i) {
    m.fence_i = 0;
    m.hold_i = static_cast<CData>(rng() & ((1u << c.holders) - 1));
    m.rd_issue_i = 0;
    m.rd_done_i = 0;
    h.eval();
    REQUIRE(!m.active_o);
    REQUIRE(!m.busy_o);
    hpcnet::tb::tick(h);
  }
  std::printf("%s: %u fences in %lld cycles (%u quick, %u held over 2 cycles, %u with a reads phase, %u back to "
              "back, %u ended with later reads outstanding, %u hold cycles ignored in the reads phase), longest "
              "%lld cycles, max reads outstanding %u\n",
              name, st.fences, static_cast<long long>(cyc), st.quick, st.held, st.reads_phase, st.back_to_back,
              st.late_reads_not_waited, st.hold_noise_ignored, static_cast<long long>(st.max_len), st.max_out);
  return st;
}

void inval_require_coverage(const InvalStats& st, unsigned n_fences) {
  REQUIRE(st.fences == n_fences);
  REQUIRE(st.quick > n_fences / 20);
  REQUIRE(st.held > n_fences / 4);
  REQUIRE(st.reads_phase > n_fences / 10);
  REQUIRE(st.back_to_back > n_fences / 10);
  REQUIRE(st.late_reads_not_waited > 0);
  REQUIRE(st.hold_noise_ignored > 0);
}

}  // namespace

TEST_CASE("nic_inval: random fences and holders and DMA reads against the reference of its phases", "[nic_inval]") {
  const unsigned n = 4000;
  const InvalStats st = inval_random<Vnic_inval>({6, 8}, n, "nic_inval random");
  inval_require_coverage(st, n);
  REQUIRE(st.max_out > 20);  // many reads outstanding at times
}

TEST_CASE("nic_inval: 2 holders and a 3-bit read count (the counter full)", "[nic_inval]") {
  const unsigned n = 4000;
  const InvalStats st = inval_random<Vnic_inval_h2>({2, 3}, n, "nic_inval 2 holders RdW 3");
  inval_require_coverage(st, n);
  REQUIRE(st.max_out == 7);  // the counter's top value reached
}
