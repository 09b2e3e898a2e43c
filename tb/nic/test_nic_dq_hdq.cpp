// test_nic_dq_hdq: nic_hdq and nic_dq (Verilated, default parameters) together, the fetcher's
// words going into the DQs: 10 VPs submit by PIO only, 14 by DMA only (host DQ rings of 32..256
// words, doorbells), 8 mix both (a PIO phase, then a DMA phase that ends once every word rung for
// is in the DQ). Software writes a PIO descriptor only when DQ_FREE has room for it and fills a
// ring only up to head_o; the host answers after up to 250 cycles; vp_ok_i is random and the
// descriptor output stalls at random. Every descriptor must leave nic_dq exactly once, in order per
// VP, with its words; no PIO word is dropped.
#include <catch2/catch.hpp>

#include <cstdint>
#include <deque>
#include <vector>

#include "Vnic_dq.h"
#include "Vnic_hdq.h"
#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/dma_mem.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"
#include "nic_host_model.hpp"
#include "sim/core/harness.hpp"

namespace {

using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;
using namespace nic_tb;
namespace nf = hpcnet::nic_formats;

struct Both {
  static constexpr unsigned kVp = 32, kDq = 512, kMax = 24;
  hpcnet::sim::Harness<Vnic_hdq> hh{312.5, hpcnet::sim::trace_from_env()};
  hpcnet::sim::Harness<Vnic_dq> hd{312.5, hpcnet::sim::TraceWindow::off()};
  Vnic_hdq& f = hh.dut();
  Vnic_dq& q = hd.dut();
  hpcnet::tb::Rng rng;
  hpcnet::tb::DmaMem dma{rng};  // host memory and its DMA read port
  std::vector<SwVp> sw;
  enum Kind { kPio, kDma, kMixed };
  std::vector<Kind> kind;
  // Per VP: descriptors expected out of nic_dq in order; the PIO words of the descriptor being
  // written; a mixed VP's phase (true: DMA, until all its rung words are fetched).
  std::vector<std::deque<std::vector<std::uint64_t>>> expect;
  std::vector<std::deque<std::uint64_t>> pio_words;
  std::vector<bool> dma_phase;
  std::uint64_t descs = 0, pio_descs = 0, dma_descs = 0;
  bool produce = true;

  explicit Both(std::uint64_t seed)
      : rng(seed), sw(kVp), kind(kVp), expect(kVp), pio_words(kVp), dma_phase(kVp, false) {
    std::vector<unsigned> log2s(kVp);
    for (unsigned v = 0; v < kVp; ++v) {
      kind[v] = v < 10 ? kPio : (v < 24 ? kDma : kMixed);
      log2s[v] = kind[v] == kPio ? 0 : 5 + static_cast<unsigned>(rng() % 4);  // 32..256 words
    }
    place_rings(sw, rng, log2s);
    // the host answers after 2 + [0, 249] cycles, 1 in 20 after 251 cycles; half its cycles stall a
    // request, half are idle before a frame
    dma.lat = 2;
    dma.lat_jit = 249;
    dma.long_pct = 5;
    dma.long_lat = 251;
    dma.req_ready_pct = 50;
    dma.rsp_idle_pct = 50;
    f.tail_we_i = 0;
    f.rd_req_ready_i = 0;
    f.rd_rsp_valid_i = 0;
    f.fw_ready_i = 0;
    q.pio_valid_i = 0;
    q.fw_valid_i = 0;
    q.desc_ready_i = 0;
    q.vp_en_i = ~0u;
    q.vp_ok_i = 0;
    nic_tb::win_drive(f.win_i, false, false, false, 0, 0, 0);
    hpcnet::tb::sync_reset(hh);
    hpcnet::tb::sync_reset(hd);
    for (unsigned v = 0; v < kVp; ++v) nic_tb::hdq_setup(hh, v, sw[v]);
  }
  unsigned rnd(unsigned n) { return static_cast<unsigned>(rng() % n); }
  std::vector<std::uint64_t> make_desc() {
    const unsigned n = 2 + rnd(kMax - 1);
    std::vector<std::uint64_t> d(n);
    for (auto& w : d) w = rng();
    nf::DESC_CTRL_NWORDS.write(&d[0], n);
    return d;
  }
  unsigned words_of(unsigned v) const { return static_cast<unsigned>(get_bits(q.words_o, v * 10, 10)); }

