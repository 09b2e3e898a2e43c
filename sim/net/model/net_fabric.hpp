// sim/net/model/net_fabric.hpp: the router network (a Verilated mesh driven by NetSim) as a fabric of
// the cluster's step loop. Router n's injection and ejection ports are node n's network port;
// today the engine's per-node traffic source and sink (Bernoulli packets of the chosen pattern and
// load, checked on ejection: right destination, every packet once, payload intact) drive them; the
// NIC device takes that port over in the NIC issue.
//
// The network steps once per cluster cycle, in the fabric edge (NetSim's step is a whole cycle:
// injection, settle, handshakes, clock edge), so it keeps the engine's speed.
#pragma once

#include <memory>
#include <string>

#include <fmt/format.h>

#include "sim/net/model/net_sim.hpp"
#include "sim/system/fabric.hpp"

namespace hpcnet::sim {

class NetFabric final : public Fabric {
 public:
  // Starts a run: warm-up and window as in rc (latency statistics), creation on until stop_traffic().
  NetFabric(std::unique_ptr<NetSimBase> net, const NetRunConfig& rc) : net_(std::move(net)) { net_->start(rc); }
  std::string name() const override { return fmt::format("router network {}", net_->spec().model); }
  void edge() override { net_->advance(); }
  uint64_t progress() const override { return net_->engine().checker().delivered_packets(); }
  std::string describe() const override {
    const NetEngine& e = net_->engine();
    return fmt::format("{} packets created, {} delivered, {} outstanding", e.stats().created,
                       e.checker().delivered_packets(), e.outstanding());
  }

  NetSimBase& net() { return *net_; }
  const NetEngine& engine() const { return net_->engine(); }
  void stop_traffic() { net_->engine().set_generation(false); }
  bool drained() const { return net_->engine().outstanding() == 0; }
  // Throws NetCheckError unless every packet created was delivered exactly once.
  void check_drained() { net_->engine().checker().check_drained(net_->engine().now()); }

 private:
  std::unique_ptr<NetSimBase> net_;
};

}  // namespace hpcnet::sim
