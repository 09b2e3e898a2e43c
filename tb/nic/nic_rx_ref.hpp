// nic_rx_ref.hpp: what the receive path of one VC must do with each packet (docs/nic.md section 7,
// the packet stream of section 3, the link epochs of section 8), for the module test
// test_nic_rx.cpp. Written from the documentation, not from rtl/nic/nic_rx.sv. A packet is
// judged when its head is taken:
//   - VC1 only: an answer or READ_DATA whose MSG_ID is of another epoch than this node's: dropped
//     whole, nothing reported;
//   - a type the VC does not carry, or another node's packet: reported (RX_ERR word: MALFORMED,
//     PTYPE, SRC_NODE) and dropped; on VC0 the end of such a message (its LAST packet, an EVENT;
//     not a WRITE with REV, whose EVENT ends it) is answered NACK BAD_NODE;
//   - VC0: a WRITE or EVENT whose SRC_NODE equals, modulo 2^NodeW, that of another sender with
//     messages in progress: as another node's packet, but reported with BAD_NODE (it can have no
//     entry in the table);
//   - WRITE / READ_DATA: each packet on its own; the message's state is kept by {SRC_NODE, MSG_ID}
//     (VC1: by MSG_ID, this node's own messages) (bytes still to come, from the first packet's
//     MSG_LEN; its first failure). A packet fails the
//     message when DST_VP does not exist or is disabled (BAD_VP), or it is a LAST packet with AUX
//     STATUS not OK (that status; READ_DATA: with bit 7); otherwise, while the message has not
//     failed, it is checked through the ATT: the FIRST packet the whole range [ADDR, ADDR +
//     MSG_LEN), any other its own bytes [ADDR, ADDR + LEN); passed, its valid bytes are written at
//     their translated addresses, failed, the message fails with that status. A failed message
//     writes nothing more (the bytes of packets before the failure stay). Its bytes counted reach
//     MSG_LEN: complete; a WRITE is answered (ACK, or NACK with the first failure) unless it has
//     REV, a READ_DATA reported to the completion unit (done); a WRITE with REV waits for its
//     EVENT (or, when its EVENT came first, the EVENT is handled now);
//   - EVENT: of a complete message: the message failed: NACK with its status; else the event
//     address checked (16 bytes, DST_VP of the packet that completes): failed: NACK with the status
//     and the EVENT bit; else its 16 bytes written (after every byte of its message), ACK. Before
//     its message is complete: kept, and handled when the message completes;
//   - a sender's first data or EVENT packet of a newer epoch (MSG_ID bits MsgW+1:MsgW; VC1: the
//     node's epoch, not at a packet continuing a held write) drops its messages of other epochs;
//   - READ_REQ: to engine 1 (the head as it came) when DST_VP exists and is enabled, else NACK
//     BAD_VP;
//   - MP: DST_VP exists, is enabled and has an MPQ (else NACK BAD_VP), the MPQ has room (else
//     NACK MPQ_FULL): the 128-byte entry at MPQ_BASE + 128 * (tail mod size): the mp_head word
//     (SRC_NODE, SRC_VP, LEN, TAG = AUX bits 16..31, PHASE 1 on the ring's first pass), payload
//     bytes 8..127; the tail moves on, the VP's MPQ interrupt pulses, ACK;
//   - ACK / NACK: reported (done: status OK, or AUX STATUS with bit 7; EVENT bit from AUX).
// Every answer names the packet's SRC_NODE, SRC_VP, DST_VP (as this node's VP) and MSG_ID.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "hpcnet/nic_formats.hpp"

