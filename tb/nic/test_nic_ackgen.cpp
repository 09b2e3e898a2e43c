// test_nic_ackgen: the NIC's answer generator (rtl/nic/nic_ackgen.sv, model Vnic_ackgen: 2 queued
// read requests) alone, the test playing the VC0 receiver (answers with random idle cycles; read
// requests handed to engine 1 whenever req_room_o allows, at random), engine 1 (a result per
// request, in order, after a random delay and idle cycles: OK, or a random failure) and VC1
// (random back-pressure). Checked every cycle against a reference of the module's header:
//   - req_room_o exactly while fewer than ReqDepth requests are queued;
//   - one packet at a time: an answer or a failed result is taken only when no packet is under
//     way, a failed result before an answer shown in the same cycle (ack_ready_o low while one
//     shows); a successful result is taken at once, packet or not;
//   - the packet, from the cycle after its take: 5 flits, the head then four zero flits,
//     pkt_last_o on the fifth, held until taken; the head an ACK (status OK) or NACK with this
//     node as SRC_NODE, the answer's node, VPs, MSG_ID, AUX {STATUS, EVENT}, FIRST and LAST, every
//     other field 0; a failed read's NACK to the requester (its SRC_NODE and SRC_VP), from the VP
//     it read (its DST_VP), with its MSG_ID and AUX STATUS.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>

#include "Vnic_ackgen.h"
#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"
#include "hpcnet/tb/stream.hpp"
#include "sim/core/harness.hpp"

namespace {

namespace agf = hpcnet::nic_formats;
using AgWords = agf::PktHead::Words;

struct AgAck {
  unsigned node = 0, vp = 0, src_vp = 0, msg_id = 0, status = 0;
  bool event = false;
};
struct AgReq {  // a read request's head fields the NACK needs
  unsigned node = 0, src_vp = 0, dst_vp = 0, msg_id = 0;
};
struct AgRes {
  unsigned status = 0, msg_id = 0;
};

class AckgenTb {
 public:
  static constexpr unsigned kDepth = 2;  // rtl/nic/models.cmake: Vnic_ackgen
  unsigned push_pct = 30, fail_pct = 30, ack_pct = 50, res_delay = 12;
  // coverage
  std::uint64_t acks = 0, nacks = 0, res_ok = 0, res_fail = 0, fail_waited = 0, fail_before_ack = 0, ok_in_pkt = 0,
                full = 0;

  explicit AckgenTb(std::uint64_t seed) : rng_(seed) {
    node_ = rng_.below(1u << 14);
    m_.node_id_i = static_cast<SData>(node_);
    m_.ack_valid_i = 0;
    m_.req_push_i = 0;
    m_.res_valid_i = 0;
    m_.pkt_ready_i = 0;
    hpcnet::tb::sync_reset(h_);
  }

