// bench/link/link_faults.hpp: faults on the link of the two-node NIC system from the command line
// (--link-ber, --link-burst, --link-drop, --link-repeat, --link-ctl, --link-dead AT:CYCLES,
// --link-seed; docs/link.md section 10), shared by `hpcnet nic`, `nic-demo` and `link`, and the
// link layer's counters read back from both NICs (LINK_STATUS, LINK_DROPS).
//
// The faults start with the measured traffic (arm()): the set-up before it (driver
// initialisation, buffers, registration) runs on a perfect wire, and AT counts from there. Both
// directions get the same rates, each wire its own random source (sim::NicBackToBack: from
// --link-seed).
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "common/results.hpp"
#include "sim/nic/nic_pair.hpp"

namespace hpcnet::bench {

struct LinkFaultOptions {
  double ber = 0, burst = 0, drop = 0, repeat = 0;  // per flit
  double ctl = 0;                                   // per control word: a bit error, and (apart) a loss
  std::string dead;                                 // AT:CYCLES as given
  uint64_t dead_at = 0, dead_cycles = 0;            // parsed (dead_cycles 0: no dead window)
  uint64_t seed = 1;

  static constexpr double kMaxRate = 0.01;
  // A rate option's check: 0 to kMaxRate ("Value 0.5 not in range 0 to 0.01").
  static const CLI::Validator& rate();
  // The options; `what` says which runs they apply to (in the help).
  void add(CLI::App& app, const std::string& what);
  // Parses --link-dead (UsageError for a bad value); call before anything runs.
  void check();
  bool any() const { return ber > 0 || burst > 0 || drop > 0 || repeat > 0 || ctl > 0 || dead_cycles > 0; }
  // "bit errors 1e-04 per flit, control words 1e-03, dead 5000:2000 after the traffic starts, seed 1" or "none".
  std::string text() const;
  // The seed into the system's configuration (the rates come with arm()).
  void config(sim::NicPairConfig& c) const { c.link_seed = seed; }
  // Both directions faulty from now on (the dead window AT cycles from now).
  void arm(sim::NicBackToBack& link) const;
  // Configuration columns of a tidy table (only when any(): a fault-free table keeps its columns).
  void columns(Results& r) const;
};

// The link layer's counters of both NICs and the wires' fault logs after a run. Index: the node
// whose sender (replays, timeouts) or receiver (drops) it is; faults[i]: on the wire from node i.
struct LinkStats {
  uint64_t replays[2] = {0, 0}, timeouts[2] = {0, 0};
  uint64_t crc[2] = {0, 0}, framing[2] = {0, 0}, seq[2] = {0, 0}, dup[2] = {0, 0};
  uint64_t flit_faults[2] = {0, 0}, ctl_faults[2] = {0, 0};
  uint64_t flits[2] = {0, 0};  // flits put on the wire from node i
  uint64_t dirty(unsigned n) const { return crc[n] + framing[n]; }
  uint64_t drops(unsigned n) const { return crc[n] + framing[n] + seq[n] + dup[n]; }
};
// Reads LINK_STATUS and LINK_DROPS on both nodes (a simulated thread each: a few hundred cycles)
// and the wires' logs.
LinkStats read_link_stats(sim::NicPair& pair);

}  // namespace hpcnet::bench
