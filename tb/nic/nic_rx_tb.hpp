// nic_rx_tb.hpp: the test bench of the receive path of one VC (rtl/nic/nic_rx.sv) alone, against
// nic_rx_ref.hpp, shared by test_nic_rx.cpp (messages one after another) and test_nic_rx_multi.cpp
// (several senders interleaved packet by packet, each message's packets in any order). See
// test_nic_rx.cpp for what it plays and checks.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/counts.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/dma_mem.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"
#include "hpcnet/tb/stream.hpp"
#include "nic_pkt_ref.hpp"
#include "nic_rx_ref.hpp"
#include "nic_win.hpp"
#include "sim/core/harness.hpp"

namespace nic_tb {

namespace rxf = hpcnet::nic_formats;
using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;
constexpr unsigned kRxVps = 5, kRxMsgW = 3;  // rtl/nic/models.cmake: Vnic_rx0_s, Vnic_rx1_s
constexpr unsigned kRxEn = 0b01111;          // VP 4 disabled
constexpr unsigned kRxPhysOk = 0b00011;      // VPs 0 and 1 may use physical addresses
constexpr std::array<unsigned, kRxVps> kRxMpqLog2{2, 3, 0, 1, 2};  // VP 2 has no MPQ
constexpr std::uint64_t kRxPhysArea = 0xA0'0000'0000ull, kRxMpqArea = 0xC0'0000'0000ull;
using RxRefT = nic_tb::RxRef<kRxVps, kRxMsgW>;

struct RxFlit {
  std::array<std::uint64_t, 4> w{};
  bool last = false;
};
struct RxBeat {
  std::uint64_t addr = 0;
  unsigned len = 0;
  std::array<std::uint64_t, 4> data{};
  bool last = false;
  bool operator==(const RxBeat&) const = default;
};
struct RxJob {
  std::array<std::uint64_t, 4> head{};
  bool operator==(const RxJob&) const = default;
};
struct RxXl {
  unsigned vp = 0;
  std::uint64_t addr = 0, len = 0;
  bool phys = false, phys_ok = false;
  bool operator==(const RxXl&) const = default;
};
struct RxEv {  // an EVENT still to send after its message
  rxf::PktHead h;
  unsigned after = 0;  // messages to send first
  std::uint64_t pay0 = 0, pay1 = 0;
};

struct RxOpts {
  unsigned fault_pct = 30;
  unsigned down_pm = 0;   // per mille of cycles the link goes down
  unsigned senders = 0;   // > 0: that many senders' messages interleaved packet by packet
  bool shuffle = false;   // with senders: each message's packets (its EVENT too) in any order
  unsigned abandon_pm = 0;  // with senders (VC0): per mille of packets a sender's link goes down:
                            // its messages under way are abandoned, its epoch moves on
  bool alias = false;     // with senders: senders s and s + 3 have node ids equal modulo 64 (the
                          // table's NodeW): one is refused while the other has messages in progress
};
// With senders: at most this many messages in progress at once (nic_rx has an entry for every
// possible one: its senders' MSG_ID slots; the old table of 16 entries deadlocked beyond 16).
inline constexpr unsigned kRxMaxOpen = 40;

template <class M>
class RxTb {
 public:
  RxRefT ref;
  std::uint64_t n_abandoned = 0;
  unsigned max_early = 0;  // EVENTs sent before their message's data at once
  std::uint64_t n_pkts = 0, n_beats = 0, n_hold_waits = 0, n_downs = 0, n_closed_open = 0, n_sw = 0;

  RxTb(std::uint64_t seed, bool vc1, RxOpts o) : rng_(seed), o_(o), vc1_(vc1), dma_(rng_) {
    ref.vc1 = vc1;
    node_ = rng_.below(1u << 14);
    m_.node_id_i = static_cast<SData>(node_);
    m_.vp_en_i = kRxEn;
    m_.vp_phys_ok_i = kRxPhysOk;
    m_.link_up_i = 1;
    m_.in_valid_i = 0;
    hpcnet::tb::sync_reset(h_);
    for (unsigned v = 0; v < kRxVps; ++v) {  // the MPQ rings
      ref.mpq[v].base = kRxMpqArea + (std::uint64_t{v} << 20);
      ref.mpq[v].log2 = kRxMpqLog2[v];
      win({true, true, true, v, rxf::VPC_MPQ_BASE_OFFSET, ref.mpq[v].base});
      rxf::VpcSizes s;
      s.mpq_log2 = kRxMpqLog2[v];
      s.cq_log2 = rng_.below(32);
      win({true, true, true, v, rxf::VPC_SIZES_OFFSET, s.pack()[0]});
    }
    for (auto& b : bump_) b = rng_.below(1u << 16);
  }

