// test_nic_hdq: nic_hdq (Verilated) against a C++ host: per-VP rings of random words in a host
// memory model (bases at odd places, so that rings cross 4 KB boundaries; small rings that wrap
// often; a VP with no ring that still gets doorbells), software that fills a ring only up to the
// fetcher's head_o and rings the doorbell with free-running producer indices (taken mod the ring
// size), a DMA read port that stalls requests at random and answers each with the 32-byte-aligned
// frames of host memory after a random latency, with random gaps, and an on-chip DQ model that
// takes words at random (back-pressure, and never into a full DQ, as nic_dq), drains them at
// random and now and then gets PIO words that nearly fill it (tiny room; in the small variant the
// DQs hold 16 words). Checked every cycle:
//   - the requests exactly as a model of the documented steps gives them: when idle, the VP a
//     round-robin pointer picks among those with unfetched words and DQ room; in the next cycle
//     its request sized min(unfetched, DQ room, MaxReqBytes/8, words to the ring's end, words to
//     the next 4 KB) at the ring's head (none if that is 0: the room went meanwhile); then
//     rd_req_valid_o with exactly that address and length until taken; one read outstanding;
//   - the words go to nic_dq's port exactly, in order, for the request's VP, while a frame is
//     there; rd_rsp_ready_o (with a frame) exactly when the frame's last wanted word is taken;
//   - head_o is the number of words taken, mod the ring size.
// (test_nic_dq_hdq.cpp runs nic_hdq and nic_dq together.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "Vnic_hdq.h"
#include "Vnic_hdq_s.h"
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

struct HdqParams {
  unsigned num_vp, dq_words, max_req_bytes;
  unsigned cnt_w() const {
    unsigned w = 0;
    while ((1u << w) < dq_words + 1) ++w;
    return w;
  }
};

using namespace nic_tb;

template <class M>
struct HdqTb {
  HdqParams p;
  hpcnet::sim::Harness<M> h{312.5, hpcnet::sim::trace_from_env()};
  M& m = h.dut();
  hpcnet::tb::Rng rng;
  unsigned cw;
  hpcnet::tb::DmaMem dma{rng};  // host memory and its DMA read port
  std::vector<SwVp> sw;
  std::vector<unsigned> dq;  // DQ model: words held
  unsigned max_req;          // words

  // Reference of the fetcher: its step (choose, size, request, response), the VP served, the
  // request sized, its words and the current frame's words not yet taken, the round-robin pointer.
  enum { kIdle, kSize, kReq, kRsp };
  int rst = kIdle;
  unsigned prio = 0, out_vp = 0, r_nw = 0, r_frame = 0, out_left = 0, frame_left = 0;
  std::uint64_t r_addr = 0;
  struct Snap {
    std::vector<std::uint32_t> tail_reg;
    std::vector<std::uint64_t> fetched;
    std::vector<unsigned> dq;
  };

  // Stimulus.
  bool produce = true, force_bell = false;
  unsigned force_vp = 0;
  unsigned prod_pct = 30, bell_pct = 40, fw_ready_pct = 70, drain_pct = 30, refill_pct = 2;
  std::uint64_t requests = 0, wraps = 0, cuts4k = 0, room_cut = 0, max_cut = 0, words_out = 0,
                ignored_bells = 0, unsized = 0;
  bool win_held = false;  // the test drives the register window itself (else a random read a cycle)

