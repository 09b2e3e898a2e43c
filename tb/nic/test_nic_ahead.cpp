// Checks ahead at the receiver (docs/nic.md section 6, rtl/nic/nic_rx_ahead.sv): storms of small
// immediate writes from 8 VPs of node 0 into node 1, each VP into its own region, every one with
// a CQ entry. The PIO bus brings a message every 20 cycles, faster than the receiver could take
// them checking one at a time (34 cycles each), so node 1's VC0 receiver has messages queued in
// front of it and their FIRST checks asked ahead; one message in 8 crosses a 128-byte block (two
// packets: not checked ahead, interleaved with those that are). Checked against the host's copy
// of what was sent:
//   - every message completes exactly once (its TAG once in its VP's CQ);
//   - on a fast host all complete OK, intact, in fewer than 28 cycles a message (checking one at a
//     time takes 34: the checks went ahead); on a slow host (PCIe at 2 bytes a cycle: the queue
//     fills behind engine 2) all complete OK and intact;
//   - a region deregistered during the storm: its messages complete OK or with BAD_KEY (some of
//     each), nothing lands in it after rdma_dereg_mr returns, the other VPs' messages are intact;
//   - the link dead during the storm (past its give-up time): every message OK or LINK_DOWN, the
//     OK ones intact, the failed ones touch only their own bytes; once the link is back up a
//     second storm completes OK and intact;
//   - no byte outside the messages' destinations is written (guards).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <map>

#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

using namespace nic_tb;

namespace {

constexpr unsigned kAhVps = 8, kAhMsgs = 48;
constexpr uint32_t kAhBuf = kAhMsgs * 128;  // each VP's region on node 1: message i in block i
constexpr int kAhLinkDown = -int(f::Status::LINK_DOWN);

struct AhMsg {
  uint32_t off, len;
};

struct AhRun {
  Pair p;
  std::mt19937_64 rng;
  std::vector<rdma_ep*> eps;                  // node 0's VPs
  std::vector<Buf> dst;                       // node 1: VP v's region
  std::vector<unsigned> dst_off;              // its offset into its first page
  std::vector<std::vector<uint8_t>> data;     // what VP v sends (message i's bytes at its offset)
  std::vector<std::vector<uint8_t>> img;      // what VP v's region's pages must hold
  std::vector<std::vector<uint8_t>> wmask;    // bytes a failed message may have written
  std::vector<std::map<uint16_t, rdma_cqe>> cqe;
  uint64_t dups = 0;

  AhRun(const char* seed_name, double host_bytes_per_cycle)
      : p([&] {
          hpcnet::sim::NicPairConfig cfg = Pair::bounded();
          cfg.pcie.raw_bytes_per_cycle = host_bytes_per_cycle;
          return cfg;
        }()),
        rng(hpcnet::tb::seed(seed_name)), dst(kAhVps), dst_off(kAhVps), data(kAhVps), img(kAhVps), wmask(kAhVps),
        cqe(kAhVps) {
    eps.push_back(p.a);
    for (unsigned v = 1; v < kAhVps; ++v) eps.push_back(p.open(0));
    for (unsigned v = 0; v < kAhVps; ++v) {
      dst_off[v] = unsigned(rng() % 4096);
      p.on(1, [&] { dst[v] = reg_buf(p.b, kAhBuf, dst_off[v], RDMA_ACCESS_WRITE); });
      img[v].assign(span(v), kGuard);
      wmask[v].assign(span(v), 0);
      rdma_mem_write(p.b, dst[v].va - dst_off[v], img[v].data(), span(v));
    }
  }
  // the bytes of VP v's region's pages
  size_t span(unsigned v) const { return (dst_off[v] + kAhBuf + 4095) / 4096 * 4096; }

