// test_nic_order.cpp: two nodes with NICs back to back, through the driver and the RDMA library:
// blocking descriptors (a write and a read after rdma_fence or RDMA_F_BLOCK see the earlier ones
// complete), answers and their CQ entries between the packets of a long read, failing and
// succeeding writes with remote events at once each with its own outcome. Checked against the
// host's own copy of the data. (Split from test_nic_load.cpp.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "hpcnet/rdma.h"
#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

using namespace nic_tb;

// ---------------------------------------------------------------- blocking descriptors

TEST_CASE("nic: a write after a fence lands after the earlier ones have completed", "[nic][load]") {
  // An immediate write (the execution unit sends it at once) after a long RDMA write (engine 0
  // reads the source first) to the same bytes: without the fence it would land first and be
  // overwritten; with it (rdma_fence, or RDMA_F_BLOCK on the descriptor) it must land last.
  std::mt19937_64 rng(hpcnet::tb::seed("nic fence"));
  constexpr uint32_t kLong = 128 * 1024, kImm = 100;
  for (const char* how : {"rdma_fence", "RDMA_F_BLOCK"}) {
    DYNAMIC_SECTION(how) {
      Pair p;
      const auto data = random_bytes(rng, kLong), last = random_bytes(rng, kImm);
      Buf src, dst;
      p.on(0, [&] { src = reg_buf(p.a, kLong, unsigned(rng() % 4096), RDMA_ACCESS_READ); });
      p.on(1, [&] { dst = reg_buf(p.b, kLong + 64, unsigned(rng() % 4096), RDMA_ACCESS_WRITE); });
      rdma_mem_write(p.a, src.va, data.data(), kLong);
      std::vector<uint8_t> expect(kLong + 64, kGuard);
      rdma_mem_write(p.b, dst.va, expect.data(), expect.size());
      std::memcpy(expect.data(), data.data(), kLong);
      std::memcpy(&expect[kLong - kImm], last.data(), kImm);
      int rc = -1;
      bool blocked_seen = false;
      p.on(0, [&] {
        const unsigned vb = rdma_vp(p.b);
        REQUIRE(rdma_write(p.a, 1, vb, {dst.key, dst.va}, {src.key, src.va}, kLong, nullptr) == 0);
        rdma_opts o = opts();
        if (std::string(how) == "rdma_fence")
          rdma_fence(p.a);
        else
          o.flags = RDMA_F_BLOCK;
        REQUIRE(rdma_write_imm(p.a, 1, vb, {dst.key, dst.va + kLong - kImm}, last.data(), kImm, &o) == 0);
        // STATUS.BLOCKED while the blocking descriptor waits for the long write
        hpcnet::nic::Driver& d = p.driver(0);
        for (;;) {
          const auto st = f::VpStatus::unpack({d.vp_reg(rdma_vp(p.a), f::VP_STATUS_OFFSET)});
          if (st.blocked) blocked_seen = true;
          if (st.outstanding == 0 && st.dq_words == 0) break;
        }
        rc = rdma_quiet(p.a);
      });
      CHECK(rc == 0);
      CHECK(blocked_seen);
      CHECK(diff(peek(p.b, dst.va, expect.size()), expect) == "same");
    }
  }
}

