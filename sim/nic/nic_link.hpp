// sim/nic/nic_link.hpp: two NICs joined back to back (the paper's test platform, docs/nic.md
// section 8) through the reliable link layer's wire (sim/link/link_wire.hpp, docs/link.md): each
// direction carries one NIC's flits and its receiver's control words to the other NIC after
// `delay` cycles, with the faults its LinkFaults ask for (none by default: a perfect wire), every
// fault logged. No ready: a NIC sends only with credits.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "sim/link/link_wire.hpp"
#include "sim/nic/nic_device.hpp"
#include "sim/system/fabric.hpp"

namespace hpcnet::sim {

// The faults of one direction (from NIC `from`): its flits, and its receiver's control words.
struct NicLinkFaults {
  LinkFaults flits, ctl;
};

class NicBackToBack final : public Fabric {
 public:
  NicBackToBack(NicLinkPort& a, NicLinkPort& b, unsigned delay = 2, std::array<NicLinkFaults, 2> faults = {},
                uint64_t seed = 1);
  std::string name() const override { return "nic back-to-back link"; }
  void drive() override;
  void sample() override;
  uint64_t progress() const override { return flits_; }
  std::string describe() const override;
  uint64_t flits() const { return flits_; }
  // The wire from NIC i to the other one (its fault log).
  const LinkWire& wire(unsigned i) const { return i == 0 ? ab_.wire : ba_.wire; }
  LinkWire& wire(unsigned i) { return i == 0 ? ab_.wire : ba_.wire; }
  uint64_t now() const { return now_; }

 private:
  struct Way {
    NicLinkPort* from;
    NicLinkPort* to;
    LinkWire wire;
  };
  Way ab_, ba_;
  uint64_t now_ = 0;
  uint64_t flits_ = 0;
};

}  // namespace hpcnet::sim
