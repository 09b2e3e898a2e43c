// sim/gsn/ssm_tree_barrier.hpp: the SSM's inter-node barrier over the global sync tree, measured at
// one node count: GsnSystem (one SSM per node, the Verilated gsn_tree between them, every node's
// driver booted) with one thread per node calling ssm_barrier(addr, 1, io=1) through libssm, the
// code a user program runs. The SSM side of the barrier comparison of issue 22 (docs/barrier.md:
// the router mesh's multiphase barrier, the all-to-all barrier, this one).
//
// The tree protocol (docs/gsn.md): each SSM sends one 128-bit message up its leaf link; every tree
// node waits for all its children, sends one combined message up to its parent; the root turns it
// around; every node copies the down message to each child. So each link carries one message up
// and one down per barrier. The counts here are the tree's own handshakes, not that formula
// (sim/gsn/gsn_links.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/errors.hpp"

namespace hpcnet::sim {

// A barrier of the measurement failed: an io=1 call returned an error, or the leaves saw other
// than one message up and one down per barrier.
struct TreeBarrierFailed : SimError {
  using SimError::SimError;
};

struct SsmTreeBarrier {
  unsigned nodes = 0;
  unsigned barriers = 0;          // barriers measured (back to back, after a warm-up one)
  // Mean, per barrier: from the last node's call to the last node's release, in cycles of the one
  // clock the cluster steps: the nodes' device clock (SsmSystemConfig::clock_mhz, 200 MHz), which
  // also clocks the tree and the simulated CPUs (Platform::now_cycles()). Mostly the node's own
  // work (MMIO calls, the SSM, the return written by DMA); the release is seen by a poll of the
  // return slot every 24 cycles, which can hide the tree's 3 cycles a level
  // (SsmTreeDetail::tree_cycles has the tree's part alone).
  double latency_cycles = 0;
  double latency_ns = 0;          // the same in ns
  uint64_t max_latency_cycles = 0;
  double link_messages = 0;       // messages on the sync tree's links per barrier, all links, both directions
  double link_bits = 0;           // their size in bits per barrier (128 per message: gsn_formats::Msg)
  unsigned tree_levels = 0;       // depth of the tree at this node count, as the model has it
  unsigned links = 0;             // tree links: one per leaf, one per tree node but the root
};

// Builds the cluster of `nodes` SSMs on the tree (2, 4, 16, 64: the built trees; anything else:
// std::invalid_argument naming them), runs one warm-up barrier, then `barriers` (>= 1) back to back
// on every node and measures. A barrier that fails throws TreeBarrierFailed.
SsmTreeBarrier measure_ssm_tree_barrier(unsigned nodes, unsigned barriers);

// What a measurement saw, for checks (tb/system/test_ssm_tree_barrier.cpp).
struct SsmTreeDetail {
  // [barrier][node]: the node's Platform::now_cycles() just before its call and just after its return
  std::vector<std::vector<uint64_t>> call, release;
  // per level of links ([0]: the leaf links SSM <-> bottom tree node, [l]: tree level l-1 <-> l):
  // the links, and the messages up and down over the measured barriers
  std::vector<unsigned> level_links;
  std::vector<uint64_t> level_up, level_down;
  uint64_t leaf_up_at_ports = 0;  // up messages the fabric saw at the SSMs' ports (a second count of level 0 up)
  // [barrier]: the tree's own part, watched at the SSMs' ports: from the cycle the last SSM's up
  // message was taken to the cycle the last SSM took its down message
  std::vector<uint64_t> tree_cycles;
};

struct SsmTreeOptions {
  // In every measured barrier this node spends `late_cycles` computing before its call (0: all
  // nodes call together), so that the others wait for it.
  unsigned late_node = 0;
  uint64_t late_cycles = 0;
  SsmTreeDetail* detail = nullptr;  // filled when given
};

SsmTreeBarrier measure_ssm_tree_barrier(unsigned nodes, unsigned barriers, const SsmTreeOptions& options);

}  // namespace hpcnet::sim
