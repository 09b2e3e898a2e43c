// ssm_device.cpp: the SSM device from the table of built ssm_top models.
#include "sim/ssm/ssm_device.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::sim {

std::unique_ptr<SsmDevice> make_ssm_device(unsigned num_cores, double clock_mhz, TraceWindow trace) {
  const auto* m = find_model(ssm_models(), {{"NumCores", long(num_cores)}}, {{"NumCores", 2}});
  if (!m)
    throw std::invalid_argument(fmt::format("make_ssm_device: no model with {} cores (built: {})", num_cores,
                                            model_names(ssm_models())));
  return m->make(clock_mhz, std::move(trace));
}

}  // namespace hpcnet::sim
