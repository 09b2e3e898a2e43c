// sim/ssm/gsn_loopback.hpp: the global sync network of a one-node system: one message register
// from the SSM's up stream back to its down stream (a tree of one leaf answers the same way).
#pragma once

#include "sim/ssm/gsn_port.hpp"
#include "sim/system/fabric.hpp"

namespace hpcnet::sim {

class GsnLoopback final : public Fabric {
 public:
  explicit GsnLoopback(GsnPort& port) : port_(port) {}
  std::string name() const override { return "gsn loopback"; }
  void drive() override {
    port_.up_ready = !full_;
    port_.dn_valid = full_;
    port_.dn_msg = msg_;
  }
  void sample() override {
    if (port_.dn_valid && port_.dn_ready) full_ = false;
    if (port_.up_valid && port_.up_ready) {
      full_ = true;
      msg_ = port_.up_msg;
      ++msgs_;
    }
  }
  uint64_t progress() const override { return msgs_; }

 private:
  GsnPort& port_;
  bool full_ = false;
  GsnMsg msg_;
  uint64_t msgs_ = 0;
};

}  // namespace hpcnet::sim
