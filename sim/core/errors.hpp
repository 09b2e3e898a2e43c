// sim/core/errors.hpp: exceptions thrown by the simulation (all derive from SimError).
#pragma once

#include <atomic>
#include <cstdint>
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

// The run was interrupted (Ctrl-C): a signal handler called request_interrupt(), and the step
// loops (Cluster::step, NetEngine::end_cycle: between two cycles, on the thread that runs the
// loop) threw this, so that the caller can write what it finished (docs/cli.md).
struct Interrupted : SimError {
  using SimError::SimError;
};
inline std::atomic<int> g_interrupt{0};  // the signal number asked for; 0: none (lock-free: safe in a handler)
inline void request_interrupt(int signal) { g_interrupt.store(signal, std::memory_order_relaxed); }
inline int interrupt_requested() { return g_interrupt.load(std::memory_order_relaxed); }
inline void throw_if_interrupted(uint64_t cycle) {
  if (interrupt_requested()) [[unlikely]]
    throw Interrupted("interrupted at cycle " + std::to_string(cycle));
}

}  // namespace hpcnet::sim
