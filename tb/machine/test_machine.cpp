// test_machine.cpp: NICs on the router network (sim/machine, docs/machine.md), through the driver
// and the RDMA library: every node writes, reads and sends a mini-packet to every other node in
// one-packet messages, on a mesh in each routing mode and on a torus; every byte is checked against
// the host's own image of what was sent. A destination without a route is answered BAD_NODE.
#include <algorithm>
#include <cstring>
#include <random>

#include "hpcnet/tb/seed.hpp"
#include "machine_tb.hpp"
#include "sim/nic/nic_probe.hpp"

using namespace machine_tb;
using hpcnet::sim::MeshShape;
using hpcnet::sim::NetMode;

namespace {

constexpr unsigned kBlk = 128;  // one packet's destination block

// The pattern of node d's source region.
uint8_t src_byte(unsigned d, size_t i) { return uint8_t((d * 7 + i * 13) ^ 0x5A); }

// One node's part of the exchange with dst: an immediate write into block `src` of dst's write
// region, a read of block `src` of dst's source region into block dst of src's read region, a
// mini-packet. Offsets and lengths keep each message inside one 128-byte block: one packet.
struct Op {
  unsigned woff = 0, wlen = 0, roff = 0, rlen = 0, mlen = 0;
  std::vector<uint8_t> wdata, mdata;
};

void exchange(MachineConfig cfg, uint64_t seed) {
  const unsigned N = cfg.net.shape.nodes();
  Job job(std::move(cfg), 3 * size_t(N) * kBlk);
  std::mt19937_64 rng(seed);
  std::vector<std::vector<Op>> ops(N, std::vector<Op>(N));
  for (unsigned s = 0; s < N; ++s)
    for (unsigned d = 0; d < N; ++d) {
      Op& o = ops[s][d];
      o.woff = unsigned(rng() % kBlk);
      o.wlen = 1 + unsigned(rng() % (kBlk - o.woff));
      o.roff = unsigned(rng() % kBlk);
      o.rlen = 1 + unsigned(rng() % (kBlk - o.roff));
      o.mlen = unsigned(rng() % 121);
      for (unsigned i = 0; i < o.wlen; ++i) o.wdata.push_back(uint8_t(rng()));
      for (unsigned i = 0; i < o.mlen; ++i) o.mdata.push_back(uint8_t(rng()));
    }
  for (unsigned d = 0; d < N; ++d) {
    std::vector<uint8_t> img(job.bytes, 0);
    for (size_t i = 0; i < size_t(N) * kBlk; ++i) img[size_t(N) * kBlk + i] = src_byte(d, i);
    job.fill(d, img);
  }
  const uint64_t t0 = job.m.cycles();
  job.each([&](unsigned s) {
    rdma_ep* ep = job.ep[s];
    std::vector<unsigned> order;
    for (unsigned d = 0; d < N; ++d)
      if (d != s) order.push_back(d);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(seed + s));
    const rdma_opts o = tb_opts();
    for (unsigned d : order) {
      const Op& op = ops[s][d];
      const rdma_addr w{job.key[d], job.va[d] + size_t(s) * kBlk + op.woff};
      REQUIRE(rdma_write_imm(ep, d, 0, w, op.wdata.data(), op.wlen, &o) == 0);
      const rdma_addr r{job.key[d], job.va[d] + size_t(N) * kBlk + size_t(s) * kBlk + op.roff};
      const rdma_addr l{job.key[s], job.va[s] + 2 * size_t(N) * kBlk + size_t(d) * kBlk + op.roff};
      REQUIRE(rdma_read(ep, d, 0, r, l, op.rlen, &o) == 0);
      REQUIRE(rdma_mp_send(ep, d, 0, op.mdata.data(), op.mlen, &o) == 0);
    }
    REQUIRE(rdma_quiet(ep) == 0);
    // the mini-packets of every other node, each once, intact
    std::vector<bool> seen(N, false);
    for (unsigned k = 0; k + 1 < N; ++k) {
      uint8_t buf[120];
      rdma_mp_info info{};
      const int len = rdma_mp_recv(ep, buf, &info, 1);
      REQUIRE(info.src_node < N);
      REQUIRE_FALSE(seen[info.src_node]);
      seen[info.src_node] = true;
      const Op& op = ops[info.src_node][s];
      REQUIRE(unsigned(len) == op.mlen);
      REQUIRE(std::equal(op.mdata.begin(), op.mdata.end(), buf));
    }
  });
  // rdma_quiet on every node: every write landed, every read is in
  for (unsigned d = 0; d < N; ++d) {
    std::vector<uint8_t> want(job.bytes, 0);
    for (unsigned s = 0; s < N; ++s) {
      if (s == d) continue;
      const Op& w = ops[s][d];
      std::copy(w.wdata.begin(), w.wdata.end(), want.begin() + long(size_t(s) * kBlk + w.woff));
      const Op& r = ops[d][s];  // d read from s
      for (unsigned i = 0; i < r.rlen; ++i)
        want[2 * size_t(N) * kBlk + size_t(s) * kBlk + r.roff + i] = src_byte(s, size_t(d) * kBlk + r.roff + i);
    }
    for (size_t i = 0; i < size_t(N) * kBlk; ++i) want[size_t(N) * kBlk + i] = src_byte(d, i);
    const std::vector<uint8_t> got = job.image(d);
    INFO("node " << d);
    REQUIRE(got == want);
  }
  INFO("cycles " << job.m.cycles() - t0);
  CHECK(job.m.net().plane_flits(0) > 0);
  CHECK(job.m.net().plane_flits(1) > 0);
}

