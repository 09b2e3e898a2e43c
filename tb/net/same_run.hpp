// same_run.hpp: CHECKs that two runs of the same traffic gave the same results (a mesh split for
// threads against the whole mesh; an engine in shards against one shard).
#pragma once

#include <catch2/catch.hpp>

#include "sim/net/net_engine.hpp"

namespace hpcnet::tb {

inline void check_same_run(const sim::NetStats& a, const sim::NetStats& b) {
  CHECK(b.cycles == a.cycles);
  CHECK(b.created == a.created);
  CHECK(b.injected == a.injected);
  CHECK(b.delivered == a.delivered);
  CHECK(b.win_ejected_flits == a.win_ejected_flits);
  CHECK(b.max_queue_seen == a.max_queue_seen);
  CHECK(b.lat_sum == a.lat_sum);
  CHECK(b.net_lat_sum == a.net_lat_sum);
  CHECK(b.lat_max == a.lat_max);
  CHECK(b.lat_hist == a.lat_hist);
  CHECK(b.hop_count == a.hop_count);
}

}  // namespace hpcnet::tb
