// sim/net/model/net_sim.hpp: a router network (Verilated models) driven by the NetEngine: the
// driver's model-independent part and how a network is found.
//
// NetSimBase is the model-independent part: the run methodology (warm-up, measurement, drain),
// scripted runs, speed. Two drivers derive from it (docs/net_sim.md):
//   NetSim<V>     (net_mesh_sim.hpp) a whole network in one model V (net_mesh: Vnet_mesh_*,
//                 Vnet_torus_*, Vnet_bar_*);
//   NetJoined<V>  (net_joined.hpp) copies of a block model V (rtr_router with its boundary ports
//                 external) joined port to port in C++, on one thread or on T threads: the split
//                 meshes (Vnet_mesh_*_t<T>: T blocks of K0 x K1/T) and the networks of any size
//                 tiled from the Vnet_blk_* blocks.
// make_net() finds a built model by name or by (shape, mode, buffer depth); the table of built
// models is generated at configure time from the Vnet_mesh_* models in rtl/*/models.cmake
// (make_net_sim, net_make.hpp, picks the driver for the model class). A shape with no model of
// its own is joined from block models (Vnet_blk_*). Per-link and per-router statistics:
// enable_link_stats() (net_linkstats.hpp).
//
// Buffer depth: a model is built with BufPkts packet slots per input (NetSpec::buf_max) and runs
// with NetSpec::buf_pkts of them (net_mesh's buf_pkts_i, taken during reset); the drivers refuse a
// depth above the model's maximum or below the DBFC minimum with std::invalid_argument.
//
// Watchdog: the message of a Stall (net_engine.hpp) ends with the routers' buffers, read from the
// model's public state (rtr_router.sv, /*verilator public_flat_rd*/): every router with a packet
// in an input buffer, an output in use or credits missing.
//
// Tracing: the TraceWindow argument of make_net(), else the process's request (HPCNET_TRACE or
// the command line, sim/core/trace.hpp); a network of several models traces its first block only.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/core/model_table.hpp"
#include "sim/core/trace.hpp"
#include "sim/net/stats/net_linkstats.hpp"
#include "sim/net/traffic/net_engine.hpp"

namespace hpcnet::sim {

// Starvation freedom of the routers (rtr_router's starve_t_i and wait_arb_i, taken at every
// reset; docs/router.md#starvation-freedom): the backstop threshold T in cycles (0: off) and the
// wait-ordered switch allocation.
struct NetFairness {
  static constexpr unsigned kDefaultT = 1000;
  unsigned starve_t = kDefaultT;
  bool wait_arb = true;
};

class NetSimBase {
 public:
  explicit NetSimBase(const NetSpec& spec) : engine_(spec) {}
  virtual ~NetSimBase() = default;
  NetSimBase(const NetSimBase&) = delete;
  NetSimBase& operator=(const NetSimBase&) = delete;

  const NetSpec& spec() const { return engine_.spec(); }
  NetEngine& engine() { return engine_; }
  const NetEngine& engine() const { return engine_; }

  virtual void reset_model() = 0;  // synchronous reset with idle injection ports
  virtual void step() = 0;         // one cycle (see NetEngine's protocol)
  // A network on several threads (NetJoined): steps its pool ran on the calling thread alone so
  // far (LockstepPool's fallback when no core was free); 0 on one thread.
  virtual uint64_t serial_steps() const { return 0; }

  // The routers' starvation settings from the next reset (start(), run()) on.
  void set_fairness(const NetFairness& f) {
    if (f.starve_t > 0xFFFF) throw std::invalid_argument(fmt::format("starvation threshold {} above 65535 cycles", f.starve_t));
    fair_ = f;
  }
  const NetFairness& fairness() const { return fair_; }
  // Since the last reset: the longest wait of a granted packet in one router (cycles since its
  // head was written into the input buffer, DOR-WH: since it reached the FIFO's front) and the
  // cycles the injection ports were held (rtr_router's simulation-only maxwait_q, holdcyc_q).
  struct RouterWaits {
    uint64_t max_wait = 0, hold_cycles = 0;
  };
  virtual RouterWaits router_waits() { return {}; }

