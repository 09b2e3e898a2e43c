// ssm_csr: the SSM's MMIO slave: registers (map in ssm_regs.toml / docs/ssm_regs.md) and the
// per-(PE, thread) command windows. A window stages VALUE and ARGS; a write of DOORBELL pushes
// {DOORBELL, VALUE, ARGS} as one operation into that window's FIFO (ssm_opq). A doorbell to a
// full FIFO drops the command and completes it with ERR_QUEUE_FULL (qf_* port to the return
// writer); MMIO waits (ready low) only while such an error completion is still pending.
// Reads are answered on the cycle after they are accepted.
module ssm_csr #(
  parameter int NumPe      = 5,
  parameter int NumThreads = 4,
  parameter int NumCores   = 2,
  parameter int OpqDepth   = 4,
  parameter int HashSets   = 1024,
  parameter int HashWays   = 4,
  localparam int NumWin    = NumPe * NumThreads,               // derived
  localparam int WinW      = (NumWin > 1) ? $clog2(NumWin) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                mmio_req_valid_i,
  output logic                mmio_req_ready_o,
  input  logic                mmio_req_write_i,
  input  logic [15:0]         mmio_req_addr_i,
  input  logic [63:0]         mmio_req_wdata_i,
  output logic                mmio_rsp_valid_o,
  output logic [63:0]         mmio_rsp_rdata_o,
  // commands
  output logic                push_valid_o,
  output logic [WinW-1:0]     push_win_o,
  output ssm_pkg::op_t        push_op_o,
  input  logic [NumWin-1:0]   full_i,
  output logic                qf_valid_o,
  input  logic                qf_ready_i,
  output ssm_pkg::ret_t       qf_ret_o,
  // configuration
  output logic [NumPe*48-1:0] cpt_base_o,
  output logic [NumPe*32-1:0] cpt_slots_o,
  output logic                ovf_add_valid_o,
  output logic [47:0]         ovf_add_base_o,
  output logic [31:0]         ovf_add_nodes_o,
  // status
  input  logic                ovf_exhausted_i,
  input  logic [31:0]         ovf_bump_left_i,
  input  logic [31:0]         ovf_free_count_i,
  input  logic [31:0]         onchip_entries_i,
  input  logic [31:0]         ovf_entries_i,
  input  logic [31:0]         park_events_i,
  input  logic                err_valid_i,
  input  ssm_pkg::ret_t       err_ret_i,
  input  logic                op_done_i,
  output logic                irq_o
);
  // ---------------------------------------------------------------- decode
  logic        wr, rd;
  logic [15:0] a;
  assign a  = mmio_req_addr_i;
  assign wr = mmio_req_valid_i && mmio_req_ready_o && mmio_req_write_i;
  assign rd = mmio_req_valid_i && mmio_req_ready_o && !mmio_req_write_i;

  localparam int CmdEnd = 32'(ssm_regs_pkg::SSM_CMD_OFFSET) + NumWin * 32'(ssm_regs_pkg::SSM_CMD_STRIDE);
  localparam int CptEnd = 32'(ssm_regs_pkg::SSM_CPT_OFFSET) + NumPe * 32'(ssm_regs_pkg::SSM_CPT_STRIDE);
  logic            in_cmd, in_cpt;
  logic [WinW-1:0] win;
  logic [15:0]     win_reg;
  logic [3:0]      cpt_pe;
  logic [15:0]     cpt_reg;
  assign in_cmd  = 32'(a) >= 32'(ssm_regs_pkg::SSM_CMD_OFFSET) && 32'(a) < CmdEnd;
  assign in_cpt  = 32'(a) >= 32'(ssm_regs_pkg::SSM_CPT_OFFSET) && 32'(a) < CptEnd;
  assign win     = WinW'((a - ssm_regs_pkg::SSM_CMD_OFFSET) / ssm_regs_pkg::SSM_CMD_STRIDE);
  assign win_reg = (a - ssm_regs_pkg::SSM_CMD_OFFSET) % ssm_regs_pkg::SSM_CMD_STRIDE;
  assign cpt_pe  = 4'((a - ssm_regs_pkg::SSM_CPT_OFFSET) / ssm_regs_pkg::SSM_CPT_STRIDE);
  assign cpt_reg = (a - ssm_regs_pkg::SSM_CPT_OFFSET) % ssm_regs_pkg::SSM_CPT_STRIDE;

  // ---------------------------------------------------------------- command windows
  logic [NumWin*64-1:0] value_q;
  logic [NumWin*64-1:0] args_q;
  logic                 doorbell;
  ssm_pkg::op_t         op;
  assign doorbell = wr && in_cmd && win_reg == ssm_regs_pkg::SSM_CMD_DOORBELL_OFFSET;
  always_comb begin
    op            = '0;
    op.addr       = mmio_req_wdata_i[ssm_regs_pkg::SSM_CMD_WORD_ADDR_LSB +: 48];
    op.opcode     = mmio_req_wdata_i[ssm_regs_pkg::SSM_CMD_WORD_OPCODE_LSB +: 4];
    op.ret_offset = mmio_req_wdata_i[ssm_regs_pkg::SSM_CMD_WORD_RET_OFFSET_LSB +: 12];
    for (int w = 0; w < NumWin; w++) begin  // explicit mux over the windows' staging registers
      if (win == WinW'(w)) begin
        op.value   = value_q[w*64 +: 64];
        op.args    = args_q[w*64 +: 64];
      end
    end
  end
  assign push_valid_o = doorbell && !full_i[win];
  assign push_win_o   = win;
  assign push_op_o    = op;

  // A doorbell to a full FIFO: the command is dropped and completed with ERR_QUEUE_FULL.
  logic          qf_q;
  ssm_pkg::ret_t qf_ret_q;
  assign qf_valid_o       = qf_q;
  assign qf_ret_o         = qf_ret_q;
  assign mmio_req_ready_o = !qf_q;

  // ---------------------------------------------------------------- registers
  logic [NumPe*48-1:0] cpt_base_q;
  logic [NumPe*32-1:0] cpt_slots_q;
  logic [1:0]  irq_status_q, irq_enable_q;
  logic [63:0] err_info_q;
  logic [47:0] err_addr_q, ovf_base_q;
  logic [31:0] err_count_q;
  logic [63:0] ops_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      value_q      <= '0;
      args_q       <= '0;
      qf_q         <= 1'b0;
      qf_ret_q     <= '0;
      cpt_base_q   <= '0;
      cpt_slots_q  <= '0;
      irq_status_q <= '0;
      irq_enable_q <= '0;
      err_info_q   <= '0;
      err_addr_q   <= '0;
      err_count_q  <= '0;
      ovf_base_q   <= '0;
      ops_q        <= '0;
    end else begin
      if (qf_q && qf_ready_i) qf_q <= 1'b0;
      if (doorbell && full_i[win]) begin
        qf_q                <= 1'b1;
        qf_ret_q            <= '0;
        qf_ret_q.pe         <= 4'(32'(win) / NumThreads);
        qf_ret_q.thread     <= 4'(32'(win) % NumThreads);
        qf_ret_q.opcode     <= op.opcode;
        qf_ret_q.ret_offset <= op.ret_offset;
        qf_ret_q.addr       <= op.addr;
        qf_ret_q.state      <= ssm_regs_pkg::SSM_STATE_ERR_QUEUE_FULL;
      end
      if (wr && in_cmd && win_reg == ssm_regs_pkg::SSM_CMD_VALUE_OFFSET)
        value_q[win*64 +: 64] <= mmio_req_wdata_i;
      if (wr && in_cmd && win_reg == ssm_regs_pkg::SSM_CMD_ARGS_OFFSET)
        args_q[win*64 +: 64] <= mmio_req_wdata_i;
      if (wr && in_cpt && cpt_reg == ssm_regs_pkg::SSM_CPT_BASE_OFFSET)
        cpt_base_q[cpt_pe*48 +: 48] <= {mmio_req_wdata_i[47:4], 4'b0};
      if (wr && in_cpt && cpt_reg == ssm_regs_pkg::SSM_CPT_SLOTS_OFFSET)
        cpt_slots_q[cpt_pe*32 +: 32] <= (mmio_req_wdata_i > 64'd4096) ? 32'd4096 : mmio_req_wdata_i[31:0];
      if (wr && a == ssm_regs_pkg::SSM_IRQ_ENABLE_OFFSET) irq_enable_q <= mmio_req_wdata_i[1:0];
      if (wr && a == ssm_regs_pkg::SSM_OVF_ADD_BASE_OFFSET) ovf_base_q <= {mmio_req_wdata_i[47:5], 5'b0};
      // interrupt causes: set by events, cleared by writing 1
      if (wr && a == ssm_regs_pkg::SSM_IRQ_STATUS_OFFSET) begin
        irq_status_q <= irq_status_q & ~mmio_req_wdata_i[1:0];
        if (mmio_req_wdata_i[0]) err_info_q <= '0;
      end
      if (ovf_exhausted_i) irq_status_q[1] <= 1'b1;
      if (err_valid_i) begin
        irq_status_q[0] <= 1'b1;
        err_count_q     <= err_count_q + 32'd1;
        if (!err_info_q[63] || (wr && a == ssm_regs_pkg::SSM_IRQ_STATUS_OFFSET && mmio_req_wdata_i[0])) begin
          err_info_q <= {1'b1, 31'd0, err_ret_i.ret_offset, err_ret_i.opcode,
                         err_ret_i.thread, err_ret_i.pe, err_ret_i.state};
          err_addr_q <= err_ret_i.addr;
        end
      end
      if (op_done_i) ops_q <= ops_q + 64'd1;
    end
  end

  logic unused;
  assign unused = ^{err_ret_i.value};

  assign ovf_add_valid_o = wr && a == ssm_regs_pkg::SSM_OVF_ADD_NODES_OFFSET;
  assign ovf_add_base_o  = ovf_base_q;
  assign ovf_add_nodes_o = mmio_req_wdata_i[31:0];
  assign cpt_base_o      = cpt_base_q;
  assign cpt_slots_o     = cpt_slots_q;
  assign irq_o           = |(irq_status_q & irq_enable_q);

  // ---------------------------------------------------------------- reads
  logic [63:0] rdata;
  always_comb begin
    rdata = '0;
    if (in_cpt && cpt_reg == ssm_regs_pkg::SSM_CPT_BASE_OFFSET)  rdata = {16'd0, cpt_base_q[cpt_pe*48 +: 48]};
    else if (in_cpt && cpt_reg == ssm_regs_pkg::SSM_CPT_SLOTS_OFFSET) rdata = {32'd0, cpt_slots_q[cpt_pe*32 +: 32]};
    else begin
      unique case (a)
        ssm_regs_pkg::SSM_ID_OFFSET:
          rdata = {16'd0, 16'(ssm_regs_pkg::SSM_ID_VERSION_RESET), 32'(ssm_regs_pkg::SSM_ID_MAGIC_RESET)};
        ssm_regs_pkg::SSM_CONFIG_OFFSET:
          rdata = {8'd0, 8'(HashWays), 16'(HashSets), 8'(OpqDepth), 8'(NumCores), 8'(NumThreads), 8'(NumPe)};
        ssm_regs_pkg::SSM_IRQ_STATUS_OFFSET:   rdata = {62'd0, irq_status_q};
        ssm_regs_pkg::SSM_IRQ_ENABLE_OFFSET:   rdata = {62'd0, irq_enable_q};
        ssm_regs_pkg::SSM_ERR_INFO_OFFSET:     rdata = err_info_q;
        ssm_regs_pkg::SSM_ERR_ADDR_OFFSET:     rdata = {16'd0, err_addr_q};
        ssm_regs_pkg::SSM_ERR_COUNT_OFFSET:    rdata = {32'd0, err_count_q};
        ssm_regs_pkg::SSM_OVF_ADD_BASE_OFFSET: rdata = {16'd0, ovf_base_q};
        ssm_regs_pkg::SSM_OVF_FREE_OFFSET:     rdata = {ovf_free_count_i, ovf_bump_left_i};
        ssm_regs_pkg::SSM_STAT_OPS_OFFSET:     rdata = ops_q;
        ssm_regs_pkg::SSM_STAT_PARKS_OFFSET:   rdata = {32'd0, park_events_i};
        ssm_regs_pkg::SSM_STAT_ENTRIES_OFFSET: rdata = {ovf_entries_i, onchip_entries_i};
        default: rdata = '0;
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mmio_rsp_valid_o <= 1'b0;
      mmio_rsp_rdata_o <= '0;
    end else begin
      mmio_rsp_valid_o <= rd;
      mmio_rsp_rdata_o <= rd ? rdata : '0;
    end
  end
endmodule
