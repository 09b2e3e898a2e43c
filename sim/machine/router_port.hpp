// sim/machine/router_port.hpp: the router's end of a NIC's link on the router network
// (docs/machine.md): a whole reliable-link end (lnk_end, the Verilated Vlnk_end_rport: the NIC's
// window, 24 credits and 24 packets per VC) between the link wire to the NIC and the node's two
// router planes. What it receives on VC v it injects into plane v's injection port; what plane v
// ejects it sends to the NIC on VC v. The router ports count a packet's flits by position (no
// head or tail sideband): this end counts the ejected flits to mark each packet's last.
//
// Per cycle (NicNetFabric): settle() with the link's inputs (link().rx, ctl_in, set by the wire)
// and the planes' registered port outputs (injection ready, ejection valid and flit); then the
// outputs are read (link().tx and ctl_out for the wire, inject() and ej_ready() for the planes);
// edge() takes the clock edge with those handshakes.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "sim/core/trace.hpp"
#include "sim/net/model/net_sim.hpp"
#include "sim/nic/nic_device.hpp"

namespace hpcnet::sim {

class RouterPort {
 public:
  explicit RouterPort(double clock_mhz = 312.5, TraceWindow trace = TraceWindow::off());
  ~RouterPort();
  RouterPort(const RouterPort&) = delete;
  RouterPort& operator=(const RouterPort&) = delete;

  NicLinkPort& link() { return link_; }
  // This cycle's inputs from plane v (its port outputs after the last edge); settles the end.
  void settle(const std::array<NetSimBase::PortOut, 2>& planes);
  // Its outputs after settle(): the flit offered to plane v's injection port (nullptr: none), and
  // whether it takes plane v's ejected flit.
  const uint32_t* inject(unsigned v) const { return inj_valid_[v] ? inj_data_[v].data() : nullptr; }
  bool ej_ready(unsigned v) const { return ej_ready_[v]; }
  void edge();
  bool up() const;
  uint64_t downs() const;
  void close_trace();

 private:
  struct Model;
  std::unique_ptr<Model> m_;
  NicLinkPort link_;
  std::array<bool, 2> inj_valid_{}, ej_ready_{}, ej_valid_{};
  std::array<std::array<uint32_t, 8>, 2> inj_data_{};
  std::array<unsigned, 2> ej_flit_{};  // flits of the current ejected packet taken so far, per plane
};

}  // namespace hpcnet::sim
