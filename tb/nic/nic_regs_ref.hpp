// nic_regs_ref.hpp: a cycle reference of the NIC's register block (rtl/nic/nic_regs.sv) for its
// module test (test_nic_regs.cpp), written from the register map (docs/nic_formats.md,
// hpcnet/nic_formats.hpp) and docs/nic.md section 6:
//   - decode: user page v (offset < 0x20000, v < NumVp), the privileged page (offset bit 17), VPC
//     element v (0x20800 + 0x40 v, v < NumVp); anything else is unmapped (reads 0, writes ignored);
//   - a request is taken when shown, except a KEY_CTRL write while a fence is under way
//     (key_busy_i) or a KEY_CTRL commit is in this cycle, and a DQ-window write while the
//     DQ-overflow error queue is full; a read is answered in the next cycle;
//   - every access taken to a user page or VPC element also goes to the owners' window (win_o), in
//     its cycle; the owners' registers (the CQ, MPQ and host-DQ rings' heads, tails, bases and
//     SIZES) read what the window answered;
//   - a DQ-window write is a PIO word (pio_*); a dropped one (pio_drop_i) is reported DQ_OVERFLOW
//     to the VP's error word; an HDQ_TAIL write rings the doorbell (tail_*); its read is the host-DQ
//     fetcher's (the window);
//   - VP.ERR: nic_vp_err_ref.hpp (reporters 0 and 1, then the DQ overflow; queues of 4); a write
//     clears it; each report applied raises IRQ_CAUSE.ERR of its VP;
//   - IRQ_CAUSE: CQ and MPQ from the pulses, ERR; W1C: a write clears the bits written 1 that were
//     set before this cycle (a cause of the same cycle stays); IRQ_STATUS likewise, from LINK_ERR
//     (rx_err_valid_i), LINK_DROP, LINK_DOWN, LINK_UP; IRQ_VP the VPs with IRQ_CAUSE & IRQ_EN;
//     irq_o, a cycle later, that or IRQ_STATUS & IRQ_ENABLE;
//   - RX_ERR: the first report's fields, COUNT adding each report's (saturating); a write clears it
//     (a report in the same cycle is lost with it, as the RTL does: the map does not say);
//   - KEY_CTRL and ATT_DATA writes are a one-cycle pulse in the next cycle (key_we_o with the KEY_*
//     registers; att_we_o with the index, which then moves on); ROUTE_DATA likewise (route_we_o with
//     ROUTE_INDEX, which moves on); a LINK_DROPS write pulses link_clr_o.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "hpcnet/nic_formats.hpp"
#include "nic_vp_err_ref.hpp"
#include "nic_win.hpp"

namespace nic_tb {

namespace nrf = hpcnet::nic_formats;

template <unsigned Vps>
struct RegsIn {
  bool req_valid = false, req_write = false;
  std::uint32_t req_addr = 0;
  std::uint64_t req_wdata = 0;
  bool pio_drop = false;
  std::uint64_t win_rdata = 0;
  std::array<std::uint32_t, Vps> dq_words{};
  std::array<std::uint64_t, Vps> vp_status{};
  std::uint32_t tx_pkts = 0, rx_pkts = 0;
  std::array<bool, 2> err_valid{};
  std::array<VpErrRep, 2> err{};
  std::uint32_t cq_irq = 0, mpq_irq = 0;  // a bit per VP
  bool rx_err_valid = false;
  std::uint64_t rx_err = 0;
  bool key_busy = false;
  std::uint64_t link_status = 0, link_drops = 0;
  std::array<std::uint32_t, 4> lerr_info{};
  std::array<std::uint64_t, 4> lerr_word{};
  bool link_dirty = false, link_down = false, link_up = false;
};

template <unsigned Vps, unsigned DqWords, unsigned NumKeys, unsigned AttLog2>
class RegsRef {
 public:
  using In = RegsIn<Vps>;
  using Err = VpErrRef<Vps, 3, 4>;  // reporters 0, 1, the DQ overflow; nic_regs' queues of 4
  struct Dec {
    bool user = false, priv = false, vpc = false;
    unsigned vp = 0, off = 0;  // the page or element, the offset in it
  };
  static Dec decode(std::uint32_t a) {
    Dec d;
    d.priv = a >= 0x20000;
    d.user = !d.priv && (a >> 12) < Vps;
    d.vpc = a >= nrf::VPC_OFFSET && a - nrf::VPC_OFFSET < Vps * nrf::VPC_STRIDE;
    d.vp = d.user ? a >> 12 : ((a - nrf::VPC_OFFSET) / nrf::VPC_STRIDE) & 31;
    d.off = d.user ? a & 0xFFF : d.vpc ? (a - nrf::VPC_OFFSET) % nrf::VPC_STRIDE : 0;
    return d;
  }
  // A register of an owner (nic_cmpl, nic_rx, nic_hdq), answered through the window.
  static bool owner_reg(const Dec& d) {
    if (d.user)
      return d.off == nrf::VP_CQ_HEAD_OFFSET || d.off == nrf::VP_CQ_TAIL_OFFSET || d.off == nrf::VP_MPQ_HEAD_OFFSET ||
             d.off == nrf::VP_MPQ_TAIL_OFFSET || d.off == nrf::VP_HDQ_HEAD_OFFSET ||
             d.off == nrf::VP_HDQ_TAIL_OFFSET;
    return d.vpc && (d.off == nrf::VPC_CQ_BASE_OFFSET || d.off == nrf::VPC_MPQ_BASE_OFFSET ||
                     d.off == nrf::VPC_HDQ_BASE_OFFSET || d.off == nrf::VPC_SIZES_OFFSET);
  }