  // A storm's messages: message i of 1..48 bytes (one WC burst) in block i of the region, one in 8
  // across the block's end (two packets); fresh bytes for each.
  std::vector<AhMsg> plan() {
    std::vector<AhMsg> m;
    for (unsigned v = 0; v < kAhVps; ++v) data[v] = random_bytes(rng, kAhBuf);
    for (unsigned i = 0; i < kAhMsgs; ++i) {
      const uint32_t len = 1 + uint32_t(rng() % 48);
      const bool cross = i + 1 < kAhMsgs && rng() % 8 == 0;
      const uint32_t in = cross ? 128 - len / 2 : uint32_t(rng() % (128 - len + 1));
      m.push_back({i * 128 + in, len});
    }
    return m;
  }
  // VP v posts every message back to back (tags from tag0), then takes every CQ entry (node 0's
  // thread v). posted: messages posted so far.
  void storm(unsigned v, const std::vector<AhMsg>& m, uint16_t tag0, std::atomic<unsigned>* posted) {
    for (size_t i = 0; i < m.size(); ++i) {
      const rdma_opts op = opts(uint16_t(tag0 + i), RDMA_F_CQ);
      REQUIRE(rdma_write_imm(eps[v], 1, rdma_vp(p.b), {dst[v].key, dst[v].va + m[i].off}, &data[v][m[i].off], m[i].len, &op) == 0);
      if (posted) ++*posted;
    }
    for (const rdma_cqe& e : poll_n(eps[v], m.size())) {
      dups += cqe[v].count(e.tag);
      cqe[v][e.tag] = e;
    }
  }
  // Every message of the storm completed once with one of `ok_or` (0 first); the images it leaves.
  // Returns how many completed with a status other than OK.
  unsigned expect(unsigned v, const std::vector<AhMsg>& m, uint16_t tag0, std::initializer_list<int> ok_or) {
    unsigned failed = 0;
    for (size_t i = 0; i < m.size(); ++i) {
      const auto it = cqe[v].find(uint16_t(tag0 + i));
      INFO("VP " << v << " message " << i);
      REQUIRE(it != cqe[v].end());
      CHECK(std::find(ok_or.begin(), ok_or.end(), it->second.status) != ok_or.end());
      failed += it->second.status != 0;
      for (uint32_t b = m[i].off; b < m[i].off + m[i].len; ++b) {
        if (it->second.status == 0) {
          img[v][dst_off[v] + b] = data[v][b];
          wmask[v][dst_off[v] + b] = 0;
        } else {
          wmask[v][dst_off[v] + b] = 1;
        }
      }
    }
    return failed;
  }
  // VP v's region's pages against their image (the bytes masked: as they are), once node 1 has
  // read a NIC register: its completion comes after every write the NIC posted before (PCIe order;
  // on a slow host the last messages' writes are still on their way when their answers arrive)
  std::string check(unsigned v) {
    p.on(1, [&] { (void)p.driver(1).read_reg(f::LINK_STATUS_OFFSET); });
    const std::vector<uint8_t> got = peek(p.b, dst[v].va - dst_off[v], span(v));
    std::vector<uint8_t> want = img[v];
    for (size_t b = 0; b < want.size(); ++b)
      if (wmask[v][b]) want[b] = got[b];
    return diff(got, want);
  }
};

}  // namespace

TEST_CASE("nic: storms of immediate writes from many VPs arrive intact with their checks asked ahead", "[nic][ahead]") {
  for (const double host : {25.6, 2.0}) {
    DYNAMIC_SECTION("a host writing " << host << " bytes a cycle") {
      AhRun r("nic checks ahead", host);
      const auto m = r.plan();
      uint64_t t0 = 0, t1 = 0;
      std::atomic<unsigned> done{0};
      for (unsigned v = 0; v < kAhVps; ++v)
        spawn_at(r.p.pair, 0, v, [&, v] {
          if (v == 0) t0 = r.p.pair.cycles();
          r.storm(v, m, 100, nullptr);
          if (++done == kAhVps) t1 = r.p.pair.cycles();
        });
      r.p.pair.run();
      CHECK(r.dups == 0);
      for (unsigned v = 0; v < kAhVps; ++v) {
        INFO("VP " << v);
        CHECK(r.expect(v, m, 100, {0}) == 0);
        CHECK(r.check(v) == "same");
      }
      if (host > 20) CHECK(t1 - t0 < 28 * uint64_t(kAhVps * kAhMsgs));
    }
  }
}

