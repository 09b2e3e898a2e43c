// nic_pair.cpp: two nodes with NICs joined back to back.
#include "sim/nic/nic_pair.hpp"

#include "hpcnet/rdma.h"

namespace hpcnet::sim {

NicPair::NicPair(NicPairConfig cfg) : cfg_(std::move(cfg)), cluster_(ClusterConfig{cfg_.watchdog_cycles, cfg_.max_cycles}) {
  for (unsigned i = 0; i < 2; ++i) nics_[i] = add_nic_node(cluster_, cfg_, i == 0 ? cfg_.trace : cfg_.trace1).nic;
  auto l = std::make_unique<NicBackToBack>(nics_[0]->link(), nics_[1]->link(), cfg_.link_delay, cfg_.link_faults,
                                           cfg_.link_seed);
  link_ = l.get();
  cluster_.add_fabric(std::move(l));
  for (unsigned i = 0; i < 2; ++i) {
    drivers_[i] = std::make_unique<nic::Driver>(node(i).platform());
    node(i).spawn(0, 0, [this, i] { drivers_[i]->init(i); }, "nic init");
  }
  cluster_.run();
  for (unsigned i = 0; i < 2; ++i) nic::rdma_attach(drivers_[i].get());
}

NicPair::~NicPair() {
  for (unsigned i = 0; i < 2; ++i)
    if (drivers_[i]) nic::rdma_detach(drivers_[i].get());
}

Scheduler::ThreadId NicPair::spawn(unsigned n, unsigned pe, unsigned thread, std::function<void()> fn, std::string name) {
  return node(n).spawn(pe, thread, std::move(fn), std::move(name));
}

}  // namespace hpcnet::sim