  HdqTb(HdqParams p_, std::uint64_t seed, const std::vector<unsigned>& log2s)
      : p(p_), rng(seed), cw(p_.cnt_w()), sw(p_.num_vp), dq(p_.num_vp, 0), max_req(p_.max_req_bytes / 8) {
    // the host answers after 2 + [0, 39] cycles, 1 in 20 after 251 cycles
    dma.lat = 2;
    dma.lat_jit = 39;
    dma.long_pct = 5;
    dma.long_lat = 251;
    place_rings(sw, rng, log2s);
    m.tail_we_i = 0;
    m.rd_req_ready_i = 0;
    m.rd_rsp_valid_i = 0;
    m.fw_ready_i = 0;
    nic_tb::win_drive(m.win_i, false, false, false, 0, 0, 0);
    hpcnet::tb::sync_reset(h);
    for (unsigned v = 0; v < p.num_vp; ++v) nic_tb::hdq_setup(h, v, sw[v]);
  }
  unsigned rnd(unsigned n) { return static_cast<unsigned>(rng() % n); }
  std::uint64_t now() const { return h.cycles(); }
  Snap snap() const {
    Snap s;
    for (const auto& x : sw) {
      s.tail_reg.push_back(x.tail_reg);
      s.fetched.push_back(x.fetched);
    }
    s.dq = dq;
    return s;
  }
  bool elig(const Snap& s, unsigned v) const {
    const SwVp& x = sw[v];
    return x.has_ring() && ((s.tail_reg[v] - static_cast<std::uint32_t>(s.fetched[v])) & x.mask()) != 0 &&
           s.dq[v] < p.dq_words;
  }

