// test_nic_exec: descriptor execution (rtl/nic/nic_exec.sv, model Vnic_exec_s: 5 VPs, 8 message
// slots) alone, against what nic_exec_ref.hpp says each descriptor must become. The test plays the
// units around it, each under random idle cycles or back-pressure:
//   - nic_dq: random descriptors (a StreamSource), good ones of the four types with random flags,
//     lengths, events, addresses and noise in the words past NWORDS, and malformed ones (the DQ's
//     bad flag, TYPE, REV on a read or mini-packet, NWORDS, lengths, DST_VP, PHYS without PHYS_OK,
//     an event address not 16-byte aligned);
//   - nic_att (client 0): answers with random latency, OK or a random failure;
//   - nic_cmpl: message slots taken by records and freed at random; err_ready_i and fail_ready_i
//     random; random CQ room, outstanding counts and DQ heads for the start rule (vp_ok_o,
//     cq_stall_o, blocked_o, checked every cycle);
//   - engine 0: job_ready_i random, one result per job in job order after a random delay, OK or
//     a failure;
//   - VC0: pkt_ready_i random;
//   - the link going down at random (the epoch moves on) and nic_inval's fences of a local event's
//     key (a fence ends only when inv_hold_o is low, as nic_inval waits for its holders).
// Checked: every descriptor gets exactly one outcome, an error (status, INFO, the record's fields)
// or its dispatch (the record, engine 0's job, the packets: every flit of every packet, in
// descriptor order, an engine 0 EVENT never between two packets of one descriptor and never
// before its result); engine 0's failures and EVENTs in job order; every translation request;
// inv_hold_o every cycle; valid held with its payload until taken on every output stream.
// Reruns: HPCNET_SEED=<seed>.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "Vnic_exec_s.h"
#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/counts.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"
#include "hpcnet/tb/stream.hpp"
#include "nic_exec_ref.hpp"
#include "sim/core/harness.hpp"

namespace {

namespace exf = hpcnet::nic_formats;
using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;
using nic_tb::ExDesc;
using nic_tb::ExPkt;
using nic_tb::ExXlReq;
constexpr unsigned kExVps = 5, kExMsgW = 3, kExSlots = 1u << kExMsgW, kExMaxOut = 16;  // models.cmake: Vnic_exec_s
constexpr unsigned kExOk = 0;

struct ExRsp {
  unsigned status = 0;
  std::uint64_t paddr = 0;
};
struct ExFail {
  unsigned id = 0, status = 0;
  bool operator==(const ExFail&) const = default;
};
struct ExEvent {
  ExPkt pkt;
  std::uint64_t result_at = 0;
};
struct ExJob {
  ExDesc d;
  unsigned id = 0, node = 0;
  std::uint64_t ripe = 0;
};
struct ExDescPkt {
  ExPkt pkt;
  bool end = false;  // the descriptor's last packet
};
struct ExJobOut {  // engine 0's job port
  unsigned vp = 0;
  std::uint64_t src = 0, dst = 0;
  bool phys = false, phys_ok = false;
  std::uint32_t len = 0;
  std::array<std::uint64_t, 4> head{};
  bool operator==(const ExJobOut&) const = default;
};
struct ExErrOut {
  unsigned status = 0;
  std::uint32_t info = 0;
  nic_tb::CmplRec rec;
  bool operator==(const ExErrOut&) const = default;
};
struct ExFlit {
  std::array<std::uint64_t, 4> w{};
  bool last = false;
  bool operator==(const ExFlit&) const = default;
};

struct ExOpts {
  unsigned fault_pct = 35;
  unsigned down_pm = 0;    // per mille of cycles the link goes down
  unsigned fence_pct = 0;  // chance a fence starts in a cycle
};

// The descriptor between its handshake and its outcome.
struct ExCur {
  ExDesc d;
  unsigned st = 0;  // its own checks
  std::vector<nic_tb::ExXlStep> plan;
  unsigned asked = 0;
  std::vector<ExRsp> ans;
  std::uint64_t taken = 0, last_ans = 0;
  bool win = false;       // its local event's translation was asked for (the fence's window)
  bool fenced = false;    // the fence of its key met it inside the window, before this cycle
  bool link_cut = false;  // the link was down after its checks and translations, before this cycle
  bool err_shown = false;
  ExErrOut err;
  bool passed() const {  // checks and every translation OK
    if (st != kExOk || ans.size() != plan.size()) return false;
    for (const ExRsp& r : ans)
      if (r.status != kExOk) return false;
    return true;
  }
  std::uint64_t ready_from() const { return plan.empty() ? taken + 3 : last_ans + 2; }  // dispatchable
  bool lev_local() const { return d.c().lev && !d.c().phys; }
};

class ExTb {
 public:
  std::uint64_t n_desc = 0, n_err_static = 0, n_err_xl = 0, n_err_down = 0, n_err_fence = 0, n_writes = 0, n_reads = 0,
                n_imm = 0, n_imm2 = 0, n_mp = 0, n_events = 0, n_fails = 0, n_pkts = 0, n_hold = 0, n_job_drop = 0, n_slot_full = 0;
  std::array<std::uint64_t, 17> by_status{};

