// sim/net/traffic/net_engine.hpp: everything around a mesh that does not depend on the Verilated
// model class: packet creation (Bernoulli per node, or scripted), unbounded per-node source
// queues, the flits presented on the injection ports, the checker on the ejection ports,
// the run's statistics (NetStats, stats/net_stats.hpp) and the deadlock/livelock watchdog.
//
// Per cycle a driver (NetSim<V>, NetJoined<V>, or a fake network in the tests) calls, in this order:
//   begin_cycle()        packets created in this cycle enter their source queues
//   for n in changed():  copy presenting(n) / stage(n) to inj_valid_i[n] / inj_data_i[n]
//   clear_changed()
//   (ej_ready_bits() to ej_ready_i when ej_backpressure())
//   settle the model (clk low): handshakes are sampled now
//   accepted(n)          for every n with inj_valid && inj_ready
//   ejected(n, words)    for every n with ej_valid && ej_ready (words = ej_data_o lane n)
//   clock edge
//   (moved(count): the network's internal progress counter, when the driver has one)
//   end_cycle()          cycle count, watchdog
// Only nodes whose injection port changes appear in changed(); only valid ejection lanes are read.
//
// Shards (set_shards(k), NetJoined on k threads): the nodes in k equal ranges, one per thread. Then
// begin_cycle() is begin_serial() (the ejection ready bits) and, on shard s's own thread,
// generate(s); changed(s), inj_valid_bits(s), accepted(n) and ejected(n) of shard s's nodes run on
// that thread too, touching only that shard's state and its nodes' (the checker's checks of an
// ejection port, its sources' records of injection). What needs every node (settling heads and
// tails with their sources' records, delivery statistics, the sums) runs in end_cycle(), on one
// thread, in node order: the results do not depend on the number of shards.
//
// Methodology (NetSimBase::run, Dally & Towles ch. 23): cycles [0, warmup) warm the network up;
// packets created in [warmup, warmup + measure) are tagged; the run continues with the same
// offered load until every tagged packet is delivered (or drain_limit cycles have passed);
// optionally creation then stops and the network is drained completely, so that the checker can
// confirm that every packet arrived. A point is stable (NetStats::stable) when both hold: the
// tagged packets all arrived within the drain limit, and the accepted throughput kept up with the
// offered one within kStableTolerance (beyond saturation the source queues grow and it does not).
// Latency = cycle of the tail's ejection - creation cycle (source queueing included).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/net/net_types.hpp"
#include "sim/net/stats/net_stats.hpp"
#include "sim/net/traffic/net_checker.hpp"
#include "sim/net/traffic/net_trace.hpp"
#include "sim/net/traffic/net_traffic.hpp"

namespace hpcnet::sim {

struct TrafficConfig {
  PatternConfig pattern;
  double load = 0.1;     // offered load, flits/node/cycle: a packet with probability load/pkt_flits per cycle
  uint64_t seed = 1;
  size_t max_queue = 0;  // packets per source queue; 0 = unbounded. A full queue creates nothing (counted
                         // as throttled): keeps saturated stress runs at offered load 1.0 in bounded memory.
};

struct NetRunConfig {
  TrafficConfig traffic;
  uint64_t warmup = 10000;
  uint64_t measure = 20000;
  uint64_t drain_limit = 50000;  // cycles after the window for the tagged packets; beyond: unstable
  enum class Drain { never, if_stable, always };
  Drain final_drain = Drain::if_stable;  // stop creating and deliver every packet at the end (if_stable:
                                         // when the tagged packets all arrived in the drain limit)
  uint64_t watchdog = 20000;        // cycles without any flit injected or ejected while packets are outstanding
  uint64_t max_packet_age = 1000000;  // cycles a packet may spend in the network (starvation/livelock)
  double ej_ready_prob = 1.0;       // < 1: each ejection port is ready with this probability each cycle
  bool progress = false;            // a progress line on stderr every few seconds
  // Jump over idle cycles: when nothing has been outstanding for kIdleQuiet cycles (the routers'
  // credits and state settled) and no packet is due before cycle T, the run goes on at T (a
  // trace's gaps; the cycle counts and latencies stay exact). Off while the model is traced (the
  // waveform's cycle counter is the model's) and with ejection back-pressure (a random draw a cycle).
  bool skip_idle = false;
};
inline constexpr uint64_t kIdleQuiet = 64;

class NetEngine {
 public:
  explicit NetEngine(const NetSpec& spec);

  const NetSpec& spec() const { return spec_; }
  unsigned nodes() const { return nodes_; }
  unsigned words() const { return words_; }

