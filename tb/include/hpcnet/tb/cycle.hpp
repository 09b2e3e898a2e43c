// hpcnet/tb/cycle.hpp: the cycle of the module-level Catch2 tests on an hpcnet::sim::Harness.
// A test sets the inputs, calls the harness's eval() and samples the outputs (values before the
// clock edge), then tick(): rising edge, then clk low again, so that registered outputs show the
// edge's result and inputs set next are evaluated before the following edge. RTL assertion
// failures throw hpcnet::sim::AssertionFailed from any of these calls.
#pragma once

#include "sim/core/harness.hpp"

namespace hpcnet::tb {

template <class V>
void tick(sim::Harness<V>& h) {
  h.edge();
  h.settle();
}

// Synchronous reset for `edges` rising edges with the inputs as they are, then release.
template <class V>
void sync_reset(sim::Harness<V>& h, unsigned edges = 2) {
  h.set_reset(true);
  h.settle();
  for (unsigned i = 0; i < edges; ++i) tick(h);
  h.set_reset(false);
}

}  // namespace hpcnet::tb
