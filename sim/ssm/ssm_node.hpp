// sim/ssm/ssm_node.hpp: a simulated node (SsmSystem) with the SSM driver initialised and libssm
// attached, for integration tests and benchmarks.
#pragma once

#include <functional>

#include "sim/ssm/ssm_system.hpp"
#include "hpcnet/ssm.h"
#include "hpcnet/ssm_driver.hpp"

namespace hpcnet::sim {

struct SsmNode {
  SsmSystem sys;
  ssm::Driver drv;

  explicit SsmNode(SsmSystemConfig cfg = {}, ssm::DriverConfig dcfg = {})
      : sys(cfg), drv(sys.platform(), dcfg) {
    sys.spawn(0, 0, [this] { drv.init(); }, "init");
    sys.run();
    ssm::ssm_attach(&drv);
  }
  ~SsmNode() { ssm::ssm_detach(&drv); }

  // Run fn on every (pe, thread) of the node (or the first `threads` of them) until all return.
  void run_all(const std::function<void(unsigned pe, unsigned thread)>& fn, unsigned threads = ~0u) {
    const auto& c = sys.config();
    unsigned n = 0;
    for (unsigned pe = 0; pe < c.num_pe; ++pe)
      for (unsigned t = 0; t < c.num_threads; ++t)
        if (n++ < threads) sys.spawn(pe, t, [fn, pe, t] { fn(pe, t); });
    sys.run();
  }
  Platform& platform() { return sys.platform(); }
};

}  // namespace hpcnet::sim
