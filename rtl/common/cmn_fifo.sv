// cmn_fifo: synchronous FIFO of Depth entries of Width bits, valid/ready on both sides.
//   Latency   : a beat accepted at cycle t is at data_o from cycle t+1 (not fall-through).
//   Throughput: one beat in and one beat out per cycle. ready_o = !full: a full FIFO takes no
//               beat even when it is popped in the same cycle.
//   Outputs   : all registered (no combinational path from any input to any output).
//               valid_o = !empty; data_o holds still while valid_o && !ready_i.
//   count_o   : entries held (status level).
// Parameters: Width: data bits (>= 1). Depth: entries (>= 1, any value, not only powers of 2).
module cmn_fifo #(
  parameter int Width = 8,
  parameter int Depth = 4,
  localparam int CntW = $clog2(Depth + 1),             // derived, do not override
  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1  // derived, do not override
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,
  output logic             ready_o,
  input  logic [Width-1:0] data_i,
  output logic             valid_o,
  input  logic             ready_i,
  output logic [Width-1:0] data_o,
  output logic [CntW-1:0]  count_o
);
  // Parameter checks
  if (Width < 1) begin : gen_err_width
    $error("cmn_fifo: Width must be >= 1");
  end
  if (Depth < 1) begin : gen_err_depth
    $error("cmn_fifo: Depth must be >= 1");
  end

  logic [Width-1:0] mem_q [0:Depth-1];
  logic [PtrW-1:0]  wptr_q, wptr_d, rptr_q, rptr_d;
  logic [CntW-1:0]  count_q, count_d;
  logic             push, pop;

  assign ready_o = (count_q != CntW'(Depth));
  assign valid_o = (count_q != '0);
  assign count_o = count_q;
  assign push    = valid_i & ready_o;
  assign pop     = valid_o & ready_i;
  assign data_o  = mem_q[rptr_q];

  always_comb begin
    wptr_d  = wptr_q;
    rptr_d  = rptr_q;
    count_d = count_q;
    if (push) wptr_d = (wptr_q == PtrW'(Depth - 1)) ? '0 : wptr_q + PtrW'(1);
    if (pop)  rptr_d = (rptr_q == PtrW'(Depth - 1)) ? '0 : rptr_q + PtrW'(1);
    if (push && !pop) count_d = count_q + CntW'(1);
    if (pop && !push) count_d = count_q - CntW'(1);
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else begin
      wptr_q  <= wptr_d;
      rptr_q  <= rptr_d;
      count_q <= count_d;
    end
  end

  // Storage is not reset: only written entries are ever visible at data_o.
  always_ff @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= data_i;
  end

`ifndef SYNTHESIS
  // Assertions
  a_ctrl_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({valid_i, ready_i}));
  a_data_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      push |-> !$isunknown(data_i));
  a_count_range: assert property (@(posedge clk_i) disable iff (!rst_ni)
      count_q <= CntW'(Depth));
  a_out_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_o && !ready_i |=> valid_o && $stable(data_o));
`endif
endmodule
