// nic_pair_tb.hpp: helpers shared by the two-node NIC tests (test_nic_pair.cpp,
// test_nic_queues.cpp, test_nic_load.cpp): registered buffers, byte images and their difference,
// the pair of nodes with an endpoint opened on each, and waits for simulated threads.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "hpcnet/nic_driver.hpp"
#include "hpcnet/platform.hpp"
#include "hpcnet/rdma.h"
#include "sim/nic/nic_pair.hpp"

namespace nic_tb {

using hpcnet::sim::NicPair;
namespace f = hpcnet::nic_formats;

constexpr uint8_t kGuard = 0xEE;
constexpr int kRemote = 0x80;  // status bit 7: found at the remote node

struct Buf {
  uint64_t va = 0;
  uint16_t key = 0;
  size_t bytes = 0;
};

// A zeroed buffer of `bytes` at `offset` into its first page, registered with `access` (from a
// simulated thread of the endpoint's node).
inline Buf reg_buf(rdma_ep* ep, size_t bytes, unsigned offset, int access) {
  Buf b;
  b.bytes = bytes;
  b.va = rdma_alloc(ep, bytes, offset);
  REQUIRE(rdma_reg_mr(ep, b.va, bytes, access, &b.key) == 0);
  return b;
}

// The same filled with `fill` by the CPU (a simulated CPU store costs time: for large buffers use
// reg_buf and fill from outside the simulated threads, where memory access is immediate).
inline Buf make_buf(rdma_ep* ep, size_t bytes, unsigned offset, int access, uint8_t fill) {
  Buf b = reg_buf(ep, bytes, offset, access);
  std::vector<uint8_t> v(bytes, fill);
  rdma_mem_write(ep, b.va, v.data(), bytes);
  return b;
}

inline std::vector<uint8_t> peek(rdma_ep* ep, uint64_t va, size_t n) {
  std::vector<uint8_t> v(n);
  rdma_mem_read(ep, va, v.data(), n);
  return v;
}

inline std::vector<uint8_t> random_bytes(std::mt19937_64& rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (auto& x : v) x = uint8_t(rng());
  return v;
}

// Where two byte images differ: "same", or the first difference, its bytes and how many differ.
inline std::string diff(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  if (got == want) return "same";
  if (got.size() != want.size())
    return "sizes differ: got " + std::to_string(got.size()) + ", want " + std::to_string(want.size());
  size_t first = SIZE_MAX, n = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      if (first == SIZE_MAX) first = i;
      ++n;
    }
  return "first difference at byte " + std::to_string(first) + ": got " + std::to_string(got.at(first)) +
         ", want " + std::to_string(want.at(first)) + "; " + std::to_string(n) + " bytes differ";
}

// The hardware thread of simulated thread i of a node (32 per node: PE i / 8, thread i % 8).
inline void spawn_at(NicPair& pair, unsigned node, unsigned i, std::function<void()> fn) {
  pair.spawn(node, i / 8, i % 8, std::move(fn));
}

// Spin (with the platform's relax) until done(): for simulated threads waiting on each other.
template <class Pred>
void wait_until(Pred&& done) {
  while (!done()) hpcnet::this_platform()->relax();
}

// Both endpoints opened (node 0: initiator, node 1: target) in one run.
struct Pair {
  NicPair pair;
  rdma_ep* a = nullptr;
  rdma_ep* b = nullptr;
  // A run that polls forever is progress to the watchdog (MMIO reads): max_cycles ends a hang.
  static hpcnet::sim::NicPairConfig bounded() {
    hpcnet::sim::NicPairConfig cfg;
    cfg.max_cycles = 5'000'000;
    return cfg;
  }
  explicit Pair(hpcnet::sim::NicPairConfig cfg = bounded()) : pair(std::move(cfg)) {
    pair.spawn(0, 0, 0, [&] { REQUIRE(rdma_open(&a) == 0); });
    pair.spawn(1, 0, 0, [&] { REQUIRE(rdma_open(&b) == 0); });
    pair.run();
  }
  // fn on a thread of `node`, run to its end
  void on(unsigned node, std::function<void()> fn) {
    pair.spawn(node, 0, 0, std::move(fn));
    pair.run();
  }
  // an endpoint of `node` opened with `attr` (nullptr: rdma_open's defaults)
  rdma_ep* open(unsigned node, const rdma_ep_attr* attr = nullptr) {
    rdma_ep* ep = nullptr;
    on(node, [&] { REQUIRE(rdma_open_attr(&ep, attr) == 0); });
    return ep;
  }
  hpcnet::nic::Driver& driver(unsigned node) { return pair.driver(node); }
};

inline rdma_opts opts(uint16_t tag = 0, unsigned flags = 0, int submit = -1) {
  rdma_opts o{};
  o.tag = tag;
  o.flags = flags;
  o.submit = submit;
  return o;
}

// From a simulated thread of the endpoint's node: every CQ entry until `n` were taken.
inline std::vector<rdma_cqe> poll_n(rdma_ep* ep, size_t n) {
  std::vector<rdma_cqe> got;
  while (got.size() < n) {
    rdma_cqe e[16];
    const int k = rdma_poll_cq(ep, e, int(std::min<size_t>(16, n - got.size())));
    got.insert(got.end(), e, e + k);
    if (k == 0) hpcnet::this_platform()->relax();
  }
  return got;
}

}  // namespace nic_tb