  ExTb(std::uint64_t seed, ExOpts o) : rng_(seed), o_(o) {
    node_ = rng_.below(1u << 14);
    for (unsigned v = 0; v < kExVps; ++v) {
      en_ |= (rng_.pct(85) ? 1u : 0u) << v;
      phys_ok_[v] = rng_.pct(50);
    }
    for (unsigned s = 0; s < kExSlots; ++s) free_.push_back(s);
    drive_idle();
    hpcnet::tb::sync_reset(h_);
  }

  void cycle(bool quiet) {
    const std::uint64_t now = h_.cycles();
    if (now % 2000 == 0) new_phase();
    // ---- the link, the fence, the slots
    if (link_up_ && !quiet && rng_.below(1000) < o_.down_pm) {
      link_up_ = false;
      epoch_ = (epoch_ + 1) & 3;
      down_left_ = rng_.rnd(1, 150);
    } else if (!link_up_ && (quiet || down_left_-- == 0)) {
      link_up_ = true;
    }
    if (!fence_on_ && !quiet && rng_.pct(o_.fence_pct)) {
      fence_on_ = true;
      fence_key_ = rng_.pct(90) ? rng_.rnd(1, 3) : rng_.below(65536);
      fence_min_ = now + rng_.rnd(1, 60);
    } else if (fence_on_ && (now >= fence_min_ || quiet) && !hold_prev_) {
      fence_on_ = false;
    }
    for (auto it = busy_.begin(); it != busy_.end();) {
      if (it->second <= now) {
        free_.push_back(it->first);
        it = busy_.erase(it);
      } else {
        ++it;
      }
    }
    // ---- new descriptors, the streams' choices
    if (!quiet && desc_src_.size() < 2 && rng_.pct(desc_pct_)) desc_src_.push(gen());
    desc_src_.step(rng_, now);
    xl_src_.step(rng_, now);
    for (auto* s : {&xl_req_sink_, &job_sink_, &pkt_sink_, &err_sink_, &fail_sink_}) s->step(rng_);
    res_valid_ = !jobs_.empty() && jobs_.front().ripe <= now && rng_.pct(60);
    res_status_ = rng_.pct(fail_pct_) ? rng_.rnd(1, 255) : kExOk;
    drive(now);
    h_.eval();
    INFO("cycle " << now);
    check(now);
    hold_prev_ = m_.inv_hold_o;
    hpcnet::tb::tick(h_);
  }

  bool drained() const {
    return !cur_ && desc_src_.empty() && xl_src_.empty() && jobs_.empty() && failq_.empty() && evq_.empty() &&
           dpk_.empty() && !m_.pkt_valid_o && m_.desc_ready_o && link_up_ && !fence_on_;
  }

 private:
  void new_phase() {
    static const unsigned idle[] = {0, 30, 80}, rdy[] = {20, 60, 100};
    desc_src_.idle_pct = idle[rng_.below(3)];
    xl_src_.idle_pct = idle[rng_.below(3)];
    xl_lat_ = rng_.pct(50) ? 3 : 40;
    xl_req_sink_.ready_pct = rdy[rng_.below(3)];
    job_sink_.ready_pct = rdy[rng_.below(3)];
    pkt_sink_.ready_pct = rdy[rng_.below(3)];
    err_sink_.ready_pct = rdy[rng_.below(3)];
    fail_sink_.ready_pct = rdy[rng_.below(3)];
    res_delay_ = rng_.pct(50) ? 4 : 120;
    fail_pct_ = rng_.pct(50) ? 10 : 50;
    slot_life_ = rng_.pct(50) ? 20 : 400;
    desc_pct_ = rng_.pct(50) ? 90 : 20;
  }

  std::uint64_t ex_vaddr(bool aligned) {
    const std::uint64_t key = rng_.pct(90) ? rng_.rnd(1, 3) : rng_.below(65536);
    std::uint64_t a = rng_() & ((std::uint64_t{1} << 40) - 1);
    if (aligned) a &= ~std::uint64_t{15};
    return (key << 48) | a;
  }

