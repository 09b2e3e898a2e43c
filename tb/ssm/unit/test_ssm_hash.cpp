// test_ssm_hash: directed tests of ssm_hash (hit/miss, spill, free, exhaustion, banks, reset).
// The harness (hash_tb) checks every answer against its reference and every broadcast against
// the commits; these tests add exact expectations on latency, node addresses and node images.
#include "hash_tb.hpp"

using namespace ssmu;

namespace {

constexpr std::uint64_t kBase = 0x200000;

Decide wr(Entry e, unsigned delay = 0) {
  return [=](bool, const Entry&) { return Commit{true, e, delay}; };
}
Decide rel(unsigned delay = 0) {
  return [=](bool, const Entry&) { return Commit{false, Entry{}, delay}; };
}
Entry E(std::uint64_t v, bool l = false, bool p = true, unsigned cnt = 1) { return Entry{v, l, p, cnt}; }

// n distinct addresses of set s.
std::vector<std::uint64_t> addrs_of_set(unsigned s, unsigned n, std::uint64_t from = 0x7000) {
  std::vector<std::uint64_t> v;
  for (unsigned i = 0; i < n; ++i) v.push_back(addr_in_set(from + 0x1000ull * i, s));
  return v;
}

// The documented ovf_node image at node (TAG, VALUE, L, P, COUNTER, NEXT).
void check_node(HashTb& tb, std::uint64_t node, std::uint64_t addr, const Entry& e, std::uint64_t next) {
  INFO("node 0x" << std::hex << node);
  CHECK(tb.peek64(node) == (addr | 1));
  CHECK(tb.peek64(node + 8) == e.value);
  CHECK(tb.peek64(node + 16) == (std::uint64_t(e.l) | std::uint64_t(e.p) << 1 | std::uint64_t(e.cnt) << 8));
  CHECK(tb.peek64(node + 24) == next);
}
// A freed node: TAG valid bit clear, NEXT = the previous free-list head.
void check_free(HashTb& tb, std::uint64_t node, std::uint64_t next) {
  INFO("free node 0x" << std::hex << node);
  CHECK((tb.peek64(node) & 1) == 0);
  CHECK(tb.peek64(node + 24) == next);
}

// 7 entries in set s: 4 on chip, then a chain of 3 nodes at kBase (+0, +32, +64; head +64).
std::vector<std::uint64_t> fill_set(HashTb& tb, unsigned s) {
  auto a = addrs_of_set(s, 7);
  for (unsigned i = 0; i < 7; ++i) tb.op(i % 2, a[i], wr(E(0x100 + i, i & 1, true, i)));
  return a;
}

}  // namespace

TEST_CASE("ssm_hash: hit miss update broadcast latency and counters", "[ssm_hash]") {
  HashTb tb(seed("ssm_hash hit/miss"));
  tb.add_chunk(kBase, 4);
  std::uint64_t a = addr_in_set(0x4000, 3), b = addr_in_set(0x9000, 3);
  Done d = tb.op(0, a, rel());
  CHECK_FALSE(d.hit);
  CHECK(d.answer - d.grant == 3);  // header: lookup answer 3 cycles
  CHECK(tb.updates == 0);          // a release is not broadcast
  d = tb.op(0, a, wr(E(0xdeadbeef)));
  CHECK(d.commit - d.answer == 2);  // header: commit 2 cycles
  CHECK(tb.updates == 1);
  d = tb.op(1, a, wr(E(0x1234, true, false, 0)));  // lock bit only: not the reset state
  CHECK(d.hit);
  CHECK(d.seen == E(0xdeadbeef));
  d = tb.op(0, b, rel());
  CHECK_FALSE(d.hit);
  tb.check_quiet();
  CHECK(tb.m().onchip_entries_o == 1);
  d = tb.op(0, a, wr(Entry{}));  // reset state: freed
  CHECK(tb.updates == 3);
  d = tb.op(1, b, wr(Entry{}));  // reset state on a miss: nothing stored, no broadcast
  CHECK(tb.updates == 3);
  tb.check_quiet();
  CHECK(tb.m().onchip_entries_o == 0);
  CHECK_FALSE(tb.op(0, a, rel()).hit);
  CHECK(tb.dma_log.empty());  // nothing spilled: the overflow area is never touched
}

