// test_nic_pair.cpp: two nodes with NICs back to back, driven through the NIC driver and the
// RDMA library (hpcnet/rdma.h) from simulated threads: every transfer checked byte for byte
// against the host's own copy of what was sent, bytes outside the target untouched; completions,
// events and errors exactly as asked.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "hpcnet/rdma.h"
#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

using namespace nic_tb;

TEST_CASE("nic: the driver finds the NIC and opens a VP", "[nic]") {
  Pair p;
  CHECK(p.pair.driver(0).info().num_vp == 32);
  CHECK(p.pair.driver(0).info().dq_words == 512);
  CHECK(rdma_node(p.a) == 0);
  CHECK(rdma_node(p.b) == 1);
  CHECK(rdma_vp(p.a) == 0);
}

// rdma_close waits for the endpoint's transfers, deregisters its regions and frees its VP: with
// every VP of node 0 open, closing one lets rdma_open succeed again on that VP; a write posted
// just before the close has landed when it returns. (The endpoints a test leaves open are freed
// when its nodes detach: the sanitizer run checks that none leaks.)
TEST_CASE("nic: rdma_close finishes the transfers and frees the VP for the next rdma_open", "[nic]") {
  Pair p;
  constexpr size_t kLen = 3000;
  Buf dst;
  p.on(1, [&] { dst = make_buf(p.b, kLen, 0, RDMA_ACCESS_WRITE, kGuard); });
  std::vector<rdma_ep*> eps{p.a};
  int full = 0, again = -1;
  unsigned closed_vp = 0, reopened_vp = 0;
  std::vector<uint8_t> data(kLen);
  for (size_t i = 0; i < kLen; ++i) data[i] = uint8_t(i * 7 + 3);
  p.on(0, [&] {
    for (;;) {
      rdma_ep* e = nullptr;
      const int rc = rdma_open(&e);
      if (rc != 0) {
        full = rc;
        break;
      }
      eps.push_back(e);
    }
    rdma_ep* victim = eps[5];
    closed_vp = rdma_vp(victim);
    const Buf src = make_buf(victim, kLen, 0, RDMA_ACCESS_READ, 0);
    rdma_mem_write(victim, src.va, data.data(), kLen);
    REQUIRE(rdma_write(victim, 1, rdma_vp(p.b), {dst.key, dst.va}, {src.key, src.va}, kLen, nullptr) == 0);
    rdma_close(victim);
    eps.erase(eps.begin() + 5);
    rdma_ep* e = nullptr;
    again = rdma_open(&e);
    if (again == 0) {
      reopened_vp = rdma_vp(e);
      eps.push_back(e);
    }
  });
  CHECK(eps.size() == 32);
  CHECK(full == -int(f::Status::BAD_VP));
  CHECK(again == 0);
  CHECK(reopened_vp == closed_vp);
  CHECK(diff(peek(p.b, dst.va, kLen), data) == "same");
  p.on(0, [&] {
    for (size_t i = 1; i < eps.size(); ++i) rdma_close(eps[i]);
  });
}

TEST_CASE("nic: RDMA write lands byte-exact and nothing else changes", "[nic]") {
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic write"));
  constexpr size_t kSrc = 3 * 4096, kDst = 6 * 4096;
  Buf src, dst;
  p.on(0, [&] { src = make_buf(p.a, kSrc, 7, RDMA_ACCESS_READ, 0); });
  p.on(1, [&] { dst = make_buf(p.b, kDst, 19, RDMA_ACCESS_WRITE, kGuard); });
  std::vector<uint8_t> data(kSrc);
  for (auto& x : data) x = uint8_t(rng());
  p.on(0, [&] { rdma_mem_write(p.a, src.va, data.data(), kSrc); });
  std::vector<uint8_t> expect(kDst, kGuard);
  struct Case { unsigned so, doff, len; };
  std::vector<Case> cases;
  for (unsigned len : {1u, 2u, 31u, 32u, 33u, 34u, 127u, 128u, 129u, 255u, 1023u, 1024u, 1025u, 4095u, 4096u, 4097u})
    cases.push_back({unsigned(rng() % 64), unsigned(rng() % 64), len});
  cases.push_back({31, 0, 34});  // the paper's worked example
  // destinations laid out one after another: each case writes its own range
  std::vector<unsigned> at;
  unsigned next = 0;
  for (auto& c : cases) {
    next += c.doff;
    at.push_back(next);
    next += c.len + 5;
  }
  REQUIRE(next < kDst);
  int rc = -1;
  uint64_t t0 = p.pair.cycles();
  p.on(0, [&] {
    for (size_t i = 0; i < cases.size(); ++i)
      REQUIRE(rdma_write(p.a, 1, rdma_vp(p.b), {dst.key, dst.va + at[i]}, {src.key, src.va + cases[i].so},
                         cases[i].len, nullptr) == 0);
    rc = rdma_quiet(p.a);
  });
  CHECK(rc == 0);
  INFO("cycles " << p.pair.cycles() - t0);
  for (size_t i = 0; i < cases.size(); ++i)
    std::memcpy(&expect[at[i]], &data[cases[i].so], cases[i].len);
  CHECK(diff(peek(p.b, dst.va, kDst), expect) == "same");
}