TEST_CASE("nic: a read after a fence returns what the earlier writes wrote", "[nic][load]") {
  // Four 16 KB writes, then a fenced read of the last 100 bytes they write: without the fence the
  // READ_REQ would leave between the writes' messages and read those bytes before the last write
  // lands.
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic fence read"));
  constexpr uint32_t kN = 64 * 1024, kTail = 100;
  const auto data = random_bytes(rng, kN);
  Buf src, remote, back;
  p.on(0, [&] {
    src = reg_buf(p.a, kN, unsigned(rng() % 4096), RDMA_ACCESS_READ);
    back = reg_buf(p.a, kN, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
  });
  p.on(1, [&] { remote = reg_buf(p.b, kN, unsigned(rng() % 4096), RDMA_ACCESS_READ | RDMA_ACCESS_WRITE); });
  rdma_mem_write(p.a, src.va, data.data(), kN);
  int rc = -1;
  std::vector<uint8_t> tail(kTail);
  p.on(0, [&] {
    const unsigned vb = rdma_vp(p.b);
    for (uint32_t at = 0; at < kN; at += kN / 4)
      REQUIRE(rdma_write(p.a, 1, vb, {remote.key, remote.va + at}, {src.key, src.va + at}, kN / 4, nullptr) == 0);
    rdma_fence(p.a);
    REQUIRE(rdma_read(p.a, 1, vb, {remote.key, remote.va + kN - kTail}, {back.key, back.va}, kTail, nullptr) == 0);
    rc = rdma_quiet(p.a);
    rdma_mem_read(p.a, back.va, tail.data(), kTail);
    REQUIRE(rdma_read(p.a, 1, vb, {remote.key, remote.va}, {back.key, back.va}, kN, nullptr) == 0);
    REQUIRE(rdma_quiet(p.a) == 0);
  });
  CHECK(rc == 0);
  CHECK(diff(tail, std::vector<uint8_t>(data.end() - kTail, data.end())) == "same");
  CHECK(diff(peek(p.a, back.va, kN), data) == "same");
}

TEST_CASE("nic: answers and their CQ entries between the packets of a long read", "[nic][load]") {
  // A 256 KB RDMA read of node 1 and, behind it on the same VP, 48 immediate writes to node 1
  // with CQ entries: their ACKs reach node 0 on VC1 between the read's READ_DATA packets, and
  // each ACK's CQ entry needs engine 2, which the VC1 receiver uses for the read's data (it holds a
  // packet's last beat until the next VC1 flit shows, and closes the transaction before an
  // answer). Every write completes with its own entry, the read's bytes land exactly.
  std::mt19937_64 rng(hpcnet::tb::seed("nic acks in a read"));
  constexpr uint32_t kRead = 256 * 1024, kImm = 64, kN = 48;
  Pair p;
  const auto rdata = random_bytes(rng, kRead), wdata = random_bytes(rng, kImm * kN);
  Buf rsrc, rdst, wdst;
  p.on(0, [&] { rdst = reg_buf(p.a, kRead + 64, unsigned(rng() % 4096), RDMA_ACCESS_WRITE); });
  p.on(1, [&] {
    rsrc = reg_buf(p.b, kRead, unsigned(rng() % 4096), RDMA_ACCESS_READ);
    wdst = reg_buf(p.b, kImm * kN, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
  });
  rdma_mem_write(p.b, rsrc.va, rdata.data(), kRead);
  std::vector<uint8_t> rexp(kRead + 64, kGuard);
  rdma_mem_write(p.a, rdst.va, rexp.data(), rexp.size());
  std::memcpy(&rexp[32], rdata.data(), kRead);
  std::vector<uint16_t> tags;
  int rc = -1;
  p.on(0, [&] {
    const unsigned vb = rdma_vp(p.b);
    REQUIRE(rdma_read(p.a, 1, vb, {rsrc.key, rsrc.va}, {rdst.key, rdst.va + 32}, kRead, nullptr) == 0);
    for (unsigned i = 0; i < kN; ++i) {
      const rdma_opts o = opts(uint16_t(100 + i), RDMA_F_CQ);
      REQUIRE(rdma_write_imm(p.a, 1, vb, {wdst.key, wdst.va + i * kImm}, &wdata[i * kImm], kImm, &o) == 0);
    }
    while (tags.size() < kN) {
      rdma_cqe e[8];
      const int n = rdma_poll_cq(p.a, e, 8);
      for (int j = 0; j < n; ++j) {
        CHECK(e[j].status == 0);
        tags.push_back(e[j].tag);
      }
    }
    rc = rdma_quiet(p.a);
  });
  CHECK(rc == 0);
  REQUIRE(tags.size() == kN);
  for (unsigned i = 0; i < kN; ++i) CHECK(tags[i] == 100 + i);
  CHECK(diff(peek(p.a, rdst.va, rexp.size()), rexp) == "same");
  CHECK(diff(peek(p.b, wdst.va, wdata.size()), wdata) == "same");
}

TEST_CASE("nic: failing and succeeding writes with remote events at once each get their own outcome", "[nic][load]") {
  // Four VPs at once, every descriptor with a remote event (its own 16-byte slot) and a CQ entry:
  // RDMA writes to an unregistered key, immediate writes that succeed, RDMA writes that succeed,
  // immediate writes to an unregistered key. The receiver sees their messages and EVENT packets
  // interleaved: each EVENT must be written exactly when its own message succeeded, and each CQ
  // entry carry its own message's status.
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic events mixed"));
  constexpr unsigned kV = 4, kOps = 16;
  std::array<rdma_ep*, kV> s{p.a}, r{p.b};
  p.on(0, [&] { for (unsigned i = 1; i < kV; ++i) REQUIRE(rdma_open(&s[i]) == 0); });
  p.on(1, [&] { for (unsigned i = 1; i < kV; ++i) REQUIRE(rdma_open(&r[i]) == 0); });
  constexpr uint32_t kSrc = 4096, kDst = 16 * 500 + 1500 + 100;  // descriptor k writes at k * 500
  std::array<Buf, kV> src, dst, ev;
  p.on(0, [&] { for (unsigned i = 0; i < kV; ++i) src[i] = reg_buf(s[i], kSrc, 0, RDMA_ACCESS_READ); });
  p.on(1, [&] {
    for (unsigned i = 0; i < kV; ++i) {
      dst[i] = reg_buf(r[i], kDst, 0, RDMA_ACCESS_WRITE);
      ev[i] = reg_buf(r[i], 16 * kOps, 0, RDMA_ACCESS_WRITE);
    }
  });
  std::array<std::vector<uint8_t>, kV> data, dexp;
  for (unsigned i = 0; i < kV; ++i) {
    data[i] = random_bytes(rng, kSrc);
    rdma_mem_write(s[i], src[i].va, data[i].data(), kSrc);
    dexp[i].assign(kDst, kGuard);
    rdma_mem_write(r[i], dst[i].va, dexp[i].data(), kDst);
  }
  auto fails = [](unsigned i) { return i == 0 || i == 3; };
  auto is_imm = [](unsigned i) { return i == 1 || i == 3; };
  std::array<std::vector<uint32_t>, kV> lens;
  for (unsigned i = 0; i < kV; ++i)
    for (unsigned k = 0; k < kOps; ++k) {
      const uint32_t len = is_imm(i) ? 1 + uint32_t(rng() % 128) : 1 + uint32_t(rng() % 1500);
      lens[i].push_back(len);
      if (!fails(i)) std::memcpy(&dexp[i][k * 500], &data[i][k], len);
    }
  std::array<std::vector<rdma_cqe>, kV> cq;
  for (unsigned i = 0; i < kV; ++i)
    spawn_at(p.pair, 0, i, [&, i] {
      for (unsigned k = 0; k < kOps; ++k) {
        rdma_event re{{ev[i].key, ev[i].va + 16 * k}, {}};
        for (unsigned b = 0; b < 16; ++b) re.data[b] = uint8_t(16 * i + k + b + 1);
        rdma_opts o = opts(uint16_t(k), RDMA_F_CQ);
        o.remote_event = &re;
        const uint16_t key = fails(i) ? uint16_t(999) : dst[i].key;
        if (is_imm(i))
          REQUIRE(rdma_write_imm(s[i], 1, i, {key, dst[i].va + k * 500}, &data[i][k], lens[i][k], &o) == 0);
        else
          REQUIRE(rdma_write(s[i], 1, i, {key, dst[i].va + k * 500}, {src[i].key, src[i].va + k}, lens[i][k], &o) == 0);
      }
      rdma_quiet(s[i]);
      cq[i] = poll_n(s[i], kOps);
    });
  p.pair.run();
  const int bad_key = -(kRemote | int(f::Status::BAD_KEY));
  for (unsigned i = 0; i < kV; ++i) {
    INFO("VP " << i << (fails(i) ? ": failing " : ": succeeding ") << (is_imm(i) ? "immediate writes" : "RDMA writes"));
    std::vector<uint8_t> eexp(16 * kOps, 0);
    for (unsigned k = 0; k < kOps; ++k) {
      INFO("descriptor " << k);
      CHECK(cq[i][k].tag == k);
      CHECK(cq[i][k].status == (fails(i) ? bad_key : 0));
      if (!fails(i))
        for (unsigned b = 0; b < 16; ++b) eexp[16 * k + b] = uint8_t(16 * i + k + b + 1);
    }
    CHECK(diff(peek(r[i], ev[i].va, 16 * kOps), eexp) == "same");
    CHECK(diff(peek(r[i], dst[i].va, kDst), dexp[i]) == "same");
  }
}
