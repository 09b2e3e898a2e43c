// Integration: libssm called from C code (tb/ssm/c_client.c) on simulated threads.
#include <catch2/catch.hpp>

#include "sim/ssm/ssm_node.hpp"

extern "C" {
int c_produce(uint64_t mailbox, uint64_t lock, uint64_t base, unsigned n);
uint64_t c_consume(uint64_t mailbox, unsigned n, int small);
}

using hpcnet::sim::SsmNode;

TEST_CASE("ssm: the C API drives a producer and a consumer", "[ssm][c]") {
  SsmNode n;
  int rc = -1;
  uint64_t sum = 0;
  n.sys.spawn(0, 1, [&] { rc = c_produce(0xA000, 0xB000, 1000, 50); });
  n.sys.spawn(4, 3, [&] { sum = c_consume(0xA000, 50, 0); });
  n.sys.run();
  CHECK(rc == SSM_OK);
  CHECK(sum == 50 * 1000 + 49 * 50 / 2);
}
