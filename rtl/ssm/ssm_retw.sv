// ssm_retw: the return writer. Collects completions (ssm_pkg::ret_t) from NumSrc sources
// (round-robin), queues them, and writes each as one 16-byte DMA write of the slot format
// {value, state, tag} to the issuing PE's control page table:
//   slot address = CPT.BASE[pe] + slot * 16,
//   slot = ret_offset when it is inside the table and the state is neither ERR_RET_OFFSET nor
//          ERR_QUEUE_FULL (a dropped command must not clobber a slot in use),
//          else the thread's exception slot (slot = thread).
// A slot outside the table (e.g. CPT.SLOTS = 0) gets no write. Every completion with an error state is
// reported once on err_valid_o (to the error registers); every completion pulses done_o.
// Latency: accept -> DMA request 1 cycle (FIFO); one DMA write per cycle at most.
module ssm_retw #(
  parameter int NumPe     = 5,
  parameter int NumSrc    = 3,
  parameter int FifoDepth = 8,
  localparam int RetW     = ssm_pkg::RetW   // derived
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [NumSrc-1:0]    ret_valid_i,
  output logic [NumSrc-1:0]    ret_ready_o,
  input  logic [NumSrc*RetW-1:0] ret_i,
  input  logic [NumPe*48-1:0]  cpt_base_i,
  input  logic [NumPe*32-1:0]  cpt_slots_i,
  output logic                 dma_req_valid_o,
  input  logic                 dma_req_ready_i,
  output logic [47:0]          dma_req_addr_o,
  output logic [255:0]         dma_req_wdata_o,
  output logic                 err_valid_o,
  output ssm_pkg::ret_t        err_ret_o,
  output logic                 done_o
);
  localparam int SW = (NumSrc > 1) ? $clog2(NumSrc) : 1;

  logic [NumSrc-1:0] gnt;
  logic              any, in_ready;
  logic [SW-1:0]     idx;
  ssm_pkg::ret_t     in_ret;

  cmn_rr_arb #(.N(NumSrc)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (ret_valid_i),
    .advance_i(any && in_ready),
    .gnt_o    (gnt),
    .valid_o  (any),
    .idx_o    (idx)
  );
  always_comb begin  // explicit muxes: Verilator 5.006 over-reads variable part-selects
    in_ret = '0;
    for (int i = 0; i < NumSrc; i++) if (idx == SW'(i)) in_ret = ret_i[i*RetW +: RetW];
  end
  assign ret_ready_o = gnt & {NumSrc{in_ready}};

  assign err_valid_o = any && in_ready && in_ret.state[7];
  assign err_ret_o   = in_ret;
  assign done_o      = any && in_ready;

  logic          q_valid, q_ready;
  ssm_pkg::ret_t q_ret;
  logic [$clog2(FifoDepth+1)-1:0] q_count;
  cmn_fifo #(.Width(RetW), .Depth(FifoDepth)) u_fifo (
    .clk_i, .rst_ni,
    .valid_i(any), .ready_o(in_ready), .data_i(in_ret),
    .valid_o(q_valid), .ready_i(q_ready), .data_o(q_ret),
    .count_o(q_count)
  );
  logic unused_count;
  assign unused_count = ^{q_count, q_ret.opcode, q_ret.addr, base[3:0]};

  logic [47:0] base;
  logic [31:0] slots;
  logic [11:0] slot;
  always_comb begin
    base  = '0;
    slots = '0;
    for (int p = 0; p < NumPe; p++) begin
      if (q_ret.pe == 4'(p)) begin
        base  = cpt_base_i[p*48 +: 48];
        slots = cpt_slots_i[p*32 +: 32];
      end
    end
  end
  logic        to_ring, writable;
  assign to_ring  = 32'(q_ret.ret_offset) < slots &&
                    q_ret.state != ssm_regs_pkg::SSM_STATE_ERR_RET_OFFSET &&
                    q_ret.state != ssm_regs_pkg::SSM_STATE_ERR_QUEUE_FULL;
  assign slot     = to_ring ? q_ret.ret_offset : 12'(q_ret.thread);
  assign writable = 32'(slot) < slots;  // no table (or too small for the exception slot): no write

  assign dma_req_valid_o = q_valid && writable;
  assign q_ready         = !writable || dma_req_ready_i;
  assign dma_req_addr_o  = {base[47:4], 4'b0} + {32'd0, slot, 4'b0};
  always_comb begin
    dma_req_wdata_o         = '0;
    dma_req_wdata_o[63:0]   = q_ret.value;
    dma_req_wdata_o[71:64]  = q_ret.state;
    dma_req_wdata_o[79:72]  = q_ret.ret_offset[7:0];
  end

`ifndef SYNTHESIS
  // Assertions
  always_ff @(posedge clk_i) if (rst_ni) begin
    if (q_valid) assert (q_ret.state != ssm_regs_pkg::SSM_STATE_PENDING)
      else $error("ssm_retw: a completion with state PENDING");
  end
`endif
endmodule