TEST_CASE("ssm_hash: set conflict spills to the overflow area", "[ssm_hash]") {
  HashTb tb(seed("ssm_hash spill"));
  tb.lat_max = 6;
  tb.dma_ready_pct = 60;
  tb.add_chunk(kBase, 8);
  auto a = fill_set(tb, 5);
  tb.check_quiet();
  CHECK(tb.m().onchip_entries_o == 4);
  CHECK(tb.m().ovf_entries_o == 3);
  CHECK(tb.m().ovf_bump_left_o == 5);
  check_node(tb, kBase, a[4], E(0x104, false, true, 4), 0);
  check_node(tb, kBase + 32, a[5], E(0x105, true, true, 5), kBase);
  check_node(tb, kBase + 64, a[6], E(0x106, false, true, 6), kBase + 32);
  // Every entry is found again (the tail walks the whole chain: 3 node reads).
  for (unsigned i = 0; i < 7; ++i) CHECK(tb.op(1, a[i], rel()).hit);
  std::size_t n = tb.dma_log.size();
  CHECK(tb.op(0, a[4], rel()).seen == E(0x104, false, true, 4));
  CHECK(tb.dma_log.size() - n == 3);
  // Rewrite the middle node in place (NEXT kept).
  tb.op(0, a[5], wr(E(0x555, false, true, 9)));
  check_node(tb, kBase + 32, a[5], E(0x555, false, true, 9), kBase);
  // Another set has no chain: a miss there reads no host memory.
  n = tb.dma_log.size();
  CHECK_FALSE(tb.op(0, addr_in_set(0x12340, 6), rel()).hit);
  CHECK(tb.dma_log.size() == n);
  tb.check_quiet();
}

TEST_CASE("ssm_hash: free on chip in the middle and at the head of the chain and node reuse", "[ssm_hash]") {
  HashTb tb(seed("ssm_hash free"));
  tb.lat_max = 4;
  tb.add_chunk(kBase, 8);
  auto a = fill_set(tb, 9);  // chain: +64 (a6) -> +32 (a5) -> +0 (a4)
  std::size_t n = tb.dma_log.size();
  tb.op(0, a[5], wr(Entry{}));  // middle
  bool prev_write = false;      // prev.NEXT rewritten with one 8-byte write
  for (std::size_t i = n; i < tb.dma_log.size(); ++i)
    prev_write |= tb.dma_log[i].write && tb.dma_log[i].addr == kBase + 64 + 24 && tb.dma_log[i].len == 8;
  CHECK(prev_write);
  CHECK(tb.peek64(kBase + 64 + 24) == kBase);
  check_free(tb, kBase + 32, 0);
  tb.check_quiet();
  CHECK(tb.m().ovf_free_count_o == 1);
  tb.op(1, a[6], wr(Entry{}));  // head
  check_free(tb, kBase + 64, kBase + 32);
  tb.check_quiet();
  CHECK(tb.m().ovf_free_count_o == 2);
  CHECK(tb.op(0, a[4], rel()).hit);  // the chain is now just a4
  tb.op(0, a[1], wr(Entry{}));       // on chip
  tb.check_quiet();
  CHECK(tb.m().onchip_entries_o == 3);
  std::uint64_t a7 = addr_in_set(0x55000, 9), a8 = addr_in_set(0x66000, 9);
  tb.op(1, a7, wr(E(7)));  // takes the free way
  CHECK(tb.m().onchip_entries_o == 4);
  tb.op(0, a8, wr(E(8)));  // spills into the last freed node
  CHECK(tb.m().ovf_bump_left_o == 5);
  CHECK(tb.m().ovf_free_count_o == 1);
  check_node(tb, kBase + 64, a8, E(8), kBase);
  tb.op(1, a[4], wr(Entry{}));  // tail, behind a8
  CHECK(tb.peek64(kBase + 64 + 24) == 0);
  tb.check_quiet();
  for (auto x : {a[0], a[2], a[3], a7, a8}) CHECK(tb.op(0, x, rel()).hit);
  for (auto x : {a[1], a[4], a[5], a[6]}) CHECK_FALSE(tb.op(1, x, rel()).hit);
}