  // A random descriptor: good, or with one fault.
  ExDesc gen() {
    using T = exf::DescType;
    ExDesc d;
    for (auto& w : d.w) w = rng_();
    d.vp = rng_.below(kExVps);
    exf::DescCtrl c;
    c.type = static_cast<T>(rng_.rnd(1, 4));
    c.lev = rng_.pct(40);
    c.rev = (c.type == T::RDMA_WRITE || c.type == T::IMM_WRITE) && rng_.pct(35);
    c.phys = rng_.pct(15) && phys_ok_[d.vp];
    c.block = rng_.pct(20);
    c.cq_ok = rng_.pct(50);
    c.intr = rng_.pct(30);
    c.tag = rng_.below(65536);
    c.dst_node = rng_.below(1u << 14);
    c.dst_vp = rng_.below(kExVps);
    c.short_len = c.type == T::IMM_WRITE ? (rng_.pct(20) ? (rng_.pct(50) ? 1 : 128) : rng_.rnd(1, 128))
                  : c.type == T::MP_SEND ? (rng_.pct(20) ? (rng_.pct(50) ? 0 : 120) : rng_.rnd(0, 120))
                                         : rng_.below(256);
    const unsigned fault = rng_.pct(o_.fault_pct) ? rng_.rnd(1, 8) : 0;
    if (fault == 2) c.type = static_cast<T>(rng_.pct(50) ? 0 : rng_.rnd(5, 15));
    if (fault == 3) {  // REV on a read or a mini-packet (NWORDS counting it)
      c.type = rng_.pct(50) ? T::RDMA_READ : T::MP_SEND;
      c.rev = true;
      c.short_len = rng_.rnd(0, 64);
    }
    if (fault == 5 && c.type == T::IMM_WRITE) {  // 0, or over 128 with NWORDS still in 5 bits
      const unsigned room = 8 * (22 - 3 * c.lev - 3 * c.rev);
      c.short_len = room > 128 && rng_.pct(70) ? rng_.rnd(129, room) : 0;
    }
    if (fault == 5 && c.type == T::MP_SEND) c.short_len = rng_.rnd(121, 8 * (23 - 3 * c.lev));
    if (fault == 6) c.dst_vp = rng_.rnd(kExVps, 31);
    if (fault == 7) {  // PHYS on a VP without PHYS_OK
      for (unsigned v = 0; v < kExVps; ++v)
        if (!phys_ok_[v]) d.vp = v;
      c.phys = true;
    }
    const nic_tb::ExLayout l = nic_tb::ex_layout(c);
    if (c.type == T::RDMA_WRITE || c.type == T::RDMA_READ) {
      d.w[1] = rng_.pct(20) ? rng_.rnd(1, 300) : rng_.rnd(1, 1u << 20);
      d.w[2] = ex_vaddr(false);
      d.w[3] = ex_vaddr(false);
      if (fault == 5) d.w[1] = 0;
    } else if (c.type == T::IMM_WRITE) {
      d.w[1] = ex_vaddr(false);
    }
    if (c.lev) d.w[l.lev_at] = ex_vaddr(true);
    if (c.rev) d.w[l.rev_at] = ex_vaddr(true);
    if (fault == 8 && (c.lev || c.rev)) d.w[c.lev && (!c.rev || rng_.pct(50)) ? l.lev_at : l.rev_at] |= rng_.rnd(1, 15);
    c.nwords = l.need;
    if (fault == 4) c.nwords = std::clamp<int>(static_cast<int>(l.need) + (rng_.pct(50) ? 1 : -1) * static_cast<int>(rng_.rnd(1, 3)), 2, 24);
    if (fault == 1) {  // the DQ's flag: NWORDS outside 2..24
      d.bad = true;
      c.nwords = rng_.pct(50) ? rng_.below(2) : rng_.rnd(25, 31);
    }
    d.w[0] = c.pack()[0];
    return d;
  }

  void drive_idle() {
    m_.desc_valid_i = 0;
    m_.xl_req_ready_i = 0;
    m_.xl_rsp_valid_i = 0;
    m_.job_ready_i = 0;
    m_.res_valid_i = 0;
    m_.pkt_ready_i = 0;
    m_.err_ready_i = 0;
    m_.fail_ready_i = 0;
    m_.free_ok_i = 1;
    m_.link_up_i = 1;
    m_.inv_active_i = 0;
    m_.node_id_i = static_cast<SData>(node_);
  }

