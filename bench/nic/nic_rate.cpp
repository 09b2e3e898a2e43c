// bench/nic/nic_rate.cpp: `hpcnet nic --scenario rate`: the small-message rate (docs/nic_bench.md,
// rate). Per kind, submission mode and VP count V, one fresh system: node 0 opens V endpoints,
// each on its own thread, and each posts --rate-msgs messages of --rate-size bytes to node 1 back
// to back (immediate writes, mini-packets or RDMA writes), the last with a local event. The VP's
// DQ (512 words) holds the descriptors the NIC may not start yet, so each VP keeps its window (16
// outstanding, CQ room) full without the thread tracking completions. Rate = messages / (first
// post to the last VP's event seen) at the NIC clock. A probe (sampled every cycle) counts what
// each stage did over the same cycles: the PIO bus, MMIO words, the link per VC, node 1's
// receiver (a packet's head in to its answer out), the messages in flight and their round trip.
// After each run every message is checked at node 1: the written bytes (and the guard after
// them), or every mini-packet's header and payload in the receive VP's MPQ.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "hpcnet/nic_driver.hpp"
#include "nic/nic_bench.hpp"

namespace hpcnet::bench::nicb {

namespace {

namespace rnf = nic_formats;

constexpr unsigned kRateMaxOut = 16;      // outstanding descriptors per VP (nic_exec MaxOut)
constexpr unsigned kRateMsgSlots = 64;    // the completion unit's message table (nic_exec MsgW 6)
constexpr unsigned kRateFlitsPerPkt = 5;  // a link packet
constexpr unsigned kRateEng0Jobs = 4;     // jobs engine 0 queues (nic_rdeng), one DMA read each at 8 B
constexpr unsigned kRateFetches = 1;      // reads the host-DQ fetcher keeps in flight (nic_hdq)

enum class RateKind { imm, mp, write };

RateKind rate_kind_of(const std::string& k) {
  if (k == "imm") return RateKind::imm;
  if (k == "mp") return RateKind::mp;
  if (k == "write") return RateKind::write;
  throw std::invalid_argument("unknown message kind '" + k + "'");
}

const char* rate_kind_label(RateKind k) {
  return k == RateKind::imm ? "IMM_WRITE" : k == RateKind::mp ? "MP_SEND" : "RDMA_WRITE";
}

// A submission mode of the scenario: the library's, one call per message, each submitted at once, or
// packed: the same calls with RDMA_F_MORE (the last without), so that the library submits up to
// RDMA_MORE_WORDS words at a time: descriptors share WC lines or one doorbell.
struct RateSubmit {
  int mode = RDMA_SUBMIT_PIO_WC;
  bool packed = false;
};

RateSubmit rate_submit(const std::string& s) {
  const bool packed = s.size() > 7 && s.substr(s.size() - 7) == "-packed";
  return {submit_mode(packed ? s.substr(0, s.size() - 7) : s), packed};
}

// ---- the probe

// Counts, while armed, what each stage of the two-node system does. Link packets are told apart by
// their sequence numbers (a replay repeats one), so each counts once.
class RateProbe final : public sim::Fabric {
 public:
  explicit RateProbe(sim::NicPair& pair) : pair_(pair) {}
  std::string name() const override { return "nic rate probe"; }

  struct Counts {
    uint64_t cycles = 0, mmio_words = 0, in_flight_sum = 0, reads_sum = 0;
    uint64_t flits0[2] = {0, 0}, flits1[2] = {0, 0};  // per VC, sent by node 0 / node 1
    std::vector<uint64_t> sent, arrived, answered, back;
    uint64_t bus_cycles = 0, bus_bursts = 0, bus_reads = 0;
    double pcie_up[2] = {0, 0}, pcie_down[2] = {0, 0};
  };
  const Counts& counts() const { return c_; }

