// burst_tb.hpp: harness of ssm_burst (model Vssm_burst: 5 PEs x 4 threads = 20 windows, 2 slots)
// with the project's host memory (hpcnet::sim::HostMemory) on its DMA port, and the host
// reference of a burst reduce.
//   BurstTb::post() queues arrivals; cycle() drives one clock cycle: arrivals (optionally with
//   random gaps), the completion stream (optionally with random back-pressure) and the memory.
//   Every DMA request is recorded (accept cycle, kind, address, length).
//   check_group() compares a finished group against the reference and returns the list of
//   problems found (empty = pass), so that the mutation tests can show that it does fail.
// Reference (documented combine order): element-wise, members in ascending window index:
//   r[i] = ((s_w0[i] op s_w1[i]) op s_w2[i]) ...   with ssm_alu's semantics: double sum = the
//   host's SSE addsd with the running result as first operand; double max/min: -0 < +0, a NaN
//   running result stays (quieted), else a NaN member value wins (quieted).
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "Vssm_burst.h"
#include "sim/core/harness.hpp"
#include "sim/host/host_memory.hpp"
#include "hpcnet/tb/alu_ref.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/fp_ref.hpp"
#include "hpcnet/tb/red_codes.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/ssm_ret.hpp"
#include "hpcnet/tb/seed.hpp"

namespace bursttb {

using hpcnet::tb::seed;

constexpr unsigned kWin = 20, kThreads = 4;
using namespace hpcnet::tb::red;  // kInt64, kUint64, kDouble, kInt32, kSum, kMax, kMin
constexpr unsigned kStateOk = static_cast<unsigned>(hpcnet::ssm_regs::State::OK);
constexpr unsigned kStateMismatch = static_cast<unsigned>(hpcnet::ssm_regs::State::ERR_MISMATCH);
constexpr unsigned kOpcodeBurst = static_cast<unsigned>(hpcnet::ssm_regs::Opcode::BURST);
inline unsigned elem_bytes(unsigned type) { return type == kInt32 ? 4 : 8; }

// ---------------------------------------------------------------- reference
using hpcnet::tb::bits;
// One element: acc op x (element of 4 or 8 bytes, little-endian in the low bytes): the ALU's
// reference (hpcnet/tb/alu_ref.hpp), an int32 element in its low lane.
inline std::uint64_t combine(unsigned type, unsigned op, std::uint64_t acc, std::uint64_t x) {
  const std::uint64_t r = hpcnet::tb::alu_ref(type, op, acc, x);
  return type == kInt32 ? std::uint32_t(r) : r;
}

// ---------------------------------------------------------------- groups
struct Member {
  unsigned win = 0, ret = 0;
  std::uint64_t src = 0, dest = 0;
  // arrival fields that may differ from the group (poisoning)
  unsigned group = 0, type = 0, op = 0;
  std::uint32_t len = 0;
};
struct Completion : hpcnet::tb::SsmRet {
  std::uint64_t cycle = 0;
};
struct DmaRec {
  std::uint64_t cycle = 0;  // accepted
  bool write = false;
  std::uint64_t addr = 0;
  unsigned len = 0;
};

struct Group {
  unsigned type = kInt64, op = kSum, size = 0;
  std::uint32_t len = 0;
  std::vector<Member> m;                      // in arrival order
  bool poisoned = false;                      // expected outcome
  std::vector<std::vector<std::uint8_t>> src_img;  // source contents before the run, by arrival
  std::vector<std::uint8_t> result;           // reference result
  std::vector<Completion> done;               // completions received
  std::uint64_t last_arrival = 0;             // cycle of the last arrival's handshake
  std::uint64_t first_read = UINT64_MAX;      // first DMA read of the group (accept cycle)
};

// Reference result of a group, members in ascending window order.
std::vector<std::uint8_t> reference(const Group& g, bool arrival_order = false);

struct TbConfig {
  hpcnet::sim::MemConfig mem{};
  double arrival_gap = 0.0;  // probability of an idle cycle before each arrival
  double ret_stall = 0.0;    // probability that ret_ready_i is low in a cycle
  std::uint64_t seed = 1;
};

class BurstTb {
 public:
  explicit BurstTb(TbConfig cfg = {});
  Vssm_burst& m() { return h_.dut(); }
  hpcnet::sim::HostMemory& mem() { return mem_; }
  std::uint64_t now() const { return h_.cycles(); }

  // Queue a group's arrivals (in its member order); snapshots the sources for the reference.
  // The group is referenced until it is complete; keep it alive.
  void post(Group& g);
  void cycle();
  // Run until every posted group has all its completions (throws on timeout).
  void run(std::uint64_t max_cycles = 20'000'000);
  bool idle() const;

  const std::vector<DmaRec>& dma() const { return dma_; }
  std::uint64_t cycles_in_reset() const { return reset_cycles_; }

  // Problems of a finished group: results, untouched guard bytes and sources, completions,
  // DMA ranges, data before answers. Empty when everything matches.
  std::vector<std::string> check_group(const Group& g, std::uint64_t guard = 64);

 private:
  hpcnet::sim::Harness<Vssm_burst> h_;
  hpcnet::sim::HostMemory mem_;
  hpcnet::sim::DmaPort port_;
  TbConfig cfg_;
  hpcnet::tb::Rng rng_;
  struct Pending {
    Group* g;
    std::size_t idx;
  };
  std::deque<Pending> arrivals_;
  std::deque<Group*> open_;  // groups with completions outstanding, in posting order
  bool held_ = false;  // an arrival offered and not yet taken
  std::vector<DmaRec> dma_;
  std::uint64_t reset_cycles_ = 0;
  std::vector<Completion> stray_;
};

// Buffers for a random group: each member gets a src and a dest region (with guard bytes around
// them, filled with random data); misalignment random (element-aligned) unless aligned is set.
struct GroupSpec {
  unsigned type = kInt64, op = kSum, members = 2;
  std::uint32_t len = 64;
  bool in_place = false, aligned = false;
  std::vector<unsigned> wins;  // empty: random distinct windows
  bool special = false;        // doubles: sprinkle NaN, infinities, signed zeros, subnormals
};
Group make_group(hpcnet::sim::HostMemory& mem, hpcnet::tb::Rng& rng, const GroupSpec& spec);

// DMA utilization of one group: total DMA bytes / cycles from the last arrival to the last
// completion, divided by the port's peak (bytes_per_cycle).
struct Util {
  std::uint64_t cycles = 0, bytes = 0, latency_first_read = 0;
  double util = 0;
};
Util measure(unsigned members, std::uint32_t len, unsigned type = kDouble, bool aligned = true,
             std::uint64_t seed = 1);

}  // namespace bursttb
