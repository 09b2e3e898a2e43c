// Two NICs over a faulty wire (the reliable link layer, docs/link.md; sim/link's LinkWire): 16
// endpoints on each node (32 VPs) post random RDMA writes and reads, immediate writes with remote
// events and mini-packets to random endpoints of the other node at once, while the wire
// corrupts, drops and repeats flits and control words in both directions (or goes dead for a
// while). Checked: every byte delivered exactly once and intact
// (guards around every buffer), every transfer completed once and OK (rdma_quiet), the
// mini-packets each receiver sees in the sender's order, the events written; the link layer's
// registers against the wire's fault logs (LINK_DROPS: a dirty drop only with a fault, at most two
// per fault; the error buffer holds the last drops; LINK_STATUS counts the replays).
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>

#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

using namespace nic_tb;

namespace {

struct LfOp {
  int kind;  // 0 RDMA write, 1 RDMA read, 2 immediate write with a remote event, 3 mini-packet
  unsigned to;  // the other node's endpoint
  uint32_t so, doff, len;
  uint16_t tag;  // a mini-packet's: its sender endpoint and count (e * 256 + k)
  std::vector<uint8_t> imm;
};

constexpr unsigned kLfEps = 16;            // endpoints (VPs) per node: 32 VPs in all
constexpr uint32_t kLfBuf = 16 * 1024;     // each endpoint's regions
constexpr uint32_t kLfSlice = kLfBuf / kLfEps;  // a sender endpoint's part of a destination

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

// One endpoint's regions and the images they must end with.
struct LfEp {
  rdma_ep* ep = nullptr;
  // src (read by its engine 0), wdst (the other node writes here: slice e by its endpoint e),
  // rdst (its reads land here), rsrc (the other node reads from here), ev (remote events)
  Buf src, wdst, rdst, rsrc, ev;
  std::vector<uint8_t> sdata, rdata, wexp, rexp;
  std::vector<LfOp> ops;        // towards the other node
  std::set<unsigned> ev_slots;  // event slots the other node's immediate writes target
  std::map<unsigned, std::vector<uint16_t>> mp_want, mp_got;  // mini-packets by sender endpoint, in order
  unsigned mps = 0;             // mini-packets it will receive
  int rc = -1;
};

// Runs the traffic; `start` (if given) is called on the link just before the traffic starts.
void lf_run(hpcnet::sim::NicPairConfig cfg, const char* seed_name, unsigned nops,
            const std::function<void(hpcnet::sim::NicBackToBack&)>& start = {}) {
  std::mt19937_64 rng(hpcnet::tb::seed(seed_name));
  cfg.link_seed = rng();
  Pair p(cfg);
  std::array<std::array<LfEp, kLfEps>, 2> nd;
  rdma_ep_attr at{8, 8, 10, 0};  // room for every mini-packet one endpoint may get
  for (unsigned n = 0; n < 2; ++n)
    for (unsigned e = 0; e < kLfEps; ++e) {
      LfEp& x = nd[n][e];
      x.ep = e == 0 ? (n ? p.b : p.a) : p.open(n, &at);
      p.on(n, [&] {
        x.src = reg_buf(x.ep, kLfBuf, unsigned(rng() % 4096), RDMA_ACCESS_READ);
        x.wdst = reg_buf(x.ep, kLfBuf, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
        x.rdst = reg_buf(x.ep, kLfBuf, unsigned(rng() % 4096), RDMA_ACCESS_WRITE);
        x.rsrc = reg_buf(x.ep, kLfBuf, unsigned(rng() % 4096), RDMA_ACCESS_READ);
        x.ev = reg_buf(x.ep, 16 * 64, 0, RDMA_ACCESS_WRITE);
      });
      x.sdata = random_bytes(rng, kLfBuf);
      x.rdata = random_bytes(rng, kLfBuf);
      x.wexp.assign(kLfBuf, kGuard);
      x.rexp.assign(kLfBuf, kGuard);
      rdma_mem_write(x.ep, x.src.va, x.sdata.data(), kLfBuf);
      rdma_mem_write(x.ep, x.rsrc.va, x.rdata.data(), kLfBuf);
      rdma_mem_write(x.ep, x.wdst.va, x.wexp.data(), kLfBuf);
      rdma_mem_write(x.ep, x.rdst.va, x.rexp.data(), kLfBuf);
    }
  // the operations of endpoint (n, e) towards the other node, and the images they leave
  for (unsigned n = 0; n < 2; ++n)
    for (unsigned e = 0; e < kLfEps; ++e) {
      LfEp& x = nd[n][e];
      unsigned mp_n = 0;
      for (unsigned i = 0; i < nops; ++i) {
        LfOp o;
        o.kind = int(rng() % 4);
        o.to = unsigned(rng() % kLfEps);
        LfEp& y = nd[1 - n][o.to];
        // writes into slice e of the target's destination: RDMA writes into its first half,
        // immediate writes into its second (a VP's immediate writes may pass its RDMA writes:
        // docs/nic_bench.md); reads land in this endpoint's own rdst
        constexpr uint32_t kHalf = kLfSlice / 2;
        o.len = o.kind == 2 ? 1 + uint32_t(rng() % 128) : o.kind == 3 ? 0 : o.kind == 0 ? 1 + uint32_t(rng() % kHalf)
                                                                                        : 1 + uint32_t(rng() % 3000);
        o.so = uint32_t(rng() % (kLfBuf - o.len + 1));
        o.doff = o.kind == 2 ? e * kLfSlice + kHalf + uint32_t(rng() % (kHalf - o.len + 1))
               : o.kind == 0 ? e * kLfSlice + uint32_t(rng() % (kHalf - o.len + 1))
                             : uint32_t(rng() % (kLfBuf - o.len + 1));
        if (o.kind == 0) std::memcpy(&y.wexp[o.doff], &x.sdata[o.so], o.len);
        if (o.kind == 1) std::memcpy(&x.rexp[o.doff], &y.rdata[o.so], o.len);
        if (o.kind == 2) {
          o.imm = random_bytes(rng, o.len);
          std::memcpy(&y.wexp[o.doff], o.imm.data(), o.len);
        }
        if (o.kind == 3) {
          o.tag = uint16_t(e * 256 + mp_n++);
          y.mp_want[e].push_back(o.tag);
          ++y.mps;
        }
        x.ops.push_back(std::move(o));
      }
    }
  if (start) start(p.pair.link());
  // per endpoint a thread that posts its operations, and one that takes its mini-packets
  for (unsigned n = 0; n < 2; ++n)
    for (unsigned e = 0; e < kLfEps; ++e) {
      spawn_at(p.pair, n, e, [&, n, e] {
        LfEp& x = nd[n][e];
        unsigned ev_i = 0;
        for (const LfOp& o : x.ops) {
          LfEp& y = nd[1 - n][o.to];
          const unsigned vp = rdma_vp(y.ep);
          if (o.kind == 0) {
            REQUIRE(rdma_write(x.ep, 1 - n, vp, {y.wdst.key, y.wdst.va + o.doff}, {x.src.key, x.src.va + o.so}, o.len, nullptr) == 0);
          } else if (o.kind == 1) {
            REQUIRE(rdma_read(x.ep, 1 - n, vp, {y.rsrc.key, y.rsrc.va + o.so}, {x.rdst.key, x.rdst.va + o.doff}, o.len, nullptr) == 0);
          } else if (o.kind == 2) {
            const unsigned slot = (e * 4 + ev_i++) % 64;
            rdma_event rev{};
            rev.at = {y.ev.key, y.ev.va + 16 * slot};
            std::memset(rev.data, 0x40 + int(n), 16);
            rdma_opts op = opts();
            op.remote_event = &rev;
            REQUIRE(rdma_write_imm(x.ep, 1 - n, vp, {y.wdst.key, y.wdst.va + o.doff}, o.imm.data(), o.len, &op) == 0);
          } else {
            const uint8_t b = uint8_t(o.tag);
            const rdma_opts op = opts(o.tag);
            REQUIRE(rdma_mp_send(x.ep, 1 - n, vp, &b, 1, &op) == 0);
          }
        }
        x.rc = rdma_quiet(x.ep);
      });
      spawn_at(p.pair, n, kLfEps + e, [&, n, e] {
        LfEp& x = nd[n][e];
        for (unsigned k = 0; k < x.mps; ++k) {
          uint8_t d[120];
          rdma_mp_info info{};
          REQUIRE(rdma_mp_recv(x.ep, d, &info, 1) == 1);
          x.mp_got[info.tag / 256u].push_back(info.tag);
        }
      });
    }
  // the event slots each endpoint's immediate writes target (as the threads choose them)
  for (unsigned n = 0; n < 2; ++n)
    for (unsigned e = 0; e < kLfEps; ++e) {
      unsigned ev_i = 0;
      for (const LfOp& o : nd[n][e].ops)
        if (o.kind == 2) nd[1 - n][o.to].ev_slots.insert((e * 4 + ev_i++) % 64);
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
    for (unsigned e = 0; e < kLfEps; ++e) {
      LfEp& x = nd[n][e];
      INFO("node " << n << " endpoint " << e);
      CHECK(x.rc == 0);
      CHECK(diff(peek(x.ep, x.wdst.va, kLfBuf), x.wexp) == "same");
      CHECK(diff(peek(x.ep, x.rdst.va, kLfBuf), x.rexp) == "same");
      CHECK(diff(peek(x.ep, x.src.va, kLfBuf), x.sdata) == "same");
      CHECK(diff(peek(x.ep, x.rsrc.va, kLfBuf), x.rdata) == "same");
      // the mini-packets: every one once, each sender's in its order
      CHECK(x.mp_got == x.mp_want);
      // the events written (the slots targeted, each by the other node's pattern)
      const auto ev = peek(x.ep, x.ev.va, 16 * 64);
      for (unsigned k = 0; k < 64; ++k) CHECK(ev[16 * k] == (x.ev_slots.count(k) ? 0x40 + (1 - n) : 0));
    }
    INFO("node " << n);
    // the link layer's counters against the faults of the wire into this node
    const auto& log = p.pair.link().wire(1 - n).log();
    uint64_t flit_faults = 0;
    for (const auto& w : log) flit_faults += !w.ctl;
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
    if (drops_all > 0) {
      // the error buffer: the last drops, numbered
      unsigned written = 0;
      for (unsigned i = 0; i < 4; ++i) written += f::LINK_ERR_INFO_NUMBER.get(errbuf[n][2 * i]) != 0;
      CHECK(written == std::min<uint64_t>(4, drops_all));
      CHECK(f::LINK_STATUS_RETRIES.get(status[1 - n]) > 0);  // the other side replayed
    }
    CHECK(f::LINK_STATUS_UNACKED.get(status[n]) == 0);
    CHECK(f::LINK_STATUS_STATE.get(status[n]) == 0);  // never down: the faults are survivable
    CHECK(f::LINK_STATUS_DOWNS.get(status[n]) == 0);
  }
}

}  // namespace

TEST_CASE("nic: random RDMA traffic both ways over a wire with bit errors bursts drops and repeats", "[nic][link]") {
  for (double rate : {1e-4, 1e-3}) {
    DYNAMIC_SECTION("fault rate " << rate << " per flit") {
      lf_run(lf_config(rate, 10 * rate), "nic link faults", 12);
    }
  }
}

TEST_CASE("nic: a link dead for 10000 cycles in the middle of the traffic recovers and delivers everything once", "[nic][link]") {
  // both directions dead from 3,000 cycles after the traffic starts, for 10,000 cycles
  lf_run(Pair::bounded(), "nic link dead", 6, [](hpcnet::sim::NicBackToBack& l) {
    hpcnet::sim::LinkFaults dead;
    dead.dead_at = l.now() + 3000;
    dead.dead_cycles = 10000;
    for (unsigned i = 0; i < 2; ++i) l.wire(i).set_faults(dead, dead);
  });
}
