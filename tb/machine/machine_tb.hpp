// machine_tb.hpp: helpers of the machine tests: a machine with one endpoint open on every node
// and a registered buffer on each, whose keys every node knows (as a job launcher would exchange
// them), and runs of one simulated thread per node.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <vector>

#include "hpcnet/platform.hpp"
#include "hpcnet/rdma.h"
#include "sim/machine/machine.hpp"

namespace machine_tb {

using hpcnet::sim::Machine;
using hpcnet::sim::MachineConfig;

struct Job {
  Machine m;
  std::vector<rdma_ep*> ep;
  std::vector<uint64_t> va;   // each node's buffer
  std::vector<uint16_t> key;
  size_t bytes;

  Job(MachineConfig cfg, size_t buf_bytes) : m(std::move(cfg)), ep(m.nodes()), va(m.nodes()), key(m.nodes()), bytes(buf_bytes) {
    each([&](unsigned n) {
      REQUIRE(rdma_open(&ep[n]) == 0);
      va[n] = rdma_alloc(ep[n], bytes, 0);
      REQUIRE(rdma_reg_mr(ep[n], va[n], bytes, RDMA_ACCESS_READ | RDMA_ACCESS_WRITE, &key[n]) == 0);
    });
  }
  // fn(node) on a thread of every node, run until all returned
  void each(const std::function<void(unsigned)>& fn) {
    for (unsigned n = 0; n < m.nodes(); ++n) m.spawn(n, 0, 0, [fn, n] { fn(n); });
    m.run();
  }
  std::vector<uint8_t> image(unsigned n) {
    std::vector<uint8_t> v(bytes);
    rdma_mem_read(ep[n], va[n], v.data(), bytes);
    return v;
  }
  void fill(unsigned n, const std::vector<uint8_t>& v) { rdma_mem_write(ep[n], va[n], v.data(), v.size()); }
};

inline rdma_opts tb_opts(uint16_t tag = 0, unsigned flags = 0) {
  rdma_opts o{};
  o.tag = tag;
  o.flags = flags;
  o.submit = -1;
  return o;
}

}  // namespace machine_tb
