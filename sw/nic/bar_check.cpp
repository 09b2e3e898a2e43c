// bar_check.cpp: the NIC driver and the RDMA library built against BarPlatform, a platform with no
// simulator behind it, as sw/platform/bar_check.cpp builds the SSM's. The build links this program
// to prove that the NIC's software needs nothing from sim/; it is never run (there is no device here).
#include <cstdio>
#include <string>

#include "bar_platform.hpp"
#include "hpcnet/nic_driver.hpp"
#include "hpcnet/rdma.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s /sys/bus/pci/devices/<bdf>/resource0 /dev/uioN (compile-only check)\n", argv[0]);
    return 2;
  }
  hpcnet::BarPlatformConfig cfg;
  const std::string bar = argv[1];
  cfg.devices.push_back({hpcnet::nic::kDeviceId, bar, hpcnet::nic_formats::BAR_BYTES, argv[2], bar + "_wc"});
  hpcnet::BarPlatform node(cfg);
  hpcnet::nic::Driver drv(node);
  drv.init(0);
  hpcnet::nic::rdma_attach(&drv);
  rdma_ep* ep = nullptr;
  const int rc = rdma_open(&ep);
  if (rc == 0) {
    rdma_quiet(ep);
    rdma_close(ep);
  }
  hpcnet::nic::rdma_detach(&drv);
  return rc == 0 ? 0 : 1;
}