  // ---- this cycle's outputs
  bool ready(const In& in) const {
    if (!in.req_valid || !in.req_write) return true;
    const Dec d = decode(in.req_addr);
    if (in.req_addr == nrf::KEY_CTRL_OFFSET && (in.key_busy || key_we_)) return false;
    return !(d.user && d.off < nrf::VP_DQ_FREE_OFFSET && !err_.room(2));
  }
  bool taken(const In& in) const { return in.req_valid && ready(in); }
  NicWin win(const In& in) const {
    const Dec d = decode(in.req_addr);
    NicWin w;
    w.valid = taken(in) && (d.user || d.vpc);
    if (w.valid) w = NicWin{true, in.req_write, !d.user, d.vp, d.off, in.req_wdata};
    return w;
  }
  bool pio(const In& in) const {
    const Dec d = decode(in.req_addr);
    return taken(in) && in.req_write && d.user && d.off < nrf::VP_DQ_FREE_OFFSET;
  }
  bool doorbell(const In& in) const {
    const Dec d = decode(in.req_addr);
    return taken(in) && in.req_write && d.user && d.off == nrf::VP_HDQ_TAIL_OFFSET;
  }
  bool rsp_valid() const { return rsp_; }
  std::uint64_t rdata() const { return rdata_; }
  bool irq() const { return irq_; }
  bool key_we() const { return key_we_; }
  bool att_we() const { return att_we_; }
  bool link_clr() const { return link_clr_; }
  std::uint32_t att_index_o() const { return att_index_o_; }
  std::uint64_t att_ppn() const { return att_ppn_; }
  bool route_we() const { return route_we_; }
  std::uint32_t route_index_o() const { return route_index_o_; }
  std::uint32_t route() const { return route_; }
  std::uint32_t node_id() const { return node_id_; }
  std::uint32_t key_sel() const { return key_sel_; }
  std::uint64_t key_base() const { return key_base_; }
  std::uint64_t key_len() const { return key_len_; }
  std::uint64_t key_ctrl() const { return key_ctrl_; }
  bool vp_en(unsigned v) const { return en_[v]; }
  bool phys_ok(unsigned v) const { return phys_ok_[v]; }
  unsigned cause(unsigned v) const { return cause_[v]; }
  const Err& err() const { return err_; }
  std::uint32_t irq_vps() const {
    std::uint32_t s = 0;
    for (unsigned v = 0; v < Vps; ++v) s |= std::uint32_t{(cause_[v] & irq_en_[v]) != 0} << v;
    return s;
  }

