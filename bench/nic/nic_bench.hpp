// bench/nic/nic_bench.hpp: `hpcnet nic`, the NIC benchmarks of issue 21 (docs/nic_bench.md) on the
// two-node system sim::NicPair (two Verilated nic_top, back to back, PCIe host model, driver and
// RDMA library), driven through the RDMA user library (hpcnet/rdma.h) from simulated threads:
//   latency    ping-pong one-way latency against size for DMA-fetched descriptors, PIO
//              (write-combined) descriptors and immediate writes, against the paper's figures,
//              and the breakdown of the smallest message into stages (sim::NicProbe);
//   bandwidth  streaming RDMA write against size, against the modelled bottleneck;
//   read       the same for RDMA read;
//   vps        32 VPs of node 0 streaming at once: aggregate and spread;
//   speed      simulated cycles per wall second (streaming, ping-pong) and peak RSS;
//   rate       small messages from 1..32 VPs of node 0: messages per second and what bounds it.
// Every transfer's bytes are checked (CheckFailed: exit 1).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/cli.hpp"
#include "common/plot.hpp"
#include "common/registry.hpp"
#include "common/results.hpp"
#include "hpcnet/rdma.h"
#include "link/link_faults.hpp"
#include "sim/nic/nic_pair.hpp"
#include "sim/nic/nic_probe.hpp"

namespace hpcnet::bench::nicb {

// How descriptors of one latency path reach the NIC and what they carry.
struct LatPath {
  std::string name;   // dma, pio, imm, imm-dma
  std::string label;  // the display name
  bool imm = false;   // immediate write (data inside the descriptor, 1..128 bytes)
  int submit = RDMA_SUBMIT_PIO_WC;
  double paper_us = 0;  // the paper's minimum latency (0: none)
};
const std::vector<LatPath>& lat_paths();  // every path, in the order of the tables
const LatPath& lat_path(const std::string& name);

inline constexpr unsigned kDefaultLinkRetx = 160;  // nic_top's LinkRetx (rtl/nic/nic_top.sv)

struct NicBenchOptions {
  std::vector<std::string> scenarios;  // latency bandwidth read vps speed rate (resolved, in this order)
  // latency
  std::vector<unsigned> sizes;         // message sizes (bytes)
  std::vector<std::string> paths;      // dma pio imm imm-dma
  std::string notify = "last-byte";    // last-byte | event
  unsigned iters = 200, warmup = 20;   // timed round trips per point, untimed ones before them
  unsigned trips = 8;                  // one-way trips the breakdown averages
  // bandwidth and read
  std::vector<unsigned> bw_sizes;
  uint64_t bw_bytes = 8ull << 20;      // bytes per point (messages: bw_bytes / size within [bw_min_msgs, 4096])
  unsigned bw_min_msgs = 8;
  std::string submit = "pio-wc";       // pio-wc | pio | dma (bandwidth, read, vps)
  // vps
  unsigned vps = 32, vp_size = 16384, vp_msgs = 32;
  // speed
  unsigned speed_msgs = 64, speed_iters = 500;
  // rate
  std::vector<std::string> rate_kinds;   // imm mp write
  std::vector<std::string> rate_submit;  // pio-wc pio dma pio-wc-packed dma-packed pio-packed
  std::vector<unsigned> rate_vps;
  unsigned rate_msgs = 256, rate_size = 8;
  // the system
  unsigned mps = 256, mrrs = 256, link_delay = 2;
  unsigned link_retx = kDefaultLinkRetx;           // the NIC model's link retransmit buffer (flits: LinkRetx)
  LinkFaultOptions faults;             // from the start of each run's traffic (Rig::start_faults)
  uint64_t seed = 1;
  // outputs
  std::string csv, plot;
  bool quick = false, progress = true;
};

int submit_mode(const std::string& s);  // RDMA_SUBMIT_*

// ---- the system and its buffers (nic_rig.cpp)

// A registered buffer of one endpoint.
struct Buf {
  uint64_t va = 0;
  uint16_t key = 0;
  size_t bytes = 0;
  rdma_addr at(uint64_t off) const { return {key, va + off}; }
};

class Rig {
 public:
  // A fresh two-node system (a trace run: `label` names it), one endpoint opened on each node.
  Rig(const NicBenchOptions& o, const std::string& label, bool probe = false, uint64_t watchdog = 200000);
  ~Rig();
  sim::NicPair& pair() { return *pair_; }
  rdma_ep* ep(unsigned node) const { return ep_[node]; }
  sim::NicProbe* probe() { return probe_; }  // the stage timestamps (sim/nic/nic_probe.hpp)
  const sim::NicProbe* probe() const { return probe_; }
  // Runs fn on a thread of `node` until every thread returned.
  void on(unsigned node, std::function<void()> fn);
  // A buffer of `bytes` (plus `guard` bytes after it, filled with kGuard) of endpoint `e` on
  // `node`, its first `data.size()` bytes from data (the rest kGuard), registered with `access`.
  Buf make(unsigned node, rdma_ep* e, size_t bytes, int access, const std::vector<uint8_t>& data, size_t guard = 0);
  // The link's faults (--link-*) from now on: called as the measured traffic starts.
  void start_faults() { faults_.arm(pair_->link()); }
  std::vector<uint8_t> peek(rdma_ep* e, uint64_t va, size_t n) const;
  double ns(uint64_t cycles) const { return pair_->ns(cycles); }