  void cycle() {
    const std::uint64_t now = h_.cycles();
    if (now % 500 == 0) {
      static const unsigned idle[] = {0, 30, 80}, rdy[] = {20, 60, 100};
      ack_src_.idle_pct = idle[rng_.below(3)];
      res_src_.idle_pct = idle[rng_.below(3)];
      sink_.ready_pct = rdy[rng_.below(3)];
    }
    // ---- the receiver's answers and engine 1's requests (req_room_o depends on the state only)
    if (ack_src_.size() < 2 && rng_.pct(ack_pct)) ack_src_.push(random_ack(), now);
    ack_src_.step(rng_, now);
    res_src_.step(rng_, now);
    sink_.step(rng_);
    const bool push = m_.req_room_o && rng_.pct(push_pct);
    AgWords head;
    for (auto& w : head) w = rng_();
    const AgReq req{static_cast<unsigned>(agf::PKT_HEAD_SRC_NODE.read(head.data())),
                    static_cast<unsigned>(agf::PKT_HEAD_SRC_VP.read(head.data())),
                    static_cast<unsigned>(agf::PKT_HEAD_DST_VP.read(head.data())),
                    static_cast<unsigned>(agf::PKT_HEAD_MSG_ID.read(head.data()))};
    m_.req_push_i = push;
    for (unsigned i = 0; i < 4; ++i) hpcnet::tb::put_bits(m_.req_head_i, 64 * i, 64, head[i]);
    drive_ack();
    m_.res_valid_i = res_src_.valid();
    m_.res_status_i = static_cast<CData>(res_src_.valid() ? res_src_.data().status : rng_());
    m_.res_msg_id_i = static_cast<CData>(res_src_.valid() ? res_src_.data().msg_id : rng_());
    m_.pkt_ready_i = sink_.ready();
    h_.eval();
    INFO("cycle " << now);
    // ---- the reference
    REQUIRE(bool(m_.req_room_o) == (reqs_.size() < kDepth));
    full += !m_.req_room_o;
    const bool fail_shown = res_src_.valid() && res_src_.data().status != 0;
    if (res_src_.valid()) REQUIRE(bool(m_.res_ready_o) == (!fail_shown || left_ == 0));
    if (ack_src_.valid()) REQUIRE(bool(m_.ack_ready_o) == (left_ == 0 && !fail_shown));
    fail_waited += fail_shown && left_ != 0;
    fail_before_ack += fail_shown && left_ == 0 && ack_src_.valid();
    ok_in_pkt += res_src_.valid() && !fail_shown && left_ != 0;
    std::array<std::uint32_t, 9> got{};
    for (unsigned i = 0; i < 8; ++i) got[i] = m_.pkt_data_o[i];
    got[8] = m_.pkt_last_o;
    REQUIRE(hold_.check(m_.pkt_valid_o, m_.pkt_ready_i, got));
    REQUIRE(bool(m_.pkt_valid_o) == (left_ != 0));
    if (left_ != 0) {
      INFO("flit " << 5 - left_);
      REQUIRE(bool(m_.pkt_last_o) == (left_ == 1));
      for (unsigned i = 0; i < 4; ++i) REQUIRE(hpcnet::tb::get_bits(m_.pkt_data_o, 64 * i, 64) == (left_ == 5 ? head_[i] : 0));
    }
    // ---- the handshakes
    if (m_.pkt_valid_o && m_.pkt_ready_i) --left_;
    if (res_src_.valid() && m_.res_ready_o) {
      const AgRes r = res_src_.data();
      REQUIRE(!reqs_.empty());
      const AgReq q = reqs_.front();
      reqs_.pop_front();
      if (r.status != 0) {
        start(nack_of(q, r.status));
        ++res_fail;
      } else {
        ++res_ok;
      }
      res_src_.fire(true);
    }
    if (ack_src_.valid() && m_.ack_ready_o) {
      start(head_of(ack_src_.data()));
      ack_src_.fire(true);
    }
    if (push) {  // engine 1 answers it, in order, after a while
      reqs_.push_back(req);
      AgRes r{rng_.pct(fail_pct) ? rng_.rnd(1, 255) : 0u, req.msg_id};
      res_at_ = std::max(res_at_, now + 1 + rng_.below(res_delay + 1));
      res_src_.push(r, res_at_);
    }
    hpcnet::tb::tick(h_);
  }

  // Until nothing is left to answer, then a few quiet cycles.
  void drain() {
    ack_pct = 0;
    push_pct = 0;
    for (unsigned c = 0; c < 10000 && (left_ || !reqs_.empty() || !ack_src_.empty()); ++c) cycle();
    REQUIRE(left_ == 0);
    REQUIRE(reqs_.empty());
    REQUIRE(ack_src_.empty());
    for (unsigned c = 0; c < 10; ++c) {
      cycle();
      REQUIRE(!m_.pkt_valid_o);
    }
  }

