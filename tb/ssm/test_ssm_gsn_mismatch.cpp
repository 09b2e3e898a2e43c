// Integration: io=1 collectives whose participants disagree, across 2, 4 and 16 nodes joined by
// the global sync network (GsnSystem, libssm). Two kinds of disagreement:
//  - across nodes: one node's group calls ssm_barrier and the other nodes' groups call ssm_reduce
//    on the same address, or the other way round; the odd node's message reaches the tree first
//    (it opens the tree's slots, so the erroneous answer carries its kind) or last;
//  - inside one node: the first member of the node's group says io=0 and the later ones io=1, or
//    the other way round, while every other node is consistent (also: every node mixed).
// Each mismatched round must end with an error for every member of every node (ERR_MISMATCH on a
// node whose own members disagree, ERR_GSN everywhere else) and cost exactly one up-message per
// node (the tree pairs rounds by counting them). Every member starts a clean io=1 reduce on the
// same address right after its mismatched call, with no host synchronisation in between, and
// later clean rounds follow: all must return the host's own sums (no value combined from a
// different round), with no hang and no RTL assertion.
#include <catch2/catch.hpp>

#include <exception>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "sim/gsn/gsn_system.hpp"
#include "hpcnet/ssm_regs.hpp"
#include "hpcnet/tb/seed.hpp"

using hpcnet::sim::GsnSystem;
using hpcnet::sim::GsnSystemConfig;
namespace R = hpcnet::ssm_regs;

