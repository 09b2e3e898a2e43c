// machine_pingpong.cpp: `hpcnet machine --program ping-pong`: one-way latency against hop count.
#include <algorithm>
#include <chrono>
#include <iterator>
#include <memory>
#include <functional>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/results.hpp"
#include "hpcnet/platform.hpp"
#include "hpcnet/rdma.h"
#include "machine/machine_bench.hpp"
#include "sim/nic/nic_pair.hpp"
#include "sim/nic/nic_probe.hpp"

namespace hpcnet::bench::machineb {

namespace {

using Spawn = std::function<void(unsigned node, std::function<void()>)>;

// The mean over the records `later` of node b of (the record - the last record `earlier` of node a
// before it): a packet's time from one stage at a to one at b, one packet in flight at a time.
double mean_gap(const std::vector<uint64_t>& earlier, const std::vector<uint64_t>& later) {
  double sum = 0;
  unsigned n = 0;
  for (uint64_t t : later) {
    auto it = std::lower_bound(earlier.begin(), earlier.end(), t);
    if (it == earlier.begin()) continue;
    sum += double(t - *std::prev(it));
    ++n;
  }
  return n ? sum / n : 0.0;
}

struct OneWay {
  double polled = 0;    // CPU to CPU: a write posted until the other CPU saw it (half a round trip)
  double nic_nic = 0;   // head flit sent by NIC a until NIC b received it (link, routers, links)
  double nic_mem = 0;   // head flit sent by NIC a until the data was in b's memory
};

// Node a and node b bounce an 8-byte value `rounds` times (immediate writes into each other's
// registered word, polled by the CPU); returns the cycles of one way (node a's clock). A run of
// the system between the steps (run()) keeps both threads in step.
OneWay bounce(const Spawn& spawn, const std::function<void()>& run, sim::NicProbe& probe, unsigned a, unsigned b, unsigned rounds) {
  rdma_ep* ep[2] = {nullptr, nullptr};
  uint64_t va[2] = {0, 0};
  uint16_t key[2] = {0, 0};
  const unsigned node[2] = {a, b};
  for (unsigned i = 0; i < 2; ++i)
    spawn(node[i], [&, i] {
      if (rdma_open(&ep[i]) != 0) throw CheckFailed("ping-pong: no endpoint");
      va[i] = rdma_alloc(ep[i], 4096, 0);
      if (rdma_reg_mr(ep[i], va[i], 4096, RDMA_ACCESS_WRITE | RDMA_ACCESS_READ, &key[i]) != 0) throw CheckFailed("ping-pong: registration");
    });
  run();
  uint64_t t0 = 0, t1 = 0;
  probe.arm();
  for (unsigned i = 0; i < 2; ++i)
    spawn(node[i], [&, i] {
      Platform& p = *this_platform();
      const rdma_opts o{0, 0, nullptr, nullptr, -1};
      auto wait_for = [&](uint64_t want) {
        uint64_t v = 0;
        for (;;) {
          rdma_mem_read(ep[i], va[i], &v, 8);
          if (v == want) return;
          p.relax();
        }
      };
      if (i == 0) t0 = p.now_cycles();
      for (uint64_t r = 1; r <= rounds; ++r) {
        if (i == 1) wait_for(r);
        if (rdma_write_imm(ep[i], node[1 - i], rdma_vp(ep[1 - i]), rdma_addr{key[1 - i], va[1 - i]}, &r, 8, &o) != 0)
          throw CheckFailed("ping-pong: post refused");
        if (i == 0) wait_for(r);
      }
      if (i == 0) t1 = this_platform()->now_cycles();
      if (rdma_quiet(ep[i]) != 0) throw CheckFailed(fmt::format("ping-pong: a write between nodes {} and {} failed", a, b));
      rdma_close(ep[i]);
    });
  run();
  probe.disarm();
  const sim::NicProbe::Node &pa = probe.node(a), &pb = probe.node(b);
  return {double(t1 - t0) / (2.0 * rounds), mean_gap(pa.tx_head, pb.rx_head), mean_gap(pa.tx_head, pb.applied)};
}

// A node `h` hops from node 0: along X first, then Y, then Z.
unsigned node_at(const sim::MeshShape& s, unsigned h) {
  std::array<int, 3> c{0, 0, 0};
  for (unsigned d = 0; d < s.dims && h > 0; ++d) {
    const unsigned far = s.torus ? s.k[d] / 2 : s.k[d] - 1;
    const unsigned step = std::min(h, far);
    c[d] = int(step);
    h -= step;
  }
  return s.id(c);
}

}  // namespace

bool run_pingpong(const MachineOptions& o, const std::string& csv) {
  Progress prog("machine ping-pong", 2, o.progress);
  // the machine first (run 1: --trace follows it), then the reference: the two-node platform, back
  // to back (run 2)
  const unsigned diam = o.shape.diameter();
  std::vector<OneWay> hop(diam + 1);
  std::vector<unsigned> hop_node(diam + 1, 0);
  Speed speed;
  unsigned nodes = 0;
  double ns_per_cycle = 0;
  {
    const Stopwatch sw;
    sim::Machine m(machine_config(o));
    std::vector<sim::NicDevice*> nics;
    for (unsigned i = 0; i < m.nodes(); ++i) nics.push_back(&m.nic(i));
    auto mp = std::make_unique<sim::NicProbe>(nics, m.node(0));
    sim::NicProbe& probe = *mp;
    m.cluster().add_fabric(std::move(mp));
    for (unsigned h = 1; h <= diam; ++h) {
      hop_node[h] = node_at(o.shape, h);
      hop[h] = bounce([&](unsigned n, std::function<void()> f) { m.spawn(n, 0, 0, std::move(f)); }, [&] { m.run(); }, probe, 0,
                      hop_node[h], o.rounds);
    }
    prog.step(fmt::format("{} distances on {}", diam, o.shape.name()));
    speed = sw.speed(m.cycles());
    nodes = m.nodes();
    ns_per_cycle = m.ns(1000) / 1000.0;
  }
  OneWay b2b;
  {
    sim::NicPair pair;
    auto pp = std::make_unique<sim::NicProbe>(pair);
    sim::NicProbe& pair_probe = *pp;
    pair.cluster().add_fabric(std::move(pp));
    b2b = bounce([&](unsigned n, std::function<void()> f) { pair.spawn(n, 0, 0, std::move(f)); }, [&] { pair.run(); }, pair_probe, 0, 1,
                 o.rounds);
    prog.step(fmt::format("back to back: {:.1f} cycles one way", b2b.polled));
  }
  Results r({{"hops", ""}, {"node", ""}, {"one_way_cycles", "polled (cycles)"}, {"one_way_ns", "polled (ns)"},
             {"nic_to_nic_cycles", "NIC to NIC"}, {"nic_to_memory_cycles", "NIC to memory"},
             {"over_b2b_cycles", "NIC to NIC over b2b"}});
  r.config("shape", o.shape.name()).config("mode", sim::mode_name(o.mode)).config("rounds", double(o.rounds))
      .config("b2b_polled_cycles", b2b.polled).config("b2b_nic_to_nic_cycles", b2b.nic_nic)
      .config("b2b_nic_to_memory_cycles", b2b.nic_mem);
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (unsigned h = 1; h <= diam; ++h) {
    const OneWay& w = hop[h];
    const double t = w.nic_nic;
    r.add({num(h), num(hop_node[h]), num(w.polled), num(w.polled * ns_per_cycle), num(w.nic_nic), num(w.nic_mem),
           num(t - b2b.nic_nic)});
    sx += h;
    sy += t;
    sxx += double(h) * h;
    sxy += h * t;
  }
  fmt::print("\nPing-pong on {} {}: one-way latency of an 8-byte immediate write (cycles of 3.2 ns); back to back: polled {:.1f}, "
             "NIC to NIC {:.1f}, NIC to memory {:.1f}\n", o.shape.name(), sim::mode_name(o.mode), b2b.polled, b2b.nic_nic, b2b.nic_mem);
  print_results(r, csv_name(csv, "pingpong"), "pingpong");
  const double n = diam, slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), icept = (sy - slope * sx) / n;
  Results fit({{"slope_cycles_per_hop", "slope (cycles/hop)"}, {"router_cycles_per_hop", "router alone"},
               {"intercept_cycles", "intercept (cycles)"}, {"b2b_cycles", "back to back"}, {"intercept_over_b2b_cycles", "intercept - b2b"}});
  fit.add({num(slope, 2), num(2.0, 0), num(icept), num(b2b.nic_nic), num(icept - b2b.nic_nic)});
  fmt::print("\nLeast-squares fit of NIC to NIC over 1..{} hops\n", diam);
  print_results(fit, csv_name(csv, "pingpong_fit"), "pingpong_fit");
  print_speed(o, speed, nodes, csv);
  return true;
}

}  // namespace hpcnet::bench::machineb
