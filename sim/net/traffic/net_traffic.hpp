// sim/net/traffic/net_traffic.hpp: synthetic traffic patterns (destination of each new packet).
//
// Patterns (docs/net_sim.md has the table with examples):
//   uniform     every other node with equal probability (never the source itself)
//   transpose   power-of-two node count with an even number b of id bits: the id's upper and
//               lower halves swapped (dst = src rotated by b/2); on a k x k mesh this is
//               (x, y) -> (y, x). Other sizes with equal radices: coordinates rotated,
//               (x, y) -> (y, x), (x, y, z) -> (y, z, x). Unequal radices otherwise: rejected.
//   bitcomp     bit complement, dst = ~src on b bits; on every mesh computed per coordinate as
//               k-1-x (identical for power-of-two radices, and defined for 3x3x3 too).
//   bitrev      power-of-two node count: the b id bits reversed. Other sizes with equal radices:
//               coordinate order reversed, (x, y, z) -> (z, y, x). Otherwise rejected.
//   hotspot     with probability `hotspot_frac` one of the hotspot nodes (uniformly), else
//               uniform; a hotspot node that draws itself sends uniformly instead.
//               Default hotspot: the centre node (k0/2, k1/2, k2/2).
//   neighbor    one of the node's mesh neighbours (2 to 2n of them), uniformly: always 1 hop.
// The permutations (transpose, bitcomp, bitrev) map some nodes onto themselves (the diagonal
// for transpose, palindromic ids for bitrev, the centre of an odd mesh for bitcomp): those
// nodes are silent, they create no packets. The offered load is still quoted per node of the
// whole mesh. Self-addressed packets are only ever sent by scripted traffic (all-to-all tests),
// where they cross the router from injection to ejection with zero hops.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/net/net_types.hpp"

namespace hpcnet::sim {

enum class Pattern { uniform, transpose, bitcomp, bitrev, hotspot, neighbor };
inline constexpr Pattern kAllPatterns[] = {Pattern::uniform, Pattern::transpose, Pattern::bitcomp,
                                          Pattern::bitrev, Pattern::hotspot, Pattern::neighbor};
const char* pattern_name(Pattern p);
Pattern parse_pattern(const std::string& text);  // throws std::invalid_argument with the valid names

struct PatternConfig {
  Pattern pattern = Pattern::uniform;
  double hotspot_frac = 0.1;        // hotspot: share of packets aimed at a hotspot node
  std::vector<unsigned> hotspots;   // hotspot nodes; empty: the centre node
};

class Traffic {
 public:
  static constexpr uint32_t kSilent = UINT32_MAX;

  // Throws std::invalid_argument when the pattern is not defined on this mesh (see above).
  Traffic(const MeshShape& shape, const PatternConfig& cfg);

  // Destination of a new packet from `src` (never src itself); kSilent for silent nodes.
  uint32_t dest(unsigned src, Rng& rng) const {
    switch (kind_) {
      case Kind::perm: return perm_[src];
      case Kind::uniform: return uniform_other(src, rng);
      case Kind::hotspot: {
        if (rng.uniform() < frac_) {
          const uint32_t h = hot_[rng.below(static_cast<uint32_t>(hot_.size()))];
          if (h != src) return h;
        }
        return uniform_other(src, rng);
      }
      case Kind::neighbor: {
        const uint32_t b = nb_begin_[src], n = nb_begin_[src + 1] - b;
        return nb_[b + rng.below(n)];
      }
    }
    return kSilent;
  }
  bool silent(unsigned src) const { return kind_ == Kind::perm && perm_[src] == kSilent; }
  // The distribution dest(src, rng) draws from: (destination, probability) pairs summing to 1,
  // empty for a silent node (the pattern's row of the traffic matrix; net_capacity.hpp).
  std::vector<std::pair<uint32_t, double>> dest_probs(unsigned src) const;
  // The permutation's destination of `src` (kSilent when src maps onto itself); perm patterns only.
  uint32_t perm_dest(unsigned src) const { return perm_.empty() ? kSilent : perm_[src]; }
  const std::vector<unsigned>& hotspots() const { return hot_; }
  const PatternConfig& config() const { return cfg_; }

 private:
  enum class Kind { perm, uniform, hotspot, neighbor };
  uint32_t uniform_other(unsigned src, Rng& rng) const {
    const uint32_t d = rng.below(nodes_ - 1);
    return d >= src ? d + 1 : d;
  }

  PatternConfig cfg_;
  Kind kind_ = Kind::uniform;
  uint32_t nodes_ = 0;
  double frac_ = 0;
  std::vector<uint32_t> perm_;       // perm patterns: destination per node, kSilent for fixed points
  std::vector<unsigned> hot_;        // hotspot nodes
  std::vector<uint32_t> nb_begin_;   // neighbour lists (CSR)
  std::vector<uint32_t> nb_;
};

}  // namespace hpcnet::sim
