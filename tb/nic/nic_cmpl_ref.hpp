// nic_cmpl_ref.hpp: a cycle reference of the completion unit (rtl/nic/nic_cmpl.sv, docs/nic.md
// sections 5, 6 and 8) for its module test (test_nic_cmpl.cpp), written from the module's brief:
//   - the message table: a record per slot, written at dispatch (rec_we_i) into the lowest free
//     slot; a slot is busy until its message has completed;
//   - one completion at a time, taken in an idle cycle, first of: an error at dispatch (not while
//     a sweep is pending), an engine 0 failure, an answer from the VC1 receiver (not while a
//     failure is shown), the sweep's next message (lowest slot; only with sweep_ok_i and no
//     failure or answer shown). A failure or answer of an older epoch (MSG_ID bits above MsgW) is
//     taken and dropped;
//   - a completion's cycles: the local event (on success with LEV, 16 bytes at LEV_PA) until
//     written, the CQ entry (with a CQ, on an error or with CQ_OK: CQ_BASE + 16 * (tail mod size),
//     PHASE = 1 on the ring's first pass) until written, its INTR pulse on cq_irq_o the cycle
//     after; then a cycle that frees the slot, drops the VP's outstanding count and reports an
//     error (rep_*);
//   - INFO: an error at dispatch its own; an engine 0 failure 1; an answer's: 0 on success, 3 for
//     the remote event's own failure, 1 for a read's local failure (bit 7 clear), else 2; a fence
//     of the local event's key (from dispatch to the answer) turns a success into BAD_KEY INFO 3;
//     the sweep LINK_DOWN INFO 2. inv_hold_o while a fenced key's event is being written;
//   - the link going down marks every busy slot (one recorded in that cycle too) for the sweep;
//   - the CQ context behind the window: CQ_BASE (48 bits), SIZES.CQ_LOG2, CQ_HEAD written, all
//     four (with CQ_TAIL) read in the same cycle, 0 for another offset; cq_room: CQ_LOG2 = 0 or
//     tail - head + outstanding < 2^CQ_LOG2, from the values of the current cycle.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/bits.hpp"
#include "nic_win.hpp"

namespace nic_tb {

namespace ncf = hpcnet::nic_formats;

// nic_cmpl_pkg::rec_t, the record of a message (267 bits).
struct CmplRec {
  std::array<std::uint64_t, 2> lev_data{};
  std::uint64_t lev_pa = 0;
  unsigned lev_key = 0;
  bool lev_phys = false, lev = false, intr = false, cq_ok = false;
  std::uint32_t len = 0;
  unsigned dst_node = 0, typ = 0, tag = 0, vp = 0;
  bool operator==(const CmplRec&) const = default;
};

template <class W>
void put_cmpl_rec(W& port, const CmplRec& r) {
  using hpcnet::tb::put_bits;
  put_bits(port, 0, 5, r.vp);
  put_bits(port, 5, 16, r.tag);
  put_bits(port, 21, 4, r.typ);
  put_bits(port, 25, 14, r.dst_node);
  put_bits(port, 39, 32, r.len);
  put_bits(port, 71, 1, r.cq_ok);
  put_bits(port, 72, 1, r.intr);
  put_bits(port, 73, 1, r.lev);
  put_bits(port, 74, 1, r.lev_phys);
  put_bits(port, 75, 16, r.lev_key);
  put_bits(port, 91, 48, r.lev_pa);
  put_bits(port, 139, 64, r.lev_data[0]);
  put_bits(port, 203, 64, r.lev_data[1]);
}

// One cycle's inputs.
struct CmplIn {
  NicWin win;
  bool rec_we = false, start = false;
  CmplRec rec;
  unsigned start_vp = 0;
  bool inv_active = false;
  unsigned inv_key = 0;
  bool link_down = false, sweep_ok = true;
  unsigned epoch = 0;
  bool err_valid = false;
  unsigned err_status = 0;
  std::uint32_t err_info = 0;
  bool fail_valid = false;
  unsigned fail_id = 0, fail_status = 0;
  bool done_valid = false, done_event = false;
  unsigned done_id = 0, done_status = 0;
  bool wr_ready = false;
};

// A write on engine 2: 16 bytes at addr, placed at byte addr % 32 of the 32-byte data.
struct CmplWrite {
  std::uint64_t addr = 0;
  std::array<std::uint64_t, 4> data{};
  bool operator==(const CmplWrite&) const = default;
};

template <unsigned Vps, unsigned MsgW>
class CmplRef {
 public:
  static constexpr unsigned kSlots = 1u << MsgW;
  struct Vp {
    std::uint64_t base = 0;
    unsigned log2 = 0;
    std::uint32_t head = 0, tail = 0;
    std::uint8_t out = 0;
    bool irq = false;
  };
  enum class St { Idle, Ev, Cq, Fin };
  enum class Took { None, Err, Fail, Done, Sweep, StaleFail, StaleDone };