  void cycle() {
    // ---- software
    // PIO: a VP in its PIO phase starts a descriptor when DQ_FREE has room for all of it.
    unsigned pio_vp = 0;
    bool pio = false;
    if (rnd(100) < 60) {
      const unsigned s = rnd(kVp);
      for (unsigned k = 0; k < kVp && !pio; ++k) {
        const unsigned v = (s + k) % kVp;
        if (kind[v] == kDma || dma_phase[v]) continue;
        if (pio_words[v].empty() && produce && rnd(4) == 0) {
          auto d = make_desc();
          if (kDq - words_of(v) < d.size() + 1) continue;  // (a word may land this cycle)
          for (auto w : d) pio_words[v].push_back(w);
          expect[v].push_back(d);
          ++pio_descs;
        }
        if (!pio_words[v].empty()) {
          pio = true;
          pio_vp = v;
        }
      }
    }
    // DMA: a VP in its DMA phase puts descriptors into its ring and rings the doorbell.
    bool bell = false;
    unsigned bvp = 0;
    if (produce && rnd(100) < 20) {
      const unsigned v = 10 + rnd(kVp - 10);
      SwVp& x = sw[v];
      if (kind[v] == kMixed && !dma_phase[v] && pio_words[v].empty()) dma_phase[v] = true;
      if (dma_phase[v] || kind[v] == kDma) {
        auto d = make_desc();
        if (x.free_words() >= d.size()) {
          for (auto w : d) x.produce(dma.mem, w);
          expect[v].push_back(d);
          ++dma_descs;
          bell = rnd(2) == 0;
          bvp = v;
        }
      }
    }
    if (!bell && rnd(10) == 0) {  // a doorbell for words written earlier
      bvp = 10 + rnd(kVp - 10);
      bell = !sw[bvp].unrung.empty();
    }
    // A mixed VP returns to PIO once every word it rang for is in the DQ.
    for (unsigned v = 0; v < kVp; ++v)
      if (kind[v] == kMixed && dma_phase[v] && sw[v].unrung.empty() && sw[v].fetched == sw[v].tail && rnd(50) == 0)
        dma_phase[v] = false;
    f.tail_we_i = bell;
    f.tail_vp_i = static_cast<std::uint8_t>(bvp);
    f.tail_i = sw[bvp].tail;
    q.pio_valid_i = pio;
    q.pio_vp_i = static_cast<std::uint8_t>(pio_vp);
    q.pio_data_i = pio ? pio_words[pio_vp].front() : rng();
    // ---- the fetcher, then the DQ, then the fetcher's response handshake
    for (unsigned v = 0; v < kVp; ++v) put_bits(f.words_i, v * 10, 10, words_of(v));
    dma.step(hh.cycles());
    dma.drive(f);
    f.fw_ready_i = 0;
    hh.eval();
    q.fw_valid_i = f.fw_valid_o;
    q.fw_vp_i = f.fw_vp_o;
    q.fw_data_i = f.fw_data_o;
    q.vp_ok_i = static_cast<std::uint32_t>(rng());
    const bool drdy = rnd(100) < 70;
    q.desc_ready_i = drdy;
    hd.eval();
    f.fw_ready_i = q.fw_ready_o;
    hh.eval();
    INFO("cycle " << hd.cycles());
    REQUIRE(!q.pio_drop_o);
    // ---- descriptors out: exactly the next one of the VP
    if (q.desc_valid_o && drdy) {
      const unsigned v = q.desc_vp_o;
      INFO("VP " << v);
      REQUIRE(!expect[v].empty());
      const auto& d = expect[v].front();
      REQUIRE(!q.desc_bad_o);
      REQUIRE(q.desc_nwords_o == d.size());
      for (unsigned k = 0; k < kMax; ++k) REQUIRE(get_bits(q.desc_words_o, 64 * k, 64) == (k < d.size() ? d[k] : 0));
      expect[v].pop_front();
      ++descs;
    }
    const bool fw_acc = f.fw_valid_o && f.fw_ready_i;
    const unsigned fw_vp = f.fw_vp_o;
    const std::uint64_t fw_d = f.fw_data_o;
    REQUIRE(dma.sample(f, hh.cycles()));
    hpcnet::tb::tick(hh);
    hpcnet::tb::tick(hd);
    if (pio) pio_words[pio_vp].pop_front();
    if (bell) {
      SwVp& x = sw[bvp];
      for (auto w : x.unrung) x.exp.push_back(w);
      x.unrung.clear();
    }
    if (fw_acc) {
      SwVp& x = sw[fw_vp];
      REQUIRE(!x.exp.empty());
      REQUIRE(fw_d == x.exp.front());
      x.exp.pop_front();
      ++x.fetched;
    }
  }
};

}  // namespace

TEST_CASE("nic_hdq: with nic_dq PIO and DMA descriptors of 32 VPs leave once and in order", "[nic_hdq]") {
  const std::uint64_t seed = hpcnet::tb::seed("nic_hdq with nic_dq");
  Both b(seed);
  for (unsigned c = 0; c < 60000; ++c) b.cycle();
  b.produce = false;
  for (unsigned c = 0; c < 100000; ++c) {
    bool more = false;
    for (unsigned v = 0; v < Both::kVp; ++v) more |= !b.expect[v].empty();
    if (!more) break;
    b.cycle();
  }
  INFO("descriptors " << b.descs << " PIO " << b.pio_descs << " DMA " << b.dma_descs);
  for (unsigned v = 0; v < Both::kVp; ++v) {
    INFO("VP " << v);
    REQUIRE(b.expect[v].empty());
  }
  REQUIRE(b.pio_descs > 200);
  REQUIRE(b.dma_descs > 200);
}