  // A node's port outputs after the last clock edge (registered in the routers), for devices that
  // drive the ports themselves (NetEngine::set_external): the injection port's ready, the
  // ejection port's valid and flit (engine().words() words, valid until the next step()).
  struct PortOut {
    bool inj_ready = false, ej_valid = false;
    const uint32_t* ej_data = nullptr;
  };
  virtual PortOut port_out(unsigned n);

  // The multiphase barrier's ports (spec().barrier: net_mesh with Barrier = 1; docs/barrier.md).
  // set_barrier_k: K, the number of phases of a half barrier (taken at each enter). Per node n and
  // cycle, before step(): drive_barrier sets its enter request (full: a full barrier) and its
  // readiness to leave; barrier_out reads the unit's registered outputs (the state after the last
  // edge: the handshakes of the coming edge are enter_valid && enter_ready, leave_valid &&
  // leave_ready). A network without the barrier throws std::logic_error.
  struct BarrierOut {
    bool enter_ready = false, leave_valid = false, busy = false;
    unsigned phase = 0;  // phases completed in the current barrier
  };
  virtual void set_barrier_k(unsigned k);
  virtual void drive_barrier(unsigned n, bool enter_valid, bool full, bool leave_ready);
  virtual BarrierOut barrier_out(unsigned n);

  // Per-link and per-router statistics (net_linkstats.hpp), gathered by run() (in its measurement
  // window) and run_until_drained() (every cycle, unless the probe's window was set after start()).
  // Off by default. enable_link_stats() (again) starts them over.
  LinkProbe& enable_link_stats();
  void disable_link_stats() { probe_.reset(); }
  const LinkProbe* link_probe() const { return probe_.get(); }
  LinkProbe* link_probe() { return probe_.get(); }

  // Reset and start a run with rc (queues empty, creation per rc.traffic).
  void start(const NetRunConfig& rc);
  // A full measurement run (see net_engine.hpp). Throws NetCheckError, Stall, AssertionFailed.
  NetStats run(const NetRunConfig& rc);
  // Step until nothing is outstanding (creation must be off or exhausted); throws Stall via the
  // watchdog, Timeout after max_cycles. Checks that the network is empty. Returns cycles run.
  uint64_t run_until_drained(uint64_t max_cycles = UINT64_MAX);

  // One cycle and, with link statistics on, one sample of the routers' state (run(),
  // run_until_drained() and NetFabric step with it; step() alone samples nothing).
  void advance() {
    step();
    if (probe_) sample_state(*probe_, probe_->counting(engine_.now() - 1));
  }

 protected:
  // The routers' state into the probe (rtr_state.hpp's sampler over every model of the network;
  // a network without router state, tb/net's fake mesh, counts nothing).
  virtual void sample_state(LinkProbe& probe, bool count) {
    if (count) probe.counted_cycle();
  }

