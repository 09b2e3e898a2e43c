// nic_node.cpp: a node with a NIC (and optionally the SSM).
#include "sim/nic/nic_node.hpp"

#include <memory>
#include <vector>

namespace hpcnet::sim {

NicNodeDevices add_nic_node(Cluster& c, const NicNodeConfig& cfg, TraceWindow trace) {
  NodeConfig nc;
  nc.num_pe = cfg.num_pe;
  nc.num_threads = cfg.num_threads;
  nc.cpu = cfg.cpu;
  nc.clock_mhz = cfg.clock_mhz;
  nc.device_bus[nic::kDeviceId] = cfg.pio;
  NicNodeDevices d;
  std::vector<std::unique_ptr<Device>> devs;
  auto n = cfg.nic_make ? cfg.nic_make(cfg.clock_mhz, std::move(trace)) : make_nic_device(cfg.clock_mhz, std::move(trace));
  n->pcie().config = cfg.pcie;
  d.nic = n.get();
  devs.push_back(std::move(n));
  if (cfg.with_ssm) {
    auto s = make_ssm_device(2, cfg.clock_mhz, TraceWindow::off());
    d.ssm = s.get();
    devs.push_back(std::move(s));
  }
  d.node = &c.add_node(std::make_unique<Node>(nc, std::move(devs)));
  return d;
}

}  // namespace hpcnet::sim