namespace nic_tb {

namespace nrf = hpcnet::nic_formats;

inline constexpr unsigned rx_st(nrf::Status s) { return static_cast<unsigned>(s); }

// The regions behind the translation client: key k (1..4) belongs to VP k-1, covers kRxRegion
// bytes from k << 36, write right on all but key 4; virtual page v of key k is physical page
// (k << 24) | (v * 40503 mod 2^24) (one-to-one, scattered).
struct RxAtt {
  static constexpr std::uint64_t kRegion = std::uint64_t{64} << 20;
  static constexpr unsigned kKeys = 5;
  struct Ans {
    unsigned status = 0;
    std::uint64_t paddr = 0;
  };
  static std::uint64_t base(unsigned key) { return std::uint64_t{key} << 36; }
  static std::uint64_t pa(unsigned key, std::uint64_t a) {
    const std::uint64_t vpn = (a - base(key)) >> 12;
    return ((std::uint64_t{key} << 24 | ((vpn * 40503u) & 0xFFFFFF)) << 12) | (a & 4095);
  }
  static Ans lookup(unsigned vp, std::uint64_t vaddr, std::uint64_t len, bool phys, bool phys_ok) {
    using S = nrf::Status;
    const std::uint64_t a = vaddr & 0xFFFF'FFFF'FFFFull;
    const unsigned key = static_cast<unsigned>(vaddr >> 48);
    if (phys) return phys_ok ? Ans{0, a} : Ans{rx_st(S::PHYS_DENIED), 0};
    if (key == 0 || key >= kKeys) return {rx_st(S::BAD_KEY), 0};
    if (vp != key - 1) return {rx_st(S::NOT_OWNER), 0};
    if (a < base(key) || a + len > base(key) + kRegion) return {rx_st(S::RANGE), 0};
    if (key == 4) return {rx_st(S::PERM), 0};
    return {0, pa(key, a)};
  }
};

using RxPkt = std::array<std::uint64_t, 20>;  // 5 flits of 4 words

struct RxAns {  // ack_* (VC0) or done_* (VC1)
  unsigned node = 0, vp = 0, src_vp = 0, msg_id = 0, status = 0;
  bool event = false;
  bool operator==(const RxAns&) const = default;
};

struct RxCtx {  // the inputs a packet is judged with (those of the cycle its head is taken)
  unsigned node = 0, epoch = 0, en = 0, phys_ok = 0;
  bool cont = false;  // taken with a held write beat (continuing it)
};

template <unsigned NumVp, unsigned MsgW, unsigned NodeW = 6>
class RxRef {
 public:
  struct Mpq {
    std::uint64_t base = 0;
    unsigned log2 = 0;
    std::uint32_t head = 0, tail = 0;
  };
  struct Byte {
    std::uint8_t v = 0;
    unsigned n = 0;            // times it is written
    std::uint64_t before = 0;  // bytes to be written before it (an EVENT's: its message's data)
  };
  struct Expect {
    RxAns a;
    std::uint64_t bytes = 0;  // bytes written before the answer may leave
  };

  bool vc1 = false;
  std::array<Mpq, NumVp> mpq{};
  std::unordered_map<std::uint64_t, Byte> mem;  // every byte to be written, by physical address
  std::uint64_t bytes = 0;                      // writes of bytes expected so far
  std::deque<Expect> answers;
  std::deque<std::uint64_t> errs;
  std::array<unsigned, NumVp> irqs{};
  // coverage
  std::uint64_t n_stale = 0, n_bad = 0, n_msgs_ok = 0, n_msgs_failed = 0, n_aux_fail = 0, n_events_ok = 0, n_events_bad = 0,
                n_mp = 0, n_mp_refused = 0, n_jobs = 0, n_answers_in = 0, n_ev_parked = 0, n_purged = 0, n_alias = 0;
  std::size_t max_open = 0;  // messages in progress at once

  static nrf::PktHead head(const RxPkt& p) { return nrf::PktHead::unpack({p[0], p[1], p[2], p[3]}); }
  static std::uint8_t pay(const RxPkt& p, unsigned i) { return static_cast<std::uint8_t>(p[4 + i / 8] >> (8 * (i % 8))); }
  bool typ_ok(nrf::PktType t) const {
    using T = nrf::PktType;
    return vc1 ? (t == T::READ_DATA || t == T::ACK || t == T::NACK) : (t == T::WRITE || t == T::READ_REQ || t == T::MP || t == T::EVENT);
  }
  static bool vp_ok(unsigned vp, const RxCtx& c) { return vp < NumVp && ((c.en >> vp) & 1); }
  bool stale(const nrf::PktHead& h, const RxCtx& c) const { return vc1 && typ_ok(h.ptype) && ((h.msg_id >> MsgW) & 3) != c.epoch; }
  // engine 1 must get this head (shown at the head of the stream)
  bool job(const nrf::PktHead& h, const RxCtx& c) const {
    return !vc1 && h.ptype == nrf::PktType::READ_REQ && h.dst_node == c.node && vp_ok(h.dst_vp, c);
  }