namespace {

constexpr uint64_t kAddr = 0x180000;  // the contested address
constexpr unsigned kThreads = 4;      // participants per node (pe 0, threads 0..3)
constexpr uint64_t kLate = 3000;      // cycles a late arrival waits first
constexpr unsigned kAll = ~0u;        // "every node is the odd one"

constexpr int kGsn = -int(R::State::ERR_GSN);
constexpr int kMismatch = -int(R::State::ERR_MISMATCH);

using ThreadFn = std::function<void(unsigned node, unsigned pe, unsigned thread)>;

unsigned member(unsigned node, unsigned pe, unsigned t) { return node * kThreads + pe * 4 + t; }

// run_all on the first kThreads threads of every node. A stall or an RTL assertion is a failure
// (reported, not thrown), so that the caller still checks the return codes gathered so far:
// they show what a hung round was paired with. false: the system is unusable afterwards.
bool run_round(GsnSystem& g, const ThreadFn& fn) {
  try {
    g.run_all(fn, kThreads);
  } catch (const std::exception& e) {
    FAIL_CHECK(e.what());
    return false;
  }
  return true;
}

// The calling thread does other work on its node for `cycles` before its next call.
void later(GsnSystem& g, unsigned node, uint64_t cycles) { g.node(node).platform().compute(cycles); }

// Clean rounds on `addr`: an io=1 int64 sum, an io=1 double sum and an io=1 barrier per round,
// every result checked against the host's arithmetic, one up-message per node per operation.
bool clean_rounds(GsnSystem& g, uint64_t addr, unsigned rounds, std::mt19937_64& rng) {
  const unsigned nodes = g.nodes(), total = nodes * kThreads;
  for (unsigned r = 0; r < rounds; ++r) {
    std::vector<int64_t> iv(total);
    std::vector<double> dv(total);
    int64_t isum = 0;
    double dsum = 0.0;
    for (unsigned k = 0; k < total; ++k) {
      iv[k] = int64_t(rng() % 2000001) - 1000000;
      dv[k] = double(int64_t(rng() % 2001) - 1000);  // integer-valued: exact in any order
      isum += iv[k];
      dsum += dv[k];
    }
    std::vector<int> rc(total * 3, 1);
    std::vector<int64_t> iout(total, 0);
    std::vector<double> dout(total, 0.0);
    const uint64_t msgs = g.gsn_messages();
    const bool ok = run_round(g, [&](unsigned node, unsigned pe, unsigned t) {
      const unsigned me = member(node, pe, t);
      int64_t a = iv[me];
      rc[me * 3 + 0] = ssm_reduce(addr, &a, SSM_INT64, SSM_SUM, kThreads, 1);
      iout[me] = a;
      double d = dv[me];
      rc[me * 3 + 1] = ssm_reduce(addr, &d, SSM_DOUBLE, SSM_SUM, kThreads, 1);
      dout[me] = d;
      rc[me * 3 + 2] = ssm_barrier(addr, kThreads, 1);
    });
    for (unsigned k = 0; k < total; ++k) {
      INFO("clean round " << r << ": node " << k / kThreads << ", thread " << k % kThreads);
      CHECK(rc[k * 3 + 0] == SSM_OK);
      CHECK(rc[k * 3 + 1] == SSM_OK);
      CHECK(rc[k * 3 + 2] == SSM_OK);
      CHECK(iout[k] == isum);
      CHECK(dout[k] == dsum);
    }
    CHECK(g.gsn_messages() - msgs == uint64_t(nodes) * 3);
    if (!ok) return false;
  }
  return true;
}

// A clean io=1 int64 sum on kAddr that every member starts right after its mismatched call. Were
// a node to skip the mismatched round (send no up-message), the tree would pair this round of
// that node with the other nodes' mismatched one.
struct NextRound {
  std::vector<int64_t> in, out;
  std::vector<int> rc;
  int64_t sum = 0;
  NextRound(unsigned total, std::mt19937_64& rng) : in(total), out(total, 0), rc(total, 1) {
    for (auto& v : in) {
      v = int64_t(rng() % 2000001) - 1000000;
      sum += v;
    }
  }
  void run(unsigned me) {
    int64_t v = in[me];
    rc[me] = ssm_reduce(kAddr, &v, SSM_INT64, SSM_SUM, kThreads, 1);
    out[me] = v;
  }
  void check() const {
    for (unsigned k = 0; k < rc.size(); ++k) {
      INFO("round right after the mismatch: node " << k / kThreads << ", thread " << k % kThreads);
      CHECK(rc[k] == SSM_OK);
      CHECK(out[k] == sum);
    }
  }
};

// Every member's code: odd_code on the odd node (every node if odd == kAll), other_code elsewhere.
void check_codes(const std::vector<int>& rc, unsigned odd, int odd_code, int other_code) {
  for (unsigned k = 0; k < rc.size(); ++k) {
    const unsigned node = k / kThreads;
    INFO("mismatched round: node " << node << ", thread " << k % kThreads);
    CHECK(rc[k] == (node == odd || odd == kAll ? odd_code : other_code));
  }
}

// Node `odd` calls one kind on kAddr (io=1), every other node the other kind, then the next round.
// odd_reduce: the odd node reduces and the others barrier (else the other way round).
// odd_first: the odd node's group arrives first (its message opens the tree's slots), else last.
bool kind_round(GsnSystem& g, unsigned odd, bool odd_reduce, bool odd_first, std::mt19937_64& rng) {
  const unsigned total = g.nodes() * kThreads;
  std::vector<int> rc(total, 1);
  NextRound next(total, rng);
  const uint64_t msgs = g.gsn_messages();
  const bool ok = run_round(g, [&](unsigned node, unsigned pe, unsigned t) {
    const unsigned me = member(node, pe, t);
    const bool is_odd = node == odd;
    if (is_odd != odd_first) later(g, node, kLate);
    if (is_odd == odd_reduce) {
      int64_t v = me + 1;
      rc[me] = ssm_reduce(kAddr, &v, SSM_INT64, SSM_SUM, kThreads, 1);
    } else {
      rc[me] = ssm_barrier(kAddr, kThreads, 1);
    }
    next.run(me);
  });
  check_codes(rc, odd, kGsn, kGsn);
  next.check();
  CHECK(g.gsn_messages() - msgs == 2 * g.nodes());  // one contribution per node and round
  return ok;
}

void kind_mismatch(unsigned nodes) {
  GsnSystemConfig cfg;
  cfg.nodes = nodes;
  GsnSystem g(cfg);
  std::mt19937_64 rng(hpcnet::tb::seed(("gsn kind mismatch " + std::to_string(nodes)).c_str()));
  for (unsigned odd : {0u, nodes - 1})
    for (bool odd_reduce : {false, true})
      for (bool odd_first : {true, false}) {
        INFO("odd node " << odd << (odd_reduce ? " reduces" : " barriers") << " and arrives "
                         << (odd_first ? "first" : "last"));
        if (!kind_round(g, odd, odd_reduce, odd_first, rng)) return;
        if (!clean_rounds(g, kAddr, 2, rng)) return;
      }
}

// Inside node `odd` (every node if odd == kAll), the first member (pe 0 thread 0) says
// io=first_io and the later ones the other io; every other node's members all say io=1. Then
// the next round. The odd node's members get ERR_MISMATCH, all other members ERR_GSN.
// reduce: ssm_reduce, else ssm_barrier.
bool io_round(GsnSystem& g, unsigned odd, int first_io, bool reduce, std::mt19937_64& rng) {
  const unsigned total = g.nodes() * kThreads;
  std::vector<int> rc(total, 1);
  NextRound next(total, rng);
  const uint64_t msgs = g.gsn_messages();
  const bool ok = run_round(g, [&](unsigned node, unsigned pe, unsigned t) {
    const unsigned me = member(node, pe, t);
    int io = 1;
    if (node == odd || odd == kAll) {
      const bool first = pe == 0 && t == 0;
      if (!first) later(g, node, kLate);
      io = first ? first_io : 1 - first_io;
    }
    if (reduce) {
      int64_t v = me + 1;
      rc[me] = ssm_reduce(kAddr, &v, SSM_INT64, SSM_SUM, kThreads, io);
    } else {
      rc[me] = ssm_barrier(kAddr, kThreads, io);
    }
    next.run(me);
  });
  check_codes(rc, odd, kMismatch, kGsn);
  next.check();
  // One contribution per node and round: the odd node too sent one (err) for the mismatched round.
  CHECK(g.gsn_messages() - msgs == 2 * g.nodes());
  return ok;
}

void io_mismatch(unsigned nodes, int first_io) {
  GsnSystemConfig cfg;
  cfg.nodes = nodes;
  GsnSystem g(cfg);
  std::mt19937_64 rng(hpcnet::tb::seed(("gsn io mismatch " + std::to_string(nodes)).c_str()));
  for (unsigned odd : {0u, nodes - 1, kAll})
    for (bool reduce : {true, false}) {
      INFO((odd == kAll ? std::string("every node") : "node " + std::to_string(odd))
           << " mixed, first member io=" << first_io << (reduce ? ", reduce" : ", barrier"));
      if (!io_round(g, odd, first_io, reduce, rng)) return;
      if (!clean_rounds(g, kAddr, 2, rng)) return;
    }
}

}  // namespace

