// test_nic_queues.cpp: two nodes with NICs back to back, the NIC's queues and its refusals, through
// the NIC driver and the RDMA library (hpcnet/rdma.h): malformed descriptors written as raw DQ words
// (rdma_post_raw), a descriptor written in two halves with other VPs' traffic in between, a full
// MPQ and a full CQ, unaligned events (physical addressing, deregistration and the interrupt are in
// test_nic_access.cpp). Each refusal: an error CQ entry with the right status, type, VP and tag,
// VP.ERR, no byte touched anywhere (checked against the host's own copies), and the VP and the NIC
// keep working afterwards.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
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

namespace {

using hpcnet::nic::Driver;

// Word 0 of a descriptor, any field value (an unknown type included).
struct Ctrl {
  unsigned type = 0, nwords = 0, tag = 0, dst_node = 1, dst_vp = 0, short_len = 0;
  bool lev = false, rev = false, phys = false, cq_ok = false, intr = false, block = false;
  uint64_t word() const {
    f::DescCtrl c;
    c.type = static_cast<f::DescType>(type);
    c.nwords = nwords;
    c.tag = tag;
    c.dst_node = dst_node;
    c.dst_vp = dst_vp;
    c.short_len = short_len;
    c.lev = lev;
    c.rev = rev;
    c.phys = phys;
    c.cq_ok = cq_ok;
    c.intr = intr;
    c.block = block;
    return c.pack()[0];
  }
};

uint64_t vaddr(uint16_t key, uint64_t addr) {
  f::Vaddr v;
  v.key = key;
  v.addr = addr;
  return v.pack()[0];
}

// The VP's STATUS and its wait for everything posted to complete, from a thread of its node.
f::VpStatus vp_status(Driver& d, unsigned vp) { return f::VpStatus::unpack({d.vp_reg(vp, f::VP_STATUS_OFFSET)}); }
void settle(Driver& d, unsigned vp) {
  wait_until([&] {
    const f::VpStatus s = vp_status(d, vp);
    return s.outstanding == 0 && s.dq_words == 0;
  });
}

}  // namespace

// ---------------------------------------------------------------- malformed descriptors

