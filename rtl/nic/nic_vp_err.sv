// nic_vp_err: the VPs' error words (VP.ERR, vp_err format; docs/nic.md section 6) in a small
// memory fed by error queues. Each reporter has its own queue (cmn_fifo, Depth entries); one
// report a cycle is applied to the memory, the lowest-numbered reporter's queue first: the first
// error of a VP since its word was cleared keeps its CODE and TAG, every error counts (COUNT
// saturates at 0xFFFF), and new_valid_o says the VP's IRQ_CAUSE.ERR is to be raised.
//   Reporters: rep_valid_i is a pulse and is not held: a reporter reports only while rep_room_o
//              (its queue is not full). Reporters other than the last one report at most once
//              every two cycles (the completion unit, the receivers), so with the drain's priority
//              their queues never fill (asserted); the last one (a dropped PIO word) is held by the
//              MMIO port while its queue is full.
//   Clear   : clr_i (software wrote VP.ERR) zeroes the VP's word; it takes the memory's write
//              port in its cycle (the queues wait), so a report queued before or with the clear is
//              applied after it.
//   Read    : rd_data_o is the word of rd_vp_i in the same cycle (reports still queued are not in
//              it; a queue drains within a few cycles).
// Parameters: NumVp (<= 32), Ports (reporters, >= 1), Depth (entries per queue).
module nic_vp_err #(
  parameter int NumVp = 32,
  parameter int Ports = 3,
  parameter int Depth = 4
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [Ports-1:0]   rep_valid_i,
  output logic [Ports-1:0]   rep_room_o,
  input  logic [Ports*5-1:0] rep_vp_i,
  input  logic [Ports*8-1:0] rep_code_i,
  input  logic [Ports*16-1:0] rep_tag_i,
  input  logic               clr_i,
  /* verilator lint_off UNUSEDSIGNAL */  // bits above NumVp's
  input  logic [4:0]         clr_vp_i,
  input  logic [4:0]         rd_vp_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [63:0]        rd_data_o,
  output logic               new_valid_o,
  output logic [4:0]         new_vp_o
);

  if (NumVp < 1 || NumVp > 32) begin : gen_err_vp
    $error("nic_vp_err: NumVp must be 1..32");
  end
  if (Ports < 1) begin : gen_err_ports
    $error("nic_vp_err: Ports must be >= 1");
  end

  localparam int RepW = 5 + 8 + 16;
  localparam int AW = (NumVp > 1) ? $clog2(NumVp) : 1;
  localparam int CL = nic_formats_pkg::NIC_VP_ERR_COUNT_LSB;

  // ---------------------------------------------------------------- the queues
  logic [Ports-1:0]      q_valid, q_pop;
  logic [Ports*RepW-1:0] q_data;
  for (genvar p = 0; p < Ports; p++) begin : gen_q
    /* verilator lint_off UNUSEDSIGNAL */  // the count is not needed
    logic [$clog2(Depth + 1)-1:0] cnt;
    /* verilator lint_on UNUSEDSIGNAL */
    cmn_fifo #(.Width(RepW), .Depth(Depth)) u_q (
      .clk_i, .rst_ni,
      .valid_i(rep_valid_i[p]), .ready_o(rep_room_o[p]),
      .data_i({rep_vp_i[p*5 +: 5], rep_code_i[p*8 +: 8], rep_tag_i[p*16 +: 16]}),
      .valid_o(q_valid[p]), .ready_i(q_pop[p]), .data_o(q_data[p*RepW +: RepW]), .count_o(cnt));
  end

  // the report applied this cycle: the lowest-numbered queue that holds one, unless a clear
  logic            go;
  logic [RepW-1:0] hd;
  always_comb begin
    q_pop = '0;
    hd    = '0;
    for (int p = Ports - 1; p >= 0; p--) begin
      if (q_valid[p]) begin
        q_pop = '0;
        q_pop[p] = !clr_i;
        hd = q_data[p*RepW +: RepW];
      end
    end
    go = q_pop != '0;
  end

  // ---------------------------------------------------------------- the words
  logic [4:0]  hv;
  logic [63:0] cur, upd;
  assign hv = hd[RepW-1 -: 5];
  always_comb begin
    upd = cur;
    if (cur[CL +: 16] == '0) begin
      upd[nic_formats_pkg::NIC_VP_ERR_CODE_LSB +: 8] = hd[16 +: 8];
      upd[nic_formats_pkg::NIC_VP_ERR_TAG_LSB +: 16] = hd[0 +: 16];
    end
    if (cur[CL +: 16] != '1) upd[CL +: 16] = cur[CL +: 16] + 16'd1;
  end

  cmn_ctx_mem #(.Width(64), .Depth(NumVp), .Reads(2)) u_mem (
    .clk_i, .rst_ni,
    .we_i(clr_i || go), .waddr_i(AW'(clr_i ? clr_vp_i : hv)), .wdata_i(clr_i ? 64'd0 : upd),
    .raddr_i({AW'(rd_vp_i), AW'(hv)}), .rdata_o({rd_data_o, cur}));

  assign new_valid_o = go;
  assign new_vp_o    = hv;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    for (int p = 0; p < Ports - 1; p++) begin
      if (rst_ni && rep_valid_i[p]) assert (rep_room_o[p])
        else $error("nic_vp_err: reporter %0d reported into its full queue", p);
    end
  end
`endif
endmodule