MachineConfig machine_cfg(MeshShape shape, NetMode mode) {
  MachineConfig c;
  c.net.shape = shape;
  c.net.mode = mode;
  c.max_cycles = 3'000'000;
  return c;
}

}  // namespace

TEST_CASE("machine: every node writes and reads every other node and sends it a mini-packet (4x4 mesh and torus)", "[machine]") {
  const uint64_t seed = hpcnet::tb::seed("machine exchange");
  SECTION("4x4 DOR-VCT") { exchange(machine_cfg({4, 4}, NetMode::dor_vct), seed); }
  SECTION("4x4 ADBR") { exchange(machine_cfg({4, 4}, NetMode::adbr), seed); }
  SECTION("4x4 torus DOR-VCT") { exchange(machine_cfg(MeshShape(4, 4).as_torus(), NetMode::dor_vct), seed); }
}

TEST_CASE("machine: a destination without a route is answered BAD_NODE by the sender's own router", "[machine]") {
  MachineConfig cfg = machine_cfg({2, 2}, NetMode::dor_vct);
  Job job(cfg, 4096);
  const unsigned kBadNode = 0x0c | 0x80;  // BAD_NODE, found at the remote end (the sender's own receiver)
  const std::vector<uint8_t> data = {1, 2, 3, 4, 5, 6, 7, 8};
  job.each([&](unsigned s) {
    if (s != 1) return;
    rdma_ep* ep = job.ep[s];
    const rdma_opts o = tb_opts();
    // node 40 has an entry that was never written; node 100 is beyond the 64-entry table
    for (unsigned bad : {40u, 100u}) {
      REQUIRE(rdma_write_imm(ep, bad, 0, rdma_addr{job.key[0], job.va[0]}, data.data(), 8, &o) == 0);
      REQUIRE(rdma_quiet(ep) == -int(kBadNode));
    }
    // and the network still works
    REQUIRE(rdma_write_imm(ep, 3, 0, rdma_addr{job.key[3], job.va[3] + 64}, data.data(), 8, &o) == 0);
    REQUIRE(rdma_quiet(ep) == 0);
  });
  std::vector<uint8_t> want(4096, 0);
  std::copy(data.begin(), data.end(), want.begin() + 64);
  CHECK(job.image(3) == want);
  CHECK(job.image(0) == std::vector<uint8_t>(4096, 0));
}