  void arm() {
    c_ = Counts{};
    for (Seq& s : seq_) s = Seq{};
    reads_out_ = 0;
    bus0_ = pair_.node(0).bus(0).stats();
    for (unsigned n = 0; n < 2; ++n) pcie0_[n] = pair_.nic(n).pcie().dma().stats();
    armed_ = true;
  }
  void disarm() {
    if (!armed_) return;
    armed_ = false;
    const sim::BusStats& b = pair_.node(0).bus(0).stats();
    c_.bus_cycles = b.link_cycles - bus0_.link_cycles;
    c_.bus_bursts = b.wc_bursts - bus0_.wc_bursts;
    c_.bus_reads = b.reads - bus0_.reads;
    for (unsigned n = 0; n < 2; ++n) {
      const sim::PcieStats& s = pair_.nic(n).pcie().dma().stats();
      c_.pcie_up[n] = s.up_busy_cycles - pcie0_[n].up_busy_cycles;
      c_.pcie_down[n] = s.down_busy_cycles - pcie0_[n].down_busy_cycles;
    }
  }

  void sample() override {
    if (!armed_) return;
    const uint64_t t = pair_.node(0).cycles();
    ++c_.cycles;
    const sim::NicLinkPort& l0 = pair_.nic(0).link();
    const sim::NicLinkPort& l1 = pair_.nic(1).link();
    const sim::HostPorts& h0 = pair_.nic(0).host();
    if (h0.mmio.req_valid && h0.mmio.req_ready && h0.mmio.req_write) ++c_.mmio_words;
    const sim::PcieDmaPort& q0 = pair_.nic(0).pcie().port;
    if (q0.rd_req_valid && q0.rd_req_ready) ++reads_out_;
    if (q0.rd_rsp_valid && q0.rd_rsp_ready && q0.rd_rsp_last) --reads_out_;
    if (l0.tx.valid) ++c_.flits0[l0.tx.vc & 1];
    if (l1.tx.valid) ++c_.flits1[l1.tx.vc & 1];
    if (first_of_msg(l0.tx, 0, seq_[0])) c_.sent.push_back(t);      // node 0 sends a message
    if (first_of_msg(l1.rx, 0, seq_[1])) c_.arrived.push_back(t);   // node 1 receives it
    if (first_of_msg(l1.tx, 1, seq_[2])) c_.answered.push_back(t);  // node 1 answers
    if (first_of_msg(l0.rx, 1, seq_[3])) c_.back.push_back(t);      // the answer is back at node 0
    c_.in_flight_sum += c_.sent.size() - c_.back.size();
    c_.reads_sum += uint64_t(std::max<int64_t>(reads_out_, 0));
  }

 private:
  struct Seq {
    bool any = false;
    uint8_t next = 0;
  };
  // A head flit of VC `vc` that starts a message (VC0: a FIRST packet) or answers one (VC1: ACK or
  // NACK), the first time its sequence number is seen.
  static bool first_of_msg(const sim::NicFlit& f, unsigned vc, Seq& s) {
    if (!f.valid || !f.head) return false;
    if (s.any && f.seq != s.next) return false;  // a replay (or a packet after a loss)
    s.any = true;
    s.next = uint8_t(f.seq + 1);
    if (f.vc != vc) return false;
    const rnf::PktHead h = rnf::PktHead::unpack(f.data);
    if (vc == 0) return h.first && h.ptype != rnf::PktType::EVENT;
    return h.ptype == rnf::PktType::ACK || h.ptype == rnf::PktType::NACK;
  }

