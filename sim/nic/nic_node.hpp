// sim/nic/nic_node.hpp: a node with a NIC on its PCIe bus (and, with `with_ssm`, the SSM beside it
// on the same host memory): the node every NIC system is made of (the two-node pair, nic_pair.hpp;
// the machine on the router network, sim/machine/machine.hpp).
#pragma once

#include "sim/host/pcie.hpp"
#include "sim/host/sim_platform.hpp"
#include "sim/nic/nic_device.hpp"
#include "sim/ssm/ssm_device.hpp"
#include "sim/system/cluster.hpp"

namespace hpcnet::sim {

struct NicNodeConfig {
  unsigned num_pe = 4;
  unsigned num_threads = 8;       // per PE: 32 threads, one per VP
  double clock_mhz = 312.5;       // the NIC core clock; the node runs at it
  PcieConfig pcie{};              // 8 GB/s each way, 0.8 us reads, MPS/MRRS 256, 24 B per TLP
  BusConfig pio = pcie_pio_bus(); // uncached word every 20 cycles, WC 64-byte bursts
  CpuCosts cpu{};
  bool with_ssm = false;          // an SSM on each node too (the node's second device)
  NicMake nic_make = nullptr;     // the nic_top model (an entry of nic_models(); nullptr: the default)
};

// The devices of a NIC node added to the cluster.
struct NicNodeDevices {
  Node* node = nullptr;
  NicDevice* nic = nullptr;
  SsmDevice* ssm = nullptr;  // with_ssm only
};

// Adds a node holding a NIC (traced through `trace`) and, with cfg.with_ssm, an SSM.
NicNodeDevices add_nic_node(Cluster& c, const NicNodeConfig& cfg, TraceWindow trace);

}  // namespace hpcnet::sim
