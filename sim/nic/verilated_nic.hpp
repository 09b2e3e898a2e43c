// sim/nic/verilated_nic.hpp: NicDevice over a Verilated nic_top model class V (the port copy
// between the device's ports and the model's signals). make_verilated_nic<V> is the factory the
// generated model table (nic_models_gen.cpp) lists for every nic_top model.
#pragma once

#include <type_traits>
#include <cstdint>
#include <memory>

#include "sim/core/harness.hpp"
#include "sim/nic/nic_device.hpp"

namespace hpcnet::sim {

namespace nic_port {
// 32 bytes between a Verilated 256-bit port (8 x 32-bit words) and bytes or 64-bit words.
template <class W>
void from_bytes(W& w, const std::array<uint8_t, 32>& b) {
  for (unsigned i = 0; i < 8; ++i)
    w[i] = uint32_t(b[4 * i]) | uint32_t(b[4 * i + 1]) << 8 | uint32_t(b[4 * i + 2]) << 16 | uint32_t(b[4 * i + 3]) << 24;
}
template <class W>
void to_bytes(std::array<uint8_t, 32>& b, const W& w) {
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned k = 0; k < 4; ++k) b[4 * i + k] = uint8_t(w[i] >> (8 * k));
}
template <class W>
void from_words(W& w, const std::array<uint64_t, 4>& d) {
  for (unsigned i = 0; i < 8; ++i) w[i] = uint32_t(d[i / 2] >> (32 * (i % 2)));
}
template <class W>
void to_words(std::array<uint64_t, 4>& d, const W& w) {
  for (unsigned i = 0; i < 4; ++i) d[i] = uint64_t(w[2 * i]) | uint64_t(w[2 * i + 1]) << 32;
}
// A link end's ports (nic_top's, lnk_end's: the same names) from and to a NicLinkPort: the flit
// and control word received (inputs), the flit and control word sent (outputs).
template <class V>
void link_in(V& d, const NicLinkPort& l) {
  d.ctl_valid_i = l.ctl_in_valid;
  d.ctl_i = l.ctl_in;
  d.rx_valid_i = l.rx.valid;
  d.rx_vc_i = static_cast<std::remove_reference_t<decltype(d.rx_vc_i)>>(l.rx.vc & 1);
  d.rx_head_i = l.rx.head;
  d.rx_tail_i = l.rx.tail;
  d.rx_seq_i = l.rx.seq;
  d.rx_crc_i = l.rx.crc;
  if (l.rx.valid) from_words(d.rx_data_i, l.rx.data);
}
template <class V>
void link_out(NicLinkPort& l, const V& d) {
  l.tx.valid = d.tx_valid_o;
  if (l.tx.valid) {
    l.tx.vc = d.tx_vc_o;
    l.tx.head = d.tx_head_o;
    l.tx.tail = d.tx_tail_o;
    l.tx.seq = d.tx_seq_o;
    l.tx.crc = d.tx_crc_o;
    to_words(l.tx.data, d.tx_data_o);
  }
  l.ctl_out = d.ctl_o;
}
}  // namespace nic_port

template <class V>
class VerilatedNic final : public NicDevice {
 public:
  VerilatedNic(double clock_mhz, TraceWindow trace) : h_(clock_mhz, std::move(trace)) {}

  void set_reset(bool asserted) override { h_.set_reset(asserted); }

  void eval() override {
    using namespace nic_port;
    V& d = h_.dut();
    HostPorts& p = host_;
    PcieDmaPort& q = pcie_.port;
    d.mmio_req_valid_i = p.mmio.req_valid;
    d.mmio_req_write_i = p.mmio.req_write;
    d.mmio_req_addr_i = p.mmio.req_addr & 0x3FFFF;
    d.mmio_req_wdata_i = p.mmio.req_wdata;
    d.rd_req_ready_i = q.rd_req_ready;
    d.rd_rsp_valid_i = q.rd_rsp_valid;
    d.rd_rsp_tag_i = static_cast<std::remove_reference_t<decltype(d.rd_rsp_tag_i)>>(q.rd_rsp_tag);
    d.rd_rsp_last_i = q.rd_rsp_last;
    if (q.rd_rsp_valid) from_bytes(d.rd_rsp_data_i, q.rd_rsp_data);
    d.wr_ready_i = q.wr_ready;
    link_in(d, link_);
    h_.settle();
    p.mmio.req_ready = d.mmio_req_ready_o;
    p.mmio.rsp_valid = d.mmio_rsp_valid_o;
    p.mmio.rsp_rdata = d.mmio_rsp_rdata_o;
    p.irq = d.irq_o;
    q.rd_req_valid = d.rd_req_valid_o;
    if (q.rd_req_valid) {
      q.rd_req_addr = d.rd_req_addr_o;
      q.rd_req_len = d.rd_req_len_o;
      q.rd_req_tag = d.rd_req_tag_o;
    }
    q.rd_rsp_ready = d.rd_rsp_ready_o;
    q.wr_valid = d.wr_valid_o;
    if (q.wr_valid) {
      q.wr_addr = d.wr_addr_o;
      q.wr_len = d.wr_len_o;
      q.wr_last = d.wr_last_o;
      to_bytes(q.wr_data, d.wr_data_o);
    }
    link_out(link_, d);
  }

  void edge() override { h_.edge(); }
  void close_trace() override { h_.close_trace(); }

 private:
  Harness<V> h_;
};

template <class V>
std::unique_ptr<NicDevice> make_verilated_nic(double clock_mhz, TraceWindow trace) {
  return std::make_unique<VerilatedNic<V>>(clock_mhz, std::move(trace));
}

}  // namespace hpcnet::sim
