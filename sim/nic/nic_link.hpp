// sim/nic/nic_link.hpp: two NICs joined back to back (the paper's test platform, docs/nic.md
// section 7): each one's flits reach the other after `delay` cycles, and so do the credits it
// returns. The link has no ready: a NIC sends only with credits, so nothing is ever dropped here.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "sim/nic/nic_device.hpp"
#include "sim/system/fabric.hpp"

namespace hpcnet::sim {

class NicBackToBack final : public Fabric {
 public:
  NicBackToBack(NicLinkPort& a, NicLinkPort& b, unsigned delay = 2);
  std::string name() const override { return "nic back-to-back link"; }
  void drive() override;
  void sample() override;
  uint64_t progress() const override { return flits_; }
  std::string describe() const override;
  uint64_t flits() const { return flits_; }

 private:
  struct Slot {
    NicFlit flit;
    bool cred = false;
    unsigned cred_vc = 0;
  };
  struct Way {
    NicLinkPort* from;
    NicLinkPort* to;
    std::deque<Slot> line;  // delay entries: line.front() arrives this cycle
  };
  Way ab_, ba_;
  uint64_t flits_ = 0;
};

}  // namespace hpcnet::sim
