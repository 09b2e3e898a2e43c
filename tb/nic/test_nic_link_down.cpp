// Two NICs whose link goes down (docs/link.md section 6, docs/nic.md section 8): the wire dies
// under traffic, for good or for longer than the link's give-up time (16 x 1,024 cycles without
// progress). Both nodes post RDMA writes and reads, immediate writes and mini-packets to each
// other, every one with a CQ entry. Checked:
//   - every transfer completes exactly once (its TAG once in the CQ), OK or LINK_DOWN, none
//     hangs; those posted while the link is down complete at once with LINK_DOWN;
//   - a transfer that completed OK is intact at its destination; no byte outside the
//     destinations of the transfers is written (guards);
//   - a read that completed with LINK_DOWN: nothing of it lands after the completion (the rest of
//     its data, still sent by the other node when the link comes back, is dropped);
//   - LINK_STATUS.STATE, DOWNS, IRQ_STATUS.LINK_DOWN / LINK_UP as documented;
//   - a link that comes back: both nodes see it UP again, without a reset, and a second round of
//     transfers completes OK and intact.
#include <catch2/catch.hpp>

#include <map>

#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

using namespace nic_tb;

namespace {

constexpr uint32_t kLdBuf = 64 * 1024, kLdBig = 1024 * 1024;
constexpr int kLinkDown = -int(f::Status::LINK_DOWN);

struct LdNode {
  Buf src, dst, big_src, big_dst;
  std::vector<uint8_t> sdata, bigdata;
};

// One round of transfers from node n to the other: 3 writes, 3 reads, 2 immediate writes, 2
// mini-packets, and (first round) a 1 MB read; tags from `tag`. Returns the CQ entries by tag.
struct LdOp {
  int kind;  // 0 write, 1 read, 2 immediate write, 3 mini-packet, 4 big read
  uint32_t so, doff, len;
};

std::vector<LdOp> ld_ops(std::mt19937_64& rng, bool big) {
  std::vector<LdOp> ops;
  for (int k : {0, 1, 2, 3, 0, 1, 2, 3, 0, 1}) {
    LdOp o{k, 0, 0, k == 2 ? 1 + uint32_t(rng() % 128) : k == 3 ? 8u : 1 + uint32_t(rng() % 6000)};
    o.so = uint32_t(rng() % (kLdBuf - o.len));
    // destinations apart: the i-th operation in the i-th tenth of the buffer
    o.doff = uint32_t(ops.size()) * (kLdBuf / 10) + uint32_t(rng() % (kLdBuf / 10 - o.len));
    ops.push_back(o);
  }
  if (big) ops.push_back({4, 0, 0, kLdBig});
  return ops;
}

struct LdRun {
  Pair p;
  std::array<LdNode, 2> nd;
  std::array<std::vector<uint8_t>, 2> dst_img;  // what each node's dst must hold (guards elsewhere)
  std::array<std::vector<uint8_t>, 2> wmask;    // bytes of dst that a transfer failed on may touch
  std::array<std::map<uint16_t, rdma_cqe>, 2> cqe;
  std::array<uint64_t, 2> dups{};
  std::mt19937_64 rng;

