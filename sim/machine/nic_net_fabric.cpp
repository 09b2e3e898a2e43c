// nic_net_fabric.cpp: the NICs joined by two router planes through their links.
#include "sim/machine/nic_net_fabric.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::sim {

NicNetFabric::NicNetFabric(const NicNetConfig& cfg, const std::vector<NicLinkPort*>& nics) : cfg_(cfg) {
  const unsigned n = cfg.shape.nodes();
  if (nics.size() != n)
    throw std::invalid_argument(fmt::format("NicNetFabric: {} NICs for a {} network of {} nodes", nics.size(),
                                            cfg.shape.name(), n));
  for (unsigned v = 0; v < 2; ++v) {
    plane_[v] = make_net(cfg.shape, cfg.mode, cfg.buf_pkts, 1, v == 0 ? cfg.trace : TraceWindow::off());
    if (plane_[v]->spec().flit_bits != 256 || plane_[v]->spec().pkt_flits != 5)
      throw std::invalid_argument(fmt::format("NicNetFabric: {} carries {}-flit packets of {} bits; a NIC's are 5 of 256",
                                              plane_[v]->spec().label(), plane_[v]->spec().pkt_flits,
                                              plane_[v]->spec().flit_bits));
    NetRunConfig rc;
    rc.traffic.load = 0;
    rc.watchdog = 0;  // the cluster's watchdog watches the machine
    rc.max_packet_age = 0;
    plane_[v]->start(rc);
    plane_[v]->engine().set_external(true);
  }
  for (unsigned i = 0; i < n; ++i) {
    ports_.push_back(std::make_unique<RouterPort>(cfg.clock_mhz, i == cfg.trace_node ? cfg.trace : TraceWindow::off()));
    const NicLinkFaults f = i < cfg.faults.size() ? cfg.faults[i] : NicLinkFaults{};
    wires_.push_back(std::make_unique<NicBackToBack>(*nics[i], ports_[i]->link(), cfg.link_delay,
                                                     std::array<NicLinkFaults, 2>{f, f}, cfg.seed + i));
  }
}

NicNetFabric::~NicNetFabric() = default;

std::string NicNetFabric::name() const {
  return fmt::format("NICs on two router planes {}", plane_[0]->spec().label());
}

void NicNetFabric::drive() {
  for (unsigned i = 0; i < nodes(); ++i) {
    wires_[i]->drive();
    ports_[i]->settle({plane_[0]->port_out(i), plane_[1]->port_out(i)});
  }
}

void NicNetFabric::sample() {
  for (auto& w : wires_) w->sample();
}

void NicNetFabric::edge() {
  for (unsigned v = 0; v < 2; ++v) {
    NetEngine& e = plane_[v]->engine();
    for (unsigned i = 0; i < nodes(); ++i) {
      const uint32_t* f = ports_[i]->inject(v);
      e.drive_port(i, f != nullptr, f);
      e.set_ej_ready(i, ports_[i]->ej_ready(v));
    }
    plane_[v]->advance();
  }
  for (auto& p : ports_) p->edge();
}

uint64_t NicNetFabric::progress() const {
  uint64_t p = plane_flits(0) + plane_flits(1);
  for (const auto& w : wires_) p += w->flits();
  return p;
}

std::string NicNetFabric::describe() const {
  std::string s = fmt::format("{}: plane 0 {} flits, plane 1 {} flits through the ports", name(), plane_flits(0), plane_flits(1));
  for (unsigned i = 0; i < nodes(); ++i)
    if (!ports_[i]->up()) s += fmt::format("; node {}'s link is down", i);
  return s;
}

void NicNetFabric::close_trace() {
  for (auto& p : ports_) p->close_trace();
}

}  // namespace hpcnet::sim