TEST_CASE("nic: malformed descriptors complete with an error and touch nothing", "[nic][queues]") {
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic malformed"));
  rdma_ep* nompq = nullptr;  // a VP of node 1 without an MPQ
  {
    rdma_ep_attr at{8, 0, 10, 0};
    nompq = p.open(1, &at);
  }
  Driver& d0 = p.driver(0);
  const unsigned va_ = rdma_vp(p.a), vb = rdma_vp(p.b), vn = rdma_vp(nompq);
  constexpr unsigned kOff = 7;  // not one of the open VPs of node 1
  constexpr size_t kN = 4096;
  Buf src, rdst, lev, dst, rsrc, rev, ok;
  p.on(0, [&] {
    src = reg_buf(p.a, kN, 5, RDMA_ACCESS_READ);
    rdst = reg_buf(p.a, kN, 9, RDMA_ACCESS_WRITE);
    lev = reg_buf(p.a, kN, 0, RDMA_ACCESS_WRITE);
  });
  p.on(1, [&] {
    dst = reg_buf(p.b, kN, 3, RDMA_ACCESS_WRITE);
    rsrc = reg_buf(p.b, kN, 0, RDMA_ACCESS_READ);
    rev = reg_buf(p.b, kN, 0, RDMA_ACCESS_WRITE);
    ok = reg_buf(p.b, kN, 0, RDMA_ACCESS_WRITE);
  });
  // the images every bad descriptor must leave as they are
  const auto sdata = random_bytes(rng, kN), rdata = random_bytes(rng, kN);
  const std::vector<uint8_t> guard(kN, kGuard), zero(kN, 0);
  rdma_mem_write(p.a, src.va, sdata.data(), kN);
  rdma_mem_write(p.a, rdst.va, guard.data(), kN);
  rdma_mem_write(p.b, dst.va, guard.data(), kN);
  rdma_mem_write(p.b, rsrc.va, rdata.data(), kN);
  const uint64_t S = vaddr(src.key, src.va), D = vaddr(dst.key, dst.va), L = vaddr(rdst.key, rdst.va),
                 R = vaddr(rsrc.key, rsrc.va), LE = vaddr(lev.key, lev.va), RE = vaddr(rev.key, rev.va);
  struct Bad {
    std::string what;
    std::vector<uint64_t> w;
    f::Status status;
    bool remote;
  };
  std::vector<Bad> bad;
  auto C = [&](unsigned type, unsigned nwords) {
    Ctrl c;
    c.type = type;
    c.nwords = nwords;
    c.dst_vp = vb;
    c.tag = 0x100 + unsigned(bad.size());
    return c;
  };
  auto words = [](uint64_t w0, std::vector<uint64_t> rest) {
    rest.insert(rest.begin(), w0);
    return rest;
  };
  auto fill = [](unsigned n) { return std::vector<uint64_t>(n, 0x0123456789ABCDEFull); };
  using T = f::DescType;
  const unsigned W = unsigned(T::RDMA_WRITE), Rd = unsigned(T::RDMA_READ), I = unsigned(T::IMM_WRITE), M = unsigned(T::MP_SEND);
  {
    bad.push_back({"unknown type 5", words(C(5, 2).word(), {0}), f::Status::BAD_TYPE, false});
    bad.push_back({"type 0 (INVALID)", words(C(0, 2).word(), {0}), f::Status::BAD_TYPE, false});
    bad.push_back({"unknown type 15 with an RDMA write's words", words(C(15, 4).word(), {64, S, D}), f::Status::BAD_TYPE, false});
    bad.push_back({"NWORDS 3 on an RDMA write", words(C(W, 3).word(), {64, S}), f::Status::BAD_NWORDS, false});
    bad.push_back({"NWORDS 5 on an RDMA write without events", words(C(W, 5).word(), {64, S, D, 0}), f::Status::BAD_NWORDS, false});
    Ctrl c = C(I, 5);
    c.short_len = 16;  // takes 4 words
    bad.push_back({"NWORDS 5 on an immediate write of 16 bytes", words(c.word(), {D, 1, 2, 3}), f::Status::BAD_NWORDS, false});
    c = C(W, 7);
    c.lev = true;  // an RDMA write with a local event takes 7: 6 is short
    c.nwords = 6;
    bad.push_back({"NWORDS 6 on an RDMA write with a local event", words(c.word(), {64, S, D, LE, 1}), f::Status::BAD_NWORDS, false});
    // NWORDS outside 2..24: the DQ hands out the word alone
    for (unsigned n : {0u, 1u, 25u, 31u})
      bad.push_back({"NWORDS " + std::to_string(n), {C(W, n).word()}, f::Status::BAD_NWORDS, false});
    c = C(I, 19);
    c.short_len = 129;
    bad.push_back({"immediate write of 129 bytes", words(c.word(), [&] { auto v = fill(17); v.insert(v.begin(), D); return v; }()), f::Status::BAD_LEN, false});
    c = C(I, 2);
    c.short_len = 0;
    bad.push_back({"immediate write of 0 bytes", words(c.word(), {D}), f::Status::BAD_LEN, false});
    c = C(M, 17);
    c.short_len = 121;
    bad.push_back({"mini-packet of 121 bytes", words(c.word(), fill(16)), f::Status::BAD_LEN, false});
    bad.push_back({"RDMA write of 0 bytes", words(C(W, 4).word(), {0, S, D}), f::Status::BAD_LEN, false});
    bad.push_back({"RDMA read of 0 bytes", words(C(Rd, 4).word(), {0, L, R}), f::Status::BAD_LEN, false});
    c = C(Rd, 7);
    c.rev = true;
    bad.push_back({"REV on an RDMA read", words(c.word(), {64, L, R, RE, 1, 2}), f::Status::BAD_FLAGS, false});
    c = C(M, 5);
    c.rev = true;
    c.short_len = 8;
    bad.push_back({"REV on a mini-packet", words(c.word(), {RE, 1, 2, 3}), f::Status::BAD_FLAGS, false});
    c = C(W, 4);
    c.phys = true;
    bad.push_back({"PHYS on a VP without PHYS_OK", words(c.word(), {64, rdma_phys(p.a, src.va), 0x1000}), f::Status::PHYS_DENIED, false});
    c = C(I, 3);
    c.phys = true;
    c.short_len = 8;
    bad.push_back({"PHYS immediate write on a VP without PHYS_OK", words(c.word(), {0x1000, 1}), f::Status::PHYS_DENIED, false});
    c = C(W, 7);
    c.lev = true;
    bad.push_back({"local event not 16-byte aligned", words(c.word(), {64, S, D, LE + 8, 1, 2}), f::Status::EV_ALIGN, false});
    c = C(W, 7);
    c.rev = true;
    bad.push_back({"remote event not 16-byte aligned", words(c.word(), {64, S, D, RE + 4, 1, 2}), f::Status::EV_ALIGN, false});
    c = C(I, 6);
    c.rev = true;
    c.short_len = 8;
    bad.push_back({"immediate write with its remote event not 16-byte aligned", words(c.word(), {D, RE + 1, 1, 2, 3}), f::Status::EV_ALIGN, false});
    c = C(M, 5);
    c.lev = true;
    c.short_len = 8;
    bad.push_back({"mini-packet with its local event not 16-byte aligned", words(c.word(), {LE + 12, 1, 2, 3}), f::Status::EV_ALIGN, false});
    // DST_VP is 5 bits: with 32 VPs every value names a VP; a VP that is not enabled at the target
    // refuses (BAD_VP, found there)
    c = C(W, 4);
    c.dst_vp = kOff;
    bad.push_back({"RDMA write to a VP not enabled at the target", words(c.word(), {64, S, D}), f::Status::BAD_VP, true});
    c = C(I, 3);
    c.dst_vp = kOff;
    c.short_len = 8;
    bad.push_back({"immediate write to a VP not enabled at the target", words(c.word(), {D, 1}), f::Status::BAD_VP, true});
    c = C(M, 2);
    c.dst_vp = kOff;
    c.short_len = 8;
    bad.push_back({"mini-packet to a VP not enabled at the target", words(c.word(), {1}), f::Status::BAD_VP, true});
    c = C(M, 2);
    c.dst_vp = vn;
    c.short_len = 8;
    bad.push_back({"mini-packet to a VP without an MPQ", words(c.word(), {1}), f::Status::BAD_VP, true});
    c = C(Rd, 4);
    c.dst_vp = kOff;
    bad.push_back({"RDMA read from a VP not enabled at the target", words(c.word(), {64, L, R}), f::Status::BAD_VP, true});
  }
  unsigned good = 0;  // good immediate writes done: each to its own 8 bytes of `ok`
  for (const Bad& b : bad) {
    INFO(b.what);
    const Ctrl c{unsigned(b.w[0] & 15), 0, unsigned((b.w[0] >> 16) & 0xFFFF)};
    const int want = -(int(b.status) | (b.remote ? kRemote : 0));
    std::vector<rdma_cqe> e;
    f::VpErr err;
    f::VpStatus st;
    int q = 1, extra = -1, gq = 1;
    uint64_t mpq_tail = 0;
    p.on(0, [&] {
      REQUIRE(rdma_post_raw(p.a, b.w.data(), unsigned(b.w.size())) == 0);
      e = poll_n(p.a, 1);
      settle(d0, va_);
      st = vp_status(d0, va_);
      err = d0.vp_error(va_);
      q = rdma_quiet(p.a);  // returns the error and clears VP.ERR
      rdma_cqe more[2];
      extra = rdma_poll_cq(p.a, more, 2);
      // the VP keeps working
      const uint64_t v = 0x1111111111111111ull * (good % 15 + 1);
      const rdma_opts o = opts(0x7777);
      REQUIRE(rdma_write_imm(p.a, 1, vb, {ok.key, ok.va + 8 * good}, &v, 8, &o) == 0);
      gq = rdma_quiet(p.a);
    });
    p.on(1, [&] { mpq_tail = p.driver(1).vp_reg(vb, f::VP_MPQ_TAIL_OFFSET); });
    ++good;
    REQUIRE(e.size() == 1);
    CHECK(e[0].tag == c.tag);
    CHECK(e[0].status == want);
    CHECK(e[0].type == c.type);
    CHECK(e[0].vp == va_);
    CHECK(e[0].dst_node == 1);
    CHECK(e[0].len == 0);
    CHECK(int(err.code) == -want);
    CHECK(err.count == 1);
    CHECK(err.tag == c.tag);
    CHECK(q == want);
    CHECK(extra == 0);
    CHECK(st.dq_words == 0);  // the DQ stays in step: nothing of the bad descriptor is left
    CHECK(gq == 0);
    CHECK(mpq_tail == 0);
    CHECK(diff(peek(p.a, src.va, kN), sdata) == "same");
    CHECK(diff(peek(p.a, rdst.va, kN), guard) == "same");
    CHECK(diff(peek(p.a, lev.va, kN), zero) == "same");
    CHECK(diff(peek(p.b, dst.va, kN), guard) == "same");
    CHECK(diff(peek(p.b, rsrc.va, kN), rdata) == "same");
    CHECK(diff(peek(p.b, rev.va, kN), zero) == "same");
  }
  // every good write after a bad descriptor landed, nothing else in `ok`
  std::vector<uint8_t> want(kN, 0);
  for (unsigned g = 0; g < good; ++g) std::memset(&want[8 * g], 0x11 * (g % 15 + 1), 8);
  CHECK(diff(peek(p.b, ok.va, kN), want) == "same");
  // and the other kinds still work too
  int rc = -1;
  uint8_t mp[120] = {};
  int mn = -1;
  p.on(0, [&] {
    REQUIRE(rdma_write(p.a, 1, vb, {dst.key, dst.va + 100}, {src.key, src.va + 7}, 3000, nullptr) == 0);
    REQUIRE(rdma_read(p.a, 1, vb, {rsrc.key, rsrc.va + 11}, {rdst.key, rdst.va + 1}, 2000, nullptr) == 0);
    const char msg[] = "still alive";
    REQUIRE(rdma_mp_send(p.a, 1, vb, msg, sizeof msg, nullptr) == 0);
    rc = rdma_quiet(p.a);
  });
  p.on(1, [&] { mn = rdma_mp_recv(p.b, mp, nullptr, 1); });
  CHECK(rc == 0);
  CHECK(mn == 12);
  CHECK(std::string(reinterpret_cast<char*>(mp)) == "still alive");
  std::vector<uint8_t> dexp = guard, rexp = guard;
  std::memcpy(&dexp[100], &sdata[7], 3000);
  std::memcpy(&rexp[1], &rdata[11], 2000);
  CHECK(diff(peek(p.b, dst.va, kN), dexp) == "same");
  CHECK(diff(peek(p.a, rdst.va, kN), rexp) == "same");
}

