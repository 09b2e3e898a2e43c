// sim/net/net_types.hpp: basic types of the network simulation: the mesh or torus shape (node
// ids, coordinates, minimal routes), the router mode, the description of a Verilated mesh model, a fast seeded random
// generator and a growable ring buffer (no allocation per operation once it has grown).
//
// Node id = x + K0*(y + K1*z), the numbering of rtl/net/net_mesh.sv.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "hpcnet/rtr_formats.hpp"

namespace hpcnet::sim {

// The signed hops of a minimal route from coordinate a to b in a dimension of radix k: b - a in a
// mesh; in a torus (a ring per line, wraparound links) the shorter way round, the + direction when
// both ways are equally long (k even, |b - a| = k/2): -(k-1)/2 .. k/2.
inline int ring_offset(int a, int b, unsigned k, bool torus) {
  int d = b - a;
  if (!torus) return d;
  const int kk = static_cast<int>(k);
  if (d < 0) d += kk;       // 0 .. k-1, the + way round
  return 2 * d > kk ? d - kk : d;
}

// Route field of a head flit (the flit format of net_checker.hpp): the signed hops of the minimal
// route per dimension, offset(d) for d = 0..2, in bytes 0..2; hop counter (byte 3) 0.
template <class Offset>
uint32_t pack_route(Offset offset) {
  rtr_formats::Route r;  // the format route of rtl/router/rtr_formats.toml
  for (unsigned d = 0; d < rtr_formats::ROUTE_HOPS_COUNT; ++d) r.hops[d] = offset(d);
  return static_cast<uint32_t>(r.pack()[0]);
}

// The signed hops left in dimension d (0..2) of a route field (pack_route's inverse).
inline int route_hops(uint32_t route, unsigned d) {
  const formats::Field f = rtr_formats::ROUTE_HOPS.at(d);
  return static_cast<int>(formats::sign_extend(f.get(route), f.width));
}

// A k0 x k1 [x k2] mesh (no wraparound), or a torus (torus = true: wraparound in every dimension).
// dims is 2 or 3; k[2] is 1 for 2-D.
struct MeshShape {
  unsigned dims = 2;
  std::array<unsigned, 3> k{4, 4, 1};
  bool torus = false;

  MeshShape() = default;
  MeshShape(unsigned k0, unsigned k1) : dims(2), k{k0, k1, 1} {}
  MeshShape(unsigned k0, unsigned k1, unsigned k2) : dims(3), k{k0, k1, k2} {}
  MeshShape as_torus() const {
    MeshShape s = *this;
    s.torus = true;
    return s;
  }

  unsigned nodes() const { return k[0] * k[1] * k[2]; }
  std::array<int, 3> coords(unsigned id) const {
    return {static_cast<int>(id % k[0]), static_cast<int>((id / k[0]) % k[1]), static_cast<int>(id / (k[0] * k[1]))};
  }
  unsigned id(const std::array<int, 3>& c) const {
    return static_cast<unsigned>(c[0]) + k[0] * (static_cast<unsigned>(c[1]) + k[1] * static_cast<unsigned>(c[2]));
  }
  // The signed hops of the minimal route from a to b in dimension d (ring_offset).
  int offset(unsigned a, unsigned b, unsigned d) const { return ring_offset(coords(a)[d], coords(b)[d], k[d], torus); }
  // Minimal hop count between two nodes (Manhattan distance; the shorter way round each ring of a torus).
  unsigned hops(unsigned a, unsigned b) const {
    unsigned h = 0;
    for (unsigned d = 0; d < 3; ++d) h += static_cast<unsigned>(std::abs(offset(a, b, d)));
    return h;
  }
  unsigned diameter() const { return torus ? k[0] / 2 + k[1] / 2 + k[2] / 2 : k[0] + k[1] + k[2] - 3; }
  std::string name() const;                        // "8x8", "3x3x3", "8x8-torus"
  static MeshShape parse(const std::string& text);  // inverse of name(); throws std::invalid_argument
  bool operator==(const MeshShape&) const = default;
};

// The coordinates of every node of a mesh or torus, computed once (MeshShape::coords divides): the
// route fields and hop counts the traffic engine and the checker need for every packet.
class NodeCoords {
 public:
  explicit NodeCoords(const MeshShape& s) : k_(s.k), torus_(s.torus), c_(s.nodes()) {
    for (unsigned n = 0; n < s.nodes(); ++n) {
      const auto a = s.coords(n);
      c_[n] = {static_cast<int16_t>(a[0]), static_cast<int16_t>(a[1]), static_cast<int16_t>(a[2])};
    }
  }
  // The signed hops of the minimal route from a to b in dimension d (MeshShape::offset).
  int offset(unsigned a, unsigned b, unsigned d) const { return ring_offset(c_[a][d], c_[b][d], k_[d], torus_); }
  // Minimal hop count between two nodes (MeshShape::hops).
  unsigned hops(unsigned a, unsigned b) const {
    unsigned h = 0;
    for (unsigned d = 0; d < 3; ++d) h += static_cast<unsigned>(std::abs(offset(a, b, d)));
    return h;
  }
  // Route field of a head flit from src to dst (pack_route; route_field() without the divisions).
  uint32_t route(unsigned src, unsigned dst) const {
    return pack_route([&](unsigned d) { return offset(src, dst, d); });
  }

