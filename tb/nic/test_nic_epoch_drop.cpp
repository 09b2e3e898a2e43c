// test_nic_epoch_drop: the filter of older link epochs (rtl/nic/nic_epoch_drop.sv) alone, with the
// NIC's 6 slot bits (Vnic_epoch_drop) and with 2 (Vnic_epoch_drop_m2): packets of 1..5 flits,
// their head's MSG_ID {epoch, slot} mostly of the epoch current when the packet was made, offered
// with random idle cycles while the epoch moves on at random; the link's ready at random. Checked
// every cycle against the header's rule: a packet is decided at the first cycle its head is
// offered, passed when the head's epoch is epoch_i then; a passed packet's flits go out exactly as
// they come (out_valid_o = in_valid_i, in_ready_o = out_ready_i), a dropped packet's are taken at
// once and never shown; so a head shown and not taken stays shown when the epoch moves on.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstdio>

#include "Vnic_epoch_drop.h"
#include "Vnic_epoch_drop_m2.h"
#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"
#include "hpcnet/tb/stream.hpp"
#include "sim/core/harness.hpp"

namespace {

namespace edf = hpcnet::nic_formats;

struct EdFlit {
  std::array<std::uint64_t, 4> w{};
  bool head = false, last = false;
  unsigned epoch = 0;  // the head's
};

template <class M>
struct EpochDropTb {
  unsigned msg_w;
  hpcnet::sim::Harness<M> h{312.5, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  M& m = h.dut();
  hpcnet::tb::Rng rng;
  hpcnet::tb::StreamSource<EdFlit> src;
  hpcnet::tb::StreamSink sink;
  unsigned epoch = 0, epoch_pct = 3;
  bool decided = false, pass = false;  // the packet whose head is next or under way
  unsigned pkt_epoch = 0;
  std::uint64_t passed = 0, dropped = 0, kept = 0, flits_out = 0;

  EpochDropTb(unsigned mw, std::uint64_t seed) : msg_w(mw), rng(seed) {
    m.in_valid_i = 0;
    m.out_ready_i = 0;
    m.epoch_i = 0;
    hpcnet::tb::sync_reset(h);
  }

  void make_packet() {
    const unsigned n = rng.pct(70) ? 5 : rng.rnd(1, 5);
    for (unsigned f = 0; f < n; ++f) {
      EdFlit x;
      for (auto& w : x.w) w = rng();
      x.head = f == 0;
      x.last = f + 1 == n;
      if (x.head) {  // MSG_ID = {epoch, slot} (its upper bits 0 when MsgW < 6)
        x.epoch = rng.pct(75) ? epoch : rng.below(4);
        const unsigned slot = rng.below(1u << msg_w);
        edf::PKT_HEAD_MSG_ID.write(x.w.data(), (x.epoch << msg_w) | slot);
      }
      src.push(x);
    }
  }

  void cycle() {
    const std::uint64_t now = h.cycles();
    if (now % 700 == 0) {
      static const unsigned idle[] = {0, 30, 70}, rdy[] = {10, 50, 100}, ep[] = {0, 3, 20};
      src.idle_pct = idle[rng.below(3)];
      sink.ready_pct = rdy[rng.below(3)];
      epoch_pct = ep[rng.below(3)];
    }
    if (src.size() < 6) make_packet();
    if (rng.pct(epoch_pct)) epoch = (epoch + 1) & 3;  // the link went down
    src.step(rng);
    sink.step(rng);
    const bool v = src.valid();
    const EdFlit x = v ? src.data() : EdFlit{{rng(), rng(), rng(), rng()}, false, rng.pct(50), 0};
    m.epoch_i = static_cast<CData>(epoch);
    m.in_valid_i = v;
    for (unsigned i = 0; i < 4; ++i) hpcnet::tb::put_bits(m.in_data_i, 64 * i, 64, x.w[i]);
    m.in_last_i = x.last;
    m.out_ready_i = sink.ready();
    h.eval();
    INFO("cycle " << now);
    if (v && x.head && !decided) {  // the decision: the first cycle the head is offered
      decided = true;
      pass = x.epoch == epoch;
      pkt_epoch = x.epoch;
      (pass ? passed : dropped) += 1;
    }
    if (v && x.head && pass && x.epoch != epoch) ++kept;  // shown before the epoch moved on
    if (!v) {
      REQUIRE(!m.out_valid_o);
    } else {
      INFO((pass ? "passed" : "dropped") << " packet of epoch " << pkt_epoch << ", epoch now " << epoch);
      REQUIRE(bool(m.out_valid_o) == pass);
      REQUIRE(bool(m.in_ready_o) == (pass ? sink.ready() : true));
      if (src.fire(m.in_ready_o)) {
        flits_out += pass;
        if (x.last) decided = false;
      }
    }
    hpcnet::tb::tick(h);
  }
};

template <class M>
void epoch_drop_random(unsigned msg_w, const char* name) {
  EpochDropTb<M> tb(msg_w, hpcnet::tb::seed(name));
  for (unsigned c = 0; c < 40000; ++c) tb.cycle();
  std::printf("%s: packets passed %llu, dropped %llu; cycles a passed head was shown after the epoch moved on "
              "%llu; flits out %llu\n",
              name, static_cast<unsigned long long>(tb.passed), static_cast<unsigned long long>(tb.dropped),
              static_cast<unsigned long long>(tb.kept), static_cast<unsigned long long>(tb.flits_out));
  REQUIRE(tb.passed > 1000);
  REQUIRE(tb.dropped > 300);
  REQUIRE(tb.kept > 5);
}

}  // namespace

TEST_CASE("nic_epoch_drop: packets of older epochs dropped whole and a shown head kept (6 slot bits)",
          "[nic_epoch_drop]") {
  epoch_drop_random<Vnic_epoch_drop>(6, "nic_epoch_drop MsgW 6");
}

TEST_CASE("nic_epoch_drop: packets of older epochs dropped whole and a shown head kept (2 slot bits)",
          "[nic_epoch_drop]") {
  epoch_drop_random<Vnic_epoch_drop_m2>(2, "nic_epoch_drop MsgW 2");
}