// ---------------------------------------------------------------- a descriptor in two halves

TEST_CASE("nic: a descriptor written in two halves runs once and only after its last word", "[nic][queues]") {
  // Thread 1 (VP a) writes the first words of a descriptor to its DQ and is "preempted"; thread 2
  // (another VP of the same node) runs full transfers meanwhile; then thread 1 writes the rest.
  // For an immediate write, an RDMA write and a mini-packet, split at several points: nothing of
  // it happens before its last word (destination untouched, no CQ entry, no mini-packet), it
  // happens exactly once after (one CQ entry, one mini-packet), and the other VP's transfers are
  // not held up by the incomplete descriptor.
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic halves"));
  rdma_ep* a2 = p.open(0);
  Driver& d0 = p.driver(0);
  const unsigned va_ = rdma_vp(p.a), vb = rdma_vp(p.b);
  constexpr size_t kN = 4096;
  Buf src, src2, dst, dst2;
  p.on(0, [&] {
    src = reg_buf(p.a, kN, 0, RDMA_ACCESS_READ);
    src2 = reg_buf(a2, kN, 0, RDMA_ACCESS_READ);
  });
  p.on(1, [&] {
    dst = reg_buf(p.b, kN, 0, RDMA_ACCESS_WRITE);
    dst2 = reg_buf(p.b, kN, 0, RDMA_ACCESS_WRITE);
  });
  const auto sdata = random_bytes(rng, kN), s2data = random_bytes(rng, kN);
  rdma_mem_write(p.a, src.va, sdata.data(), kN);
  rdma_mem_write(a2, src2.va, s2data.data(), kN);
  std::vector<uint8_t> dexp(kN, kGuard), d2exp(kN, kGuard);
  rdma_mem_write(p.b, dst.va, dexp.data(), kN);
  rdma_mem_write(p.b, dst2.va, d2exp.data(), kN);
  struct Split {
    std::string what;
    std::vector<uint64_t> w;
    unsigned cut;  // words written first
    bool mp;
    uint32_t at = 0;              // a write's destination offset in dst and its bytes
    std::vector<uint8_t> bytes;
  };
  std::vector<Split> splits;
  uint16_t tag = 0x500;
  unsigned at = 0;  // next destination offset in dst
  std::vector<std::vector<uint8_t>> mp_want;
  for (unsigned cut : {1u, 2u, 3u}) {
    Ctrl c{unsigned(f::DescType::RDMA_WRITE), 4, tag++, 1, vb};
    c.cq_ok = true;
    const uint32_t len = 700 + 10 * cut, so = 13 * cut;
    splits.push_back({"RDMA write split after word " + std::to_string(cut),
                      {c.word(), len, vaddr(src.key, src.va + so), vaddr(dst.key, dst.va + at)}, cut, false, at,
                      std::vector<uint8_t>(sdata.begin() + so, sdata.begin() + so + len)});
    at += len + 50;
  }
  for (unsigned cut : {1u, 8u, 17u}) {
    Ctrl c{unsigned(f::DescType::IMM_WRITE), 18, tag++, 1, vb, 128};
    c.cq_ok = true;
    const auto d = random_bytes(rng, 128);
    std::vector<uint64_t> w{c.word(), vaddr(dst.key, dst.va + at)};
    for (unsigned k = 0; k < 16; ++k) {
      uint64_t x;
      std::memcpy(&x, &d[8 * k], 8);
      w.push_back(x);
    }
    splits.push_back({"immediate write split after word " + std::to_string(cut), w, cut, false, at, d});
    at += 128 + 50;
  }
  for (unsigned cut : {1u, 5u}) {
    Ctrl c{unsigned(f::DescType::MP_SEND), 9, tag++, 1, vb, 64};
    c.cq_ok = true;
    const auto d = random_bytes(rng, 64);
    mp_want.push_back(d);
    std::vector<uint64_t> w{c.word()};
    for (unsigned k = 0; k < 8; ++k) {
      uint64_t x;
      std::memcpy(&x, &d[8 * k], 8);
      w.push_back(x);
    }
    splits.push_back({"mini-packet split after word " + std::to_string(cut), w, cut, true, 0, {}});
  }
  std::vector<uint8_t> seen_before(kN);
  for (const Split& sp : splits) {
    INFO(sp.what);
    std::atomic<int> phase{0};
    f::VpStatus mid{};
    int n_before = -1, rc2 = -1, rc = -1;
    uint64_t mpq_before = 0;
    std::vector<rdma_cqe> after;
    int extra = -1;
    const uint32_t so2 = uint32_t(rng() % 2000), do2 = uint32_t(rng() % 2000), len2 = 1 + uint32_t(rng() % 2000);
    std::memcpy(&d2exp[do2], &s2data[so2], len2);
    p.pair.spawn(0, 0, 0, [&] {
      REQUIRE(rdma_post_raw(p.a, sp.w.data(), sp.cut) == 0);
      phase = 1;
      wait_until([&] { return phase == 2; });
      REQUIRE(rdma_post_raw(p.a, sp.w.data() + sp.cut, unsigned(sp.w.size() - sp.cut)) == 0);
      rc = rdma_quiet(p.a);
      after = poll_n(p.a, 1);
      hpcnet::this_platform()->compute(3000);  // a second execution would have shown by now
      rdma_cqe more[2];
      extra = rdma_poll_cq(p.a, more, 2);
    });
    p.pair.spawn(0, 0, 1, [&] {
      wait_until([&] { return phase == 1; });
      // another VP's full transfers while VP a's descriptor is half written
      REQUIRE(rdma_write(a2, 1, vb, {dst2.key, dst2.va + do2}, {src2.key, src2.va + so2}, len2, nullptr) == 0);
      const uint8_t x[40] = {1, 2, 3};
      REQUIRE(rdma_mp_send(a2, 1, vb, x, 40, nullptr) == 0);
      rc2 = rdma_quiet(a2);
      hpcnet::this_platform()->compute(2000);
      mid = vp_status(d0, va_);
      rdma_cqe e[2];
      n_before = rdma_poll_cq(p.a, e, 2);
      rdma_mem_read(p.b, dst.va, seen_before.data(), kN);  // (memory reads: no MMIO, any node)
      phase = 2;
    });
    p.pair.spawn(1, 0, 0, [&] {
      uint8_t b[120];
      rdma_mp_info in{};
      REQUIRE(rdma_mp_recv(p.b, b, &in, 1) == 40);  // a2's
      CHECK(in.src_vp == rdma_vp(a2));
      wait_until([&] { return phase == 2; });
      mpq_before = p.driver(1).vp_reg(vb, f::VP_MPQ_TAIL_OFFSET);
    });
    p.pair.run();
    CHECK(rc2 == 0);
    CHECK(mid.dq_words == sp.cut);   // the first half waits in the DQ ...
    CHECK(mid.outstanding == 0);     // ... not started
    CHECK(n_before == 0);
    CHECK(rc == 0);
    REQUIRE(after.size() == 1);      // executed once
    CHECK(after[0].tag == ((sp.w[0] >> 16) & 0xFFFF));
    CHECK(after[0].status == 0);
    CHECK(extra == 0);
    CHECK(diff(peek(p.b, dst2.va, kN), d2exp) == "same");
    CHECK(diff(seen_before, dexp) == "same");  // nothing of it before its last word
    std::copy(sp.bytes.begin(), sp.bytes.end(), dexp.begin() + sp.at);
    CHECK(diff(peek(p.b, dst.va, kN), dexp) == "same");  // all of it after
    if (sp.mp) {
      uint64_t mpq_after = 0;
      std::vector<uint8_t> got(120);
      int n = -1, none = -1;
      p.on(1, [&] {
        mpq_after = p.driver(1).vp_reg(vb, f::VP_MPQ_TAIL_OFFSET);
        n = rdma_mp_recv(p.b, got.data(), nullptr, 1);
        none = rdma_mp_recv(p.b, got.data() + 64, nullptr, 0);
      });
      CHECK(mpq_after == mpq_before + 1);  // one mini-packet, not two
      CHECK(n == 64);
      CHECK(none == 0);
      got.resize(64);
      CHECK(got == mp_want.at(&sp - &splits[0] - 6));
    }
  }
}

