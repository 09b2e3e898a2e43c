// sim/net/traffic/net_trace.hpp: packet traces, a traffic source read from a file (docs/net_sim.md, Trace-driven
// traffic). Text, one message a line, fields separated by blanks:
//
//   # comment (a '#' starts a comment anywhere on a line; blank lines are skipped)
//   <time> <src> <dst> <size>
//
//   time  creation cycle (an unsigned integer up to kMaxTraceTime), never below the previous line's time
//   src   source node id (0..nodes-1, id = x + K0*(y + K1*z)); dst likewise (src == dst: a
//         zero-hop message through its own router, as in the scripted all-to-all tests)
//   size  flits (an integer >= 1, at most kMaxTraceFlits): the message becomes ceil(size /
//         PktFlits) packets of the model's fixed PktFlits flits, all created at `time` (the last
//         one padded to a whole packet; PacketTrace::padded_flits counts the padding)
//
// Every error names the file and the line; a folder, an unreadable file and a trace with no
// packet are errors too. NetEngine::set_trace() makes a trace the source of its
// packets (instead of the Bernoulli generation; the offered load is then ignored).
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "sim/net/net_types.hpp"

namespace hpcnet::sim {

inline constexpr uint64_t kMaxTraceFlits = 1u << 20;
inline constexpr uint64_t kMaxTraceTime = uint64_t{1} << 40;  // the longest measurement `net-run` takes

struct TraceRecord {
  uint64_t time = 0;
  uint32_t src = 0, dst = 0;
  uint32_t flits = 0;    // as written
  uint32_t packets = 0;  // ceil(flits / PktFlits)
  unsigned line = 0;     // line in the file (1-based)
};

struct PacketTrace {
  std::string name;  // the file, for messages
  unsigned pkt_flits = 5;
  std::vector<TraceRecord> records;  // in file order (times non-decreasing)
  uint64_t packets() const;
  uint64_t padded_flits() const;  // flits added to round messages up to whole packets
  uint64_t last_time() const { return records.empty() ? 0 : records.back().time; }
  // The cycles a run simulates when the idle ones are skipped (NetRunConfig::skip_idle), roughly:
  // each message keeps the network busy for its flits plus `transit` cycles (and the quiet time
  // before a skip), overlapping busy spans merged.
  uint64_t busy_cycles(uint64_t transit) const;
};

// Parses a trace for a network of `shape` with packets of pkt_flits flits; throws
// std::invalid_argument "<name>:<line>: <what>" on the first error.
PacketTrace parse_trace(std::istream& in, const std::string& name, const MeshShape& shape, unsigned pkt_flits);
PacketTrace load_trace(const std::string& path, const MeshShape& shape, unsigned pkt_flits);

}  // namespace hpcnet::sim