  NetEngine engine_;
  std::unique_ptr<LinkProbe> probe_;
  NetFairness fair_;
};

// The proven bounds of the starvation backstop (docs/router.md#starvation-freedom), for
// ejection ports that always accept. With T > 0, a packet waits in one router at most
//   W = T + 1 + Phi * G cycles, Phi = R * (2n+1) * B * (H+1) (packets; DOR-WH: flits, times
//   PktFlits), G = PktFlits + 4,
// R routers, n dimensions, B = buf_pkts, H the diameter. Its age (creation to the tail's
// ejection, source queue of at most Q packets included) is at most
//   A = Q * (W + P + Phi * G + 3) + (H + 1) * (W + P + 2) + P.
// Both are UINT64_MAX when T = 0 (the backstop off: no bound).
uint64_t starvation_wait_bound(const NetSpec& s, unsigned starve_t);
uint64_t starvation_age_bound(const NetSpec& s, unsigned starve_t, uint64_t queue_cap);

// Peak resident memory of this process so far (getrusage), KiB.
long peak_rss_kib();

// A rough wall-clock estimate of `cycles` simulated cycles of network `s` (router-cycles per
// second measured on the project's 2-core machine; a network joined from blocks is slower), to
// say up front what a long run will cost; the progress lines measure the real speed.
double estimate_run_s(const NetSpec& s, uint64_t cycles);

// --- the built models ---
struct NetModelInfo {
  NetSpec spec;
  std::unique_ptr<NetSimBase> (*make)(const NetSpec&, TraceWindow);
};
// The generated table (hpcnet_model_table: every Vnet_mesh_* and Vnet_torus_* with its -G parameters
// and Threads) and the specs derived from it, in the order rtl/router/models.cmake adds them.
using NetMake = std::unique_ptr<NetSimBase> (*)(const NetSpec&, TraceWindow);
const std::vector<ModelEntry<NetMake>>& net_model_entries();
const std::vector<NetModelInfo>& net_models();
// The model named `model` ("Vnet_mesh_8x8_adbr" or "8x8_adbr") with buffers of buf_pkts packets
// (0: the model's default, 2 or the DBFC minimum); throws std::invalid_argument listing the built
// models when there is none, or naming the limits for a depth the model cannot run.
std::unique_ptr<NetSimBase> make_net(const std::string& model, TraceWindow trace = {});
std::unique_ptr<NetSimBase> make_net(const std::string& model, unsigned buf_pkts, TraceWindow trace = {});
// A model with this shape and mode that runs buffers of buf_pkts packets (0: the default depth),
// split for `threads` threads (1: the whole mesh in one model), the smallest such model (fewest
// slots: the fastest); nullptr if none is built (make_net then joins blocks, find_block).
const NetModelInfo* find_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1);
// The network of this shape and mode with the multiphase barrier built in (Vnet_bar_*, spec.barrier)
// that runs buffers of buf_pkts packets (0: the default depth); nullptr if none is built. find_net
// never returns one (their phase units cost simulation time); make_net(model name) does.
const NetModelInfo* find_barrier_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0);
std::string barrier_net_list();  // "4x4 adbr (buffers up to 3), ..."
// That network, or std::invalid_argument naming the ones built.
std::unique_ptr<NetSimBase> make_barrier_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, TraceWindow trace = {});
// That model's spec with buf_pkts (0: its default depth).
NetSpec net_spec(const NetModelInfo& m, unsigned buf_pkts);
// The whole-mesh (or split) model when one is built (find_net), else the network joined from
// blocks (find_block, NetJoined); throws std::invalid_argument with net_unavailable's
// message when neither exists.
std::unique_ptr<NetSimBase> make_net(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1,
                                     TraceWindow trace = {});
std::string net_model_list();  // "Vnet_mesh_2x2_adbr (2x2 adbr b2), ..."

// Blocks (Vnet_blk_*, rtl/router/models.cmake) that tile a network of any size (NetJoined,
// net_joined.hpp): spec.shape is the block's shape, spec.block its size.
const std::vector<ModelEntry<NetMake>>& net_block_entries();
const std::vector<NetModelInfo>& net_blocks();
// The block that tiles `shape` in `mode` and runs buffers of buf_pkts packets (0: the default
// depth): the same dimensions and topology (a torus: a block that divides every radix), the
// largest such block (fewest models per cycle); nullptr if none is built.
const NetModelInfo* find_block(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1);
// The spec of the network `shape` joined from block m, with buf_pkts (0: the default depth), on
// `threads` threads.
NetSpec joined_spec(const NetModelInfo& m, const MeshShape& shape, unsigned buf_pkts, unsigned threads = 1);
// Why the blocks of spec s (NetSpec::model_block: a joined network's or a split mesh's) cannot
// build its network (empty if they can): a torus needs blocks that divide every radix; T threads
// need the blocks' rows along the highest dimension (Y in 2-D, Z in 3-D) in T equal groups of
// whole blocks.
std::string joined_error(const NetSpec& s);
// The network joined from blocks even when a whole-mesh model is built (tests, speed comparisons);
// throws std::invalid_argument when no block tiles it.
std::unique_ptr<NetSimBase> make_joined(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1);
// The modes `shape` can run in on `threads` threads: a whole-mesh (or split) model, or a block
// that tiles it. In the order adbr, dorvct, dorwh.
std::vector<NetMode> net_modes_for(const MeshShape& shape, unsigned threads = 1);
// Why make_net(shape, mode, buf_pkts, threads) cannot build the network: a depth below the minimum
// of the mode (DBFC, the bubble rule) or above what the models run, or neither a model nor a block
// for it (the message names what is built); empty if it can.
std::string net_unavailable(const MeshShape& shape, NetMode mode, unsigned buf_pkts = 0, unsigned threads = 1);

}  // namespace hpcnet::sim
