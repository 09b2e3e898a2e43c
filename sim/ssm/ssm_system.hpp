// sim/ssm/ssm_system.hpp: one simulated node around the SSM engine, as a configuration of the
// system layer: a Cluster of one Node holding the SSM (and any extra devices given), with the
// GSN loopback as its only fabric.
//
//   hpcnet::sim::SsmSystem sys;                       // Verilated ssm_top, 5 PEs x 4 threads
//   sys.spawn(0, 0, [&] { sys.io().mmio_write64(0x0, 1); ... });
//   sys.run();                                        // until every spawned thread returned
//
// The per-cycle order is the cluster's (sim/system/cluster.hpp). Progress for the watchdog =
// MMIO + DMA requests accepted + threads finished + interrupt handler calls + GSN messages +
// note_progress(); a thread spinning on a poll is not progress.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/ssm/ssm_device.hpp"
#include "sim/system/cluster.hpp"

namespace hpcnet::sim {

struct SsmSystemConfig {
  unsigned num_pe = 5;
  unsigned num_threads = 4;   // per PE
  unsigned num_cores = 2;     // 2: Vssm_top, 1: Vssm_top_1core
  MemConfig mem;              // latency 60, 8 B/cycle, 16 outstanding
  BusConfig bus;              // latency 40, spacing 2, 16-entry posted buffer
  CpuCosts cpu;               // mmio write 1, memory 20, relax 4, irq 100
  double clock_mhz = 200.0;
  TraceWindow trace;          // {file, first, last}; empty file: no tracing
  uint64_t watchdog_cycles = 200000;  // 0: off
  uint64_t max_cycles = 0;            // 0: no limit; otherwise run*() throw Timeout beyond it
  bool gsn_loopback = true;           // the GSN port loops up back to down (false: left idle)
  unsigned reset_cycles = 10;
  size_t stack_bytes = 256 * 1024;

  NodeConfig node() const { return {num_pe, num_threads, mem, bus, cpu, clock_mhz, reset_cycles, stack_bytes}; }
};

using SsmStats = NodeStats;

class SsmSystem {
 public:
  explicit SsmSystem(SsmSystemConfig cfg = {});
  // A given first device (e.g. a C++ fake) and extra devices on the same host bus and memory.
  SsmSystem(SsmSystemConfig cfg, std::unique_ptr<Device> first, std::vector<std::unique_ptr<Device>> more = {});
  SsmSystem(const SsmSystem&) = delete;
  SsmSystem& operator=(const SsmSystem&) = delete;

  const SsmSystemConfig& config() const { return cfg_; }
  Cluster& cluster() { return cluster_; }
  Node& node() { return *node_; }
  SimPlatform& platform() { return node_->platform(); }  // the node, as drivers see it
  Platform::Device& io() { return node_->platform().io(0); }  // the first device's window and irq
  HostMemory& memory() { return node_->memory(); }
  HostBus& bus() { return node_->bus(0); }
  Scheduler& scheduler() { return node_->scheduler(); }

  Scheduler::ThreadId spawn(unsigned pe, unsigned thread, std::function<void()> fn, std::string name = {});
  void run() { cluster_.run(); }
  void run_for(uint64_t cycles) { cluster_.run_for(cycles); }
  void run_until(const std::function<bool()>& done) { cluster_.run_until(done); }
  void step() { cluster_.step(); }

  uint64_t cycles() const { return node_->cycles(); }  // rising edges since construction (reset included)
  double ns(uint64_t cycles) const { return static_cast<double>(cycles) * 1000.0 / cfg_.clock_mhz; }
  SsmStats stats() const { return node_->stats(); }
  uint64_t progress() const { return cluster_.progress(); }
  void note_progress() { cluster_.note_progress(); }
  void set_stall_dump(std::function<std::string()> fn) { cluster_.set_stall_dump(std::move(fn)); }

 private:
  SsmSystemConfig cfg_;
  Cluster cluster_;
  Node* node_ = nullptr;
};

}  // namespace hpcnet::sim
