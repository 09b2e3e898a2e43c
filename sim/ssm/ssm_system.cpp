// ssm_system.cpp: the one-node SSM system as a Cluster of one Node (+ the GSN loopback).
#include "sim/ssm/ssm_system.hpp"

#include "sim/ssm/gsn_loopback.hpp"

namespace hpcnet::sim {

namespace {
// HPCNET_TRACE (see trace_from_env) switches tracing on for any run that did not ask for it.
SsmSystemConfig with_env_trace(SsmSystemConfig cfg) {
  if (!cfg.trace.enabled()) cfg.trace = trace_from_env();
  return cfg;
}
}  // namespace

SsmSystem::SsmSystem(SsmSystemConfig cfg)
    : SsmSystem(with_env_trace(cfg), make_ssm_device(cfg.num_cores, cfg.clock_mhz, with_env_trace(cfg).trace)) {}

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
