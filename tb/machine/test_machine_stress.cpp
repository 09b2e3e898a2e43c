// test_machine_stress.cpp: 16 nodes at saturation (machine_stress.hpp; messages of 1 to 1,024
// bytes at any offset: up to 9 packets, interleaved at the receivers; a fifth of the writes with a
// remote event): every byte and every event's 16 bytes intact, every
// read right, every mini-packet once, every batch's completions in (rdma_quiet), no deadlock (the
// cluster's watchdog), on a 4x4 mesh in ADBR, DOR-VCT and DOR-WH (wormhole: a packet may span
// routers) and on a 4x4 torus, and with faults on every NIC's link.
#include "hpcnet/tb/seed.hpp"
#include "machine_stress.hpp"

using namespace machine_tb;
using hpcnet::sim::MeshShape;
using hpcnet::sim::NetMode;

namespace {

MachineConfig stress_cfg(MeshShape shape, NetMode mode) {
  MachineConfig c;
  c.net.shape = shape;
  c.net.mode = mode;
  c.max_cycles = 20'000'000;
  return c;
}

// Returns the faults injected on the NIC links (both ways).
uint64_t stress_case(MachineConfig cfg, const StressConfig& sc, const char* name) {
  const uint64_t seed = hpcnet::tb::seed(name);
  const unsigned N = cfg.net.shape.nodes();
  Job job(std::move(cfg), stress_bytes(sc, N));
  const uint64_t t0 = job.m.cycles();
  const StressTotals t = stress_run(job, sc, seed);
  WARN("cycles " << job.m.cycles() - t0 << ", " << t.batches << " batches, " << t.writes << " writes (" << t.bytes << " bytes, "
                 << t.events << " with remote events), " << t.reads << " reads, " << t.mps << " mini-packets");
  CHECK(t.writes > 50 * N);
  CHECK(t.reads > 20 * N);
  CHECK(t.mps > 10 * N);
  CHECK(t.events > 10 * N);
  uint64_t faults = 0;
  for (unsigned i = 0; i < N; ++i) faults += job.m.net().wire(i).wire(0).log().size() + job.m.net().wire(i).wire(1).log().size();
  return faults;
}

}  // namespace

TEST_CASE("machine: 16 nodes write read and send to each other at saturation (4x4 in the three router modes and a 4x4 torus)", "[machine]") {
  StressConfig sc;
  sc.cycles = 30000;
  SECTION("ADBR") { stress_case(stress_cfg({4, 4}, NetMode::adbr), sc, "machine stress adbr"); }
  SECTION("DOR-VCT") { stress_case(stress_cfg({4, 4}, NetMode::dor_vct), sc, "machine stress dorvct"); }
  SECTION("DOR-WH") { stress_case(stress_cfg({4, 4}, NetMode::dor_wh), sc, "machine stress dorwh"); }
  SECTION("torus") { stress_case(stress_cfg(MeshShape(4, 4).as_torus(), NetMode::dor_vct), sc, "machine stress torus"); }
}

TEST_CASE("machine: 16 nodes at saturation with bit errors drops and repeats on every NIC link lose nothing", "[machine]") {
  StressConfig sc;
  sc.cycles = 40000;
  MachineConfig cfg = stress_cfg({4, 4}, NetMode::adbr);
  hpcnet::sim::NicLinkFaults f;
  f.flits.bit_error = 1e-3;
  f.flits.drop = 5e-4;
  f.flits.repeat = 5e-4;
  f.ctl.bit_error = 1e-3;
  f.ctl.drop = 1e-3;
  cfg.net.faults.assign(16, f);
  cfg.net.seed = hpcnet::tb::seed("machine stress faults link");
  CHECK(stress_case(cfg, sc, "machine stress faults") > 500);
}

// The soak: a million cycles in each router mode of the 4x4 mesh and on the 4x4 torus, with
// faults on every NIC link in ADBR.
TEST_CASE("machine: 16 nodes at saturation for a million cycles (ADBR with link faults)", "[machine][long]") {
  StressConfig sc;
  sc.cycles = 1'000'000;
  MachineConfig cfg = stress_cfg({4, 4}, NetMode::adbr);
  hpcnet::sim::NicLinkFaults f;
  f.flits.bit_error = 1e-4;
  f.flits.drop = 1e-4;
  f.flits.repeat = 1e-4;
  f.ctl.drop = 1e-4;
  cfg.net.faults.assign(16, f);
  CHECK(stress_case(cfg, sc, "machine stress million") > 1000);
}

TEST_CASE("machine: 16 nodes at saturation for a million cycles (DOR-VCT 4x4 and a 4x4 torus)", "[machine][long]") {
  StressConfig sc;
  sc.cycles = 1'000'000;
  SECTION("DOR-VCT") { stress_case(stress_cfg({4, 4}, NetMode::dor_vct), sc, "machine stress million dorvct"); }
  SECTION("torus") { stress_case(stress_cfg(MeshShape(4, 4).as_torus(), NetMode::dor_vct), sc, "machine stress million torus"); }
}
