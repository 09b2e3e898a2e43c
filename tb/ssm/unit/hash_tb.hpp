// hash_tb.hpp: harness of ssm_hash (model Vssm_hash: 2 clients, 16 sets, 4 banks, 4 ways).
// The harness plays the clients (lookup -> answer -> commit, with random idle cycles and commit
// delays), serves the DMA port from a byte-addressed host memory (in-order completion, random
// latency and back-pressure) and hands overflow chunks over (ovf_add). Every answer is checked
// against a reference map applied in commit order; every update broadcast against the commits.
// check_quiet() compares the entry counters and the overflow nodes in host memory (format
// ovf_node of ssm_regs.toml) with the reference.
#pragma once
#include <catch2/catch.hpp>

#include <array>
#include <deque>
#include <functional>
#include <map>
#include <ostream>
#include <random>
#include <set>
#include <vector>

#include "Vssm_hash.h"
#include "sim/core/harness.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/rng.hpp"
#include "unit_util.hpp"

namespace ssmu {

constexpr unsigned kSets = 16, kWays = 4, kBanks = 4, kClients = 2;
constexpr std::uint64_t kMask48 = (1ull << 48) - 1;

// set = addr[47:3] XOR-folded into 4 bits (set_of in ssm_hash_port.sv).
inline unsigned set_of(std::uint64_t a) {
  std::uint64_t t = (a & kMask48) >> 3;
  unsigned s = 0;
  for (; t; t >>= 4) s ^= unsigned(t & 15);
  return s;
}
inline unsigned bank_of(std::uint64_t a) { return set_of(a) % kBanks; }
// An 8-byte aligned address of set s, derived from any address a (flips addr[6:3]).
inline std::uint64_t addr_in_set(std::uint64_t a, unsigned s) {
  a &= kMask48 & ~7ull;
  return a ^ (std::uint64_t(set_of(a) ^ s) << 3);
}

struct Commit {
  bool write = false;
  Entry e;
  unsigned delay = 0;  // cycles between the answer and cm_valid
};
using Decide = std::function<Commit(bool hit, const Entry& seen)>;
struct Job {
  std::uint64_t addr = 0;
  Decide decide;
};
struct Done {
  std::uint64_t addr = 0;
  bool hit = false, write = false;
  Entry seen, committed;
  std::uint64_t grant = 0, answer = 0, commit = 0;  // cycles
};
struct DmaLog {
  bool write;
  std::uint64_t addr;
  unsigned len;
  std::uint64_t cycle;
};

class HashTb {
 public:
  hpcnet::tb::Rng rng;
  std::uint64_t cycle = 0;  // rising edges so far (reset included); the harness's cycles()
  // knobs
  unsigned max_idle = 0, max_delay = 0;     // client idle cycles / commit delay (random 0..max)
  unsigned lat_min = 1, lat_max = 1;        // DMA read latency
  unsigned dma_ready_pct = 100;             // DMA back-pressure
  bool auto_chunk = false;                  // add a chunk when exhausted
  unsigned auto_chunk_nodes = 3;
  // reference
  std::map<std::uint64_t, Entry> ref;
  std::set<std::uint64_t> onchip, ovf;      // where each live entry is
  std::vector<std::pair<std::uint64_t, unsigned>> chunks;  // overflow chunks handed over
  std::map<std::uint64_t, std::uint8_t> mem;  // host memory
  std::vector<DmaLog> dma_log;
  std::uint64_t updates = 0;

  struct Client {
    enum St { Idle, Req, Wait, Delay, Cm } st = Idle;
    std::deque<Job> jobs;
    Job cur;
    Commit cm;
    Done rec;
    unsigned wait = 0;
    std::vector<Done> done;
  };
  std::array<Client, kClients> cl;

  explicit HashTb(std::uint64_t seed) : rng(seed) { reset(); }
  Vssm_hash& m() { return h_.dut(); }

  unsigned rnd(unsigned lo, unsigned hi) { return rng.rnd(lo, hi); }
  bool pct(unsigned p) { return rng.pct(p); }

  // Synchronous reset; the harness forgets its reference (the table should be empty after it).
  void reset() {
    hpcnet::tb::sync_reset(h_);
    cycle = h_.cycles();
    ref.clear();
    onchip.clear();
    ovf.clear();
    chunks.clear();
  }

  // Hands a chunk of n 32-byte nodes at base to the overflow engine (one-cycle pulse).
  void add_chunk(std::uint64_t base, unsigned n) {
    if (!chunks.empty()) REQUIRE(h_->ovf_bump_left_o == 0);  // the old chunk is used up
    chunks.push_back({base, n});
    add_pending_ = true;
  }
  std::uint64_t next_chunk_base() const { return 0x100000 + 0x1000 * chunks.size(); }

  void push(unsigned c, std::uint64_t addr, Decide d) { cl[c].jobs.push_back({addr, std::move(d)}); }
  bool quiet() const {
    for (auto& c : cl) if (c.st != Client::Idle || !c.jobs.empty()) return false;
    return true;
  }
  void run_quiet(std::uint64_t max_cycles = 100000) {
    std::uint64_t end = cycle + max_cycles;
    while (!quiet()) {
      REQUIRE(cycle < end);
      step();
    }
  }
  void run(unsigned n) { for (unsigned i = 0; i < n; ++i) step(); }
  // One lookup + commit by client c, run to completion.
  Done op(unsigned c, std::uint64_t addr, Decide d) {
    push(c, addr, std::move(d));
    run_quiet();
    return cl[c].done.back();
  }

  // Host memory peeks (no side effects).
  std::uint64_t peek64(std::uint64_t a) const {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < 8; ++i) {
      auto it = mem.find(a + i);
      REQUIRE(it != mem.end());
      v |= std::uint64_t(it->second) << (8 * i);
    }
    return v;
  }

  void step();
  void check_quiet();

 private:
  hpcnet::sim::Harness<Vssm_hash> h_{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  struct Rd {
    std::uint64_t due;
    std::array<std::uint8_t, 32> data;
  };
  std::deque<Rd> rd_q_;
  bool add_pending_ = false;
  unsigned exhausted_for_ = 0, chunk_wait_ = 0;
  bool held_[kClients] = {};

  void tick() {
    hpcnet::tb::tick(h_);
    cycle = h_.cycles();
  }
  void drive_client(unsigned c);
  void sample_client(unsigned c);
  void drive_dma();
  void sample_dma();
  void apply_commit(unsigned c);
};

}  // namespace ssmu
