// ssm_system.cpp: the one-node SSM system as a Cluster of one Node (+ the GSN loopback).
#include "sim/ssm/ssm_system.hpp"

#include "sim/ssm/gsn_loopback.hpp"

namespace hpcnet::sim {

// A run that did not ask for a trace takes the process's request (HPCNET_TRACE or the command
// line: requested_trace(), sim/core/trace.hpp) in the harness.
SsmSystem::SsmSystem(SsmSystemConfig cfg)
    : SsmSystem(cfg, make_ssm_device(cfg.num_cores, cfg.clock_mhz, cfg.trace)) {}

SsmSystem::SsmSystem(SsmSystemConfig cfg, std::unique_ptr<Device> first, std::vector<std::unique_ptr<Device>> more)
    : cfg_(std::move(cfg)), cluster_(ClusterConfig{cfg_.watchdog_cycles, cfg_.max_cycles}) {
  auto* ssm = dynamic_cast<SsmDevice*>(first.get());
  std::vector<std::unique_ptr<Device>> devices;
  devices.push_back(std::move(first));
  for (auto& d : more) devices.push_back(std::move(d));
  node_ = &cluster_.add_node(std::make_unique<Node>(cfg_.node(), std::move(devices)));
  if (ssm && cfg_.gsn_loopback) cluster_.add_fabric(std::make_unique<GsnLoopback>(ssm->gsn()));
}

Scheduler::ThreadId SsmSystem::spawn(unsigned pe, unsigned thread, std::function<void()> fn, std::string name) {
  return node_->spawn(pe, thread, std::move(fn), std::move(name));
}

}  // namespace hpcnet::sim
