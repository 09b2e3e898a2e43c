// test_nic_vp_err: nic_vp_err (Verilated, NumVp 5, 3 reporters, queues of 2), the VPs' error words
// behind error queues (docs/nic.md section 6), against a C++ reference of its brief, cycle by
// cycle, under random traffic:
//   - reporters 0 and 1 report at random (at most every other cycle, as the completion unit and
//     the receivers do), reporter 2 (a dropped PIO word) in bursts of one a cycle, each only while
//     its rep_room_o is high (as the MMIO port holds a PIO write);
//   - random VP.ERR clears (clr_i) and a random read VP every cycle.
// The reference: nic_vp_err_ref.hpp (a FIFO of Depth per reporter, one report applied a cycle
// unless a clear, the first error kept, COUNT saturating). Checked every cycle: rd_data_o,
// new_valid_o / new_vp_o and rep_room_o. At the end, with the queues drained, every word equals
// the reference's, and the number of reports applied equals the number made (none lost).
// Reruns: HPCNET_SEED=<seed>.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

#include "Vnic_vp_err_s.h"
#include "nic_vp_err_ref.hpp"
#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"
#include "sim/core/harness.hpp"

namespace {

constexpr unsigned kErrVps = 5, kErrPorts = 3, kErrDepth = 2;
namespace nf = hpcnet::nic_formats;  // the vp_err fields: CODE, COUNT, TAG

using ErrRep = nic_tb::VpErrRep;
using ErrRef = nic_tb::VpErrRef<kErrVps, kErrPorts, kErrDepth>;

}  // namespace

TEST_CASE("nic_vp_err: queued reports reach the error words in order and none is lost", "[nic][vp_err]") {
  hpcnet::tb::Rng rng(hpcnet::tb::seed("nic vp_err"));
  hpcnet::sim::Harness<Vnic_vp_err_s> h{200.0, hpcnet::sim::trace_from_env()};
  Vnic_vp_err_s& m = h.dut();
  m.rep_valid_i = 0;
  m.clr_i = 0;
  hpcnet::tb::sync_reset(h);

  ErrRef ref;
  std::uint64_t made = 0, clears = 0, full_seen = 0, saturated = 0;
  std::array<unsigned, kErrPorts> last{};  // cycles since each reporter's last report
  unsigned burst = 0;                      // reporter 2's burst: reports left
  const unsigned cycles = 60000;
  for (unsigned cyc = 0; cyc < cycles + 40; ++cyc) {
    const bool quiet = cyc >= cycles;  // the end: no more reports or clears, the queues drain
    std::array<bool, kErrPorts> rep{};
    std::array<ErrRep, kErrPorts> r{};
    if (!burst && rng.pct(2)) burst = rng.rnd(1, 12);
    for (unsigned p = 0; p < kErrPorts; ++p) {
      const bool room = ref.q[p].size() < kErrDepth;
      full_seen += !room;
      const bool want = p < 2 ? (last[p] >= 2 && rng.pct(30)) : burst > 0;
      rep[p] = !quiet && want && room;
      // a few VPs, so that the words count many errors
      r[p] = ErrRep{rng.below(kErrVps), rng.below(256), rng.below(65536)};
      last[p] = rep[p] ? 1 : last[p] + 1;
    }
    if (rep[2]) --burst;
    const bool clr = !quiet && rng.pct(3);
    const unsigned clr_vp = rng.below(kErrVps);
    const unsigned rd_vp = rng.below(kErrVps);
    std::uint32_t v = 0, vps = 0, codes = 0;
    std::uint64_t tags = 0;
    for (unsigned p = 0; p < kErrPorts; ++p) {
      v |= std::uint32_t{rep[p]} << p;
      vps |= r[p].vp << (5 * p);
      codes |= r[p].code << (8 * p);
      tags |= std::uint64_t{r[p].tag} << (16 * p);
    }
    m.rep_valid_i = static_cast<CData>(v);
    m.rep_vp_i = static_cast<SData>(vps);
    m.rep_code_i = codes;
    m.rep_tag_i = tags;
    m.clr_i = clr;
    m.clr_vp_i = static_cast<CData>(clr_vp);
    m.rd_vp_i = static_cast<CData>(rd_vp);
    h.settle();
    INFO("cycle " << cyc);
    for (unsigned p = 0; p < kErrPorts; ++p) REQUIRE(((m.rep_room_o >> p) & 1u) == (ref.q[p].size() < kErrDepth));
    REQUIRE(m.rd_data_o == ref.word[rd_vp]);
    const int hp = ref.head_port();
    const bool go = !clr && hp >= 0;
    REQUIRE(bool(m.new_valid_o) == go);
    if (go) REQUIRE(m.new_vp_o == ref.q[static_cast<unsigned>(hp)].front().vp);
    made += rep[0] + rep[1] + rep[2];
    clears += clr;
    ref.step(clr, clr_vp, rep, r);
    hpcnet::tb::tick(h);
  }
  for (unsigned vp = 0; vp < kErrVps; ++vp) {
    m.rd_vp_i = static_cast<CData>(vp);
    h.settle();
    CHECK(m.rd_data_o == ref.word[vp]);
    saturated += nf::VP_ERR_COUNT.get(ref.word[vp]) == 0xFFFF;
  }
  CHECK(ref.applied == made);  // every report applied once
  CHECK(made > 20000);
  CHECK(clears > 1000);
  CHECK(full_seen > 0);  // reporter 2's queue filled and the MMIO side held
  INFO("saturated words: " << saturated);
}

TEST_CASE("nic_vp_err: COUNT saturates at 0xFFFF and keeps the first error", "[nic][vp_err]") {
  hpcnet::sim::Harness<Vnic_vp_err_s> h{200.0, hpcnet::sim::trace_from_env()};
  Vnic_vp_err_s& m = h.dut();
  m.rep_valid_i = 0;
  m.clr_i = 0;
  hpcnet::tb::sync_reset(h);
  ErrRef ref;
  // reporter 2 at full rate for VP 3 (room permitting), codes changing each time
  for (unsigned i = 0; i < 0x10000 + 50; ++i) {
    const bool room = ref.q[2].size() < kErrDepth;
    std::array<bool, kErrPorts> rep{false, false, room};
    std::array<ErrRep, kErrPorts> r{};
    r[2] = ErrRep{3, (i + 1) & 0xFF, i & 0xFFFF};
    m.rep_valid_i = room ? 4u : 0u;
    m.rep_vp_i = 3u << 10;
    m.rep_code_i = r[2].code << 16;
    m.rep_tag_i = std::uint64_t{r[2].tag} << 32;
    m.rd_vp_i = 3;
    h.settle();
    REQUIRE(m.rd_data_o == ref.word[3]);
    ref.step(false, 0, rep, r);
    hpcnet::tb::tick(h);
  }
  m.rep_valid_i = 0;
  for (int i = 0; i < 4; ++i) hpcnet::tb::tick(h);
  m.rd_vp_i = 3;
  h.settle();
  const std::uint64_t w = m.rd_data_o;
  CHECK(nf::VP_ERR_COUNT.get(w) == 0xFFFF);
  CHECK(nf::VP_ERR_CODE.get(w) == 1);  // the first report's code and tag
  CHECK(nf::VP_ERR_TAG.get(w) == 0);
  CHECK(w == ref.word[3]);
}