 private:
  std::unique_ptr<sim::NicPair> pair_;
  sim::NicProbe* probe_ = nullptr;
  rdma_ep* ep_[2] = {nullptr, nullptr};
  LinkFaultOptions faults_;
};

// The faults injected on the links of every Rig so far (for the command's closing line).
struct FaultTally {
  unsigned runs = 0;
  uint64_t flits = 0, ctl = 0;
};
FaultTally& fault_tally();

inline constexpr uint8_t kGuard = 0xEE;

// The system of every run: PCIe, link delay, the link faults' seed, and the nic_top model with
// o.link_retx (the default model, or one found by its LinkRetx; std::invalid_argument if none).
sim::NicPairConfig pair_config(const NicBenchOptions& o, uint64_t watchdog = 200000);
uint64_t now();  // the calling simulated thread's cycle
std::vector<uint8_t> random_bytes(uint64_t seed, size_t n);
// Throws CheckFailed naming `what` when rc is not 0.
void check_rc(int rc, const std::string& what);
// Throws CheckFailed with the first differing byte when got != want.
void check_bytes(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const std::string& what);
std::string size_text(uint64_t bytes);  // 8 B, 4 KiB, 1 MiB

// ---- the output of one run (nic_command.cpp)

class Report {
 public:
  explicit Report(const NicBenchOptions& o) : o_(o) {}
  // Prints `title`, the display table and the notes; writes the tidy table as CSV
  // (<stem>-<name>.csv with --csv) and records it for --json under `name`.
  void emit(const std::string& name, const std::string& title, const Results& r, const std::vector<std::string>& notes = {});
  void add_plot(Plot p) { plots_.push_back(std::move(p)); }
  PlotSpec& plot(const std::string& name);  // the plot of this name (made empty when new)
  void finish();  // the plots
  // The run's configuration as tidy columns.
  void config(Results& r) const;

 private:
  const NicBenchOptions& o_;
  std::vector<Plot> plots_;
};

// ---- the scenarios; `prog` steps once per measurement
void run_latency(const NicBenchOptions& o, Report& rep, Progress& prog);
void run_stream(const NicBenchOptions& o, Report& rep, Progress& prog, bool read);
void run_vps(const NicBenchOptions& o, Report& rep, Progress& prog);
void run_speed(const NicBenchOptions& o, Report& rep, Progress& prog);
void run_rate(const NicBenchOptions& o, Report& rep, Progress& prog);  // nic_rate.cpp
void check_rate_options(const NicBenchOptions& o);                     // UsageError

// One stream (nic_stream.cpp) on a fresh system: `msgs` messages of `size` bytes, RDMA writes
// from node 0 to node 1 or RDMA reads by node 0 from node 1; the bytes checked.
struct StreamRun {
  unsigned msgs = 0;
  uint64_t cycles = 0;       // first post to the last message's local event
  double gbps = 0;
  double write_up_busy = 0;  // share of those cycles the writing node's PCIe upstream was busy
  double read_down_busy = 0; // share the read node's PCIe downstream (completions) was busy
  double write_tlp_bytes = 0;  // mean payload of the write TLPs
  uint64_t sim_cycles = 0;   // cycles of the timed run (from the spawn to rdma_quiet's return)
  double wall_s = 0, cpu_s = 0, setup_s = 0;  // the timed run's wall and CPU time; the set-up's wall time
  LinkStats link;            // the link layer's counters and the faults injected, after the run
};
StreamRun stream_run(const NicBenchOptions& o, bool read, unsigned size, unsigned msgs, const std::string& label);
// One ping-pong run (nic_latency.cpp) on a fresh system: `iters` round trips of 8-byte
// PIO-submitted RDMA writes (no warm-up).
struct PingPongRun {
  uint64_t sim_cycles = 0;
  double wall_s = 0, cpu_s = 0, setup_s = 0;
  double mean_us = 0;  // one way
};
PingPongRun pingpong_run(const NicBenchOptions& o, unsigned iters, const std::string& label);

// The number of progress steps each scenario makes.
size_t latency_steps(const NicBenchOptions& o);
size_t stream_steps(const NicBenchOptions& o);
size_t rate_steps(const NicBenchOptions& o);
// The bandwidth (or read) scenario's wall time, estimated up front from the bytes it moves at the
// modelled bottleneck and the simulation's usual speed (kNicCyclesPerS, two nodes).
inline constexpr double kNicCyclesPerS = 30000;
double stream_estimate_s(const NicBenchOptions& o);
inline constexpr size_t kSpeedSteps = 2;

// The modelled bottleneck of a large aligned stream (GB/s) and what it is (nic_rig.cpp): the
// lowest of the PCIe write TLPs' payload share at the writing node, the read completions' at the
// read node, the reads the PCIe tags keep in flight over a read's round trip, the bytes engine 0
// or 1 keeps in flight (its 8 KiB FIFO) over a 1 KiB request's round trip, and the link's 128
// payload bytes of 160.
struct Bottleneck {
  double pcie_write_gbps = 0, pcie_read_gbps = 0, read_tags_gbps = 0, fifo_gbps = 0, link_gbps = 0;
  double gbps = 0;
  std::string what;   // the binding ones
  std::string terms;  // every term with its value
};
Bottleneck bottleneck(const NicBenchOptions& o);

}  // namespace hpcnet::bench::nicb
