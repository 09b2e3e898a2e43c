// Integration: producer/consumer chains with ssm_put/ssm_get on all 5 PEs x 4 threads.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "sim/ssm/ssm_node.hpp"

using hpcnet::sim::SsmNode;

namespace {
constexpr uint64_t kBase = 0x10000;
uint64_t stage_addr(unsigned k) { return kBase + 8ull * k; }
}  // namespace

TEST_CASE("ssm: a 20-stage put/get pipeline delivers every value once and in order", "[ssm][chain]") {
  SsmNode n;
  constexpr unsigned kStages = 20;
  constexpr uint64_t kValues = 60;
  std::vector<uint64_t> received;
  std::vector<unsigned> order_errors(kStages, 0);
  n.run_all([&](unsigned pe, unsigned t) {
    const unsigned k = pe * 4 + t;  // stage k reads A[k-1] (stage 0 is the source), writes A[k]
    for (uint64_t i = 0; i < kValues; ++i) {
      uint64_t v = i * 7919 + 1;
      if (k > 0) {
        v = ssm_get(stage_addr(k - 1), 8);
        if (v != i * 7919 + 1) ++order_errors[k];
      }
      if (k + 1 < kStages) ssm_put(stage_addr(k), v);
      else received.push_back(v);
    }
    CHECK(ssm_quiet() == SSM_OK);
  });
  REQUIRE(received.size() == kValues);
  for (uint64_t i = 0; i < kValues; ++i) CHECK(received[i] == i * 7919 + 1);
  for (unsigned k = 0; k < kStages; ++k) CHECK(order_errors[k] == 0);
  CHECK(n.drv.errors().empty());
}

TEST_CASE("ssm: put_n with several readers: each value read once per reader and in order", "[ssm][chain]") {
  SsmNode n;
  constexpr unsigned kReaders = 4;
  constexpr uint64_t kValues = 40;
  // 4 groups: a producer on thread 0 of PE g and readers on 4 threads elsewhere.
  std::map<unsigned, std::vector<uint64_t>> seen;  // reader -> values
  n.run_all([&](unsigned pe, unsigned t) {
    const unsigned id = pe * 4 + t;
    if (id < 4) {  // producers 0..3, one address each
      for (uint64_t i = 0; i < kValues; ++i) ssm_put_n(stage_addr(100 + id), (uint64_t(id) << 32) | i, kReaders);
      CHECK(ssm_quiet() == SSM_OK);
    } else {       // readers 4..19: reader r reads group (r - 4) % 4
      const unsigned g = (id - 4) % 4;
      for (uint64_t i = 0; i < kValues; ++i) seen[id].push_back(ssm_get(stage_addr(100 + g), 8));
    }
  });
  // Each group has 4 readers reading 40 values each: 160 gets for 40 puts of 4 readers.
  for (unsigned g = 0; g < 4; ++g) {
    std::map<uint64_t, unsigned> count;
    for (unsigned r = 4; r < 20; ++r) {
      if ((r - 4) % 4 != g) continue;
      const auto& v = seen[r];
      REQUIRE(v.size() == kValues);
      for (size_t i = 0; i < v.size(); ++i) {
        CHECK((v[i] >> 32) == g);
        if (i) CHECK(v[i] >= v[i - 1]);  // in order
        ++count[v[i] & 0xffffffff];
      }
    }
    for (uint64_t i = 0; i < kValues; ++i) CHECK(count[i] == kReaders);  // exactly once per reader slot
  }
  CHECK(n.drv.errors().empty());
}
