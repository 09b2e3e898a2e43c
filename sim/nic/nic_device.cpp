// nic_device.cpp: the NIC device from the table of built nic_top models.
#include "sim/nic/nic_device.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::sim {

std::unique_ptr<NicDevice> make_nic_device(double clock_mhz, TraceWindow trace) {
  if (nic_models().empty()) throw std::invalid_argument("make_nic_device: no nic_top model was built");
  return nic_models().front().make(clock_mhz, std::move(trace));
}

}  // namespace hpcnet::sim