  // ---- this cycle's outputs
  int free_slot() const {
    for (unsigned i = 0; i < kSlots; ++i)
      if (!slot_[i].busy) return static_cast<int>(i);
    return -1;
  }
  int sweep_slot() const {
    for (unsigned i = 0; i < kSlots; ++i)
      if (slot_[i].busy && slot_[i].sweep) return static_cast<int>(i);
    return -1;
  }
  bool sweeping() const { return sweep_slot() >= 0; }
  bool idle() const { return st_ == St::Idle; }
  bool err_ready() const { return idle() && !sweeping(); }
  bool fail_ready(const CmplIn& in) const { return idle() && !(in.err_valid && !sweeping()); }
  bool done_ready(const CmplIn& in) const { return fail_ready(in) && !in.fail_valid; }
  bool inv_hold(const CmplIn& in) const {
    return in.inv_active && st_ == St::Ev && ev_ok() && !cur_.rec.lev_phys && cur_.rec.lev_key == in.inv_key;
  }
  std::optional<CmplWrite> write() const {
    if (st_ == St::Ev && ev_ok()) return placed(cur_.rec.lev_pa, cur_.rec.lev_data);
    if (st_ != St::Cq || !want_cq()) return std::nullopt;
    const Vp& p = vp_[cur_.rec.vp];
    const std::uint64_t addr = (p.base + 16 * std::uint64_t{p.tail & ((std::uint32_t{1} << p.log2) - 1)}) & kMask48;
    ncf::Cqe e;
    e.tag = cur_.rec.tag;
    e.status = static_cast<ncf::Status>(cur_.st);
    e.type = static_cast<ncf::DescType>(cur_.rec.typ);
    e.vp = cur_.rec.vp;
    e.dst_node = cur_.rec.dst_node;
    e.phase = ((p.tail >> p.log2) & 1) == 0;
    e.len = cur_.st == 0 ? cur_.rec.len : 0;
    e.info = cur_.info;
    return placed(addr, e.pack());
  }
  bool rep_valid() const { return st_ == St::Fin && cur_.st != 0; }
  const CmplRec& cur_rec() const { return cur_.rec; }
  unsigned cur_status() const { return cur_.st; }
  const Vp& vp(unsigned v) const { return vp_[v]; }
  bool room(unsigned v) const {
    const Vp& p = vp_[v];
    return p.log2 == 0 || std::uint32_t(p.tail - p.head + p.out) < (std::uint64_t{1} << p.log2);
  }
  bool busy(unsigned slot) const { return slot_[slot].busy; }
  St state() const { return st_; }
  std::uint64_t win_rdata(const NicWin& w) const {
    if (!w.valid || w.write || w.vp >= Vps) return 0;
    const Vp& p = vp_[w.vp];
    if (w.vpc && w.off == ncf::VPC_CQ_BASE_OFFSET) return p.base;
    if (w.vpc && w.off == ncf::VPC_SIZES_OFFSET) return ncf::VPC_SIZES_CQ_LOG2.put(p.log2);
    if (!w.vpc && w.off == ncf::VP_CQ_HEAD_OFFSET) return p.head;
    if (!w.vpc && w.off == ncf::VP_CQ_TAIL_OFFSET) return p.tail;
    return 0;
  }

