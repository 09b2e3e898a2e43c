// nic_rdeng_tb.hpp: the bench of the read engine's unit test (test_nic_rdeng.cpp): the job
// reference (source bytes, expected packets and results), a host memory and ATT model with
// latencies, random idle and back-pressure, and the checks made every cycle and flit; the sweep
// and random-job drivers. Included by that one test.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "Vnic_rdeng.h"
#include "Vnic_rdeng_small.h"
#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/seed.hpp"
#include "sim/core/harness.hpp"

// REQUIRE with its context formatted only when it fails (these checks run every cycle or flit).
#define TB_REQUIRE(cond, ctx)                 \
  do {                                        \
    if (!(cond)) {                            \
      INFO("cycle " << cyc << ": " << ctx);   \
      REQUIRE(cond);                          \
    }                                         \
  } while (0)


namespace {

namespace nf = hpcnet::nic_formats;
using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;
using Bytes32 = std::array<std::uint8_t, 32>;

constexpr std::uint64_t kAddrMask = (std::uint64_t{1} << 48) - 1;
constexpr std::uint64_t kPage = 4096;
constexpr unsigned kSlack = 4;  // frames the datapath holds beyond the FIFO (realigner, output)

std::uint8_t host_byte(std::uint64_t pa) {
  std::uint64_t x = (pa + 0x51ed2701) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<std::uint8_t>(x >> 56);
}

struct Params {
  unsigned fifo_bytes, req_bytes, tag_w;
  unsigned fifo_frames() const { return fifo_bytes / 32; }
};

// Timing of the neighbours and the random rates.
struct Cfg {
  unsigned att_lat = 20, att_jit = 8;   // ATT answer: lat + [0, jit] cycles after the request
  unsigned mem_lat = 40, mem_jit = 30;  // first frame: lat + [0, jit] cycles after the request
  unsigned gap_pct = 10;                // chance of a gap (1..4 cycles) before a frame
  bool random_rates = true;             // random back-pressure / idle; else everything ready
};

// A job as given to the DUT, the ATT's answers for it and what it must produce.
struct Job {
  unsigned vp = 0;
  std::uint64_t src = 0, dst = 0;  // {KEY, ADDR}
  bool phys = false, phys_ok = true;
  std::uint32_t len = 1;
  nf::PktHead tmpl;
  unsigned fail_first = 0;                 // status of the first lookup (0: OK)
  int late_page = -1;                      // page index (>= 1) whose lookup fails
  unsigned late_status = 0;
  // the fence (inv_active_i with this job's key while the front end works on it): set by the
  // bench in the first such cycle, the expectations cut there (fence_check / fence_after)
  std::int64_t fence_cyc = -1;
  bool fence_xl0 = false;                  // its first translation was still out: fails, no packet
  unsigned aux_status = 0;                 // the last head's AUX (BAD_KEY after a fence)
  // derived (finalize)
  std::vector<std::uint64_t> ppn;          // per page of the job (virtual jobs)
  struct Xl {
    std::uint64_t addr;
    std::uint32_t len;
    unsigned status;
    std::uint64_t paddr;
  };
  std::vector<Xl> xl;                      // expected translation requests and answers
  struct Rd {
    std::uint64_t pa;
    unsigned len, page;
  };
  std::vector<Rd> rd;                      // expected read requests
  std::uint32_t zero_from = 0;             // job bytes from here on are zero (failed page)
  unsigned npkts = 0, status = 0, dma_frames = 0;
  // progress
  size_t xl_shown = 0, xl_acc = 0, xl_ans = 0, rd_acc = 0;
  unsigned flits = 0;
  std::uint32_t emitted = 0;               // job bytes in accepted payload flits
  std::vector<std::int64_t> t_xl_ans, t_pg_read_done;  // per page: answer taken, last read taken

  std::uint64_t a0() const { return src & kAddrMask; }
  std::uint64_t d0() const { return dst & kAddrMask; }
  std::uint64_t pa_of(std::uint64_t v) const {
    if (phys) return v;
    return (ppn[(v >> 12) - (a0() >> 12)] << 12) | (v & 0xfff);
  }
  std::uint8_t byte(std::uint32_t t) const { return t >= zero_from ? 0 : host_byte(pa_of(a0() + t)); }
  unsigned npages() const { return static_cast<unsigned>(((a0() + len - 1) >> 12) - (a0() >> 12) + 1); }

