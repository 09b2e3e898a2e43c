// sim/nic/nic_probe.hpp: an observer of the two-node NIC system (NicPair) that timestamps the
// stages of a message's trip (docs/nic_bench.md#breakdown): a fabric of the pair's cluster,
// sampled every cycle after the host models, so it sees every handshake of the cycle. While
// armed it records, per node, the cycles of MMIO writes accepted by the NIC, DMA read requests
// and last read frames accepted, head flits sent and received, write beats accepted and write
// TLPs applied to host memory.
//
//   auto p = std::make_unique<NicProbe>(pair);
//   NicProbe* probe = p.get();
//   pair.cluster().add_fabric(std::move(p));
//   probe->arm();  ... one message ...  probe->disarm();
//   probe->node(0).mmio_wr, probe->node(1).applied, ...
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/nic/nic_pair.hpp"
#include "sim/system/fabric.hpp"

namespace hpcnet::sim {

class NicProbe final : public Fabric {
 public:
  explicit NicProbe(NicPair& pair) : pair_(pair) {}
  std::string name() const override { return "nic probe"; }
  void sample() override;
  void arm();  // clears the records and starts recording
  void disarm() { armed_ = false; }
  // The records of one node: cycles (node 0's clock) in increasing order.
  struct Node {
    std::vector<uint64_t> mmio_wr, rd_req, rd_last, tx_head, rx_head, wr_beat, applied;
  };
  const Node& node(unsigned i) const { return rec_[i]; }

 private:
  NicPair& pair_;
  bool armed_ = false;
  uint64_t applied_[2] = {0, 0};
  Node rec_[2];
};

}  // namespace hpcnet::sim
