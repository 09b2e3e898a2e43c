// hpcnet/stencil.hpp: a 2-D Jacobi stencil over a grid of nodes, the program a driver writer would
// prototype against the machine (docs/machine.md, "The stencil"). Written only against the RDMA
// library (rdma.h) and libssm (ssm.h): it runs wherever they do.
//
// Grid: (px*tile) x (py*tile) interior points, node (x, y) = node id x + px*y owning the tile of
// points [x*tile, (x+1)*tile) x [y*tile, (y+1)*tile) (row y, column x; node ids as the mesh's, so
// neighbours are one hop apart). Boundary (outside the grid): fixed, `edge` on the north side (row
// -1), 0 elsewhere. Initial interior: 0. One step, on every node:
//   1. halo out: its tile's outermost rows and columns (tile doubles each) to its up to 4
//      neighbours, each an immediate RDMA write of tile*8 bytes into the neighbour's halo slot of
//      that side (a 128-byte aligned slot: with tile = 16, one packet), then rdma_quiet (every
//      halo written at its target);
//   2. barrier: ssm_barrier with io = 1 (every node's halos are in);
//   3. compute: u'(i,j) = 0.25 * ((u(i-1,j) + u(i+1,j)) + (u(i,j-1) + u(i,j+1))) over the tile,
//      the halo slots read for the neighbours' points, charged cycles_per_point per point
//      (Platform::compute), and the tile's residual max |u' - u|;
//   4. residual: ssm_reduce SSM_MAX over the nodes (io = 1): the global residual, the same on every
//      node; max is exact, so it is bit-identical to the host's whatever the tree's order.
// Every point sees the same operations in the same order as host_jacobi's: the results are
// bit-identical to the host's.
#pragma once

#include <cstdint>
#include <vector>

namespace hpcnet::stencil {

struct StencilConfig {
  unsigned px = 4, py = 4;          // nodes per row, per column (px * py nodes, ids 0 ..)
  unsigned tile = 16;               // points per side of a node's tile (tile * 8 bytes a halo, <= 128)
  unsigned steps = 10;
  double edge = 1.0;                // the fixed value north of the grid
  double cycles_per_point = 4.0;    // the CPU's cost of one point's update (4 flops, loads, store)
  uint64_t barrier_addr = 0x80000;  // SSM entries of the step's barrier and all-reduce
  uint64_t reduce_addr = 0x90000;
};

// The whole grid, row-major: point (row r, column c) at data[r * cols + c].
struct Grid {
  unsigned rows = 0, cols = 0;
  std::vector<double> data;
};

// The host's reference: `steps` Jacobi steps of the whole grid; the residual of each step.
Grid host_jacobi(const StencilConfig& c, std::vector<double>* residuals = nullptr);

// One node's run, time split into its parts (device cycles, Platform::now_cycles).
struct NodeResult {
  std::vector<double> tile;       // its final tile, row-major
  std::vector<double> residuals;  // the global residual of each step
  uint64_t compute = 0, halo = 0, sync = 0, total = 0;
  int error = 0;                  // the first RDMA or SSM error (negative), 0 when none
};

// Node `node`'s part, on one of its threads: opens an endpoint (VP 0 of every node: the halo slots'
// key is exchanged through `keys` and `vaddrs`, filled by each node before the others read them:
// the program starts with a barrier), runs the steps, closes it.
// keys/vaddrs: px*py entries shared by the nodes' threads (a job launcher's exchange).
NodeResult run_node(const StencilConfig& c, unsigned node, std::vector<uint16_t>& keys, std::vector<uint64_t>& vaddrs);

// The final tiles of every node put together (results in node order).
Grid gather(const StencilConfig& c, const std::vector<NodeResult>& results);

}  // namespace hpcnet::stencil
