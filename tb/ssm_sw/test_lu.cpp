// test_lu.cpp: SPLASH-2 LU on simulated shared memory: the host factorization, the
// barrier-synchronized version (software tournament barrier, engine ssm_barrier) and the
// ssm_put/ssm_get version, each bit-identical to the host result.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "hpcnet/baseline.hpp"
#include "hpcnet/lu.hpp"
#include "sim/host/shared_memory.hpp"
#include "sim/ssm/ssm_node.hpp"
#include "sw_node.hpp"

using namespace hpcnet;
using namespace hpcnet::lu;
using hpcnet::sim::SimSharedMemory;
using hpcnet::sim::SsmNode;
using hpcnet::sim::test::SwNode;

namespace {

bool same_bits(const BlockMatrix& a, const BlockMatrix& b) {
  return a.data.size() == b.data.size() && std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(double)) == 0;
}

BlockMatrix reference(const LuConfig& cfg) {
  BlockMatrix m = make_matrix(cfg);
  host_lu(m);
  return m;
}

}  // namespace

TEST_CASE("lu: the host factorization reproduces A", "[lu]") {
  for (auto [n, b] : {std::pair{64u, 8u}, {48u, 16u}, {32u, 32u}, {40u, 8u}}) {
    LuConfig cfg;
    cfg.n = n;
    cfg.block = b;
    const BlockMatrix a = make_matrix(cfg);
    BlockMatrix m = a;
    const uint64_t flops = host_lu(m);
    INFO("n=" << n << " b=" << b);
    CHECK(relative_residual(a, m) < 1e-12);
    // About 2n^3/3 flops.
    CHECK(flops > uint64_t{n} * n * n / 2);
    CHECK(flops < uint64_t{n} * n * n);
  }
  LuConfig bad;
  bad.n = 30;
  bad.block = 8;
  CHECK_THROWS_AS(make_matrix(bad), std::invalid_argument);
}

TEST_CASE("lu: block owners and readers", "[lu]") {
  SwNode n;
  LuConfig cfg;
  cfg.n = 64;
  cfg.block = 8;
  ParallelLu lu(n.shm, n.platform, cfg, SwNode::cpus(16));
  // 4 x 4 grid: owner(I, J) = I % 4 + (J % 4) * 4.
  CHECK(lu.owner(0, 0) == 0);
  CHECK(lu.owner(5, 0) == 1);
  CHECK(lu.owner(0, 5) == 4);
  CHECK(lu.owner(7, 7) == 15);
  CHECK(lu.readers(7, 7) == 0);          // last diagonal block: nobody reads it
  CHECK(lu.readers(0, 0) == 6);          // column 0 owners 1,2,3 and row 0 owners 4,8,12
  CHECK(lu.readers(6, 6) == 2);          // (7,6) owner 7+2*4 = 11, (6,7) owner 2+3*4 = 14
  ParallelLu six(n.shm, n.platform, cfg, SwNode::cpus(6));  // 2 x 3 grid
  CHECK(six.owner(2, 1) == 2 + 1 * 3);
}

TEST_CASE("lu: barrier version with the software tournament barrier is bit-exact", "[lu]") {
  LuConfig cfg;
  cfg.n = 64;
  cfg.block = 8;
  const BlockMatrix ref = reference(cfg);
  for (unsigned p : {1u, 4u, 6u, 16u}) {
    SwNode n;
    const auto cpus = SwNode::cpus(p);
    ParallelLu lu(n.shm, n.platform, cfg, cpus);
    baseline::TournamentBarrier bar(n.shm, cpus);
    lu.load(make_matrix(cfg));
    n.run(p, [&](unsigned id) { lu.touch(id); });
    n.run(p, [&](unsigned id) { lu.run_barrier(id, [&] { bar.wait(id); }); });
    INFO("P=" << p);
    CHECK(same_bits(lu.result(), ref));
    uint64_t flops = 0;
    for (unsigned id = 0; id < p; ++id) flops += lu.stats(id).flops;
    BlockMatrix m = make_matrix(cfg);
    CHECK(flops == host_lu(m));
  }
}

TEST_CASE("lu: put/get version on the engine is bit-exact", "[lu][ssm]") {
  LuConfig cfg;
  cfg.n = 64;
  cfg.block = 8;
  const BlockMatrix ref = reference(cfg);
  for (unsigned p : {4u, 16u}) {
    SsmNode node;
    SimSharedMemory shm(node.sys);
    std::vector<CpuId> cpus;
    for (unsigned i = 0; i < p; ++i) cpus.push_back(CpuId{i / 4, i % 4});
    ParallelLu lu(shm, node.platform(), cfg, cpus);
    lu.load(make_matrix(cfg));
    node.run_all([&](unsigned pe, unsigned t) { lu.touch(pe * 4 + t); }, p);
    node.run_all([&](unsigned pe, unsigned t) { lu.run_putget(pe * 4 + t, 0x100000); }, p);
    INFO("P=" << p);
    CHECK(same_bits(lu.result(), ref));
    // Every ready word was read by exactly its readers: gets = sum of readers, puts = blocks read.
    uint64_t gets = 0, puts = 0, want_gets = 0, want_puts = 0;
    for (unsigned id = 0; id < p; ++id) {
      gets += lu.stats(id).gets;
      puts += lu.stats(id).puts;
    }
    const unsigned nb = cfg.n / cfg.block;
    for (unsigned I = 0; I < nb; ++I)
      for (unsigned J = 0; J < nb; ++J) {
        want_gets += lu.readers(I, J);
        want_puts += lu.readers(I, J) > 0;
      }
    CHECK(gets == want_gets);
    CHECK(puts == want_puts);
    CHECK(node.drv.errors().empty());
  }
}

TEST_CASE("lu: barrier version with the engine's ssm_barrier is bit-exact", "[lu][ssm][hw]") {
  LuConfig cfg;
  cfg.n = 64;
  cfg.block = 8;
  const BlockMatrix ref = reference(cfg);
  const unsigned p = 16;
  SsmNode node;
  SimSharedMemory shm(node.sys);
  std::vector<CpuId> cpus;
  for (unsigned i = 0; i < p; ++i) cpus.push_back(CpuId{i / 4, i % 4});
  ParallelLu lu(shm, node.platform(), cfg, cpus);
  lu.load(make_matrix(cfg));
  int bad = 0;
  node.run_all(
      [&](unsigned pe, unsigned t) {
        lu.run_barrier(pe * 4 + t, [&] {
          if (ssm_barrier(0x200000, p, 0) != SSM_OK) ++bad;
        });
      },
      p);
  CHECK(bad == 0);
  CHECK(same_bits(lu.result(), ref));
}
