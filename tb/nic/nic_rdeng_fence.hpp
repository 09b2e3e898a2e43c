// nic_rdeng_fence.hpp: the fence of a deregistration in the read engine's unit test
// (test_nic_rdeng.cpp): nic_inval's side (inv_active_i with a key, held while the engine holds
// inv_hold_o, then a reads phase) driven at random, and the reference of the engine's side: when
// it must hold, which job it fences and where that job's expectations are cut. Part of the bench
// in nic_rdeng_tb.hpp; the bench calls drive() before evaluating the model, check() after, and
// after() once the cycle's handshakes are counted.
#pragma once

#include <algorithm>
#include <cstdint>

#include <verilated.h>

#include "nic_rdeng_job.hpp"

namespace {

// When `on`: inv_active_i rises at random moments with the front end's job's key (or another),
// stays high while inv_hold_o is, then a random reads phase.
struct Fence {
  bool on = false;
  unsigned per_mille = 0;             // chance of a rise per cycle (x 1/1000), changes every 500
  unsigned match_pct = 75;            // a rise takes the front end's job's key (if not fenced yet)
  bool active = false, reads = false;
  unsigned key = 0;
  std::int64_t rise = -1, end = -1;
  std::uint64_t cut_job = 0;          // the job fenced in cycle cut_at: its expectations cut then
  std::int64_t cut_at = -1;
  // statistics
  unsigned n = 0, n_xl0 = 0, n_read = 0, n_last_read = 0, n_no_read = 0, n_done = 0, n_other = 0,
           n_phys = 0, n_again = 0, n_lookup_held = 0, n_after_fenced = 0, n_att_bad = 0,
           n_xl0_att = 0;
  bool prev_fenced = false;
  std::int64_t max_hold = 0;