  void drive(std::uint64_t now) {
    (void)now;
    m_.node_id_i = static_cast<SData>(node_);
    m_.vp_en_i = static_cast<CData>(en_);
    unsigned po = 0;
    for (unsigned v = 0; v < kExVps; ++v) po |= (phys_ok_[v] ? 1u : 0u) << v;
    m_.vp_phys_ok_i = static_cast<CData>(po);
    // the start rule's inputs: random every cycle
    room_ = rng_.below(32);
    head_ok_ = rng_.below(32);
    std::uint64_t outs = 0;
    for (unsigned v = 0; v < kExVps; ++v) {
      const unsigned r = rng_.below(10);
      out_[v] = r < 3 ? 0 : r < 8 ? rng_.rnd(1, kExMaxOut - 1) : r < 9 ? kExMaxOut : rng_.rnd(kExMaxOut, 255);
      outs |= std::uint64_t{out_[v]} << (8 * v);
      block_[v] = rng_.pct(30);
      exf::DescCtrl hc = exf::DescCtrl::unpack({rng_()});
      hc.block = block_[v];
      put_bits(m_.head_ctrl_i, 64 * v, 64, hc.pack()[0]);
    }
    m_.cq_room_i = static_cast<CData>(room_);
    m_.head_ok_i = static_cast<CData>(head_ok_);
    m_.outstanding_i = outs;
    // descriptors
    const bool dv = desc_src_.valid();
    const ExDesc junk = [&] {
      ExDesc j;
      for (auto& w : j.w) w = rng_();
      j.vp = rng_.below(32);
      return j;
    }();
    const ExDesc& d = dv ? desc_src_.data() : junk;
    m_.desc_valid_i = dv;
    m_.desc_vp_i = static_cast<CData>(d.vp);
    m_.desc_nwords_i = static_cast<CData>(d.c().nwords);
    m_.desc_bad_i = d.bad;
    for (unsigned i = 0; i < nic_tb::kExMaxWords; ++i) put_bits(m_.desc_words_i, 64 * i, 64, d.w[i]);
    // translations
    m_.xl_req_ready_i = xl_req_sink_.ready();
    const bool xv = xl_src_.valid();
    m_.xl_rsp_valid_i = xv;
    m_.xl_rsp_status_i = static_cast<CData>(xv ? xl_src_.data().status : rng_.below(256));
    m_.xl_rsp_paddr_i = xv ? xl_src_.data().paddr : rng_() & 0xFFFF'FFFF'FFFFull;
    m_.inv_active_i = fence_on_;
    m_.inv_key_i = static_cast<SData>(fence_on_ ? fence_key_ : rng_.below(65536));
    m_.link_up_i = link_up_;
    m_.epoch_i = static_cast<CData>(epoch_);
    // engine 0, VC0, the completion unit
    m_.job_ready_i = job_sink_.ready();
    m_.res_valid_i = res_valid_;
    m_.res_status_i = static_cast<CData>(res_status_);
    m_.res_msg_id_i = static_cast<CData>(res_valid_ ? jobs_.front().id : rng_.below(256));
    m_.pkt_ready_i = pkt_sink_.ready();
    m_.free_ok_i = !free_.empty();
    m_.free_id_i = static_cast<CData>(free_.empty() ? rng_.below(kExSlots) : free_.front());
    m_.err_ready_i = err_sink_.ready();
    m_.fail_ready_i = fail_sink_.ready();
  }

  void check_start_rule() {
    const bool idle = m_.desc_ready_o;
    for (unsigned v = 0; v < kExVps; ++v) {
      INFO("VP " << v << " outstanding " << out_[v] << " block " << block_[v]);
      const bool room = (room_ >> v) & 1, head = (head_ok_ >> v) & 1;
      const bool ok = ((en_ >> v) & 1) && out_[v] < kExMaxOut && !free_.empty() && room && (!block_[v] || out_[v] == 0) &&
                      idle && !(m_.desc_valid_i && m_.desc_vp_i == v);
      REQUIRE(((m_.vp_ok_o >> v) & 1) == ok);
      REQUIRE(((m_.cq_stall_o >> v) & 1) == (head && !room));
      REQUIRE(((m_.blocked_o >> v) & 1) == (head && block_[v] && out_[v] != 0));
    }
    if (idle) REQUIRE_FALSE(cur_.has_value());  // one descriptor at a time
  }

  void check(std::uint64_t now);
  void check_xl(std::uint64_t now);
  void check_err(std::uint64_t now);
  void check_dispatch(std::uint64_t now);
  void check_engine0(std::uint64_t now);
  void check_pkt(std::uint64_t now);