  void cycle(bool quiet) {
    const std::uint64_t now = h_.cycles();
    if (now % 3000 == 0) new_phase();
    if (link_up_ && !quiet && rng_.below(1000) < o_.down_pm && !wraps()) {
      link_up_ = false;
      epoch_ = (epoch_ + 1) & 3;
      down_left_ = rng_.rnd(1, 200);
      ++n_downs;
    } else if (!link_up_ && (quiet || down_left_-- == 0)) {
      link_up_ = true;
    }
    paused_ = link_up_ ? 0 : paused_ + 1;  // nothing arrives while the link is down
    while (pkts_.size() < 6 && (!quiet || !evs_.empty() || !open_.empty())) o_.senders ? gen_multi(quiet) : gen(quiet);
    if (link_up_) in_.step(rng_, now);
    dma_.step(now);
    xl_rsp_.step(rng_, now);
    for (auto* s : {&xl_sink_, &job_sink_, &ans_sink_}) s->step(rng_);
    drive();
    software();
    h_.eval();
    INFO("cycle " << now << " VC" << vc1_);
    check(now);
    hpcnet::tb::tick(h_);
  }

  bool drained() const {
    return in_.empty() && pkts_.empty() && evs_.empty() && open_.empty() && ref.answers.empty() && ref.errs.empty() && xl_rsp_.empty() &&
           m_.at_head_o && !dma_.write_open() && link_up_;
  }
  std::string state() const {  // what is left when the bench does not drain
    std::ostringstream o;
    o << "left: flits " << !in_.empty() << ", packets " << pkts_.size() << ", EVENTs " << evs_.size() << ", messages "
      << open_.size() << ", answers " << ref.answers.size() << ", reports " << ref.errs.size() << ", at head "
      << bool(m_.at_head_o) << ", write open " << dma_.write_open() << ", link " << link_up_
      << ", reference messages in progress " << ref.open() << ":" << ref.open_list();
    o << "; sending:";
    for (const RxMMsg& m : open_) o << " {" << m.src << "," << m.id << " left " << m.data_left << (m.early ? " early" : "") << "}";
    o << "; early " << early_;
    if (!pkts_.empty()) {
      const rxf::PktHead h = RxRefT::head(pkts_.front());
      o << "; next packet: type " << unsigned(h.ptype) << " src " << h.src_node << " MSG_ID " << h.msg_id << " flit " << flit_;
    }
    return o.str();
  }
  void finish() {  // every byte as often as expected, the interrupts, the window's tails
    REQUIRE(dma_.error().empty());
    std::uint64_t n = 0;
    for (const auto& [pa, b] : ref.mem) {
      INFO("byte at " << std::hex << pa);
      const auto it = got_.find(pa);
      REQUIRE(it != got_.end());
      REQUIRE(it->second == b.n);
      n += b.n;
    }
    REQUIRE(n == got_bytes_);
    for (unsigned v = 0; v < kRxVps; ++v) REQUIRE(irqs_[v] == ref.irqs[v]);
  }

 private:
  void new_phase() {
    static const unsigned idle[] = {0, 30, 80}, rdy[] = {20, 60, 100};
    in_.idle_pct = idle[rng_.below(3)];
    xl_rsp_.idle_pct = idle[rng_.below(3)];
    xl_lat_ = rng_.pct(50) ? 3 : 30;
    dma_.wr_ready_pct = rdy[rng_.below(3)];
    xl_sink_.ready_pct = rdy[rng_.below(3)];
    job_sink_.ready_pct = rdy[rng_.below(3)];
    ans_sink_.ready_pct = rdy[rng_.below(3)];
    big_pct_ = rng_.pct(50) ? 5 : 30;
  }

  // A link down now would make a queued VC1 packet of three downs ago current again (the epoch
  // wraps: the NIC's links go down far more rarely than messages live).
  bool wraps() const {
    if (!vc1_) return false;
    for (const RxPkt& p : pkts_)
      if (((RxRefT::head(p).msg_id >> kRxMsgW) & 3) == ((epoch_ + 1) & 3)) return true;
    return false;
  }

  void win(const nic_tb::NicWin& w) {
    nic_tb::put_win(m_.win_i, w);
    h_.settle();
    hpcnet::tb::tick(h_);
    nic_tb::put_win(m_.win_i, nic_tb::NicWin{});
  }

