// test_cmn_fifo: cmn_fifo (Verilated) against a std::deque, with random idle cycles at the source
// and random back-pressure at the sink; phases change the rates so that the FIFO runs full and
// empty. Also checks the one-beat-per-cycle throughput and the registered (not fall-through) output.
#include <catch2/catch.hpp>

#include <deque>
#include <random>
#include <type_traits>

#include "Vcmn_fifo.h"
#include "Vcmn_fifo_d1.h"
#include "sim/core/harness.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"

namespace {

template <class M>
struct FifoTb {
  unsigned depth, width;
  hpcnet::sim::Harness<M> h{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  M& m = h.dut();
  std::deque<std::uint64_t> q;  // reference model

  FifoTb(unsigned d, unsigned w) : depth(d), width(w) {
    m.valid_i = 0;
    m.ready_i = 0;
    hpcnet::tb::sync_reset(h);
  }
  // Compares the outputs with the model; call after the inputs are set and evaluated.
  void check() {
    INFO("cycle " << h.cycles() << ", model holds " << q.size());
    REQUIRE(bool(m.valid_o) == !q.empty());
    REQUIRE(bool(m.ready_o) == (q.size() < depth));
    REQUIRE(m.count_o == q.size());
    if (!q.empty()) REQUIRE(m.data_o == q.front());
  }
  // One cycle of traffic: returns {pushed, popped}.
  std::pair<bool, bool> step(bool valid, std::uint64_t data, bool ready) {
    m.valid_i = valid;
    m.data_i = static_cast<std::remove_reference_t<decltype(m.data_i)>>(data);
    m.ready_i = ready;
    h.eval();
    check();
    bool push = valid && m.ready_o, pop = m.valid_o && ready;
    hpcnet::tb::tick(h);
    if (pop) q.pop_front();
    if (push) q.push_back(data);
    return {push, pop};
  }
};

template <class M>
void random_traffic(unsigned depth, unsigned width, const char* name) {
  std::mt19937_64 rng(hpcnet::tb::seed(name));
  FifoTb<M> tb(depth, width);
  std::uniform_int_distribution<int> pct(0, 99);
  const int rates[] = {0, 10, 50, 90, 100};
  int src_pct = 50, snk_pct = 50;  // chance of offering a beat / of being ready
  bool valid = false;
  std::uint64_t data = 0, mask = (width >= 64) ? ~0ull : (1ull << width) - 1;
  unsigned pushes = 0, pops = 0;
  for (int c = 0; c < 40000; ++c) {
    if (c % 500 == 0) {
      src_pct = rates[rng() % 5];
      snk_pct = rates[rng() % 5];
    }
    if (!valid && pct(rng) < src_pct) {  // a stalled beat stays offered until taken
      valid = true;
      data = rng() & mask;
    }
    auto [push, pop] = tb.step(valid, data, pct(rng) < snk_pct);
    if (push) valid = false;
    pushes += push;
    pops += pop;
  }
  INFO("pushes " << pushes << ", pops " << pops);
  REQUIRE(pops > 1000);  // the traffic really flowed
}

template <class M>
void throughput(unsigned depth) {
  FifoTb<M> tb(depth, 8);
  // Not fall-through: the first beat is visible one cycle after it is accepted.
  tb.step(true, 0x5a, true);
  REQUIRE(tb.m.valid_o);
  unsigned pops = 0;
  for (unsigned c = 0; c < 1000; ++c) pops += tb.step(true, c & 0xff, true).second;
  // depth 1 cannot push while full, so it alternates; deeper FIFOs stream every cycle.
  REQUIRE(pops == (depth == 1 ? 500u : 1000u));
}

}  // namespace

TEST_CASE("cmn_fifo 16x5 matches a queue under random idle and back-pressure", "[cmn_fifo]") {
  random_traffic<Vcmn_fifo>(5, 16, "cmn_fifo 16x5");
}
TEST_CASE("cmn_fifo 8x1 matches a queue under random idle and back-pressure", "[cmn_fifo]") {
  random_traffic<Vcmn_fifo_d1>(1, 8, "cmn_fifo 8x1");
}
TEST_CASE("cmn_fifo 16x5 streams one beat per cycle", "[cmn_fifo]") { throughput<Vcmn_fifo>(5); }
TEST_CASE("cmn_fifo 8x1 passes a beat every other cycle", "[cmn_fifo]") { throughput<Vcmn_fifo_d1>(1); }