TEST_CASE("nic: RDMA read lands byte-exact and nothing else changes", "[nic]") {
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic write") + 1);
  constexpr size_t kN = 2 * 4096 + 100;
  Buf remote, local;
  std::vector<uint8_t> data(kN);
  for (auto& x : data) x = uint8_t(rng());
  p.on(1, [&] {
    remote = make_buf(p.b, kN, 3, RDMA_ACCESS_READ, 0);
    rdma_mem_write(p.b, remote.va, data.data(), kN);
  });
  p.on(0, [&] { local = make_buf(p.a, kN + 256, 29, RDMA_ACCESS_WRITE, kGuard); });
  int rc = -1;
  const unsigned so = 5, doff = 77, len = 6000;
  p.on(0, [&] {
    REQUIRE(rdma_read(p.a, 1, rdma_vp(p.b), {remote.key, remote.va + so}, {local.key, local.va + doff}, len, nullptr) == 0);
    rc = rdma_quiet(p.a);
  });
  CHECK(rc == 0);
  std::vector<uint8_t> expect(kN + 256, kGuard);
  std::memcpy(&expect[doff], &data[so], len);
  CHECK(diff(peek(p.a, local.va, kN + 256), expect) == "same");
}

TEST_CASE("nic: immediate writes of 1 to 128 bytes", "[nic]") {
  Pair p;
  Buf dst;
  p.on(1, [&] { dst = make_buf(p.b, 200 * 130, 0, RDMA_ACCESS_WRITE, kGuard); });
  std::vector<uint8_t> expect(200 * 130, kGuard);
  int rc = -1;
  p.on(0, [&] {
    for (unsigned len = 1; len <= 128; ++len) {
      std::vector<uint8_t> d(len);
      for (unsigned i = 0; i < len; ++i) d[i] = uint8_t(len * 7 + i);
      const unsigned at = len * 130 + (len * 13) % 64;
      REQUIRE(rdma_write_imm(p.a, 1, rdma_vp(p.b), {dst.key, dst.va + at}, d.data(), len, nullptr) == 0);
      std::memcpy(&expect[at], d.data(), len);
      std::fill(d.begin(), d.end(), 0);  // the buffer is reusable on return
    }
    rc = rdma_quiet(p.a);
  });
  CHECK(rc == 0);
  CHECK(diff(peek(p.b, dst.va, expect.size()), expect) == "same");
}

TEST_CASE("nic: mini-packets arrive in order across MPQ wrap-around", "[nic]") {
  Pair p;
  constexpr unsigned kN = 150;  // the MPQ holds 64
  std::vector<std::vector<uint8_t>> got;
  std::vector<rdma_mp_info> info;
  p.pair.spawn(0, 0, 0, [&] {
    for (unsigned i = 0; i < kN; ++i) {
      std::vector<uint8_t> d(i % 121);
      for (unsigned k = 0; k < d.size(); ++k) d[k] = uint8_t(i + k);
      rdma_opts o{};
      o.tag = uint16_t(i);
      o.submit = -1;
      REQUIRE(rdma_mp_send(p.a, 1, rdma_vp(p.b), d.data(), unsigned(d.size()), &o) == 0);
      if (i % 50 == 49) REQUIRE(rdma_quiet(p.a) == 0);
    }
  });
  p.pair.spawn(1, 0, 0, [&] {
    for (unsigned i = 0; i < kN; ++i) {
      uint8_t buf[120];
      rdma_mp_info in{};
      const int n = rdma_mp_recv(p.b, buf, &in, 1);
      got.emplace_back(buf, buf + n);
      info.push_back(in);
    }
  });
  p.pair.run();
  REQUIRE(got.size() == kN);
  for (unsigned i = 0; i < kN; ++i) {
    std::vector<uint8_t> d(i % 121);
    for (unsigned k = 0; k < d.size(); ++k) d[k] = uint8_t(i + k);
    CHECK(got[i] == d);
    CHECK(info[i].tag == i);
    CHECK(info[i].src_node == 0);
    CHECK(info[i].src_vp == rdma_vp(p.a));
  }
}