  // ---- the clock edge; returns what the idle state took
  Took edge(const CmplIn& in) {
    const bool ev = ev_ok(), cq = want_cq();
    const int sw = sweep_slot(), fr = free_slot();
    // the fence of this cycle: every busy slot's event translated with the key is lost
    for (auto& s : slot_)
      if (s.busy && fenced(s.rec, in)) s.lost = true;
    Took took = Took::None;
    Cur next = cur_;
    St nst = st_;
    for (auto& p : vp_) p.irq = false;
    switch (st_) {
      case St::Idle:
        took = take(in, sw, next);
        if (took == Took::Err || took == Took::Fail || took == Took::Done || took == Took::Sweep) nst = St::Ev;
        break;
      case St::Ev:
        if (!ev || in.wr_ready) nst = St::Cq;
        break;
      case St::Cq:
        if (!cq || in.wr_ready) {
          if (cq) {
            ++vp_[cur_.rec.vp].tail;
            vp_[cur_.rec.vp].irq = cur_.rec.intr;
          }
          nst = St::Fin;
        }
        break;
      case St::Fin:
        nst = St::Idle;
        break;
    }
    if (in.rec_we && fr >= 0) slot_[static_cast<unsigned>(fr)] = Slot{in.rec, true, fenced(in.rec, in), false};
    if (in.link_down)
      for (auto& s : slot_)
        if (s.busy) s.sweep = true;
    if (st_ == St::Fin) {
      if (cur_.msg) slot_[cur_.id] = Slot{};
      --vp_[cur_.rec.vp].out;
    }
    if (in.start && in.start_vp < Vps) ++vp_[in.start_vp].out;
    if (in.win.valid && in.win.write && in.win.vp < Vps) {
      Vp& p = vp_[in.win.vp];
      if (in.win.vpc && in.win.off == ncf::VPC_CQ_BASE_OFFSET) p.base = in.win.wdata & kMask48;
      if (in.win.vpc && in.win.off == ncf::VPC_SIZES_OFFSET) p.log2 = static_cast<unsigned>(ncf::VPC_SIZES_CQ_LOG2.get(in.win.wdata));
      if (!in.win.vpc && in.win.off == ncf::VP_CQ_HEAD_OFFSET) p.head = static_cast<std::uint32_t>(in.win.wdata);
    }
    cur_ = next;
    st_ = nst;
    return took;
  }

 private:
  static constexpr std::uint64_t kMask48 = (std::uint64_t{1} << 48) - 1;
  struct Slot {
    CmplRec rec;
    bool busy = false, lost = false, sweep = false;
  };
  struct Cur {
    CmplRec rec;
    unsigned st = 0;
    std::uint32_t info = 0;
    unsigned id = 0;
    bool msg = false;  // a message (a slot to free), not an error at dispatch
  };

  static bool fenced(const CmplRec& r, const CmplIn& in) {
    return in.inv_active && r.lev && !r.lev_phys && r.lev_key == in.inv_key;
  }
  bool current(unsigned id, unsigned epoch) const { return ((id >> MsgW) & 3) == epoch; }
  bool ev_ok() const { return cur_.rec.lev && cur_.st == 0; }
  bool want_cq() const { return vp_[cur_.rec.vp].log2 != 0 && (cur_.st != 0 || cur_.rec.cq_ok); }
  static CmplWrite placed(std::uint64_t addr, const std::array<std::uint64_t, 2>& v) {
    CmplWrite w{addr, {}};
    for (unsigned i = 0; i < 2; ++i) {
      const unsigned b = 8 * static_cast<unsigned>(addr & 31) + 64 * i;
      if (b < 256) hpcnet::formats::put_bits(w.data.data(), b, b + 64 <= 256 ? 64 : 256 - b, v[i]);
    }
    return w;
  }
  // The idle state's choice (sw: the sweep's slot before this edge).
  Took take(const CmplIn& in, int sw, Cur& next) const {
    if (in.err_valid && sw < 0) {
      next = Cur{in.rec, in.err_status, in.err_info, 0, false};
      return Took::Err;
    }
    if (in.fail_valid) {
      if (!current(in.fail_id, in.epoch)) return Took::StaleFail;
      const unsigned id = in.fail_id & (kSlots - 1);
      next = Cur{slot_[id].rec, in.fail_status, 1, id, true};
      return Took::Fail;
    }
    if (in.done_valid) {
      if (!current(in.done_id, in.epoch)) return Took::StaleDone;
      const unsigned id = in.done_id & (kSlots - 1);
      const Slot& s = slot_[id];
      next = Cur{s.rec, in.done_status, 0, id, true};
      if (in.done_status == 0 && s.lost) {
        next.st = static_cast<unsigned>(ncf::Status::BAD_KEY);
        next.info = 3;
      } else if (in.done_status != 0) {
        const bool local_read = (in.done_status & 0x80) == 0 && s.rec.typ == static_cast<unsigned>(ncf::DescType::RDMA_READ);
        next.info = in.done_event ? 3 : local_read ? 1 : 2;
      }
      return Took::Done;
    }
    if (sw >= 0 && in.sweep_ok) {
      const unsigned id = static_cast<unsigned>(sw);
      next = Cur{slot_[id].rec, static_cast<unsigned>(ncf::Status::LINK_DOWN), 2, id, true};
      return Took::Sweep;
    }
    return Took::None;
  }

  std::array<Slot, kSlots> slot_{};
  std::array<Vp, Vps> vp_{};
  St st_ = St::Idle;
  Cur cur_{};
};

}  // namespace nic_tb
