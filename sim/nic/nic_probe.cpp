// nic_probe.cpp: see nic_probe.hpp.
#include "sim/nic/nic_probe.hpp"

namespace hpcnet::sim {

void NicProbe::arm() {
  for (size_t i = 0; i < nics_.size(); ++i) {
    rec_[i] = Node{};
    applied_[i] = nics_[i]->pcie().dma().stats().writes_applied;
  }
  armed_ = true;
}

void NicProbe::sample() {
  if (!armed_) return;
  const uint64_t t = clock_.cycles();
  for (size_t i = 0; i < nics_.size(); ++i) {
    const HostPorts& h = nics_[i]->host();
    const PcieDmaPort& q = nics_[i]->pcie().port;
    const NicLinkPort& l = nics_[i]->link();
    Node& r = rec_[i];
    if (h.mmio.req_valid && h.mmio.req_ready && h.mmio.req_write) r.mmio_wr.push_back(t);
    if (q.rd_req_valid && q.rd_req_ready) r.rd_req.push_back(t);
    if (q.rd_rsp_valid && q.rd_rsp_ready && q.rd_rsp_last) r.rd_last.push_back(t);
    if (q.wr_valid && q.wr_ready) r.wr_beat.push_back(t);
    if (l.tx.valid && l.tx.head) r.tx_head.push_back(t);
    if (l.rx.valid && l.rx.head) r.rx_head.push_back(t);
    const uint64_t a = nics_[i]->pcie().dma().stats().writes_applied;
    if (a != applied_[i]) r.applied.push_back(t);
    applied_[i] = a;
  }
}

}  // namespace hpcnet::sim