  // ---------------------------------------------------------------- the senders
  void push_pkt(const RxPkt& p) {
    for (unsigned f = 0; f < 5; ++f) {
      RxFlit fl;
      for (unsigned k = 0; k < 4; ++k) fl.w[k] = p[4 * f + k];
      fl.last = f == 4;
      in_.push(fl);
    }
    pkts_.push_back(p);
  }
  static RxPkt with_head(const rxf::PktHead& h, RxPkt p) {
    const auto hw = h.pack();
    for (unsigned k = 0; k < 4; ++k) p[k] = hw[k];
    return p;
  }
  RxPkt noise() {
    RxPkt p;
    for (auto& w : p) w = rng_();
    return p;
  }
  rxf::PktHead tmpl(rxf::PktType t) {
    rxf::PktHead h;
    h.ptype = t;
    h.src_node = rng_.below(1u << 14);
    h.dst_node = node_;
    h.src_vp = rng_.below(32);
    h.dst_vp = rng_.below(kRxVps);
    // VC0: a sender's epoch (its link's) stays: nic_rx drops a sender's older epoch's messages
    h.msg_id = rng_.below(1u << kRxMsgW) | ((vc1_ ? epoch_ : h.src_node & 3) << kRxMsgW);
    if (vc1_ && rng_.pct(8)) h.msg_id = (h.msg_id & 7) | (((epoch_ + 3) & 3) << kRxMsgW);  // the epoch before
    return h;
  }
  // A destination of len bytes for VP vp: its own region (key vp + 1), or with a fault.
  std::uint64_t dest(unsigned vp, std::uint32_t len, bool phys, unsigned fault) {
    if (phys) {
      const std::uint64_t a = kRxPhysArea + bump_[0] + rng_.below(300);
      bump_[0] = a + len - kRxPhysArea;
      return (std::uint64_t{rng_.below(65536)} << 48) | a;
    }
    unsigned key = std::min(vp, 3u) + 1;
    if (fault == 1) key = (key % 4) + 1;               // another VP's key
    if (fault == 4)  // not registered
      return (std::uint64_t{rng_.pct(50) ? 0 : rng_.rnd(RxAtt::kKeys, 65535)} << 48) | (rng_() & 0xFF'FFFF'FFFFull);
    if (fault == 2) return (std::uint64_t{key} << 48) | (RxAtt::base(key) + RxAtt::kRegion - rng_.below(len));  // past its end
    const std::uint64_t a = RxAtt::base(key) + bump_[key] + rng_.below(300);
    bump_[key] = a + len - RxAtt::base(key);
    return (std::uint64_t{key} << 48) | a;
  }
  std::uint32_t msg_len() {
    return rng_.pct(big_pct_) ? rng_.rnd(300, rng_.pct(20) ? 12000 : 5000) : rng_.rnd(1, 300);
  }

  void gen(bool quiet) {
    for (auto it = evs_.begin(); it != evs_.end(); ++it) {  // an EVENT whose turn has come
      if (it->after == 0 || quiet) {
        push_pkt(ev_pkt(*it));
        rev_busy_ &= ~(1u << (it->h.msg_id & 7));
        evs_.erase(it);
        return;
      }
    }
    for (auto& e : evs_) --e.after;
    const unsigned r = rng_.below(100);
    if (vc1_) {
      if (r < 30) return answer_pkt();
      if (r < 34) return bad_pkt();
      return data_msg(rxf::PktType::READ_DATA);
    }
    if (r < 12) return mp_pkt();
    if (r < 20) return read_req();
    if (r < 24) return bad_pkt();
    data_msg(rxf::PktType::WRITE);
  }

