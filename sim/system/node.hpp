// sim/system/node.hpp: one simulated node: its devices on one host bus, one host memory shared by
// every device's DMA port, one interrupt line per device, the node's software threads, and the
// Platform its drivers use.
//
// The host bus decodes one register window per device, each with today's timing model (HostBus;
// a device's own BusConfig from device_bus, else `bus`); host memory serves every device's DMA
// port with one bandwidth/latency model, round-robin under contention (HostMemory); the host-side
// links a device declares (Device::make_host_links: a NIC's PCIe link, a PcieDma over the same
// host memory's bytes) are made over that memory and run with the host models. The node does not
// clock itself: a Cluster (system/cluster.hpp) runs its
// phases in the documented order, alone or with other nodes and fabrics.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/scheduler.hpp"
#include "sim/host/host_bus.hpp"
#include "sim/host/host_link.hpp"
#include "sim/host/host_memory.hpp"
#include "sim/host/sim_platform.hpp"
#include "sim/system/device.hpp"

namespace hpcnet::sim {

struct NodeConfig {
  unsigned num_pe = 5;
  unsigned num_threads = 4;   // per PE
  MemConfig mem;              // latency 60, 8 B/cycle, 16 outstanding (shared by the devices)
  BusConfig bus;              // per device window: latency 40, spacing 2, 16-entry posted buffer
  CpuCosts cpu;               // mmio write 1, memory 20, relax 4, irq 100
  double clock_mhz = 200.0;
  unsigned reset_cycles = 10;
  size_t stack_bytes = 256 * 1024;
  std::map<DeviceId, BusConfig> device_bus{};  // these devices' windows use their own BusConfig
                                               // (a NIC: pcie_pio_bus())
};

struct NodeStats {
  uint64_t cycles = 0;
  BusStats bus;   // summed over the device windows
  MemStats mem;
  uint64_t threads_finished = 0;
  uint64_t irq_calls = 0;
};

class Node {
 public:
  // Takes the devices (at least one; ids distinct) and holds them in reset for reset_cycles.
  Node(NodeConfig cfg, std::vector<std::unique_ptr<Device>> devices);
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const NodeConfig& config() const { return cfg_; }
  SimPlatform& platform() { return platform_; }
  HostMemory& memory() { return mem_; }
  Scheduler& scheduler() { return sched_; }
  size_t num_devices() const { return devices_.size(); }
  Device& device(size_t index) { return *devices_.at(index); }
  HostBus& bus(size_t index) { return *buses_.at(index); }  // the device's register window
  size_t num_host_links(size_t index) const { return links_.at(index).size(); }  // the device's (make_host_links)

  Scheduler::ThreadId spawn(unsigned pe, unsigned thread, std::function<void()> fn, std::string name = {});
  bool threads_done() const { return sched_.all_done(); }
  uint64_t cycles() const { return now_; }  // rising edges since construction (reset included)
  NodeStats stats() const;

  // The step loop's phases (Cluster::step calls them in this order, with the fabrics' between).
  void drive();   // host memory and host links (DMA responses, readies), due threads, host buses (MMIO requests)
  void eval();    // every device settles
  void sample();  // host buses, host memory, host links, interrupt lines take this cycle's handshakes
  void edge();    // every device's clock edge; the node's cycle count advances
  void close_traces();

  // For the watchdog: MMIO and DMA requests accepted (the host links' progress included: PCIe
  // read requests, write beats and read frames), threads finished, interrupt handler calls, the devices' own progress and
  // note_progress(); a thread spinning on a poll is not progress.
  uint64_t progress() const;
  void note_progress() { ++user_progress_; }
  std::string describe() const;  // threads, bus, DMA and irq state, for a stall report

 private:
  NodeConfig cfg_;
  std::vector<std::unique_ptr<Device>> devices_;
  HostMemory mem_;
  Scheduler sched_;
  std::vector<std::unique_ptr<HostBus>> buses_;
  SimPlatform platform_;
  std::vector<DmaPort*> dma_;
  std::vector<std::vector<std::unique_ptr<HostLink>>> links_;  // per device: its host-side links
  uint64_t now_ = 0;
  uint64_t user_progress_ = 0;
};

}  // namespace hpcnet::sim