// ---------------------------------------------------------------- full queues

TEST_CASE("nic: a full MPQ refuses mini-packets with MPQ_FULL and overwrites nothing", "[nic][queues]") {
  Pair p;
  rdma_ep_attr at{8, 3, 10, 0};  // an MPQ of 8 entries
  rdma_ep* r = p.open(1, &at);
  const unsigned vr = rdma_vp(r), va_ = rdma_vp(p.a);
  auto payload = [](unsigned j) {
    std::vector<uint8_t> d(8 + (j * 13) % 113);
    for (size_t k = 0; k < d.size(); ++k) d[k] = uint8_t(j * 17 + k);
    return d;
  };
  constexpr unsigned kSend = 12;
  int q = 1;
  std::vector<rdma_cqe> cq;
  p.on(0, [&] {  // the receiver never drains
    for (unsigned j = 0; j < kSend; ++j) {
      const auto d = payload(j);
      const rdma_opts o = opts(uint16_t(j), RDMA_F_CQ);
      REQUIRE(rdma_mp_send(p.a, 1, vr, d.data(), unsigned(d.size()), &o) == 0);
    }
    q = rdma_quiet(p.a);
    cq = poll_n(p.a, kSend);
  });
  const int full = -(kRemote | int(f::Status::MPQ_FULL));
  CHECK(q == full);
  for (unsigned j = 0; j < kSend; ++j) {
    INFO("mini-packet " << j);
    CHECK(cq[j].tag == j);  // completions in the order sent
    CHECK(cq[j].type == unsigned(f::DescType::MP_SEND));
    CHECK(cq[j].vp == va_);
    CHECK(cq[j].status == (j < 8 ? 0 : full));  // the surplus is refused
  }
  // the MPQ holds exactly the first 8, intact
  uint64_t tail = 0;
  std::vector<std::vector<uint8_t>> got;
  std::vector<rdma_mp_info> info;
  int none = -1;
  p.on(1, [&] {
    tail = p.driver(1).vp_reg(vr, f::VP_MPQ_TAIL_OFFSET);
    for (unsigned j = 0; j < 8; ++j) {
      uint8_t b[120];
      rdma_mp_info in{};
      const int n = rdma_mp_recv(r, b, &in, 0);
      got.emplace_back(b, b + std::max(n, 0));
      info.push_back(in);
    }
    uint8_t b[120];
    none = rdma_mp_recv(r, b, nullptr, 0);
  });
  CHECK(tail == 8);
  CHECK(none == 0);
  for (unsigned j = 0; j < 8; ++j) {
    INFO("entry " << j);
    CHECK(info[j].tag == j);
    CHECK(info[j].src_vp == va_);
    CHECK(got[j] == payload(j));
  }
  // drained: the refused ones sent again, and more, around the ring while the receiver drains
  constexpr unsigned kMore = 30;
  q = 1;
  got.clear();
  info.clear();
  p.pair.spawn(0, 0, 0, [&] {
    for (unsigned j = 8; j < 8 + kMore; ++j) {
      const auto d = payload(j);
      const rdma_opts o = opts(uint16_t(j));
      REQUIRE(rdma_mp_send(p.a, 1, vr, d.data(), unsigned(d.size()), &o) == 0);
      if (j % 8 == 7) REQUIRE(rdma_quiet(p.a) == 0);  // at most 8 in flight: none can be refused
    }
    q = rdma_quiet(p.a);
  });
  p.pair.spawn(1, 0, 0, [&] {
    for (unsigned j = 0; j < kMore; ++j) {
      uint8_t b[120];
      rdma_mp_info in{};
      const int n = rdma_mp_recv(r, b, &in, 1);
      got.emplace_back(b, b + std::max(n, 0));
      info.push_back(in);
    }
  });
  p.pair.run();
  CHECK(q == 0);
  for (unsigned j = 0; j < kMore; ++j) {
    INFO("entry " << j + 8);
    CHECK(info[j].tag == j + 8);
    CHECK(got[j] == payload(j + 8));
  }
}

