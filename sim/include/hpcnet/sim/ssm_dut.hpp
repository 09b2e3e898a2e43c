// hpcnet/sim/ssm_dut.hpp: the SSM engine as SsmSystem sees it, one cycle at a time.
// Implemented for the Verilated models (make_ssm_dut) and by C++ fakes in tests.
#pragma once

#include <cstdint>
#include <memory>

#include "hpcnet/sim/harness.hpp"
#include "hpcnet/sim/ports.hpp"

namespace hpcnet::sim {

class SsmDut {
 public:
  virtual ~SsmDut() = default;
  virtual void set_reset(bool asserted) = 0;
  // Apply the host-driven fields of `ports`, settle (clock low), fill in the device-driven fields.
  virtual void eval(DevicePorts& ports) = 0;
  // Rising clock edge.
  virtual void edge() = 0;
  // Flush and close any open waveform (called before an error is reported).
  virtual void close_trace() {}
};

// Verilated ssm_top (Vssm_top for 2 cores, Vssm_top_1core for 1), with a trace window.
std::unique_ptr<SsmDut> make_ssm_dut(unsigned num_cores, double clock_mhz = 200.0, TraceWindow trace = {});

}  // namespace hpcnet::sim
