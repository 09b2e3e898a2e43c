// nic_rdeng_harness.hpp: the harness of the read engine's unit test (test_nic_rdeng.cpp): the
// Verilated nic_rdeng in its harness, the job port driven from a job source, the neighbours
// (nic_rdeng_host.hpp) and the fence (nic_rdeng_fence.hpp) plugged in, random idle and
// back-pressure, and the checks made every cycle and at every handshake against the job reference
// (nic_rdeng_job.hpp). Part of the bench in nic_rdeng_tb.hpp.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "nic_rdeng_fence.hpp"
#include "nic_rdeng_host.hpp"
#include "nic_rdeng_job.hpp"
#include "sim/core/harness.hpp"

namespace {

using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;

constexpr unsigned kSlack = 4;  // frames the datapath holds beyond the FIFO (realigner, output)

// The bench: the model in its harness, the jobs given and their cursors, the checks. JobRef (the
// base) holds the parameters, the random source and the reference.
template <class M>
struct RdengTb : JobRef {
  hpcnet::sim::Harness<M> h{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  M& m = h.dut();
  RdengHost host;                    // the ATT and host memory
  Fence fence;                       // nic_inval's side and the fence's reference (when fence.on)
  std::function<bool(Job&)> source;  // the next job's inputs; false: no more jobs

  std::deque<Job> jobs;              // jobs.front() is job number `base`
  std::uint64_t base = 0, made = 0;
  bool source_done = false;
  std::uint64_t offered = 0;         // jobs given to the DUT
  std::uint64_t xl_job = 0, rd_job = 0, pk_job = 0, res_job = 0;  // cursors (job numbers)
  std::int64_t cyc = 0;

  bool xl_shown_prev = false;
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

  RdengTb(Params p_, Cfg c, std::uint64_t seed) : JobRef(p_, seed), host(c, *this) {
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
  Job& job(std::uint64_t n) {
    REQUIRE(n >= base);
    REQUIRE(n < base + jobs.size());
    return jobs[n - base];
  }

  // ---------------------------------------------------------------- driving
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
    unsigned st = x.status;
    // the fence: the key is invalid for a lookup accepted from its first cycle until it ends (the
    // region is registered again then)
    if (fence.on && fence.active && !j.phys && (x.addr >> 48) == fence.key && st == 0) {
      st = static_cast<unsigned>(nf::Status::BAD_KEY);
      ++fence.n_att_bad;
    }
    host.att_ask(cyc, st, x.paddr);
  }
  void on_xl_rsp() {  // the DUT took an answer
    std::uint64_t n = xl_job;
    while (n < offered && job(n).xl_ans == job(n).xl.size()) ++n;
    REQUIRE(n < offered);
    Job& j = job(n);
    j.t_xl_ans[j.xl_ans++] = cyc;
    host.att_taken();
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
    TB_REQUIRE(host.mem.take_read(r.pa, r.len, m.rd_req_tag_o, static_cast<std::uint64_t>(cyc)), host.mem.error());
    fr_req += ((r.pa & 31) + r.len + 31) / 32;
  }
  void on_rd_rsp() {
    ++fr_got;
    host.mem.read_fire(true);
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

  // One cycle: inputs, evaluate, handshakes, edge.
  void cycle() {
    if (host.cfg.random_rates && cyc % 500 == 0) {
      static const unsigned rates[] = {10, 50, 90, 100, 100};
      pct_job = rates[rnd(5)];
      pct_xl = rates[rnd(5)];
      pct_rd = rates[rnd(5)];
      pct_pkt = rates[rnd(5)];
      pct_res = rates[rnd(5)];
    }
    drive_job();
    host.mem.req_ready_pct = pct_rd;
    host.drive(m, cyc);
    m.xl_req_ready_i = pct(pct_xl);
    m.pkt_ready_i = pct(pct_pkt);
    m.res_ready_i = pct(pct_res);
    if (fence.on) fence.drive(*this);
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
    if (fence.on) fence.check(*this);
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
    if (fence.on) fence.after(*this);
    hpcnet::tb::tick(h);
    if (job_take) m.job_valid_i = 0;
    if (xl_rsp_take) m.xl_rsp_valid_i = 0;
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
    REQUIRE(host.mem.reads_idle());
    REQUIRE(host.xl_q.empty());
  }
  double bytes_per_cycle() const {
    return last_flit > first_flit ? double(n_bytes) / double(last_flit - first_flit + 1) : 0.0;
  }
};

}  // namespace
