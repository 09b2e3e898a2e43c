// nic_probe.cpp: see nic_probe.hpp.
#include "sim/nic/nic_probe.hpp"

namespace hpcnet::sim {

void NicProbe::arm() {
  for (unsigned i = 0; i < 2; ++i) {
    rec_[i] = Node{};
    applied_[i] = pair_.nic(i).pcie().dma().stats().writes_applied;
  }
  armed_ = true;
}

void NicProbe::sample() {
  if (!armed_) return;
  const uint64_t t = pair_.node(0).cycles();
  for (unsigned i = 0; i < 2; ++i) {
    const HostPorts& h = pair_.nic(i).host();
    const PcieDmaPort& q = pair_.nic(i).pcie().port;
    const NicLinkPort& l = pair_.nic(i).link();
    Node& r = rec_[i];
    if (h.mmio.req_valid && h.mmio.req_ready && h.mmio.req_write) r.mmio_wr.push_back(t);
    if (q.rd_req_valid && q.rd_req_ready) r.rd_req.push_back(t);
    if (q.rd_rsp_valid && q.rd_rsp_ready && q.rd_rsp_last) r.rd_last.push_back(t);
    if (q.wr_valid && q.wr_ready) r.wr_beat.push_back(t);
    if (l.tx.valid && l.tx.head) r.tx_head.push_back(t);
    if (l.rx.valid && l.rx.head) r.rx_head.push_back(t);
    const uint64_t a = pair_.nic(i).pcie().dma().stats().writes_applied;
    if (a != applied_[i]) r.applied.push_back(t);
    applied_[i] = a;
  }
}

}  // namespace hpcnet::sim