  // Start over: empty queues, cycle 0, fresh random streams; creation on if load > 0.
  void configure(const NetRunConfig& rc);
  // Scripted traffic: one packet from src to dst created now (src == dst allowed: zero hops), never
  // throttled (max_queue limits the generated packets only); returns its sequence number, the seq
  // of its tag (PacketTag, Delivery) at delivery.
  uint32_t enqueue(unsigned src, unsigned dst);
  void set_generation(bool on) { gen_on_ = on && (load_ > 0 || trace_); }
  // A packet trace (net_trace.hpp) as the source of the packets from the next configure() on,
  // instead of the Bernoulli generation (the offered load is ignored); nullptr: back to it.
  void set_trace(std::shared_ptr<const PacketTrace> t) { trace_ = std::move(t); }
  // The first cycle >= now() in which a packet is due to be created (generation or trace);
  // UINT64_MAX: none.
  uint64_t next_creation() const;
  // Jump to cycle t > now() with nothing outstanding (the cycles between are idle: nothing due).
  void skip_to(uint64_t t);
  // Trace records whose packets are not created yet.
  bool trace_pending() const { return trace_ && trace_left_ > 0; }
  // Every delivery (tagged or not) kept in deliveries() from the next configure() on (off by default).
  void record_deliveries(bool on) { log_on_ = on; }
  const std::vector<Delivery>& deliveries() const { return log_; }
  void set_window(uint64_t begin, uint64_t end) { win_begin_ = begin; win_end_ = end; }

  // Nodes in k equal shards (k divides the node count; 1 after construction). Between runs.
  void set_shards(unsigned k);
  unsigned shards() const { return static_cast<unsigned>(shard_.size()); }
  unsigned shard_nodes() const { return shard_n_; }

  // External ports (a fabric that joins devices to the routers, sim/machine): from set_external(true)
  // on (after configure(), on one shard) the engine creates and checks no packet; per cycle,
  // before the driver's step(), the devices set each node's injection flit (drive_port: valid
  // and words() words, copied) and ejection ready (set_ej_ready); accepted() and ejected() count
  // the flits moved (port_flits(), the watchdog's progress) and the devices see the handshakes
  // themselves (NetSimBase::port_out: the routers' registered outputs).
  void set_external(bool on);
  bool external() const { return external_; }
  void drive_port(unsigned n, bool valid, const uint32_t* flit);
  void set_ej_ready(unsigned n, bool ready) {
    uint64_t& w = ej_ready_[n >> 6];
    w = ready ? w | 1ull << (n & 63) : w & ~(1ull << (n & 63));
  }
  uint64_t port_flits() const { return port_flits_; }

  // --- the per-cycle protocol (see the file comment) ---
  void begin_cycle() {
    begin_serial();
    for (unsigned s = 0; s < shards(); ++s) generate(s);
  }
  void begin_serial();       // the ejection ready bits (back-pressure)
  void generate(unsigned s); // packets of shard s's nodes created in this cycle
  // Shard s's nodes whose injection port changed (node ids)
  const std::vector<uint32_t>& changed(unsigned s = 0) const { return shard_[s].changed; }
  void clear_changed(unsigned s = 0) {
    Shard& sh = shard_[s];
    for (uint32_t n : sh.changed) sh.flag(n) = 0;
    sh.changed.clear();
  }
  bool presenting(unsigned n) const {
    const Shard& sh = shard_[n / shard_n_];
    const unsigned l = n - sh.lo;
    return (sh.bits()[l >> 6] >> (l & 63)) & 1;
  }
  const uint32_t* stage(unsigned n) const { return &stage_[static_cast<size_t>(n) * words_]; }
  // shard s's injection valid bits, bit l = node lo + l (one shard: bit n = node n)
  const uint64_t* inj_valid_bits(unsigned s = 0) const { return shard_[s].bits(); }
  unsigned chunks() const { return (shard_n_ + 63) / 64; }  // 64-node words of a shard's bits
  bool ej_backpressure() const { return ej_prob_ < 1.0 || external_; }
  const uint64_t* ej_ready_bits() const { return ej_ready_.data(); }  // bit n = node n
  void accepted(unsigned n);
  // w is read now (a copy is kept for end_cycle() when the flit is a head or a tail)
  void ejected(unsigned n, const uint32_t* w);
  // The network's count of flits moved through its crossbars (any value that changes when a flit
  // moves inside): tells a deadlock (nothing moves) from starvation or livelock in the watchdog's
  // message. Optional.
  void moved(uint32_t count) {
    if (count != moved_) {
      moved_ = count;
      last_move_ = now_;
    }
    has_moves_ = true;
  }
  void end_cycle();
  // The network's own state for the watchdog's message (NetSim: the routers' blocked buffers).
  void set_state_dump(std::function<std::string()> f) { state_dump_ = std::move(f); }

