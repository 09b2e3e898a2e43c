// test_nic_load.cpp: two nodes with NICs back to back under load, through the NIC driver and the
// RDMA library (hpcnet/rdma.h) from simulated threads: large random RDMA writes and reads, the
// source x destination offset sweep, 32 VPs busy at once (RDMA writes, immediate writes,
// mini-packets), the three ways of submitting descriptors (write-combined PIO, uncached PIO, the
// host DQ by DMA) alone and mixed on one VP (blocking descriptors: test_nic_order.cpp). Every check is
// against the host's own copy of what was sent: destination bytes identical, bytes outside the
// targets untouched, order per VP proved by later writes overwriting earlier ones.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "hpcnet/rdma.h"
#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

using namespace nic_tb;

namespace {

// A random length in 1..max, log-uniform (short and long transfers equally likely per octave).
uint32_t log_len(std::mt19937_64& rng, uint32_t max) {
  std::uniform_real_distribution<double> d(0.0, std::log2(double(max)));
  return std::clamp<uint32_t>(uint32_t(std::exp2(d(rng))), 1, max);
}

}  // namespace

// ---------------------------------------------------------------- large transfers

TEST_CASE("nic: random RDMA writes and reads up to 1 MB land byte-exact", "[nic][load]") {
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic large"));
  constexpr uint32_t kMax = 1u << 20;
  constexpr size_t kBuf = kMax + 8192;
  const auto wdata = random_bytes(rng, kBuf), rdata = random_bytes(rng, kBuf);
  Buf src, dst, rsrc, rdst;  // writes: src (node 0) -> dst (node 1); reads: rsrc (node 1) -> rdst (node 0)
  p.on(0, [&] {
    src = reg_buf(p.a, kBuf, unsigned(rng() % 4096), RDMA_ACCESS_READ);
    rdst = reg_buf(p.a, kBuf, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
  });
  p.on(1, [&] {
    dst = reg_buf(p.b, kBuf, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
    rsrc = reg_buf(p.b, kBuf, unsigned(rng() % 4096), RDMA_ACCESS_READ);
  });
  const std::vector<uint8_t> guard(kBuf, kGuard);  // CPU stores from outside the threads: immediate
  rdma_mem_write(p.a, src.va, wdata.data(), kBuf);
  rdma_mem_write(p.a, rdst.va, guard.data(), kBuf);
  rdma_mem_write(p.b, dst.va, guard.data(), kBuf);
  rdma_mem_write(p.b, rsrc.va, rdata.data(), kBuf);
  // 3 writes and 3 reads in random order, one of each exactly 1 MB, the others log-uniform;
  // random offsets (ranges may overlap: the VP's order decides, as in the expected images)
  struct Op { bool read; uint32_t so, doff, len; };
  std::vector<Op> ops;
  for (int i = 0; i < 6; ++i) {
    const uint32_t len = (i < 2) ? kMax : log_len(rng, kMax);
    ops.push_back({i % 2 == 1, uint32_t(rng() % (kBuf - len + 1)), uint32_t(rng() % (kBuf - len + 1)), len});
  }
  std::shuffle(ops.begin(), ops.end(), rng);
  std::vector<uint8_t> wexp(kBuf, kGuard), rexp(kBuf, kGuard);
  for (const Op& o : ops) {
    UNSCOPED_INFO((o.read ? "read " : "write ") << o.len << " bytes from offset " << o.so << " to offset " << o.doff);
    if (o.read)
      std::memcpy(&rexp[o.doff], &rdata[o.so], o.len);
    else
      std::memcpy(&wexp[o.doff], &wdata[o.so], o.len);
  }
  int rc = -1;
  const uint64_t t0 = p.pair.cycles();
  p.on(0, [&] {
    for (const Op& o : ops) {
      if (o.read)
        REQUIRE(rdma_read(p.a, 1, rdma_vp(p.b), {rsrc.key, rsrc.va + o.so}, {rdst.key, rdst.va + o.doff}, o.len, nullptr) == 0);
      else
        REQUIRE(rdma_write(p.a, 1, rdma_vp(p.b), {dst.key, dst.va + o.doff}, {src.key, src.va + o.so}, o.len, nullptr) == 0);
    }
    rc = rdma_quiet(p.a);
  });
  CHECK(rc == 0);
  UNSCOPED_INFO("cycles " << p.pair.cycles() - t0);
  CHECK(diff(peek(p.b, dst.va, kBuf), wexp) == "same");
  CHECK(diff(peek(p.a, rdst.va, kBuf), rexp) == "same");
  CHECK(diff(peek(p.a, src.va, kBuf), wdata) == "same");  // the sources untouched
  CHECK(diff(peek(p.b, rsrc.va, kBuf), rdata) == "same");
}

// ---------------------------------------------------------------- the offsets sweep
// Every source offset 0..31 x destination offset 0..31 for lengths 1, 31..33 and 127..129, each
// length's 1024 writes posted back to back and then one quiet. The exhaustive sweep with every
// length around 32, 128, 1024 and 4096 runs at module level (tb/nic/test_nic_rdeng.cpp, nic_rdeng
// against its reference); here the system (DQ, execution, ATT, engine 0, link, receiver, engine 2,
// PCIe) carries the same alignment cases end to end.
TEST_CASE("nic: every source and destination offset 0 to 31 around 32 and 128 bytes", "[nic][load]") {
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic sweep"));
  constexpr unsigned kSlot = 192;              // a destination slot per case (32-byte aligned)
  constexpr size_t kDst = 1024 * kSlot, kSrc = 64 * 1024;
  const auto data = random_bytes(rng, kSrc);
  Buf src, dst;
  p.on(0, [&] { src = reg_buf(p.a, kSrc, 0, RDMA_ACCESS_READ); });
  p.on(1, [&] { dst = reg_buf(p.b, kDst, 0, RDMA_ACCESS_WRITE); });
  rdma_mem_write(p.a, src.va, data.data(), kSrc);
  for (unsigned len : {1u, 31u, 32u, 33u, 127u, 128u, 129u}) {
    DYNAMIC_SECTION("length " << len) {
      const std::vector<uint8_t> guard(kDst, kGuard);
      rdma_mem_write(p.b, dst.va, guard.data(), kDst);
      std::vector<uint8_t> expect = guard;
      std::vector<uint32_t> so(1024), at(1024);
      for (unsigned k = 0; k < 1024; ++k) {
        so[k] = 32 * unsigned(rng() % (kSrc / 32 - 8)) + k / 32;  // source offset k / 32
        at[k] = k * kSlot + k % 32;                                 // destination offset k % 32
        std::memcpy(&expect[at[k]], &data[so[k]], len);
      }
      int rc = -1;
      const uint64_t t0 = p.pair.cycles();
      p.on(0, [&] {
        for (unsigned k = 0; k < 1024; ++k)
          REQUIRE(rdma_write(p.a, 1, rdma_vp(p.b), {dst.key, dst.va + at[k]}, {src.key, src.va + so[k]}, len, nullptr) == 0);
        rc = rdma_quiet(p.a);
      });
      UNSCOPED_INFO("cycles " << p.pair.cycles() - t0);
      CHECK(rc == 0);
      CHECK(diff(peek(p.b, dst.va, kDst), expect) == "same");
    }
  }
}

// ---------------------------------------------------------------- 32 VPs at once

namespace {

constexpr unsigned kVps = 32;

// Every VP of both nodes open: senders s[i] on node 0 and receivers r[i] on node 1 own VP i.
struct AllVps {
  Pair p;
  std::array<rdma_ep*, kVps> s{}, r{};
  AllVps() {
    s[0] = p.a;
    r[0] = p.b;
    for (unsigned n = 0; n < 2; ++n)
      p.on(n, [&, n] {
        for (unsigned i = 1; i < kVps; ++i) REQUIRE(rdma_open(n ? &r[i] : &s[i]) == 0);
      });
    for (unsigned i = 0; i < kVps; ++i) {
      REQUIRE(rdma_vp(s[i]) == i);
      REQUIRE(rdma_vp(r[i]) == i);
    }
  }
  // fn(i) on 32 threads of `node` (thread i: the endpoint of VP i), started now; run() runs them
  void threads(unsigned node, std::function<void(unsigned)> fn) {
    for (unsigned i = 0; i < kVps; ++i) spawn_at(p.pair, node, i, [fn, i] { fn(i); });
  }
};

// A write of the stream of one VP: `len` bytes from source offset `so` to region offset `doff`
// (for immediate writes, `data` holds the bytes).
struct W {
  uint32_t so, doff, len;
  std::vector<uint8_t> data;
};

// n writes into a region of `region` bytes, lengths 1..max_len: half of them inside the first
// quarter of the region, so that later writes overwrite earlier ones often.
std::vector<W> stream(std::mt19937_64& rng, unsigned n, uint32_t region, uint32_t max_len, uint32_t src_bytes, bool imm) {
  std::vector<W> v;
  for (unsigned k = 0; k < n; ++k) {
    W w;
    w.len = 1 + uint32_t(rng() % max_len);
    const uint32_t span = (k % 2) ? region : std::max(region / 4, w.len);
    w.doff = uint32_t(rng() % (span - w.len + 1));
    w.so = imm ? 0 : uint32_t(rng() % (src_bytes - w.len + 1));
    if (imm) w.data = random_bytes(rng, w.len);
    v.push_back(std::move(w));
  }
  return v;
}

// The payload byte k of mini-packet j of sender s, and its length: known to both sides.
uint8_t mp_byte(unsigned s, unsigned j, unsigned k) { return uint8_t(s * 131 + j * 7 + k * 29 + (k >> 3)); }
unsigned mp_len(unsigned s, unsigned j) { return (s * 37 + j * 53) % 121; }

struct Got {
  rdma_mp_info info;
  std::vector<uint8_t> data;
};

// Checks a receiver's mini-packets: from each sender in the order sent (tags increasing, exactly
// the packets sent to it), each payload exact. `sent[s]` lists the tags sender s sent it.
void check_mps(unsigned r, const std::vector<Got>& got, const std::array<std::vector<unsigned>, kVps>& sent) {
  std::array<size_t, kVps> next{};
  for (const Got& g : got) {
    INFO("receiver " << r << ": from VP " << g.info.src_vp << " tag " << g.info.tag);
    REQUIRE(g.info.src_node == 0);
    REQUIRE(g.info.src_vp < kVps);
    const auto& want = sent[g.info.src_vp];
    REQUIRE(next[g.info.src_vp] < want.size());
    const unsigned j = want[next[g.info.src_vp]++];
    REQUIRE(g.info.tag == j);  // the sender's order
    std::vector<uint8_t> d(mp_len(g.info.src_vp, j));
    for (unsigned k = 0; k < d.size(); ++k) d[k] = mp_byte(g.info.src_vp, j, k);
    CHECK(g.info.len == d.size());
    CHECK(g.data == d);
  }
  for (unsigned s = 0; s < kVps; ++s) CHECK(next[s] == sent[s].size());
}

}  // namespace

TEST_CASE("nic: 32 VPs stream RDMA writes at once and each keeps its order", "[nic][load]") {
  AllVps v;
  std::mt19937_64 rng(hpcnet::tb::seed("nic 32 VPs write"));
  constexpr uint32_t kSrc = 8192, kRegion = 4096, kPad = 200;  // guard bytes either side
  std::array<Buf, kVps> src, dst;
  std::array<std::vector<uint8_t>, kVps> data, expect;
  std::array<std::vector<W>, kVps> ops;
  v.p.on(0, [&] {
    for (unsigned i = 0; i < kVps; ++i) src[i] = reg_buf(v.s[i], kSrc, unsigned(rng() % 4096), RDMA_ACCESS_READ);
  });
  v.p.on(1, [&] {
    for (unsigned i = 0; i < kVps; ++i) dst[i] = reg_buf(v.r[i], kRegion + 2 * kPad, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
  });
  for (unsigned i = 0; i < kVps; ++i) {
    data[i] = random_bytes(rng, kSrc);
    rdma_mem_write(v.s[i], src[i].va, data[i].data(), kSrc);
    expect[i].assign(kRegion + 2 * kPad, kGuard);
    rdma_mem_write(v.r[i], dst[i].va, expect[i].data(), expect[i].size());
    ops[i] = stream(rng, 10, kRegion, 2048, kSrc, false);
    for (const W& w : ops[i]) std::memcpy(&expect[i][kPad + w.doff], &data[i][w.so], w.len);
  }
  std::array<int, kVps> rc;
  rc.fill(-1);
  v.threads(0, [&](unsigned i) {
    for (const W& w : ops[i])
      REQUIRE(rdma_write(v.s[i], 1, i, {dst[i].key, dst[i].va + kPad + w.doff}, {src[i].key, src[i].va + w.so}, w.len, nullptr) == 0);
    rc[i] = rdma_quiet(v.s[i]);
  });
  v.p.pair.run();
  for (unsigned i = 0; i < kVps; ++i) {
    INFO("VP " << i);
    CHECK(rc[i] == 0);
    CHECK(diff(peek(v.r[i], dst[i].va, expect[i].size()), expect[i]) == "same");
  }
}

TEST_CASE("nic: 32 VPs stream immediate writes at once and each keeps its order", "[nic][load]") {
  AllVps v;
  std::mt19937_64 rng(hpcnet::tb::seed("nic 32 VPs imm"));
  constexpr uint32_t kRegion = 512, kPad = 64;
  std::array<Buf, kVps> dst;
  std::array<std::vector<uint8_t>, kVps> expect;
  std::array<std::vector<W>, kVps> ops;
  v.p.on(1, [&] {
    for (unsigned i = 0; i < kVps; ++i) dst[i] = reg_buf(v.r[i], kRegion + 2 * kPad, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
  });
  for (unsigned i = 0; i < kVps; ++i) {
    expect[i].assign(kRegion + 2 * kPad, kGuard);
    rdma_mem_write(v.r[i], dst[i].va, expect[i].data(), expect[i].size());
    ops[i] = stream(rng, 24, kRegion, 128, 0, true);
    for (const W& w : ops[i]) std::memcpy(&expect[i][kPad + w.doff], w.data.data(), w.len);
  }
  std::array<int, kVps> rc;
  rc.fill(-1);
  v.threads(0, [&](unsigned i) {
    for (const W& w : ops[i])
      REQUIRE(rdma_write_imm(v.s[i], 1, i, {dst[i].key, dst[i].va + kPad + w.doff}, w.data.data(), w.len, nullptr) == 0);
    rc[i] = rdma_quiet(v.s[i]);
  });
  v.p.pair.run();
  for (unsigned i = 0; i < kVps; ++i) {
    INFO("VP " << i);
    CHECK(rc[i] == 0);
    CHECK(diff(peek(v.r[i], dst[i].va, expect[i].size()), expect[i]) == "same");
  }
}

TEST_CASE("nic: 32 VPs send mini-packets at once and every receiver sees each sender's in order", "[nic][load]") {
  AllVps v;
  // sender s sends its packet j (tag j) to receiver (s + j) mod 32: 64 to each receiver (its MPQ
  // holds 64: none can be refused), 2 from every sender, interleaved with the others' traffic
  constexpr unsigned kJ = 64;
  std::array<std::array<std::vector<unsigned>, kVps>, kVps> sent;  // [receiver][sender] tags
  for (unsigned s = 0; s < kVps; ++s)
    for (unsigned j = 0; j < kJ; ++j) sent[(s + j) % kVps][s].push_back(j);
  std::array<int, kVps> rc;
  rc.fill(-1);
  std::array<std::vector<Got>, kVps> got;
  v.threads(0, [&](unsigned s) {
    for (unsigned j = 0; j < kJ; ++j) {
      std::vector<uint8_t> d(mp_len(s, j));
      for (unsigned k = 0; k < d.size(); ++k) d[k] = mp_byte(s, j, k);
      const rdma_opts o = opts(uint16_t(j));
      REQUIRE(rdma_mp_send(v.s[s], 1, (s + j) % kVps, d.data(), unsigned(d.size()), &o) == 0);
    }
    rc[s] = rdma_quiet(v.s[s]);
  });
  v.threads(1, [&](unsigned r) {
    for (unsigned n = 0; n < kJ; ++n) {
      Got g;
      g.data.resize(120);
      const int len = rdma_mp_recv(v.r[r], g.data.data(), &g.info, 1);
      g.data.resize(size_t(std::max(len, 0)));
      got[r].push_back(std::move(g));
    }
  });
  v.p.pair.run();
  for (unsigned s = 0; s < kVps; ++s) CHECK(rc[s] == 0);
  for (unsigned r = 0; r < kVps; ++r) check_mps(r, got[r], sent[r]);
}

TEST_CASE("nic: 32 VPs mix RDMA writes and immediate writes and mini-packets at once", "[nic][load]") {
  // Each sender interleaves the three kinds at random: RDMA writes into one region of its
  // receiver, immediate writes into another (each kind keeps its order: later writes overwrite
  // earlier ones), mini-packets to receiver (s + j) mod 32. Engine 0's packets and the execution
  // unit's share VC0, so the receivers see messages of the kinds interleaved.
  AllVps v;
  std::mt19937_64 rng(hpcnet::tb::seed("nic 32 VPs mixed"));
  constexpr uint32_t kSrc = 8192, kRegion = 3000, kImm = 400, kPad = 64;
  constexpr unsigned kJ = 32;  // mini-packets per sender: one to every receiver
  std::array<Buf, kVps> src, dst, imm;
  std::array<std::vector<uint8_t>, kVps> data, wexp, iexp;
  std::array<std::vector<W>, kVps> wops, iops;
  std::array<std::vector<int>, kVps> order;  // 0 RDMA write, 1 immediate, 2 mini-packet
  std::array<std::array<std::vector<unsigned>, kVps>, kVps> sent;
  v.p.on(0, [&] {
    for (unsigned i = 0; i < kVps; ++i) src[i] = reg_buf(v.s[i], kSrc, unsigned(rng() % 4096), RDMA_ACCESS_READ);
  });
  v.p.on(1, [&] {
    for (unsigned i = 0; i < kVps; ++i) {
      dst[i] = reg_buf(v.r[i], kRegion + 2 * kPad, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
      imm[i] = reg_buf(v.r[i], kImm + 2 * kPad, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
    }
  });
  for (unsigned i = 0; i < kVps; ++i) {
    data[i] = random_bytes(rng, kSrc);
    rdma_mem_write(v.s[i], src[i].va, data[i].data(), kSrc);
    wexp[i].assign(kRegion + 2 * kPad, kGuard);
    iexp[i].assign(kImm + 2 * kPad, kGuard);
    rdma_mem_write(v.r[i], dst[i].va, wexp[i].data(), wexp[i].size());
    rdma_mem_write(v.r[i], imm[i].va, iexp[i].data(), iexp[i].size());
    wops[i] = stream(rng, 8, kRegion, 1500, kSrc, false);
    iops[i] = stream(rng, 16, kImm, 128, 0, true);
    for (const W& w : wops[i]) std::memcpy(&wexp[i][kPad + w.doff], &data[i][w.so], w.len);
    for (const W& w : iops[i]) std::memcpy(&iexp[i][kPad + w.doff], w.data.data(), w.len);
    order[i].insert(order[i].end(), wops[i].size(), 0);
    order[i].insert(order[i].end(), iops[i].size(), 1);
    order[i].insert(order[i].end(), kJ, 2);
    std::shuffle(order[i].begin(), order[i].end(), rng);
    for (unsigned j = 0; j < kJ; ++j) sent[(i + j) % kVps][i].push_back(j);
  }
  std::array<int, kVps> rc;
  rc.fill(-1);
  std::array<std::vector<Got>, kVps> got;
  v.threads(0, [&](unsigned i) {
    size_t nw = 0, ni = 0;
    unsigned j = 0;
    for (int kind : order[i]) {
      if (kind == 0) {
        const W& w = wops[i][nw++];
        REQUIRE(rdma_write(v.s[i], 1, i, {dst[i].key, dst[i].va + kPad + w.doff}, {src[i].key, src[i].va + w.so}, w.len, nullptr) == 0);
      } else if (kind == 1) {
        const W& w = iops[i][ni++];
        REQUIRE(rdma_write_imm(v.s[i], 1, i, {imm[i].key, imm[i].va + kPad + w.doff}, w.data.data(), w.len, nullptr) == 0);
      } else {
        std::vector<uint8_t> d(mp_len(i, j));
        for (unsigned k = 0; k < d.size(); ++k) d[k] = mp_byte(i, j, k);
        const rdma_opts o = opts(uint16_t(j));
        REQUIRE(rdma_mp_send(v.s[i], 1, (i + j) % kVps, d.data(), unsigned(d.size()), &o) == 0);
        ++j;
      }
    }
    rc[i] = rdma_quiet(v.s[i]);
  });
  v.threads(1, [&](unsigned r) {
    for (unsigned n = 0; n < kJ; ++n) {
      Got g;
      g.data.resize(120);
      const int len = rdma_mp_recv(v.r[r], g.data.data(), &g.info, 1);
      g.data.resize(size_t(std::max(len, 0)));
      got[r].push_back(std::move(g));
    }
  });
  v.p.pair.run();
  for (unsigned i = 0; i < kVps; ++i) {
    INFO("VP " << i);
    CHECK(rc[i] == 0);
    CHECK(diff(peek(v.r[i], dst[i].va, wexp[i].size()), wexp[i]) == "same");
    CHECK(diff(peek(v.r[i], imm[i].va, iexp[i].size()), iexp[i]) == "same");
  }
  for (unsigned r = 0; r < kVps; ++r) check_mps(r, got[r], sent[r]);
}

// ---------------------------------------------------------------- submission

TEST_CASE("nic: descriptors submitted by write-combined PIO and uncached PIO and the host DQ", "[nic][load]") {
  std::mt19937_64 rng(hpcnet::tb::seed("nic submit"));
  for (int mode : {int(RDMA_SUBMIT_PIO_WC), int(RDMA_SUBMIT_PIO), int(RDMA_SUBMIT_DMA)}) {
    DYNAMIC_SECTION("mode " << mode) {
      Pair p;
      constexpr size_t kN = 3 * 4096;
      const auto wdata = random_bytes(rng, kN), rdata = random_bytes(rng, kN);
      Buf src, dst, rsrc, rdst;
      p.on(0, [&] {
        src = reg_buf(p.a, kN, unsigned(rng() % 4096), RDMA_ACCESS_READ);
        rdst = reg_buf(p.a, kN, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
      });
      p.on(1, [&] {
        dst = reg_buf(p.b, kN, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
        rsrc = reg_buf(p.b, kN, unsigned(rng() % 4096), RDMA_ACCESS_READ);
      });
      const std::vector<uint8_t> guard(kN, kGuard);
      rdma_mem_write(p.a, src.va, wdata.data(), kN);
      rdma_mem_write(p.a, rdst.va, guard.data(), kN);
      rdma_mem_write(p.b, dst.va, guard.data(), kN);
      rdma_mem_write(p.b, rsrc.va, rdata.data(), kN);
      std::vector<uint8_t> wexp = guard, rexp = guard;
      // a quarter each: RDMA writes (first half of dst), immediate writes (second half), reads, mini-packets
      struct Op { int kind; uint32_t so, doff, len; std::vector<uint8_t> d; };
      std::vector<Op> ops;
      for (unsigned k = 0; k < 24; ++k) {
        Op o{int(k % 4), 0, 0, 0, {}};
        if (o.kind == 0 || o.kind == 2) {
          o.len = 1 + uint32_t(rng() % 5000);
          o.so = uint32_t(rng() % (kN - o.len + 1));
          o.doff = uint32_t(rng() % (kN / 2 - o.len + 1)) + (o.kind == 2 ? uint32_t(kN / 2) : 0);
        } else if (o.kind == 1) {
          o.len = 1 + uint32_t(rng() % 128);
          o.doff = uint32_t(kN / 2 + rng() % (kN / 2 - o.len + 1));
          o.d = random_bytes(rng, o.len);
        } else {
          o.d = random_bytes(rng, rng() % 121);
        }
        ops.push_back(std::move(o));
      }
      std::shuffle(ops.begin(), ops.end(), rng);
      for (const Op& o : ops) {  // in the order posted: overlapping ones land in that order
        if (o.kind == 0) std::memcpy(&wexp[o.doff], &wdata[o.so], o.len);
        if (o.kind == 1) std::memcpy(&wexp[o.doff], o.d.data(), o.len);
        if (o.kind == 2) std::memcpy(&rexp[o.doff], &rdata[o.so], o.len);
      }
      int rc = -1;
      std::vector<rdma_cqe> cq;
      std::vector<std::vector<uint8_t>> mps;
      p.pair.spawn(0, 0, 0, [&] {
        rdma_set_submit(p.a, mode);
        uint16_t tag = 0;
        for (const Op& o : ops) {
          const rdma_opts op = opts(tag++, RDMA_F_CQ);
          const unsigned vb = rdma_vp(p.b);
          int r = -1;
          if (o.kind == 0) r = rdma_write(p.a, 1, vb, {dst.key, dst.va + o.doff}, {src.key, src.va + o.so}, o.len, &op);
          if (o.kind == 1) r = rdma_write_imm(p.a, 1, vb, {dst.key, dst.va + o.doff}, o.d.data(), o.len, &op);
          if (o.kind == 2) r = rdma_read(p.a, 1, vb, {rsrc.key, rsrc.va + o.so}, {rdst.key, rdst.va + o.doff}, o.len, &op);
          if (o.kind == 3) r = rdma_mp_send(p.a, 1, vb, o.d.data(), unsigned(o.d.size()), &op);
          REQUIRE(r == 0);
        }
        rc = rdma_quiet(p.a);
        cq = poll_n(p.a, ops.size());
      });
      p.pair.spawn(1, 0, 0, [&] {
        for (unsigned k = 0; k < ops.size() / 4; ++k) {
          uint8_t b[120];
          const int n = rdma_mp_recv(p.b, b, nullptr, 1);
          mps.emplace_back(b, b + n);
        }
      });
      p.pair.run();
      CHECK(rc == 0);
      // one OK entry per descriptor, with its length
      std::vector<int> seen(ops.size(), 0);
      for (const rdma_cqe& e : cq) {
        REQUIRE(e.tag < ops.size());
        ++seen[e.tag];
        CHECK(e.status == 0);
        const Op& o = ops[e.tag];
        CHECK(e.len == (o.kind == 3 ? o.d.size() : o.len));
      }
      CHECK(std::count(seen.begin(), seen.end(), 1) == long(ops.size()));
      CHECK(diff(peek(p.b, dst.va, kN), wexp) == "same");
      CHECK(diff(peek(p.a, rdst.va, kN), rexp) == "same");
      std::vector<std::vector<uint8_t>> want;
      for (const Op& o : ops)
        if (o.kind == 3) want.push_back(o.d);
      CHECK(mps == want);
    }
  }
}

TEST_CASE("nic: PIO and DMA submission mixed on one VP keep the VP's order", "[nic][load]") {
  // Every call picks write-combined PIO, uncached PIO or the host DQ at random: overlapping RDMA
  // writes (one region) and overlapping immediate writes (another) must land in the order posted,
  // mini-packets arrive in the order posted.
  Pair p;
  std::mt19937_64 rng(hpcnet::tb::seed("nic mixed submission"));
  constexpr uint32_t kSrc = 8192, kRegion = 1024, kImm = 256, kPad = 64;
  const auto data = random_bytes(rng, kSrc);
  Buf src, dst, imm;
  p.on(0, [&] { src = reg_buf(p.a, kSrc, unsigned(rng() % 4096), RDMA_ACCESS_READ); });
  p.on(1, [&] {
    dst = reg_buf(p.b, kRegion + 2 * kPad, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
    imm = reg_buf(p.b, kImm + 2 * kPad, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
  });
  rdma_mem_write(p.a, src.va, data.data(), kSrc);
  std::vector<uint8_t> wexp(kRegion + 2 * kPad, kGuard), iexp(kImm + 2 * kPad, kGuard);
  rdma_mem_write(p.b, dst.va, wexp.data(), wexp.size());
  rdma_mem_write(p.b, imm.va, iexp.data(), iexp.size());
  const auto wops = stream(rng, 40, kRegion, 512, kSrc, false), iops = stream(rng, 40, kImm, 128, 0, true);
  for (const W& w : wops) std::memcpy(&wexp[kPad + w.doff], &data[w.so], w.len);
  for (const W& w : iops) std::memcpy(&iexp[kPad + w.doff], w.data.data(), w.len);
  std::vector<int> order(wops.size(), 0);
  order.insert(order.end(), iops.size(), 1);
  order.insert(order.end(), 40, 2);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> mode(order.size());
  for (int& m : mode) m = int(rng() % 3);
  int rc = -1;
  std::vector<rdma_mp_info> got;
  p.pair.spawn(0, 0, 0, [&] {
    size_t nw = 0, ni = 0;
    unsigned j = 0;
    const unsigned vb = rdma_vp(p.b);
    for (size_t k = 0; k < order.size(); ++k) {
      if (order[k] == 0) {
        const W& w = wops[nw++];
        const rdma_opts o = opts(0, 0, mode[k]);
        REQUIRE(rdma_write(p.a, 1, vb, {dst.key, dst.va + kPad + w.doff}, {src.key, src.va + w.so}, w.len, &o) == 0);
      } else if (order[k] == 1) {
        const W& w = iops[ni++];
        const rdma_opts o = opts(0, 0, mode[k]);
        REQUIRE(rdma_write_imm(p.a, 1, vb, {imm.key, imm.va + kPad + w.doff}, w.data.data(), w.len, &o) == 0);
      } else {
        const rdma_opts o = opts(uint16_t(j), 0, mode[k]);
        const uint8_t d[3] = {uint8_t(j), uint8_t(j * 3), uint8_t(mode[k])};
        REQUIRE(rdma_mp_send(p.a, 1, vb, d, 3, &o) == 0);
        ++j;
      }
    }
    rc = rdma_quiet(p.a);
  });
  p.pair.spawn(1, 0, 0, [&] {
    for (unsigned j = 0; j < 40; ++j) {
      uint8_t b[120];
      rdma_mp_info in{};
      REQUIRE(rdma_mp_recv(p.b, b, &in, 1) == 3);
      CHECK(b[0] == uint8_t(in.tag));
      CHECK(b[1] == uint8_t(in.tag * 3));
      got.push_back(in);
    }
  });
  p.pair.run();
  CHECK(rc == 0);
  CHECK(diff(peek(p.b, dst.va, wexp.size()), wexp) == "same");
  CHECK(diff(peek(p.b, imm.va, iexp.size()), iexp) == "same");
  REQUIRE(got.size() == 40);
  for (unsigned j = 0; j < 40; ++j) CHECK(got[j].tag == j);
}