  void cycle() {
    const unsigned n = p.num_vp;
    // ---- software: fill rings (never past head_o), ring doorbells
    if (produce && rnd(100) < prod_pct) {
      const unsigned v = rnd(n);
      SwVp& x = sw[v];
      const unsigned k = std::min(x.free_words(), 1 + rnd(12));
      for (unsigned i = 0; i < k; ++i) x.produce(dma.mem, rng());
    }
    bool bell = false;
    unsigned bvp = 0;
    std::uint32_t bval = 0;
    if (force_bell) {  // a directed doorbell: VP force_vp, its tail
      bell = true;
      bvp = force_vp;
      bval = sw[bvp].tail;
      force_bell = false;
    } else if (rnd(100) < bell_pct) {
      bvp = rnd(32);  // VPs >= NumVp and VPs with no ring: ignored
      bell = true;
      if (bvp < n && sw[bvp].has_ring()) bval = sw[bvp].tail + static_cast<std::uint32_t>(rng() << sw[bvp].log2);
      else bval = static_cast<std::uint32_t>(rng());
    }
    m.tail_we_i = bell;
    m.tail_vp_i = static_cast<std::uint8_t>(bell ? bvp : rnd(32));
    m.tail_i = bell ? bval : static_cast<std::uint32_t>(rng());
    for (unsigned v = 0; v < n; ++v) put_bits(m.words_i, v * cw, cw, dq[v]);
    // software reads one of a VP's ring registers through the window (answered this cycle)
    namespace nf = hpcnet::nic_formats;
    const unsigned wvp = rnd(n), wreg = rnd(4);
    const bool wvpc = wreg >= 2;
    const unsigned woff = wreg == 0 ? nf::VP_HDQ_HEAD_OFFSET : wreg == 1 ? nf::VP_HDQ_TAIL_OFFSET
                          : wreg == 2 ? nf::VPC_HDQ_BASE_OFFSET : nf::VPC_SIZES_OFFSET;
    const SwVp& wx = sw[wvp];
    const std::uint64_t wexp = wreg == 0 ? (wx.fetched & wx.mask()) : wreg == 1 ? wx.tail_reg
                               : wreg == 2 ? wx.base : nf::VPC_SIZES_HDQ_LOG2.put(wx.log2);
    if (!win_held) nic_tb::win_drive(m.win_i, true, false, wvpc, wvp, woff, rng());
    dma.step(now());
    dma.drive(m);
    h.eval();
    // The DQ takes a word at random, never into a full DQ (nic_dq stalls it).
    const bool fw_rdy = rnd(100) < fw_ready_pct && dq[m.fw_vp_o % n] < p.dq_words;
    m.fw_ready_i = fw_rdy;
    h.eval();
    INFO("cycle " << now());

    if (!win_held) {
      INFO("window read of VP " << wvp << " offset " << woff << (wvpc ? " (VPC)" : ""));
      REQUIRE(m.win_rdata_o == wexp);
    }
    // ---- head_o
    for (unsigned v = 0; v < n; ++v) {
      INFO("VP " << v);
      REQUIRE(get_bits(m.head_o, 32 * v, 32) == (sw[v].fetched & sw[v].mask()));
    }
    // ---- the request: the fetcher's documented steps, cycle by cycle (choose, size, request,
    // response); rd_req_valid_o exactly in the request step, with the sized address and length
    const bool rv = m.rd_req_valid_o;
    const Snap now_snap = snap();
    REQUIRE(rv == (rst == kReq));
    if (rv) {
      REQUIRE(m.rd_req_addr_o == r_addr);
      REQUIRE(m.rd_req_len_o == 8 * r_nw);
    }
    int rst_next = rst;
    if (rst == kIdle) {  // choose: round-robin among the VPs with words to fetch and DQ room
      for (unsigned k = 0; k < n; ++k)
        if (elig(now_snap, (prio + k) % n)) {
          out_vp = (prio + k) % n;
          prio = (out_vp + 1) % n;
          rst_next = kSize;
          break;
        }
    } else if (rst == kSize) {  // size it with this cycle's values
      const SwVp& x = sw[out_vp];
      const std::uint32_t head = static_cast<std::uint32_t>(x.fetched) & x.mask();
      const std::uint64_t addr = x.base + 8ull * head;
      const std::uint64_t pend = (x.tail_reg - head) & x.mask();
      const std::uint64_t room = p.dq_words - dq[out_vp];
      const std::uint64_t to_end = x.size() - head, to_4k = (4096 - (addr & 4095)) / 8;
      const std::uint64_t nw = std::min({pend, room, std::uint64_t{max_req}, to_end, to_4k});
      if (nw == 0) {  // the room went meanwhile: nothing to ask
        ++unsized;
        rst_next = kIdle;
      } else {
        r_addr = addr;
        r_nw = static_cast<unsigned>(nw);
        ++requests;
        if (nw == to_end) ++wraps;
        if (nw == to_4k && nw < to_end) ++cuts4k;
        if (nw == room && nw < max_req && nw < pend) ++room_cut;
        if (nw == max_req) ++max_cut;
        rst_next = kReq;
      }
    } else if (rst == kReq && m.rd_req_ready_i) {
      out_left = r_nw;
      rst_next = kRsp;
    }
    const bool outstanding = rst == kRsp;
    // ---- the words
    const bool fv = m.fw_valid_o;
    REQUIRE(fv == (outstanding && dma.rd_rsp_valid()));
    bool fw_acc = false, last_of_frame = false;
    if (fv) {
      REQUIRE(m.fw_vp_o == out_vp);
      REQUIRE(!sw[out_vp].exp.empty());
      REQUIRE(m.fw_data_o == sw[out_vp].exp.front());
      fw_acc = fw_rdy;
      last_of_frame = frame_left == 1;
    }
    // (rd_rsp_ready_o may be high without a frame)
    if (dma.rd_rsp_valid()) REQUIRE(bool(m.rd_rsp_ready_o) == (fw_acc && last_of_frame));
    if (dma.rd_rsp_valid() && last_of_frame && fw_acc) REQUIRE(bool(m.rd_rsp_last_i) == (out_left == 1));
    const bool req_taken = rv && m.rd_req_ready_i;
    REQUIRE(dma.sample(m, now()));

    hpcnet::tb::tick(h);

    // ---- reference after the edge
    if (bell && bvp < n && sw[bvp].has_ring()) {
      SwVp& x = sw[bvp];
      x.tail_reg = bval & x.mask();
      REQUIRE(((bval - x.tail) & x.mask()) == 0);  // the same index mod the ring size
      for (auto w : x.unrung) x.exp.push_back(w);
      x.unrung.clear();
    } else if (bell) {
      ++ignored_bells;
    }
    if (req_taken) {
      r_frame = 0;
      const std::uint64_t fa = r_addr & ~31ull;
      frame_left = static_cast<unsigned>(std::min<std::uint64_t>(fa + 32, r_addr + 8 * r_nw) - r_addr) / 8;
    }
    rst = rst_next;
    if (fw_acc) {
      SwVp& x = sw[out_vp];
      x.exp.pop_front();
      ++x.fetched;
      ++dq[out_vp];
      ++words_out;
      --out_left;
      --frame_left;
      if (frame_left == 0) {
        if (out_left == 0) {
          rst = kIdle;
        } else {  // the request's next frame
          const std::uint64_t fa = (r_addr & ~31ull) + 32ull * ++r_frame;
          frame_left = static_cast<unsigned>(std::min<std::uint64_t>(fa + 32, r_addr + 8 * r_nw) - fa) / 8;
        }
      }
    }
    // The DQ drains at random (its read-out), and now and then a VP gets PIO words: its DQ nearly
    // full, so that the next requests are cut by the room (and words in flight may find it full).
    if (rnd(100) < drain_pct) {
      const unsigned v = rnd(n);
      if (dq[v]) dq[v] -= 1 + rnd(std::min(dq[v], 8u));
    }
    if (rnd(100) < refill_pct) {
      const unsigned v = rnd(n);
      dq[v] = std::max(dq[v], p.dq_words - rnd(8));
    }
  }