  uint64_t now() const { return now_; }
  uint64_t outstanding() const { return stats_.created - checker_.delivered_packets(); }  // queued or in flight
  uint64_t tagged_outstanding() const { return stats_.tagged - stats_.tagged_delivered; }
  size_t queue_length(unsigned n) const { return src_[n].q.size(); }
  // Packets source n created since configure() (generated and scripted), and of those the ones its
  // injection port has taken whole (tail accepted): sequence numbers below src_taken(n).
  uint64_t src_created(unsigned n) const { return src_[n].seq + src_[n].q.size(); }
  uint64_t src_taken(unsigned n) const { return src_[n].seq; }
  // Packets of source n delivered since configure() (tagged or not).
  uint64_t src_delivered(unsigned n) const { return src_del_[n]; }
  // The oldest age now (queued or in flight) into stats().max_age; the fewest deliveries by a
  // source with packets into stats().min_src_delivered / min_src (end_cycle samples the age every
  // 1024 cycles; run() calls this at its end).
  void sample_ages();
  uint32_t pair_count(unsigned src, unsigned dst) const { return pairs_[static_cast<size_t>(src) * nodes_ + dst]; }
  NetChecker& checker() { return checker_; }
  const NetChecker& checker() const { return checker_; }
  const NetStats& stats() const { return stats_; }
  NetStats& stats() { return stats_; }
  // Human-readable state: source queues, packets in flight and, with a state dump, the network's
  // buffers (the watchdog's message).
  std::string dump() const;

 private:
  struct QEntry {
    uint64_t created;
    uint32_t dst;
  };
  struct Src {
    GrowRing<QEntry> q{64};
    uint32_t seq = 0;       // sequence number of q.front()
    uint32_t flit = 0;      // flit of q.front() being presented
  };
  // A shard's own state: written only by the thread that runs it; summed in end_cycle(). The
  // arrays written every cycle have 64 guard bytes at both ends: no cache line is shared with
  // another shard's (a line written by two cores moves between them at every write).
  static constexpr unsigned kGuard = 64;
  struct alignas(64) Shard {
    unsigned lo = 0;                         // first node
    std::vector<uint64_t> valid;             // injection valid, bit l = node lo + l (bits())
    std::vector<uint8_t> flags;              // node lo + l is in `changed` (flag())
    uint64_t* bits() { return valid.data() + kGuard / 8; }
    const uint64_t* bits() const { return valid.data() + kGuard / 8; }
    uint8_t& flag(unsigned n) { return flags[kGuard + n - lo]; }
    std::vector<uint32_t> changed;           // nodes whose injection port changed
    std::vector<NetChecker::Pending> pend;   // heads and tails ejected in this cycle
    std::vector<uint32_t> pend_words;        // their flits, node lo + l at l * words
    uint64_t progress = 0, created = 0, throttled = 0, tagged = 0, injected = 0, flits = 0;
    uint64_t win_created_flits = 0, win_injected_flits = 0, win_ejected_flits = 0;
    size_t max_queue = 0;
  };
  Shard& shard_of(unsigned n) { return shard_[n / shard_n_]; }
  void create(unsigned n, uint32_t dst, bool scripted = false);
  void configure_trace();
  void generate_trace(unsigned lo);  // a shard's trace records due now
  void present(unsigned n);
  uint64_t gap(Rng& rng) const;
  void mark(unsigned n) {
    Shard& sh = shard_of(n);
    if (!sh.flag(n)) {
      sh.flag(n) = 1;
      sh.changed.push_back(n);
    }
  }
  void settle();  // end_cycle(): the shards' heads and tails, in node order, and their sums
  void delivered(const Delivery& d);  // a delivery's statistics
  [[noreturn]] void stall(const std::string& why) const;

  NetSpec spec_;
  unsigned nodes_, words_, flits_;
  NetChecker checker_;
  NodeCoords coords_;  // route fields of the head flits
  std::vector<Src> src_;
  std::vector<Rng> rng_;
  std::vector<uint64_t> next_gen_;
  std::vector<uint32_t> stage_;
  std::vector<uint64_t> ej_ready_;
  std::vector<Shard> shard_;
  unsigned shard_n_ = 0;  // nodes per shard
  std::vector<uint32_t> pairs_;
  std::vector<uint64_t> src_del_;    // per source: packets delivered
  std::vector<uint8_t> src_any_;     // per source: created or tried to create a packet
  Traffic traffic_;
  double load_ = 0, ej_prob_ = 1.0, log1mp_ = 0;
  bool gen_on_ = false;
  uint64_t win_begin_ = 0, win_end_ = 0;
  uint64_t watchdog_ = 0, max_age_ = 0;
  size_t max_queue_ = 0;
  std::function<std::string()> state_dump_;
  std::shared_ptr<const PacketTrace> trace_;
  std::vector<uint32_t> tr_begin_, tr_pos_, tr_rec_;  // trace records per source node (CSR of record indices)
  uint64_t trace_left_ = 0;
  bool log_on_ = false;
  bool external_ = false;
  uint64_t port_flits_ = 0;  // external ports: flits injected and ejected
  std::vector<Delivery> log_;
  // Written by the calling thread every cycle, from here on; the shards' threads read only now_
  // here (the members above stay in their caches).
  alignas(64) uint64_t now_ = 0;
  uint64_t progress_ = 0, last_progress_ = 0, last_change_ = 0;
  uint32_t moved_ = 0;
  uint64_t last_move_ = 0;
  bool has_moves_ = false;
  Rng ej_rng_;
  NetStats stats_;
};

}  // namespace hpcnet::sim
