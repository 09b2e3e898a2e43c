// test_nic_c_api.cpp: the RDMA library called from C code (tb/nic/c_client.c) on simulated
// threads of the two nodes: a write, a read back after a fence, a mini-packet.
#include <catch2/catch.hpp>

#include <cstdint>

#include "hpcnet/rdma.h"
#include "sim/nic/nic_pair.hpp"

extern "C" {
int c_target(rdma_ep** ep, uint64_t* vaddr, uint16_t* key, unsigned* vp, size_t n);
int c_initiator(unsigned node, unsigned vp, uint64_t remote, uint16_t rkey, size_t n);
int c_wait_done(rdma_ep* ep);
}

TEST_CASE("nic: the RDMA library called from C", "[nic]") {
  hpcnet::sim::NicPair pair;
  rdma_ep* t = nullptr;
  uint64_t va = 0;
  uint16_t key = 0;
  unsigned vp = 0;
  int rt = -1, ri = -1, rw = -1;
  pair.spawn(1, 0, 0, [&] { rt = c_target(&t, &va, &key, &vp, 200); });
  pair.run();
  REQUIRE(rt == 0);
  pair.spawn(0, 0, 0, [&] { ri = c_initiator(1, vp, va, key, 200); });
  pair.spawn(1, 0, 0, [&] { rw = c_wait_done(t); });
  pair.run();
  CHECK(ri == 0);
  CHECK(rw == 4);
}