  void answer_pkt() {
    rxf::PktHead h = tmpl(rng_.pct(50) ? rxf::PktType::ACK : rxf::PktType::NACK);
    h.first = h.last = true;
    h.aux = rng_();
    if (rng_.pct(5)) h.dst_node = (node_ + 1) & 0x3FFF;
    push_pkt(with_head(h, noise()));
  }
  void bad_pkt() {
    using T = rxf::PktType;
    rxf::PktHead h = tmpl(T::NONE);
    static const T other0[] = {T::READ_DATA, T::ACK, T::NACK}, other1[] = {T::WRITE, T::READ_REQ, T::MP, T::EVENT};
    h.ptype = rng_.pct(50) ? static_cast<T>(rng_.pct(30) ? 0 : rng_.rnd(8, 15))
                           : vc1_ ? other1[rng_.below(4)] : other0[rng_.below(3)];
    h.first = true;
    h.last = rng_.pct(80);
    h.aux = rng_();
    push_pkt(with_head(h, noise()));
  }
  void read_req() {
    rxf::PktHead h = tmpl(rxf::PktType::READ_REQ);
    h.first = h.last = true;
    h.msg_len = rng_.rnd(1, 100000);
    h.addr = rxf::Vaddr::unpack({rng_()});
    h.aux = rng_();
    if (rng_.pct(15)) h.dst_vp = rng_.rnd(4, 31);  // disabled, or past NumVp
    if (rng_.pct(5)) h.dst_node = (node_ + 1) & 0x3FFF;
    push_pkt(with_head(h, noise()));
  }
  void mp_pkt() {
    rxf::PktHead h = tmpl(rxf::PktType::MP);
    h.first = h.last = true;
    h.len = h.msg_len = rng_.rnd(0, 120);
    h.aux = rng_();
    if (rng_.pct(10)) h.dst_vp = rng_.rnd(4, 31);
    push_pkt(with_head(h, noise()));
  }
  // A WRITE or READ_DATA message (VC1: answers between its packets), maybe with a fault; a WRITE
  // with REV has its EVENT sent a few messages later.
  void data_msg(rxf::PktType t) {
    rxf::PktHead h = tmpl(t);
    if (t == rxf::PktType::WRITE && rng_.pct(30)) {  // REV: a free outcome slot
      for (unsigned s = 0; s < 8; ++s)
        if (!((rev_busy_ >> s) & 1) && !h.rev) {
          h.rev = true;
          rev_busy_ |= 1u << s;
          h.msg_id = s | ((h.src_node & 3) << kRxMsgW);
        }
    }
    RxEv e;
    const std::vector<RxPkt> ps = msg_pkts(h, e);
    for (std::size_t k = 0; k < ps.size(); ++k) {
      push_pkt(ps[k]);
      if (vc1_ && k + 1 < ps.size() && rng_.pct(25)) answer_pkt();
    }
    if (h.rev) {
      e.after = rng_.below(4);
      evs_.push_back(e);
    }
  }
  // The packets of a message with template h (its type, SRC_NODE, MSG_ID, REV), maybe with a
  // fault; with REV its EVENT in ev.
  std::vector<RxPkt> msg_pkts(rxf::PktHead h, RxEv& ev) {
    const unsigned fault = rng_.pct(o_.fault_pct) ? rng_.rnd(1, 8) : 0;
    h.dst_vp = rng_.below(3);  // VPs with a writable region
    if (fault == 3) h.dst_vp = 3;  // its region is read-only
    if (fault == 5) h.dst_vp = rng_.rnd(4, 31);
    const bool phys = fault == 6 || rng_.pct(8);
    if (phys && fault != 6) h.dst_vp = rng_.below(2);
    if (fault == 6) h.dst_vp = rng_.rnd(2, 3);
    h.phys = phys;
    if (fault == 8) h.dst_node = (node_ + rng_.rnd(1, 100)) & 0x3FFF;
    const std::uint32_t len = msg_len();
    const std::uint64_t dst = dest(h.dst_vp, len, phys, fault);
    const std::uint64_t aux = fault == 7 ? rng_.rnd(1, 255) : 0;
    std::vector<std::uint8_t> bytes(len);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng_());
    const unsigned n = nic_tb::pkt_ref_count(dst, len);
    std::vector<RxPkt> out;
    for (unsigned k = 0; k < n; ++k) {
      RxPkt p{};
      for (unsigned f = 0; f < 4; ++f) {
        const nic_tb::Bytes32 b = nic_tb::pkt_ref_payload(dst, len, k, f, [&](std::uint32_t i) { return bytes[i]; });
        for (unsigned i = 0; i < 32; ++i) p[4 + 4 * f + i / 8] |= std::uint64_t{b[i]} << (8 * (i % 8));
      }
      out.push_back(with_head(nic_tb::pkt_ref_head(h, dst, len, k, aux), p));
    }
    if (h.rev) {
      ev.h = h;
      ev.h.ptype = rxf::PktType::EVENT;
      ev.h.first = ev.h.last = true;
      ev.h.len = ev.h.msg_len = 16;
      ev.h.aux = 0;
      const unsigned ef = rng_.pct(20) ? (rng_.pct(50) ? 1 : 4) : 0;  // its own check fails
      // 32 bytes reserved, the 16 aligned up inside them (never over the message's own data)
      const std::uint64_t ea =
          (dest(ev.h.dst_vp < kRxVps ? ev.h.dst_vp : 0, 32, ev.h.phys && ev.h.dst_vp < 2, ef) + 15) & ~std::uint64_t{15};
      ev.h.addr = rxf::Vaddr::unpack({ea});
      ev.pay0 = rng_();
      ev.pay1 = rng_();
    }
    return out;
  }
  RxPkt ev_pkt(const RxEv& e) {
    RxPkt p = noise();
    for (unsigned i = 4; i < 20; ++i) p[i] = 0;
    p[4] = e.pay0;
    p[5] = e.pay1;
    return with_head(e.h, p);
  }

