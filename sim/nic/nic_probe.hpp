// sim/nic/nic_probe.hpp: an observer of NICs (the two-node NicPair, or any NICs of a cluster: the
// machine) that timestamps the stages of a message's trip (docs/nic_bench.md#breakdown): a fabric
// of their cluster,
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

#include "sim/nic/nic_device.hpp"

#include "sim/nic/nic_pair.hpp"
#include "sim/system/fabric.hpp"

namespace hpcnet::sim {

class NicProbe final : public Fabric {
 public:
  explicit NicProbe(NicPair& pair) : NicProbe({&pair.nic(0), &pair.nic(1)}, pair.node(0)) {}
  // NICs of one cluster; `clock`: the node whose cycle count stamps the records.
  NicProbe(std::vector<NicDevice*> nics, const sim::Node& clock) : nics_(std::move(nics)), clock_(clock), applied_(nics_.size()), rec_(nics_.size()) {}
  std::string name() const override { return "nic probe"; }
  void sample() override;
  void arm();  // clears the records and starts recording
  void disarm() { armed_ = false; }
  // The records of NIC i: cycles (the clock node's) in increasing order.
  struct Node {
    std::vector<uint64_t> mmio_wr, rd_req, rd_last, tx_head, rx_head, wr_beat, applied;
  };
  const Node& node(unsigned i) const { return rec_.at(i); }

 private:
  std::vector<NicDevice*> nics_;
  const sim::Node& clock_;
  bool armed_ = false;
  std::vector<uint64_t> applied_;
  std::vector<Node> rec_;
};

}  // namespace hpcnet::sim
