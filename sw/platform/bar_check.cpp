// bar_check.cpp: the SSM driver and libssm built against BarPlatform, a platform with no
// simulator behind it. The build links this program to prove the driver sources need nothing
// from sim/; it is never run (there is no device here).
#include <cstdio>

#include "bar_platform.hpp"
#include "hpcnet/ssm.h"
#include "hpcnet/ssm_driver.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s /sys/bus/pci/devices/<bdf>/resource0 (compile-only check)\n", argv[0]);
    return 2;
  }
  hpcnet::BarPlatformConfig cfg;
  cfg.devices.push_back({hpcnet::ssm::kDeviceId, argv[1], 64 * 1024, ""});
  hpcnet::BarPlatform node(cfg);
  hpcnet::ssm::Driver drv(node);
  drv.init();
  hpcnet::ssm::ssm_attach(&drv);
  return ssm_barrier(0x1000, 1, 0) == SSM_OK ? 0 : 1;
}