TEST_CASE("nic: CQ entries and events exactly as requested", "[nic]") {
  Pair p;
  Buf src, dst, lev, rev;
  p.on(0, [&] {
    src = make_buf(p.a, 4096, 0, RDMA_ACCESS_READ, 0x11);
    lev = make_buf(p.a, 4096, 0, RDMA_ACCESS_WRITE, 0);
  });
  p.on(1, [&] {
    dst = make_buf(p.b, 4096, 0, RDMA_ACCESS_WRITE, 0);
    rev = make_buf(p.b, 4096, 0, RDMA_ACCESS_WRITE, 0);
  });
  std::vector<rdma_cqe> cqes;
  uint8_t lev_got[16] = {}, rev_got[16] = {};
  p.pair.spawn(0, 0, 0, [&] {
    rdma_event le{{lev.key, lev.va + 32}, {}}, re{{rev.key, rev.va + 48}, {}};
    for (unsigned i = 0; i < 16; ++i) le.data[i] = uint8_t(0xA0 + i), re.data[i] = uint8_t(0xB0 + i);
    rdma_opts o{};
    o.submit = -1;
    o.tag = 1;  // no CQ entry asked: none written
    REQUIRE(rdma_write(p.a, 1, rdma_vp(p.b), {dst.key, dst.va}, {src.key, src.va}, 100, &o) == 0);
    o.tag = 2;
    o.flags = RDMA_F_CQ;
    o.local_event = &le;
    o.remote_event = &re;
    REQUIRE(rdma_write(p.a, 1, rdma_vp(p.b), {dst.key, dst.va + 200}, {src.key, src.va}, 300, &o) == 0);
    rdma_wait_event(p.a, lev.va + 32, lev_got);
    REQUIRE(rdma_quiet(p.a) == 0);
    rdma_cqe e[4];
    const int n = rdma_poll_cq(p.a, e, 4);
    cqes.assign(e, e + n);
  });
  p.pair.spawn(1, 0, 0, [&] { rdma_wait_event(p.b, rev.va + 48, rev_got); });
  p.pair.run();
  REQUIRE(cqes.size() == 1);
  CHECK(cqes[0].tag == 2);
  CHECK(cqes[0].status == 0);
  CHECK(cqes[0].len == 300);
  CHECK(cqes[0].type == unsigned(f::DescType::RDMA_WRITE));
  for (unsigned i = 0; i < 16; ++i) {
    CHECK(lev_got[i] == 0xA0 + i);
    CHECK(rev_got[i] == 0xB0 + i);
  }
}

TEST_CASE("nic: protection errors complete with an error and touch no byte", "[nic]") {
  Pair p;
  Buf src, dst, ro, other;
  rdma_ep* a2 = nullptr;
  p.on(0, [&] {
    src = make_buf(p.a, 4096, 0, RDMA_ACCESS_READ, 0x5A);
    REQUIRE(rdma_open(&a2) == 0);
  });
  p.on(1, [&] {
    dst = make_buf(p.b, 4096, 0, RDMA_ACCESS_WRITE, kGuard);
    ro = make_buf(p.b, 4096, 0, RDMA_ACCESS_READ, kGuard);
  });
  p.on(0, [&] { other = make_buf(a2, 4096, 0, RDMA_ACCESS_READ, 0x77); });
  struct Bad { const char* what; rdma_addr remote, local; uint32_t len; int status; };
  const int remote = 0x80;
  std::vector<Bad> bad = {
      {"unregistered remote key", {999, dst.va}, {src.key, src.va}, 64, -(remote | int(f::Status::BAD_KEY))},
      {"beyond the remote region", {dst.key, dst.va + 4000}, {src.key, src.va}, 200, -(remote | int(f::Status::RANGE))},
      {"write to a read-only region", {ro.key, ro.va}, {src.key, src.va}, 64, -(remote | int(f::Status::PERM))},
      {"another VP's local key", {dst.key, dst.va}, {other.key, other.va}, 64, -int(f::Status::NOT_OWNER)},
      {"unregistered local key", {dst.key, dst.va}, {777, src.va}, 64, -int(f::Status::BAD_KEY)},
      {"zero length", {dst.key, dst.va}, {src.key, src.va}, 0, -int(f::Status::BAD_LEN)},
  };
  for (const Bad& b : bad) {
    DYNAMIC_SECTION(b.what) {
      std::vector<rdma_cqe> e(2);
      int n = 0, q = 0;
      p.on(0, [&] {
        REQUIRE(rdma_write(p.a, 1, rdma_vp(p.b), b.remote, b.local, b.len, nullptr) == 0);
        q = rdma_quiet(p.a);
        n = rdma_poll_cq(p.a, e.data(), 2);
      });
      CHECK(q == b.status);
      REQUIRE(n == 1);
      CHECK(e[0].status == b.status);
      CHECK(diff(peek(p.b, dst.va, 4096), std::vector<uint8_t>(4096, kGuard)) == "same");
      CHECK(diff(peek(p.b, ro.va, 4096), std::vector<uint8_t>(4096, kGuard)) == "same");
      // the VP and the NIC keep working
      int ok = -1;
      p.on(0, [&] {
        REQUIRE(rdma_write(p.a, 1, rdma_vp(p.b), {dst.key, dst.va + 8}, {src.key, src.va}, 16, nullptr) == 0);
        ok = rdma_quiet(p.a);
      });
      CHECK(ok == 0);
      auto v = peek(p.b, dst.va, 4096);
      CHECK(std::count(v.begin() + 8, v.begin() + 24, 0x5A) == 16);
    }
  }
}
