// RDMA_F_MORE (docs/nic.md section 10): posts held by the library and submitted together, so that
// their descriptors share write-combined lines. Immediate writes of random sizes from node 0 to
// node 1; checked against a model of the rule (descriptors taken greedily into submissions of at
// most RDMA_MORE_WORDS words, each a run of WC bursts of 8 words from a line's start):
//   - what the model holds does not reach the NIC (node 0's bus sees only the bursts of the
//     submissions made, node 1's memory keeps its guard where the held messages go) until a post
//     without the flag, which submits the rest: every message OK and intact, in as many bursts as
//     the model says (fewer than one a message);
//   - rdma_poll_cq submits what is held (a program that polls for a held post does not hang);
//   - a post of another submission mode (DMA) submits what is held first: all arrive, in order.
#include <catch2/catch.hpp>

#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

using namespace nic_tb;

namespace {

constexpr unsigned kMoreMsgs = 20;

// The model for descriptors of `words` words posted with RDMA_F_MORE: the WC bursts of the
// submissions made so far, and the first descriptor still held
struct MoreState {
  uint64_t bursts = 0;
  unsigned first_held = 0;
};
MoreState more_model(const std::vector<unsigned>& words) {
  MoreState m;
  unsigned held = 0;
  for (unsigned i = 0; i < words.size(); ++i) {
    if (held + words[i] > RDMA_MORE_WORDS) {
      m.bursts += (held + 7) / 8;
      m.first_held = i;
      held = 0;
    }
    held += words[i];
  }
  return m;
}
// ... and once a post without the flag has submitted them all
uint64_t more_bursts(const std::vector<unsigned>& words) {
  unsigned held = 0;
  for (unsigned i = more_model(words).first_held; i < words.size(); ++i) held += words[i];
  return more_model(words).bursts + (held + 7) / 8;
}

}  // namespace

TEST_CASE("nic: posts with RDMA_F_MORE are held and submitted together in shared write-combined lines", "[nic][more]") {
  std::mt19937_64 rng(hpcnet::tb::seed("nic rdma more"));
  Pair p;
  Buf dst;
  p.on(1, [&] { dst = reg_buf(p.b, kMoreMsgs * 64, 0, RDMA_ACCESS_WRITE); });
  const std::vector<uint8_t> guard(kMoreMsgs * 64, kGuard);
  rdma_mem_write(p.b, dst.va, guard.data(), guard.size());
  const auto data = random_bytes(rng, kMoreMsgs * 64);
  std::vector<unsigned> len, words;
  for (unsigned i = 0; i < kMoreMsgs; ++i) {
    len.push_back(1 + unsigned(rng() % 48));
    words.push_back(2 + (len.back() + 7) / 8);  // control word, address, data words
  }
  auto post = [&](unsigned i, unsigned flags, int submit) {
    const rdma_opts o = opts(uint16_t(i), RDMA_F_CQ | flags, submit);
    REQUIRE(rdma_write_imm(p.a, 1, rdma_vp(p.b), {dst.key, dst.va + 64 * i}, &data[64 * i], len[i], &o) == 0);
  };
  auto bursts = [&] { return p.pair.node(0).bus(0).stats().wc_bursts; };
  // node 1's memory with messages [0, n) written
  auto image = [&](unsigned n) {
    std::vector<uint8_t> want = guard;
    for (unsigned i = 0; i < n; ++i) std::copy_n(&data[64 * i], len[i], &want[64 * i]);
    return want;
  };
  auto check_all = [&](const std::vector<rdma_cqe>& got) {
    REQUIRE(got.size() == kMoreMsgs);
    for (unsigned i = 0; i < kMoreMsgs; ++i) {
      INFO("message " << i);
      CHECK(got[i].tag == i);  // in order
      CHECK(got[i].status == 0);
    }
    CHECK(diff(peek(p.b, dst.va, guard.size()), image(kMoreMsgs)) == "same");
  };

  SECTION("held until a post without it") {
    const uint64_t b0 = bursts();
    p.on(0, [&] {
      for (unsigned i = 0; i + 1 < kMoreMsgs; ++i) post(i, RDMA_F_MORE, RDMA_SUBMIT_PIO_WC);
      const uint64_t t = p.pair.cycles();
      wait_until([&] { return p.pair.cycles() >= t + 3000; });
    });
    // the submissions that did not fit with the next one went; the rest is held
    const MoreState m = more_model(std::vector<unsigned>(words.begin(), words.end() - 1));
    CHECK(bursts() - b0 == m.bursts);
    CHECK(m.first_held > 0);
    CHECK(diff(peek(p.b, dst.va, guard.size()), image(m.first_held)) == "same");
    std::vector<rdma_cqe> got;
    p.on(0, [&] {
      post(kMoreMsgs - 1, 0, RDMA_SUBMIT_PIO_WC);
      got = poll_n(p.a, kMoreMsgs);
    });
    CHECK(bursts() - b0 == more_bursts(words));
    CHECK(bursts() - b0 < kMoreMsgs);
    check_all(got);
  }
  SECTION("submitted by rdma_poll_cq") {
    std::vector<rdma_cqe> got;
    p.on(0, [&] {
      for (unsigned i = 0; i < kMoreMsgs; ++i) post(i, RDMA_F_MORE, RDMA_SUBMIT_PIO_WC);
      got = poll_n(p.a, kMoreMsgs);
    });
    check_all(got);
  }
  SECTION("submitted first by a post of another mode") {
    std::vector<rdma_cqe> got;
    p.on(0, [&] {
      for (unsigned i = 0; i < kMoreMsgs; ++i) post(i, RDMA_F_MORE, i < kMoreMsgs / 2 ? RDMA_SUBMIT_PIO_WC : RDMA_SUBMIT_DMA);
      REQUIRE(rdma_flush(p.a) == 0);
      got = poll_n(p.a, kMoreMsgs);
    });
    check_all(got);
  }
}
