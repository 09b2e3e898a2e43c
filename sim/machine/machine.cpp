// machine.cpp: nodes with NICs (and SSMs) on the router network (and the sync tree).
#include "sim/machine/machine.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "hpcnet/rdma.h"
#include "hpcnet/ssm.h"
#include "sim/gsn/gsn_fabric.hpp"

namespace hpcnet::sim {

namespace {

// The NIC model for n nodes: the default one routes to 2^6 = 64 (nic_top's RouteLog2); a larger
// machine takes the first model whose route table (and receivers' tables) reach n nodes.
NicMake nic_model_for(unsigned n) {
  constexpr long kDefaultRouteLog2 = 6;
  for (const auto& e : nic_models())
    if ((1ul << e.param("RouteLog2", kDefaultRouteLog2)) >= n) return e.make;
  throw std::invalid_argument(fmt::format("machine: {} nodes need a NIC model whose route table has {} or more entries "
                                          "(Vnic_top_n256: 256; built: {}){}",
                                          n, n, model_names(nic_models()), bench_models_hint()));
}

}  // namespace

Machine::Machine(MachineConfig cfg)
    : cfg_(std::move(cfg)), coords_(cfg_.net.shape), cluster_(ClusterConfig{cfg_.watchdog_cycles, cfg_.max_cycles}) {
  const unsigned n = cfg_.net.shape.nodes();
  if (n < 2) throw std::invalid_argument("machine: at least 2 nodes");
  if (n > kMachineMaxNodes)
    throw std::invalid_argument(fmt::format("machine: {} nodes; a NIC routes to {} nodes at most (its route table)", n, kMachineMaxNodes));
  if (!cfg_.node.nic_make) cfg_.node.nic_make = nic_model_for(n);
  if (cfg_.trace_node >= n) throw std::invalid_argument(fmt::format("machine: trace node {} of {} nodes", cfg_.trace_node, n));
  // the networks first: they throw on a shape they have no model for, before anything is built
  std::unique_ptr<GsnNet> tree = cfg_.node.with_ssm ? make_gsn_net(n, cfg_.node.clock_mhz) : nullptr;
  for (unsigned i = 0; i < n; ++i)
    nodes_.push_back(add_nic_node(cluster_, cfg_.node, i == cfg_.trace_node ? cfg_.nic_trace : TraceWindow::off()));
  std::vector<NicLinkPort*> links;
  for (auto& d : nodes_) links.push_back(&d.nic->link());
  NicNetConfig nc = cfg_.net;
  nc.clock_mhz = cfg_.node.clock_mhz;
  nc.trace_node = cfg_.trace_node;
  auto net = std::make_unique<NicNetFabric>(nc, links);
  net_ = net.get();
  cluster_.add_fabric(std::move(net));
  if (tree) {
    std::vector<SsmDevice*> ssms;
    for (auto& d : nodes_) ssms.push_back(d.ssm);
    cluster_.add_fabric(std::make_unique<GsnTreeFabric>(std::move(tree), ssms));
  }
  for (unsigned i = 0; i < n; ++i) {
    drivers_.push_back(std::make_unique<nic::Driver>(node(i).platform()));
    if (cfg_.node.with_ssm) ssm_drivers_.push_back(std::make_unique<ssm::Driver>(node(i).platform(), cfg_.ssm_driver));
    node(i).spawn(0, 0, [this, i, n] {
      drivers_[i]->init(i);
      if (cfg_.routes) {
        std::vector<uint32_t> routes(n);
        for (unsigned d = 0; d < n; ++d) routes[d] = coords_.route(i, d);
        drivers_[i]->set_routes(routes);
      }
      if (cfg_.node.with_ssm) ssm_drivers_[i]->init();
    }, "boot");
  }
  cluster_.run();
  for (auto& d : drivers_) nic::rdma_attach(d.get());
  for (auto& d : ssm_drivers_) ssm::ssm_attach(d.get());
}

Machine::~Machine() {
  for (auto& d : drivers_) nic::rdma_detach(d.get());
  for (auto& d : ssm_drivers_) ssm::ssm_detach(d.get());
}

Scheduler::ThreadId Machine::spawn(unsigned n, unsigned pe, unsigned thread, std::function<void()> fn, std::string name) {
  return node(n).spawn(pe, thread, std::move(fn), std::move(name));
}

}  // namespace hpcnet::sim
