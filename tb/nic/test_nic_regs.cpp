// test_nic_regs: the NIC's register block (rtl/nic/nic_regs.sv, model Vnic_regs_s: 5 VPs, 32-word
// DQs, 2 error reporters) alone, against the register reference nic_regs_ref.hpp, every output
// checked every cycle. The test plays:
//   - the host: random MMIO reads and writes (a stream source with idle cycles; a request held
//     until taken) to every register of the user pages, the privileged page and the VPC elements,
//     the DQ windows, unmapped offsets, user pages and VPC elements past NumVp;
//   - the owners of the windows (nic_cmpl, nic_rx, nic_hdq): a random answer to a read of one of
//     their registers (SIZES: in the ring fields), 0 otherwise;
//   - the units: a DQ that drops PIO words (in phases of 0, 30 and 90 %), random DQ counts, VP
//     status words, packet counters, link status and error buffer; error reports from the two
//     reporters (each at most once every 4 cycles, into a queue with room), CQ and MPQ interrupt
//     pulses, receive errors, link events; a fence (key_busy_i) after some KEY_CTRL commits, and
//     at random.
// Checked every cycle: mmio_req_ready_o, the read responses, win_o, pio_*, tail_*, key_*, att_*,
// node_id_o, vp_en_o, vp_phys_ok_o, link_clr_o and irq_o. At the end every error report made has
// reached its VP's error word. Reruns: HPCNET_SEED=<seed>.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

#include "Vnic_regs_s.h"
#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/counts.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"
#include "hpcnet/tb/stream.hpp"
#include "nic_regs_ref.hpp"
#include "sim/core/harness.hpp"

namespace {

namespace rgf = hpcnet::nic_formats;
constexpr unsigned kRgVps = 5, kRgDq = 32, kRgCntW = 6;  // rtl/nic/models.cmake: Vnic_regs_s
using RgRef = nic_tb::RegsRef<kRgVps, kRgDq, 100, 10>;
using RgIn = RgRef::In;

struct RgReq {
  bool write = false;
  std::uint32_t addr = 0;
  std::uint64_t wdata = 0;
};

class RegsTb {
 public:
  // coverage
  std::uint64_t reads = 0, writes = 0, owner_reads = 0, pio = 0, drops = 0, pio_waits = 0, key_waits = 0,
                commits = 0, att_writes = 0, route_writes = 0, doorbells = 0, irq_cycles = 0, quiet_cycles = 0, w1c_same = 0, made = 0, irq_vp_reads = 0;

  // w1c_same_ok: an IRQ_CAUSE write may meet a new cause of its VP in its cycle (see below)
  RegsTb(std::uint64_t seed, bool w1c_same_ok) : rng_(seed), w1c_same_ok_(w1c_same_ok) {
    drive(in_);
    hpcnet::tb::sync_reset(h_);
  }

