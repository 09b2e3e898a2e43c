// ssm_dut.cpp: SsmDut over a Verilated ssm_top (port copy between DevicePorts and the model).
#include "hpcnet/sim/ssm_dut.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "Vssm_top.h"
#include "Vssm_top_1core.h"

namespace hpcnet::sim {
namespace {

template <class V>
class VerilatedSsmDut final : public SsmDut {
 public:
  VerilatedSsmDut(double clock_mhz, TraceWindow trace) : h_(clock_mhz, std::move(trace)) {}

  void set_reset(bool asserted) override { h_.set_reset(asserted); }

  void eval(DevicePorts& p) override {
    V& d = h_.dut();
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
    d.gsn_up_ready_i = p.gsn.up_ready;
    d.gsn_dn_valid_i = p.gsn.dn_valid;
    for (unsigned w = 0; w < 4; ++w) d.gsn_dn_msg_i[w] = uint32_t(p.gsn.dn_msg.w[w / 2] >> (32 * (w % 2)));
    h_.settle();
    p.gsn.up_valid = d.gsn_up_valid_o;
    p.gsn.dn_ready = d.gsn_dn_ready_o;
    for (unsigned w = 0; w < 2; ++w)
      p.gsn.up_msg.w[w] = uint64_t(d.gsn_up_msg_o[2 * w]) | uint64_t(d.gsn_up_msg_o[2 * w + 1]) << 32;
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

}  // namespace

std::unique_ptr<SsmDut> make_ssm_dut(unsigned num_cores, double clock_mhz, TraceWindow trace) {
  switch (num_cores) {
    case 2: return std::make_unique<VerilatedSsmDut<Vssm_top>>(clock_mhz, std::move(trace));
    case 1: return std::make_unique<VerilatedSsmDut<Vssm_top_1core>>(clock_mhz, std::move(trace));
    default: throw std::invalid_argument(fmt::format("make_ssm_dut: no model with {} cores (1 or 2)", num_cores));
  }
}

}  // namespace hpcnet::sim
