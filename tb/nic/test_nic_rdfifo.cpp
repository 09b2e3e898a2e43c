// test_nic_rdfifo: the read engine's data FIFO (rtl/nic/nic_rdfifo.sv) alone: 5 rows of 70 bits
// (Vnic_rdfifo: the row pointers wrap at a non-power of two, the data spans three 32-bit words)
// and 2 rows of 8 bits (Vnic_rdfifo_d2). The writer offers a beat with random idle cycles only
// while wr_ready_o is high (the read engine counts credit; a refused beat is asserted against), or,
// as the read engine does, only while fewer than Depth beats are held; the reader's ready is
// random. Checked every cycle against a queue of the beats written:
//   - rd_data_o the oldest beat not yet read, held until taken;
//   - rd_valid_o exactly when that beat was written at least kRdfifoLat cycles before (the
//     header's latency, earlier beats permitting: the FIFO never idles with a beat due);
//   - count_o the beats held; wr_ready_o high while fewer than Depth are held, low when Depth + 2
//     (every SRAM row and the output stage) are;
//   - with the reader always ready and a beat offered in every cycle there is room, one beat in
//     and one out in every cycle.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>

#include "Vnic_rdfifo.h"
#include "Vnic_rdfifo_d2.h"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"
#include "hpcnet/tb/stream.hpp"
#include "sim/core/harness.hpp"

namespace {

constexpr std::uint64_t kRdfifoLat = 3;  // a beat written in cycle t is at rd_data_o from t + 3

using RfBeat = std::array<std::uint64_t, 2>;  // up to 128 bits

template <class M>
struct RdfifoTb {
  unsigned depth, width;
  hpcnet::sim::Harness<M> h{312.5, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  M& m = h.dut();
  hpcnet::tb::Rng rng;
  hpcnet::tb::StreamSink sink;
  hpcnet::tb::HoldCheck<RfBeat> hold;
  unsigned idle_pct = 30;
  bool credit = false;  // offer only while fewer than depth beats are held
  std::deque<std::pair<RfBeat, std::uint64_t>> q;  // beats held, with the cycle each was written
  std::uint64_t in = 0, out = 0, full = 0, due_waits = 0;

  RdfifoTb(unsigned d, unsigned w, std::uint64_t seed) : depth(d), width(w), rng(seed) {
    m.wr_valid_i = 0;
    m.rd_ready_i = 0;
    hpcnet::tb::sync_reset(h);
  }
  template <class P>
  void put(P& port, const RfBeat& b) {
    hpcnet::tb::put_bits(port, 0, width < 64 ? width : 64, b[0]);
    if (width > 64) hpcnet::tb::put_bits(port, 64, width - 64, b[1]);
  }
  template <class P>
  RfBeat get(const P& port) const {
    RfBeat b{hpcnet::tb::get_bits(port, 0, width < 64 ? width : 64), 0};
    if (width > 64) b[1] = hpcnet::tb::get_bits(port, 64, width - 64);
    return b;
  }
  RfBeat random_beat() {
    RfBeat b{rng(), rng()};
    if (width < 64) b[0] &= (std::uint64_t{1} << width) - 1;
    b[1] = width > 64 ? b[1] & ((std::uint64_t{1} << (width - 64)) - 1) : 0;
    return b;
  }

  void cycle() {
    const std::uint64_t now = h.cycles();
    // wr_ready_o depends on the state only: the writer sees it before it offers
    const bool room = credit ? q.size() < depth : bool(m.wr_ready_o);
    const bool wv = room && !rng.pct(idle_pct);
    const RfBeat b = random_beat();
    m.wr_valid_i = wv;
    put(m.wr_data_i, b);
    sink.step(rng);
    m.rd_ready_i = sink.ready();
    h.eval();
    INFO("cycle " << now << ", " << q.size() << " held");
    REQUIRE(m.count_o == q.size());
    if (q.size() < depth) REQUIRE(m.wr_ready_o);
    if (q.size() == depth + 2) REQUIRE(!m.wr_ready_o);
    full += !m.wr_ready_o;
    const bool due = !q.empty() && q.front().second + kRdfifoLat <= now;
    due_waits += !q.empty() && !due;
    REQUIRE(bool(m.rd_valid_o) == due);
    const RfBeat got = get(m.rd_data_o);
    REQUIRE(hold.check(m.rd_valid_o, m.rd_ready_i, got));
    if (m.rd_valid_o) {
      REQUIRE(got == q.front().first);
      if (m.rd_ready_i) {
        q.pop_front();
        ++out;
      }
    }
    if (wv) {
      q.emplace_back(b, now);
      ++in;
    }
    hpcnet::tb::tick(h);
  }
};

template <class M>
void rdfifo_random(unsigned depth, unsigned width, const char* name) {
  RdfifoTb<M> tb(depth, width, hpcnet::tb::seed(name));
  static const unsigned idle[] = {0, 30, 80}, rdy[] = {10, 50, 90, 100};
  for (unsigned round = 0; round < 40; ++round) {
    tb.idle_pct = idle[tb.rng.below(3)];
    tb.sink.ready_pct = rdy[tb.rng.below(4)];
    tb.credit = tb.rng.pct(30);
    for (unsigned c = 0; c < 500; ++c) tb.cycle();
  }
  std::printf("%s: %llu beats in, %llu out; cycles with the SRAM full %llu, with a beat held and not yet due %llu\n",
              name, static_cast<unsigned long long>(tb.in), static_cast<unsigned long long>(tb.out),
              static_cast<unsigned long long>(tb.full), static_cast<unsigned long long>(tb.due_waits));
  REQUIRE(tb.full > 500);
  REQUIRE(tb.due_waits > 500);
  // full rate: a beat in and out in every cycle once the first one is through
  tb.idle_pct = 0;
  tb.sink.ready_pct = 100;
  tb.credit = false;
  for (unsigned c = 0; c < 20; ++c) tb.cycle();
  const std::uint64_t in0 = tb.in, out0 = tb.out;
  for (unsigned c = 0; c < 200; ++c) tb.cycle();
  REQUIRE(tb.in - in0 == 200);
  REQUIRE(tb.out - out0 == 200);
}

}  // namespace

TEST_CASE("nic_rdfifo: 5 rows of 70 bits under idle cycles and back-pressure against a queue", "[nic_rdfifo]") {
  rdfifo_random<Vnic_rdfifo>(5, 70, "nic_rdfifo 5x70");
}

TEST_CASE("nic_rdfifo: 2 rows of 8 bits under idle cycles and back-pressure against a queue", "[nic_rdfifo]") {
  rdfifo_random<Vnic_rdfifo_d2>(2, 8, "nic_rdfifo 2x8");
}