  // One cycle; quiet: no more requests or error reports.
  void cycle(bool quiet) {
    const std::uint64_t now = h_.cycles();
    if (now % 1000 == 0) new_phase();
    RgIn& in = in_;
    slow_inputs();
    in.cq_irq = in.mpq_irq = 0;
    for (unsigned v = 0; v < kRgVps; ++v) {
      in.cq_irq |= unsigned{rng_.pct(irq_pct_)} << v;
      in.mpq_irq |= unsigned{rng_.pct(irq_pct_)} << v;
    }
    in.rx_err_valid = rng_.pct(link_pct_);
    in.rx_err = (rng_() & ~rgf::RX_ERR_COUNT.mask()) | rgf::RX_ERR_COUNT.put(rng_.rnd(1, 2));
    in.link_dirty = rng_.pct(link_pct_);
    in.link_down = rng_.pct(link_pct_);
    in.link_up = rng_.pct(link_pct_);
    for (unsigned p = 0; p < 2; ++p) {  // the completion unit and the receivers
      in.err_valid[p] = !quiet && since_[p] >= 4 && rng_.pct(rep_pct_) && ref_.err().room(p);
      in.err[p] = nic_tb::VpErrRep{rng_.below(kRgVps), rng_.below(256), rng_.below(65536)};
      since_[p] = in.err_valid[p] ? 1 : since_[p] + 1;
      made += in.err_valid[p];
    }
    if (busy_left_ == 0 && rng_.below(1000) < 3) busy_left_ = rng_.rnd(1, 30);
    in.key_busy = busy_left_ > 0;
    if (busy_left_) --busy_left_;
    // ---- the host's request and the owners' answer
    if (!quiet && src_.size() < 2) src_.push(random_req());
    if (w1c_same_ok_ || src_.empty() || !cause_clash(src_.data())) src_.step(rng_);
    const RgReq r = src_.valid() ? src_.data() : random_req();
    if (!w1c_same_ok_ && src_.valid() && is_cause_w1c(r)) {  // no cause of that VP in this cycle
      in.cq_irq &= ~(1u << (r.addr / rgf::VP_STRIDE));
      in.mpq_irq &= ~(1u << (r.addr / rgf::VP_STRIDE));
    }
    in.req_valid = src_.valid();
    in.req_write = r.write;
    in.req_addr = r.addr;
    in.req_wdata = r.wdata;
    in.pio_drop = rng_.pct(drop_pct_);
    const RgRef::Dec d = RgRef::decode(in.req_addr);
    const bool owner = ref_.taken(in) && !in.req_write && RgRef::owner_reg(d);
    const std::uint64_t sizes =
        rgf::VPC_SIZES_CQ_LOG2.mask() | rgf::VPC_SIZES_MPQ_LOG2.mask() | rgf::VPC_SIZES_HDQ_LOG2.mask();
    in.win_rdata = !owner ? 0 : rng_() & (d.vpc && d.off == rgf::VPC_SIZES_OFFSET ? sizes : ~std::uint64_t{0});
    drive(in);
    h_.eval();
    INFO("cycle " << now << " request " << in.req_valid << " write " << in.req_write << " addr 0x" << std::hex
                  << in.req_addr << " wdata 0x" << in.req_wdata << std::dec);
    check(in, d);
    // ---- the edge
    if (src_.valid() && m_.mmio_req_ready_o) src_.fire(true);
    if (ref_.key_we() && rng_.pct(60)) busy_left_ = rng_.rnd(1, 30);  // nic_inval's fence from the next cycle
    made += ref_.pio(in) && in.pio_drop;
    ref_.edge(in);
    hpcnet::tb::tick(h_);
  }

  bool drained() const {
    for (unsigned p = 0; p < 3; ++p)
      if (!ref_.err().q[p].empty()) return false;
    return src_.empty();
  }
  std::uint64_t applied() const { return ref_.err().applied; }

