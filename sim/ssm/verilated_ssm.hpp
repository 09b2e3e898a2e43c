// sim/ssm/verilated_ssm.hpp: SsmDevice over a Verilated ssm_top model class V (the port copy
// between the device's ports and the model's signals). make_verilated_ssm<V> is the factory the
// generated model table (ssm_models_gen.cpp) lists for every ssm_top model.
#pragma once

#include <cstdint>
#include <memory>

#include "sim/core/harness.hpp"
#include "sim/ssm/ssm_device.hpp"

namespace hpcnet::sim {

template <class V>
class VerilatedSsm final : public SsmDevice {
 public:
  VerilatedSsm(double clock_mhz, TraceWindow trace) : h_(clock_mhz, std::move(trace)) {}

  void set_reset(bool asserted) override { h_.set_reset(asserted); }

  void eval() override {
    V& d = h_.dut();
    HostPorts& p = host_;
    GsnPort& g = gsn_;
    d.mmio_req_valid_i = p.mmio.req_valid;
    d.mmio_req_write_i = p.mmio.req_write;
    d.mmio_req_addr_i = static_cast<uint16_t>(p.mmio.req_addr);
    d.mmio_req_wdata_i = p.mmio.req_wdata;
    d.dma_req_ready_i = p.dma.req_ready;
    d.dma_rsp_valid_i = p.dma.rsp_valid;
    d.dma_rsp_tag_i = static_cast<uint8_t>(p.dma.rsp_tag);
    for (unsigned w = 0; w < 8; ++w) {
      uint32_t v = 0;
      for (unsigned b = 0; b < 4; ++b) v |= uint32_t(p.dma.rsp_rdata[4 * w + b]) << (8 * b);
      d.dma_rsp_rdata_i[w] = v;
    }
    d.gsn_up_ready_i = g.up_ready;
    d.gsn_dn_valid_i = g.dn_valid;
    for (unsigned w = 0; w < 4; ++w) d.gsn_dn_msg_i[w] = uint32_t(g.dn_msg.w[w / 2] >> (32 * (w % 2)));
    h_.settle();
    g.up_valid = d.gsn_up_valid_o;
    g.dn_ready = d.gsn_dn_ready_o;
    for (unsigned w = 0; w < 2; ++w)
      g.up_msg.w[w] = uint64_t(d.gsn_up_msg_o[2 * w]) | uint64_t(d.gsn_up_msg_o[2 * w + 1]) << 32;
    p.mmio.req_ready = d.mmio_req_ready_o;
    p.mmio.rsp_valid = d.mmio_rsp_valid_o;
    p.mmio.rsp_rdata = d.mmio_rsp_rdata_o;
    p.dma.req_valid = d.dma_req_valid_o;
    p.dma.rsp_ready = d.dma_rsp_ready_o;
    p.irq = d.irq_o;
    if (p.dma.req_valid) {
      p.dma.req_write = d.dma_req_write_o;
      p.dma.req_addr = d.dma_req_addr_o;
      p.dma.req_len = d.dma_req_len_o;
      p.dma.req_tag = d.dma_req_tag_o;
      for (unsigned w = 0; w < 8; ++w)
        for (unsigned b = 0; b < 4; ++b) p.dma.req_wdata[4 * w + b] = uint8_t(d.dma_req_wdata_o[w] >> (8 * b));
    }
  }

  void edge() override { h_.edge(); }
  void close_trace() override { h_.close_trace(); }

 private:
  Harness<V> h_;
};

template <class V>
std::unique_ptr<SsmDevice> make_verilated_ssm(double clock_mhz, TraceWindow trace) {
  return std::make_unique<VerilatedSsm<V>>(clock_mhz, std::move(trace));
}

}  // namespace hpcnet::sim
