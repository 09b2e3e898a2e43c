// test_stencil.cpp: the 2-D Jacobi stencil (hpcnet/stencil.hpp) on the machine: halos by RDMA over
// the router network, the barrier and the residual's all-reduce by the SSMs over the sync tree;
// the grid and every step's residual bit-identical to the host's computation.
#include <cstring>

#include "hpcnet/stencil.hpp"
#include "machine_tb.hpp"

namespace {

namespace st = hpcnet::stencil;

void stencil_run(hpcnet::sim::MeshShape shape, hpcnet::sim::NetMode mode, st::StencilConfig c) {
  MachineConfig cfg;
  cfg.net.shape = shape;
  cfg.net.mode = mode;
  cfg.node.with_ssm = true;
  cfg.max_cycles = 5'000'000;
  Machine m(cfg);
  const unsigned n = m.nodes();
  std::vector<uint16_t> keys(n);
  std::vector<uint64_t> vaddrs(n);
  std::vector<st::NodeResult> res(n);
  for (unsigned i = 0; i < n; ++i) m.spawn(i, 0, 0, [&, i] { res[i] = st::run_node(c, i, keys, vaddrs); });
  m.run();
  std::vector<double> want_res;
  const st::Grid want = st::host_jacobi(c, &want_res);
  for (unsigned i = 0; i < n; ++i) {
    INFO("node " << i);
    REQUIRE(res[i].error == 0);
    REQUIRE(res[i].residuals.size() == want_res.size());
    REQUIRE(std::memcmp(res[i].residuals.data(), want_res.data(), want_res.size() * sizeof(double)) == 0);
    CHECK(res[i].compute > 0);
    CHECK(res[i].halo > 0);
    CHECK(res[i].sync > 0);
  }
  const st::Grid got = st::gather(c, res);
  REQUIRE(got.data.size() == want.data.size());
  REQUIRE(std::memcmp(got.data.data(), want.data.data(), want.data.size() * sizeof(double)) == 0);
  // the heat has spread: a point in the last row of the grid changed only if steps >= rows
  CHECK(want_res.back() > 0.0);
  CHECK(want_res.back() < want_res.front());
}

}  // namespace

TEST_CASE("machine: the Jacobi stencil on 16 nodes is bit-identical to the host's (4x4 DOR-VCT and ADBR)", "[machine]") {
  st::StencilConfig c;
  c.px = 4;
  c.py = 4;
  c.tile = 16;
  c.steps = 12;
  SECTION("DOR-VCT") { stencil_run({4, 4}, hpcnet::sim::NetMode::dor_vct, c); }
  SECTION("ADBR") { stencil_run({4, 4}, hpcnet::sim::NetMode::adbr, c); }
}
