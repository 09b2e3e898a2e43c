// sim/gsn/gsn_links.hpp: the traffic on the combining tree's links, read from a Verilated
// gsn_tree's own nodes (rtl/gsn/gsn_tree.sv, gsn_node.sv).
//
// The links between tree nodes are inside the one Verilated model, so the fabric cannot see their
// handshakes at its ports. Verilator keeps each gsn_node's public handshake state as a member of the
// model's root class (<V>___024root.h), named by hierarchy: gsn_tree.g_lvl[l].g_node[j].u_node.x
// is `gsn_tree__DOT__g_lvl__BRA__<l>__KET____DOT__g_node__BRA__<j>__KET____DOT__u_node__DOT__x`.
// gsn_node_probes() finds, at compile time, every node a model has (levels 0..2 with up to 16
// nodes each: every product tree, radix 4, up to 64 leaves) and each cycle a node adds:
//   up   popcount(accept): the children whose up message it takes (accept is c_up_ready_o, and it
//        is set only for a valid child);
//   down popcount(dn_pend_q & ~dn_pend_d): the children that take its down message (while a
//        message is pending, dn_pend_d = dn_pend_q & ~c_dn_ready_i).
// These are the node's child links: level 0's are the leaf links (SSM <-> bottom tree node), level
// l's the links from the nodes of level l-1 to their parents. The root's turnaround (its up output
// wired to its own down input) is no link and is not counted. The signals are not declared
// /*verilator public*/ (that would touch the RTL): a Verilator that no longer keeps them leaves
// a model with no probe, and GsnTreeFabric refuses to count for it (std::logic_error).
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include <verilated.h>

namespace hpcnet::sim {

// One level of tree links and the messages that crossed them.
struct GsnLinkLevel {
  unsigned links = 0;      // level 0: one per leaf; level l > 0: one per tree node of level l-1
  uint64_t up = 0;         // messages taken up over these links
  uint64_t down = 0;       // messages taken down over these links
};

// One tree node's handshake state inside the model.
struct GsnNodeProbe {
  unsigned level = 0;
  const CData* accept = nullptr;
  const CData* pend_q = nullptr;
  const CData* pend_d = nullptr;
  unsigned up() const { return std::popcount(unsigned(*accept)); }
  unsigned down() const { return std::popcount(unsigned(*pend_q) & ~unsigned(*pend_d)); }
};

#define HPCNET_GSN_SIG(l, j, sig) \
  gsn_tree__DOT__g_lvl__BRA__##l##__KET____DOT__g_node__BRA__##j##__KET____DOT__u_node__DOT__##sig
#define HPCNET_GSN_PROBE(l, j)                                                                        \
  if constexpr (requires { root.HPCNET_GSN_SIG(l, j, accept); })                                      \
    p.push_back({unsigned(l), &root.HPCNET_GSN_SIG(l, j, accept), &root.HPCNET_GSN_SIG(l, j, dn_pend_q),         \
                 &root.HPCNET_GSN_SIG(l, j, dn_pend_d)});
#define HPCNET_GSN_LEVEL(l)                                                                           \
  HPCNET_GSN_PROBE(l, 0) HPCNET_GSN_PROBE(l, 1) HPCNET_GSN_PROBE(l, 2) HPCNET_GSN_PROBE(l, 3)          \
  HPCNET_GSN_PROBE(l, 4) HPCNET_GSN_PROBE(l, 5) HPCNET_GSN_PROBE(l, 6) HPCNET_GSN_PROBE(l, 7)          \
  HPCNET_GSN_PROBE(l, 8) HPCNET_GSN_PROBE(l, 9) HPCNET_GSN_PROBE(l, 10) HPCNET_GSN_PROBE(l, 11)        \
  HPCNET_GSN_PROBE(l, 12) HPCNET_GSN_PROBE(l, 13) HPCNET_GSN_PROBE(l, 14) HPCNET_GSN_PROBE(l, 15)

// The tree nodes of a Verilated gsn_tree's root class, level by level (bottom first), node order.
template <class Root>
std::vector<GsnNodeProbe> gsn_node_probes(const Root& root) {
  std::vector<GsnNodeProbe> p;
  HPCNET_GSN_LEVEL(0)
  HPCNET_GSN_LEVEL(1)
  HPCNET_GSN_LEVEL(2)
  return p;
}

#undef HPCNET_GSN_LEVEL
#undef HPCNET_GSN_PROBE
#undef HPCNET_GSN_SIG

}  // namespace hpcnet::sim