  void run(unsigned cycles) {
    const unsigned prod[] = {5, 30, 80}, bell[] = {5, 40, 90}, fwr[] = {20, 70, 100},
                   drain[] = {0, 3, 30, 100}, rdy[] = {10, 60, 100}, idle[] = {80, 30, 0};
    for (unsigned c = 0; c < cycles; ++c) {
      if (c % 1500 == 0) {
        prod_pct = prod[rnd(3)];
        bell_pct = bell[rnd(3)];
        fw_ready_pct = fwr[rnd(3)];
        drain_pct = drain[rnd(4)];
        dma.req_ready_pct = rdy[rnd(3)];
        dma.rsp_idle_pct = idle[rnd(3)];
      }
      cycle();
    }
    // Drain: no new words; the doorbells already written are served to the end.
    produce = false;
    drain_pct = 100;
    fw_ready_pct = 100;
    for (unsigned c = 0; c < 200000; ++c) {
      bool more = rst != kIdle;
      for (const auto& x : sw) more |= !x.exp.empty() || !x.unrung.empty();
      if (!more) break;
      cycle();
    }
    for (unsigned v = 0; v < p.num_vp; ++v) {
      INFO("VP " << v);
      REQUIRE(sw[v].exp.empty());
      REQUIRE(sw[v].unrung.empty());
      REQUIRE(sw[v].fetched == (sw[v].has_ring() ? sw[v].tail : 0));
    }
    REQUIRE(rst == kIdle);
  }
};

// Rings of 4..1024 words (small: 8 and 128 words), the last VP without one (its doorbells are
// ignored).
template <class M>
void hdq_random_run(HdqParams p, const char* name, unsigned cycles, bool small) {
  const std::uint64_t base = hpcnet::tb::seed(name);
  for (std::uint64_t k = 0; k < 2; ++k) {
    INFO("seed " << base + k);
    hpcnet::tb::Rng r(base + k + 1000);
    std::vector<unsigned> log2s(p.num_vp);
    for (unsigned v = 0; v < p.num_vp; ++v) log2s[v] = 2 + static_cast<unsigned>(r() % 9);
    if (small) log2s = {3, 7, 0};
    log2s[p.num_vp - 1] = 0;
    HdqTb<M> tb(p, base + k, log2s);
    tb.run(cycles);
    INFO("requests " << tb.requests << " wraps " << tb.wraps << " 4 KB cuts " << tb.cuts4k << " room cuts "
                     << tb.room_cut << " max " << tb.max_cut << " unsized " << tb.unsized << " words "
                     << tb.words_out);
    REQUIRE(tb.requests > cycles / 200);
    REQUIRE(tb.wraps > 0);
    REQUIRE(tb.cuts4k > 0);
    REQUIRE(tb.room_cut > 0);
    REQUIRE(tb.max_cut > 0);
    REQUIRE(tb.ignored_bells > 0);
  }
}

