// sim/net/stats/net_linkstats.hpp: per-link and per-router statistics of a Verilated mesh or torus,
// read from the routers' public state (rtr_router.sv, /*verilator public_flat_rd*/; rtr_state.hpp
// samples it), and latency histograms. Optional: NetSimBase::enable_link_stats() turns them on
// (off by default: a run without them executes no extra code but one test per cycle).
//
// What is counted, per router input (the downstream end of a link, or the injection port), once
// per cycle after the clock edge, in the cycles [begin, end) (NetSimBase::run: the measurement
// window; run_until_drained: every cycle unless set_window() narrowed it):
//   flits     flits that entered the input's buffer. VCT modes (ADBR, DOR-VCT): a packet's
//             PktFlits flits are counted in the cycle its head is written (an occupied slot
//             that was free in the last cycle); wormhole: exactly, flit by flit (the FIFO's
//             count and read pointer). On a network input this is the link's traffic.
//   occupancy packets in the input's buffer, summed over the cycles (VCT: occupied slots;
//             wormhole: flits / PktFlits).
//   blocked   cycles in which a packet at the input had been waiting for its grant since the
//             last cycle too (VCT: a slot waiting in both cycles; wormhole: the FIFO's head
//             packet not being sent in both cycles). A packet's first cycle at an input is the
//             route and switch allocation every packet needs, not counted. The causes: its
//             outputs busy, too few credits downstream (DBFC, the bubble rule), the input's read
//             port busy with another packet of the same input, or the allocator's choice.
// Utilization of a link = flits / cycles of the window (1.0: a flit every cycle).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/net/net_types.hpp"

namespace hpcnet::sim {

struct NetStats;

// The counters of every router input of a network (router n, port p at n * ports + p; port 2*dims
// is the injection port), filled by rtr_state.hpp's sampler.
class LinkProbe {
 public:
  LinkProbe(const MeshShape& shape, unsigned pkt_flits);
  unsigned ports() const { return ports_; }
  // Counting in cycles [begin, end) only (cycle = the engine's cycle whose edge was sampled).
  void set_window(uint64_t begin, uint64_t end) {
    begin_ = begin;
    end_ = end;
  }
  void reset();  // counters and the remembered state (the state after reset: every buffer empty)
  bool counting(uint64_t cycle) const { return cycle >= begin_ && cycle < end_; }
  void counted_cycle() { ++cycles_; }
  // Idle cycles [from, to) jumped over (NetRunConfig::skip_idle): counted where in the window,
  // with nothing in any buffer (the remembered state stays: every buffer empty).
  void idle_cycles(uint64_t from, uint64_t to) {
    const uint64_t a = std::max(from, begin_), b = std::min(to, end_);
    if (a < b) cycles_ += b - a;
  }

  // Per input, written by the sampler.
  struct Input {
    uint8_t occ = 0, wait = 0;     // VCT: slots occupied / waiting at the last sample
    uint16_t cnt = 0, rptr = 0;    // wormhole: flits in the FIFO, read pointer
    bool waiting = false;          // wormhole: the head packet waited at the last sample
    uint64_t flits = 0, occupancy = 0, blocked = 0;  // occupancy: slots (VCT) or flits (wormhole) x cycles
  };
  Input& input(unsigned node, unsigned port) { return in_[static_cast<size_t>(node) * ports_ + port]; }
  const Input& input(unsigned node, unsigned port) const { return in_[static_cast<size_t>(node) * ports_ + port]; }
  uint64_t cycles() const { return cycles_; }
  const MeshShape& shape() const { return shape_; }
  unsigned pkt_flits() const { return pf_; }

 private:
  MeshShape shape_;
  unsigned pf_, ports_;
  uint64_t begin_ = 0, end_ = UINT64_MAX, cycles_ = 0;
  std::vector<Input> in_;
};

// One link: router src's output `port` into router dst's input `port` (port 2d: the + direction
// of dimension d, 2d+1: the - direction).
struct LinkStat {
  unsigned src = 0, dst = 0, port = 0;
  bool wrap = false;            // a torus's wraparound link
  uint64_t flits = 0;
  double utilization = 0;       // flits per cycle
  double dst_occupancy = 0;     // packets in dst's input buffer `port`, average
  double dst_blocked = 0;       // share of the cycles with a blocked packet at that input
};
// One router input (network ports and the injection port).
struct InputStat {
  unsigned router = 0, port = 0;
  uint64_t flits = 0, blocked = 0;
  double occupancy = 0;  // packets, average over the window
};
struct NetLinkStats {
  MeshShape shape;
  unsigned pkt_flits = 5;
  uint64_t cycles = 0;  // cycles counted
  std::vector<LinkStat> links;    // every link of the network, by dst router, then port
  std::vector<InputStat> inputs;  // every router input, by router, then port
  uint64_t link_flits() const;    // sum over the links
  double max_utilization() const;
};

NetLinkStats link_stats(const LinkProbe& probe);
// "X+", "X-", "Y+", "Y-", "Z+", "Z-", "local"
std::string port_name(unsigned port, unsigned dims);
// The router that sends to input `port` of router n (the link's source), or -1 when none (a mesh edge,
// a radix-1 dimension).
int upstream(const MeshShape& s, unsigned n, unsigned port);

// CSV: one row per link: src, dst, dir, src_x, src_y, src_z, dst_x, dst_y, dst_z, wrap, flits,
// utilization, dst_occupancy, dst_blocked (the fraction of cycles). Throws std::runtime_error when the
// file cannot be written.
void write_link_csv(const NetLinkStats& s, const std::string& path);
// CSV: one row per router input: router, x, y, z, port, flits, occupancy, blocked_cycles, blocked_frac.
void write_input_csv(const NetLinkStats& s, const std::string& path);

// Latency histogram of a run's tagged packets (NetStats::lat_hist, one bucket per cycle) in bins of
// `width` cycles: bin i counts latencies [lo, lo + width), lo = i * width; empty bins after the last
// occupied one are left out; the last bucket of lat_hist (latencies >= 32767) is its own bin
// (`overflow`).
struct HistBin {
  uint64_t lo = 0, hi = 0;  // [lo, hi)
  uint64_t count = 0;
  bool overflow = false;
};
std::vector<HistBin> latency_histogram(const NetStats& s, unsigned width);
// CSV: lo, hi, count, fraction, cumulative fraction.
void write_histogram_csv(const std::vector<HistBin>& bins, const std::string& path);

}  // namespace hpcnet::sim
