// same_run.hpp: CHECKs that two runs of the same traffic gave the same results (a mesh split for
// threads against the whole mesh; an engine in shards against one shard).
#pragma once

#include <catch2/catch.hpp>

#include "sim/net/traffic/net_engine.hpp"

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
  // the starvation statistics: the engine's, and the routers' (the longest wait of a granted
  // packet, the cycles on hold: the same in every block when the blocks hold together)
  CHECK(b.max_age == a.max_age);
  CHECK(b.min_src_delivered == a.min_src_delivered);
  CHECK(b.max_wait == a.max_wait);
  CHECK(b.hold_cycles == a.hold_cycles);
}

}  // namespace hpcnet::tb