  // ---- the clock edge
  void edge(const In& in) {
    const Dec d = decode(in.req_addr);
    const bool wr = taken(in) && in.req_write, rd = taken(in) && !in.req_write;
    // reads: the values of this cycle
    rsp_ = rd;
    rdata_ = rd ? read(in, d) : 0;
    irq_ = irq_vps() != 0 || (irq_status_ & irq_enable_) != 0;
    // errors and interrupt causes
    std::array<unsigned, Vps> set{};
    for (unsigned v = 0; v < Vps; ++v) set[v] = ((in.cq_irq >> v) & 1) | (((in.mpq_irq >> v) & 1) << 1);
    const bool clr = wr && d.user && d.off == nrf::VP_ERR_OFFSET;
    if (const VpErrRep* r = err_.applying(clr)) set[r->vp] |= 4;
    const bool drop = pio(in) && in.pio_drop;
    err_.step(clr, d.vp, {in.err_valid[0], in.err_valid[1], drop},
              {in.err[0], in.err[1], VpErrRep{d.vp, static_cast<unsigned>(nrf::Status::DQ_OVERFLOW), 0}});
    for (unsigned v = 0; v < Vps; ++v) {
      const bool w1c = wr && d.user && d.vp == v && d.off == nrf::VP_IRQ_CAUSE_OFFSET;
      cause_[v] = (w1c ? cause_[v] & ~static_cast<unsigned>(in.req_wdata) & 7 : cause_[v]) | set[v];
    }
    const unsigned st_set = unsigned{in.rx_err_valid} | unsigned{in.link_dirty} << 1 | unsigned{in.link_down} << 2 |
                            unsigned{in.link_up} << 3;
    const bool st_w1c = wr && in.req_addr == nrf::IRQ_STATUS_OFFSET;
    irq_status_ = (st_w1c ? irq_status_ & ~static_cast<unsigned>(in.req_wdata) & 15 : irq_status_) | st_set;
    if (in.rx_err_valid) {
      const std::uint64_t c = nrf::RX_ERR_COUNT.get(rx_err_);
      if (c == 0) {
        rx_err_ = in.rx_err;
      } else {
        const std::uint64_t n = std::min<std::uint64_t>(c + nrf::RX_ERR_COUNT.get(in.rx_err), 0xFFFF);
        rx_err_ = (rx_err_ & ~nrf::RX_ERR_COUNT.mask()) | nrf::RX_ERR_COUNT.put(n);
      }
    }
    // software's writes
    key_we_ = att_we_ = route_we_ = link_clr_ = false;
    if (wr && d.user && d.off == nrf::VP_IRQ_EN_OFFSET) irq_en_[d.vp] = static_cast<unsigned>(in.req_wdata & 7);
    if (wr && d.vpc) write_vpc(d, in.req_wdata);
    if (wr && d.priv && !d.vpc) write_priv(in.req_addr, in.req_wdata);
  }

