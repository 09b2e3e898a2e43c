// hpcnet/sim/ssm_system.hpp: one simulated node around the SSM engine: host memory, host bus,
// software threads and the Platform the driver uses, clocked together cycle by cycle.
//
//   hpcnet::sim::SsmSystem sys;                       // Verilated ssm_top, 5 PEs x 4 threads
//   sys.spawn(0, 0, [&] { auto& p = sys.platform(); p.mmio_write64(0x0, 1); ... });
//   sys.run();                                        // until every spawned thread returned
//
// Each cycle: host memory drives the DMA port; due threads run; the bus drives the MMIO port;
// the DUT settles; bus and memory sample the handshakes; the irq line is passed on; clock edge.
// Progress for the watchdog = MMIO + DMA requests accepted + threads finished + interrupt
// handler calls + note_progress(); a thread spinning on a poll is not progress.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "hpcnet/sim/host_bus.hpp"
#include "hpcnet/sim/host_memory.hpp"
#include "hpcnet/sim/scheduler.hpp"
#include "hpcnet/sim/sim_platform.hpp"
#include "hpcnet/sim/ssm_dut.hpp"
#include "hpcnet/sim/watchdog.hpp"

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
  bool gsn_loopback = true;           // single node: the GSN port loops up back to down
                                      // (false: a GsnSystem drives it)
  unsigned reset_cycles = 10;
  size_t stack_bytes = 256 * 1024;
};

struct SsmStats {
  uint64_t cycles = 0;
  BusStats bus;
  MemStats mem;
  uint64_t threads_finished = 0;
  uint64_t irq_calls = 0;
};

class SsmSystem {
 public:
  explicit SsmSystem(SsmSystemConfig cfg = {});
  SsmSystem(SsmSystemConfig cfg, std::unique_ptr<SsmDut> dut);  // e.g. a C++ fake
  ~SsmSystem();
  SsmSystem(const SsmSystem&) = delete;
  SsmSystem& operator=(const SsmSystem&) = delete;

  const SsmSystemConfig& config() const { return cfg_; }
  SimPlatform& platform() { return platform_; }
  HostMemory& memory() { return mem_; }
  HostBus& bus() { return bus_; }
  Scheduler& scheduler() { return sched_; }
  SsmDut& dut() { return *dut_; }

  Scheduler::ThreadId spawn(unsigned pe, unsigned thread, std::function<void()> fn, std::string name = {});
  void run();                                  // until all spawned threads have returned
  void run_for(uint64_t cycles);               // exactly this many cycles
  void run_until(const std::function<bool()>& done);  // checked before each cycle
  void step();                                 // one cycle
  // step() in two halves, for systems that connect several nodes (GsnSystem): begin_cycle()
  // runs host models and threads and settles the DUT; the caller may then set ports().gsn's
  // network-driven fields and call settle() again; end_cycle() samples and clocks.
  void begin_cycle();
  void settle();
  void end_cycle();
  DevicePorts& ports() { return ports_; }

  uint64_t cycles() const { return now_; }     // rising edges since construction (reset included)
  double ns(uint64_t cycles) const { return static_cast<double>(cycles) * 1000.0 / cfg_.clock_mhz; }
  SsmStats stats() const;
  uint64_t progress() const;
  void note_progress() { ++user_progress_; }
  // Extra text for a Stall message (e.g. a dump of DUT state).
  void set_stall_dump(std::function<std::string()> fn) { stall_dump_ = std::move(fn); }

 private:
  void check_limits();
  std::string stall_report() const;

  SsmSystemConfig cfg_;
  std::unique_ptr<SsmDut> dut_;
  HostMemory mem_;
  Scheduler sched_;
  HostBus bus_;
  SimPlatform platform_;
  Watchdog watchdog_;
  DevicePorts ports_;
  uint64_t now_ = 0;
  uint64_t user_progress_ = 0;
  bool loop_full_ = false;   // GSN loopback register
  GsnMsg loop_msg_;
  uint64_t gsn_msgs_ = 0;
  std::function<std::string()> stall_dump_;
};

}  // namespace hpcnet::sim