TEST_CASE("machine: rdma_fence orders a write to one node before a write to another (ADBR)", "[machine]") {
  // node 0 writes data to node 5, fences, then writes a flag to node 10; node 10, seeing the flag,
  // reads node 5's data by RDMA: it must be that round's, whatever the routes and their order
  // (node 0 starts a round once node 10 has checked the last one: every round's fence is tested)
  MachineConfig cfg = machine_cfg({4, 4}, NetMode::adbr);
  Job job(cfg, 8192);
  const uint64_t seed = hpcnet::tb::seed("machine fence");
  constexpr unsigned kRounds = 30, kA = 5, kB = 10;
  unsigned checked = 0;
  // node 0's NIC: with the fence, each packet it sends follows the answer to the one before
  auto probe_owner = std::make_unique<hpcnet::sim::NicProbe>(std::vector<hpcnet::sim::NicDevice*>{&job.m.nic(0)}, job.m.node(0));
  hpcnet::sim::NicProbe& probe = *probe_owner;
  job.m.cluster().add_fabric(std::move(probe_owner));
  probe.arm();
  job.m.spawn(0, 0, 0, [&] {
    rdma_ep* ep = job.ep[0];
    std::mt19937_64 rng(seed);
    const rdma_opts o = tb_opts();
    for (uint64_t r = 1; r <= kRounds; ++r) {
      while (checked + 1 < r) hpcnet::this_platform()->relax();
      std::vector<uint8_t> data(128);
      for (auto& b : data) b = uint8_t(rng());
      data[0] = uint8_t(r);
      REQUIRE(rdma_write_imm(ep, kA, 0, rdma_addr{job.key[kA], job.va[kA] + 128 * r}, data.data(), 128, &o) == 0);
      rdma_fence(ep);
      REQUIRE(rdma_write_imm(ep, kB, 0, rdma_addr{job.key[kB], job.va[kB]}, &r, 8, &o) == 0);
    }
    REQUIRE(rdma_quiet(ep) == 0);
  });
  job.m.spawn(kB, 0, 0, [&] {
    rdma_ep* ep = job.ep[kB];
    hpcnet::Platform& p = *hpcnet::this_platform();
    const rdma_opts o = tb_opts();
    uint64_t seen = 0;
    while (seen < kRounds) {
      uint64_t v = 0;
      rdma_mem_read(ep, job.va[kB], &v, 8);
      if (v == seen) {
        p.relax();
        continue;
      }
      seen = v;
      // the data of round `seen` is at node 5: read it
      REQUIRE(rdma_read(ep, kA, 0, rdma_addr{job.key[kA], job.va[kA] + 128 * seen},
                        rdma_addr{job.key[kB], job.va[kB] + 4096}, 128, &o) == 0);
      REQUIRE(rdma_quiet(ep) == 0);
      uint8_t first = 0;
      rdma_mem_read(ep, job.va[kB] + 4096, &first, 1);
      REQUIRE(first == uint8_t(seen));
      ++checked;
    }
  });
  job.m.run();
  CHECK(checked == kRounds);
  // sent and received heads at node 0 alternate: data, its ACK, flag, its ACK, ...
  const auto& rec = probe.node(0);
  REQUIRE(rec.tx_head.size() == 2 * kRounds);
  REQUIRE(rec.rx_head.size() == 2 * kRounds);
  for (size_t i = 1; i < rec.tx_head.size(); ++i) {
    INFO("packet " << i);
    REQUIRE(rec.rx_head[i - 1] < rec.tx_head[i]);
  }
}

TEST_CASE("machine: 2 to 64 nodes on meshes and tori of several shapes exchange one-packet messages", "[machine]") {
  // shapes with a model of their own and shapes joined from blocks (net_sim.md): each node writes
  // to and reads from 3 random others; every byte checked (exchange() on a subset of pairs)
  const uint64_t seed = hpcnet::tb::seed("machine shapes");
  struct Shape {
    MeshShape s;
    NetMode mode;
  };
  const Shape shapes[] = {{MeshShape(2, 1), NetMode::adbr},         {MeshShape(3, 3), NetMode::dor_vct},
                          {MeshShape(2, 4).as_torus(), NetMode::dor_vct}, {MeshShape(8, 8), NetMode::adbr}};
  for (const Shape& sh : shapes) {
    DYNAMIC_SECTION(sh.s.name() << " " << hpcnet::sim::mode_name(sh.mode)) {
      const unsigned N = sh.s.nodes();
      Job job(machine_cfg(sh.s, sh.mode), 128 * size_t(N));
      std::mt19937_64 rng(seed + N);
      std::vector<std::vector<std::pair<unsigned, std::vector<uint8_t>>>> sends(N);  // [src]: (dst, data)
      for (unsigned s = 0; s < N; ++s) {
        std::vector<unsigned> others;  // 3 distinct destinations: writes to one node never overlap
        for (unsigned d = 0; d < N; ++d)
          if (d != s) others.push_back(d);
        std::shuffle(others.begin(), others.end(), rng);
        for (unsigned k = 0; k < std::min(3u, N - 1); ++k) {
          const unsigned d = others[k];
          std::vector<uint8_t> data(1 + rng() % 128);
          for (auto& b : data) b = uint8_t(rng());
          sends[s].push_back({d, data});
        }
      }
      job.each([&](unsigned s) {
        const rdma_opts o = tb_opts();
        for (const auto& [d, data] : sends[s])
          REQUIRE(rdma_write_imm(job.ep[s], d, 0, rdma_addr{job.key[d], job.va[d] + 128 * size_t(s)}, data.data(),
                                 unsigned(data.size()), &o) == 0);
        REQUIRE(rdma_quiet(job.ep[s]) == 0);
      });
      for (unsigned d = 0; d < N; ++d) {
        std::vector<uint8_t> want(job.bytes, 0);
        for (unsigned s = 0; s < N; ++s)
          for (const auto& [dd, data] : sends[s])
            if (dd == d) std::copy(data.begin(), data.end(), want.begin() + long(128 * size_t(s)));
        INFO("node " << d);
        REQUIRE(job.image(d) == want);
      }
    }
  }
}