 private:
  std::uint64_t read(const In& in, const Dec& d) const {
    if (d.user) {
      const unsigned v = d.vp;
      switch (d.off) {
        case nrf::VP_DQ_FREE_OFFSET: return DqWords - in.dq_words[v];
        case nrf::VP_ERR_OFFSET: return err_.word[v];
        case nrf::VP_STATUS_OFFSET: return in.vp_status[v];
        case nrf::VP_IRQ_EN_OFFSET: return irq_en_[v];
        case nrf::VP_IRQ_CAUSE_OFFSET: return cause_[v];
        default: return owner_reg(d) ? in.win_rdata : 0;
      }
    }
    if (d.vpc) return d.off == nrf::VPC_CTRL_OFFSET ? nrf::VpcCtrl{en_[d.vp], phys_ok_[d.vp]}.pack()[0]
                      : owner_reg(d)                 ? in.win_rdata
                                                     : 0;
    const std::uint32_t a = in.req_addr;
    if (a >= nrf::LINK_ERR_OFFSET && a < nrf::LINK_ERR_OFFSET + nrf::LINK_ERR_COUNT * nrf::LINK_ERR_STRIDE) {
      const unsigned i = (a - nrf::LINK_ERR_OFFSET) / nrf::LINK_ERR_STRIDE;
      return (a & 8) ? in.lerr_word[i] : in.lerr_info[i];
    }
    switch (a) {
      case nrf::ID_OFFSET: return nrf::ID_MAGIC.put(nrf::ID_MAGIC_RESET) | nrf::ID_VERSION.put(nrf::ID_VERSION_RESET);
      case nrf::CONFIG_OFFSET:
        return nrf::CONFIG_NUM_VP.put(Vps) | nrf::CONFIG_DQ_WORDS.put(DqWords) | nrf::CONFIG_NUM_KEYS.put(NumKeys) |
               nrf::CONFIG_ATT_LOG2.put(AttLog2) | nrf::CONFIG_ROUTE_LOG2.put(kRouteLog2);
      case nrf::NODE_ID_OFFSET: return node_id_;
      case nrf::IRQ_VP_OFFSET: return irq_vps();
      case nrf::IRQ_STATUS_OFFSET: return irq_status_;
      case nrf::IRQ_ENABLE_OFFSET: return irq_enable_;
      case nrf::ATT_INDEX_OFFSET: return att_index_;
      case nrf::ROUTE_INDEX_OFFSET: return route_index_;
      case nrf::KEY_SEL_OFFSET: return key_sel_;
      case nrf::KEY_BASE_OFFSET: return key_base_;
      case nrf::KEY_LEN_OFFSET: return key_len_;
      case nrf::KEY_CTRL_OFFSET: return key_ctrl_;
      case nrf::KEY_STATUS_OFFSET: return in.key_busy || key_we_;
      case nrf::LINK_STATUS_OFFSET: return in.link_status;
      case nrf::LINK_DROPS_OFFSET: return in.link_drops;
      case nrf::RX_ERR_OFFSET: return rx_err_;
      case nrf::COUNTERS_OFFSET: return nrf::COUNTERS_TX_PKTS.put(in.tx_pkts) | nrf::COUNTERS_RX_PKTS.put(in.rx_pkts);
      default: return 0;
    }
  }
  void write_vpc(const Dec& d, std::uint64_t w) {
    if (d.off != nrf::VPC_CTRL_OFFSET) return;
    en_[d.vp] = nrf::VPC_CTRL_ENABLE.get(w) != 0;
    phys_ok_[d.vp] = nrf::VPC_CTRL_PHYS_OK.get(w) != 0;
  }
  void write_priv(std::uint32_t a, std::uint64_t w) {
    switch (a) {
      case nrf::NODE_ID_OFFSET: node_id_ = static_cast<std::uint32_t>(nrf::NODE_ID_ID.get(w)); break;
      case nrf::IRQ_ENABLE_OFFSET: irq_enable_ = static_cast<unsigned>(w & 15); break;
      case nrf::ATT_INDEX_OFFSET: att_index_ = static_cast<std::uint32_t>(w); break;
      case nrf::ATT_DATA_OFFSET:
        att_we_ = true;
        att_index_o_ = att_index_++;
        att_ppn_ = nrf::ATT_DATA_PPN.get(w);
        break;
      case nrf::ROUTE_INDEX_OFFSET: route_index_ = static_cast<std::uint32_t>(w); break;
      case nrf::ROUTE_DATA_OFFSET:
        route_we_ = true;
        route_index_o_ = route_index_++;
        route_ = static_cast<std::uint32_t>(nrf::ROUTE_DATA_ROUTE.get(w));
        break;
      case nrf::KEY_SEL_OFFSET: key_sel_ = static_cast<std::uint32_t>(nrf::KEY_SEL_KEY.get(w)); break;
      case nrf::KEY_BASE_OFFSET: key_base_ = nrf::KEY_BASE_VADDR.get(w); break;
      case nrf::KEY_LEN_OFFSET: key_len_ = nrf::KEY_LEN_BYTES.get(w); break;
      case nrf::KEY_CTRL_OFFSET:
        key_ctrl_ = w;
        key_we_ = true;
        break;
      case nrf::RX_ERR_OFFSET: rx_err_ = 0; break;
      case nrf::LINK_DROPS_OFFSET: link_clr_ = true; break;
      default: break;
    }
  }

  Err err_;
  std::array<unsigned, Vps> irq_en_{}, cause_{};
  std::array<bool, Vps> en_{}, phys_ok_{};
  unsigned irq_status_ = 0, irq_enable_ = 0;
  std::uint32_t node_id_ = 0, att_index_ = 0, att_index_o_ = 0, key_sel_ = 0;
  std::uint64_t key_base_ = 0, key_len_ = 0, key_ctrl_ = 0, rx_err_ = 0, att_ppn_ = 0, rdata_ = 0;
  bool rsp_ = false, irq_ = false, key_we_ = false, att_we_ = false, route_we_ = false, link_clr_ = false;
  std::uint32_t route_index_ = 0, route_index_o_ = 0, route_ = 0;
  static constexpr unsigned kRouteLog2 = 6;  // nic_regs' default RouteLog2
};

}  // namespace nic_tb
