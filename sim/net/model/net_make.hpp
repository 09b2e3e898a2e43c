// sim/net/model/net_make.hpp: the driver of a Verilated network model class, for the generated
// tables of built models (hpcnet_model_table, sim/net/CMakeLists.txt): a block (rtr_router with
// its boundary ports external: a split mesh's Vnet_mesh_*_t<T> or a Vnet_blk_* block) is joined
// by NetJoined<V>; a whole network (net_mesh) is driven by NetSim<V>.
#pragma once

#include <memory>
#include <utility>

#include "sim/net/model/net_joined.hpp"
#include "sim/net/model/net_mesh_sim.hpp"
#include "sim/net/model/net_sim.hpp"

namespace hpcnet::sim {

template <class V>
std::unique_ptr<NetSimBase> make_net_sim(const NetSpec& s, TraceWindow w) {
  if constexpr (requires(V& m) { m.out_cred_i; })  // boundary ports: a block
    return std::make_unique<NetJoined<V>>(s, std::move(w));
  else
    return std::make_unique<NetSim<V>>(s, std::move(w));
}

}  // namespace hpcnet::sim
