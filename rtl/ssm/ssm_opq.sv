// ssm_opq: operation queues and scheduler. One FIFO per (PE, thread) window, so that a thread
// whose operation waits never blocks another thread. Each window's head operation is in one of
//   WIdle   : ready to be dispatched (when the FIFO is not empty),
//   WBusy   : executing in a core,
//   WParked : waiting in the engine for its entry to change.
// A window has at most one operation in a core or parked, so a thread's operations execute in
// program order whichever core runs them. Dispatch: round-robin over ready windows, one
// operation per cycle, to the lowest-numbered idle core; collectives (barrier, reduce, burst)
// go to the collective unit instead (coll_*), which answers through NumExt completion ports
// (ext_done_*): a participant stays WBusy until its collective completes.
// Wake-up: a committed write to address A (the hash table's broadcast) returns every parked
// put/get on A to WIdle; they retry. Parked locks are never woken: an unlock hands the lock to
// the oldest parked lock on A (smallest park sequence number) through the ho_* query.
module ssm_opq #(
  parameter int NumPe      = 5,
  parameter int NumThreads = 4,
  parameter int NumCores   = 2,
  parameter int OpqDepth   = 4,
  parameter int NumExt     = 2,                                 // completion ports of collective units
  parameter int NumUpd     = NumCores,                          // write-broadcast lanes of the hash table
  localparam int NumWin    = NumPe * NumThreads,                // derived
  localparam int WinW      = (NumWin > 1) ? $clog2(NumWin) : 1,
  localparam int OpW       = ssm_pkg::OpW,
  localparam int CntW      = $clog2(OpqDepth + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // new commands (from ssm_csr)
  input  logic                     push_valid_i,
  input  logic [WinW-1:0]          push_win_i,
  input  ssm_pkg::op_t             push_op_i,
  output logic [NumWin-1:0]        full_o,
  // dispatch
  output logic [NumCores-1:0]      disp_valid_o,
  input  logic [NumCores-1:0]      disp_ready_i,
  output ssm_pkg::op_t             disp_op_o,
  output logic [WinW-1:0]          disp_win_o,
  output logic                     coll_valid_o,   // disp_op_o/disp_win_o to the collective unit
  input  logic                     coll_ready_i,
  input  logic [NumExt-1:0]        ext_done_i,     // a collective participant completed
  input  logic [NumExt*WinW-1:0]   ext_win_i,
  // feedback from the cores
  input  logic [NumCores-1:0]      park_i,
  input  logic [NumCores-1:0]      done_i,
  input  logic [NumCores*WinW-1:0] win_i,
  input  logic [NumCores-1:0]      ho_valid_i,
  input  logic [NumCores*48-1:0]   ho_addr_i,
  output logic [NumCores-1:0]      ho_found_o,
  output logic [NumCores*WinW-1:0] ho_win_o,
  output logic [NumCores*12-1:0]   ho_ret_offset_o,
  input  logic [NumCores-1:0]      ho_take_i,
  // coherence broadcast
  input  logic [NumUpd-1:0]        upd_valid_i,
  input  logic [NumUpd*48-1:0]     upd_addr_i,
  // status
  output logic [NumWin-1:0]        parked_o,
  output logic [31:0]              park_events_o
);
  localparam logic [1:0] WIdle = 2'd0, WBusy = 2'd1, WParked = 2'd2;

  logic [NumWin-1:0]      fifo_valid, fifo_pop;
  logic [NumWin*OpW-1:0]  head;
  logic [NumWin*2-1:0]    wst_q, wst_d;
  logic [NumWin*32-1:0]   seq_q, seq_d;
  logic [31:0]            seq_ctr_q, seq_ctr_d;
  logic [NumWin*4-1:0]    head_opcode;   // fields of each window's head operation
  logic [NumWin*48-1:0]   head_addr;
  logic [NumWin*12-1:0]   head_ret;


  for (genvar w = 0; w < NumWin; w++) begin : g_win
    logic in_ready;
    logic [CntW-1:0] count;
    cmn_fifo #(.Width(OpW), .Depth(OpqDepth)) u_fifo (
      .clk_i, .rst_ni,
      .valid_i(push_valid_i && 32'(push_win_i) == w),
      .ready_o(in_ready),
      .data_i (push_op_i),
      .valid_o(fifo_valid[w]),
      .ready_i(fifo_pop[w]),
      .data_o (head[w*OpW +: OpW]),
      .count_o(count)
    );
    assign full_o[w] = !in_ready;
    assign head_opcode[w*4 +: 4] = head[w*OpW + ssm_pkg::OpOpcodeLsb +: 4];
    assign head_addr[w*48 +: 48] = head[w*OpW + ssm_pkg::OpAddrLsb +: 48];
    assign head_ret[w*12 +: 12]  = head[w*OpW + ssm_pkg::OpRetOffsetLsb +: 12];
    logic unused_count;
    assign unused_count = ^count;
  end

  // ---------------------------------------------------------------- dispatch
  logic [NumWin-1:0] eligible, gnt;
  logic              any;
  logic [WinW-1:0]   sel;
  logic              core_free;
  localparam int CoreW = (NumCores > 1) ? $clog2(NumCores) : 1;
  logic [CoreW-1:0]  core_sel;

  logic [NumWin-1:0] coll;   // the head operation is a collective
  always_comb begin
    core_free = 1'b0;
    core_sel  = '0;
    for (int c = NumCores - 1; c >= 0; c--) begin
      if (disp_ready_i[c]) begin
        core_free = 1'b1;
        core_sel  = CoreW'(c);
      end
    end
    for (int w = 0; w < NumWin; w++) begin
      coll[w] = head_opcode[w*4 +: 4] == ssm_regs_pkg::SSM_OPCODE_BARRIER ||
                head_opcode[w*4 +: 4] == ssm_regs_pkg::SSM_OPCODE_REDUCE ||
                head_opcode[w*4 +: 4] == ssm_regs_pkg::SSM_OPCODE_BURST;
      eligible[w] = fifo_valid[w] && wst_q[w*2 +: 2] == WIdle && (coll[w] ? coll_ready_i : core_free);
    end
  end

  cmn_rr_arb #(.N(NumWin)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (eligible),
    .advance_i(any),
    .gnt_o    (gnt),
    .valid_o  (any),
    .idx_o    (sel)
  );

  logic sel_coll;
  always_comb begin
    sel_coll = 1'b0;
    for (int w = 0; w < NumWin; w++) if (sel == WinW'(w)) sel_coll = coll[w];
    disp_valid_o = '0;
    if (any && !sel_coll) disp_valid_o[core_sel] = 1'b1;
  end
  assign coll_valid_o = any && sel_coll;
  // Explicit mux (a variable part-select of the wide vector reads past its end in Verilator 5.006).
  always_comb begin
    disp_op_o = '0;
    for (int w = 0; w < NumWin; w++) if (sel == WinW'(w)) disp_op_o = head[w*OpW +: OpW];
  end
  assign disp_win_o = sel;

  // ---------------------------------------------------------------- hand-off query
  logic [NumCores*32-1:0] best;
  always_comb begin
    best = '1;
    for (int c = 0; c < NumCores; c++) begin
      ho_found_o[c] = 1'b0;
      ho_win_o[c*WinW +: WinW] = '0;
      ho_ret_offset_o[c*12 +: 12] = '0;
      for (int w = 0; w < NumWin; w++) begin
        if (ho_valid_i[c] && wst_q[w*2 +: 2] == WParked &&
            head_opcode[w*4 +: 4] == ssm_regs_pkg::SSM_OPCODE_LOCK &&
            head_addr[w*48 +: 48] == ho_addr_i[c*48 +: 48] &&
            (!ho_found_o[c] || seq_q[w*32 +: 32] < best[c*32 +: 32])) begin
          ho_found_o[c] = 1'b1;
          best[c*32 +: 32] = seq_q[w*32 +: 32];
          ho_win_o[c*WinW +: WinW] = WinW'(w);
          ho_ret_offset_o[c*12 +: 12] = head_ret[w*12 +: 12];
        end
      end
    end
  end

  // ---------------------------------------------------------------- window states
  // Parks in the same cycle get consecutive sequence numbers in core order.
  logic [NumCores*32-1:0] park_rank;
  always_comb begin
    park_rank = '0;
    for (int c = 1; c < NumCores; c++)
      park_rank[c*32 +: 32] = park_rank[(c-1)*32 +: 32] + 32'(park_i[c-1]);
  end

  always_comb begin
    wst_d     = wst_q;
    seq_d     = seq_q;
    seq_ctr_d = seq_ctr_q;
    fifo_pop  = '0;
    for (int w = 0; w < NumWin; w++) begin
      // wake-up of parked puts and gets
      for (int c = 0; c < NumUpd; c++) begin
        if (upd_valid_i[c] && wst_q[w*2 +: 2] == WParked &&
            head_opcode[w*4 +: 4] != ssm_regs_pkg::SSM_OPCODE_LOCK &&
            head_addr[w*48 +: 48] == upd_addr_i[c*48 +: 48])
          wst_d[w*2 +: 2] = WIdle;
      end
      if (any && 32'(sel) == w) wst_d[w*2 +: 2] = WBusy;
      for (int x = 0; x < NumExt; x++) begin
        if (ext_done_i[x] && 32'(ext_win_i[x*WinW +: WinW]) == w) begin
          wst_d[w*2 +: 2] = WIdle;
          fifo_pop[w]     = 1'b1;
        end
      end
      for (int c = 0; c < NumCores; c++) begin
        if (park_i[c] && 32'(win_i[c*WinW +: WinW]) == w) begin
          wst_d[w*2 +: 2]  = WParked;
          seq_d[w*32 +: 32] = seq_ctr_q + park_rank[c*32 +: 32];
        end
        if ((done_i[c] && 32'(win_i[c*WinW +: WinW]) == w) ||
            (ho_take_i[c] && 32'(ho_win_o[c*WinW +: WinW]) == w)) begin
          wst_d[w*2 +: 2] = WIdle;
          fifo_pop[w]     = 1'b1;
        end
      end
    end
    seq_ctr_d = seq_ctr_q + 32'($countones(park_i));
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wst_q     <= '0;
      seq_q     <= '0;
      seq_ctr_q <= '0;
    end else begin
      wst_q     <= wst_d;
      seq_q     <= seq_d;
      seq_ctr_q <= seq_ctr_d;
    end
  end

  logic unused;
  assign unused = ^gnt;

  always_comb for (int w = 0; w < NumWin; w++) parked_o[w] = (wst_q[w*2 +: 2] == WParked);
  assign park_events_o = seq_ctr_q;

`ifndef SYNTHESIS
  // Assertions: feedback only for windows in the matching state.
  always_ff @(posedge clk_i) if (rst_ni) begin
    for (int c = 0; c < NumCores; c++) begin
      if (park_i[c] || done_i[c])
        assert (wst_q[32'(win_i[c*WinW +: WinW])*2 +: 2] == WBusy)
          else $error("ssm_opq: core %0d finished window %0d that is not busy", c, win_i[c*WinW +: WinW]);
      if (ho_take_i[c])
        assert (ho_found_o[c]) else $error("ssm_opq: hand-off take without a waiter");
    end
    for (int x = 0; x < NumExt; x++) if (ext_done_i[x])
      assert (wst_q[32'(ext_win_i[x*WinW +: WinW])*2 +: 2] == WBusy)
        else $error("ssm_opq: collective unit %0d finished window %0d that is not busy", x, ext_win_i[x*WinW +: WinW]);
  end
`endif
endmodule
