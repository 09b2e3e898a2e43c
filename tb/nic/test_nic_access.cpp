// test_nic_access.cpp: two nodes with NICs back to back, through the driver and the RDMA library:
// physical addressing on VPs opened with phys_ok, a region deregistered while in use, and the
// interrupt (INTR descriptors, mini-packet arrivals). Checked against the host's own copy of the
// data; bytes outside the targets untouched. (Split from test_nic_queues.cpp.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "hpcnet/nic_driver.hpp"
#include "hpcnet/rdma.h"
#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

using namespace nic_tb;
using hpcnet::nic::Driver;

// ---------------------------------------------------------------- addressing and protection

TEST_CASE("nic: physical addressing on VPs opened with phys_ok", "[nic][queues]") {
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic phys"));
  rdma_ep_attr at{8, 6, 10, 1};
  rdma_ep* a2 = p.open(0, &at);
  rdma_ep* b2 = p.open(1, &at);
  const unsigned vb2 = rdma_vp(b2), vb = rdma_vp(p.b);  // b: no PHYS_OK
  constexpr size_t kN = 5 * 4096;
  hpcnet::Platform& h0 = p.pair.node(0).platform();
  hpcnet::Platform& h1 = p.pair.node(1).platform();
  // physically contiguous buffers (the kernel's own)
  const hpcnet::DmaRegion src = h0.dma_alloc(kN, 4096), back = h0.dma_alloc(kN, 4096), ev = h0.dma_alloc(4096, 4096);
  const hpcnet::DmaRegion dst = h1.dma_alloc(kN, 4096), rsrc = h1.dma_alloc(kN, 4096);
  const auto sdata = random_bytes(rng, kN), rdata = random_bytes(rng, kN);
  const std::vector<uint8_t> guard(kN, kGuard);
  h0.mem_write(src.phys, sdata.data(), kN);
  h0.mem_write(back.phys, guard.data(), kN);
  h1.mem_write(dst.phys, guard.data(), kN);
  h1.mem_write(rsrc.phys, rdata.data(), kN);
  const auto imm = random_bytes(rng, 100);
  std::vector<uint8_t> dexp = guard, bexp = guard;
  std::memcpy(&dexp[1001], &sdata[77], 9000);   // across two page boundaries
  std::memcpy(&dexp[12000 - 30], imm.data(), 100);
  std::memcpy(&bexp[4090], &rdata[5], 10000);
  int rc = -1, denied = 1;
  uint8_t evd[16] = {};
  p.on(0, [&] {
    const rdma_opts o = opts(1, RDMA_F_PHYS);
    REQUIRE(rdma_write(a2, 1, vb2, {0, dst.phys + 1001}, {0, src.phys + 77}, 9000, &o) == 0);
    REQUIRE(rdma_write_imm(a2, 1, vb2, {0, dst.phys + 12000 - 30}, imm.data(), 100, &o) == 0);
    rdma_event le{{0, ev.phys + 64}, {}};
    for (unsigned i = 0; i < 16; ++i) le.data[i] = uint8_t(0xC0 + i);
    rdma_opts ro = o;
    ro.local_event = &le;
    REQUIRE(rdma_read(a2, 1, vb2, {0, rsrc.phys + 5}, {0, back.phys + 4090}, 10000, &ro) == 0);
    rc = rdma_quiet(a2);
    h0.mem_read(ev.phys + 64, evd, 16);
    // the target VP must allow physical addresses too
    REQUIRE(rdma_write(a2, 1, vb, {0, dst.phys}, {0, src.phys}, 64, &o) == 0);
    denied = rdma_quiet(a2);
  });
  CHECK(rc == 0);
  for (unsigned i = 0; i < 16; ++i) CHECK(evd[i] == 0xC0 + i);
  CHECK(denied == -(kRemote | int(f::Status::PHYS_DENIED)));
  std::vector<uint8_t> got(kN);
  h1.mem_read(dst.phys, got.data(), kN);
  CHECK(diff(got, dexp) == "same");
  h0.mem_read(back.phys, got.data(), kN);
  CHECK(diff(got, bexp) == "same");
  h0.mem_read(src.phys, got.data(), kN);
  CHECK(diff(got, sdata) == "same");
}

