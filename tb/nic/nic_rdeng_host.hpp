// nic_rdeng_host.hpp: the read engine's neighbours in its unit test (test_nic_rdeng.cpp), as the
// bench drives them: the ATT (nic_att), answering the translations taken in order after a latency
// plus random extra delay, and host memory, answering the reads taken in order after a latency
// plus random extra delay as the 32-byte-aligned frames holding the requested bytes (bytes outside
// the request zero), with random gaps between frames. Part of the bench in nic_rdeng_tb.hpp: it
// calls att_ask/mem_ask when the engine's request is taken, att_taken/mem_taken when the engine
// takes an answer, and drive() every cycle before evaluating the model.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>

#include <verilated.h>

#include "nic_rdeng_job.hpp"

namespace {

struct RdengHost {
  Cfg cfg;
  JobRef& ref;  // the bench's random source
  // ATT model
  struct XlAns {
    std::int64_t at;
    unsigned status;
    std::uint64_t paddr;
  };
  std::deque<XlAns> xl_q;
  // memory model
  struct MemReq {
    std::int64_t at;
    std::uint64_t pa;
    unsigned len;
  };
  std::deque<MemReq> mem_q;
  std::uint64_t mem_frame = 0;   // next frame of mem_q.front() (frame address)
  std::int64_t mem_gap_until = 0;

  RdengHost(Cfg c, JobRef& r) : cfg(c), ref(r) {}

  // A translation request taken in cycle cyc, answered (status, paddr) after the ATT's latency.
  void att_ask(std::int64_t cyc, unsigned status, std::uint64_t paddr) {
    std::int64_t at = cyc + cfg.att_lat + (cfg.att_jit ? ref.rnd(cfg.att_jit + 1) : 0);
    if (!xl_q.empty()) at = std::max(at, xl_q.back().at + 1);
    xl_q.push_back({at, status, paddr});
  }
  void att_taken() { xl_q.pop_front(); }

  // A read request taken in cycle cyc: its frames from the memory's latency on.
  void mem_ask(std::int64_t cyc, std::uint64_t pa, unsigned len) {
    std::int64_t at = cyc + cfg.mem_lat + (cfg.mem_jit ? ref.rnd(cfg.mem_jit + 1) : 0);
    if (!mem_q.empty()) at = std::max(at, mem_q.back().at);
    if (mem_q.empty()) mem_frame = pa & ~std::uint64_t{31};
    mem_q.push_back({at, pa, len});
  }
  // The engine took a frame in cycle cyc.
  void mem_taken(std::int64_t cyc) {
    const MemReq& r = mem_q.front();
    mem_frame += 32;
    if (mem_frame >= r.pa + r.len) {
      mem_q.pop_front();
      if (!mem_q.empty()) mem_frame = mem_q.front().pa & ~std::uint64_t{31};
    }
    if (cfg.gap_pct && ref.pct(cfg.gap_pct)) mem_gap_until = cyc + 1 + ref.rnd(4);
  }

  // The answers' ports: an answer due is shown, and held until taken.
  template <class M>
  void drive(M& m, std::int64_t cyc) {
    if (!m.xl_rsp_valid_i && !xl_q.empty() && xl_q.front().at <= cyc) {
      m.xl_rsp_valid_i = 1;
      m.xl_rsp_status_i = static_cast<CData>(xl_q.front().status);
      m.xl_rsp_paddr_i = xl_q.front().paddr;
    }
    if (m.rd_rsp_valid_i) return;
    if (mem_q.empty() || mem_q.front().at > cyc || mem_gap_until > cyc) return;
    const MemReq& r = mem_q.front();
    Bytes32 b{};
    for (unsigned i = 0; i < 32; ++i) {
      const std::uint64_t a = mem_frame + i;
      if (a >= r.pa && a < r.pa + r.len) b[i] = host_byte(a);
    }
    m.rd_rsp_valid_i = 1;
    for (unsigned i = 0; i < 8; ++i)
      m.rd_rsp_data_i[i] = std::uint32_t{b[4 * i]} | std::uint32_t{b[4 * i + 1]} << 8 |
                           std::uint32_t{b[4 * i + 2]} << 16 | std::uint32_t{b[4 * i + 3]} << 24;
    m.rd_rsp_last_i = mem_frame + 32 >= r.pa + r.len;
  }
};

}  // namespace
