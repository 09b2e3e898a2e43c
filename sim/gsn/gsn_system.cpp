// gsn_system.cpp: SSM nodes joined by the GSN, booted with their drivers.
#include "sim/gsn/gsn_system.hpp"

#include "hpcnet/ssm.h"
#include "sim/ssm/gsn_loopback.hpp"

namespace hpcnet::sim {

std::vector<SsmDevice*> add_gsn_nodes(Cluster& c, unsigned count, const SsmSystemConfig& node, TraceWindow net_trace) {
  // the network first: it throws on a node count it has no model for, before anything is built
  std::unique_ptr<GsnNet> net = count != 1 ? make_gsn_net(count, node.clock_mhz, std::move(net_trace)) : nullptr;
  std::vector<SsmDevice*> ssms;
  for (unsigned i = 0; i < count; ++i) {
    auto dev = make_ssm_device(node.num_cores, node.clock_mhz);
    ssms.push_back(dev.get());
    std::vector<std::unique_ptr<Device>> devices;
    devices.push_back(std::move(dev));
    c.add_node(std::make_unique<Node>(node.node(), std::move(devices)));
  }
  if (net)
    c.add_fabric(std::make_unique<GsnTreeFabric>(std::move(net), ssms));
  else
    c.add_fabric(std::make_unique<GsnLoopback>(ssms[0]->gsn()));
  return ssms;
}

GsnSystem::GsnSystem(GsnSystemConfig cfg) : cfg_(std::move(cfg)), cluster_(ClusterConfig{cfg_.watchdog_cycles, 0}) {
  const size_t first = cluster_.num_nodes();
  add_gsn_nodes(cluster_, cfg_.nodes, cfg_.node, cfg_.net_trace);
  if (cfg_.nodes != 1) tree_ = dynamic_cast<GsnTreeFabric*>(&cluster_.fabric(cluster_.num_fabrics() - 1));
  if (cfg_.more_fabrics) cfg_.more_fabrics(cluster_);
  for (size_t i = first; i < cluster_.num_nodes(); ++i)
    members_.push_back(std::make_unique<Member>(cluster_.node(i), cfg_.driver));
  for (auto& m : members_) m->node.spawn(0, 0, [&m] { m->drv.init(); }, "init");
  cluster_.run();
  for (auto& m : members_) ssm::ssm_attach(&m->drv);
}

GsnSystem::~GsnSystem() {
  for (auto& m : members_) ssm::ssm_detach(&m->drv);
}

void GsnSystem::spawn(unsigned node, unsigned pe, unsigned thread, std::function<void()> fn) {
  members_.at(node)->node.spawn(pe, thread, std::move(fn));
}

void GsnSystem::run_all(const std::function<void(unsigned, unsigned, unsigned)>& fn, unsigned threads) {
  for (unsigned i = 0; i < nodes(); ++i) {
    const auto& c = members_[i]->node.config();
    unsigned k = 0;
    for (unsigned pe = 0; pe < c.num_pe; ++pe)
      for (unsigned t = 0; t < c.num_threads; ++t)
        if (k++ < threads) spawn(i, pe, t, [fn, i, pe, t] { fn(i, pe, t); });
  }
  run();
}

}  // namespace hpcnet::sim
