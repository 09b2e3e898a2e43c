// router_port.cpp: the router's end of a NIC's link (a Verilated lnk_end).
#include "sim/machine/router_port.hpp"

#include <algorithm>

#include "Vlnk_end_rport.h"
#include "sim/core/harness.hpp"
#include "sim/nic/verilated_nic.hpp"

namespace hpcnet::sim {

struct RouterPort::Model {
  Model(double mhz, TraceWindow t) : h(mhz, std::move(t)) {}
  Harness<Vlnk_end_rport> h;
};

RouterPort::RouterPort(double clock_mhz, TraceWindow trace) : m_(std::make_unique<Model>(clock_mhz, std::move(trace))) {
  Vlnk_end_rport& d = m_->h.dut();
  d.in_valid_i = 0;
  d.out_ready_i = 0;
  d.rx_valid_i = 0;
  d.ctl_valid_i = 0;
  d.hold_i = 0;
  m_->h.reset(4);
  m_->h.settle();
}

RouterPort::~RouterPort() = default;

void RouterPort::settle(const std::array<NetSimBase::PortOut, 2>& planes) {
  using namespace nic_port;
  Vlnk_end_rport& d = m_->h.dut();
  link_in(d, link_);
  uint8_t in_valid = 0, in_last = 0, out_ready = 0;
  for (unsigned v = 0; v < 2; ++v) {
    const NetSimBase::PortOut& p = planes[v];
    ej_valid_[v] = p.ej_valid;
    if (p.ej_valid) {
      in_valid = uint8_t(in_valid | 1u << v);
      if (ej_flit_[v] == 4) in_last = uint8_t(in_last | 1u << v);
      std::copy_n(p.ej_data, 8, &d.in_data_i[8 * v]);
    }
    if (p.inj_ready) out_ready = uint8_t(out_ready | 1u << v);
  }
  d.in_valid_i = in_valid;
  d.in_last_i = in_last;
  d.out_ready_i = out_ready;
  m_->h.settle();
  link_out(link_, d);
  for (unsigned v = 0; v < 2; ++v) {
    ej_ready_[v] = (d.in_ready_o >> v) & 1;
    inj_valid_[v] = (d.out_valid_o >> v) & 1;
    if (inj_valid_[v]) std::copy_n(&d.out_data_o[8 * v], 8, inj_data_[v].data());
  }
}

void RouterPort::edge() {
  for (unsigned v = 0; v < 2; ++v)
    if (ej_valid_[v] && ej_ready_[v]) ej_flit_[v] = ej_flit_[v] == 4 ? 0 : ej_flit_[v] + 1;
  m_->h.edge();
}

bool RouterPort::up() const { return m_->h.dut().up_o; }
uint64_t RouterPort::downs() const { return m_->h.dut().downs_o; }
void RouterPort::close_trace() { m_->h.close_trace(); }

}  // namespace hpcnet::sim
