// test_cmn_realign: cmn_realign (Verilated) against a byte-array reference. Every stream carries a
// sequence of transfers; each transfer is a random byte string with a source offset a and a
// destination offset d, cut into beats by one of three policies (memory-aligned source reads:
// first beat at position a; reads returned at position 0 as ssm_burst gets them; random beats,
// zero-length ones included), closed by its last beat or by an extra empty closing beat. Every
// (a, d) pair of the frame width is run, beats of all streams interleave at random, with random
// idle cycles at the source and random back-pressure at the sink. The reference places stream
// byte t at position d + t of the destination and cuts that into frames: each frame must leave
// exactly once, in order per stream, with its bytes (zeros elsewhere), lo/len, first/last and the
// user bits of the beat that completed it. Bytes outside a beat's range are random garbage.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <deque>
#include <random>
#include <vector>

#include "Vcmn_realign.h"
#include "Vcmn_realign_b16s3.h"
#include "Vcmn_realign_b8.h"
#include "sim/core/harness.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"

namespace {

using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;
using Word = std::array<std::uint8_t, 32>;  // up to Bytes = 32

struct AlignBeat {
  unsigned sid = 0, off = 0, len = 0, dst_off = 0;
  bool first = false, last = false;
  Word word{};  // the beat's bytes at [off, off + len), garbage elsewhere
  std::uint32_t user = 0;
};
struct AlignFrame {
  unsigned lo = 0, len = 0;
  bool first = false, last = false;
  Word data{};  // zeros outside [lo, lo + len)
  std::uint32_t user = 0;
};

struct RealignParams {
  unsigned bytes, streams, user_w;
};

// The reference: the frames a transfer's beats must give (stream byte t at position d + t).
std::vector<AlignFrame> expected_frames(const RealignParams& p, const std::vector<std::uint8_t>& s, unsigned d,
                                   const std::vector<AlignBeat>& beats) {
  const unsigned B = p.bytes;
  std::vector<AlignFrame> out;
  auto frame = [&](unsigned j, unsigned end, bool last, std::uint32_t user) {  // positions < end
    AlignFrame f;
    f.lo = (j == 0) ? d : 0;
    unsigned hi = std::min(end - j * B, B);
    f.len = hi - f.lo;
    f.first = j == 0;
    f.last = last;
    f.user = user;
    for (unsigned q = f.lo; q < hi; ++q) f.data[q] = s[j * B + q - d];
    out.push_back(f);
  };
  unsigned pos = d, j = 0;  // destination positions filled; frames given
  for (const AlignBeat& b : beats) {
    pos += b.len;
    bool full = pos >= (j + 1) * B;  // at most one full frame per beat (len <= B)
    if (full) {
      frame(j, (j + 1) * B, b.last && pos == (j + 1) * B, b.user);
      ++j;
    }
    if (b.last && !(full && pos == j * B)) frame(j, pos, true, b.user);  // remainder (or empty)
  }
  return out;
}

template <class M>
struct RealignTb {
  RealignParams p;
  hpcnet::sim::Harness<M> h{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  M& m = h.dut();
  std::mt19937_64 rng;
  std::vector<std::deque<AlignBeat>> beats;    // per stream: beats not yet offered
  std::vector<std::deque<AlignFrame>> frames;  // per stream: frames not yet seen
  std::vector<std::pair<unsigned, unsigned>> pairs;  // (a, d) still to run
  unsigned n_frames = 0, n_beats = 0;

  RealignTb(RealignParams p_, std::uint64_t seed) : p(p_), rng(seed), beats(p.streams), frames(p.streams) {
    m.valid_i = 0;
    m.ready_i = 0;
    hpcnet::tb::sync_reset(h);
  }
  unsigned rnd(unsigned n) { return static_cast<unsigned>(rng() % n); }

  // A new transfer on stream sid with offsets (a, d): its beats and frames are queued.
  void add_transfer(unsigned sid, unsigned a, unsigned d) {
    const unsigned B = p.bytes;
    static const unsigned kLens[] = {0, 1, 2, 3};
    unsigned len_class = rnd(8);
    unsigned L = len_class == 0 ? kLens[rnd(4)] : len_class < 4 ? rnd(B + 1) : rnd(5 * B) + 1;
    std::vector<std::uint8_t> s(L);
    for (auto& x : s) x = static_cast<std::uint8_t>(rng());
    unsigned policy = rnd(3);
    std::vector<AlignBeat> bs;
    for (unsigned t = 0; t < L || bs.empty();) {
      AlignBeat b;
      b.sid = sid;
      unsigned rem = L - t;
      if (policy == 2) {  // random position and length (zero-length beats now and then)
        b.off = rnd(B);
        b.len = std::min(rnd(B - b.off + 1), rem);
      } else {
        b.off = (policy == 0 && bs.empty()) ? a : 0;
        b.len = std::min(bs.empty() ? B - a : B, rem);
      }
      for (unsigned i = 0; i < B; ++i) b.word[i] = static_cast<std::uint8_t>(rng());
      for (unsigned i = 0; i < b.len; ++i) b.word[b.off + i] = s[t + i];
      b.user = static_cast<std::uint32_t>(rng() & ((1u << p.user_w) - 1));
      t += b.len;
      bs.push_back(b);
    }
    if (rnd(4) == 0) {  // an extra empty closing beat
      AlignBeat b;
      b.sid = sid;
      b.off = rnd(B);
      for (unsigned i = 0; i < B; ++i) b.word[i] = static_cast<std::uint8_t>(rng());
      b.user = static_cast<std::uint32_t>(rng() & ((1u << p.user_w) - 1));
      bs.push_back(b);
    }
    bs.front().first = true;
    bs.front().dst_off = d;
    bs.back().last = true;
    for (const AlignFrame& f : expected_frames(p, s, d, bs)) frames[sid].push_back(f);
    for (const AlignBeat& b : bs) beats[sid].push_back(b);
  }

  void drive(const AlignBeat* b) {
    m.valid_i = b != nullptr;
    AlignBeat z;
    if (!b) {  // idle: random garbage on the other inputs
      z.sid = rnd(p.streams);
      z.off = rnd(p.bytes);
      z.len = rnd(p.bytes + 1 - z.off);
      b = &z;
    }
    m.sid_i = static_cast<std::remove_reference_t<decltype(m.sid_i)>>(b->sid);
    m.first_i = b->first;
    m.dst_off_i = static_cast<std::remove_reference_t<decltype(m.dst_off_i)>>(b->dst_off);
    m.off_i = static_cast<std::remove_reference_t<decltype(m.off_i)>>(b->off);
    m.len_i = static_cast<std::remove_reference_t<decltype(m.len_i)>>(b->len);
    m.last_i = b->last;
    for (unsigned i = 0; i < p.bytes; ++i) put_bits(m.data_i, 8 * i, 8, b->word[i]);
    m.user_i = static_cast<std::remove_reference_t<decltype(m.user_i)>>(b->user);
  }

  void check_frame() {
    unsigned sid = m.sid_o;
    INFO("cycle " << h.cycles() << " stream " << sid);
    REQUIRE(sid < p.streams);
    REQUIRE(!frames[sid].empty());
    AlignFrame f = frames[sid].front();
    frames[sid].pop_front();
    REQUIRE(m.lo_o == f.lo);
    REQUIRE(m.len_o == f.len);
    REQUIRE(bool(m.first_o) == f.first);
    REQUIRE(bool(m.last_o) == f.last);
    REQUIRE(m.user_o == f.user);
    for (unsigned i = 0; i < p.bytes; ++i) {
      INFO("byte " << i);
      REQUIRE(get_bits(m.data_o, 8 * i, 8) == f.data[i]);
    }
    ++n_frames;
  }

  // Runs until every transfer is through; every (a, d) pair `rounds` times.
  void run(unsigned rounds) {
    for (unsigned r = 0; r < rounds; ++r)
      for (unsigned a = 0; a < p.bytes; ++a)
        for (unsigned d = 0; d < p.bytes; ++d) pairs.emplace_back(a, d);
    std::shuffle(pairs.begin(), pairs.end(), rng);
    const unsigned rates[] = {10, 50, 90, 100};
    unsigned src_pct = 50, snk_pct = 50;
    int cur = -1;  // stream whose beat is offered (held until taken)
    for (std::uint64_t c = 0;; ++c) {
      REQUIRE(c < 4000000);
      if (c % 500 == 0) {
        src_pct = rates[rnd(4)];
        snk_pct = rates[rnd(4)];
      }
      for (unsigned s = 0; s < p.streams; ++s)  // keep a transfer queued on every stream
        if (beats[s].empty() && !pairs.empty()) {
          add_transfer(s, pairs.back().first, pairs.back().second);
          pairs.pop_back();
        }
      if (cur < 0 && rnd(100) < src_pct) {
        std::vector<unsigned> ready;
        for (unsigned s = 0; s < p.streams; ++s)
          if (!beats[s].empty()) ready.push_back(s);
        if (ready.empty()) break;  // all offered and taken
        cur = static_cast<int>(ready[rnd(static_cast<unsigned>(ready.size()))]);
      }
      drive(cur >= 0 ? &beats[cur].front() : nullptr);
      bool snk = rnd(100) < snk_pct;
      m.ready_i = snk;
      h.eval();
      INFO("cycle " << h.cycles());
      REQUIRE((!m.valid_i || m.valid_o || m.ready_o));  // a beat that gives no frame is taken
      REQUIRE((!m.ready_o || !m.valid_o || !m.valid_i || snk));  // a beat's frame leaves with it
      if (m.valid_o && snk) check_frame();
      if (m.valid_i && m.ready_o) {
        beats[cur].pop_front();
        cur = -1;
        ++n_beats;
      }
      hpcnet::tb::tick(h);
    }
    // Drain (a closing beat may leave its remainder one cycle later).
    m.valid_i = 0;
    m.ready_i = 1;
    for (int c = 0; c < 4; ++c) {
      h.eval();
      if (m.valid_o) check_frame();
      hpcnet::tb::tick(h);
    }
    for (unsigned s = 0; s < p.streams; ++s) {
      INFO("stream " << s);
      REQUIRE(frames[s].empty());  // every frame seen exactly once
    }
    REQUIRE(n_frames > p.bytes * p.bytes * rounds);
  }
};

template <class M>
void random_streams(RealignParams p, unsigned rounds, const char* name) {
  std::uint64_t base = hpcnet::tb::seed(name);
  for (std::uint64_t k = 0; k < 3; ++k) {  // three seeds a run: base, base + 1, base + 2
    INFO("seed " << base + k);
    RealignTb<M> tb(p, base + k);
    tb.run(rounds);
  }
}

// One stream starting at destination offset 3, eight beats of B bytes back-to-back, the sink
// always ready: every beat gives its frame in the same cycle (no latency, one beat a cycle); the
// closing beat overflows its frame by 3 bytes, which leave in the next cycle with ready_o low.
template <class M>
void full_rate(RealignParams p) {
  const unsigned B = p.bytes;
  RealignTb<M> tb(p, 1);
  tb.m.ready_i = 1;
  AlignBeat b;
  b.first = true;
  b.dst_off = 3;
  b.len = B;
  for (unsigned i = 0; i < 8; ++i) {
    for (unsigned k = 0; k < B; ++k) b.word[k] = static_cast<std::uint8_t>(i * B + k);  // byte t = t
    b.last = i == 7;
    tb.drive(&b);
    tb.h.eval();
    INFO("beat " << i);
    REQUIRE(tb.m.ready_o);
    REQUIRE(tb.m.valid_o);
    REQUIRE(tb.m.lo_o == (i == 0 ? 3u : 0u));
    REQUIRE(tb.m.len_o == (i == 0 ? B - 3 : B));
    REQUIRE(bool(tb.m.first_o) == (i == 0));
    REQUIRE(!tb.m.last_o);
    REQUIRE(get_bits(tb.m.data_o, 8 * 3, 8) == ((i * B) & 0xff));  // position 3 = stream byte i*B
    hpcnet::tb::tick(tb.h);
    b.first = false;
    b.dst_off = 0;
  }
  tb.drive(nullptr);
  tb.h.eval();
  REQUIRE(tb.m.valid_o);
  REQUIRE(tb.m.last_o);
  REQUIRE(tb.m.lo_o == 0);
  REQUIRE(tb.m.len_o == 3);
  REQUIRE(!tb.m.ready_o);
  for (unsigned k = 0; k < 3; ++k) REQUIRE(get_bits(tb.m.data_o, 8 * k, 8) == ((8 * B - 3 + k) & 0xff));
  hpcnet::tb::tick(tb.h);
  tb.m.valid_i = 0;
  tb.h.eval();
  REQUIRE(!tb.m.valid_o);
}

}  // namespace

TEST_CASE("cmn_realign Bytes=32 Streams=4: every offset pair with random idle and back-pressure",
          "[cmn_realign]") {
  random_streams<Vcmn_realign>({32, 4, 8}, 1, "cmn_realign Bytes=32 Streams=4");
}
TEST_CASE("cmn_realign Bytes=8 Streams=1: every offset pair with random idle and back-pressure",
          "[cmn_realign]") {
  random_streams<Vcmn_realign_b8>({8, 1, 1}, 16, "cmn_realign Bytes=8 Streams=1");
}
TEST_CASE("cmn_realign Bytes=16 Streams=3: every offset pair with random idle and back-pressure",
          "[cmn_realign]") {
  random_streams<Vcmn_realign_b16s3>({16, 3, 3}, 4, "cmn_realign Bytes=16 Streams=3");
}
TEST_CASE("cmn_realign Bytes=32: no latency and one beat a cycle but an overflowing close takes one more",
          "[cmn_realign]") {
  full_rate<Vcmn_realign>({32, 4, 8});
}
