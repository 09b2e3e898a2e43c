// tb/net/fake_net.hpp: an ideal C++ mesh behind the NetEngine protocol, for testing the traffic
// engine, the checker and the watchdog without RTL. Injection ports are always ready; a packet
// whose tail has entered reaches its destination `delay_per_hop` cycles per hop later (route
// field decoded like a router would: zero remaining hops, hop counter = hops travelled) and
// leaves the ejection port flit by flit, one packet at a time, in order of arrival. Faults can be
// switched on to show that the checker and the watchdog catch them. Not fast: tests only.
#pragma once

#include <deque>
#include <map>
#include <vector>

#include "sim/net/model/net_sim.hpp"

namespace hpcnet::tb {

class FakeNet final : public sim::NetSimBase {
 public:
  enum class Fault { none, corrupt, duplicate, misroute, bad_hops, reorder, drop, stuck, truncate };

  explicit FakeNet(const sim::NetSpec& spec, unsigned delay_per_hop = 2) : NetSimBase(spec), delay_(delay_per_hop) {
    reset_model();
  }

  // The fault hits the `nth` packet to arrive at its destination (0-based); stuck: no injection
  // port is ever ready.
  void fault(Fault f, uint64_t nth = 0) {
    fault_ = f;
    fault_at_ = nth;
  }

  void reset_model() override {
    const unsigned n = engine_.nodes();
    partial_.assign(n, {});
    transit_.assign(n, {});
    ej_.assign(n, {});
    arrived_ = 0;
    held_.clear();
  }

  void step() override {
    sim::NetEngine& e = engine_;
    const unsigned n = e.nodes(), w = e.words(), pf = spec().pkt_flits;
    const sim::MeshShape& s = spec().shape;
    e.begin_cycle();
    e.clear_changed();  // the "model inputs" are read straight from the engine below
    const uint64_t now = e.now();
    // Injection: every port is ready unless stuck.
    for (unsigned i = 0; i < n && fault_ != Fault::stuck; ++i) {
      if (!e.presenting(i)) continue;
      const uint32_t* f = e.stage(i);
      partial_[i].insert(partial_[i].end(), f, f + w);
      e.accepted(i);
      if (partial_[i].size() == static_cast<size_t>(pf) * w) {
        Packet p{std::move(partial_[i])};
        partial_[i].clear();
        const uint32_t r = p.words[0];
        auto c = s.coords(i);
        unsigned hops = 0;
        for (unsigned d = 0; d < 3; ++d) {
          const int delta = sim::route_hops(r, d);
          c[d] = (c[d] + delta + static_cast<int>(s.k[d])) % static_cast<int>(s.k[d]);  // (a torus wraps)
          hops += static_cast<unsigned>(delta < 0 ? -delta : delta);
        }
        p.words[0] = static_cast<uint32_t>(rtr_formats::Head{.route = {}, .hop_count = hops}.pack()[0]);
        transit_[s.id(c)].emplace(now + 1 + delay_ * hops, std::move(p));
      }
    }
    // Arrivals: move packets whose time has come to their ejection queue (faults applied here).
    for (unsigned d = 0; d < n; ++d) {
      auto& t = transit_[d];
      while (!t.empty() && t.begin()->first <= now) {
        Packet p = std::move(t.begin()->second);
        t.erase(t.begin());
        arrive(d, std::move(p), w, pf);
      }
    }
    // Ejection: one flit per ready port.
    const uint64_t* ready = e.ej_ready_bits();
    for (unsigned d = 0; d < n; ++d) {
      auto& q = ej_[d];
      if (q.empty() || !((ready[d >> 6] >> (d & 63)) & 1)) continue;
      Out& o = q.front();
      e.ejected(d, o.p.words.data() + static_cast<size_t>(o.flit) * w);
      if (++o.flit == o.p.words.size() / w) q.pop_front();
    }
    e.end_cycle();
  }

 private:
  struct Packet {
    std::vector<uint32_t> words;
  };
  struct Out {
    Packet p;
    unsigned flit = 0;
  };

  void arrive(unsigned d, Packet p, unsigned w, unsigned pf) {
    const uint64_t k = arrived_++;
    const bool hit = fault_ != Fault::none && k == fault_at_;
    const unsigned n = engine_.nodes();
    if (!held_.empty() && fault_ == Fault::reorder) {  // deliver the held packet after this one
      ej_[d].push_back({std::move(p)});
      ej_[held_dst_].push_back({std::move(held_.front())});
      held_.clear();
      return;
    }
    if (!hit) {
      ej_[d].push_back({std::move(p)});
      return;
    }
    switch (fault_) {
      case Fault::corrupt: p.words[static_cast<size_t>(pf - 1) * w + 6] ^= 0x100u; break;
      case Fault::duplicate: ej_[d].push_back({p}); break;
      case Fault::misroute: d = (d + 1) % n; break;
      case Fault::bad_hops: p.words[0] += static_cast<uint32_t>(rtr_formats::HEAD_HOP_COUNT.put(1)); break;
      case Fault::reorder:
        held_.push_back(std::move(p));
        held_dst_ = d;
        return;
      case Fault::drop: return;
      case Fault::truncate: p.words.resize(static_cast<size_t>(pf - 1) * w); break;  // tail lost
      default: break;
    }
    ej_[d].push_back({std::move(p)});
  }

  unsigned delay_;
  Fault fault_ = Fault::none;
  uint64_t fault_at_ = 0;
  uint64_t arrived_ = 0;
  std::vector<std::vector<uint32_t>> partial_;
  std::vector<std::multimap<uint64_t, Packet>> transit_;
  std::vector<std::deque<Out>> ej_;
  std::vector<Packet> held_;
  unsigned held_dst_ = 0;
};

}  // namespace hpcnet::tb