TEST_CASE("nic: a region deregistered during a storm of immediate writes checked ahead gets nothing after the return", "[nic][ahead][dereg]") {
  AhRun r("nic checks ahead dereg", 25.6);
  const auto m = r.plan();
  std::atomic<unsigned> posted{0};
  bool dereg_done = false;
  for (unsigned v = 0; v < kAhVps; ++v) spawn_at(r.p.pair, 0, v, [&, v] { r.storm(v, m, 100, &posted); });
  // node 1 deregisters VP 0's region with a quarter of the storm posted, then stores a pattern
  // over its pages at once
  std::vector<uint8_t> pattern(r.span(0));
  for (size_t b = 0; b < pattern.size(); ++b) pattern[b] = uint8_t(0x11 + 2 * (b % 97));  // never the guard
  spawn_at(r.p.pair, 1, 1, [&] {
    wait_until([&] { return posted >= kAhVps * kAhMsgs / 4; });
    REQUIRE(rdma_dereg_mr(r.p.b, r.dst[0].key) == 0);
    rdma_mem_write(r.p.b, r.dst[0].va - r.dst_off[0], pattern.data(), pattern.size());
    dereg_done = true;
  });
  r.p.pair.run();
  REQUIRE(dereg_done);
  CHECK(r.dups == 0);
  const int bad_key = -(kRemote | int(f::Status::BAD_KEY));
  const unsigned failed = r.expect(0, m, 100, {0, bad_key});
  CHECK(failed > 0);
  CHECK(failed < kAhMsgs);
  CHECK(diff(peek(r.p.b, r.dst[0].va - r.dst_off[0], r.span(0)), pattern) == "same");
  for (unsigned v = 1; v < kAhVps; ++v) {
    INFO("VP " << v);
    CHECK(r.expect(v, m, 100, {0}) == 0);
    CHECK(r.check(v) == "same");
  }
}

TEST_CASE("nic: a link dead during a storm of immediate writes checked ahead fails them cleanly and carries the next", "[nic][ahead][link]") {
  AhRun r("nic checks ahead link down", 25.6);
  const auto m1 = r.plan();
  hpcnet::sim::LinkFaults dead;
  dead.dead_at = r.p.pair.link().now() + 3000;  // a few hundred messages into the storm
  dead.dead_cycles = 20000;                     // past the give-up time (about 16,400 cycles)
  for (unsigned i = 0; i < 2; ++i) r.p.pair.link().wire(i).set_faults(dead, dead);
  for (unsigned v = 0; v < kAhVps; ++v) spawn_at(r.p.pair, 0, v, [&, v] { r.storm(v, m1, 100, nullptr); });
  r.p.pair.run();
  unsigned failed = 0;
  for (unsigned v = 0; v < kAhVps; ++v) failed += r.expect(v, m1, 100, {0, kAhLinkDown});
  CHECK(failed > 0);
  CHECK(failed < kAhVps * kAhMsgs);
  for (unsigned v = 0; v < kAhVps; ++v) {
    INFO("VP " << v << " after the first storm");
    CHECK(r.check(v) == "same");
  }
  // the link back up: a second storm, all of it OK
  const auto m2 = r.plan();
  for (unsigned v = 0; v < kAhVps; ++v)
    spawn_at(r.p.pair, 0, v, [&, v] {
      wait_until([&] { return f::LINK_STATUS_STATE.get(r.p.driver(0).read_reg(f::LINK_STATUS_OFFSET)) == 0; });
      r.storm(v, m2, 200, nullptr);
    });
  r.p.pair.run();
  CHECK(r.dups == 0);
  for (unsigned v = 0; v < kAhVps; ++v) {
    INFO("VP " << v << " after the second storm");
    CHECK(r.expect(v, m2, 200, {0}) == 0);
    CHECK(r.check(v) == "same");
  }
}