const HdqParams kHdqDefault{32, 512, 1024};
const HdqParams kHdqSmall{3, 16, 64};

}  // namespace

TEST_CASE("nic_hdq: 3 VPs with 16-word DQs and 64-byte requests against a host model (tiny room)",
          "[nic_hdq]") {
  hdq_random_run<Vnic_hdq_s>(kHdqSmall, "nic_hdq small", 100000, true);
}

TEST_CASE("nic_hdq: 32 VPs with 512-word DQs and 1 KB requests against a host model", "[nic_hdq]") {
  hdq_random_run<Vnic_hdq>(kHdqDefault, "nic_hdq default", 40000, false);
}

// The documented latency: a doorbell in cycle t gives rd_req_valid_o in cycle t+3 (idle fetcher);
// a VP whose DQ filled between its choice and its sizing gets no request until there is room.
TEST_CASE("nic_hdq: a doorbell gives a request three cycles later", "[nic_hdq]") {
  std::vector<unsigned> log2s(32, 6);
  HdqTb<Vnic_hdq> tb(kHdqDefault, hpcnet::tb::seed("nic_hdq latency"), log2s);
  tb.produce = false;
  tb.bell_pct = 0;
  tb.refill_pct = 0;
  tb.dma.req_ready_pct = 100;
  tb.dma.rsp_idle_pct = 0;
  tb.fw_ready_pct = 100;
  for (unsigned v : {0u, 5u, 31u, 5u}) {
    INFO("VP " << v);
    SwVp& x = tb.sw[v];
    for (unsigned i = 0; i < 5; ++i) x.produce(tb.dma.mem, tb.rng());
    tb.force_bell = true;
    tb.force_vp = v;
    const std::uint64_t before = tb.requests;
    tb.cycle();  // the doorbell: cycle t
    REQUIRE(!tb.m.rd_req_valid_o);  // cycle t+1
    tb.cycle();
    REQUIRE(!tb.m.rd_req_valid_o);  // cycle t+2
    tb.cycle();
    REQUIRE(tb.m.rd_req_valid_o);   // cycle t+3
    for (unsigned c = 0; c < 2000 && (tb.rst != tb.kIdle || !x.exp.empty()); ++c) tb.cycle();
    REQUIRE(x.exp.empty());
    REQUIRE(tb.requests >= before + 1);  // (more when the 5 words cross 4 KB)
  }
  // The DQ fills between the choice and the sizing: no request; when it drains, the request.
  tb.drain_pct = 0;
  SwVp& x = tb.sw[9];
  x.base = 0x900000000ull;  // (no 4 KB boundary near: one request)
  // the driver moves the (idle) ring: a VPC.HDQ_BASE write through the window, one cycle
  tb.win_held = true;
  nic_tb::win_drive(tb.m.win_i, true, true, true, 9, hpcnet::nic_formats::VPC_HDQ_BASE_OFFSET, x.base);
  tb.cycle();
  tb.win_held = false;
  for (unsigned i = 0; i < 3; ++i) x.produce(tb.dma.mem, tb.rng());
  tb.force_bell = true;
  tb.force_vp = 9;
  tb.cycle();  // the doorbell
  tb.cycle();  // the choice
  tb.dq[9] = kHdqDefault.dq_words;  // PIO words fill the DQ
  for (unsigned c = 0; c < 20; ++c) {
    tb.cycle();
    REQUIRE(!tb.m.rd_req_valid_o);
  }
  REQUIRE(tb.unsized == 1);
  tb.dq[9] = kHdqDefault.dq_words - 2;
  tb.cycle();  // chosen
  REQUIRE(!tb.m.rd_req_valid_o);
  tb.cycle();  // sized
  REQUIRE(tb.m.rd_req_valid_o);
  REQUIRE(tb.m.rd_req_len_o == 16);  // the room
}