 private:
  std::array<unsigned, 3> k_;
  bool torus_;
  std::vector<std::array<int16_t, 3>> c_;
};

// Router mode, the value of net_mesh's Mode parameter.
enum class NetMode : unsigned { adbr = 0, dor_vct = 1, dor_wh = 2 };
const char* mode_name(NetMode m);            // "adbr", "dorvct", "dorwh"
NetMode parse_mode(const std::string& text);  // accepts the names above (and dor-vct, dor_wh, ...)
inline bool mode_keeps_flow_order(NetMode m) { return m != NetMode::adbr; }  // DOR: one path per flow
// Smallest input buffer depth in packets: the DBFC minimum (one packet per dimension) in ADBR mode,
// the bubble rule's 2 on a torus, one packet otherwise.
inline unsigned min_buf_pkts(const MeshShape& s, NetMode m) { return m == NetMode::adbr ? s.dims : s.torus ? 2 : 1; }

// One Verilated mesh (net_mesh with its parameters) and the buffer depth it runs with.
struct NetSpec {
  std::string model;  // class name, e.g. "Vnet_mesh_8x8_adbr"
  MeshShape shape;
  NetMode mode = NetMode::adbr;
  unsigned buf_pkts = 2;    // input buffer depth in packets (run time: net_mesh's buf_pkts_i)
  unsigned pkt_flits = 5;   // flits per packet
  unsigned flit_bits = 256; // bits per flit
  unsigned buf_max = 2;     // the model's BufPkts: the largest depth it can run
  unsigned threads = 1;     // the network's blocks evaluated in parallel by this many threads (NetJoined)
  // A joined network (NetJoined, net_joined.hpp): the size of the block model (model) that tiles
  // it; {0, 0, 0}: the network is one model (or a split mesh).
  std::array<unsigned, 3> block{0, 0, 0};
  bool joined() const { return block[0] != 0; }
  // The routers of one model of the network: a joined network's block; a split mesh's (a model
  // with threads > 1 of its own: T blocks of K0 x K1/T stacked along Y); else the whole shape.
  std::array<unsigned, 3> model_block() const {
    if (joined()) return block;
    return {shape.k[0], shape.k[1] / threads, shape.k[2]};
  }
  // The multiphase barrier built in (net_mesh Barrier = 1, Vnet_bar_* models): a phase unit per
  // router and its enter/leave ports per node (NetSimBase::drive_barrier, docs/barrier.md).
  bool barrier = false;
  unsigned flit_words() const { return flit_bits / 32; }
  unsigned min_buf() const { return min_buf_pkts(shape, mode); }
  // Empty when buf_pkts is one this model runs, else why not (the message names the model).
  std::string buf_error() const;
  NetSpec with_buf(unsigned b) const {
    NetSpec s = *this;
    s.buf_pkts = b;
    return s;
  }
  std::string label() const;  // "8x8 adbr b2", "8x8 adbr b2 t2", "5x7 adbr b2 joined", "4x4 adbr b2 barrier"
};

// splitmix64: seeds and cheap hashing.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
inline uint64_t mix64(uint64_t x) {
  uint64_t s = x;
  return splitmix64(s);
}

// xoshiro256**: the per-node random stream (deterministic by seed, a few ns per number).
class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { reseed(seed); }
  void reseed(uint64_t seed) {
    uint64_t st = seed;
    for (auto& w : s_) w = splitmix64(st);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  uint32_t below(uint32_t n) {  // uniform in [0, n), n > 0 (Lemire's multiply-shift)
    return static_cast<uint32_t>(((next() >> 32) * n) >> 32);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// FIFO that doubles its storage when full (allocation only while growing).
template <class T>
class GrowRing {
 public:
  explicit GrowRing(size_t capacity = 16) {
    size_t c = 1;
    while (c < capacity) c <<= 1;
    buf_.resize(c);
  }
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  size_t capacity() const { return buf_.size(); }
  T& front() { assert(count_); return buf_[head_]; }
  const T& front() const { assert(count_); return buf_[head_]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & (buf_.size() - 1)]; }
  void push(const T& v) {
    if (count_ == buf_.size()) grow();
    buf_[(head_ + count_) & (buf_.size() - 1)] = v;
    ++count_;
  }
  void pop() {
    assert(count_);
    head_ = (head_ + 1) & (buf_.size() - 1);
    --count_;
  }
  void clear() { head_ = count_ = 0; }

 private:
  void grow() {
    std::vector<T> n(buf_.size() * 2);
    for (size_t i = 0; i < count_; ++i) n[i] = (*this)[i];
    buf_.swap(n);
    head_ = 0;
  }
  std::vector<T> buf_;
  size_t head_ = 0;
  size_t count_ = 0;
};

}  // namespace hpcnet::sim