  hpcnet::sim::Harness<Vnic_exec_s> h_{312.5, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  Vnic_exec_s& m_ = h_.dut();
  hpcnet::tb::Rng rng_;
  ExOpts o_;
  unsigned node_ = 0, en_ = 0, room_ = 0, head_ok_ = 0;
  std::array<bool, kExVps> phys_ok_{}, block_{};
  std::array<unsigned, kExVps> out_{};
  // the streams
  hpcnet::tb::StreamSource<ExDesc> desc_src_;
  hpcnet::tb::StreamSource<ExRsp> xl_src_;
  hpcnet::tb::StreamSink xl_req_sink_, job_sink_, pkt_sink_, err_sink_, fail_sink_;
  hpcnet::tb::HoldCheck<ExXlReq> xl_hold_;
  hpcnet::tb::HoldCheck<ExJobOut> job_hold_;
  hpcnet::tb::HoldCheck<ExErrOut> err_hold_;
  hpcnet::tb::HoldCheck<ExFail> fail_hold_;
  hpcnet::tb::HoldCheck<ExFlit> pkt_hold_;
  unsigned xl_lat_ = 3, res_delay_ = 4, fail_pct_ = 10, slot_life_ = 20, desc_pct_ = 90;
  // the link, the fence, the slots, engine 0
  bool link_up_ = true, fence_on_ = false, hold_prev_ = false;
  unsigned epoch_ = 0, down_left_ = 0, fence_key_ = 0;
  std::uint64_t fence_min_ = 0;
  std::deque<unsigned> free_;
  std::vector<std::pair<unsigned, std::uint64_t>> busy_;  // slot, freed at
  bool res_valid_ = false;
  unsigned res_status_ = 0;
  std::deque<ExJob> jobs_;  // taken, result not yet given
  // what must come out
  std::optional<ExCur> cur_;
  std::deque<ExFail> failq_;
  std::deque<ExEvent> evq_;
  std::deque<ExDescPkt> dpk_;
  bool mid_ = false;  // a descriptor's packets have begun and not ended
  std::vector<ExFlit> flits_;
  std::uint64_t head_at_ = 0;
  bool head_shown_ = false, fence_prev_ = false, link_prev_ = true;
};

// ---------------------------------------------------------------- the checks of one cycle

void ExTb::check(std::uint64_t now) {
  check_start_rule();
  REQUIRE(bool(m_.start_o) == (m_.desc_valid_i && m_.desc_ready_o));
  if (m_.start_o) REQUIRE(m_.start_vp_o == m_.desc_vp_i);
  n_slot_full += free_.empty();
  // the fence's window: from the local event's translation request to the descriptor's end
  if (cur_ && cur_->st == kExOk && cur_->d.c().lev && cur_->asked == 0 && m_.xl_req_valid_o) cur_->win = true;
  const auto lev_key = [](const ExDesc& d) { return static_cast<unsigned>(d.w[nic_tb::ex_layout(d.c()).lev_at] >> 48); };
  const bool match = cur_ && fence_on_ && cur_->lev_local() && lev_key(cur_->d) == fence_key_;
  const bool in_win = cur_ && cur_->win && !m_.err_valid_o;
  REQUIRE(bool(m_.inv_hold_o) == (match && in_win));
  n_hold += m_.inv_hold_o;
  // a descriptor that passed everything completes at once with LINK_DOWN while the link is down
  if (cur_ && cur_->passed() && !cur_->err_shown && !link_prev_ && now >= cur_->ready_from() + 1) REQUIRE(m_.err_valid_o);
  check_xl(now);
  check_err(now);
  check_dispatch(now);
  check_engine0(now);
  check_pkt(now);
  if (cur_) {
    cur_->fenced = cur_->fenced || (match && in_win);
    cur_->link_cut = cur_->link_cut || (!link_up_ && cur_->passed() && now >= cur_->ready_from());
  }
  fence_prev_ = match && in_win;
  link_prev_ = link_up_;
  if (m_.desc_valid_i && m_.desc_ready_o) {  // taken
    REQUIRE_FALSE(cur_.has_value());
    ExCur c;
    c.d = desc_src_.data();
    c.st = nic_tb::ex_static_status(c.d, kExVps, phys_ok_[c.d.vp]);
    if (c.st == kExOk) c.plan = nic_tb::ex_xl_plan(c.d, phys_ok_[c.d.vp]);
    c.taken = now;
    cur_ = c;
    desc_src_.fire(true);
    ++n_desc;
  }
}

void ExTb::check_xl(std::uint64_t now) {
  const ExXlReq q{m_.xl_req_vp_o, m_.xl_req_addr_o, m_.xl_req_len_o, bool(m_.xl_req_phys_o), bool(m_.xl_req_phys_ok_o)};
  REQUIRE(xl_hold_.check(m_.xl_req_valid_o, m_.xl_req_ready_i, q));
  if (m_.xl_req_valid_o) {
    REQUIRE(cur_.has_value());
    INFO("descriptor words 0..3: " << std::hex << cur_->d.w[0] << " " << cur_->d.w[1] << " " << cur_->d.w[2] << " "
                                   << cur_->d.w[3] << std::dec << " static status " << cur_->st);
    REQUIRE(cur_->asked < cur_->plan.size());   // only the translations it needs
    REQUIRE(cur_->asked == cur_->ans.size());  // one at a time
    for (const ExRsp& r : cur_->ans) REQUIRE(r.status == kExOk);
    REQUIRE(q == cur_->plan[cur_->asked].req);
    if (m_.xl_req_ready_i) {
      ++cur_->asked;
      const unsigned st = rng_.pct(80) ? kExOk : rng_.rnd(5, 9);
      xl_src_.push(ExRsp{st, rng_() & 0xFFFF'FFFF'FFFFull}, now + 1 + rng_.below(xl_lat_ + 1));
    }
  }
  if (xl_src_.valid()) {
    REQUIRE(m_.xl_rsp_ready_o);
    REQUIRE(cur_.has_value());
    cur_->ans.push_back(xl_src_.data());
    cur_->last_ans = now;
    xl_src_.fire(true);
  }
}

void ExTb::check_err(std::uint64_t now) {
  using S = exf::Status;
  const ExErrOut e{m_.err_status_o, m_.err_info_o, nic_tb::ex_get_rec(m_.rec_o)};
  REQUIRE(err_hold_.check(m_.err_valid_o, m_.err_ready_i, e));
  if (!m_.err_valid_o) return;
  REQUIRE(cur_.has_value());
  ExCur& c = *cur_;
  if (!c.err_shown) {  // what the error must be
    c.err_shown = true;
    unsigned st = 0, info = 0;
    std::uint64_t* count = nullptr;
    std::size_t bad = c.ans.size();
    for (std::size_t k = 0; k < c.ans.size(); ++k)
      if (c.ans[k].status != kExOk && bad == c.ans.size()) bad = k;
    if (c.st != kExOk) {
      REQUIRE(c.asked == 0);
      st = c.st;
      count = &n_err_static;
    } else if (bad < c.ans.size()) {  // a translation failed: the last one asked, just answered
      REQUIRE(bad + 1 == c.ans.size());
      REQUIRE(c.asked == c.ans.size());
      REQUIRE(c.last_ans + 1 == now);
      st = c.ans[bad].status;
      info = c.plan[bad].info;
      count = &n_err_xl;
    } else if (!c.plan.empty() && c.last_ans + 1 == now) {  // answered OK while its key was fenced
      REQUIRE(fence_prev_);
      st = nic_tb::ex_st(S::BAD_KEY);
      info = 3;
      count = &n_err_fence;
    } else {  // after its checks and translations: the link down, or the fence
      REQUIRE(c.ans.size() == c.plan.size());
      if (link_prev_) REQUIRE(fence_prev_);  // (LINK_DOWN first)
      st = nic_tb::ex_st(link_prev_ ? S::BAD_KEY : S::LINK_DOWN);
      info = link_prev_ ? 3 : 2;
      count = link_prev_ ? &n_err_fence : &n_err_down;
    }
    INFO("descriptor word 0 " << std::hex << c.d.w[0] << std::dec << ", VP " << c.d.vp << ", bad " << c.d.bad);
    REQUIRE(e.status == st);
    REQUIRE(e.info == info);
    const nic_tb::CmplRec r = nic_tb::ex_record(c.d, 0);
    REQUIRE(e.rec.vp == r.vp);
    REQUIRE(e.rec.tag == r.tag);
    REQUIRE(e.rec.typ == r.typ);
    REQUIRE(e.rec.dst_node == r.dst_node);
    REQUIRE(e.rec.cq_ok == r.cq_ok);
    REQUIRE(e.rec.intr == r.intr);
    ++*count;
    ++by_status[std::min(st, 16u)];
  }
  if (m_.err_ready_i) cur_.reset();
}

void ExTb::check_dispatch(std::uint64_t now) {
  ExJobOut jo{m_.job_vp_o, m_.job_src_o, m_.job_dst_o, bool(m_.job_phys_o), bool(m_.job_phys_ok_o), m_.job_len_o, {}};
  for (unsigned k = 0; k < 4; ++k) jo.head[k] = get_bits(m_.job_head_o, 64 * k, 64);
  // held until taken, but withdrawn when the descriptor fails instead (the link down: LINK_DOWN in
  // the next cycle; a fence of its local event's key in the cycle before: BAD_KEY now)
  const bool job_held = job_hold_.check(m_.job_valid_o, m_.job_ready_i, jo);
  REQUIRE((job_held || (!m_.job_valid_o && (!link_up_ || m_.err_valid_o))));
  n_job_drop += !job_held;
  const bool rec = m_.rec_we_o && m_.free_ok_i, job = m_.job_valid_o && m_.job_ready_i;
  if (m_.rec_we_o || m_.job_valid_o) {
    REQUIRE(cur_.has_value());
    REQUIRE(cur_->passed());
    REQUIRE_FALSE(cur_->err_shown);
    REQUIRE(link_up_);
  }
  if (!rec) {
    REQUIRE_FALSE(job);  // a job only with its record
    return;
  }
  ExCur& c = *cur_;
  REQUIRE_FALSE(c.fenced);    // the fence met it before: it must have failed
  REQUIRE_FALSE(c.link_cut);  // the link was down after its checks: LINK_DOWN
  const exf::DescCtrl dc = c.d.c();
  const unsigned slot = free_.front(), id = slot | (epoch_ << kExMsgW);
  nic_tb::CmplRec want = nic_tb::ex_record(c.d, dc.lev ? c.ans[0].paddr : 0);
  nic_tb::CmplRec got = nic_tb::ex_get_rec(m_.rec_o);
  if (!dc.lev) {  // the local event's fields mean nothing without LEV
    got.lev_pa = want.lev_pa;
    got.lev_key = want.lev_key;
    got.lev_phys = want.lev_phys;
    got.lev_data = want.lev_data;
  }
  REQUIRE(got == want);
  free_.pop_front();
  busy_.emplace_back(slot, now + 1 + rng_.below(slot_life_));
  if (dc.type == exf::DescType::RDMA_WRITE) {
    REQUIRE(job);
    ExJobOut wj{c.d.vp, c.d.w[2], c.d.w[3], dc.phys, phys_ok_[c.d.vp], static_cast<std::uint32_t>(c.d.w[1]), {}};
    const auto hw = nic_tb::ex_job_head(c.d, node_, id).pack();
    for (unsigned k = 0; k < 4; ++k) wj.head[k] = hw[k];
    REQUIRE(jo == wj);
    jobs_.push_back(ExJob{c.d, id, node_, now + 1 + rng_.below(res_delay_)});
    ++n_writes;
  } else {
    REQUIRE_FALSE(job);
    const std::vector<ExPkt> pk = nic_tb::ex_packets(c.d, node_, id);
    for (std::size_t i = 0; i < pk.size(); ++i) dpk_.push_back(ExDescPkt{pk[i], i + 1 == pk.size()});
    n_reads += dc.type == exf::DescType::RDMA_READ;
    n_mp += dc.type == exf::DescType::MP_SEND;
    n_imm += dc.type == exf::DescType::IMM_WRITE;
    n_imm2 += dc.type == exf::DescType::IMM_WRITE && pk.size() - dc.rev == 2;
  }
  cur_.reset();
}

void ExTb::check_engine0(std::uint64_t now) {
  const ExFail f{m_.fail_id_o, m_.fail_status_o};
  REQUIRE(fail_hold_.check(m_.fail_valid_o, m_.fail_ready_i, f));
  if (m_.fail_valid_o) {  // engine 0's failures, in job order
    REQUIRE_FALSE(failq_.empty());
    REQUIRE(f == failq_.front());
    if (m_.fail_ready_i) failq_.pop_front();
  }
  if (!res_valid_) return;
  REQUIRE(m_.res_ready_o);  // always taken
  const ExJob j = jobs_.front();
  jobs_.pop_front();
  if (res_status_ != kExOk) {
    failq_.push_back(ExFail{j.id, res_status_});
    ++n_fails;
  } else if (j.d.c().rev) {
    evq_.push_back(ExEvent{nic_tb::ex_event_pkt(j.d, j.node, j.id), now});
  }
}

void ExTb::check_pkt(std::uint64_t now) {
  ExFlit fl;
  for (unsigned k = 0; k < 4; ++k) fl.w[k] = get_bits(m_.pkt_data_o, 64 * k, 64);
  fl.last = m_.pkt_last_o;
  REQUIRE(pkt_hold_.check(m_.pkt_valid_o, m_.pkt_ready_i, fl));
  if (!m_.pkt_valid_o) return;
  if (flits_.empty() && !head_shown_) {
    head_shown_ = true;
    head_at_ = now;
  }
  if (!m_.pkt_ready_i) return;
  flits_.push_back(fl);
  REQUIRE(fl.last == (flits_.size() == 5));
  if (flits_.size() < 5) return;
  ExPkt p{};
  for (unsigned f = 0; f < 5; ++f)
    for (unsigned k = 0; k < 4; ++k) p[4 * f + k] = flits_[f].w[k];
  flits_.clear();
  head_shown_ = false;
  ++n_pkts;
  const exf::PktHead got = exf::PktHead::unpack({p[0], p[1], p[2], p[3]});
  INFO("packet: type " << static_cast<unsigned>(got.ptype) << " MSG_ID " << got.msg_id << " LEN " << got.len
                       << " ADDR " << std::hex << got.addr.addr << std::dec << " head shown at " << head_at_);
  if (!dpk_.empty() && p == dpk_.front().pkt) {
    mid_ = !dpk_.front().end;
    dpk_.pop_front();
    return;
  }
  if (!dpk_.empty()) {
    const exf::PktHead w = exf::PktHead::unpack({dpk_.front().pkt[0], dpk_.front().pkt[1], dpk_.front().pkt[2], dpk_.front().pkt[3]});
    INFO("the descriptor packet expected: type " << static_cast<unsigned>(w.ptype) << " MSG_ID " << w.msg_id << " LEN "
                                                 << w.len << " ADDR " << std::hex << w.addr.addr << std::dec);
    REQUIRE_FALSE(mid_);  // an EVENT never between two packets of one descriptor
  }
  REQUIRE_FALSE(evq_.empty());
  REQUIRE(p == evq_.front().pkt);
  REQUIRE(evq_.front().result_at < head_at_);  // after its result
  evq_.pop_front();
  ++n_events;
}

}  // namespace

static void ex_run(ExTb& tb, unsigned cycles) {
  for (unsigned c = 0; c < cycles; ++c) tb.cycle(false);
  for (unsigned c = 0; c < 20000 && !tb.drained(); ++c) tb.cycle(true);
  REQUIRE(tb.drained());
  const auto& s = tb.by_status;
  using S = exf::Status;
  auto n = [&](S x) { return s[std::min<unsigned>(static_cast<unsigned>(x), 16)]; };
  hpcnet::tb::print_counts(
      "nic_exec", {{"descriptors", tb.n_desc}, {"errors at check", tb.n_err_static}, {"translation failures", tb.n_err_xl},
                   {"LINK_DOWN", tb.n_err_down}, {"fenced", tb.n_err_fence}, {"RDMA writes", tb.n_writes},
                   {"reads", tb.n_reads}, {"immediate", tb.n_imm}, {"of two packets", tb.n_imm2}, {"mini-packets", tb.n_mp},
                   {"engine 0 EVENTs", tb.n_events}, {"engine 0 failures", tb.n_fails}, {"packets", tb.n_pkts},
                   {"cycles of inv_hold", tb.n_hold}, {"cycles without a slot", tb.n_slot_full}, {"jobs withdrawn", tb.n_job_drop},
                   {"BAD_NWORDS", n(S::BAD_NWORDS)}, {"BAD_TYPE", n(S::BAD_TYPE)}, {"BAD_FLAGS", n(S::BAD_FLAGS)},
                   {"BAD_LEN", n(S::BAD_LEN)}, {"BAD_VP", n(S::BAD_VP)}, {"PHYS_DENIED", n(S::PHYS_DENIED)},
                   {"EV_ALIGN", n(S::EV_ALIGN)}});
  CHECK(tb.n_writes > 200);
  CHECK(tb.n_reads > 200);
  CHECK(tb.n_imm2 > 50);
  CHECK(tb.n_mp > 200);
  CHECK(tb.n_events > 50);
  CHECK(tb.n_fails > 50);
  CHECK(tb.n_err_xl > 50);
  for (S x : {S::BAD_NWORDS, S::BAD_TYPE, S::BAD_FLAGS, S::BAD_LEN, S::BAD_VP, S::PHYS_DENIED, S::EV_ALIGN}) CHECK(n(x) > 20);
}

TEST_CASE("nic_exec: good and malformed descriptors under idle cycles and back-pressure against the reference",
          "[nic_exec]") {
  ExTb tb(hpcnet::tb::seed("nic_exec random"), ExOpts{});
  ex_run(tb, 150000);
}

TEST_CASE("nic_exec: the link going down and fences of a local event's key", "[nic_exec]") {
  ExTb tb(hpcnet::tb::seed("nic_exec link and fence"), ExOpts{20, 3, 2});
  ex_run(tb, 150000);
  CHECK(tb.n_err_down > 50);
  CHECK(tb.n_err_fence > 20);
}