 private:
  void new_phase() {
    static const unsigned idle[] = {0, 50, 90}, drop[] = {0, 30, 90}, irq[] = {0, 1, 10};
    src_.idle_pct = idle[rng_.below(3)];
    drop_pct_ = drop[rng_.below(3)];
    irq_pct_ = irq[rng_.below(3)];
    link_pct_ = rng_.pct(50) ? 0 : 2;
    burst_pct_ = rng_.pct(50) ? 0 : 5;
    rep_pct_ = 40;
    clear_pct_ = 0;
    if (rng_.pct(25)) {  // no new causes; software clears them
      irq_pct_ = link_pct_ = rep_pct_ = 0;
      clear_pct_ = 30;
    }
  }
  // The units' status: one VP's values and the counters change each cycle.
  void slow_inputs() {
    RgIn& in = in_;
    const unsigned v = rng_.below(kRgVps);
    in.dq_words[v] = rng_.below(kRgDq + 1);
    in.vp_status[v] = rng_();
    in.tx_pkts = static_cast<std::uint32_t>(rng_());
    in.rx_pkts = static_cast<std::uint32_t>(rng_());
    in.link_status = rng_();
    in.link_drops = rng_();
    const unsigned e = rng_.below(4);
    in.lerr_info[e] = static_cast<std::uint32_t>(rng_());
    in.lerr_word[e] = rng_();
  }
  static bool is_cause_w1c(const RgReq& r) {
    const RgRef::Dec d = RgRef::decode(r.addr);
    return r.write && d.user && d.off == rgf::VP_IRQ_CAUSE_OFFSET;
  }
  // An IRQ_CAUSE write to a VP whose error cause the error words raise in this cycle.
  bool cause_clash(const RgReq& r) const {
    const nic_tb::VpErrRep* e = ref_.err().applying(false);
    return is_cause_w1c(r) && e && e->vp == r.addr / rgf::VP_STRIDE;
  }
  RgReq random_req() {
    RgReq r;
    r.write = rng_.pct(50);
    r.wdata = rng_();
    if (rng_.pct(clear_pct_)) {  // IRQ_CAUSE of a VP, or IRQ_STATUS: clear every cause
      const unsigned v = rng_.below(kRgVps + 1);
      r.write = true;
      r.addr = v < kRgVps ? v * rgf::VP_STRIDE + rgf::VP_IRQ_CAUSE_OFFSET : rgf::IRQ_STATUS_OFFSET;
      r.wdata |= 0xF;
      return r;
    }
    if (burst_left_ == 0 && rng_.pct(burst_pct_)) {  // a write-combined burst into a DQ window
      burst_left_ = rng_.rnd(8, 24);
      burst_vp_ = rng_.below(kRgVps);
    }
    if (burst_left_ > 0) {
      --burst_left_;
      r.write = true;
      r.addr = burst_vp_ * rgf::VP_STRIDE + 8 * rng_.below(256);
      return r;
    }
    const unsigned k = rng_.below(100);
    if (k < 40) {  // a user page (past NumVp now and then), a register, the DQ window or unmapped
      static const std::uint32_t offs[] = {rgf::VP_DQ_FREE_OFFSET,  rgf::VP_HDQ_TAIL_OFFSET, rgf::VP_HDQ_HEAD_OFFSET,
                                           rgf::VP_CQ_HEAD_OFFSET,  rgf::VP_CQ_TAIL_OFFSET,  rgf::VP_MPQ_HEAD_OFFSET,
                                           rgf::VP_MPQ_TAIL_OFFSET, rgf::VP_ERR_OFFSET,      rgf::VP_STATUS_OFFSET,
                                           rgf::VP_IRQ_EN_OFFSET,   rgf::VP_IRQ_CAUSE_OFFSET};
      const std::uint32_t page = rng_.pct(85) ? rng_.below(kRgVps) : rng_.rnd(kRgVps, 31);
      const unsigned j = rng_.below(18);  // IRQ_CAUSE three times as often as another register
      const std::uint32_t off = j < 11   ? offs[j]
                                : j < 13 ? rgf::VP_IRQ_CAUSE_OFFSET
                                : j < 16 ? 8 * rng_.below(256)
                                         : 8 * rng_.rnd(0x858 / 8, 0xFF8 / 8);
      r.addr = page * rgf::VP_STRIDE + off;
    } else if (k < 75) {  // a privileged register, a LINK_ERR word or unmapped
      static const std::uint32_t offs[] = {
          rgf::ID_OFFSET,       rgf::CONFIG_OFFSET,  rgf::NODE_ID_OFFSET,    rgf::IRQ_VP_OFFSET,
          rgf::IRQ_STATUS_OFFSET, rgf::IRQ_ENABLE_OFFSET, rgf::ATT_INDEX_OFFSET, rgf::ATT_DATA_OFFSET,
          rgf::KEY_SEL_OFFSET,  rgf::KEY_BASE_OFFSET, rgf::KEY_LEN_OFFSET,   rgf::KEY_CTRL_OFFSET,
          rgf::KEY_STATUS_OFFSET, rgf::LINK_STATUS_OFFSET, rgf::LINK_DROPS_OFFSET, rgf::RX_ERR_OFFSET,
          rgf::COUNTERS_OFFSET, rgf::ROUTE_INDEX_OFFSET, rgf::ROUTE_DATA_OFFSET};
      const unsigned j = rng_.below(26);
      if (j < 19) r.addr = offs[j];
      else if (j < 23) r.addr = rgf::LINK_ERR_OFFSET + 8 * rng_.below(8);
      else if (j == 23) r.addr = 0x20098 + 8 * rng_.below(13);
      else if (j == 24) r.addr = 0x20140 + 8 * rng_.below((0x20800 - 0x20140) / 8);
      else r.addr = 0x21000 + 8 * rng_.below((0x40000 - 0x21000) / 8);
    } else {  // a VPC element (past NumVp now and then)
      const std::uint32_t e = rng_.pct(85) ? rng_.below(kRgVps) : rng_.rnd(kRgVps, 31);
      r.addr = rgf::VPC_OFFSET + e * rgf::VPC_STRIDE + 8 * rng_.below(8);
    }
    return r;
  }
  void drive(const RgIn& in) {
    using hpcnet::tb::put_bits;
    m_.mmio_req_valid_i = in.req_valid;
    m_.mmio_req_write_i = in.req_write;
    m_.mmio_req_addr_i = in.req_addr;
    m_.mmio_req_wdata_i = in.req_wdata;
    m_.pio_drop_i = in.pio_drop;
    for (unsigned v = 0; v < kRgVps; ++v) {
      put_bits(m_.dq_words_i, kRgCntW * v, kRgCntW, in.dq_words[v]);
      put_bits(m_.vp_status_i, 64 * v, 64, in.vp_status[v]);
    }
    m_.win_rdata_i = in.win_rdata;
    m_.tx_pkts_i = in.tx_pkts;
    m_.rx_pkts_i = in.rx_pkts;
    m_.err_valid_i = static_cast<CData>(unsigned{in.err_valid[0]} | unsigned{in.err_valid[1]} << 1);
    m_.err_vp_i = static_cast<SData>(in.err[0].vp | in.err[1].vp << 5);
    m_.err_code_i = static_cast<SData>(in.err[0].code | in.err[1].code << 8);
    m_.err_tag_i = in.err[0].tag | in.err[1].tag << 16;
    m_.cq_irq_i = static_cast<CData>(in.cq_irq);
    m_.mpq_irq_i = static_cast<CData>(in.mpq_irq);
    m_.rx_err_valid_i = in.rx_err_valid;
    m_.rx_err_i = in.rx_err;
    m_.key_busy_i = in.key_busy;
    m_.link_status_i = in.link_status;
    m_.link_drops_i = in.link_drops;
    for (unsigned e = 0; e < 4; ++e) {
      put_bits(m_.link_errbuf_i, 96 * e, 32, in.lerr_info[e]);
      put_bits(m_.link_errbuf_i, 96 * e + 32, 64, in.lerr_word[e]);
    }
    m_.link_dirty_i = in.link_dirty;
    m_.link_down_i = in.link_down;
    m_.link_up_i = in.link_up;
  }
  void check(const RgIn& in, const RgRef::Dec& d) {
    const bool ready = ref_.ready(in), taken = ref_.taken(in);
    REQUIRE(bool(m_.mmio_req_ready_o) == ready);
    REQUIRE(bool(m_.mmio_rsp_valid_o) == ref_.rsp_valid());
    if (ref_.rsp_valid()) REQUIRE(m_.mmio_rsp_rdata_o == ref_.rdata());
    const nic_tb::NicWin w = nic_tb::get_win(m_.win_o), we = ref_.win(in);
    REQUIRE(w.valid == we.valid);
    if (we.valid) REQUIRE(w == we);
    REQUIRE(bool(m_.pio_valid_o) == ref_.pio(in));
    if (ref_.pio(in)) {
      REQUIRE(m_.pio_vp_o == d.vp);
      REQUIRE(m_.pio_data_o == in.req_wdata);
    }
    REQUIRE(bool(m_.tail_we_o) == ref_.doorbell(in));
    if (ref_.doorbell(in)) {
      REQUIRE(m_.tail_vp_o == d.vp);
      REQUIRE(m_.tail_o == static_cast<std::uint32_t>(in.req_wdata));
    }
    REQUIRE(bool(m_.key_we_o) == ref_.key_we());
    REQUIRE(m_.key_sel_o == ref_.key_sel());
    REQUIRE(m_.key_base_o == ref_.key_base());
    REQUIRE(m_.key_len_o == ref_.key_len());
    REQUIRE(m_.key_ctrl_o == ref_.key_ctrl());
    REQUIRE(bool(m_.att_we_o) == ref_.att_we());
    REQUIRE(m_.att_index_o == ref_.att_index_o());
    REQUIRE(m_.att_ppn_o == ref_.att_ppn());
    REQUIRE(bool(m_.route_we_o) == ref_.route_we());
    REQUIRE(m_.route_index_o == ref_.route_index_o());
    REQUIRE(m_.route_o == ref_.route());
    REQUIRE(bool(m_.link_clr_o) == ref_.link_clr());
    REQUIRE(m_.node_id_o == ref_.node_id());
    for (unsigned v = 0; v < kRgVps; ++v) {
      INFO("VP " << v);
      REQUIRE(bool((m_.vp_en_o >> v) & 1) == ref_.vp_en(v));
      REQUIRE(bool((m_.vp_phys_ok_o >> v) & 1) == ref_.phys_ok(v));
    }
    REQUIRE(bool(m_.irq_o) == ref_.irq());
    // coverage
    reads += taken && !in.req_write;
    writes += taken && in.req_write;
    owner_reads += in.win_rdata != 0;
    pio += ref_.pio(in);
    drops += ref_.pio(in) && in.pio_drop;
    const bool pio_addr = d.user && d.off < rgf::VP_DQ_FREE_OFFSET;
    pio_waits += in.req_valid && in.req_write && !ready && pio_addr;
    key_waits += in.req_valid && in.req_write && !ready && in.req_addr == rgf::KEY_CTRL_OFFSET;
    commits += ref_.key_we();
    att_writes += ref_.att_we();
    route_writes += ref_.route_we();
    doorbells += ref_.doorbell(in);
    irq_cycles += ref_.irq();
    quiet_cycles += !ref_.irq();
    irq_vp_reads += taken && !in.req_write && in.req_addr == rgf::IRQ_VP_OFFSET && ref_.irq_vps() != 0;
    const bool w1c = taken && in.req_write && d.user && d.off == rgf::VP_IRQ_CAUSE_OFFSET;
    w1c_same += w1c && (((in.cq_irq | in.mpq_irq) >> d.vp) & 1) != 0;
  }