TEST_CASE("gsn mismatch: nodes disagree on barrier vs reduce (2 nodes)", "[ssm][gsn][errors]") { kind_mismatch(2); }
TEST_CASE("gsn mismatch: nodes disagree on barrier vs reduce (4 nodes)", "[ssm][gsn][errors]") { kind_mismatch(4); }
TEST_CASE("gsn mismatch: nodes disagree on barrier vs reduce (16 nodes)", "[ssm][gsn][errors]") { kind_mismatch(16); }

TEST_CASE("gsn mismatch: io=0 then io=1 inside one node (2 nodes)", "[ssm][gsn][errors]") { io_mismatch(2, 0); }
TEST_CASE("gsn mismatch: io=0 then io=1 inside one node (4 nodes)", "[ssm][gsn][errors]") { io_mismatch(4, 0); }
TEST_CASE("gsn mismatch: io=0 then io=1 inside one node (16 nodes)", "[ssm][gsn][errors]") { io_mismatch(16, 0); }
TEST_CASE("gsn mismatch: io=1 then io=0 inside one node (2 nodes)", "[ssm][gsn][errors]") { io_mismatch(2, 1); }
TEST_CASE("gsn mismatch: io=1 then io=0 inside one node (4 nodes)", "[ssm][gsn][errors]") { io_mismatch(4, 1); }
TEST_CASE("gsn mismatch: io=1 then io=0 inside one node (16 nodes)", "[ssm][gsn][errors]") { io_mismatch(16, 1); }

// Burst reduce has no io=1 form: every node refuses it at once with ERR_IO, nothing goes up the
// tree, and the following io=1 rounds (on the burst's source address as a key, and on kAddr) are
// right.
TEST_CASE("gsn mismatch: burst reduce with io=1 is refused on every node and sends nothing", "[ssm][gsn][errors]") {
  GsnSystemConfig cfg;
  cfg.nodes = 4;
  GsnSystem g(cfg);
  std::mt19937_64 rng(hpcnet::tb::seed("gsn burst io=1"));
  std::vector<hpcnet::DmaRegion> buf;
  for (unsigned i = 0; i < g.nodes(); ++i) buf.push_back(g.node(i).platform().dma_alloc(kThreads * 64, 64));
  std::vector<int> rc(g.nodes() * kThreads, 1);
  const uint64_t msgs = g.gsn_messages();
  REQUIRE(run_round(g, [&](unsigned node, unsigned pe, unsigned t) {
    const uint64_t src = buf[node].phys + (pe * 4 + t) * 64;
    rc[member(node, pe, t)] = ssm_burst_reduce(src, src + 32, 32, SSM_INT64, SSM_SUM, kThreads, 1);
  }));
  for (int r : rc) CHECK(r == -int(R::State::ERR_IO));
  CHECK(g.gsn_messages() == msgs);
  REQUIRE(clean_rounds(g, buf[0].phys, 2, rng));
  REQUIRE(clean_rounds(g, kAddr, 1, rng));
}
