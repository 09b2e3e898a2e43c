// nic_rdeng_tb.hpp: the bench of the read engine's unit test (test_nic_rdeng.cpp), by role:
//   nic_rdeng_job.hpp      the job reference (source bytes, expected translations, reads, packets
//                          and results) and the bench's random source;
//   nic_rdeng_host.hpp     the ATT and host memory models, with latencies and idle cycles;
//   nic_rdeng_fence.hpp    the fence of a deregistration: nic_inval's side and its reference;
//   nic_rdeng_harness.hpp  the harness: ports, random idle and back-pressure, the checks made
//                          every cycle and flit;
// and here the sweep and random-job drivers. Included by that one test.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "Vnic_rdeng.h"
#include "Vnic_rdeng_small.h"
#include "hpcnet/tb/seed.hpp"
#include "nic_rdeng_harness.hpp"

namespace {

const Params kDefault{8192, 1024, 4};
const Params kSmall{1024, 256, 2};

// Jobs from a list of (a, d, len), in a random order.
struct Sweep {
  std::vector<std::array<std::uint32_t, 3>> items;
  size_t next = 0;
};

template <class M>
void sweep(Params p, const std::vector<std::uint32_t>& lens, unsigned offs_step, const char* name,
           Cfg cfg = {}) {
  const std::uint64_t seed = hpcnet::tb::seed(name);
  RdengTb<M> tb(p, cfg, seed);
  Sweep s;
  for (unsigned a = 0; a < 32; a += offs_step)
    for (unsigned d = 0; d < 32; d += offs_step)
      for (std::uint32_t l : lens) s.items.push_back({a, d, l});
  std::shuffle(s.items.begin(), s.items.end(), tb.rng);
  tb.source = [&](Job& j) {
    if (s.next == s.items.size()) return false;
    const auto& it = s.items[s.next++];
    tb.random_job(j, it[0], it[1], it[2]);
    return true;
  };
  tb.run(100000000);
  std::printf("%s: %llu jobs, %llu flits, %lld cycles, max frames in flight %u (FIFO %u), "
              "max frames requested and not yet out %u\n",
              name, static_cast<unsigned long long>(tb.n_jobs_done), static_cast<unsigned long long>(tb.n_flits),
              static_cast<long long>(tb.cyc), tb.max_inflight, p.fifo_frames(), tb.max_unused);
  REQUIRE(tb.n_jobs_done == s.items.size());
}

std::vector<std::uint32_t> around(std::initializer_list<std::uint32_t> bounds) {
  std::vector<std::uint32_t> v{1, 2, 3};
  for (std::uint32_t b : bounds)
    for (std::uint32_t l = b - 3; l <= b + 3; ++l) v.push_back(l);
  return v;
}

// Random jobs: lengths up to max_len (small ones favoured), offsets at random, a share of them
// physical, failing first, or failing on a later page.
template <class M>
void random_jobs(Params p, unsigned n, std::uint32_t max_len, unsigned fail_pct, unsigned late_pct,
                 const char* name, Cfg cfg = {}) {
  const std::uint64_t seed = hpcnet::tb::seed(name);
  RdengTb<M> tb(p, cfg, seed);
  unsigned made = 0, n_fail = 0, n_late = 0, n_phys = 0;
  static const nf::Status kFirst[] = {nf::Status::BAD_KEY, nf::Status::NOT_OWNER, nf::Status::RANGE,
                                      nf::Status::PERM};
  tb.source = [&](Job& j) {
    if (made == n) return false;
    ++made;
    const unsigned cls = tb.rnd(10);
    std::uint32_t len = cls < 3   ? 1 + tb.rnd(256)
                        : cls < 6 ? 1 + tb.rnd(4096)
                        : cls < 9 ? 1 + tb.rnd(16384)
                                  : 1 + tb.rnd(max_len);
    len = std::min(len, max_len);
    tb.random_job(j, tb.rnd(32), tb.rnd(32), len);
    if (tb.pct(fail_pct)) {
      if (j.phys) {
        j.phys_ok = false;  // PHYS_DENIED
      } else {
        j.fail_first = static_cast<unsigned>(kFirst[tb.rnd(4)]);
      }
      ++n_fail;
    } else if (!j.phys && tb.pct(late_pct)) {
      const unsigned np = static_cast<unsigned>(((j.a0() + len - 1) >> 12) - (j.a0() >> 12) + 1);
      if (np >= 2) {
        j.late_page = static_cast<int>(1 + tb.rnd(np - 1));
        j.late_status = static_cast<unsigned>(tb.pct(50) ? nf::Status::RANGE : nf::Status::BAD_KEY);
        ++n_late;
      }
    }
    n_phys += j.phys;
    return true;
  };
  tb.run(100000000);
  std::printf("%s: %u jobs (%u physical, %u failing first, %u failing later), %llu flits, %lld cycles, "
              "max frames in flight %u (FIFO %u), max frames requested and not yet out %u\n",
              name, n, n_phys, n_fail, n_late, static_cast<unsigned long long>(tb.n_flits),
              static_cast<long long>(tb.cyc), tb.max_inflight, p.fifo_frames(), tb.max_unused);
  REQUIRE(tb.n_jobs_done == n);
  if (fail_pct) REQUIRE(n_fail > 0);
  if (late_pct) REQUIRE(n_late > 0);
}

}  // namespace
