// bench/link/link_bench.hpp: `hpcnet link`, the reliable link layer's benchmarks of issue 30
// (docs/link.md section 9) on the two-node NIC system of `hpcnet nic` (bench/nic) and on the
// link layer's own models:
//   ber       goodput of a stream of RDMA writes against the bit error rate per flit, with the
//             default (160 flits) and the doubled (320, a benchmark model) retransmit buffer;
//   delay     the same against the link delay;
//   crossing  the cycles a flit takes from lnk_tx's input to lnk_rx's output against the wire's
//             delay (the layer's latency cost at error rate 0; Vlnk_tx_c24 and Vlnk_rx_b24, the
//             NIC's configuration);
//   speed     simulated cycles per wall second of the stream with fault injection on and off,
//             run in turn.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "nic/nic_bench.hpp"

namespace hpcnet::bench::linkb {

struct LinkBenchOptions {
  std::vector<std::string> scenarios;  // ber delay crossing speed (resolved, in this order)
  std::vector<unsigned> retx;          // retransmit buffers (flits), each a nic_top model
  // ber and delay
  std::vector<double> bers;            // bit error rates per flit of the ber sweep
  std::vector<unsigned> ber_delays;    // link delays of the ber sweep
  std::vector<unsigned> delays;        // link delays of the delay sweep
  std::vector<double> delay_bers;      // bit error rates of the delay sweep
  unsigned msg_size = 65536, msgs = 32;  // the stream: msgs RDMA writes of msg_size bytes
  // crossing
  std::vector<unsigned> crossing_delays;
  unsigned crossing_pkts = 16;
  // speed
  unsigned speed_pairs = 3;
  double speed_ber = 1e-4;
  uint64_t link_seed = 1;
  nicb::NicBenchOptions nic;           // the system, the outputs (csv, plot, quick, progress)
};

// One stream of the sweeps: the link's delay and retransmit buffer, faults at `ber` per flit.
struct Point {
  unsigned retx = 0, delay = 0;
  double ber = 0;
  bool operator<(const Point& p) const {
    return retx != p.retx ? retx < p.retx : delay != p.delay ? delay < p.delay : ber < p.ber;
  }
};
nicb::NicBenchOptions point_options(const LinkBenchOptions& o, const Point& p);

void run_goodput(const LinkBenchOptions& o, nicb::Report& rep, Progress& prog, bool by_delay);
void run_crossing(const LinkBenchOptions& o, nicb::Report& rep, Progress& prog);
void run_speed(const LinkBenchOptions& o, nicb::Report& rep, Progress& prog);
// The streams a sweep needs, its error-free references included (a stream is run once per command:
// the two sweeps share their common points).
std::set<Point> goodput_points(const LinkBenchOptions& o, bool by_delay);

// The first x where y falls below `level` in points sorted by x, interpolated between the points
// around it (log-linear in x when `logx`); NaN when y never falls below it.
double crossing_point(const std::vector<std::pair<double, double>>& pts, double level, bool logx);

}  // namespace hpcnet::bench::linkb
