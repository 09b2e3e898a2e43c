// sim/net/stats/net_capacity.hpp: the ideal throughput of a traffic pattern on a mesh or torus, from its
// traffic matrix (Traffic::dest_probs) and channel loads, the analysis of Dally and Towles
// ("Principles and Practices of Interconnection Networks", ch. 3): every non-silent node offers
// the same load; the throughput limit is the offered load (flits/node/cycle) at which the busiest
// resource carries one flit per cycle. It tells what a router could reach at best, so the
// measured saturation loads can be read against it (docs/net_sim.md, Saturation).
#pragma once

#include "sim/net/net_types.hpp"
#include "sim/net/traffic/net_traffic.hpp"

namespace hpcnet::sim {

struct Capacity {
  // Dimension-order routing (the lowest dimension with hops left first, as the router's DOR
  // modes; in a torus the shorter way round each ring, + on a tie): 1 / the largest channel load
  // when every node offers 1 flit/cycle.
  double dor_channel = 0;
  // Any routing, minimal or not: for every dimension, every cut between two neighbouring
  // coordinates and each direction, the channels crossing the cut / the load that must cross
  // it; the smallest ratio. Torus: every arc of coordinates of a ring, the 2 channels per line
  // leaving it (one each way round) / the load its nodes send outside it.
  double cut = 0;
  // 1 / the largest load on one node's ejection port (a hotspot).
  double eject = 0;

  // The limits with the injection port (1 flit/cycle) and the ejection ports included.
  double dor() const;  // what dimension-order routing can reach
  double any() const;  // what no router can exceed
};

Capacity ideal_capacity(const MeshShape& shape, const Traffic& traffic);

}  // namespace hpcnet::sim
