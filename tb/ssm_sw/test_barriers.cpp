// test_barriers.cpp: software tournament and dissemination barriers on simulated shared memory:
// nobody leaves before the last participant arrives (a host-side arrival counter per episode),
// back-to-back reuse, and the textbook remote-write counts for P = 2..20.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hpcnet/baseline.hpp"
#include "sw_node.hpp"

using namespace hpcnet;
using namespace hpcnet::baseline;
using hpcnet::sim::test::SwNode;

namespace {

std::unique_ptr<Barrier> make(const std::string& kind, SharedMemory& mem, unsigned p) {
  if (kind == "tournament") return std::make_unique<TournamentBarrier>(mem, SwNode::cpus(p));
  return std::make_unique<DisseminationBarrier>(mem, SwNode::cpus(p));
}

// A small deterministic delay per (participant, episode) so that arrival orders vary.
uint64_t jitter(unsigned id, unsigned e) {
  uint64_t x = (uint64_t{id} * 0x9E3779B97F4A7C15ull) ^ (uint64_t{e} * 0xC2B2AE3D27D4EB4Full);
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return x % 400;
}

struct Outcome {
  uint64_t early_leaves = 0;  // a participant left episode e before all P had arrived at e
  uint64_t episodes_done = 0;
};

Outcome run_barriers(SwNode& n, Barrier& b, unsigned p, unsigned episodes, bool jittered) {
  std::vector<unsigned> arrived(episodes, 0);  // host side: not simulated memory, costs nothing
  Outcome o;
  n.run(p, [&](unsigned id) {
    for (unsigned e = 0; e < episodes; ++e) {
      if (jittered) n.shm.compute(jitter(id, e));
      ++arrived[e];
      b.wait(id);
      if (arrived[e] != p) ++o.early_leaves;
      ++o.episodes_done;
    }
  });
  return o;
}

}  // namespace

TEST_CASE("baseline: tournament roles follow MCS 1991", "[baseline]") {
  SwNode n;
  using R = TournamentBarrier::Role;
  TournamentBarrier b(n.shm, SwNode::cpus(5));
  CHECK(b.num_rounds() == 4);
  // Round 1: (0,1) (2,3), 4 has a bye; round 2: (0,2), 4 bye; round 3: 0 champion against 4.
  CHECK(b.role(0, 0) == R::Dropout);
  CHECK(b.role(0, 1) == R::Winner);
  CHECK(b.role(1, 1) == R::Loser);
  CHECK(b.role(4, 1) == R::Bye);
  CHECK(b.role(0, 2) == R::Winner);
  CHECK(b.role(2, 2) == R::Loser);
  CHECK(b.role(4, 2) == R::Bye);
  CHECK(b.role(0, 3) == R::Champion);
  CHECK(b.role(4, 3) == R::Loser);
  CHECK(b.role(1, 2) == R::Unused);
}

TEST_CASE("baseline: barriers hold everybody until the last arrival for P = 1..20", "[baseline]") {
  for (const std::string kind : {"tournament", "dissemination"})
    for (unsigned p = 1; p <= 20; ++p) {
      SwNode n;
      auto b = make(kind, n.shm, p);
      const unsigned episodes = 200;
      const Outcome o = run_barriers(n, *b, p, episodes, true);
      INFO(kind << " P=" << p);
      CHECK(o.early_leaves == 0);
      CHECK(o.episodes_done == uint64_t{episodes} * p);
    }
}

TEST_CASE("baseline: thousands of back-to-back barriers", "[baseline]") {
  for (const std::string kind : {"tournament", "dissemination"})
    for (unsigned p : {2u, 7u, 16u, 20u}) {
      SwNode n;
      auto b = make(kind, n.shm, p);
      const unsigned episodes = 3000;
      const Outcome o = run_barriers(n, *b, p, episodes, false);
      INFO(kind << " P=" << p);
      CHECK(o.early_leaves == 0);
      CHECK(o.episodes_done == uint64_t{episodes} * p);
    }
}

TEST_CASE("baseline: remote writes per barrier match the textbook counts for P = 2..20", "[baseline]") {
  for (unsigned p = 2; p <= 20; ++p) {
    const unsigned episodes = 25;
    unsigned lg = 0;
    while ((1u << lg) < p) ++lg;
    {
      SwNode n;
      TournamentBarrier b(n.shm, SwNode::cpus(p));
      run_barriers(n, b, p, episodes, true);
      const ShmStats s = n.shm.total();
      INFO("tournament P=" << p);
      CHECK(b.remote_writes_per_episode() == 2ull * (p - 1));
      CHECK(s.remote_writes == uint64_t{episodes} * 2 * (p - 1));
      CHECK(s.stores == s.remote_writes);  // every store is a flag of another participant
    }
    {
      SwNode n;
      DisseminationBarrier b(n.shm, SwNode::cpus(p));
      run_barriers(n, b, p, episodes, true);
      const ShmStats s = n.shm.total();
      INFO("dissemination P=" << p);
      CHECK(b.remote_writes_per_episode() == uint64_t{p} * lg);
      CHECK(s.remote_writes == uint64_t{episodes} * p * lg);
      CHECK(s.stores == s.remote_writes);
    }
  }
}

TEST_CASE("baseline: a barrier across PEs costs bus transactions and inside a PE only hits", "[baseline]") {
  // Two participants on one PE: the flags never leave the PE's cache after the first episode.
  SwNode same;
  {
    TournamentBarrier b(same.shm, {CpuId{0, 0}, CpuId{0, 1}});
    same.run(2, [&](unsigned id) {
      for (int e = 0; e < 10; ++e) b.wait(id);
    });
  }
  SwNode apart;
  uint64_t t_apart = 0;
  {
    TournamentBarrier b(apart.shm, {CpuId{0, 0}, CpuId{1, 0}});
    apart.sched.spawn(CpuId{0, 0}, [&] {
      for (int e = 0; e < 10; ++e) b.wait(0);
    });
    apart.sched.spawn(CpuId{1, 0}, [&] {
      for (int e = 0; e < 10; ++e) b.wait(1);
    });
    while (!apart.sched.all_done()) apart.sched.run_cycle(apart.now++);
    t_apart = apart.now;
  }
  CHECK(same.shm.total().misses() <= 4);
  CHECK(apart.shm.total().misses() >= 40);  // two flag writes and two reloads per episode
  CHECK(t_apart > 10 * 2 * 120);
}