  hpcnet::sim::Harness<Vnic_regs_s> h_{312.5, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  Vnic_regs_s& m_ = h_.dut();
  hpcnet::tb::Rng rng_;
  RgRef ref_;
  RgIn in_;  // the inputs, the units' status kept from cycle to cycle
  hpcnet::tb::StreamSource<RgReq> src_;
  std::array<unsigned, 2> since_{4, 4};  // cycles since each reporter's last report
  bool w1c_same_ok_;
  unsigned busy_left_ = 0, drop_pct_ = 30, irq_pct_ = 1, link_pct_ = 2, rep_pct_ = 40, clear_pct_ = 0, burst_pct_ = 0, burst_left_ = 0, burst_vp_ = 0;
};

}  // namespace

// 150,000 cycles, then until the error queues are empty; coverage printed and checked.
static void run_regs(RegsTb& tb, bool w1c_same_ok) {
  for (unsigned c = 0; c < 150000; ++c) tb.cycle(false);
  for (unsigned c = 0; c < 1000 && !tb.drained(); ++c) tb.cycle(true);
  hpcnet::tb::print_counts(
      "nic_regs", {{"reads", tb.reads}, {"of owners' registers", tb.owner_reads}, {"of IRQ_VP set", tb.irq_vp_reads},
                   {"writes", tb.writes}, {"PIO words", tb.pio}, {"dropped", tb.drops},
                   {"cycles a PIO write waited", tb.pio_waits}, {"cycles a KEY_CTRL write waited", tb.key_waits},
                   {"commits", tb.commits}, {"ATT writes", tb.att_writes}, {"route writes", tb.route_writes}, {"doorbells", tb.doorbells},
                   {"IRQ_CAUSE clears with a cause of the same VP", tb.w1c_same}, {"cycles irq_o high", tb.irq_cycles},
                   {"low", tb.quiet_cycles}, {"error reports", tb.made}, {"applied", tb.applied()}});
  REQUIRE(tb.drained());
  CHECK(tb.applied() == tb.made);  // every report reached its VP's word
  CHECK(tb.reads > 20000);
  CHECK(tb.owner_reads > 1000);
  CHECK(tb.irq_vp_reads > 100);
  CHECK(tb.drops > 1000);
  CHECK(tb.pio_waits > 100);
  CHECK(tb.key_waits > 100);
  CHECK(tb.att_writes > 200);
  CHECK(tb.route_writes > 100);
  CHECK(tb.doorbells > 200);
  CHECK(tb.irq_cycles > 10000);
  CHECK(tb.quiet_cycles > 1000);
  if (w1c_same_ok) CHECK(tb.w1c_same > 20);
}

TEST_CASE("nic_regs: random MMIO accesses against the register reference", "[nic_regs]") {
  RegsTb tb(hpcnet::tb::seed("nic_regs random"), false);
  run_regs(tb, false);
}

// An IRQ_CAUSE write keeps the causes its VP gains in the same cycle (the register's W1C rule; the
// RTL once lost them, every bit, also those the write did not clear).
TEST_CASE("nic_regs: an IRQ_CAUSE write keeps a cause of the same cycle", "[nic_regs]") {
  RegsTb tb(hpcnet::tb::seed("nic_regs same-cycle cause"), true);
  run_regs(tb, true);
}

TEST_CASE("nic_regs: RX_ERR keeps the first report and COUNT saturates at 0xFFFF", "[nic_regs]") {
  hpcnet::sim::Harness<Vnic_regs_s> h{312.5, hpcnet::sim::trace_from_env()};
  Vnic_regs_s& m = h.dut();
  hpcnet::tb::sync_reset(h);
  const std::uint64_t first = rgf::RX_ERR_CODE.put(0x0d) | rgf::RX_ERR_COUNT.put(2) | rgf::RX_ERR_PTYPE.put(5) |
                              rgf::RX_ERR_SRC_NODE.put(0x1234);
  // 32,800 reports of two errors each, other fields changing: 65,600 errors
  m.rx_err_valid_i = 1;
  for (std::uint64_t i = 0; i < 32800; ++i) {
    m.rx_err_i = i == 0 ? first : rgf::RX_ERR_CODE.put(i & 0xFF) | rgf::RX_ERR_COUNT.put(2) | rgf::RX_ERR_SRC_NODE.put(i);
    h.settle();
    hpcnet::tb::tick(h);
  }
  m.rx_err_valid_i = 0;
  m.mmio_req_valid_i = 1;
  m.mmio_req_write_i = 0;
  m.mmio_req_addr_i = rgf::RX_ERR_OFFSET;
  h.settle();
  REQUIRE(m.mmio_req_ready_o);
  hpcnet::tb::tick(h);
  m.mmio_req_valid_i = 0;
  h.settle();
  REQUIRE(m.mmio_rsp_valid_o);
  CHECK(m.mmio_rsp_rdata_o == ((first & ~rgf::RX_ERR_COUNT.mask()) | rgf::RX_ERR_COUNT.put(0xFFFF)));
}
