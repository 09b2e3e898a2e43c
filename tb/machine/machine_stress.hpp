// machine_stress.hpp: every node of a machine writes, reads and sends mini-packets to random other
// nodes at saturation, in batches (each closed by rdma_quiet), until a cycle budget is spent; the
// host keeps its own image of every byte each node should hold, checks every read when it lands,
// every mini-packet once, and every node's memory at the end.
//   Memory of node d: a write area of N slices (slice s: what node s writes, in `batch` slots of
//   `slot` bytes: op j of a batch writes only inside slot j, so a batch's writes never overlap and
//   their order inside a batch does not matter), a source area (a fixed pattern, read by others),
//   a read area (slot j: op j's read, checked after the batch), a local source of RDMA writes, an
//   event area (16 bytes per (sender, slot): the remote event of op j's write, when it has one).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "machine_tb.hpp"

namespace machine_tb {

struct StressConfig {
  unsigned batch = 8;          // ops per batch (slots per slice)
  unsigned slot = 1024;        // bytes of a slot
  unsigned max_bytes = 1024;   // largest write or read
  bool one_packet = false;     // keep every message inside one 128-byte block
  uint64_t cycles = 100000;    // the budget: nodes start no batch after it
  unsigned mp_pct = 15, read_pct = 25, imm_pct = 30;  // the mix (the rest: RDMA writes)
  unsigned ev_pct = 20;        // writes that carry a remote event
};

struct StressTotals {
  uint64_t writes = 0, reads = 0, mps = 0, bytes = 0, batches = 0, events = 0;
};

// The buffer a node needs: the write, source, read and local source areas, then the events'.
inline size_t stress_bytes(const StressConfig& sc, unsigned nodes) {
  const size_t slice = size_t(sc.batch) * sc.slot;
  return slice * nodes * 2 + 2 * slice + size_t(nodes) * sc.batch * 16;
}

inline uint8_t stress_src_byte(unsigned d, size_t i) { return uint8_t((d * 131 + i * 7) ^ 0xA5); }

// Runs the traffic and checks it; returns the totals (REQUIREs inside).
inline StressTotals stress_run(Job& job, const StressConfig& sc, uint64_t seed) {
  const unsigned N = job.m.nodes();
  const size_t slice = size_t(sc.batch) * sc.slot, warea = slice * N, sarea = warea, rarea = slice;
  REQUIRE(job.bytes >= stress_bytes(sc, N));
  const size_t src_off = warea, rd_off = warea + sarea, lsrc_off = rd_off + rarea;  // lsrc: local source of RDMA writes
  const size_t ev_off = lsrc_off + slice, evarea = size_t(N) * sc.batch * 16;
  std::vector<std::vector<uint8_t>> want(N, std::vector<uint8_t>(warea, 0)), want_ev(N, std::vector<uint8_t>(evarea, 0));
  for (unsigned d = 0; d < N; ++d) {
    std::vector<uint8_t> img(job.bytes, 0);
    for (size_t i = 0; i < sarea; ++i) img[src_off + i] = stress_src_byte(d, i);
    job.fill(d, img);
  }
  std::vector<StressTotals> tot(N);
  std::vector<std::vector<std::vector<bool>>> mp_got(N, std::vector<std::vector<bool>>(N));  // [dst][src][seq]
  std::vector<std::vector<uint32_t>> mp_seen(N, std::vector<uint32_t>(N, 0));               // [dst][src]: received
  std::vector<uint32_t> mp_sent(size_t(N) * N, 0);
  unsigned finished = 0;  // nodes past their last batch
  const uint64_t end = job.m.cycles() + sc.cycles;
  job.each([&](unsigned s) {
    rdma_ep* ep = job.ep[s];
    hpcnet::Platform& p = *hpcnet::this_platform();
    std::mt19937_64 rng(seed * 1000003 + s);
    auto drain_mps = [&] {
      uint8_t buf[120];
      rdma_mp_info info{};
      for (int len; (len = rdma_mp_recv(ep, buf, &info, 0)) > 0;) {
        REQUIRE(info.src_node < N);
        uint32_t seq = 0;
        std::memcpy(&seq, buf, 4);
        std::vector<bool>& got = mp_got[s][info.src_node];  // each once (adaptive routing may reorder them)
        if (got.size() <= seq) got.resize(seq + 1, false);
        REQUIRE_FALSE(got[seq]);
        got[seq] = true;
        ++mp_seen[s][info.src_node];
        for (int i = 4; i < len; ++i) REQUIRE(buf[i] == uint8_t(seq * 3 + unsigned(i) + info.src_node));
      }
    };
    while (p.now_cycles() < end) {
      struct Rd { unsigned d, off, len; };
      std::vector<Rd> reads;
      for (unsigned j = 0; j < sc.batch; ++j) {
        unsigned d = unsigned(rng() % (N - 1));
        d += d >= s;
        const unsigned kind = unsigned(rng() % 100);
        unsigned off = unsigned(rng() % sc.slot), len = 1 + unsigned(rng() % std::min<unsigned>(sc.max_bytes, sc.slot - off));
        if (sc.one_packet) len = std::min(len, 128 - (off % 128));
        const rdma_opts o = tb_opts(uint16_t(j));
        if (kind < sc.mp_pct) {
          uint8_t msg[120];
          const uint32_t seq = mp_sent[size_t(s) * N + d]++;
          const unsigned ml = 4 + unsigned(rng() % 117);
          std::memcpy(msg, &seq, 4);
          for (unsigned i = 4; i < ml; ++i) msg[i] = uint8_t(seq * 3 + i + s);
          REQUIRE(rdma_mp_send(ep, d, 0, msg, ml, &o) == 0);
          ++tot[s].mps;
        } else if (kind < sc.mp_pct + sc.read_pct) {
          const rdma_addr r{job.key[d], job.va[d] + src_off + size_t(s) * slice + size_t(j) * sc.slot + off};
          const rdma_addr l{job.key[s], job.va[s] + rd_off + size_t(j) * sc.slot + off};
          REQUIRE(rdma_read(ep, d, 0, r, l, len, &o) == 0);
          reads.push_back({d, j * sc.slot + off, len});
          ++tot[s].reads;
        } else {
          std::vector<uint8_t> data(len);
          for (auto& b : data) b = uint8_t(rng());
          const rdma_addr w{job.key[d], job.va[d] + size_t(s) * slice + size_t(j) * sc.slot + off};
          rdma_opts wo = o;
          const size_t ev_at = (size_t(s) * sc.batch + j) * 16;
          rdma_event re{{job.key[d], job.va[d] + ev_off + ev_at}, {}};
          if (unsigned(rng() % 100) < sc.ev_pct) {  // a remote event: the last one of slot (s, j) stays
            for (auto& b : re.data) b = uint8_t(rng());
            std::copy(std::begin(re.data), std::end(re.data), want_ev[d].begin() + long(ev_at));
            wo.remote_event = &re;
          }
          if (kind < sc.mp_pct + sc.read_pct + sc.imm_pct && len <= 128) {
            REQUIRE(rdma_write_imm(ep, d, 0, w, data.data(), len, &wo) == 0);
          } else {
            rdma_mem_write(ep, job.va[s] + lsrc_off + size_t(j) * sc.slot + off, data.data(), len);
            REQUIRE(rdma_write(ep, d, 0, w, rdma_addr{job.key[s], job.va[s] + lsrc_off + size_t(j) * sc.slot + off}, len, &wo) == 0);
          }
          tot[s].events += wo.remote_event != nullptr;
          std::copy(data.begin(), data.end(), want[d].begin() + long(size_t(s) * slice + size_t(j) * sc.slot + off));
          ++tot[s].writes;
          tot[s].bytes += len;
        }
      }
      REQUIRE(rdma_quiet(ep) == 0);
      for (const Rd& r : reads) {
        std::vector<uint8_t> got(r.len);
        rdma_mem_read(ep, job.va[s] + rd_off + r.off, got.data(), r.len);
        for (unsigned i = 0; i < r.len; ++i) REQUIRE(got[i] == stress_src_byte(r.d, size_t(s) * slice + r.off + i));
      }
      drain_mps();
      ++tot[s].batches;
    }
    // the others' last mini-packets: once every node is past its last batch (each quieted: its
    // mini-packets are in their MPQs), every one sent to this node is in
    ++finished;
    for (;;) {
      drain_mps();
      bool all = finished == N;
      for (unsigned src = 0; src < N; ++src) all = all && mp_seen[s][src] == mp_sent[size_t(src) * N + s];
      if (all) break;
      p.relax();
    }
  });
  StressTotals t;
  for (unsigned s = 0; s < N; ++s) {
    t.writes += tot[s].writes;
    t.reads += tot[s].reads;
    t.mps += tot[s].mps;
    t.bytes += tot[s].bytes;
    t.batches += tot[s].batches;
    t.events += tot[s].events;
    for (unsigned d = 0; d < N; ++d) REQUIRE(mp_seen[d][s] == mp_sent[size_t(s) * N + d]);
  }
  for (unsigned d = 0; d < N; ++d) {
    const std::vector<uint8_t> img = job.image(d);
    INFO("node " << d);
    REQUIRE(std::equal(want[d].begin(), want[d].end(), img.begin()));
    REQUIRE(std::equal(want_ev[d].begin(), want_ev[d].end(), img.begin() + long(ev_off)));
  }
  return t;
}

}  // namespace machine_tb