TEST_CASE("nic: a full CQ stalls its VP and no entry is overwritten", "[nic][queues]") {
  // A VP with a CQ of 4 entries posts 20 immediate writes asking for entries (every fifth to an
  // unregistered key: its error entry is written too) while nobody polls: exactly 4 complete, the
  // rest wait in the DQ; then polling one entry at a time lets it finish, every TAG in sequence.
  Pair p;
  rdma_ep_attr at{2, 6, 10, 0};
  rdma_ep* c = p.open(0, &at);
  Driver& d0 = p.driver(0);
  const unsigned vc = rdma_vp(c), vb = rdma_vp(p.b);
  Buf dst;
  p.on(1, [&] { dst = make_buf(p.b, 4096, 0, RDMA_ACCESS_WRITE, kGuard); });
  constexpr unsigned kN = 20;
  auto bad = [](unsigned j) { return j % 5 == 3; };
  p.on(0, [&] {
    for (unsigned j = 0; j < kN; ++j) {
      const uint64_t v = 0x0101010101010101ull * (j + 1);
      const rdma_opts o = opts(uint16_t(j), RDMA_F_CQ);
      const uint16_t key = bad(j) ? uint16_t(999) : dst.key;
      REQUIRE(rdma_write_imm(c, 1, vb, {key, dst.va + 16 * j}, &v, 8, &o) == 0);
    }
  });
  std::array<f::VpStatus, 2> st{};
  std::array<uint64_t, 2> tail{};
  std::array<std::vector<uint8_t>, 2> img;
  p.on(0, [&] {
    for (int k = 0; k < 2; ++k) {
      hpcnet::this_platform()->compute(10000);
      st[k] = vp_status(d0, vc);
      tail[k] = d0.vp_reg(vc, f::VP_CQ_TAIL_OFFSET);
      img[k] = peek(p.b, dst.va, 4096);
    }
  });
  for (int k = 0; k < 2; ++k) {
    INFO("look " << k);
    CHECK(tail[k] == 4);                   // the CQ is full ...
    CHECK(st[k].outstanding == 0);         // ... nothing more started
    CHECK(st[k].dq_words == (kN - 4) * 3); // the rest waits in the DQ
    CHECK(st[k].cq_stall);                 // and says why
  }
  CHECK(img[0] == img[1]);
  std::vector<uint8_t> expect(4096, kGuard);
  for (unsigned j = 0; j < 4; ++j)
    if (!bad(j)) std::memset(&expect[16 * j], int(j + 1), 8);
  CHECK(diff(img[1], expect) == "same");  // exactly the first 4 ran
  // now poll, one entry at a time
  std::vector<rdma_cqe> got;
  int q = 1;
  p.on(0, [&] {
    got = poll_n(c, kN);
    q = rdma_quiet(c);
  });
  REQUIRE(got.size() == kN);
  const int bad_key = -(kRemote | int(f::Status::BAD_KEY));
  for (unsigned j = 0; j < kN; ++j) {
    INFO("entry " << j);
    CHECK(got[j].tag == j);
    CHECK(got[j].status == (bad(j) ? bad_key : 0));
    CHECK(got[j].len == (bad(j) ? 0u : 8u));
    if (!bad(j)) std::memset(&expect[16 * j], int(j + 1), 8);
  }
  CHECK(q == bad_key);
  CHECK(diff(peek(p.b, dst.va, 4096), expect) == "same");
}

