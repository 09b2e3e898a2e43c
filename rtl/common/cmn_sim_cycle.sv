// cmn_sim_cycle: simulation-only cycle counter for waveforms. cycle_q counts the rising edges of
// clk_i since time 0 (reset included), so in a trace written by the C++ harness it equals the
// harness's cycle number (HarnessCore::cycles(): the numbers of --trace-first/--trace-last,
// HPCNET_TRACE=file:first:last and the "at cycle N" of error messages): cycle_q = N from the
// settle of cycle N, and it becomes N + 1 at that cycle's rising edge. Under an SV testbench it
// counts the testbench clock's edges the same way.
// No outputs: it changes nothing in the design around it. Instantiate it in a traced top under
// `ifndef SYNTHESIS (the instance is named u_cycle; the save files show TOP.<top>...u_cycle.cycle_q,
// scripts/wave). Synthesis reads no module from this file (the cell counts of the tops do not
// move: Yosys' results change a little with the set of modules read).
`ifndef SYNTHESIS
module cmn_sim_cycle (
  input logic clk_i
);
  logic [63:0] cycle_q;
  initial cycle_q = '0;
  always_ff @(posedge clk_i) cycle_q <= cycle_q + 64'd1;
endmodule
`endif
