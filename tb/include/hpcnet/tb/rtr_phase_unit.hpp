// rtr_phase_unit.hpp: one Verilated phase unit (rtl/router/rtr_phase.sv, 2-D or 3-D model) behind
// a virtual interface, so that a test can hold units of either model in one network: the unit
// test of rtr_phase (tb/router/test_rtr_phase.cpp) and the barrier prototype beside the router
// networks (tb/net/test_net_barrier_proto.cpp).
#pragma once

#include <memory>

#include "Vrtr_phase.h"
#include "Vrtr_phase_3d.h"
#include "hpcnet/tb/cycle.hpp"
#include "sim/core/harness.hpp"

namespace hpcnet::tb {

struct PhaseUnit {
  virtual ~PhaseUnit() = default;
  // every input of the unit for the coming edge (docs/barrier.md: the phase unit's ports)
  virtual void set(unsigned k, unsigned en, bool enter_valid, bool full, bool leave_ready, unsigned send_ready,
                   unsigned recv, unsigned occ, unsigned left) = 0;
  virtual void settle() = 0;
  virtual void edge() = 0;
  virtual void reset() = 0;  // all inputs 0, then a synchronous reset
  virtual bool enter_ready() = 0;
  virtual bool leave_valid() = 0;
  virtual unsigned send_valid() = 0;
  virtual bool busy() = 0;
  virtual unsigned phase() = 0;
};

template <class V>
struct PhaseUnitOf final : PhaseUnit {
  hpcnet::sim::Harness<V> h{312.5};
  V& m = h.dut();
  void set(unsigned k, unsigned en, bool ev, bool full, bool lr, unsigned sr, unsigned recv, unsigned occ,
           unsigned left) override {
    m.k_i = static_cast<CData>(k);
    m.port_en_i = static_cast<CData>(en);
    m.enter_valid_i = ev;
    m.enter_full_i = full;
    m.leave_ready_i = lr;
    m.send_ready_i = static_cast<CData>(sr);
    m.recv_i = static_cast<CData>(recv);
    m.occ_i = static_cast<SData>(occ);
    m.left_i = static_cast<SData>(left);
  }
  void settle() override { h.settle(); }
  void edge() override { h.edge(); }
  void reset() override {
    set(0, 0, false, false, false, 0, 0, 0, 0);
    sync_reset(h);
  }
  bool enter_ready() override { return m.enter_ready_o; }
  bool leave_valid() override { return m.leave_valid_o; }
  unsigned send_valid() override { return m.send_valid_o; }
  bool busy() override { return m.busy_o; }
  unsigned phase() override { return m.phase_o; }
};

// A unit of the model for `dims` dimensions (2 or 3), not yet reset.
inline std::unique_ptr<PhaseUnit> make_phase_unit(unsigned dims) {
  if (dims == 3) return std::make_unique<PhaseUnitOf<Vrtr_phase_3d>>();
  return std::make_unique<PhaseUnitOf<Vrtr_phase>>();
}

}  // namespace hpcnet::tb