  sim::NicPair& pair_;
  bool armed_ = false;
  Seq seq_[4];
  int64_t reads_out_ = 0;
  sim::BusStats bus0_;
  sim::PcieStats pcie0_[2];
  Counts c_;
};

// ---- one run

struct RateRun {
  uint64_t msgs = 0, cycles = 0;
  double mmsgs = 0, cycles_per_msg = 0, steady = 0;
  double bus_busy = 0, bus_per_msg = 0, words_per_msg = 0, bursts_per_msg = 0;
  double vc0_per_msg = 0, vc0_busy = 0, vc1_busy = 0;
  double rx_per_msg = 0, rx_busy = 0, rtt = 0, in_flight = 0, window_use = 0, reads_in_flight = 0;
  double pcie1_up = 0, pcie0_down = 0;
  std::string bound;     // the busiest stage
  double bound_use = 0;  // its use
};

RateRun rate_run(const NicBenchOptions& o, RateKind kind, const std::string& submit, unsigned nv) {
  const unsigned m = o.rate_msgs, size = o.rate_size;
  const RateSubmit sub = rate_submit(submit);
  const std::string what = fmt::format("{} {} B, {}, {} VPs", rate_kind_label(kind), size, submit, nv);
  Rig rig(o, fmt::format("rate, {}", what));
  sim::NicPair& pair = rig.pair();
  auto owned = std::make_unique<RateProbe>(pair);
  RateProbe& probe = *owned;
  pair.cluster().add_fabric(std::move(owned));
  std::vector<rdma_ep*> eps(nv);
  eps[0] = rig.ep(0);
  rig.on(0, [&] {
    for (unsigned v = 1; v < nv; ++v) check_rc(rdma_open(&eps[v]), fmt::format("rdma_open of VP {}", v));
  });
  // the data of each VP, its events, and where its messages go
  const size_t bytes = size_t{m} * size;
  std::vector<std::vector<uint8_t>> data(nv);
  std::vector<Buf> src(nv), dst(nv), ev(nv);
  for (unsigned v = 0; v < nv; ++v) {
    data[v] = random_bytes(o.seed * 15485863 + 131 * v + size, bytes);
    if (kind == RateKind::write) src[v] = rig.make(0, eps[v], bytes, RDMA_ACCESS_READ, data[v]);
    if (kind != RateKind::mp) dst[v] = rig.make(1, rig.ep(1), bytes, RDMA_ACCESS_WRITE, {}, 128);
    ev[v] = rig.make(0, eps[v], 64, RDMA_ACCESS_WRITE, std::vector<uint8_t>(64, 0));
  }
  // mini-packets: one receive VP on node 1 whose MPQ holds every message of the run (opened with
  // the driver, which says where the MPQ is; nothing consumes it during the run)
  nic::Vp* rx = nullptr;
  if (kind == RateKind::mp) {
    unsigned lg = 6;
    while ((1u << lg) < nv * m) ++lg;
    nic::VpConfig cfg;
    cfg.mpq_log2 = lg;
    rig.on(1, [&] { rx = &pair.driver(1).open_vp(cfg); });
  }
  const unsigned dvp = kind == RateKind::mp ? rx->index : rdma_vp(rig.ep(1));
  std::vector<uint64_t> start(nv), end(nv);
  unsigned left = nv;
  const unsigned per_pe = pair.config().num_threads;
  rig.start_faults();
  probe.arm();
  for (unsigned v = 0; v < nv; ++v)
    pair.spawn(0, v / per_pe, v % per_pe, [&, v] {
      rdma_ep* ep = eps[v];
      rdma_event lev{ev[v].at(0), {}};
      for (unsigned i = 0; i < 16; ++i) lev.data[i] = uint8_t(0x90 + i);
      rdma_set_submit(ep, sub.mode);
      start[v] = now();
      for (unsigned i = 0; i < m; ++i) {
        const rdma_event* le = i + 1 == m ? &lev : nullptr;
        const uint8_t* d = data[v].data() + size_t{i} * size;
        const rdma_addr remote = dst[v].at(uint64_t{i} * size), local = src[v].at(uint64_t{i} * size);
        rdma_opts op{};
        op.submit = sub.mode;
        op.tag = uint16_t(i);
        op.local_event = le;
        if (sub.packed && le == nullptr) op.flags = RDMA_F_MORE;
        const int rc = kind == RateKind::imm  ? rdma_write_imm(ep, 1, dvp, remote, d, size, &op)
                       : kind == RateKind::mp ? rdma_mp_send(ep, 1, dvp, d, size, &op)
                                          : rdma_write(ep, 1, dvp, remote, local, size, &op);
        check_rc(rc, fmt::format("{}: VP {} posting message {}", what, v, i));
      }
      rdma_wait_event(ep, ev[v].va, nullptr);
      end[v] = now();
      if (--left == 0) probe.disarm();
      check_rc(rdma_quiet(ep), fmt::format("{}: VP {}: rdma_quiet", what, v));
    });
  pair.run();

  // every message at node 1
  if (const char* f = std::getenv("HPCNET_NIC_BENCH_FAULT"); f && std::string(f) == "rate") {
    // the test of the check itself (bench/nic/tests.cmake): one byte at node 1 made wrong
    Platform& p1 = pair.driver(1).platform();
    const uint64_t at = kind == RateKind::mp ? rx->mpq.phys + 128ull * (nv * m / 2) + 8
                                             : rdma_phys(rig.ep(1), dst[nv / 2].va + bytes / 2);
    uint8_t b = 0;
    p1.mem_read(at, &b, 1);
    b = uint8_t(b ^ 0x5A);
    p1.mem_write(at, &b, 1);
  }
  if (kind == RateKind::mp) {
    Platform& p1 = pair.driver(1).platform();
    std::vector<unsigned> next(nv, 0);
    std::vector<unsigned> vp_of(32, ~0u);
    for (unsigned v = 0; v < nv; ++v) vp_of[rdma_vp(eps[v])] = v;
    for (unsigned j = 0; j < nv * m; ++j) {
      const uint64_t at = rx->mpq.phys + 128ull * j;
      const rnf::MpHead h = rnf::MpHead::unpack({p1.mem_read64(at)});
      const std::string where = fmt::format("{}: MPQ entry {}", what, j);
      if (!h.phase || h.src_node != 0 || h.src_vp >= 32 || vp_of[h.src_vp] == ~0u || h.len != size)
        throw CheckFailed(fmt::format("{}: header phase {} node {} VP {} len {}", where, h.phase, h.src_node, h.src_vp, h.len));
      const unsigned v = vp_of[h.src_vp], i = next[v]++;
      if (i >= m || h.tag != (i & 0xFFFF))
        throw CheckFailed(fmt::format("{}: VP {}'s message {} has tag {}", where, h.src_vp, i, h.tag));
      std::vector<uint8_t> got(size);
      p1.mem_read(at + 8, got.data(), size);
      const std::vector<uint8_t> want(data[v].begin() + long(i) * size, data[v].begin() + long(i + 1) * size);
      check_bytes(got, want, where + ": the payload");
    }
  } else {
    for (unsigned v = 0; v < nv; ++v) {
      std::vector<uint8_t> want = data[v];
      want.resize(bytes + 128, kGuard);
      check_bytes(rig.peek(rig.ep(1), dst[v].va, bytes + 128), want, fmt::format("{}: VP {}'s destination", what, v));
    }
  }

  // the figures
  RateRun r;
  r.msgs = uint64_t{nv} * m;
  const RateProbe::Counts& q = probe.counts();
  if (q.sent.size() != r.msgs || q.arrived.size() != r.msgs || q.answered.size() != r.msgs || q.back.size() != r.msgs)
    throw CheckFailed(fmt::format("{}: {} messages posted, the probe saw {} sent, {} received, {} answered, {} answers back",
                                  what, r.msgs, q.sent.size(), q.arrived.size(), q.answered.size(), q.back.size()));
  r.cycles = *std::max_element(end.begin(), end.end()) - *std::min_element(start.begin(), start.end());
  const double mhz = pair.config().clock_mhz, n = double(r.msgs), cyc = double(q.cycles);
  r.cycles_per_msg = double(r.cycles) / n;
  r.mmsgs = n / double(r.cycles) * mhz;
  // steady state: answers back between the 10th and the 90th percentile message
  const size_t lo = r.msgs / 10, hi = r.msgs - 1 - r.msgs / 10;
  r.steady = hi > lo ? double(q.back[hi] - q.back[lo]) / double(hi - lo) : r.cycles_per_msg;
  r.bus_busy = double(q.bus_cycles) / cyc;
  r.bus_per_msg = double(q.bus_cycles) / n;
  r.bursts_per_msg = double(q.bus_bursts) / n;
  r.words_per_msg = double(q.mmio_words) / n;
  r.vc0_per_msg = double(q.flits0[0]) / n;
  r.vc0_busy = double(q.flits0[0]) / cyc;
  r.vc1_busy = double(q.flits1[1]) / cyc;
  // node 1's receiver takes one message at a time: from its head in (or the previous answer out,
  // whichever is later) to its answer out
  uint64_t busy = 0, rtt = 0;
  for (size_t i = 0; i < r.msgs; ++i) {
    const uint64_t from = std::max(q.arrived[i], i ? q.answered[i - 1] : 0);
    busy += q.answered[i] > from ? q.answered[i] - from : 0;
    rtt += q.back[i] - q.sent[i];
  }
  r.rx_per_msg = double(busy) / n;
  r.rx_busy = double(busy) / cyc;
  r.rtt = double(rtt) / n;
  r.in_flight = double(q.in_flight_sum) / cyc;
  r.window_use = r.in_flight / double(std::min(kRateMaxOut * nv, kRateMsgSlots));
  r.reads_in_flight = double(q.reads_sum) / cyc;
  r.pcie1_up = q.pcie_up[1] / cyc;
  r.pcie0_down = q.pcie_down[0] / cyc;
  // DMA reads of node 0 in flight against what keeps them: engine 0's jobs (RDMA writes), the
  // host-DQ fetcher (DMA submission)
  const unsigned reads_limit = (kind == RateKind::write ? kRateEng0Jobs : 0) + (sub.mode == RDMA_SUBMIT_DMA ? kRateFetches : 0);
  const std::pair<double, const char*> use[] = {{r.bus_busy, "node 0 PIO bus"},
                                                {r.vc0_busy, "link VC0"},
                                                {r.vc1_busy, "link VC1 (answers)"},
                                                {r.rx_busy, "node 1 receiver"},
                                                {r.window_use, "outstanding window"},
                                                {r.pcie1_up, "node 1 PCIe up"},
                                                {r.pcie0_down, "node 0 PCIe down"},
                                                {reads_limit ? r.reads_in_flight / reads_limit : 0.0,
                                                 "node 0 DMA reads"}};
  const auto* top = std::max_element(std::begin(use), std::end(use), [](auto& a, auto& b) { return a.first < b.first; });
  r.bound = top->second;
  r.bound_use = top->first;
  return r;
}

}  // namespace

size_t rate_steps(const NicBenchOptions& o) { return o.rate_kinds.size() * o.rate_submit.size() * o.rate_vps.size(); }

void check_rate_options(const NicBenchOptions& o) {
  for (const std::string& s : o.rate_submit) (void)rate_submit(s);
  for (const std::string& k : o.rate_kinds) {
    if (k == "mp" && o.rate_size > 120)
      throw UsageError("--rate-size", fmt::format("{} bytes: a mini-packet carries at most 120", o.rate_size));
    if (k == "mp" && uint64_t{*std::max_element(o.rate_vps.begin(), o.rate_vps.end())} * o.rate_msgs > 65536)
      throw UsageError("--rate-msgs", "mini-packets: VPs x messages must be at most 65536 (the receive VP's MPQ)");
  }
}

void run_rate(const NicBenchOptions& o, Report& rep, Progress& prog) {
  const double mhz = pair_config(o).clock_mhz;
  const double link_mmsgs = mhz / kRateFlitsPerPkt;  // one 5-flit packet every 5 cycles
  Results t({{"kind", ""},
             {"submit", ""},
             {"vps", "VPs"},
             {"messages", "msgs"},
             {"cycles", ""},
             {"mmsgs_per_s", "M msgs/s"},
             {"cycles_per_msg", "cycles/msg"},
             {"steady_cycles_per_msg", "steady cycles/msg"},
             {"pct_of_link", "% of link"},
             {"busiest_stage", "busiest stage"},
             {"busiest_use_pct", "its use %"}});
  Results s({{"kind", ""},
             {"submit", ""},
             {"vps", "VPs"},
             {"pio_bus_busy_pct", "PIO bus %"},
             {"pio_bus_cycles_per_msg", "bus cycles/msg"},
             {"wc_bursts_per_msg", "WC bursts/msg"},
             {"mmio_words_per_msg", "MMIO words/msg"},
             {"vc0_flits_per_msg", "VC0 flits/msg"},
             {"vc0_busy_pct", "VC0 %"},
             {"vc1_busy_pct", "VC1 %"},
             {"rx_cycles_per_msg", "rx cycles/msg"},
             {"rx_busy_pct", "rx %"},
             {"round_trip_cycles", "round trip"},
             {"in_flight_msgs", "in flight"},
             {"window_use_pct", "window %"},
             {"dma_reads_in_flight", "DMA reads in flight"},
             {"node1_pcie_up_busy_pct", "node 1 PCIe up %"},
             {"node0_pcie_down_busy_pct", "node 0 PCIe down %"}});
  for (Results* r : {&t, &s}) {
    rep.config(*r);
    r->config("message_bytes", o.rate_size).config("messages_per_vp", o.rate_msgs).config("link_mmsgs_per_s", link_mmsgs);
  }
  double best = 0;
  std::string best_at;
  std::vector<std::string> notes;
  for (const std::string& k : o.rate_kinds)
    for (const std::string& sub : o.rate_submit)
      for (unsigned nv : o.rate_vps) {
        const RateKind kind = rate_kind_of(k);
        const RateRun r = rate_run(o, kind, sub, nv);
        t.add({word(k), word(sub), num(nv), num(r.msgs), num(r.cycles), num(r.mmsgs, 2), num(r.cycles_per_msg, 2),
               num(r.steady, 2), num(100.0 * r.mmsgs / link_mmsgs, 1), word(r.bound), num(100.0 * r.bound_use, 1)});
        s.add({word(k), word(sub), num(nv), num(100.0 * r.bus_busy, 1), num(r.bus_per_msg, 2), num(r.bursts_per_msg, 2),
               num(r.words_per_msg, 2), num(r.vc0_per_msg, 2), num(100.0 * r.vc0_busy, 1), num(100.0 * r.vc1_busy, 1),
               num(r.rx_per_msg, 2), num(100.0 * r.rx_busy, 1), num(r.rtt, 1), num(r.in_flight, 2),
               num(100.0 * r.window_use, 1), num(r.reads_in_flight, 2), num(100.0 * r.pcie1_up, 1),
               num(100.0 * r.pcie0_down, 1)});
        if (kind == RateKind::imm && r.mmsgs > best) best = r.mmsgs, best_at = fmt::format("{} VPs, {}", nv, sub);
        prog.step(
            fmt::format("rate {} {}: {} VPs: {:.2f} M msgs/s ({} {:.0f}%)", k, sub, nv, r.mmsgs, r.bound, 100.0 * r.bound_use));
      }
  notes.push_back(fmt::format("the link carries one {}-flit packet every {} cycles: {:.1f} M msgs/s at {} MHz", kRateFlitsPerPkt,
                              kRateFlitsPerPkt, link_mmsgs, mhz));
  if (best > 0)
    notes.push_back(fmt::format("goal >= {:.2f} M msgs/s (half the link) with immediate writes: best {:.2f} at {}: {}",
                                link_mmsgs / 2, best, best_at, best >= link_mmsgs / 2 ? "met" : "MISSED"));
  notes.push_back("busiest stage: the highest use of the PIO bus, link VC0 and VC1, node 1's receiver, the window (messages in "
                  "flight / min(16 x VPs, 64)), the PCIe directions that carry the run and node 0's DMA reads in flight "
                  "over what keeps them (engine 0's 4 jobs for RDMA writes, the host-DQ fetcher's 1 read with DMA "
                  "submission): rate_stages");
  notes.push_back("rx cycles/msg is the receiver's time per message when it is saturated (rx % near 100); at a lower load it "
                  "also holds the latency from its answer to the answer's head flit on the link");
  rep.emit("rate",
           fmt::format("Small-message rate: VPs of node 0 each post {} messages of {} B to node 1 back to back, the last with a "
                       "local event; rate = messages / (first post to the last event seen); steady = between the answers of "
                       "the 10th and 90th percentile messages; every message checked at node 1",
                       o.rate_msgs, o.rate_size),
           t, notes);
  rep.emit("rate_stages",
           "Where the rate goes: per-stage use over the same cycles (PIO bus: node 0's MMIO link occupancy; rx: node 1's "
           "receiver from a message's head in to its answer out, one message at a time; round trip: head sent to answer back "
           "at node 0; in flight: messages sent and not yet answered, mean)",
           s);
}

}  // namespace hpcnet::bench::nicb
