// test_ssm_opq_random: random traffic through ssm_opq. The csr pushes random put/get/lock/unlock/
// trylock operations on three addresses into random windows (sometimes into a full one: dropped),
// with idle cycles; the cores accept with random back-pressure, execute a few cycles, then report
// done or park; unlocks query the hand-off and take the waiter; random update broadcasts wake
// parked puts/gets. Some operations are collectives (barrier/reduce/burst): a collective unit
// with random readiness takes them and completes them after a random delay through one of its
// two completion ports (ext_done). The harness checks every output against the reference every cycle; at the end
// the queues are drained and every accepted operation must have completed, in program order.
#include <vector>

#include "hpcnet/tb/rng.hpp"
#include "opq_tb.hpp"

using namespace ssmu;

namespace {

struct CoreSim {
  bool busy = false;
  unsigned win = 0, left = 0;
  Op op;
};

void run_random(std::uint64_t s, bool park_on_core1, unsigned cycles) {
  OpqTb tb;
  hpcnet::tb::Rng rng(s);
  auto rnd = [&](unsigned lo, unsigned hi) { return rng.rnd(lo, hi); };
  auto pct = [&](unsigned p) { return rng.pct(p); };
  const std::uint64_t pool[] = {0x1000, 0x2000, 0x3008};
  std::array<CoreSim, kCores> core{};
  struct CollSim { unsigned win, left; };
  std::vector<CollSim> coll;  // collectives in the collective unit
  unsigned coll_pct = 0, coll_ready_pct = 50;
  std::array<std::uint64_t, kWin> next_id{}, last_done{};
  std::uint64_t completed = 0, accepted = 0, handoffs = 0;
  unsigned push_pct = 40, ready_pct = 70, park_pct = 35, upd_pct = 8;

  auto one = [&](bool pushing, bool draining) {
    In in;
    if (pushing && pct(push_pct)) {
      unsigned w = rnd(0, kWin - 1);
      if (tb.q[w].size() < kDepth || pct(5)) {
        in.push = true;
        in.push_win = w;
        in.push_op.opcode = pct(coll_pct) ? rnd(kBarrier, kBurst) : rnd(kPut, kTrylock);
        in.push_op.addr = pool[rnd(0, 2)];
        in.push_op.ret = rnd(0, 4095);
        in.push_op.value = (std::uint64_t(w) << 32) | (next_id[w] + 1);
        in.push_op.args = rng();
        if (tb.q[w].size() < kDepth) {
          ++next_id[w];
          ++accepted;
        }
      }
    }
    std::array<int, kCores> finished{-1, -1};  // window popped by this core's done/take
    for (unsigned c = 0; c < kCores; ++c) {
      CoreSim& k = core[c];
      In::Core& f = in.core[c];
      if (!k.busy) {
        if (pct(ready_pct)) in.disp_ready |= 1u << c;
        if (draining && pct(30)) {  // drain: hand parked locks over from an idle core
          f.ho = true;
          f.ho_addr = pool[rnd(0, 2)];
          f.take = tb.oldest_lock(f.ho_addr) >= 0;
        }
      } else if (k.left > 0) {
        --k.left;
      } else {
        f.win = k.win;
        bool may_park = !draining && (c == 0 || park_on_core1) &&
                        (k.op.opcode == kPut || k.op.opcode == kGet || k.op.opcode == kLock);
        if (may_park && pct(park_pct)) {
          f.park = true;
        } else {
          f.done = true;
          finished[c] = int(k.win);
        }
        if (k.op.opcode == kUnlock) {
          f.ho = true;
          f.ho_addr = k.op.addr;
          f.take = tb.oldest_lock(f.ho_addr) >= 0 && pct(70);
        }
        k.busy = false;
      }
      if (pct(draining ? 50 : upd_pct)) {
        f.upd = true;
        f.upd_addr = pool[rnd(0, 2)];
      }
    }
    // the collective unit: readiness, and up to one completion per port
    in.coll_ready = pct(draining ? 90 : coll_ready_pct);
    std::vector<int> coll_finished;
    for (unsigned x = 0, i = 0; x < kExt && i < coll.size();) {
      if (coll[i].left > 0) {
        --coll[i].left;
        ++i;
      } else if (pct(70)) {
        in.ext_done |= 1u << x;
        in.ext_win[x] = coll[i].win;
        coll_finished.push_back(int(coll[i].win));
        coll.erase(coll.begin() + i);
        ++x;
      } else {
        ++i;
      }
    }
    for (int w : coll_finished) {
      std::uint64_t id = tb.q[w].front().value & 0xffffffff;
      REQUIRE(id == last_done[w] + 1);
      last_done[w] = id;
      ++completed;
    }
    if (in.core[0].take && in.core[1].take &&  // one waiter is handed to one unlock only
        tb.oldest_lock(in.core[0].ho_addr) == tb.oldest_lock(in.core[1].ho_addr))
      in.core[1].take = false;
    for (unsigned c = 0; c < kCores; ++c) {  // program order of completions
      int taken = in.core[c].take ? tb.oldest_lock(in.core[c].ho_addr) : -1;
      for (int w : {finished[c], taken}) {
        if (w < 0) continue;
        std::uint64_t id = tb.q[w].front().value & 0xffffffff;
        REQUIRE(id == last_done[w] + 1);
        last_done[w] = id;
        ++completed;
        handoffs += (w == taken);
      }
    }
    Out o = tb.cycle_with(in);
    if (o.disp_core >= 0) {
      CoreSim& k = core[o.disp_core];
      REQUIRE_FALSE(k.busy);
      k = CoreSim{true, o.disp_win, rnd(0, 4), o.disp_op};
    }
    if (o.disp_coll) {
      REQUIRE(is_coll(o.disp_op.opcode));
      coll.push_back({o.disp_win, rnd(0, 30)});
    }
  };

  for (unsigned i = 0; i < cycles; ++i) {
    if (i % 5000 == 0) {  // change the pace now and then
      push_pct = rnd(5, 90);
      ready_pct = rnd(20, 100);
      park_pct = rnd(10, 60);
      coll_pct = rnd(0, 40);
      coll_ready_pct = rnd(10, 100);
    }
    one(true, false);
  }
  auto empty = [&] {
    for (unsigned w = 0; w < kWin; ++w) if (!tb.q[w].empty()) return false;
    return !core[0].busy && !core[1].busy && coll.empty();
  };
  for (unsigned i = 0; i < 20000 && !empty(); ++i) one(false, true);
  REQUIRE(empty());
  CHECK(completed == accepted);
  CHECK(handoffs > 0);
  std::printf("cycles %llu, operations %llu, dispatches %llu, parks %llu, hand-offs %llu\n",
              (unsigned long long)tb.cycle, (unsigned long long)completed,
              (unsigned long long)tb.dispatches, (unsigned long long)tb.parks,
              (unsigned long long)handoffs);
}

}  // namespace

TEST_CASE("ssm_opq: random traffic with parks through core 0 only", "[ssm_opq][random]") {
  run_random(seed("ssm_opq random core 0 parks"), false, 200000);
}

TEST_CASE("ssm_opq: random traffic with parks through both cores", "[ssm_opq][random]") {
  run_random(seed("ssm_opq random both cores park"), true, 200000);
}