 private:
  AgAck random_ack() {
    AgAck a;
    a.node = rng_.below(1u << 14);
    a.vp = rng_.below(32);
    a.src_vp = rng_.below(32);
    a.msg_id = rng_.below(256);
    a.status = rng_.pct(60) ? 0 : rng_.rnd(1, 255);
    a.event = rng_.pct(20);
    return a;
  }
  void drive_ack() {
    const bool v = ack_src_.valid();
    const AgAck a = v ? ack_src_.data() : random_ack();
    m_.ack_valid_i = v;
    m_.ack_node_i = static_cast<SData>(a.node);
    m_.ack_vp_i = static_cast<CData>(a.vp);
    m_.ack_src_vp_i = static_cast<CData>(a.src_vp);
    m_.ack_msg_id_i = static_cast<CData>(a.msg_id);
    m_.ack_status_i = static_cast<CData>(a.status);
    m_.ack_event_i = a.event;
  }
  // The heads, every field not named 0.
  agf::PktHead base(unsigned status) const {
    agf::PktHead h{};
    h.ptype = status == 0 ? agf::PktType::ACK : agf::PktType::NACK;
    h.src_node = node_;
    h.first = true;
    h.last = true;
    return h;
  }
  AgWords head_of(const AgAck& a) {
    agf::PktHead h = base(a.status);
    h.dst_node = a.node;
    h.dst_vp = a.vp;
    h.src_vp = a.src_vp;
    h.msg_id = a.msg_id;
    h.aux = agf::ACK_AUX_STATUS.put(a.status) | agf::ACK_AUX_EVENT.put(a.event);
    (a.status == 0 ? acks : nacks) += 1;
    return h.pack();
  }
  AgWords nack_of(const AgReq& q, unsigned status) {
    agf::PktHead h = base(status);
    h.dst_node = q.node;
    h.dst_vp = q.src_vp;
    h.src_vp = q.dst_vp;
    h.msg_id = q.msg_id;
    h.aux = agf::ACK_AUX_STATUS.put(status);
    ++nacks;
    return h.pack();
  }
  void start(const AgWords& h) {
    REQUIRE(left_ == 0);
    left_ = 5;
    head_ = h;
  }

  hpcnet::sim::Harness<Vnic_ackgen> h_{312.5, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  Vnic_ackgen& m_ = h_.dut();
  hpcnet::tb::Rng rng_;
  unsigned node_ = 0;
  hpcnet::tb::StreamSource<AgAck> ack_src_;
  hpcnet::tb::StreamSource<AgRes> res_src_;
  hpcnet::tb::StreamSink sink_;
  hpcnet::tb::HoldCheck<std::array<std::uint32_t, 9>> hold_;
  std::deque<AgReq> reqs_;  // handed to engine 1, result not yet taken
  std::uint64_t res_at_ = 0;
  unsigned left_ = 0;       // flits of the packet under way not yet taken
  AgWords head_{};
};

}  // namespace

TEST_CASE("nic_ackgen: answers and engine 1 results with idle cycles and back-pressure against the reference",
          "[nic_ackgen]") {
  AckgenTb tb(hpcnet::tb::seed("nic_ackgen random"));
  for (unsigned c = 0; c < 100000; ++c) tb.cycle();
  tb.drain();
  std::printf("nic_ackgen: ACK %llu, NACK %llu, results OK %llu, failed %llu; cycles a failure waited for the "
              "packet slot %llu, a failure and an answer shown with the slot free %llu, a success taken during a "
              "packet %llu, the queue full %llu\n",
              static_cast<unsigned long long>(tb.acks), static_cast<unsigned long long>(tb.nacks),
              static_cast<unsigned long long>(tb.res_ok), static_cast<unsigned long long>(tb.res_fail),
              static_cast<unsigned long long>(tb.fail_waited), static_cast<unsigned long long>(tb.fail_before_ack),
              static_cast<unsigned long long>(tb.ok_in_pkt), static_cast<unsigned long long>(tb.full));
  REQUIRE(tb.acks > 1500);
  REQUIRE(tb.res_fail > 600);
  REQUIRE(tb.fail_waited > 300);
  REQUIRE(tb.fail_before_ack > 150);
  REQUIRE(tb.ok_in_pkt > 300);
  REQUIRE(tb.full > 3000);
}