  nf::PktHead head(unsigned p) const {
    const std::uint64_t b = (d0() & ~std::uint64_t{127}) + 128ull * p;
    const std::uint64_t first = std::max(d0(), b), end = std::min(d0() + len, b + 128);
    nf::PktHead h = tmpl;
    h.first = p == 0;
    h.last = p + 1 == npkts;
    h.len = static_cast<std::uint32_t>(end - first);
    h.msg_len = len;
    h.addr.key = static_cast<std::uint32_t>(dst >> 48);
    h.addr.addr = first;
    // AUX: 0, on the last packet the job's status (a later page's failure: the receiver reports it)
    h.aux = !h.last ? 0 : late_page >= 0 ? late_status : aux_status;
    return h;
  }
  Bytes32 payload(unsigned p, unsigned k) const {  // frame k (0..3) of packet p
    Bytes32 r{};
    const std::uint64_t f = (d0() & ~std::uint64_t{127}) + 128ull * p + 32ull * k;
    for (unsigned i = 0; i < 32; ++i)
      if (f + i >= d0() && f + i < d0() + len) r[i] = byte(static_cast<std::uint32_t>(f + i - d0()));
    return r;
  }
};

template <class M>
struct RdengTb {
  Params p;
  Cfg cfg;
  hpcnet::sim::Harness<M> h{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  M& m = h.dut();
  std::mt19937_64 rng;
  std::function<bool(Job&)> source;  // the next job's inputs; false: no more jobs

  std::deque<Job> jobs;              // jobs.front() is job number `base`
  std::uint64_t base = 0, made = 0;
  bool source_done = false;
  std::uint64_t offered = 0;         // jobs given to the DUT
  std::uint64_t xl_job = 0, rd_job = 0, pk_job = 0, res_job = 0;  // cursors (job numbers)
  std::int64_t cyc = 0;

  // ATT model
  struct XlAns {
    std::int64_t at;
    unsigned status;
    std::uint64_t paddr;
  };
  std::deque<XlAns> xl_q;
  bool xl_shown_prev = false;
  // memory model
  struct MemReq {
    std::int64_t at;
    std::uint64_t pa;
    unsigned len;
  };
  std::deque<MemReq> mem_q;
  std::uint64_t mem_frame = 0;   // next frame of mem_q.front() (frame address)
  std::int64_t mem_gap_until = 0;
  bool rsp_shown = false;
  unsigned tag = 0;
  // credit accounting
  std::uint64_t fr_req = 0, fr_got = 0, fr_used_done = 0;
  unsigned max_inflight = 0, max_unused = 0;
  // rates
  unsigned pct_job = 100, pct_xl = 100, pct_rd = 100, pct_pkt = 100, pct_res = 100;
  // stability of DUT outputs
  bool rd_prev = false, xl_prev = false, pkt_prev = false, res_prev = false;
  std::uint64_t rd_prev_addr = 0, xl_prev_addr = 0;
  unsigned rd_prev_len = 0, xl_prev_len = 0;
  std::array<std::uint32_t, 8> pkt_prev_data{};
  // statistics
  std::uint64_t n_flits = 0, n_bytes = 0, n_jobs_done = 0;
  std::int64_t first_flit = -1, last_flit = -1;
  std::vector<Bytes32> captured;  // every accepted flit (when `capture` is set)
  bool capture = false;
  // the fence (nic_inval's side, when `fence.on`): inv_active_i rises at random moments with the
  // front end's job's key (or another), stays high while inv_hold_o is, then a random reads phase
  struct Fence {
    bool on = false;
    unsigned per_mille = 0;             // chance of a rise per cycle (x 1/1000), changes every 500
    unsigned match_pct = 75;            // a rise takes the front end's job's key (if not fenced yet)
    bool active = false, reads = false;
    unsigned key = 0;
    std::int64_t rise = -1, end = -1;
    std::uint64_t cut_job = 0;          // the job fenced in cycle cut_at: its expectations cut then
    std::int64_t cut_at = -1;
    // statistics
    unsigned n = 0, n_xl0 = 0, n_read = 0, n_last_read = 0, n_no_read = 0, n_done = 0, n_other = 0,
             n_phys = 0, n_again = 0, n_lookup_held = 0, n_after_fenced = 0, n_att_bad = 0,
             n_xl0_att = 0;
    bool prev_fenced = false;
    std::int64_t max_hold = 0;
  } fence;

  RdengTb(Params p_, Cfg c, std::uint64_t seed) : p(p_), cfg(c), rng(seed) {
    m.job_valid_i = 0;
    m.xl_req_ready_i = 0;
    m.xl_rsp_valid_i = 0;
    m.rd_req_ready_i = 0;
    m.rd_rsp_valid_i = 0;
    m.pkt_ready_i = 0;
    m.res_ready_i = 0;
    m.inv_active_i = 0;
    m.inv_key_i = 0;
    hpcnet::tb::sync_reset(h);
  }
  unsigned rnd(unsigned n) { return static_cast<unsigned>(rng() % n); }
  bool pct(unsigned x) { return rnd(100) < x; }
  Job& job(std::uint64_t n) {
    REQUIRE(n >= base);
    REQUIRE(n < base + jobs.size());
    return jobs[n - base];
  }

  // ---------------------------------------------------------------- reference
  void finalize(Job& j) {
    const std::uint64_t a0 = j.a0(), end = a0 + j.len;
    j.ppn.clear();
    for (unsigned k = 0; k < j.npages(); ++k) j.ppn.push_back(rng() & ((std::uint64_t{1} << 36) - 1));
    if (j.phys && !j.phys_ok) j.fail_first = static_cast<unsigned>(nf::Status::PHYS_DENIED);
    j.xl.clear();
    j.rd.clear();
    j.t_xl_ans.assign(j.npages(), -1);
    j.t_pg_read_done.assign(j.npages(), -1);
    j.xl.push_back({j.src, j.len, j.fail_first, j.fail_first ? (rng() & kAddrMask) : j.pa_of(a0)});
    std::uint64_t read_end = end;
    if (!j.fail_first) {
      for (unsigned k = 1; k < j.npages(); ++k) {
        const std::uint64_t ps = ((a0 >> 12) + k) << 12;
        const bool bad = static_cast<int>(k) == j.late_page;
        j.xl.push_back({(j.src & ~kAddrMask) | ps, static_cast<std::uint32_t>(std::min(kPage, end - ps)),
                        bad ? j.late_status : 0u, bad ? (rng() & kAddrMask) : j.pa_of(ps)});
        if (bad) {
          read_end = ps;
          break;
        }
      }
      for (std::uint64_t v = a0; v < read_end;) {
        const std::uint64_t l = std::min<std::uint64_t>(read_end - v, p.req_bytes - v % p.req_bytes);
        j.rd.push_back({j.pa_of(v), static_cast<unsigned>(l), static_cast<unsigned>((v >> 12) - (a0 >> 12))});
        j.dma_frames += static_cast<unsigned>(((v & 31) + l + 31) / 32);
        v += l;
      }
    }
    j.zero_from = static_cast<std::uint32_t>(read_end - a0);
    j.npkts = j.fail_first ? 0 : static_cast<unsigned>(((j.d0() & 127) + j.len + 127) / 128);
    j.status = j.fail_first;  // a job that sent its packets: OK (its last head carries the status)
  }

  // A random template: the fields the engine keeps random, the ones it sets garbage.
  nf::PktHead random_tmpl() {
    nf::PktHead t;
    t.rhead = static_cast<std::uint32_t>(rng());
    t.ptype = pct(50) ? nf::PktType::WRITE : nf::PktType::READ_DATA;
    t.src_node = rnd(1 << 14);
    t.dst_node = rnd(1 << 14);
    t.src_vp = rnd(32);
    t.dst_vp = rnd(32);
    t.phys = pct(50);
    t.rev = pct(50);
    t.msg_id = rnd(256);
    t.aux = rng();
    t.first = pct(50);  // the engine sets these
    t.last = pct(50);
    t.len = rnd(256);
    t.msg_len = static_cast<std::uint32_t>(rng());
    t.addr.key = rnd(1 << 16);
    t.addr.addr = rng() & kAddrMask;
    return t;
  }

  // Fills the job's other fields at random around the given offsets and length.
  void random_job(Job& j, unsigned a, unsigned d, std::uint32_t len, bool allow_phys = true) {
    j.vp = rnd(32);
    j.len = len;
    j.phys = allow_phys && pct(15);
    j.phys_ok = !j.phys ? pct(50) : true;  // only checked for physical jobs, passed on always
    // source: a random page, a random frame in it (near the page end now and then), offset a
    std::uint64_t page = (rng() & ((std::uint64_t{1} << 34) - 1)) << 12;
    std::uint64_t fr = pct(30) ? 127 - rnd(4) : rnd(128);
    j.src = (std::uint64_t{rnd(1 << 16)} << 48) | (page + fr * 32 + a);
    std::uint64_t dblk = (rng() & ((std::uint64_t{1} << 40) - 1)) << 7;
    j.dst = (std::uint64_t{rnd(1 << 16)} << 48) | (dblk + 32ull * rnd(4) + d);
    j.tmpl = random_tmpl();
  }

  // ---------------------------------------------------------------- driving
  void set_wide(decltype(M::rd_rsp_data_i)& w, const Bytes32& b) {
    for (unsigned i = 0; i < 8; ++i)
      w[i] = std::uint32_t{b[4 * i]} | std::uint32_t{b[4 * i + 1]} << 8 | std::uint32_t{b[4 * i + 2]} << 16 |
             std::uint32_t{b[4 * i + 3]} << 24;
  }
  Bytes32 get_wide(const decltype(M::pkt_data_o)& w) {
    Bytes32 b;
    for (unsigned i = 0; i < 32; ++i) b[i] = static_cast<std::uint8_t>(w[i / 4] >> (8 * (i % 4)));
    return b;
  }

  void drive_job() {
    while (!source_done && made < offered + 2) {  // keep the next job ready
      Job j;
      if (!source(j)) {
        source_done = true;
        break;
      }
      finalize(j);
      jobs.push_back(std::move(j));
      ++made;
    }
    if (m.job_valid_i) return;  // held until taken
    if (offered < made && pct(pct_job)) {
      const Job& j = job(offered);
      m.job_valid_i = 1;
      m.job_vp_i = static_cast<CData>(j.vp);
      m.job_src_i = j.src;
      m.job_phys_i = j.phys;
      m.job_phys_ok_i = j.phys_ok;
      m.job_len_i = j.len;
      m.job_dst_i = j.dst;
      const auto w = j.tmpl.pack();
      for (unsigned i = 0; i < 4; ++i) put_bits(m.job_head_i, 64 * i, 64, w[i]);
    }
  }

  void drive_xl_rsp() {
    if (m.xl_rsp_valid_i) return;  // held until taken
    if (!xl_q.empty() && xl_q.front().at <= cyc) {
      m.xl_rsp_valid_i = 1;
      m.xl_rsp_status_i = static_cast<CData>(xl_q.front().status);
      m.xl_rsp_paddr_i = xl_q.front().paddr;
    }
  }

  void drive_rd_rsp() {
    if (m.rd_rsp_valid_i) return;  // held until taken
    if (mem_q.empty() || mem_q.front().at > cyc || mem_gap_until > cyc) return;
    const MemReq& r = mem_q.front();
    Bytes32 b{};
    for (unsigned i = 0; i < 32; ++i) {
      const std::uint64_t a = mem_frame + i;
      if (a >= r.pa && a < r.pa + r.len) b[i] = host_byte(a);
    }
    m.rd_rsp_valid_i = 1;
    set_wide(m.rd_rsp_data_i, b);
    m.rd_rsp_last_i = mem_frame + 32 >= r.pa + r.len;
  }

  // ---------------------------------------------------------------- checks at the handshakes
  void on_xl_shown() {  // a new translation request is on the port
    if (fence.on && offered > base) {  // the front end's job: none after the cycle after its fence
      const Job& f = job(offered - 1);
      INFO("job " << offered - 1 << " fenced in cycle " << f.fence_cyc);
      if (f.fence_cyc >= 0) REQUIRE(cyc <= f.fence_cyc + 1);
    }
    while (xl_job < offered && job(xl_job).xl_shown == job(xl_job).xl.size()) ++xl_job;
    REQUIRE(xl_job < offered);
    Job& j = job(xl_job);
    const size_t k = j.xl_shown++;
    INFO("job " << xl_job << " translation " << k);
    if (k > 0) {  // asked ahead: after the previous answer, at once when there is room
      REQUIRE(j.t_xl_ans[k - 1] >= 0);
      std::int64_t ready = j.t_xl_ans[k - 1];
      if (k >= 2) ready = j.t_pg_read_done[k - 2] < 0 ? cyc : std::max(ready, j.t_pg_read_done[k - 2]);
      REQUIRE(cyc <= ready + 2);
    }
  }
  void on_xl_req() {
    std::uint64_t n = xl_job;
    while (n < offered && job(n).xl_acc == job(n).xl.size()) ++n;
    REQUIRE(n < offered);
    Job& j = job(n);
    const Job::Xl& x = j.xl[j.xl_acc++];
    INFO("job " << n << " translation " << j.xl_acc - 1);
    REQUIRE(m.xl_req_addr_o == x.addr);
    REQUIRE(m.xl_req_len_o == x.len);
    REQUIRE(m.xl_req_vp_o == j.vp);
    REQUIRE(bool(m.xl_req_phys_o) == j.phys);
    REQUIRE(bool(m.xl_req_phys_ok_o) == j.phys_ok);
    std::int64_t at = cyc + cfg.att_lat + (cfg.att_jit ? rnd(cfg.att_jit + 1) : 0);
    if (!xl_q.empty()) at = std::max(at, xl_q.back().at + 1);
    unsigned st = x.status;
    // the fence: the key is invalid for a lookup accepted from its first cycle until it ends (the
    // region is registered again then)
    if (fence.on && fence.active && !j.phys && (x.addr >> 48) == fence.key && st == 0) {
      st = static_cast<unsigned>(nf::Status::BAD_KEY);
      ++fence.n_att_bad;
    }
    xl_q.push_back({at, st, x.paddr});
  }
  void on_xl_rsp() {  // the DUT took an answer
    std::uint64_t n = xl_job;
    while (n < offered && job(n).xl_ans == job(n).xl.size()) ++n;
    REQUIRE(n < offered);
    Job& j = job(n);
    j.t_xl_ans[j.xl_ans++] = cyc;
    xl_q.pop_front();
  }
  void on_rd_req() {
    if (fence.on) {  // (a) the front end's job issues no new read from the cycle after its fence
      // (the one it showed in that cycle, not taken, stays until taken: the reads kept at the cut)
      const Job& f = job(offered - 1);
      INFO("job " << offered - 1 << " fenced in cycle " << f.fence_cyc << ": a read in cycle " << cyc);
      if (f.fence_cyc >= 0 && cyc > f.fence_cyc) REQUIRE(f.rd_acc < f.rd.size());
    }
    while (rd_job < offered && job(rd_job).rd_acc == job(rd_job).rd.size()) ++rd_job;
    REQUIRE(rd_job < offered);
    Job& j = job(rd_job);
    const Job::Rd& r = j.rd[j.rd_acc++];
    INFO("job " << rd_job << " read " << j.rd_acc - 1);
    REQUIRE(m.rd_req_len_o >= 1);
    REQUIRE(m.rd_req_len_o <= p.req_bytes);
    REQUIRE((m.rd_req_addr_o & 4095) + m.rd_req_len_o <= 4096);  // never across a page
    REQUIRE(m.rd_req_addr_o == r.pa);
    REQUIRE(m.rd_req_len_o == r.len);
    REQUIRE(m.rd_req_tag_o == (tag & ((1u << p.tag_w) - 1)));
    ++tag;
    // its page's translation was back before the read
    REQUIRE(j.t_xl_ans[r.page] >= 0);
    REQUIRE(j.t_xl_ans[r.page] < cyc);
    if (j.rd_acc == j.rd.size() || j.rd[j.rd_acc].page != r.page) j.t_pg_read_done[r.page] = cyc;
    std::int64_t at = cyc + cfg.mem_lat + (cfg.mem_jit ? rnd(cfg.mem_jit + 1) : 0);
    if (!mem_q.empty()) at = std::max(at, mem_q.back().at);
    if (mem_q.empty()) mem_frame = r.pa & ~std::uint64_t{31};
    mem_q.push_back({at, r.pa, r.len});
    fr_req += ((r.pa & 31) + r.len + 31) / 32;
  }
  void on_rd_rsp() {
    ++fr_got;
    const MemReq& r = mem_q.front();
    mem_frame += 32;
    if (mem_frame >= r.pa + r.len) {
      mem_q.pop_front();
      if (!mem_q.empty()) mem_frame = mem_q.front().pa & ~std::uint64_t{31};
    }
    if (cfg.gap_pct && pct(cfg.gap_pct)) mem_gap_until = cyc + 1 + rnd(4);
  }
  void on_flit() {
    while (pk_job < offered && job(pk_job).flits == 5 * job(pk_job).npkts) {
      fr_used_done += job(pk_job).dma_frames;
      ++pk_job;
    }
    TB_REQUIRE(pk_job < offered, "a flit beyond the jobs given");
    Job& j = job(pk_job);
    const unsigned pk = j.flits / 5, k = j.flits % 5;
#define CTX "job " << pk_job << " packet " << pk << " flit " << k << " len " << j.len << " src offset " \
                << (j.a0() & 31) << " dst offset " << (j.d0() & 127)
    TB_REQUIRE(bool(m.pkt_last_o) == (k == 4), CTX);
    if (k == 0) {
      nf::PktHead::Words w;
      for (unsigned i = 0; i < 4; ++i) w[i] = get_bits(m.pkt_data_o, 64 * i, 64);
      const nf::PktHead got = nf::PktHead::unpack(w), exp = j.head(pk);
      TB_REQUIRE(got.rhead == exp.rhead, CTX);
      TB_REQUIRE(int(got.ptype) == int(exp.ptype), CTX);
      TB_REQUIRE(got.src_node == exp.src_node, CTX);
      TB_REQUIRE(got.dst_node == exp.dst_node, CTX);
      TB_REQUIRE(got.src_vp == exp.src_vp, CTX);
      TB_REQUIRE(got.dst_vp == exp.dst_vp, CTX);
      TB_REQUIRE(got.first == exp.first, CTX);
      TB_REQUIRE(got.last == exp.last, CTX);
      TB_REQUIRE(got.phys == exp.phys, CTX);
      TB_REQUIRE(got.rev == exp.rev, CTX);
      TB_REQUIRE(got.len == exp.len, CTX);
      TB_REQUIRE(got.msg_id == exp.msg_id, CTX);
      TB_REQUIRE(got.msg_len == exp.msg_len, CTX);
      TB_REQUIRE(got.addr.key == exp.addr.key, CTX);
      TB_REQUIRE(got.addr.addr == exp.addr.addr, CTX);
      TB_REQUIRE(got.aux == exp.aux, CTX);
      TB_REQUIRE(w == exp.pack(), CTX);  // bit for bit (reserved bits too)
    } else {
      const Bytes32 got = get_wide(m.pkt_data_o), exp = j.payload(pk, k - 1);
      for (unsigned i = 0; i < 32; ++i) TB_REQUIRE(unsigned(got[i]) == unsigned(exp[i]), CTX << " byte " << i);
      // job bytes now out: the destination bytes up to this frame's end
      const std::uint64_t fend = (j.d0() & ~std::uint64_t{127}) + 128ull * pk + 32ull * k;
      if (fend > j.d0()) j.emitted = static_cast<std::uint32_t>(std::min<std::uint64_t>(fend - j.d0(), j.len));
      n_bytes += std::min<std::uint64_t>(fend, j.d0() + j.len) -
                 std::min<std::uint64_t>(std::max<std::uint64_t>(fend - 32, j.d0()), j.d0() + j.len);
    }
    if (capture) captured.push_back(get_wide(m.pkt_data_o));
    ++j.flits;
    ++n_flits;
    if (first_flit < 0) first_flit = cyc;
    last_flit = cyc;
    // source frames whose bytes have all left
    const std::uint64_t used = j.emitted >= j.len ? j.dma_frames
                                                  : std::min<std::uint64_t>((j.a0() % 32 + j.emitted) / 32, j.dma_frames);
    const std::uint64_t unused = fr_req - fr_used_done - used;
    max_unused = std::max<unsigned>(max_unused, static_cast<unsigned>(unused));
    TB_REQUIRE(unused <= p.fifo_frames() + kSlack, CTX);
#undef CTX
  }
  void on_res_shown() {
    REQUIRE(res_job < offered);
    const Job& j = job(res_job);
    INFO("job " << res_job);
    REQUIRE(j.flits == 5 * j.npkts);  // after its last flit
    REQUIRE(unsigned(m.res_status_o) == j.status);
    REQUIRE(unsigned(m.res_msg_id_o) == j.tmpl.msg_id);
    REQUIRE(unsigned(m.res_vp_o) == j.vp);
  }
  void on_res() {
    if (fence.on) {  // (e) a job after a fenced one, itself not fenced, fully checked
      const bool f = job(res_job).fence_cyc >= 0;
      if (!f && fence.prev_fenced) ++fence.n_after_fenced;
      fence.prev_fenced = f;
    }
    ++res_job;
    ++n_jobs_done;
    while (base < res_job && base < pk_job) {  // retire jobs fully checked
      REQUIRE(jobs.front().rd_acc == jobs.front().rd.size());
      REQUIRE(jobs.front().xl_ans == jobs.front().xl.size());
      jobs.pop_front();
      ++base;
    }
    xl_job = std::max(xl_job, base);
    rd_job = std::max(rd_job, base);
  }

  // ---------------------------------------------------------------- the fence
  // Before eval: inv_active_i / inv_key_i as nic_inval drives them (garbage keys while inactive).
  void fence_drive() {
    if (cyc % 500 == 0) {
      static const unsigned rates[] = {0, 2, 10, 30};
      fence.per_mille = rates[rnd(4)];
    }
    if (fence.active && fence.reads && cyc >= fence.end) fence.active = false;
    if (!fence.active && rnd(1000) < fence.per_mille) {
      fence.active = true;
      fence.reads = false;
      fence.rise = cyc;
      ++fence.n;
      // the key: the front end's job's (not fenced yet), a job's whose reads are all issued
      // (its packets still going out: nothing may change), or another
      const bool have = offered > base;
      const Job* f = have ? &job(offered - 1) : nullptr;
      const unsigned k = have ? static_cast<unsigned>(f->src >> 48) : 0;
      const std::uint64_t drain = std::max(pk_job, base);
      if (have && f->fence_cyc < 0 && pct(fence.match_pct)) {
        fence.key = k;
      } else if (drain + 1 < offered && pct(40)) {
        fence.key = static_cast<unsigned>(job(drain + rnd(static_cast<unsigned>(offered - 1 - drain))).src >> 48);
      } else {
        fence.key = (k + 1 + rnd(65535)) & 0xffff;
      }
    }
    m.inv_active_i = fence.active;
    m.inv_key_i = static_cast<SData>(fence.active ? fence.key : rng());
  }
  // After eval, before the handshakes: the reference of the engine's side of the fence. F, the
  // front end's job (the last one taken): its first translation is out (XL0) until its answer is
  // taken, then it reads until its last read is accepted. "match": inv_active_i with F's key, F
  // virtual. In XL0, inv_hold_o = match, and F fails (BAD_KEY, no packet) if its first answer is
  // taken while match (or is BAD_KEY: the ATT's answer to a lookup made while the key was fenced).
  // Reading, F is fenced in the first cycle of match: inv_hold_o high then; from the next cycle
  // on, high exactly while match and a lookup of F is shown or unanswered. Low otherwise.
  void fence_check() {
    bool exp_hold = false;
    if (offered > base) {
      const std::uint64_t fn = offered - 1;
      Job& f = job(fn);
      const bool match = fence.active && !f.phys && (f.src >> 48) == fence.key;
      const bool pending = m.xl_req_valid_o || f.xl_acc > f.xl_ans;
      const bool xl0 = f.xl_ans == 0 && f.fence_cyc < 0;
      const bool reading = f.xl_ans > 0 && f.fence_cyc < 0 && f.rd_acc < f.rd.size();
      if (fence.active && fence.rise == cyc) {  // what this rise meets (statistics)
        bool earlier = false;  // a job whose reads are all issued, its packets still going out
        for (std::uint64_t i = std::max(pk_job, base); i < fn; ++i)
          earlier = earlier || (!job(i).phys && (job(i).src >> 48) == fence.key);
        if (!(match && (xl0 || reading)) && (earlier || (match && f.fence_cyc < 0))) ++fence.n_done;
        else if (!match) ++(!f.phys && (f.src >> 48) != fence.key ? fence.n_other : fence.n_phys);
        else if (f.fence_cyc >= 0) ++fence.n_again;
      }
      if (xl0) {
        exp_hold = match;
        if (m.xl_rsp_valid_i && (match || m.xl_rsp_status_i == static_cast<unsigned>(nf::Status::BAD_KEY))) {
          f.fence_cyc = cyc;  // fails with BAD_KEY, no packet
          f.fence_xl0 = true;
          f.fail_first = static_cast<unsigned>(nf::Status::BAD_KEY);
          f.status = f.fail_first;
          f.npkts = 0;
          f.rd.clear();
          f.dma_frames = 0;
          fence.cut_job = fn;
          fence.cut_at = cyc;
          ++(match ? fence.n_xl0 : fence.n_xl0_att);
        }
      } else if (reading && match) {  // reads accepted up to this cycle's are the last; then zeros
        f.fence_cyc = cyc;
        f.aux_status = static_cast<unsigned>(nf::Status::BAD_KEY);
        fence.cut_job = fn;
        fence.cut_at = cyc;
        exp_hold = true;
      } else if (match && f.fence_cyc >= 0 && !f.fence_xl0) {
        exp_hold = pending || rd_prev;  // a lookup out, or the read request held since the fence
        if (pending) ++fence.n_lookup_held;
      }
    }
    TB_REQUIRE(bool(m.inv_hold_o) == exp_hold, "inv_hold_o (fence key " << fence.key << " active "
                                                   << fence.active << " since " << fence.rise << ")");
    if (fence.active && !fence.reads && !m.inv_hold_o) {  // nic_inval: the hold phase is over
      fence.reads = true;
      fence.end = cyc + 1 + (pct(50) ? 0 : rnd(30));
      fence.max_hold = std::max(fence.max_hold, cyc - fence.rise);
    }
  }
  // After the handshakes: a job fenced while reading keeps the reads accepted so far (this cycle's
  // included) and the one shown and not taken in this cycle (it stays until taken: valid/ready);
  // the translations shown up to the next cycle (one may be under way) are its last.
  // A job fenced in XL0 shows no translation but its first.
  void fence_after() {
    if (fence.cut_at < 0 || fence.cut_job < base) return;
    Job& f = job(fence.cut_job);
    if (fence.cut_at == cyc && f.fence_xl0) {
      f.xl.resize(1);
    } else if (fence.cut_at == cyc) {
      ++(f.rd_acc == 0 ? fence.n_no_read : f.rd_acc == f.rd.size() ? fence.n_last_read : fence.n_read);
      f.rd.resize(std::min<size_t>(f.rd.size(), f.rd_acc + ((m.rd_req_valid_o && !m.rd_req_ready_i) ? 1 : 0)));
      std::uint32_t cut = 0;
      f.dma_frames = 0;
      for (const Job::Rd& r : f.rd) {
        cut += r.len;
        f.dma_frames += static_cast<unsigned>(((r.pa & 31) + r.len + 31) / 32);
      }
      f.zero_from = cut;
    } else if (fence.cut_at + 1 == cyc) {
      f.xl.resize(f.xl_shown);
      fence.cut_at = -1;
    }
  }

  // One cycle: inputs, evaluate, handshakes, edge.
  void cycle() {
    if (cfg.random_rates && cyc % 500 == 0) {
      static const unsigned rates[] = {10, 50, 90, 100, 100};
      pct_job = rates[rnd(5)];
      pct_xl = rates[rnd(5)];
      pct_rd = rates[rnd(5)];
      pct_pkt = rates[rnd(5)];
      pct_res = rates[rnd(5)];
    }
    drive_job();
    drive_xl_rsp();
    drive_rd_rsp();
    m.xl_req_ready_i = pct(pct_xl);
    m.rd_req_ready_i = pct(pct_rd);
    m.pkt_ready_i = pct(pct_pkt);
    m.res_ready_i = pct(pct_res);
    if (fence.on) fence_drive();
    h.eval();
    // outputs hold until taken
    if (rd_prev) {
      TB_REQUIRE(m.rd_req_valid_o, "a read request not accepted was withdrawn (the front end's job "
                                       << offered - 1 << " fenced in cycle "
                                       << (offered > base ? job(offered - 1).fence_cyc : -1) << ")");
      TB_REQUIRE(m.rd_req_addr_o == rd_prev_addr, "");
      TB_REQUIRE(m.rd_req_len_o == rd_prev_len, "");
    }
    if (xl_prev) {
      TB_REQUIRE(m.xl_req_valid_o, "");
      TB_REQUIRE(m.xl_req_addr_o == xl_prev_addr, "");
      TB_REQUIRE(m.xl_req_len_o == xl_prev_len, "");
    }
    if (pkt_prev) {
      TB_REQUIRE(m.pkt_valid_o, "");
      for (unsigned i = 0; i < 8; ++i) TB_REQUIRE(m.pkt_data_o[i] == pkt_prev_data[i], "pkt_data_o changed");
    }
    if (res_prev) TB_REQUIRE(m.res_valid_o, "");
    // credit: a frame is always taken; frames in flight within the FIFO
    if (m.rd_rsp_valid_i) TB_REQUIRE(m.rd_rsp_ready_o, "");
    max_inflight = std::max<unsigned>(max_inflight, static_cast<unsigned>(fr_req - fr_got));
    TB_REQUIRE(fr_req - fr_got <= p.fifo_frames(), "");
    if (fence.on) fence_check();
    if (m.xl_req_valid_o && !xl_shown_prev) on_xl_shown();
    xl_shown_prev = m.xl_req_valid_o && !m.xl_req_ready_i;
    if (m.res_valid_o && !res_prev) on_res_shown();
    // handshakes
    // (inputs stay as they are until the edge; taken ones are withdrawn after it)
    const bool job_take = m.job_valid_i && m.job_ready_o;
    const bool xl_rsp_take = m.xl_rsp_valid_i && m.xl_rsp_ready_o;
    const bool rd_rsp_take = m.rd_rsp_valid_i && m.rd_rsp_ready_o;
    if (job_take) ++offered;
    if (m.xl_req_valid_o && m.xl_req_ready_i) on_xl_req();
    if (xl_rsp_take) on_xl_rsp();
    if (m.rd_req_valid_o && m.rd_req_ready_i) on_rd_req();
    if (rd_rsp_take) on_rd_rsp();
    if (m.pkt_valid_o && m.pkt_ready_i) on_flit();
    if (m.res_valid_o && m.res_ready_i) on_res();
    rd_prev = m.rd_req_valid_o && !m.rd_req_ready_i;
    rd_prev_addr = m.rd_req_addr_o;
    rd_prev_len = m.rd_req_len_o;
    xl_prev = m.xl_req_valid_o && !m.xl_req_ready_i;
    xl_prev_addr = m.xl_req_addr_o;
    xl_prev_len = m.xl_req_len_o;
    pkt_prev = m.pkt_valid_o && !m.pkt_ready_i;
    for (unsigned i = 0; i < 8; ++i) pkt_prev_data[i] = m.pkt_data_o[i];
    res_prev = m.res_valid_o && !m.res_ready_i;
    if (fence.on) fence_after();
    hpcnet::tb::tick(h);
    if (job_take) m.job_valid_i = 0;
    if (xl_rsp_take) m.xl_rsp_valid_i = 0;
    if (rd_rsp_take) m.rd_rsp_valid_i = 0;
    ++cyc;
  }

  // Runs until every job's result is taken; then the DUT must be quiet.
  void run(std::int64_t max_cycles) {
    std::int64_t last_progress = 0;
    std::uint64_t progress = 0;
    while (!(source_done && res_job == made)) {
      REQUIRE(cyc < max_cycles);
      cycle();
      const std::uint64_t now = n_flits + fr_got + res_job + offered;
      if (now != progress) {
        progress = now;
        last_progress = cyc;
      }
      TB_REQUIRE(cyc - last_progress < 20000, "stalled: offered " << offered << " results " << res_job
                                                                  << " flits " << n_flits);
    }
    for (int i = 0; i < 50; ++i) {
      cycle();
      REQUIRE(!m.pkt_valid_o);
      REQUIRE(!m.rd_req_valid_o);
      REQUIRE(!m.xl_req_valid_o);
      REQUIRE(!m.res_valid_o);
    }
    REQUIRE(fr_got == fr_req);
    REQUIRE(mem_q.empty());
    REQUIRE(xl_q.empty());
  }
  double bytes_per_cycle() const {
    return last_flit > first_flit ? double(n_bytes) / double(last_flit - first_flit + 1) : 0.0;
  }
};

const Params kDefault{8192, 1024, 4};
const Params kSmall{1024, 256, 2};

// Jobs from a list of (a, d, len), in a random order.
struct Sweep {
  std::vector<std::array<std::uint32_t, 3>> items;
  size_t next = 0;
};

template <class M>
void sweep(Params p, const std::vector<std::uint32_t>& lens, unsigned offs_step, const char* name,
           Cfg cfg = {}) {
  const std::uint64_t seed = hpcnet::tb::seed(name);
  RdengTb<M> tb(p, cfg, seed);
  Sweep s;
  for (unsigned a = 0; a < 32; a += offs_step)
    for (unsigned d = 0; d < 32; d += offs_step)
      for (std::uint32_t l : lens) s.items.push_back({a, d, l});
  std::shuffle(s.items.begin(), s.items.end(), tb.rng);
  tb.source = [&](Job& j) {
    if (s.next == s.items.size()) return false;
    const auto& it = s.items[s.next++];
    tb.random_job(j, it[0], it[1], it[2]);
    return true;
  };
  tb.run(100000000);
  std::printf("%s: %llu jobs, %llu flits, %lld cycles, max frames in flight %u (FIFO %u), "
              "max frames requested and not yet out %u\n",
              name, static_cast<unsigned long long>(tb.n_jobs_done), static_cast<unsigned long long>(tb.n_flits),
              static_cast<long long>(tb.cyc), tb.max_inflight, p.fifo_frames(), tb.max_unused);
  REQUIRE(tb.n_jobs_done == s.items.size());
}

std::vector<std::uint32_t> around(std::initializer_list<std::uint32_t> bounds) {
  std::vector<std::uint32_t> v{1, 2, 3};
  for (std::uint32_t b : bounds)
    for (std::uint32_t l = b - 3; l <= b + 3; ++l) v.push_back(l);
  return v;
}

// Random jobs: lengths up to max_len (small ones favoured), offsets at random, a share of them
// physical, failing first, or failing on a later page.
template <class M>
void random_jobs(Params p, unsigned n, std::uint32_t max_len, unsigned fail_pct, unsigned late_pct,
                 const char* name, Cfg cfg = {}) {
  const std::uint64_t seed = hpcnet::tb::seed(name);
  RdengTb<M> tb(p, cfg, seed);
  unsigned made = 0, n_fail = 0, n_late = 0, n_phys = 0;
  static const nf::Status kFirst[] = {nf::Status::BAD_KEY, nf::Status::NOT_OWNER, nf::Status::RANGE,
                                      nf::Status::PERM};
  tb.source = [&](Job& j) {
    if (made == n) return false;
    ++made;
    const unsigned cls = tb.rnd(10);
    std::uint32_t len = cls < 3   ? 1 + tb.rnd(256)
                        : cls < 6 ? 1 + tb.rnd(4096)
                        : cls < 9 ? 1 + tb.rnd(16384)
                                  : 1 + tb.rnd(max_len);
    len = std::min(len, max_len);
    tb.random_job(j, tb.rnd(32), tb.rnd(32), len);
    if (tb.pct(fail_pct)) {
      if (j.phys) {
        j.phys_ok = false;  // PHYS_DENIED
      } else {
        j.fail_first = static_cast<unsigned>(kFirst[tb.rnd(4)]);
      }
      ++n_fail;
    } else if (!j.phys && tb.pct(late_pct)) {
      const unsigned np = static_cast<unsigned>(((j.a0() + len - 1) >> 12) - (j.a0() >> 12) + 1);
      if (np >= 2) {
        j.late_page = static_cast<int>(1 + tb.rnd(np - 1));
        j.late_status = static_cast<unsigned>(tb.pct(50) ? nf::Status::RANGE : nf::Status::BAD_KEY);
        ++n_late;
      }
    }
    n_phys += j.phys;
    return true;
  };
  tb.run(100000000);
  std::printf("%s: %u jobs (%u physical, %u failing first, %u failing later), %llu flits, %lld cycles, "
              "max frames in flight %u (FIFO %u), max frames requested and not yet out %u\n",
              name, n, n_phys, n_fail, n_late, static_cast<unsigned long long>(tb.n_flits),
              static_cast<long long>(tb.cyc), tb.max_inflight, p.fifo_frames(), tb.max_unused);
  REQUIRE(tb.n_jobs_done == n);
  if (fail_pct) REQUIRE(n_fail > 0);
  if (late_pct) REQUIRE(n_late > 0);
}

}  // namespace