TEST_CASE("nic: a write to a region deregistered meanwhile fails with BAD_KEY", "[nic][queues]") {
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic dereg"));
  Buf src, dst, dst2;
  p.on(0, [&] { src = reg_buf(p.a, 4096, 0, RDMA_ACCESS_READ); });
  p.on(1, [&] { dst = make_buf(p.b, 4096, 0, RDMA_ACCESS_WRITE, kGuard); });
  const auto sdata = random_bytes(rng, 4096);
  rdma_mem_write(p.a, src.va, sdata.data(), 4096);
  const unsigned vb = rdma_vp(p.b);
  std::vector<uint8_t> expect(4096, kGuard);
  std::memcpy(&expect[0], &sdata[0], 1000);
  std::array<int, 4> q{1, 1, 1, 1};
  std::vector<rdma_cqe> e;
  p.on(0, [&] {
    REQUIRE(rdma_write(p.a, 1, vb, {dst.key, dst.va}, {src.key, src.va}, 1000, nullptr) == 0);
    q[0] = rdma_quiet(p.a);
  });
  p.on(1, [&] { REQUIRE(rdma_dereg_mr(p.b, dst.key) == 0); });
  p.on(0, [&] {
    const rdma_opts o = opts(42);
    REQUIRE(rdma_write(p.a, 1, vb, {dst.key, dst.va + 1000}, {src.key, src.va}, 1000, &o) == 0);
    q[1] = rdma_quiet(p.a);
    e = poll_n(p.a, 1);
  });
  CHECK(q[0] == 0);
  CHECK(q[1] == -(kRemote | int(f::Status::BAD_KEY)));
  CHECK(e[0].tag == 42);
  CHECK(e[0].status == q[1]);
  CHECK(diff(peek(p.b, dst.va, 4096), expect) == "same");
  // the local source deregistered: refused at the sender
  p.on(0, [&] {
    REQUIRE(rdma_dereg_mr(p.a, src.key) == 0);
    REQUIRE(rdma_write(p.a, 1, vb, {dst.key, dst.va + 2000}, {src.key, src.va}, 1000, nullptr) == 0);
    q[2] = rdma_quiet(p.a);
  });
  CHECK(q[2] == -int(f::Status::BAD_KEY));
  // registered again (the key may be reused): writes work
  Buf src2;
  p.on(0, [&] { src2 = reg_buf(p.a, 4096, 0, RDMA_ACCESS_READ); });
  p.on(1, [&] { dst2 = reg_buf(p.b, 4096, 0, RDMA_ACCESS_WRITE); });
  rdma_mem_write(p.a, src2.va, sdata.data(), 4096);
  p.on(0, [&] {
    REQUIRE(rdma_write(p.a, 1, vb, {dst2.key, dst2.va}, {src2.key, src2.va}, 4096, nullptr) == 0);
    q[3] = rdma_quiet(p.a);
  });
  CHECK(q[3] == 0);
  CHECK(diff(peek(p.b, dst2.va, 4096), sdata) == "same");
  CHECK(diff(peek(p.b, dst.va, 4096), expect) == "same");
}

TEST_CASE("nic: a CQ entry's INFO names the part of a write that failed", "[nic][queues]") {
  // INFO (docs/nic_formats.md, cqe): 1 the local address, 2 the remote address or data, 3 an
  // event. A remote event that fails its own check (bad key, outside its region, no write right)
  // is not written but the data is: the NACK's ack_aux.EVENT says so. A failing local event
  // gives 3 as well; a failing remote destination 2 (its event then not written either).
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic cqe info"));
  Buf src, dst, ev, ro;
  p.on(0, [&] { src = reg_buf(p.a, 4096, 0, RDMA_ACCESS_READ); });
  p.on(1, [&] {
    dst = reg_buf(p.b, 4096, 0, RDMA_ACCESS_WRITE);
    ev = reg_buf(p.b, 256, 0, RDMA_ACCESS_WRITE);
    ro = reg_buf(p.b, 256, 0, RDMA_ACCESS_READ);
  });
  const auto sdata = random_bytes(rng, 4096);
  rdma_mem_write(p.a, src.va, sdata.data(), 4096);
  const unsigned vb = rdma_vp(p.b);
  const int remote = kRemote;
  struct Row {
    const char* what;
    rdma_addr dst_at, ev_at;
    bool local_ev;
    int status;
    unsigned info;
    bool data_written;
  };
  const Row rows[] = {
      {"a remote event with a bad key", {dst.key, dst.va}, {uint16_t(ev.key + 50), ev.va}, false, -(remote | int(f::Status::BAD_KEY)), 3, true},
      {"a remote event outside its region", {dst.key, dst.va}, {ev.key, ev.va + 256}, false, -(remote | int(f::Status::RANGE)), 3, true},
      {"a remote event without the write right", {dst.key, dst.va}, {ro.key, ro.va}, false, -(remote | int(f::Status::PERM)), 3, true},
      {"a remote destination outside its region", {dst.key, dst.va + 4000}, {ev.key, ev.va}, false, -(remote | int(f::Status::RANGE)), 2, false},
      {"a local event with a bad key", {dst.key, dst.va}, {uint16_t(ev.key + 50), ev.va}, true, -int(f::Status::BAD_KEY), 3, false},
  };
  for (const Row& r : rows) {
    INFO(r.what);
    const std::vector<uint8_t> guard(4096, kGuard), ev_guard(256, kGuard);
    rdma_mem_write(p.b, dst.va, guard.data(), 4096);
    rdma_mem_write(p.b, ev.va, ev_guard.data(), 256);
    rdma_event e{};
    e.at = r.ev_at;
    std::memset(e.data, 0x77, 16);
    std::vector<rdma_cqe> got;
    p.on(0, [&] {
      rdma_opts o = opts(9, RDMA_F_CQ);
      (r.local_ev ? o.local_event : o.remote_event) = &e;
      REQUIRE(rdma_write(p.a, 1, vb, r.dst_at, {src.key, src.va}, 1000, &o) == 0);
      got = poll_n(p.a, 1);
      rdma_quiet(p.a);
    });
    REQUIRE(got.size() == 1);
    CHECK(got[0].tag == 9);
    CHECK(got[0].status == r.status);
    CHECK(got[0].info == r.info);
    std::vector<uint8_t> want = guard;
    if (r.data_written) std::memcpy(want.data(), sdata.data(), 1000);
    CHECK(diff(peek(p.b, dst.va, 4096), want) == "same");
    CHECK(diff(peek(p.b, ev.va, 256), ev_guard) == "same");  // no event written
  }
}