TEST_CASE("nic: PIO after DMA waits for room in a DQ the host-DQ fetcher filled", "[nic][queues]") {
  // A VP with a CQ of 4 entries: one PIO descriptor and three DMA ones fill the CQ, 28 more DMA
  // descriptors (499 words) wait in the on-chip DQ, fetched. A PIO descriptor of 18 words must now
  // wait for room (13 words are free): written at once it would overflow the DQ (DQ_OVERFLOW, a
  // word dropped, the DQ's framing lost). Another thread polls the CQ after a while.
  Pair p;
  rdma_ep_attr at{2, 6, 10, 0};
  rdma_ep* c = p.open(0, &at);
  Driver& d0 = p.driver(0);
  const unsigned vc = rdma_vp(c), vb = rdma_vp(p.b);
  Buf dst;
  p.on(1, [&] { dst = make_buf(p.b, 8192, 0, RDMA_ACCESS_WRITE, kGuard); });
  std::vector<uint8_t> expect(8192, kGuard);
  struct Imm { unsigned len; int mode; };
  std::vector<Imm> imms{{8, RDMA_SUBMIT_PIO_WC}};
  for (int k = 0; k < 3; ++k) imms.push_back({8, RDMA_SUBMIT_DMA});
  for (int k = 0; k < 27; ++k) imms.push_back({128, RDMA_SUBMIT_DMA});
  imms.push_back({88, RDMA_SUBMIT_DMA});
  imms.push_back({128, RDMA_SUBMIT_PIO_WC});  // 18 words after 499 waiting
  std::vector<std::vector<uint8_t>> data;
  for (size_t j = 0; j < imms.size(); ++j) {
    data.emplace_back(imms[j].len);
    for (unsigned k = 0; k < imms[j].len; ++k) data[j][k] = uint8_t(j * 11 + k);
    std::memcpy(&expect[200 * j], data[j].data(), imms[j].len);
  }
  int q = 1;
  uint64_t dq_words = 0;
  f::VpErr err{};
  std::vector<rdma_cqe> got;
  std::atomic<int> posted{0};
  p.pair.spawn(0, 0, 0, [&] {
    for (size_t j = 0; j < imms.size(); ++j) {
      if (j + 1 == imms.size()) {  // the DMA descriptors are all in the DQ before the last PIO one
        wait_until([&] { return d0.vp_reg(vc, f::VP_HDQ_HEAD_OFFSET) == 3 * 3 + 27 * 18 + 13; });
        dq_words = vp_status(d0, vc).dq_words;
      }
      const rdma_opts o = opts(uint16_t(j), RDMA_F_CQ, imms[j].mode);
      REQUIRE(rdma_write_imm(c, 1, vb, {dst.key, dst.va + 200 * j}, data[j].data(), imms[j].len, &o) == 0);
    }
    posted = 1;
    q = rdma_quiet(c);
    err = d0.vp_error(vc);
  });
  p.pair.spawn(0, 0, 1, [&] {
    hpcnet::this_platform()->compute(30000);
    got = poll_n(c, imms.size());
  });
  p.pair.run();
  CHECK(dq_words == 27 * 18 + 13);
  CHECK(posted == 1);
  CHECK(q == 0);
  CHECK(err.count == 0);
  REQUIRE(got.size() == imms.size());
  for (size_t j = 0; j < got.size(); ++j) {
    INFO("entry " << j);
    CHECK(got[j].tag == j);
    CHECK(got[j].status == 0);
  }
  CHECK(diff(peek(p.b, dst.va, 8192), expect) == "same");
}