  explicit LdRun(const char* seed_name) : p(Pair::bounded()), rng(hpcnet::tb::seed(seed_name)) {
    rdma_ep* ep[2] = {p.a, p.b};
    for (unsigned n = 0; n < 2; ++n) {
      LdNode& x = nd[n];
      p.on(n, [&] {
        x.src = reg_buf(ep[n], kLdBuf, unsigned(rng() % 4096), RDMA_ACCESS_READ);
        x.dst = reg_buf(ep[n], kLdBuf, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
        x.big_src = reg_buf(ep[n], kLdBig, 0, RDMA_ACCESS_READ);
        x.big_dst = reg_buf(ep[n], kLdBig, 0, RDMA_ACCESS_WRITE);
      });
      x.sdata = random_bytes(rng, kLdBuf);
      x.bigdata = random_bytes(rng, kLdBig);
      rdma_mem_write(ep[n], x.src.va, x.sdata.data(), kLdBuf);
      rdma_mem_write(ep[n], x.big_src.va, x.bigdata.data(), kLdBig);
      dst_img[n].assign(kLdBuf, kGuard);
      wmask[n].assign(kLdBuf, 0);
      rdma_mem_write(ep[n], x.dst.va, dst_img[n].data(), kLdBuf);
      std::vector<uint8_t> z(kLdBig, kGuard);
      rdma_mem_write(ep[n], x.big_dst.va, z.data(), kLdBig);
    }
  }
  rdma_ep* ep(unsigned n) { return n ? p.b : p.a; }

  // Posts `ops` from node n (tags from tag0), then takes every CQ entry (big_failed: the big read
  // completed with an error). Runs on node n's thread.
  void round(unsigned n, const std::vector<LdOp>& ops, uint16_t tag0, bool* big_failed) {
    const unsigned m = 1 - n;
    for (size_t i = 0; i < ops.size(); ++i) {
      const LdOp& o = ops[i];
      const rdma_opts op = opts(uint16_t(tag0 + i), RDMA_F_CQ);
      int rc = 0;
      if (o.kind == 0)
        rc = rdma_write(ep(n), m, rdma_vp(ep(m)), {nd[m].dst.key, nd[m].dst.va + o.doff}, {nd[n].src.key, nd[n].src.va + o.so},
                        o.len, &op);
      else if (o.kind == 1)
        rc = rdma_read(ep(n), m, rdma_vp(ep(m)), {nd[m].src.key, nd[m].src.va + o.so}, {nd[n].dst.key, nd[n].dst.va + o.doff},
                       o.len, &op);
      else if (o.kind == 2)
        rc = rdma_write_imm(ep(n), m, rdma_vp(ep(m)), {nd[m].dst.key, nd[m].dst.va + o.doff}, &nd[n].sdata[o.so], o.len, &op);
      else if (o.kind == 3)
        rc = rdma_mp_send(ep(n), m, rdma_vp(ep(m)), &nd[n].sdata[o.so], o.len, &op);
      else
        rc = rdma_read(ep(n), m, rdma_vp(ep(m)), {nd[m].big_src.key, nd[m].big_src.va}, {nd[n].big_dst.key, nd[n].big_dst.va},
                       o.len, &op);
      REQUIRE(rc == 0);
    }
    for (const rdma_cqe& e : poll_n(ep(n), ops.size())) {
      dups[n] += cqe[n].count(e.tag);
      cqe[n][e.tag] = e;
      if (e.status != 0 && big_failed && ops[e.tag - tag0].kind == 4) *big_failed = true;
    }
  }
  // The images the completed transfers of node n's round leave: OK ones exactly, failed ones may
  // have written their destination range (wmask), nothing elsewhere.
  void expect(unsigned n, const std::vector<LdOp>& ops, uint16_t tag0) {
    const unsigned m = 1 - n;
    for (size_t i = 0; i < ops.size(); ++i) {
      const LdOp& o = ops[i];
      const auto it = cqe[n].find(uint16_t(tag0 + i));
      if (it == cqe[n].end() || o.kind == 3 || o.kind == 4) continue;
      const unsigned at = o.kind == 1 ? n : m;  // whose dst
      const uint8_t* from = o.kind == 1 ? &nd[m].sdata[o.so] : &nd[n].sdata[o.so];
      for (uint32_t b = 0; b < o.len; ++b) {
        if (it->second.status == 0) {
          dst_img[at][o.doff + b] = from[b];
          wmask[at][o.doff + b] = 0;
        } else {
          wmask[at][o.doff + b] = 1;
        }
      }
    }
  }
  // node n's dst against its image: every byte not masked as it must be
  std::string check_dst(unsigned n) {
    const std::vector<uint8_t> got = peek(ep(n), nd[n].dst.va, kLdBuf);
    std::vector<uint8_t> want = dst_img[n];
    for (uint32_t b = 0; b < kLdBuf; ++b)
      if (wmask[n][b]) want[b] = got[b];
    return diff(got, want);
  }
  uint64_t reg(unsigned n, uint32_t off) {
    uint64_t v = 0;
    p.on(n, [&] { v = p.driver(n).read_reg(off); });
    return v;
  }
};

// every tag of the round once, OK or LINK_DOWN; returns how many LINK_DOWN
unsigned ld_statuses(LdRun& r, unsigned n, uint16_t tag0, size_t count) {
  unsigned down = 0;
  for (size_t i = 0; i < count; ++i) {
    const auto it = r.cqe[n].find(uint16_t(tag0 + i));
    INFO("node " << n << " tag " << tag0 + i);
    REQUIRE(it != r.cqe[n].end());
    CHECK((it->second.status == 0 || it->second.status == kLinkDown));
    if (it->second.status == kLinkDown) {
      ++down;
      CHECK(it->second.info == 2);
    }
  }
  return down;
}

}  // namespace

// (HPCNET_SEED=3772880078 and 3619946327 found a held write beat shown to engine 2 with the link
// going down and its last bit then changing: nic_rx now keeps a shown beat's decision.)
TEST_CASE("nic: a link dead for good completes every transfer with OK or LINK_DOWN once and nothing hangs", "[nic][link]") {
  LdRun r("nic link down for good");
  std::array<std::vector<LdOp>, 2> ops{ld_ops(r.rng, true), ld_ops(r.rng, true)};
  hpcnet::sim::LinkFaults dead;
  dead.dead_at = r.p.pair.link().now() + 1500;  // for good, in the middle of the first round (its 1 MB reads)
  for (unsigned i = 0; i < 2; ++i) r.p.pair.link().wire(i).set_faults(dead, dead);
  std::array<int, 2> late{};
  std::array<uint64_t, 2> late_cycles{};
  for (unsigned n = 0; n < 2; ++n)
    spawn_at(r.p.pair, n, 0, [&, n] {
      r.round(n, ops[n], 100, nullptr);
      // posted once the link is down (its state read first): completes at once with LINK_DOWN
      wait_until([&] { return f::LINK_STATUS_STATE.get(r.p.driver(n).read_reg(f::LINK_STATUS_OFFSET)) != 0; });
      const rdma_opts op = opts(999, RDMA_F_CQ);
      const uint64_t t = r.p.pair.link().now();
      REQUIRE(rdma_write(r.ep(n), 1 - n, rdma_vp(r.ep(1 - n)), {r.nd[1 - n].dst.key, r.nd[1 - n].dst.va},
                         {r.nd[n].src.key, r.nd[n].src.va}, 64, &op) == 0);
      const rdma_cqe e = poll_n(r.ep(n), 1).at(0);
      late[n] = e.tag == 999 ? e.status : 1;
      late_cycles[n] = r.p.pair.link().now() - t;
    });
  r.p.pair.run();
  for (unsigned n = 0; n < 2; ++n) {
    INFO("node " << n);
    CHECK(r.dups[n] == 0);
    CHECK(ld_statuses(r, n, 100, ops[n].size()) > 0);
    CHECK(late[n] == kLinkDown);
    CHECK(late_cycles[n] < 3000);  // at once: the post, the descriptor's checks, the CQ entry, the poll
    r.expect(n, ops[n], 100);
  }
  for (unsigned n = 0; n < 2; ++n) {
    INFO("node " << n);
    CHECK(r.check_dst(n) == "same");
    const uint64_t st = r.reg(n, f::LINK_STATUS_OFFSET);
    CHECK(f::LINK_STATUS_STATE.get(st) != 0);
    CHECK(f::LINK_STATUS_DOWNS.get(st) >= 1);
    const uint64_t irq = r.reg(n, f::IRQ_STATUS_OFFSET);
    CHECK(f::IRQ_STATUS_LINK_DOWN.get(irq) == 1);
  }
}

TEST_CASE("nic: a link dead past its give-up time comes back up without a reset and carries transfers again", "[nic][link]") {
  LdRun r("nic link down and back");
  std::array<std::vector<LdOp>, 2> ops1{ld_ops(r.rng, true), ld_ops(r.rng, true)};
  std::array<std::vector<LdOp>, 2> ops2{ld_ops(r.rng, false), ld_ops(r.rng, false)};
  hpcnet::sim::LinkFaults dead;
  dead.dead_at = r.p.pair.link().now() + 2000;
  dead.dead_cycles = 20000;  // the link gives up after about 16,400 cycles; back before the 1 MB reads end
  for (unsigned i = 0; i < 2; ++i) r.p.pair.link().wire(i).set_faults(dead, dead);
  std::array<bool, 2> big_failed{};
  std::array<int, 2> quiet1{};
  std::array<unsigned, 2> down1{};
  for (unsigned n = 0; n < 2; ++n)
    spawn_at(r.p.pair, n, 0, [&, n] {
      r.round(n, ops1[n], 100, &big_failed[n]);
      quiet1[n] = rdma_quiet(r.ep(n));  // the first error since the start
      wait_until([&] { return f::LINK_STATUS_STATE.get(r.p.driver(n).read_reg(f::LINK_STATUS_OFFSET)) == 0; });
      r.round(n, ops2[n], 200, nullptr);
      REQUIRE(rdma_quiet(r.ep(n)) == 0);
    });
  r.p.pair.run();
  for (unsigned n = 0; n < 2; ++n) {
    INFO("node " << n);
    CHECK(r.dups[n] == 0);
    down1[n] = ld_statuses(r, n, 100, ops1[n].size());
    CHECK(down1[n] > 0);
    CHECK(quiet1[n] == kLinkDown);
    for (size_t i = 0; i < ops2[n].size(); ++i) CHECK(r.cqe[n].at(uint16_t(200 + i)).status == 0);
    r.expect(n, ops1[n], 100);
    r.expect(n, ops2[n], 200);
  }
  for (unsigned n = 0; n < 2; ++n) {
    INFO("node " << n);
    CHECK(r.check_dst(n) == "same");
    // The 1 MB read failed (the link died 2,000 cycles after it began; its answer came with the
    // sweep, about 16,400 cycles later, the wire still dead): at most 64 KB had arrived (2,000
    // cycles of 32 bytes). The node serving it goes on reading (into its dropped link, then onto the
    // wire once it is back up, at PCIe speed, over 40,000 cycles in all): none of that may land.
    REQUIRE(big_failed[n]);
    const std::vector<uint8_t> big = peek(r.ep(n), r.nd[n].big_dst.va, kLdBig);
    CHECK(diff(std::vector<uint8_t>(big.begin() + kLdBig / 8, big.end()), std::vector<uint8_t>(kLdBig - kLdBig / 8, kGuard)) == "same");
    const uint64_t st = r.reg(n, f::LINK_STATUS_OFFSET);
    CHECK(f::LINK_STATUS_STATE.get(st) == 0);
    CHECK(f::LINK_STATUS_DOWNS.get(st) >= 1);
    const uint64_t irq = r.reg(n, f::IRQ_STATUS_OFFSET);
    CHECK(f::IRQ_STATUS_LINK_DOWN.get(irq) == 1);
    CHECK(f::IRQ_STATUS_LINK_UP.get(irq) == 1);
  }
}
