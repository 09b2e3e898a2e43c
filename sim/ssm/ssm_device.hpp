// sim/ssm/ssm_device.hpp: the SSM engine as a device of a node: host side (MMIO, DMA, irq) and
// its link to the global sync network (gsn()). Implemented for the Verilated models
// (make_ssm_device) and by C++ fakes in tests.
#pragma once

#include <memory>
#include <vector>

#include "hpcnet/ssm_driver.hpp"
#include "sim/core/harness.hpp"
#include "sim/core/model_table.hpp"
#include "sim/ssm/gsn_port.hpp"
#include "sim/system/device.hpp"

namespace hpcnet::sim {

class SsmDevice : public Device {
 public:
  SsmDevice() : Device(ssm::kDeviceId, "ssm") {}
  GsnPort& gsn() { return gsn_; }

 protected:
  GsnPort gsn_;
};

// The built ssm_top models (generated: every Vssm_top* of rtl/ssm/models.cmake).
using SsmMake = std::unique_ptr<SsmDevice> (*)(double clock_mhz, TraceWindow trace);
const std::vector<ModelEntry<SsmMake>>& ssm_models();

// The Verilated ssm_top with num_cores cores (Vssm_top: 2, Vssm_top_1core: 1), with a trace window;
// std::invalid_argument naming the built models when there is none.
std::unique_ptr<SsmDevice> make_ssm_device(unsigned num_cores, double clock_mhz = 200.0, TraceWindow trace = {});

}  // namespace hpcnet::sim