// ---------------------------------------------------------------- the interrupt

TEST_CASE("nic: INTR descriptors and mini-packet arrivals raise the driver's interrupt", "[nic][queues]") {
  Pair p;
  Driver& d0 = p.driver(0);
  Driver& d1 = p.driver(1);
  const unsigned va_ = rdma_vp(p.a), vb = rdma_vp(p.b);
  Buf dst;
  p.on(1, [&] { dst = reg_buf(p.b, 4096, 0, RDMA_ACCESS_WRITE); });
  const uint64_t kCq = f::VP_IRQ_CQ.put(1), kMpq = f::VP_IRQ_MPQ.put(1), kErr = f::VP_IRQ_ERR.put(1);
  auto count = [](Driver& d, unsigned vp, unsigned cause) { return d.vp_irqs(vp, cause); };
  std::array<uint64_t, 8> n{};
  uint64_t cause_off = 0;
  p.on(0, [&] {
    const uint64_t x = 42;
    // INTR without IRQ_EN: the cause is recorded, the line stays low, no handler call
    n[0] = count(d0, va_, 0);
    rdma_opts o = opts(1, RDMA_F_CQ | RDMA_F_INTR);
    REQUIRE(rdma_write_imm(p.a, 1, vb, {dst.key, dst.va}, &x, 8, &o) == 0);
    REQUIRE(rdma_quiet(p.a) == 0);
    hpcnet::this_platform()->compute(1000);
    n[1] = count(d0, va_, 0);
    cause_off = d0.vp_reg(va_, f::VP_IRQ_CAUSE_OFFSET);
    // enabling it raises the pending cause
    d0.set_vp_reg(va_, f::VP_IRQ_EN_OFFSET, kCq | kErr);
    wait_until([&] { return count(d0, va_, 0) > n[1]; });
    n[2] = count(d0, va_, 0);
    // a CQ entry without INTR: none
    o = opts(2, RDMA_F_CQ);
    REQUIRE(rdma_write_imm(p.a, 1, vb, {dst.key, dst.va + 8}, &x, 8, &o) == 0);
    REQUIRE(rdma_quiet(p.a) == 0);
    hpcnet::this_platform()->compute(1000);
    n[3] = count(d0, va_, 0);
    // with INTR: one
    o = opts(3, RDMA_F_CQ | RDMA_F_INTR);
    REQUIRE(rdma_write_imm(p.a, 1, vb, {dst.key, dst.va + 16}, &x, 8, &o) == 0);
    wait_until([&] { return count(d0, va_, 0) > n[3]; });
    n[4] = count(d0, va_, 0);
    // an error: the ERR cause
    n[5] = count(d0, va_, 2);
    REQUIRE(rdma_write_imm(p.a, 1, vb, {999, dst.va}, &x, 8, nullptr) == 0);
    wait_until([&] { return count(d0, va_, 2) > n[5]; });
    n[6] = uint64_t(-rdma_quiet(p.a));
    const auto e = poll_n(p.a, 4);  // tags 1, 2, 3 and the error's
    REQUIRE(e.size() == 4);
    n[7] = uint64_t(-e[3].status);
    rdma_cqe more[2];
    REQUIRE(rdma_poll_cq(p.a, more, 2) == 0);
  });
  CHECK(n[1] == n[0]);
  CHECK((cause_off & kCq) != 0);
  CHECK(n[2] == n[1] + 1);
  CHECK(n[3] == n[2]);
  CHECK(n[4] == n[3] + 1);
  CHECK(n[6] == (kRemote | unsigned(f::Status::BAD_KEY)));
  CHECK(n[7] == n[6]);
  // mini-packet arrivals at the receiver
  std::array<uint64_t, 3> m{};
  p.pair.spawn(1, 0, 0, [&] {
    d1.set_vp_reg(vb, f::VP_IRQ_EN_OFFSET, kMpq);
    m[0] = count(d1, vb, 1);
    wait_until([&] { return count(d1, vb, 1) > m[0]; });
    m[1] = count(d1, vb, 1);
    uint8_t b[120];
    REQUIRE(rdma_mp_recv(p.b, b, nullptr, 0) == 5);
  });
  p.pair.spawn(0, 0, 0, [&] {
    hpcnet::this_platform()->compute(500);
    REQUIRE(rdma_mp_send(p.a, 1, vb, "hello", 5, nullptr) == 0);
    REQUIRE(rdma_quiet(p.a) == 0);
  });
  p.pair.run();
  CHECK(m[1] == m[0] + 1);
}
