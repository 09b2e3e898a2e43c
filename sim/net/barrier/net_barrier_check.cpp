// sim/net/barrier/net_barrier_check.cpp: see net_barrier_check.hpp.
#include "sim/net/barrier/net_barrier_check.hpp"

#include <algorithm>
#include <sstream>

namespace hpcnet::sim {

namespace {

const char* kind_name(BarrierKind k) { return k == BarrierKind::full ? "full" : "half"; }

std::string cyc(uint64_t c) { return c == BarrierCheck::kNever ? std::string("never") : std::to_string(c); }

}  // namespace

const char* to_string(BarrierViolation::Kind k) {
  switch (k) {
    case BarrierViolation::Kind::malformed: return "malformed";
    case BarrierViolation::Kind::kind_mismatch: return "kind mismatch";
    case BarrierViolation::Kind::not_all_entered: return "left before every node entered";
    case BarrierViolation::Kind::to_node_missing: return "a packet to the node not arrived";
    case BarrierViolation::Kind::own_missing: return "a packet of the node not delivered";
  }
  return "?";
}

BarrierCheck::BarrierCheck(unsigned nodes) : node_(nodes) {}

void BarrierCheck::enter(unsigned n, uint64_t cycle, BarrierKind kind) {
  if (n >= node_.size()) {
    malformed_.push_back({BarrierViolation::Kind::malformed, n, 0, 0,
                          "enter of node " + std::to_string(n) + " outside 0.." + std::to_string(node_.size() - 1)});
    return;
  }
  auto& v = node_[n];
  if (!v.empty() && (v.back().leave == kNever || cycle < v.back().leave)) {
    malformed_.push_back({BarrierViolation::Kind::malformed, n, static_cast<unsigned>(v.size()), 0,
                          "node " + std::to_string(n) + " enters barrier " + std::to_string(v.size()) + " in cycle " +
                              std::to_string(cycle) + " before leaving barrier " + std::to_string(v.size() - 1) +
                              " (left " + cyc(v.back().leave) + ")"});
  }
  v.push_back({cycle, kNever, kind});
}

void BarrierCheck::leave(unsigned n, uint64_t cycle) {
  if (n >= node_.size() || node_[n].empty() || node_[n].back().leave != kNever) {
    malformed_.push_back({BarrierViolation::Kind::malformed, n, 0, 0,
                          "node " + std::to_string(n) + " leaves in cycle " + std::to_string(cycle) +
                              " without being in a barrier"});
    return;
  }
  Bar& b = node_[n].back();
  if (cycle < b.enter) {
    malformed_.push_back({BarrierViolation::Kind::malformed, n, static_cast<unsigned>(node_[n].size() - 1), 0,
                          "node " + std::to_string(n) + " leaves in cycle " + std::to_string(cycle) +
                              " before it entered (" + std::to_string(b.enter) + ")"});
  }
  b.leave = cycle;
}

uint64_t BarrierCheck::sent(unsigned src, unsigned dst, uint64_t cycle) {
  if (src >= node_.size() || dst >= node_.size()) {
    malformed_.push_back({BarrierViolation::Kind::malformed, src, 0, pkt_.size(),
                          "packet " + std::to_string(src) + " -> " + std::to_string(dst) + " names a node outside 0.." +
                              std::to_string(node_.size() - 1)});
  }
  pkt_.push_back({src, dst, cycle, kNever});
  return pkt_.size() - 1;
}

void BarrierCheck::arrived(uint64_t id, uint64_t cycle) {
  if (id >= pkt_.size() || pkt_[id].arrived != kNever || cycle < pkt_[id].sent) {
    malformed_.push_back({BarrierViolation::Kind::malformed, 0, 0, id,
                          "packet " + std::to_string(id) + " arrives in cycle " + std::to_string(cycle) +
                              (id >= pkt_.size() ? ": never sent"
                               : pkt_[id].arrived != kNever ? ": arrived before (" + std::to_string(pkt_[id].arrived) + ")"
                                                            : ": before it was sent (" + std::to_string(pkt_[id].sent) + ")")});
    return;
  }
  pkt_[id].arrived = cycle;
}

size_t BarrierCheck::left(unsigned n) const {
  const auto& v = node_.at(n);
  return (!v.empty() && v.back().leave == kNever) ? v.size() - 1 : v.size();
}

std::vector<BarrierViolation> BarrierCheck::check(size_t limit) const {
  std::vector<BarrierViolation> out(malformed_.begin(), malformed_.begin() + std::min(limit, malformed_.size()));
  auto full = [&] { return out.size() >= limit; };
  const unsigned N = nodes();
  size_t nb = 0;
  for (const auto& v : node_) nb = std::max(nb, v.size());

  // Every node entered barrier b by the time any node left it; one kind per barrier.
  for (size_t b = 0; b < nb && !full(); ++b) {
    uint64_t last_enter = 0;
    unsigned late = 0;
    int kind = -1;
    unsigned kind_node = 0;
    for (unsigned u = 0; u < N; ++u) {
      uint64_t e = b < node_[u].size() ? node_[u][b].enter : kNever;
      if (e >= last_enter) {
        last_enter = e;
        late = u;
      }
      if (b < node_[u].size()) {
        int k = static_cast<int>(node_[u][b].kind);
        if (kind < 0) {
          kind = k;
          kind_node = u;
        } else if (k != kind && !full()) {
          out.push_back({BarrierViolation::Kind::kind_mismatch, u, static_cast<unsigned>(b), 0,
                         "barrier " + std::to_string(b) + " is " + kind_name(node_[u][b].kind) + " at node " +
                             std::to_string(u) + " but " + kind_name(node_[kind_node][b].kind) + " at node " +
                             std::to_string(kind_node)});
        }
      }
    }
    for (unsigned t = 0; t < N && !full(); ++t) {
      if (b >= node_[t].size() || node_[t][b].leave == kNever) continue;
      if (node_[t][b].leave < last_enter) {
        out.push_back({BarrierViolation::Kind::not_all_entered, t, static_cast<unsigned>(b), late,
                       "node " + std::to_string(t) + " left barrier " + std::to_string(b) + " in cycle " +
                           std::to_string(node_[t][b].leave) + " but node " + std::to_string(late) + " entered it in " +
                           cyc(last_enter)});
      }
    }
  }

  // Packets: the first barrier its sender entered after sending it binds the destination's leave
  // (half) and the first full one binds the sender's (full).
  for (uint64_t id = 0; id < pkt_.size() && !full(); ++id) {
    const Pkt& p = pkt_[id];
    if (p.src >= N || p.dst >= N) continue;
    const auto& sb = node_[p.src];
    auto it = std::upper_bound(sb.begin(), sb.end(), p.sent, [](uint64_t c, const Bar& x) { return c < x.enter; });
    if (it == sb.end()) continue;
    const size_t b = static_cast<size_t>(it - sb.begin());
    const auto& db = node_[p.dst];
    if (b < db.size() && db[b].leave != kNever && p.arrived > db[b].leave) {
      out.push_back({BarrierViolation::Kind::to_node_missing, p.dst, static_cast<unsigned>(b), id,
                     "node " + std::to_string(p.dst) + " left barrier " + std::to_string(b) + " in cycle " +
                         std::to_string(db[b].leave) + " but packet " + std::to_string(id) + " from node " +
                         std::to_string(p.src) + ", sent in cycle " + std::to_string(p.sent) +
                         " before its sender entered (" + std::to_string(sb[b].enter) + "), arrived " + cyc(p.arrived)});
      if (full()) break;
    }
    auto fit = std::find_if(it, sb.end(), [](const Bar& x) { return x.kind == BarrierKind::full; });
    if (fit != sb.end() && fit->leave != kNever && p.arrived > fit->leave) {
      out.push_back({BarrierViolation::Kind::own_missing, p.src, static_cast<unsigned>(fit - sb.begin()), id,
                     "node " + std::to_string(p.src) + " left full barrier " + std::to_string(fit - sb.begin()) +
                         " in cycle " + std::to_string(fit->leave) + " but its packet " + std::to_string(id) + " to node " +
                         std::to_string(p.dst) + ", sent in cycle " + std::to_string(p.sent) + " before it entered (" +
                         std::to_string(fit->enter) + "), arrived " + cyc(p.arrived)});
    }
  }
  return out;
}

std::string BarrierCheck::report(size_t limit) const {
  auto v = check(limit + 1);
  if (v.empty()) return {};
  std::ostringstream s;
  s << "barrier guarantees violated:";
  for (size_t i = 0; i < v.size() && i < limit; ++i) s << "\n  [" << to_string(v[i].kind) << "] " << v[i].what;
  if (v.size() > limit) s << "\n  ...";
  return s.str();
}

}  // namespace hpcnet::sim