  // Several senders (o_.senders): up to kRxMaxOpen messages in progress, their packets
  // interleaved one by one (a random message's next packet each time); with o_.shuffle each
  // message's packets, its EVENT included, in a random order (any number of EVENTs early).
  // Single packets between them.
  struct RxMMsg {
    std::deque<RxPkt> pkts;
    unsigned src = 0, id = 0, data_left = 0, sender = 0;
    bool early = false, sent = false;  // its EVENT was sent before its last data packet; a packet sent
  };
  // A sender's link goes down: the rest of its messages under way is never sent (nic_epoch_drop),
  // its later messages carry the next epoch. nic_rx keeps their entries (and parked EVENTs) until
  // the sender's next packet.
  void abandon(unsigned s) {
    for (auto it = open_.begin(); it != open_.end();) {
      if (it->sender != s) {
        ++it;
        continue;
      }
      early_ -= it->early && it->data_left > 0;
      it = open_.erase(it);
      ++n_abandoned;
    }
    sender_ep_[s] = (sender_ep_[s] + 1) & 3;
  }
  void gen_multi(bool quiet) {
    const unsigned r = rng_.below(100);
    if (!quiet && r < 10) {
      if (vc1_) return r < 8 ? answer_pkt() : bad_pkt();
      return r < 4 ? mp_pkt() : r < 7 ? read_req() : bad_pkt();
    }
    if (!quiet && rng_.below(1000) < o_.abandon_pm) return abandon(rng_.below(o_.senders));
    if (!quiet && (open_.empty() || (open_.size() < kRxMaxOpen && rng_.pct(25)))) start_msg();
    if (open_.empty()) return;
    const std::size_t i = rng_.below(static_cast<unsigned>(open_.size()));
    RxMMsg& m = open_[i];
    const auto is_ev = [](const RxPkt& p) { return RxRefT::head(p).ptype == rxf::PktType::EVENT; };
    m.sent = true;
    if (is_ev(m.pkts.front()) && m.data_left > 0) {
      m.early = true;
      ++early_;
      max_early = std::max(max_early, early_);
    }
    if (!is_ev(m.pkts.front()) && --m.data_left == 0 && m.early) --early_;
    push_pkt(m.pkts.front());
    m.pkts.pop_front();
    if (m.pkts.empty()) open_.erase(open_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  void start_msg() {
    const unsigned s = rng_.below(o_.senders);
    rxf::PktHead h = tmpl(vc1_ ? rxf::PktType::READ_DATA : rxf::PktType::WRITE);
    h.src_node = (node_ + 1 + (o_.alias ? 37 * (s % 3) + 64 * (s / 3 + 1) : 37 * s)) & 0x3FFF;  // never this node
    unsigned used = 0;  // MSG_ID slots of the sender's messages in progress (VC1: of this node's)
    for (const RxMMsg& m : open_)
      if (vc1_ || m.src == h.src_node) used |= 1u << m.id;
    if (used == 0xFF) return;
    unsigned id = rng_.below(8);
    while ((used >> id) & 1) id = (id + 1) & 7;
    h.msg_id = id | ((vc1_ ? epoch_ : sender_ep_[s]) << kRxMsgW);
    h.rev = !vc1_ && rng_.pct(30);
    RxEv e;
    std::vector<RxPkt> ps = msg_pkts(h, e);
    RxMMsg m;
    m.src = h.src_node;
    m.id = id;
    m.sender = s;
    m.data_left = static_cast<unsigned>(ps.size());
    if (h.rev) ps.push_back(ev_pkt(e));
    if (o_.shuffle)
      for (std::size_t k = ps.size(); k > 1; --k) std::swap(ps[k - 1], ps[rng_.below(static_cast<unsigned>(k))]);
    m.pkts.assign(ps.begin(), ps.end());
    open_.push_back(std::move(m));
  }

  // ---------------------------------------------------------------- the ports
  void drive() {
    const bool v = in_.valid();
    m_.in_valid_i = v;
    for (unsigned k = 0; k < 4; ++k) put_bits(m_.in_data_i, 64 * k, 64, v ? in_.data().w[k] : rng_());
    m_.in_last_i = v ? in_.data().last : rng_.pct(50);
    m_.link_up_i = link_up_;
    m_.epoch_i = static_cast<CData>(epoch_);
    m_.inv_active_i = 0;
    m_.inv_key_i = static_cast<SData>(rng_.below(65536));
    m_.xl_req_ready_i = xl_sink_.ready();
    const bool xv = xl_rsp_.valid();
    m_.xl_rsp_valid_i = xv;
    m_.xl_rsp_status_i = static_cast<CData>(xv ? xl_rsp_.data().status : rng_.below(256));
    m_.xl_rsp_paddr_i = xv ? xl_rsp_.data().paddr : rng_() & 0xFFFF'FFFF'FFFFull;
    m_.wr_ready_i = dma_.wr_ready();
    m_.job_ready_i = job_sink_.ready();
    m_.ack_ready_i = ans_sink_.ready();
    m_.done_ready_i = ans_sink_.ready();
  }
  // Software (VC0): MPQ_HEAD moved on, MPQ_TAIL read; not while a mini-packet is being taken.
  void software() {
    nic_tb::NicWin w{false, rng_.pct(50), rng_.pct(50), rng_.below(32), rng_.below(4096), rng_()};
    sw_read_ = false;
    const bool mp_next = !pkts_.empty() && flit_ == 0 && RxRefT::head(pkts_.front()).ptype == rxf::PktType::MP;
    if (!vc1_ && !mp_busy_ && !mp_next && rng_.pct(10)) {
      const unsigned v = rng_.below(kRxVps);
      auto& q = ref.mpq[v];
      w = {true, rng_.pct(40), false, v, 0, rng_()};
      if (w.write) {
        w.off = rxf::VP_MPQ_HEAD_OFFSET;
        w.wdata = q.head + rng_.below(q.tail - q.head + 1);
        q.head = static_cast<std::uint32_t>(w.wdata);
        ++n_sw;
      } else {
        w.off = rxf::VP_MPQ_TAIL_OFFSET;
        sw_read_ = true;
        sw_tail_ = q.tail;
      }
    }
    nic_tb::put_win(m_.win_i, w);
  }

  void check(std::uint64_t now) {
    // a held last beat first shown continuing (LAST 0) with the next packet's head: that packet is
    // judged with the epoch of that moment (the decision is kept until engine 2 takes the beat)
    if (flit_ == 0 && in_.valid() && m_.wr_valid_o && !m_.wr_last_o && !cont_seen_) {
      cont_seen_ = true;
      cont_epoch_ = epoch_;
    }
    const nic_tb::RxCtx ctx{node_, cont_seen_ ? cont_epoch_ : epoch_, kRxEn, kRxPhysOk, cont_seen_};
    if (sw_read_) REQUIRE(m_.win_rdata_o == sw_tail_);
    REQUIRE_FALSE(m_.inv_hold_o);  // no fence here
    if (m_.at_head_o) REQUIRE(flit_ == 0);
    // engine 1: the READ_REQ head as it came, with its handshake
    RxJob j;
    for (unsigned k = 0; k < 4; ++k) j.head[k] = get_bits(m_.job_head_o, 64 * k, 64);
    REQUIRE(job_hold_.check(m_.job_valid_o, m_.job_ready_i, j));
    const bool head_shown = in_.valid() && flit_ == 0;
    if (m_.job_valid_o) {
      REQUIRE(head_shown);
      REQUIRE(ref.job(RxRefT::head(pkts_.front()), ctx));
      for (unsigned k = 0; k < 4; ++k) REQUIRE(j.head[k] == pkts_.front()[k]);
    }
    check_writes();
    check_answers();
    if (m_.rx_err_valid_o) {
      REQUIRE_FALSE(ref.errs.empty());
      REQUIRE(m_.rx_err_o == ref.errs.front());
      ref.errs.pop_front();
    }
    for (unsigned v = 0; v < kRxVps; ++v) irqs_[v] += (m_.mpq_irq_o >> v) & 1;
    // translations: the regions' answers after a random latency
    const RxXl q{m_.xl_req_vp_o, m_.xl_req_addr_o, m_.xl_req_len_o, bool(m_.xl_req_phys_o), bool(m_.xl_req_phys_ok_o)};
    {
      const RxXl& o = xl_hold_.held();
      INFO("translation request held: VP " << o.vp << " addr " << std::hex << o.addr << std::dec << " len " << o.len
                                          << " phys " << o.phys << "/" << o.phys_ok << "; now: valid "
                                          << bool(m_.xl_req_valid_o) << " VP " << q.vp << " addr " << std::hex << q.addr
                                          << std::dec << " len " << q.len << " phys " << q.phys << "/" << q.phys_ok);
      // a request shown and not taken holds (HPCNET_SEED=529044160 found a prefetch replaced by
      // its page's own lookup, and one an EVENT's translation started replaced by the next check)
      REQUIRE(xl_hold_.check(m_.xl_req_valid_o, m_.xl_req_ready_i, q));
    }
    if (m_.xl_req_valid_o && m_.xl_req_ready_i) {
      if (q.phys) REQUIRE(q.phys_ok == bool((kRxPhysOk >> std::min(q.vp, 31u)) & 1));
      xl_rsp_.push(RxAtt::lookup(q.vp, q.addr, q.len, q.phys, q.phys_ok), now + 1 + rng_.below(xl_lat_ + 1));
    }
    if (xl_rsp_.valid()) {
      REQUIRE(m_.xl_rsp_ready_o);
      xl_rsp_.fire(true);
    }
    // the packet stream
    if (in_.valid() && m_.in_ready_o) {
      if (flit_ == 0) {
        const rxf::PktHead h = RxRefT::head(pkts_.front());
        if (ref.job(h, ctx)) REQUIRE((m_.job_valid_o && m_.job_ready_i));
        if (h.ptype == rxf::PktType::MP && !vc1_) mp_busy_ = true;
        ref.packet(pkts_.front(), ctx);
        cont_seen_ = false;
        ++n_pkts;
      }
      in_.fire(true);
      if (++flit_ == 5) {
        flit_ = 0;
        pkts_.pop_front();
      }
    }
  }

  void check_writes() {
    RxBeat b{m_.wr_addr_o, m_.wr_len_o, {}, bool(m_.wr_last_o)};
    for (unsigned k = 0; k < 4; ++k) b.data[k] = get_bits(m_.wr_data_o, 64 * k, 64);
    INFO("write beat at " << std::hex << b.addr << std::dec << " len " << b.len << " last " << b.last << ", link "
                          << link_up_ << ", input shown " << in_.valid());
    INFO("held: " << std::hex << wr_hold_.held().addr << std::dec << " len " << wr_hold_.held().len << " last "
                  << wr_hold_.held().last << " data equal " << (wr_hold_.held().data == b.data) << "; valid now "
                  << bool(m_.wr_valid_o));
    REQUIRE(wr_hold_.check(m_.wr_valid_o, m_.wr_ready_i, b));  // held unchanged until taken
    n_hold_waits += m_.wr_valid_o && !m_.wr_ready_i;
    // the link down and nothing arriving: a held last beat is closed at once
    if (paused_ > 60 && !in_.valid() && flit_ == 0 && dma_.wr_ready_pct >= 20) REQUIRE_FALSE(dma_.write_open());
    if (!(m_.wr_valid_o && m_.wr_ready_i)) return;
    const bool open = dma_.write_open();
    INFO("engine 2 rule: " << dma_.error());
    REQUIRE(dma_.write(b.addr, b.len, m_.wr_data_o, b.last));
    n_closed_open += !open && !b.last;
    ++n_beats;
    for (unsigned i = 0; i < b.len; ++i) {
      const std::uint64_t pa = b.addr + i;
      INFO("byte at " << std::hex << pa);
      const auto it = ref.mem.find(pa);
      REQUIRE(it != ref.mem.end());  // only bytes the reference writes
      REQUIRE(get_bits(m_.wr_data_o, 8 * (static_cast<unsigned>(b.addr & 31) + i), 8) == it->second.v);
      REQUIRE(got_bytes_ >= it->second.before);  // an EVENT's byte after all its message's data
      ++got_[pa];
      ++got_bytes_;
    }
  }

  void check_answers() {
    RxAns a{m_.ack_node_o, m_.ack_vp_o, m_.ack_src_vp_o, m_.ack_msg_id_o, m_.ack_status_o, bool(m_.ack_event_o)};
    const bool valid = vc1_ ? m_.done_valid_o : m_.ack_valid_o;
    REQUIRE_FALSE((vc1_ ? m_.ack_valid_o : m_.done_valid_o));
    if (vc1_) a = RxAns{0, 0, 0, m_.done_msg_id_o, m_.done_status_o, bool(m_.done_event_o)};
    REQUIRE(ans_hold_.check(valid, m_.ack_ready_i, a));
    if (!valid) return;
    REQUIRE_FALSE(ref.answers.empty());
    RxAns want = ref.answers.front().a;
    if (vc1_) want = RxAns{0, 0, 0, want.msg_id, want.status, want.event};
    INFO("answer: msg_id " << a.msg_id << " status " << a.status << " event " << a.event << " node " << a.node
                           << "; expected: msg_id " << want.msg_id << " status " << want.status << " event " << want.event
                           << " node " << want.node);
    REQUIRE(a == want);
    REQUIRE(got_bytes_ >= ref.answers.front().bytes);  // after the writes it covers
    REQUIRE_FALSE(dma_.write_open());                   // no transaction left open across an answer
    if (m_.ack_ready_i) {
      ref.answers.pop_front();
      if (ref.answers.empty()) mp_busy_ = false;
    }
  }

  hpcnet::sim::Harness<M> h_{312.5, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  M& m_ = h_.dut();
  hpcnet::tb::Rng rng_;
  RxOpts o_;
  bool vc1_;
  unsigned node_ = 0;
  hpcnet::tb::DmaMem dma_;
  hpcnet::tb::StreamSource<RxFlit> in_;
  hpcnet::tb::StreamSource<RxAtt::Ans> xl_rsp_;
  hpcnet::tb::StreamSink xl_sink_, job_sink_, ans_sink_;
  hpcnet::tb::HoldCheck<RxBeat> wr_hold_;
  hpcnet::tb::HoldCheck<RxJob> job_hold_;
  hpcnet::tb::HoldCheck<RxAns> ans_hold_;
  hpcnet::tb::HoldCheck<RxXl> xl_hold_;
  std::deque<RxPkt> pkts_;  // the packets of the flits in in_
  std::deque<RxEv> evs_;
  std::vector<RxMMsg> open_;  // with senders: messages with packets still to send
  unsigned early_ = 0;        // of them, with their EVENT sent and data still to send
  std::array<unsigned, 8> sender_ep_{0, 1, 2, 3, 0, 1, 2, 3};  // VC0: each sender's epoch
  unsigned flit_ = 0;  // flits of pkts_.front() taken
  unsigned rev_busy_ = 0, xl_lat_ = 3, big_pct_ = 5;
  std::array<std::uint64_t, 5> bump_{};  // next free offset: physical area, keys 1..4
  bool link_up_ = true, mp_busy_ = false, sw_read_ = false;
  unsigned epoch_ = 0, down_left_ = 0, paused_ = 0, cont_epoch_ = 0;
  bool cont_seen_ = false;
  std::uint32_t sw_tail_ = 0;
  std::unordered_map<std::uint64_t, unsigned> got_;
  std::uint64_t got_bytes_ = 0;
  std::array<unsigned, kRxVps> irqs_{};
};

template <class M>
void rx_run(RxTb<M>& tb, unsigned cycles, const char* what) {
  for (unsigned c = 0; c < cycles; ++c) tb.cycle(false);
  for (unsigned c = 0; c < 30000 && !tb.drained(); ++c) tb.cycle(true);
  INFO(tb.state());
  REQUIRE(tb.drained());
  tb.finish();
  const auto& r = tb.ref;
  hpcnet::tb::print_counts(
      what, {{"packets", tb.n_pkts}, {"write beats", tb.n_beats}, {"beats waiting", tb.n_hold_waits},
             {"messages OK", r.n_msgs_ok}, {"messages failed", r.n_msgs_failed}, {"AUX failures", r.n_aux_fail},
             {"EVENTs written", r.n_events_ok}, {"EVENTs failed", r.n_events_bad}, {"MPs", r.n_mp},
             {"MPs refused", r.n_mp_refused}, {"jobs", r.n_jobs}, {"answers in", r.n_answers_in},
             {"stale", r.n_stale}, {"malformed", r.n_bad}, {"link downs", tb.n_downs}, {"MPQ_HEAD writes", tb.n_sw},
             {"EVENTs before their data", r.n_ev_parked}, {"messages purged", r.n_purged},
             {"most messages in progress", r.max_open}, {"messages abandoned", tb.n_abandoned}});
}

}  // namespace nic_tb
