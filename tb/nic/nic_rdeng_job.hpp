// nic_rdeng_job.hpp: the job reference of the read engine's unit test (test_nic_rdeng.cpp): the
// host's bytes, the bench's parameters and timing, a job as given to the engine with what it must
// produce (translations, reads, packets, result), and JobRef, the bench's random source, which
// makes random jobs and derives those expectations. Part of the bench in nic_rdeng_tb.hpp, and the
// base of its other headers (TB_REQUIRE).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/rng.hpp"
#include "nic_pkt_ref.hpp"

// REQUIRE with its context formatted only when it fails (the bench's checks run every cycle or
// flit; `cyc` is the cycle in scope).
#define TB_REQUIRE(cond, ctx)                 \
  do {                                        \
    if (!(cond)) {                            \
      INFO("cycle " << cyc << ": " << ctx);   \
      REQUIRE(cond);                          \
    }                                         \
  } while (0)

namespace {

namespace nf = hpcnet::nic_formats;
using nic_tb::Bytes32;

constexpr std::uint64_t kAddrMask = nic_tb::kPktAddrMask;
constexpr std::uint64_t kPage = 4096;

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
  unsigned mem_idle_pct = 10;           // chance of an idle cycle before a frame, each cycle
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

  // Packet p's head: the LAST packet's AUX carries the job's status (a later page's failure: the
  // receiver reports it).
  nf::PktHead head(unsigned p) const {
    return nic_tb::pkt_ref_head(tmpl, dst, len, p, late_page >= 0 ? late_status : aux_status);
  }
  Bytes32 payload(unsigned p, unsigned k) const {  // frame k (0..3) of packet p
    return nic_tb::pkt_ref_payload(dst, len, p, k, [this](std::uint32_t t) { return byte(t); });
  }
};

// The bench's random source and the reference: random jobs, and what each must produce.
struct JobRef {
  Params p;
  hpcnet::tb::Rng rng;

  JobRef(Params p_, std::uint64_t seed) : p(p_), rng(seed) {}
  unsigned rnd(unsigned n) { return static_cast<unsigned>(rng() % n); }
  bool pct(unsigned x) { return rnd(100) < x; }

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

  nf::PktHead random_tmpl() { return nic_tb::random_pkt_tmpl(rng); }

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
};

}  // namespace
