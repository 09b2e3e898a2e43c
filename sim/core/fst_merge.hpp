// sim/core/fst_merge.hpp: several FST traces of one run (models clocked together, so one time
// base) merged into one file: the machine's node N is a NIC, its router's link end and a router
// plane, three Verilated models each writing its own FST; one file shows them side by side.
#pragma once

#include <string>
#include <vector>

namespace hpcnet::sim {

// Writes `out` with every scope and variable of `inputs` (each model's TOP scope kept: GTKWave
// shows one TOP with every model's top module under it), their enum tables, and all their value
// changes in time order. The inputs must share a timescale. Reads each input whole into memory
// (about 12 bytes and the value a change): trace a window of a long run. Throws TraceError
// naming the file that cannot be read or written, or a timescale that differs.
void fst_merge(const std::vector<std::string>& inputs, const std::string& out);

}  // namespace hpcnet::sim