TEST_CASE("ssm_hash: exhausted overflow area waits for a new chunk", "[ssm_hash]") {
  HashTb tb(seed("ssm_hash exhaustion"));
  tb.lat_max = 3;
  tb.add_chunk(kBase, 1);
  auto a = addrs_of_set(2, 6);
  for (unsigned i = 0; i < 5; ++i) tb.op(0, a[i], wr(E(i)));
  CHECK(tb.m().ovf_bump_left_o == 0);
  CHECK_FALSE(tb.m().ovf_exhausted_o);
  tb.push(0, a[5], wr(E(5)));
  std::uint64_t other = addr_in_set(0x31000, 7);  // a set without a chain: not blocked
  tb.push(1, other, wr(E(77)));
  tb.run(200);
  CHECK(tb.m().ovf_exhausted_o);
  CHECK(tb.cl[0].done.size() == 5);  // the commit waits
  CHECK(tb.cl[1].done.size() == 1);
  tb.add_chunk(kBase + 0x1000, 2);
  tb.run_quiet();
  CHECK_FALSE(tb.m().ovf_exhausted_o);
  CHECK(tb.m().ovf_bump_left_o == 1);
  check_node(tb, kBase + 0x1000, a[5], E(5), kBase);
  tb.check_quiet();
  for (auto x : a) CHECK(tb.op(1, x, rel()).hit);
}

TEST_CASE("ssm_hash: different banks in parallel with same bank one cycle apart and same set serialized",
          "[ssm_hash]") {
  HashTb tb(seed("ssm_hash banks"));
  std::uint64_t s0 = addr_in_set(0x1000, 0), s1 = addr_in_set(0x2000, 1), s4 = addr_in_set(0x3000, 4);
  std::uint64_t s0b = addr_in_set(0x4000, 0);
  for (auto x : {s0, s1, s4, s0b}) tb.op(0, x, wr(E(x)));
  tb.push(0, s0, rel(4));
  tb.push(1, s1, rel(4));
  tb.run_quiet();
  Done d0 = tb.cl[0].done.back(), d1 = tb.cl[1].done.back();
  CHECK(d0.grant == d1.grant);
  CHECK(d0.answer == d1.answer);  // banks 0 and 1 in the same cycle
  tb.push(0, s0, rel(4));
  tb.push(1, s4, rel(4));
  tb.run_quiet();
  d0 = tb.cl[0].done.back(), d1 = tb.cl[1].done.back();
  CHECK(d0.grant == d1.grant);
  CHECK(d1.answer == d0.answer + 1);  // bank 0 twice: the lower client first
  tb.push(0, s0, wr(E(1), 6));
  tb.push(1, s0b, rel());
  tb.run_quiet();
  d0 = tb.cl[0].done.back(), d1 = tb.cl[1].done.back();
  CHECK(d1.grant > d0.commit);  // same set: waits for the release
}

// Regression (tag rtl-bug): before commit fc9c9e1 the SRAM rows survived rst_ni (no clearing
// sweep), so the entry below was still found after the reset.
TEST_CASE("ssm_hash: reset empties the table", "[ssm_hash][rtl-bug]") {
  HashTb tb(seed("ssm_hash reset"));
  std::uint64_t a = addr_in_set(0x8000, 4);
  tb.op(0, a, wr(E(42)));
  tb.reset();  // the harness forgets a: after reset the engine must not know it either
  tb.run(2);
  CHECK(tb.m().onchip_entries_o == 0);
  Done d = tb.op(0, a, rel());  // fails if the SRAM row survived the reset
  CHECK_FALSE(d.hit);
}