  // Before eval: inv_active_i / inv_key_i as nic_inval drives them (garbage keys while inactive).
  template <class Tb>
  void drive(Tb& tb) {
    auto& m = tb.m;
    const std::int64_t cyc = tb.cyc;
    if (cyc % 500 == 0) {
      static const unsigned rates[] = {0, 2, 10, 30};
      per_mille = rates[tb.rnd(4)];
    }
    if (active && reads && cyc >= end) active = false;
    if (!active && tb.rnd(1000) < per_mille) {
      active = true;
      reads = false;
      rise = cyc;
      ++n;
      // the key: the front end's job's (not fenced yet), a job's whose reads are all issued
      // (its packets still going out: nothing may change), or another
      const bool have = tb.offered > tb.base;
      const Job* f = have ? &tb.job(tb.offered - 1) : nullptr;
      const unsigned k = have ? static_cast<unsigned>(f->src >> 48) : 0;
      const std::uint64_t drain = std::max(tb.pk_job, tb.base);
      if (have && f->fence_cyc < 0 && tb.pct(match_pct)) {
        key = k;
      } else if (drain + 1 < tb.offered && tb.pct(40)) {
        key = static_cast<unsigned>(tb.job(drain + tb.rnd(static_cast<unsigned>(tb.offered - 1 - drain))).src >> 48);
      } else {
        key = (k + 1 + tb.rnd(65535)) & 0xffff;
      }
    }
    m.inv_active_i = active;
    m.inv_key_i = static_cast<SData>(active ? key : tb.rng());
  }
  // After eval, before the handshakes: the reference of the engine's side of the fence. F, the
  // front end's job (the last one taken): its first translation is out (XL0) until its answer is
  // taken, then it reads until its last read is accepted. "match": inv_active_i with F's key, F
  // virtual. In XL0, inv_hold_o = match, and F fails (BAD_KEY, no packet) if its first answer is
  // taken while match (or is BAD_KEY: the ATT's answer to a lookup made while the key was fenced).
  // Reading, F is fenced in the first cycle of match: inv_hold_o high then; from the next cycle
  // on, high exactly while match and a lookup of F is shown or unanswered. Low otherwise.
  template <class Tb>
  void check(Tb& tb) {
    auto& m = tb.m;
    const std::int64_t cyc = tb.cyc;
    bool exp_hold = false;
    if (tb.offered > tb.base) {
      const std::uint64_t fn = tb.offered - 1;
      Job& f = tb.job(fn);
      const bool match = active && !f.phys && (f.src >> 48) == key;
      const bool pending = m.xl_req_valid_o || f.xl_acc > f.xl_ans;
      const bool xl0 = f.xl_ans == 0 && f.fence_cyc < 0;
      const bool reading = f.xl_ans > 0 && f.fence_cyc < 0 && f.rd_acc < f.rd.size();
      if (active && rise == cyc) {  // what this rise meets (statistics)
        bool earlier = false;  // a job whose reads are all issued, its packets still going out
        for (std::uint64_t i = std::max(tb.pk_job, tb.base); i < fn; ++i)
          earlier = earlier || (!tb.job(i).phys && (tb.job(i).src >> 48) == key);
        if (!(match && (xl0 || reading)) && (earlier || (match && f.fence_cyc < 0))) ++n_done;
        else if (!match) ++(!f.phys && (f.src >> 48) != key ? n_other : n_phys);
        else if (f.fence_cyc >= 0) ++n_again;
      }
      if (xl0) {
        exp_hold = match;
        if (m.xl_rsp_valid_i && (match || m.xl_rsp_status_i == static_cast<unsigned>(nf::Status::BAD_KEY))) {
          f.fence_cyc = cyc;  // fails with BAD_KEY, no packet
          f.fence_xl0 = true;
          f.fail_first = static_cast<unsigned>(nf::Status::BAD_KEY);
          f.status = f.fail_first;
          f.npkts = 0;
          f.rd.clear();
          f.dma_frames = 0;
          cut_job = fn;
          cut_at = cyc;
          ++(match ? n_xl0 : n_xl0_att);
        }
      } else if (reading && match) {  // reads accepted up to this cycle's are the last; then zeros
        f.fence_cyc = cyc;
        f.aux_status = static_cast<unsigned>(nf::Status::BAD_KEY);
        cut_job = fn;
        cut_at = cyc;
        exp_hold = true;
      } else if (match && f.fence_cyc >= 0 && !f.fence_xl0) {
        exp_hold = pending || tb.rd_prev;  // a lookup out, or the read request held since the fence
        if (pending) ++n_lookup_held;
      }
    }
    TB_REQUIRE(bool(m.inv_hold_o) == exp_hold, "inv_hold_o (fence key " << key << " active "
                                                   << active << " since " << rise << ")");
    if (active && !reads && !m.inv_hold_o) {  // nic_inval: the hold phase is over
      reads = true;
      end = cyc + 1 + (tb.pct(50) ? 0 : tb.rnd(30));
      max_hold = std::max(max_hold, cyc - rise);
    }
  }
  // After the handshakes: a job fenced while reading keeps the reads accepted so far (this cycle's
  // included) and the one shown and not taken in this cycle (it stays until taken: valid/ready);
  // the translations shown up to the next cycle (one may be under way) are its last.
  // A job fenced in XL0 shows no translation but its first.
  template <class Tb>
  void after(Tb& tb) {
    const auto& m = tb.m;
    const std::int64_t cyc = tb.cyc;
    if (cut_at < 0 || cut_job < tb.base) return;
    Job& f = tb.job(cut_job);
    if (cut_at == cyc && f.fence_xl0) {
      f.xl.resize(1);
    } else if (cut_at == cyc) {
      ++(f.rd_acc == 0 ? n_no_read : f.rd_acc == f.rd.size() ? n_last_read : n_read);
      f.rd.resize(std::min<size_t>(f.rd.size(), f.rd_acc + ((m.rd_req_valid_o && !m.rd_req_ready_i) ? 1 : 0)));
      std::uint32_t cut = 0;
      f.dma_frames = 0;
      for (const Job::Rd& r : f.rd) {
        cut += r.len;
        f.dma_frames += static_cast<unsigned>(((r.pa & 31) + r.len + 31) / 32);
      }
      f.zero_from = cut;
    } else if (cut_at + 1 == cyc) {
      f.xl.resize(f.xl_shown);
      cut_at = -1;
    }
  }
};

}  // namespace
