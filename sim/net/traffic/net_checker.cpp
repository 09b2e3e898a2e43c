// net_checker.cpp: see net_checker.hpp.
#include "sim/net/traffic/net_checker.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "hpcnet/rtr_formats.hpp"

namespace hpcnet::sim {

namespace {
// The head flit's hop counter (rtr_formats.toml) in the first 32-bit word of a flit.
constexpr unsigned kHopLsb = rtr_formats::HEAD_HOP_COUNT.bit();
static_assert(kHopLsb + rtr_formats::HEAD_HOP_COUNT.width == 32, "the hop counter fills the top of flit word 0");
}  // namespace

NetChecker::NetChecker(const MeshShape& shape, unsigned pkt_flits, unsigned flit_words, bool check_order)
    : shape_(shape), coords_(shape), nodes_(shape.nodes()), pkt_flits_(pkt_flits), words_(flit_words), check_order_(check_order) {
  if (words_ < 5) throw std::invalid_argument("net checker: flits need at least 5 words of 32 bits");
  if (pkt_flits_ < 1 || pkt_flits_ > 255) throw std::invalid_argument("net checker: 1..255 flits per packet");
  if (nodes_ > 65536) throw std::invalid_argument("net checker: at most 65536 nodes");
  src_.resize(nodes_);
  for (auto& s : src_) s.ring.resize(64);
  port_.resize(nodes_);
  last_seq_.assign(static_cast<size_t>(nodes_) * nodes_, 0);
}

void NetChecker::reset() {
  for (auto& s : src_) {
    std::fill(s.ring.begin(), s.ring.end(), Flight{});
    s.base = s.next = 0;
  }
  std::fill(port_.begin(), port_.end(), Port{});
  std::fill(last_seq_.begin(), last_seq_.end(), 0u);
  delivered_ = flits_ = 0;
}

void NetChecker::injected(const PacketTag& p, uint64_t now) {
  Source& s = src_.at(p.src);
  if (p.seq != s.next)
    throw NetCheckError(fmt::format("net checker: node {} injected packet seq {} but seq {} was due (cycle {})", p.src,
                                    p.seq, s.next, now));
  if (s.next - s.base >= s.ring.size()) {  // window full: double the ring (rare)
    std::vector<Flight> n(s.ring.size() * 2);
    for (uint32_t q = s.base; q != s.next; ++q) n[q & (n.size() - 1)] = s.ring[q & (s.ring.size() - 1)];
    s.ring.swap(n);
  }
  Flight& f = s.ring[s.next & (s.ring.size() - 1)];
  f.created = p.created;
  f.injected = now;
  f.dst = p.dst;
  f.state = 1;
  ++s.next;
}

NetChecker::Flight* NetChecker::find(uint32_t src, uint32_t seq) {
  Source& s = src_[src];
  if (static_cast<uint32_t>(seq - s.base) >= static_cast<uint32_t>(s.next - s.base)) return nullptr;
  return &s.ring[seq & (s.ring.size() - 1)];
}

void NetChecker::fail(unsigned node, const uint32_t* w, uint64_t now, const std::string& what, const PacketTag* expect,
                      unsigned flit) const {
  std::string msg = fmt::format("net checker: cycle {}, ejection port of node {}: {}\n  received:", now, node, what);
  for (unsigned i = 0; i < words_; ++i) msg += fmt::format(" {:08x}", w[i]);
  if (expect) {
    std::vector<uint32_t> e(words_);
    encode_flit(e.data(), words_, shape_, *expect, flit);
    if (flit == 0) e[0] = static_cast<uint32_t>(shape_.hops(expect->src, expect->dst)) << kHopLsb;
    msg += fmt::format("\n  expected:");
    for (unsigned i = 0; i < words_; ++i) msg += fmt::format(" {:08x}", e[i]);
    msg += fmt::format("  (flit {} of packet src {} dst {} seq {} created at cycle {})", flit, expect->src, expect->dst,
                       expect->seq, expect->created);
  }
  throw NetCheckError(msg);
}

uint64_t NetChecker::injected_packets() const {
  uint64_t n = 0;
  for (const Source& s : src_) n += s.next;
  return n;
}

const Delivery* NetChecker::ejected(unsigned node, const uint32_t* w, uint64_t now) {
  ++flits_;
  Pending p;
  return check_flit(node, w, now, p) ? settle(p, now) : nullptr;
}

bool NetChecker::check_flit(unsigned node, const uint32_t* w, uint64_t now, Pending& p) {
  Port& port = port_[node];
  p.node = node;
  p.w = w;
  p.head = !port.busy;
  if (p.head) {
    if ((w[4] >> 24) != kFlitMagic || ((w[4] >> 16) & 0xFFu) != 0)
      fail(node, w, now, "expected a head flit (flit index 0 and the 0xA5 mark in word 4)", nullptr, 0);
    PacketTag t;
    t.src = w[1] & 0xFFFFu;
    t.dst = w[1] >> 16;
    t.seq = w[2];
    t.created = w[3] | (static_cast<uint64_t>(w[4] & 0xFFFFu) << 32);
    if (t.src >= nodes_ || t.dst >= nodes_) fail(node, w, now, "head names a node outside the mesh", nullptr, 0);
    // first: a packet whose route leaves the network is ejected early, with its hops left
    if ((w[0] & 0xFFFFFFu) != 0)
      fail(node, w, now,
           fmt::format("route field not zero at ejection: hops ({}, {}, {}) left (a router ejects a packet whose "
                       "route leaves the network where it would leave, docs/router.md)",
                       route_hops(w[0], 0), route_hops(w[0], 1), route_hops(w[0], 2)),
           &t, 0);
    if (t.dst != node) fail(node, w, now, fmt::format("misrouted: packet for node {} ejected at node {}", t.dst, node), &t, 0);
    const unsigned hops = w[0] >> kHopLsb, minimal = coords_.hops(t.src, t.dst);
    if (hops != minimal)
      fail(node, w, now, fmt::format("hop counter {} but the minimal route has {} hops", hops, minimal), &t, 0);
    for (unsigned i = 5; i < words_; ++i)
      if (w[i] != flit_pattern_word(t, 0, i)) fail(node, w, now, fmt::format("payload word {} corrupted", i), &t, 0);
    port.tag = t;
    port.flit = 1;
    port.busy = true;
  } else {  // a body or tail flit of the packet under way on this port
    const PacketTag& t = port.tag;
    const unsigned fl = port.flit;
    const uint32_t w4 = static_cast<uint32_t>((t.created >> 32) & 0xFFFFu) | ((fl & 0xFFu) << 16) | (kFlitMagic << 24);
    if (w[1] != ((t.src & 0xFFFFu) | (t.dst << 16)) || w[2] != t.seq || w[3] != static_cast<uint32_t>(t.created) ||
        w[4] != w4) {
      const bool other_head = (w[4] >> 24) == kFlitMagic && ((w[4] >> 16) & 0xFFu) == 0;
      fail(node, w, now,
           other_head ? fmt::format("head of another packet while flit {} of {} was due (packet interleaved or truncated)",
                                    fl, pkt_flits_)
                      : fmt::format("flit {} of the packet under way corrupted or out of order", fl),
           &t, fl);
    }
    if (w[0] != flit_pattern_word(t, fl, 0)) fail(node, w, now, "payload word 0 corrupted", &t, fl);
    for (unsigned i = 5; i < words_; ++i)
      if (w[i] != flit_pattern_word(t, fl, i)) fail(node, w, now, fmt::format("payload word {} corrupted", i), &t, fl);
    ++port.flit;
  }
  p.tag = port.tag;
  p.tail = port.flit >= pkt_flits_;
  if (p.tail) port.busy = false;
  return p.head || p.tail;
}

const Delivery* NetChecker::settle(const Pending& p, uint64_t now) {
  const PacketTag& t = p.tag;
  if (p.head) {
    const Flight* f = find(t.src, t.seq);
    if (!f || f->state != 1) {
      const Source& s = src_[t.src];
      const bool dup = t.seq < s.next;
      fail(p.node, p.w, now,
           dup ? fmt::format("duplicate: packet src {} seq {} was already delivered", t.src, t.seq)
               : fmt::format("packet src {} seq {} was never injected (node {} injected {} packets)", t.src, t.seq,
                             t.src, s.next),
           &t, 0);
    }
    if (f->dst != t.dst || f->created != t.created)
      fail(p.node, p.w, now,
           fmt::format("head does not match the injected packet (injected: dst {}, created {})", f->dst, f->created), &t, 0);
  }
  if (!p.tail) return nullptr;
  // Tail: the packet is delivered.
  Source& s = src_[t.src];
  Flight* f = find(t.src, t.seq);
  if (check_order_) {
    uint32_t& last = last_seq_[static_cast<size_t>(t.dst) * nodes_ + t.src];
    if (t.seq + 1 <= last) {
      throw NetCheckError(fmt::format(
          "net checker: cycle {}, node {}: flow order broken: packet seq {} from node {} delivered after seq {}", now, p.node,
          t.seq, t.src, last - 1));
    }
    last = t.seq + 1;
  }
  f->state = 2;
  last_.tag = t;
  last_.injected = f->injected;
  last_.delivered = now;
  last_.hops = coords_.hops(t.src, t.dst);
  while (s.base != s.next && s.ring[s.base & (s.ring.size() - 1)].state == 2) {
    s.ring[s.base & (s.ring.size() - 1)].state = 0;
    ++s.base;
  }
  ++delivered_;
  return &last_;
}

void NetChecker::check_drained(uint64_t now) const {
  bool partial = false;
  for (const Port& p : port_) partial |= p.busy;
  if (in_flight() == 0 && !partial) return;
  throw NetCheckError(fmt::format("net checker: not drained at cycle {}: {} packets in flight\n{}", now, in_flight(),
                                  dump(now)));
}

uint64_t NetChecker::oldest_injection() const {
  uint64_t oldest = UINT64_MAX;
  for (const Source& s : src_)
    if (s.base != s.next) oldest = std::min(oldest, s.ring[s.base & (s.ring.size() - 1)].injected);
  return oldest;
}

uint64_t NetChecker::oldest_creation() const {
  uint64_t oldest = UINT64_MAX;
  for (const Source& s : src_)
    if (s.base != s.next) oldest = std::min(oldest, s.ring[s.base & (s.ring.size() - 1)].created);
  return oldest;
}

std::string NetChecker::dump(uint64_t now, size_t max) const {
  struct Item {
    uint64_t injected, created;
    uint32_t src, dst, seq;
  };
  std::vector<Item> items;
  for (uint32_t n = 0; n < nodes_; ++n) {
    const Source& s = src_[n];
    for (uint32_t q = s.base; q != s.next; ++q) {
      const Flight& f = s.ring[q & (s.ring.size() - 1)];
      if (f.state == 1) items.push_back({f.injected, f.created, n, f.dst, q});
    }
  }
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.injected < b.injected; });
  std::string out = fmt::format("packets in the network: {} (oldest first)\n", items.size());
  for (size_t i = 0; i < items.size() && i < max; ++i) {
    const Item& it = items[i];
    const auto a = shape_.coords(it.src), b = shape_.coords(it.dst);
    out += fmt::format("  src {:4} ({},{},{}) -> dst {:4} ({},{},{})  seq {:6}  in network {:7} cycles, age {:7} cycles\n",
                       it.src, a[0], a[1], a[2], it.dst, b[0], b[1], b[2], it.seq, now - it.injected, now - it.created);
  }
  if (items.size() > max) out += fmt::format("  ... {} more\n", items.size() - max);
  for (uint32_t n = 0; n < nodes_; ++n)
    if (port_[n].busy)
      out += fmt::format("  ejection port {} stopped inside packet src {} seq {}: {} of {} flits received\n", n,
                         port_[n].tag.src, port_[n].tag.seq, port_[n].flit, pkt_flits_);
  return out;
}

}  // namespace hpcnet::sim
