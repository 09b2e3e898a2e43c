// sim/core/errors.hpp: exceptions thrown by the simulation (all derive from SimError).
#pragma once

#include <stdexcept>
#include <string>

namespace hpcnet::sim {

struct SimError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// No progress for the watchdog's limit of cycles.
struct Stall : SimError {
  using SimError::SimError;
};
// An RTL assertion (or $error) fired; Verilator printed its message on stderr.
struct AssertionFailed : SimError {
  using SimError::SimError;
};
// The DUT broke its port contract (e.g. a DMA request crossing a 32-byte boundary).
struct ProtocolError : SimError {
  using SimError::SimError;
};
// A run exceeded its configured maximum number of cycles.
struct Timeout : SimError {
  using SimError::SimError;
};

}  // namespace hpcnet::sim
