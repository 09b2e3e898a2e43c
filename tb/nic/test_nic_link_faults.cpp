// Two NICs over a faulty wire (the reliable link layer, docs/link.md; sim/link's LinkWire): both
// nodes post random RDMA writes and reads, immediate writes with remote events and mini-packets to
// each other at once, while the wire corrupts, drops and repeats flits and control words in both
// directions (or goes dead for a while). Checked: every byte delivered exactly once and intact
// (guards around every buffer), every transfer completed once and OK (rdma_quiet), the
// mini-packets each receiver sees in the sender's order, the events written; the link layer's
// registers against the wire's fault logs (LINK_DROPS: a dirty drop only with a fault, at most two
// per fault; the error buffer holds the last drops; LINK_STATUS counts the replays).
#include <catch2/catch.hpp>

#include <functional>

#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

using namespace nic_tb;

namespace {

struct LfOp {
  int kind;  // 0 RDMA write, 1 RDMA read, 2 immediate write with a remote event, 3 mini-packet
  uint32_t so, doff, len;
  std::vector<uint8_t> imm;
};

constexpr uint32_t kLfBuf = 64 * 1024;

hpcnet::sim::NicPairConfig lf_config(double rate, double ctl_rate) {
  hpcnet::sim::NicPairConfig cfg = Pair::bounded();
  for (auto& d : cfg.link_faults) {
    d.flits.bit_error = rate;
    d.flits.burst = rate;
    d.flits.drop = rate / 2;
    d.flits.repeat = rate / 2;
    d.ctl.bit_error = ctl_rate;
    d.ctl.drop = ctl_rate;
  }
  return cfg;
}

// Runs the traffic; `start` (if given) is called on the link just before the traffic starts.
void lf_run(hpcnet::sim::NicPairConfig cfg, const char* seed_name, unsigned nops,
            const std::function<void(hpcnet::sim::NicBackToBack&)>& start = {}) {
  std::mt19937_64 rng(hpcnet::tb::seed(seed_name));
  cfg.link_seed = rng();
  Pair p(cfg);
  rdma_ep* ep[2] = {p.a, p.b};
  // per node n: src (read by its engine 0), wdst (the other writes here), rdst (its reads land
  // here), rsrc (the other reads from here), ev (remote events land here)
  std::array<Buf, 2> src, wdst, rdst, rsrc, ev;
  std::array<std::vector<uint8_t>, 2> sdata, rdata, wexp, rexp;
  for (unsigned n = 0; n < 2; ++n) {
    p.on(n, [&] {
      src[n] = reg_buf(ep[n], kLfBuf, unsigned(rng() % 4096), RDMA_ACCESS_READ);
      wdst[n] = reg_buf(ep[n], kLfBuf, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
      rdst[n] = reg_buf(ep[n], kLfBuf, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
      rsrc[n] = reg_buf(ep[n], kLfBuf, unsigned(rng() % 4096), RDMA_ACCESS_READ);
      ev[n] = reg_buf(ep[n], 16 * 64, 0, RDMA_ACCESS_WRITE);
    });
    sdata[n] = random_bytes(rng, kLfBuf);
    rdata[n] = random_bytes(rng, kLfBuf);
    wexp[n].assign(kLfBuf, kGuard);
    rexp[n].assign(kLfBuf, kGuard);
    rdma_mem_write(ep[n], src[n].va, sdata[n].data(), kLfBuf);
    rdma_mem_write(ep[n], rsrc[n].va, rdata[n].data(), kLfBuf);
    rdma_mem_write(ep[n], wdst[n].va, wexp[n].data(), kLfBuf);
    rdma_mem_write(ep[n], rdst[n].va, rexp[n].data(), kLfBuf);
  }
  // the operations of node n towards node 1 - n, and the images they leave
  std::array<std::vector<LfOp>, 2> ops;
  std::array<unsigned, 2> mps{};
  for (unsigned n = 0; n < 2; ++n) {
    for (unsigned i = 0; i < nops; ++i) {
      LfOp o;
      o.kind = int(rng() % 4);
      o.len = o.kind == 2 ? 1 + uint32_t(rng() % 128) : o.kind == 3 ? 0 : 1 + uint32_t(rng() % 6000);
      // RDMA writes into the first half of the destination, immediate writes into the second
      // (a VP's immediate writes may pass its RDMA writes: docs/nic_bench.md)
      constexpr uint32_t kHalf = kLfBuf / 2;
      o.so = uint32_t(rng() % (kLfBuf - o.len + 1));
      o.doff = o.kind == 2 ? kHalf + uint32_t(rng() % (kHalf - o.len + 1))
             : o.kind == 0 ? uint32_t(rng() % (kHalf - o.len + 1))
                           : uint32_t(rng() % (kLfBuf - o.len + 1));
      if (o.kind == 0) std::memcpy(&wexp[1 - n][o.doff], &sdata[n][o.so], o.len);
      if (o.kind == 1) std::memcpy(&rexp[n][o.doff], &rdata[1 - n][o.so], o.len);
      if (o.kind == 2) {
        o.imm = random_bytes(rng, o.len);
        std::memcpy(&wexp[1 - n][o.doff], o.imm.data(), o.len);
      }
      if (o.kind == 3) ++mps[1 - n];
      ops[n].push_back(std::move(o));
    }
  }
  if (start) start(p.pair.link());
  std::array<int, 2> rc{-1, -1};
  std::array<std::vector<unsigned>, 2> tags;
  std::array<unsigned, 2> events{};
  for (unsigned n = 0; n < 2; ++n) {
    spawn_at(p.pair, n, 0, [&, n] {
      unsigned t = 0, e = 0;
      for (const LfOp& o : ops[n]) {
        rdma_event rev{};
        if (o.kind == 0)
          REQUIRE(rdma_write(ep[n], 1 - n, rdma_vp(ep[1 - n]), {wdst[1 - n].key, wdst[1 - n].va + o.doff},
                             {src[n].key, src[n].va + o.so}, o.len, nullptr) == 0);
        else if (o.kind == 1)
          REQUIRE(rdma_read(ep[n], 1 - n, rdma_vp(ep[1 - n]), {rsrc[1 - n].key, rsrc[1 - n].va + o.so},
                            {rdst[n].key, rdst[n].va + o.doff}, o.len, nullptr) == 0);
        else if (o.kind == 2) {
          rev.at = {ev[1 - n].key, ev[1 - n].va + 16 * (e++ % 64)};
          std::memset(rev.data, 0x40 + int(n), 16);
          rdma_opts op = opts();
          op.remote_event = &rev;
          REQUIRE(rdma_write_imm(ep[n], 1 - n, rdma_vp(ep[1 - n]), {wdst[1 - n].key, wdst[1 - n].va + o.doff},
                                 o.imm.data(), o.len, &op) == 0);
        } else {
          const uint8_t b = uint8_t(t);
          const rdma_opts op = opts(uint16_t(t++));
          REQUIRE(rdma_mp_send(ep[n], 1 - n, rdma_vp(ep[1 - n]), &b, 1, &op) == 0);
        }
      }
      events[n] = e;
      rc[n] = rdma_quiet(ep[n]);
    });
    spawn_at(p.pair, n, 1, [&, n] {
      for (unsigned k = 0; k < mps[n]; ++k) {
        uint8_t d[120];
        rdma_mp_info info{};
        REQUIRE(rdma_mp_recv(ep[n], d, &info, 1) == 1);
        tags[n].push_back(info.tag);
      }
    });
  }
  p.pair.run();
  // the link registers of both NICs (privileged reads)
  std::array<uint64_t, 2> drops{}, status{};
  std::array<std::array<uint64_t, 8>, 2> errbuf{};
  for (unsigned n = 0; n < 2; ++n)
    p.on(n, [&, n] {
      drops[n] = p.driver(n).read_reg(f::LINK_DROPS_OFFSET);
      status[n] = p.driver(n).read_reg(f::LINK_STATUS_OFFSET);
      for (unsigned i = 0; i < 4; ++i) {
        errbuf[n][2 * i] = p.driver(n).read_reg(f::LINK_ERR_OFFSET + i * f::LINK_ERR_STRIDE + f::LINK_ERR_INFO_OFFSET);
        errbuf[n][2 * i + 1] = p.driver(n).read_reg(f::LINK_ERR_OFFSET + i * f::LINK_ERR_STRIDE + f::LINK_ERR_WORD_OFFSET);
      }
    });
  for (unsigned n = 0; n < 2; ++n) {
    INFO("node " << n);
    CHECK(rc[n] == 0);
    CHECK(diff(peek(ep[n], wdst[n].va, kLfBuf), wexp[n]) == "same");
    CHECK(diff(peek(ep[n], rdst[n].va, kLfBuf), rexp[n]) == "same");
    CHECK(diff(peek(ep[n], src[n].va, kLfBuf), sdata[n]) == "same");
    CHECK(diff(peek(ep[n], rsrc[n].va, kLfBuf), rdata[n]) == "same");
    // the mini-packets from the other node, in its order
    std::vector<unsigned> want(mps[n]);
    for (unsigned k = 0; k < mps[n]; ++k) want[k] = k;
    CHECK(tags[n] == want);
    // the events written (each slot's last writer)
    const auto e = peek(ep[n], ev[n].va, 16 * 64);
    for (unsigned k = 0; k < std::min(events[1 - n], 64u); ++k) CHECK(e[16 * k] == 0x40 + (1 - n));
    // the link layer's counters against the faults of the wire into this node
    const auto& log = p.pair.link().wire(1 - n).log();
    uint64_t flit_faults = 0;
    for (const auto& x : log) flit_faults += !x.ctl;
    const uint64_t crc = f::LINK_DROPS_CRC.get(drops[n]), framing = f::LINK_DROPS_FRAMING.get(drops[n]);
    const uint64_t seq = f::LINK_DROPS_SEQ.get(drops[n]), dup = f::LINK_DROPS_DUP.get(drops[n]);
    INFO("faults into node " << n << ": " << flit_faults << " on flits, " << log.size() - flit_faults
                             << " on control words; drops CRC " << crc << " framing " << framing << " seq " << seq
                             << " dup " << dup << "; node " << 1 - n << " replays " << f::LINK_STATUS_RETRIES.get(status[1 - n])
                             << ", timeouts " << f::LINK_STATUS_TIMEOUTS.get(status[1 - n]));
    // a drop needs a fault; a fault shows as a drop, or (when everything after it was lost too, as in
    // a dead window at the end of the traffic) as the other side's timeout replay
    const uint64_t drops_all = crc + framing + seq + dup, tmo = f::LINK_STATUS_TIMEOUTS.get(status[1 - n]);
    if (flit_faults > 0) CHECK(drops_all + tmo > 0);
    if (drops_all > 0) CHECK(flit_faults > 0);
    CHECK(crc + framing <= 2 * flit_faults);
    if (crc + framing + seq + dup > 0) {
      // the error buffer: the last drops, numbered
      unsigned written = 0;
      for (unsigned i = 0; i < 4; ++i) written += f::LINK_ERR_INFO_NUMBER.get(errbuf[n][2 * i]) != 0;
      CHECK(written == std::min<uint64_t>(4, crc + framing + seq + dup));
      CHECK(f::LINK_STATUS_RETRIES.get(status[1 - n]) > 0);  // the other side replayed
    }
    CHECK(f::LINK_STATUS_UNACKED.get(status[n]) == 0);
  }
}

}  // namespace

TEST_CASE("nic: random RDMA traffic both ways over a wire with bit errors bursts drops and repeats", "[nic][link]") {
  for (double rate : {1e-4, 1e-3}) {
    DYNAMIC_SECTION("fault rate " << rate << " per flit") {
      lf_run(lf_config(rate, 10 * rate), "nic link faults", 120);
    }
  }
}

TEST_CASE("nic: a link dead for 10000 cycles in the middle of the traffic recovers and delivers everything once", "[nic][link]") {
  // both directions dead from 3,000 cycles after the traffic starts, for 10,000 cycles
  lf_run(Pair::bounded(), "nic link dead", 40, [](hpcnet::sim::NicBackToBack& l) {
    hpcnet::sim::LinkFaults dead;
    dead.dead_at = l.now() + 3000;
    dead.dead_cycles = 10000;
    for (unsigned i = 0; i < 2; ++i) l.wire(i).set_faults(dead, dead);
  });
}
