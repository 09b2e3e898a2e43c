// nic_rdeng_host.hpp: the read engine's neighbours in its unit test (test_nic_rdeng.cpp), as the
// bench drives them: the ATT (nic_att), answering the translations taken in order after a latency
// plus random extra delay, and host memory (hpcnet/tb/dma_mem.hpp: the byte at physical address a
// is host_byte(a)), answering the reads taken in order after a latency plus random extra delay
// with the 32-byte-aligned frames holding the requested bytes (bytes outside the request zero),
// with random idle cycles before frames. Part of the bench in nic_rdeng_tb.hpp: it calls att_ask
// when a translation request is taken and att_taken when the engine takes an answer, drive()
// every cycle before evaluating the model and sample() with its outputs evaluated.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>

#include <verilated.h>

#include "hpcnet/tb/dma_mem.hpp"
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
  hpcnet::tb::DmaMem mem;  // host memory and the DMA read channel

  RdengHost(Cfg c, JobRef& r) : cfg(c), ref(r), mem(r.rng) {
    mem.mem.background = host_byte;
    mem.lat = cfg.mem_lat;
    mem.lat_jit = cfg.mem_jit;
    mem.rsp_idle_pct = cfg.mem_idle_pct;
  }

  // A translation request taken in cycle cyc, answered (status, paddr) after the ATT's latency.
  void att_ask(std::int64_t cyc, unsigned status, std::uint64_t paddr) {
    std::int64_t at = cyc + cfg.att_lat + (cfg.att_jit ? ref.rnd(cfg.att_jit + 1) : 0);
    if (!xl_q.empty()) at = std::max(at, xl_q.back().at + 1);
    xl_q.push_back({at, status, paddr});
  }
  void att_taken() { xl_q.pop_front(); }

  // The answers' ports (rd_req_ready_i: the rate the bench sets, mem.req_ready_pct): a
  // translation due is shown, and held until taken; the memory's frames.
  template <class M>
  void drive(M& m, std::int64_t cyc) {
    if (!m.xl_rsp_valid_i && !xl_q.empty() && xl_q.front().at <= cyc) {
      m.xl_rsp_valid_i = 1;
      m.xl_rsp_status_i = static_cast<CData>(xl_q.front().status);
      m.xl_rsp_paddr_i = xl_q.front().paddr;
    }
    mem.step(static_cast<std::uint64_t>(cyc));
    mem.drive(m);
  }
};

}  // namespace
