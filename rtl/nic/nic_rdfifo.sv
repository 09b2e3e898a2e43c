// nic_rdfifo: the read engine's data FIFO (nic_rdeng): Depth entries of Width bits in one
// simple dual-port SRAM (one write port, one synchronous read port: the shape of a 1W1R macro;
// synthesis keeps it as a memory with mem=keep), followed by a 2-entry output stage (cmn_fifo)
// that hides the SRAM's read latency.
//   Write   : wr_valid_i/wr_ready_o; wr_ready_o = the SRAM has a free row. The read engine never
//             offers a beat it has no room for (it counts credit), so wr_ready_o is high whenever
//             it writes; a refused beat is asserted against.
//   Read    : rd_valid_o/rd_ready_i/rd_data_o, a valid/ready stream (rd_valid_o and rd_data_o
//             are registered: the output stage's head).
//   count_o : entries held: SRAM rows, the row being read, the output stage (0 .. Depth + 2).
//   Latency : a beat written (accepted) in cycle t is at rd_data_o from cycle t+3 (the SRAM
//             row, its read, then the output stage), earlier beats permitting.
//   Throughput: one beat in and one beat out per cycle (the SRAM is read while the output stage,
//             counting the row being read and the beat leaving this cycle, holds at most one).
// Parameters: Depth: SRAM rows (>= 2). Width: bits per row (>= 1). CntW derived.
module nic_rdfifo #(
  parameter int  Depth = 256,
  parameter int  Width = 256,
  localparam int CntW  = $clog2(Depth + 3)  // derived, do not override: holds 0 .. Depth + 2
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // write side
  input  logic             wr_valid_i,
  output logic             wr_ready_o,
  input  logic [Width-1:0] wr_data_i,
  // read side
  output logic             rd_valid_o,
  input  logic             rd_ready_i,
  output logic [Width-1:0] rd_data_o,
  // occupancy
  output logic [CntW-1:0]  count_o
);
  // Parameter checks
  if (Depth < 2) begin : gen_err_depth
    $error("nic_rdfifo: Depth must be >= 2");
  end
  if (Width < 1) begin : gen_err_width
    $error("nic_rdfifo: Width must be >= 1");
  end

  localparam int AW  = $clog2(Depth);
  localparam int SCW = $clog2(Depth + 1);

  // ---------------------------------------------------------------- SRAM (1W1R, not reset)
  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;
  logic [AW-1:0]    wptr_q, rptr_q;
  logic [SCW-1:0]   scnt_q;      // rows held
  logic             pend_q;      // a row was read last cycle: rdata_q enters the output stage
  logic             we, re;

  logic [1:0]       ost_cnt;
  logic             ost_ready, ost_pop;

  assign wr_ready_o = scnt_q != SCW'(Depth);
  assign we         = wr_valid_i && wr_ready_o;
  assign ost_pop    = rd_valid_o && rd_ready_i;
  // Read a row when the output stage will hold at most one beat after this cycle's pop and the
  // arrival of the row read last cycle: the row read now then always finds room next cycle.
  assign re = scnt_q != '0 && (3'(ost_cnt) + 3'(pend_q) - 3'(ost_pop)) <= 3'd1;

  always_ff @(posedge clk_i) begin
    if (we) mem_q[wptr_q] <= wr_data_i;
    if (re) rdata_q <= mem_q[rptr_q];
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_q <= '0;
      rptr_q <= '0;
      scnt_q <= '0;
      pend_q <= 1'b0;
    end else begin
      if (we) wptr_q <= (wptr_q == AW'(Depth - 1)) ? '0 : wptr_q + AW'(1);
      if (re) rptr_q <= (rptr_q == AW'(Depth - 1)) ? '0 : rptr_q + AW'(1);
      scnt_q <= scnt_q + SCW'(we) - SCW'(re);
      pend_q <= re;
    end
  end

  // ---------------------------------------------------------------- output stage
  cmn_fifo #(.Width(Width), .Depth(2)) u_ost (
    .clk_i, .rst_ni,
    .valid_i(pend_q),
    .ready_o(ost_ready),
    .data_i (rdata_q),
    .valid_o(rd_valid_o),
    .ready_i(rd_ready_i),
    .data_o (rd_data_o),
    .count_o(ost_cnt)
  );

  assign count_o = CntW'(scnt_q) + CntW'(pend_q) + CntW'(ost_cnt);
  logic unused_ost_ready;  // always high when written (asserted below)
  assign unused_ost_ready = ost_ready;

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({wr_valid_i, rd_ready_i}));
  // The writer counts credit: a beat always finds a free row.
  a_no_overflow: assert property (@(posedge clk_i) disable iff (!rst_ni) wr_valid_i |-> wr_ready_o);
  // A row read always finds room in the output stage.
  a_ost_room: assert property (@(posedge clk_i) disable iff (!rst_ni) pend_q |-> ost_ready);
`endif
endmodule