  void packet(const RxPkt& p, const RxCtx& c) {
    using T = nrf::PktType;
    using S = nrf::Status;
    const nrf::PktHead h = head(p);
    if (stale(h, c)) {
      ++n_stale;
      return;
    }
    const bool al = aliased(h, c);
    n_alias += al;
    if (!typ_ok(h.ptype) || h.dst_node != c.node || al) {
      ++n_bad;
      errs.push_back(nrf::RX_ERR_CODE.put(rx_st(al ? S::BAD_NODE : S::MALFORMED)) | nrf::RX_ERR_PTYPE.put(static_cast<unsigned>(h.ptype)) |
                     nrf::RX_ERR_SRC_NODE.put(h.src_node));
      if (typ_ok(h.ptype) && !vc1 && h.last && !(h.ptype == T::WRITE && h.rev)) answer(h, rx_st(S::BAD_NODE), false);
      return;
    }
    switch (h.ptype) {
      case T::WRITE:
      case T::READ_DATA: data(p, h, c); break;
      case T::EVENT: event(p, h, c); break;
      case T::READ_REQ:
        if (job(h, c)) ++n_jobs;
        else answer(h, rx_st(S::BAD_VP), false);
        break;
      case T::MP: mp(p, h, c); break;
      default:  // ACK, NACK
        ++n_answers_in;
        answer(h, h.ptype == T::ACK ? 0 : static_cast<unsigned>((h.aux & 0xFF) | 0x80),
               h.ptype == T::NACK && nrf::ACK_AUX_EVENT.get(h.aux));
        break;
    }
  }

