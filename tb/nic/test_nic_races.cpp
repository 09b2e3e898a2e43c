// test_nic_races.cpp: two nodes back to back, each scenario a race between the NIC's units that a
// concurrency review of the RTL found (docs/nic.md, section 3): both link VCs, engine 2, the
// completion unit and the answer generator busy at once. Each check is against the host's own copy
// of the data and the CQ entries each post asked for; a hang ends at Pair's cycle limit and fails.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "hpcnet/rdma.h"
#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

using namespace nic_tb;

TEST_CASE("nic: small reads served while the serving node answers a stream of writes", "[nic][races]") {
  // Node 1's engine 1 serves node 0's reads back to back while its answer generator is kept busy
  // with ACKs for node 0's immediate writes: engine 1's results must not wait behind the answers
  // (nic_ackgen takes successes at once) and a packet once begun never waits for a result entry.
  std::mt19937_64 rng(hpcnet::tb::seed("nic reads and acks"));
  constexpr unsigned kReads = 300, kWrites = 1200, kLen = 64, kImm = 16;
  Pair p;
  rdma_ep* w = p.open(0);
  const auto rdata = random_bytes(rng, kReads * kLen), wdata = random_bytes(rng, kWrites * kImm);
  Buf rsrc, rdst, wdst;
  p.on(0, [&] { rdst = reg_buf(p.a, kReads * kLen, unsigned(rng() % 4096), RDMA_ACCESS_WRITE); });
  p.on(1, [&] {
    rsrc = reg_buf(p.b, kReads * kLen, unsigned(rng() % 4096), RDMA_ACCESS_READ);
    wdst = reg_buf(p.b, kWrites * kImm, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
  });
  rdma_mem_write(p.b, rsrc.va, rdata.data(), rdata.size());
  int rc_r = -1, rc_w = -1;
  const unsigned vb = rdma_vp(p.b);
  spawn_at(p.pair, 0, 0, [&] {
    for (unsigned i = 0; i < kReads; ++i)
      REQUIRE(rdma_read(p.a, 1, vb, {rsrc.key, rsrc.va + i * kLen}, {rdst.key, rdst.va + i * kLen}, kLen, nullptr) == 0);
    rc_r = rdma_quiet(p.a);
  });
  spawn_at(p.pair, 0, 1, [&] {
    // descriptors fetched by DMA: the execution unit sends an immediate write every few cycles
    const rdma_opts o = opts(0, 0, RDMA_SUBMIT_DMA);
    for (unsigned i = 0; i < kWrites; ++i)
      REQUIRE(rdma_write_imm(w, 1, vb, {wdst.key, wdst.va + i * kImm}, &wdata[i * kImm], kImm, &o) == 0);
    rc_w = rdma_quiet(w);
  });
  p.pair.run();
  CHECK(rc_r == 0);
  CHECK(rc_w == 0);
  CHECK(diff(peek(p.a, rdst.va, rdata.size()), rdata) == "same");
  CHECK(diff(peek(p.b, wdst.va, wdata.size()), wdata) == "same");
}

TEST_CASE("nic: source-key failures and good writes in both directions at once", "[nic][races]") {
  // Each node alternates an RDMA write whose local source key is not registered (engine 0 fails
  // its first translation: an error result for the completion unit) with a good 2 KB write with a
  // CQ entry, towards the other node, both nodes at once. Engine 0 holds VC0 through a message, so
  // its results must be taken even while the completion unit waits for engine 2, which the VC0
  // receiver holds in the middle of the other node's write.
  std::mt19937_64 rng(hpcnet::tb::seed("nic failures both ways"));
  constexpr unsigned kN = 100, kLen = 2048;
  Pair p;
  rdma_ep* ep[2] = {p.a, p.b};
  Buf src[2], dst[2];
  std::vector<uint8_t> data[2];
  for (unsigned n = 0; n < 2; ++n) {
    p.on(n, [&] {
      src[n] = reg_buf(ep[n], kLen * kN, unsigned(rng() % 4096), RDMA_ACCESS_READ);
      dst[n] = reg_buf(ep[n], kLen * kN, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
    });
    data[n] = random_bytes(rng, kLen * kN);
    rdma_mem_write(ep[n], src[n].va, data[n].data(), data[n].size());
  }
  std::vector<rdma_cqe> got[2];
  for (unsigned n = 0; n < 2; ++n) {
    spawn_at(p.pair, n, 0, [&, n] {
      const unsigned peer = 1 - n, pvp = rdma_vp(ep[peer]);
      for (unsigned i = 0; i < kN; ++i) {
        const int how = (i % 2) ? RDMA_SUBMIT_DMA : RDMA_SUBMIT_PIO_WC;
        const rdma_opts bad = opts(uint16_t(2 * i), RDMA_F_CQ, how), good = opts(uint16_t(2 * i + 1), RDMA_F_CQ, how);
        const uint16_t nokey = uint16_t(src[n].key ^ 0x5A5A);
        REQUIRE(rdma_write(ep[n], peer, pvp, {dst[peer].key, dst[peer].va + i * kLen}, {nokey, src[n].va + i * kLen}, 1024, &bad) == 0);
        REQUIRE(rdma_write(ep[n], peer, pvp, {dst[peer].key, dst[peer].va + i * kLen}, {src[n].key, src[n].va + i * kLen}, kLen, &good) == 0);
      }
      got[n] = poll_n(ep[n], 2 * kN);
    });
  }
  p.pair.run();
  for (unsigned n = 0; n < 2; ++n) {
    INFO("node " << n);
    REQUIRE(got[n].size() == 2 * kN);
    std::vector<int> seen(2 * kN, 0);
    for (const rdma_cqe& e : got[n]) {
      REQUIRE(e.tag < 2 * kN);
      ++seen[e.tag];
      CHECK(e.status == ((e.tag % 2 == 0) ? -int(f::Status::BAD_KEY) : 0));  // found at the sender
    }
    for (unsigned t = 0; t < 2 * kN; ++t) CHECK(seen[t] == 1);
    CHECK(diff(peek(ep[1 - n], dst[1 - n].va, kLen * kN), data[n]) == "same");
  }
}

TEST_CASE("nic: a fence holds while other VPs keep the execution unit busy", "[nic][races]") {
  // VP x fills engine 0 with long writes, so the execution unit waits and VP y's long write and
  // its fenced immediate write are both complete in the DQ when the long write is taken: the
  // fenced one must still wait for it (the DQ must not pick it with the VP's state of before the
  // take) and land last.
  std::mt19937_64 rng(hpcnet::tb::seed("nic fence busy"));
  constexpr uint32_t kBusy = 64 * 1024, kLong = 128 * 1024, kImm = 100;
  constexpr unsigned kBusyN = 6;  // engine 0's job and its queue of 4, one waiting in execution
  Pair p;
  rdma_ep* x = p.open(0);
  const auto busy = random_bytes(rng, kBusy), data = random_bytes(rng, kLong), last = random_bytes(rng, kImm);
  Buf bsrc, bdst, src, dst;
  p.on(0, [&] {
    bsrc = reg_buf(x, kBusy, unsigned(rng() % 4096), RDMA_ACCESS_READ);
    src = reg_buf(p.a, kLong, unsigned(rng() % 4096), RDMA_ACCESS_READ);
  });
  p.on(1, [&] {
    bdst = reg_buf(p.b, kBusy, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
    dst = reg_buf(p.b, kLong, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
  });
  rdma_mem_write(x, bsrc.va, busy.data(), kBusy);
  rdma_mem_write(p.a, src.va, data.data(), kLong);
  std::vector<uint8_t> expect = data;
  std::memcpy(&expect[kLong - kImm], last.data(), kImm);
  int rc_x = -1, rc_y = -1;
  bool posted = false;
  const unsigned vb = rdma_vp(p.b);
  spawn_at(p.pair, 0, 0, [&] {
    for (unsigned i = 0; i < kBusyN; ++i)
      REQUIRE(rdma_write(x, 1, vb, {bdst.key, bdst.va}, {bsrc.key, bsrc.va}, kBusy, nullptr) == 0);
    posted = true;
    rc_x = rdma_quiet(x);
  });
  spawn_at(p.pair, 0, 1, [&] {
    wait_until([&] { return posted; });  // x's writes first: then only y has descriptors in the DQ
    REQUIRE(rdma_write(p.a, 1, vb, {dst.key, dst.va}, {src.key, src.va}, kLong, nullptr) == 0);
    rdma_fence(p.a);
    REQUIRE(rdma_write_imm(p.a, 1, vb, {dst.key, dst.va + kLong - kImm}, last.data(), kImm, nullptr) == 0);
    rc_y = rdma_quiet(p.a);
  });
  p.pair.run();
  CHECK(rc_x == 0);
  CHECK(rc_y == 0);
  CHECK(diff(peek(p.b, dst.va, kLong), expect) == "same");
}

TEST_CASE("nic: a message to a node that does not exist completes with BAD_NODE", "[nic][races]") {
  // On the back-to-back link the peer takes every packet; one for another node is answered NACK
  // BAD_NODE at its end (a write, an immediate write with a remote event, a read, a mini-packet),
  // so the sender completes and its message slot is freed; the VP keeps working.
  std::mt19937_64 rng(hpcnet::tb::seed("nic bad node"));
  Pair p;
  const auto data = random_bytes(rng, 4096);
  Buf src, dst;
  p.on(0, [&] { src = reg_buf(p.a, 4096, 0, RDMA_ACCESS_READ | RDMA_ACCESS_WRITE); });
  p.on(1, [&] { dst = reg_buf(p.b, 4096, 0, RDMA_ACCESS_WRITE); });
  rdma_mem_write(p.a, src.va, data.data(), data.size());
  const std::vector<uint8_t> guard(4096, kGuard);
  rdma_mem_write(p.b, dst.va, guard.data(), guard.size());
  const unsigned vb = rdma_vp(p.b);
  std::vector<rdma_cqe> got;
  int rc = -1;
  p.on(0, [&] {
    for (unsigned node : {7u, rdma_node(p.a)}) {
      rdma_event ev{};
      ev.at = {dst.key, dst.va + 4000};
      rdma_opts o = opts(1, RDMA_F_CQ);
      REQUIRE(rdma_write(p.a, node, vb, {dst.key, dst.va}, {src.key, src.va}, 3000, &o) == 0);
      o = opts(2, RDMA_F_CQ);
      o.remote_event = &ev;
      REQUIRE(rdma_write_imm(p.a, node, vb, {dst.key, dst.va}, data.data(), 100, &o) == 0);
      o = opts(3, RDMA_F_CQ);
      REQUIRE(rdma_read(p.a, node, vb, {dst.key, dst.va}, {src.key, src.va}, 500, &o) == 0);
      o = opts(4, RDMA_F_CQ);
      REQUIRE(rdma_mp_send(p.a, node, vb, data.data(), 60, &o) == 0);
    }
    got = poll_n(p.a, 8);
    rc = rdma_quiet(p.a);
    // and the VP still works
    REQUIRE(rdma_write(p.a, 1, vb, {dst.key, dst.va}, {src.key, src.va}, 3000, nullptr) == 0);
    REQUIRE(rdma_quiet(p.a) == 0);
  });
  CHECK(rc != 0);
  REQUIRE(got.size() == 8);
  std::vector<int> per_tag(5, 0);  // completions come in answer order, not post order
  for (const rdma_cqe& e : got) {
    REQUIRE(e.tag >= 1);
    REQUIRE(e.tag <= 4);
    ++per_tag[e.tag];
    CHECK(e.status == -(kRemote | int(f::Status::BAD_NODE)));
  }
  for (unsigned t = 1; t <= 4; ++t) CHECK(per_tag[t] == 2);
  std::vector<uint8_t> expect = guard;
  std::memcpy(expect.data(), data.data(), 3000);
  CHECK(diff(peek(p.b, dst.va, 4096), expect) == "same");
  CHECK(diff(peek(p.a, src.va, 4096), data) == "same");  // the reads wrote nothing
}