 private:
  void write(std::uint64_t pa, std::uint8_t v) {
    Byte& b = mem[pa];
    b.v = v;
    ++b.n;
    ++bytes;
  }
  void answer(const nrf::PktHead& h, unsigned st, bool ev) {
    answers.push_back(Expect{RxAns{h.src_node, h.src_vp, h.dst_vp, h.msg_id, st, ev}, bytes});
  }
  std::uint32_t key(const nrf::PktHead& h) const { return (vc1 ? 0 : h.src_node << 8) | h.msg_id; }
  // a VC0 WRITE or EVENT of a sender whose entries' place another sender holds
  bool aliased(const nrf::PktHead& h, const RxCtx& c) const {
    using T = nrf::PktType;
    if (vc1 || !(h.ptype == T::WRITE || h.ptype == T::EVENT) || h.dst_node != c.node) return false;
    const std::uint32_t mask = (1u << NodeW) - 1;
    for (const auto& e : tbl_)
      if (((e.first >> 8) & mask) == (h.src_node & mask) && (e.first >> 8) != h.src_node) return true;
    return false;
  }
  unsigned ep(std::uint32_t k) const { return (k >> MsgW) & 3; }
  // a sender's messages of an older epoch will never complete
  void purge(const nrf::PktHead& h, const RxCtx& c) {
    if (vc1 && c.cont) return;
    const unsigned e = vc1 ? c.epoch : ((h.msg_id >> MsgW) & 3);
    for (auto it = tbl_.begin(); it != tbl_.end();) {
      const bool drop = ep(it->first) != e && (vc1 || (it->first >> 8) == h.src_node);
      n_purged += drop;
      it = drop ? tbl_.erase(it) : std::next(it);
    }
  }
  void data(const RxPkt& p, const nrf::PktHead& h, const RxCtx& c) {
    using S = nrf::Status;
    purge(h, c);
    Msg& m = tbl_[key(h)];
    max_open = std::max(max_open, tbl_.size());
    if (!m.known) {
      m.known = true;
      m.rem = h.msg_len;
    }
    if (m.status == 0 && !vp_ok(h.dst_vp, c)) m.status = rx_st(S::BAD_VP);
    if (m.status == 0 && h.last && (h.aux & 0xFF) != 0) {
      m.status = static_cast<unsigned>(h.aux & 0xFF) | (h.ptype == nrf::PktType::READ_DATA ? 0x80 : 0);
      ++n_aux_fail;
    }
    if (m.status == 0) {
      const std::uint64_t va = (std::uint64_t{h.addr.key} << 48) | h.addr.addr;
      m.status = RxAtt::lookup(h.dst_vp, va, h.first ? h.msg_len : h.len, h.phys, (c.phys_ok >> h.dst_vp) & 1).status;
    }
    if (m.status == 0) {
      const std::uint64_t blk = h.addr.addr & ~std::uint64_t{127};
      for (unsigned i = h.addr.addr & 127; i < (h.addr.addr & 127) + h.len; ++i)
        write(h.phys ? blk + i : RxAtt::pa(h.addr.key, blk + i), pay(p, i));
    }
    m.rem = h.len >= m.rem ? 0 : m.rem - h.len;
    if (m.rem != 0) return;
    const Msg done = m;
    done.status == 0 ? ++n_msgs_ok : ++n_msgs_failed;
    if (h.ptype == nrf::PktType::READ_DATA || !h.rev) {
      tbl_.erase(key(h));
      answer(h, done.status, false);
    } else if (done.ev) {
      tbl_.erase(key(h));
      event_now(done.ev_pkt, h, done.status, c);
    }
  }
  void event(const RxPkt& p, const nrf::PktHead& h, const RxCtx& c) {
    purge(h, c);
    const auto it = tbl_.find(key(h));
    if (it != tbl_.end() && it->second.known && it->second.rem == 0) {
      const unsigned st = it->second.status;
      tbl_.erase(it);
      event_now(p, h, st, c);
      return;
    }
    Msg& m = tbl_[key(h)];  // before its message's data: kept
    max_open = std::max(max_open, tbl_.size());
    m.ev = true;
    m.ev_pkt = p;
    ++n_ev_parked;
  }
  // an EVENT (packet ev) of a complete message whose status is st; h: the packet that completes
  void event_now(const RxPkt& ev, const nrf::PktHead& h, unsigned st, const RxCtx& c) {
    if (st != 0) {
      answer(h, st, false);
      return;
    }
    const nrf::PktHead eh = head(ev);
    const std::uint64_t va = (std::uint64_t{eh.addr.key} << 48) | eh.addr.addr;
    const RxAtt::Ans a = RxAtt::lookup(h.dst_vp, va, 16, eh.phys, h.dst_vp < NumVp && ((c.phys_ok >> h.dst_vp) & 1));
    if (a.status != 0) {
      ++n_events_bad;
      answer(h, a.status, true);
      return;
    }
    ++n_events_ok;
    const std::uint64_t before = bytes;
    for (unsigned i = 0; i < 16; ++i) {
      write(a.paddr + i, pay(ev, i));
      mem[a.paddr + i].before = before;
    }
    answer(h, 0, false);
  }
  void mp(const RxPkt& p, const nrf::PktHead& h, const RxCtx& c) {
    using S = nrf::Status;
    if (!vp_ok(h.dst_vp, c) || mpq[h.dst_vp].log2 == 0) {
      ++n_mp_refused;
      answer(h, rx_st(S::BAD_VP), false);
      return;
    }
    Mpq& q = mpq[h.dst_vp];
    if (q.tail - q.head >= (1u << q.log2)) {
      ++n_mp_refused;
      answer(h, rx_st(S::MPQ_FULL), false);
      return;
    }
    nrf::MpHead mh;
    mh.src_node = h.src_node;
    mh.src_vp = h.src_vp;
    mh.len = h.len;
    mh.tag = static_cast<std::uint32_t>(h.aux >> 16) & 0xFFFF;
    mh.phase = ((q.tail >> q.log2) & 1) == 0;
    const std::uint64_t at = q.base + 128ull * (q.tail & ((1u << q.log2) - 1)), w0 = mh.pack()[0];
    for (unsigned i = 0; i < 128; ++i) write(at + i, i < 8 ? static_cast<std::uint8_t>(w0 >> (8 * i)) : pay(p, i));
    ++q.tail;
    ++irqs[h.dst_vp];
    ++n_mp;
    answer(h, 0, false);
  }

  struct Msg {
    bool known = false;  // a data packet came (MSG_LEN known)
    std::uint32_t rem = 0;
    unsigned status = 0;
    bool ev = false;  // its EVENT came first: kept
    RxPkt ev_pkt{};
  };
  std::unordered_map<std::uint32_t, Msg> tbl_;  // messages in progress by {SRC_NODE, MSG_ID}

 public:
  std::size_t open() const { return tbl_.size(); }
  std::string open_list() const {
    std::string r;
    for (const auto& [k, m] : tbl_)
      r += " {" + std::to_string(k >> 8) + "," + std::to_string(k & 255) + ": rem " + std::to_string(m.rem) + (m.known ? "" : "?") +
           " st " + std::to_string(m.status) + (m.ev ? " ev" : "") + "}";
    return r;
  }
};

}  // namespace nic_tb
