// ssm_coll: the collective unit of the SSM: barrier and reduce (all-reduce), the front end of
// burst reduce, and the node's port to the global sync network (GSN, rtl/gsn).
//
// Every collective command the scheduler dispatches arrives here (in_*), one per handshake:
//   check    -> a malformed command completes at once with an error state (ERR_NO_CPT,
//               ERR_RET_OFFSET, ERR_ALIGN, ERR_GROUP, ERR_TYPE, ERR_LENGTH, ERR_IO);
//   burst    -> a valid burst reduce is handed to ssm_burst (bu_*), which answers it itself;
//   join     -> a barrier/reduce joins the gathering context of its address, or opens one
//               (Slots contexts; none free: ERR_NO_CONTEXT at once, software retries).
// A context holds the open collective: address, kind, GROUP, TYPE, ROP, IO, the arrival count
// (the entry's counter while the collective is open) and the member bitmap; the values wait in a
// per-window table (a window has at most one operation in flight). An arrival that disagrees
// with the context on kind/GROUP/TYPE/ROP/IO poisons it: it still counts, and every member is
// answered ERR_MISMATCH when the count reaches GROUP, so nobody hangs.
// Context states:  Gather -> (reduce) Fold -> (io) Up -> WaitDn -> (reduce) Store -> Release -> Free
// Fold combines the members' values in ascending window index (pe*NumThreads + thread):
//   acc = v[w0]; acc = acc OP v[w1]; acc = acc OP v[w2]; ...   (ssm_alu, a = acc, b = next)
// With IO=1 the local result goes up the GSN as one message; the down message carries the global
// result (and err). The tree pairs the nodes' rounds on an address by counting them, so a node
// sends exactly one up message per round in which any member said IO=1 (IO is sticky), also when
// the round is poisoned (then with err = 1: the other nodes get ERR_GSN, this one ERR_MISMATCH).
// A down message is matched by address only: when nodes disagree on the kind, the erroneous
// answer carries the kind of the message that opened the tree's slot (docs/ssm.md 11.5).
// Store writes the result into the tag-value entry {value, L kept, P=1, counter=1} (one ssm_get
// takes it; a parked get wakes). Release answers every member, one per cycle, in window order,
// then frees the context. A completed context no longer matches new arrivals, so an early arrival
// of the next round on the same address opens a fresh context and cannot disturb the round being
// released.
module ssm_coll #(
  parameter int NumPe      = 5,
  parameter int NumThreads = 4,
  parameter int Slots      = 4,   // open barrier/reduce contexts (also the GSN's slots per tree node)
  localparam int NumWin    = NumPe * NumThreads,                 // derived
  localparam int WinW      = (NumWin > 1) ? $clog2(NumWin) : 1,
  localparam int SlotW     = (Slots > 1) ? $clog2(Slots) : 1,
  localparam int EntryW    = ssm_pkg::EntryW
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // arrivals from the scheduler
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  ssm_pkg::op_t        in_op_i,
  input  logic [WinW-1:0]     in_win_i,
  input  logic [NumPe*32-1:0] cpt_slots_i,
  // completions (barrier, reduce, malformed commands); done_o pops the window's operation
  output logic                ret_valid_o,
  input  logic                ret_ready_i,
  output ssm_pkg::ret_t       ret_o,
  output logic                done_o,
  output logic [WinW-1:0]     done_win_o,
  // burst reduce hand-off (ssm_burst)
  output logic                bu_valid_o,
  input  logic                bu_ready_i,
  output logic [WinW-1:0]     bu_win_o,
  output logic [11:0]         bu_ret_offset_o,
  output logic [47:0]         bu_src_o,
  output logic [47:0]         bu_dest_o,
  output logic [31:0]         bu_len_o,
  output logic [1:0]          bu_type_o,
  output logic [1:0]          bu_op_o,
  output logic [7:0]          bu_group_o,
  // hash table client (the reduce result is stored in the entry)
  output logic                lk_valid_o,
  input  logic                lk_ready_i,
  output logic [47:0]         lk_addr_o,
  input  logic                lk_rsp_valid_i,
  input  logic                lk_hit_i,
  input  logic [EntryW-1:0]   lk_entry_i,
  output logic                cm_valid_o,
  output logic                cm_write_o,
  output logic [EntryW-1:0]   cm_entry_o,
  input  logic                cm_ready_i,
  // global sync network (message format in docs/gsn.md)
  output logic                gsn_up_valid_o,
  input  logic                gsn_up_ready_i,
  output logic [gsn_pkg::GSN_MSG_BITS-1:0] gsn_up_msg_o,
  input  logic                gsn_dn_valid_i,
  output logic                gsn_dn_ready_o,
  input  logic [gsn_pkg::GSN_MSG_BITS-1:0] gsn_dn_msg_i
);
  localparam logic [2:0] XFree = 3'd0, XGather = 3'd1, XFold = 3'd2, XUp = 3'd3, XWaitDn = 3'd4,
                         XStore = 3'd5, XRelease = 3'd6;

  // ---------------------------------------------------------------- contexts and window table
  logic [2:0]        x_st_q   [Slots];
  logic [47:0]       x_addr_q [Slots];
  logic              x_red_q  [Slots];   // 1: reduce, 0: barrier
  logic [7:0]        x_group_q[Slots];
  logic [1:0]        x_type_q [Slots];
  logic [1:0]        x_op_q   [Slots];
  logic              x_io_q   [Slots];
  logic [7:0]        x_count_q[Slots];
  logic [NumWin-1:0] x_mem_q  [Slots];
  logic              x_poison_q[Slots];
  logic [7:0]        x_code_q [Slots];   // state every member gets
  logic [63:0]       x_acc_q  [Slots];   // result
  logic [63:0]       w_val_q  [NumWin];  // each member's value
  logic [11:0]       w_ret_q  [NumWin];  // each member's ret_offset

  // ---------------------------------------------------------------- arrival checks
  ssm_pkg::op_t a_op_q;
  logic [WinW-1:0] a_win_q;
  logic [3:0]  a_pe, a_thread;
  logic [31:0] a_slots;
  logic [7:0]  a_group;
  logic [2:0]  a_type;
  logic [1:0]  a_rop;
  logic        a_io, a_burst, a_red;
  logic [31:0] a_len;
  logic [47:0] a_dest;
  logic [7:0]  a_code;
  logic        a_esize4;   // burst element of 4 bytes (int32)
  assign a_pe     = 4'(32'(a_win_q) / NumThreads);
  assign a_thread = 4'(32'(a_win_q) % NumThreads);
  assign a_group  = a_op_q.args[ssm_regs_pkg::SSM_CMD_ARGS_GROUP_LSB +: 8];
  assign a_type   = a_op_q.args[ssm_regs_pkg::SSM_CMD_ARGS_TYPE_LSB +: 3];
  assign a_rop    = a_op_q.args[ssm_regs_pkg::SSM_CMD_ARGS_ROP_LSB +: 2];
  assign a_io     = a_op_q.args[ssm_regs_pkg::SSM_CMD_ARGS_IO_LSB];
  assign a_len    = a_op_q.args[ssm_regs_pkg::SSM_CMD_ARGS_LENGTH_LSB +: 32];
  assign a_dest   = a_op_q.value[47:0];
  assign a_burst  = a_op_q.opcode == ssm_regs_pkg::SSM_OPCODE_BURST;
  assign a_red    = a_op_q.opcode == ssm_regs_pkg::SSM_OPCODE_REDUCE;
  assign a_esize4 = a_type == ssm_regs_pkg::SSM_RED_TYPE_INT32;
  always_comb begin
    a_slots = '0;
    for (int p = 0; p < NumPe; p++) if (a_pe == 4'(p)) a_slots = cpt_slots_i[p*32 +: 32];
  end
  always_comb begin
    a_code = ssm_regs_pkg::SSM_STATE_OK;
    if (a_slots == '0)                                     a_code = ssm_regs_pkg::SSM_STATE_ERR_NO_CPT;
    else if (32'(a_op_q.ret_offset) >= a_slots)            a_code = ssm_regs_pkg::SSM_STATE_ERR_RET_OFFSET;
    else if (a_group == 8'd0 || 32'(a_group) > NumWin)     a_code = ssm_regs_pkg::SSM_STATE_ERR_GROUP;
    else if (a_burst) begin
      if (a_type > ssm_regs_pkg::SSM_RED_TYPE_INT32 || a_rop > ssm_regs_pkg::SSM_RED_OP_MIN)
                                                           a_code = ssm_regs_pkg::SSM_STATE_ERR_TYPE;
      else if (a_io)                                       a_code = ssm_regs_pkg::SSM_STATE_ERR_IO;
      else if (a_len == '0 || (a_esize4 ? (a_len[1:0] != 2'b0 || a_op_q.addr[1:0] != 2'b0 || a_dest[1:0] != 2'b0)
                                        : (a_len[2:0] != 3'b0 || a_op_q.addr[2:0] != 3'b0 || a_dest[2:0] != 3'b0)))
                                                           a_code = ssm_regs_pkg::SSM_STATE_ERR_LENGTH;
    end else begin
      if (a_op_q.addr[2:0] != 3'b000)                      a_code = ssm_regs_pkg::SSM_STATE_ERR_ALIGN;
      else if (a_red && (a_type > ssm_regs_pkg::SSM_RED_TYPE_DOUBLE || a_rop > ssm_regs_pkg::SSM_RED_OP_MIN))
                                                           a_code = ssm_regs_pkg::SSM_STATE_ERR_TYPE;
    end
  end

  // The gathering context of the arrival's address, and a free context.
  logic             m_found, f_found;
  logic [SlotW-1:0] m_idx, f_idx;
  logic             m_mismatch;
  always_comb begin
    m_found = 1'b0; m_idx = '0; f_found = 1'b0; f_idx = '0;
    for (int s = Slots - 1; s >= 0; s--) begin
      if (x_st_q[s] == XGather && x_addr_q[s] == a_op_q.addr) begin
        m_found = 1'b1;
        m_idx   = SlotW'(s);
      end
      if (x_st_q[s] == XFree) begin
        f_found = 1'b1;
        f_idx   = SlotW'(s);
      end
    end
    m_mismatch = 1'b0;
    for (int s = 0; s < Slots; s++)
      if (m_idx == SlotW'(s))
        m_mismatch = x_red_q[s] != a_red || x_group_q[s] != a_group || x_io_q[s] != a_io ||
                     (a_red && (x_type_q[s] != a_type[1:0] || x_op_q[s] != a_rop));
  end

  logic rel_active;   // the release engine drives the return port this cycle

  // ---------------------------------------------------------------- sequencer
  // One job at a time: an arrival, a fold, a down message, or a store.
  localparam logic [2:0] SIdle = 3'd0, SArrive = 3'd1, SBurst = 3'd2, SFold = 3'd3, SFoldWait = 3'd4,
                         SLook = 3'd5, SLookWait = 3'd6, SCommit = 3'd7;
  logic [2:0]        s_q, s_d;
  logic [SlotW-1:0]  j_q, j_d;           // context of the job
  logic [NumWin-1:0] rem_q, rem_d;       // members still to fold
  logic              first_q, first_d;   // the next member starts the fold
  ssm_pkg::entry_t   e_q, e_d;           // entry to commit
  logic              errq_q, errq_d;     // an immediate error answer is pending
  ssm_pkg::ret_t     errr_q, errr_d;

  // Work that waits for the sequencer.
  logic             fold_found, store_found, dn_found;
  logic [SlotW-1:0] fold_idx, store_idx, dn_idx;
  logic [47:0]      dn_addr;
  logic             dn_err, dn_red;
  // The GSN message's fields (gsn_pkg, generated from rtl/gsn/gsn_formats.toml).
  localparam int unsigned MValLsb  = gsn_pkg::GSN_MSG_VALUE_LSB, MValW  = gsn_pkg::GSN_MSG_VALUE_WIDTH;
  localparam int unsigned MAddrLsb = gsn_pkg::GSN_MSG_ADDR_LSB,  MAddrW = gsn_pkg::GSN_MSG_ADDR_WIDTH;
  localparam int unsigned MTypeLsb = gsn_pkg::GSN_MSG_TYPE_LSB,  MTypeW = gsn_pkg::GSN_MSG_TYPE_WIDTH;
  localparam int unsigned MOpLsb   = gsn_pkg::GSN_MSG_OP_LSB,    MOpW   = gsn_pkg::GSN_MSG_OP_WIDTH;
  localparam int unsigned MKindLsb = gsn_pkg::GSN_MSG_KIND_LSB,  MErrLsb = gsn_pkg::GSN_MSG_ERR_LSB;
  localparam int unsigned MZeroLsb = gsn_pkg::GSN_MSG_ZERO_LSB,  MZeroW = gsn_pkg::GSN_MSG_ZERO_WIDTH;
  assign dn_addr = gsn_dn_msg_i[MAddrLsb +: MAddrW];
  assign dn_err  = gsn_dn_msg_i[MErrLsb];
  assign dn_red  = gsn_dn_msg_i[MKindLsb];
  always_comb begin
    fold_found = 1'b0; fold_idx = '0; store_found = 1'b0; store_idx = '0; dn_found = 1'b0; dn_idx = '0;
    for (int s = Slots - 1; s >= 0; s--) begin
      if (x_st_q[s] == XFold)  begin fold_found = 1'b1;  fold_idx = SlotW'(s);  end
      if (x_st_q[s] == XStore) begin store_found = 1'b1; store_idx = SlotW'(s); end
      // By address only: when nodes disagree on the kind, the tree's (erroneous) answer carries
      // the kind of the message that opened its slot, which may not be this node's.
      if (x_st_q[s] == XWaitDn && x_addr_q[s] == dn_addr) begin
        dn_found = 1'b1; dn_idx = SlotW'(s);
      end
    end
  end

  // Lowest member still to fold.
  logic [WinW-1:0] next_w;
  always_comb begin
    next_w = '0;
    for (int w = NumWin - 1; w >= 0; w--) if (rem_q[w]) next_w = WinW'(w);
  end

  // The reduction ALU (fixed latency, no backpressure).
  logic        alu_in_valid, alu_out_valid;
  logic [63:0] alu_a, alu_b, alu_result;
  logic [1:0]  alu_type, alu_op;
  logic        alu_tag_unused;
  ssm_alu #(.TagW(1)) u_alu (
    .clk_i, .rst_ni,
    .in_valid_i  (alu_in_valid),
    .in_type_i   (alu_type),
    .in_op_i     (alu_op),
    .in_a_i      (alu_a),
    .in_b_i      (alu_b),
    .in_tag_i    (1'b0),
    .out_valid_o (alu_out_valid),
    .out_result_o(alu_result),
    .out_tag_o   (alu_tag_unused)
  );

  // Context of the current job, muxed.
  logic [47:0] j_addr;
  logic [1:0]  j_type, j_op;
  logic        j_io, j_red, j_poison;
  logic [63:0] j_acc;
  logic [NumWin-1:0] j_mem;
  always_comb begin
    j_addr = '0; j_type = '0; j_op = '0; j_io = 1'b0; j_red = 1'b0; j_poison = 1'b0; j_acc = '0; j_mem = '0;
    for (int s = 0; s < Slots; s++) if (j_q == SlotW'(s)) begin
      j_addr = x_addr_q[s]; j_type = x_type_q[s]; j_op = x_op_q[s]; j_io = x_io_q[s];
      j_red = x_red_q[s]; j_poison = x_poison_q[s]; j_acc = x_acc_q[s]; j_mem = x_mem_q[s];
    end
  end
  logic [63:0] next_val;
  always_comb begin
    next_val = '0;
    for (int w = 0; w < NumWin; w++) if (next_w == WinW'(w)) next_val = w_val_q[w];
  end
  assign alu_a    = j_acc;
  assign alu_b    = next_val;
  assign alu_type = j_type;
  assign alu_op   = j_op;

  // State after local completion of context s.
  function logic [2:0] after_local(input logic red, input logic io, input logic poison);
    if (red && !poison) after_local = XFold;
    else if (io)        after_local = XUp;
    else                after_local = XRelease;
  endfunction

  // Context updates requested by the sequencer this cycle.
  logic             c_open, c_join, c_set_st, c_set_acc;
  logic [SlotW-1:0] c_idx;
  logic [2:0]       c_st;
  logic [63:0]      c_acc;
  logic [7:0]       c_code;
  logic             c_set_code;
  logic             w_write;

  always_comb begin
    s_d = s_q; j_d = j_q; rem_d = rem_q; first_d = first_q; e_d = e_q;
    errq_d = errq_q; errr_d = errr_q;
    in_ready_o = 1'b0; bu_valid_o = 1'b0; gsn_dn_ready_o = 1'b0;
    lk_valid_o = 1'b0; cm_valid_o = 1'b0; alu_in_valid = 1'b0;
    c_open = 1'b0; c_join = 1'b0; c_set_st = 1'b0; c_idx = '0; c_st = XFree;
    c_set_acc = 1'b0; c_acc = '0; c_set_code = 1'b0; c_code = '0; w_write = 1'b0;
    if (errq_q && ret_ready_i && ret_valid_o && !rel_active) errq_d = 1'b0;

    unique case (s_q)
      SIdle: begin
        if (gsn_dn_valid_i) begin
          // A down message: the global result of a context waiting for it.
          gsn_dn_ready_o = 1'b1;
          if (dn_found) begin
            c_idx      = dn_idx;
            c_set_acc  = 1'b1;
            c_acc      = gsn_dn_msg_i[MValLsb +: MValW];
            c_set_st   = 1'b1;
            c_set_code = 1'b1;
            c_code     = ssm_regs_pkg::SSM_STATE_OK;
            for (int s = 0; s < Slots; s++) if (dn_idx == SlotW'(s)) begin
              // A result of the other kind is an error even if the network did not say so.
              if (x_poison_q[s])                         c_code = ssm_regs_pkg::SSM_STATE_ERR_MISMATCH;
              else if (dn_err || dn_red != x_red_q[s])   c_code = ssm_regs_pkg::SSM_STATE_ERR_GSN;
              c_st = (x_red_q[s] && !x_poison_q[s] && !dn_err && dn_red == x_red_q[s]) ? XStore : XRelease;
            end
          end
        end else if (fold_found) begin
          j_d     = fold_idx;
          s_d     = SFold;
          first_d = 1'b1;
          for (int s = 0; s < Slots; s++) if (fold_idx == SlotW'(s)) rem_d = x_mem_q[s];
        end else if (store_found) begin
          j_d = store_idx;
          s_d = SLook;
        end else if (!errq_q) begin
          in_ready_o = 1'b1;
          if (in_valid_i) s_d = SArrive;
        end
      end
      SArrive: begin
        s_d = SIdle;
        if (a_code != ssm_regs_pkg::SSM_STATE_OK) begin
          errq_d = 1'b1;
          errr_d = '0;
          errr_d.pe = a_pe; errr_d.thread = a_thread; errr_d.opcode = a_op_q.opcode;
          errr_d.ret_offset = a_op_q.ret_offset; errr_d.addr = a_op_q.addr; errr_d.state = a_code;
        end else if (a_burst) begin
          s_d = SBurst;
        end else if (m_found) begin
          c_join = 1'b1;
          c_idx  = m_idx;
          w_write = 1'b1;
        end else if (f_found) begin
          c_open = 1'b1;
          c_idx  = f_idx;
          w_write = 1'b1;
        end else begin
          errq_d = 1'b1;
          errr_d = '0;
          errr_d.pe = a_pe; errr_d.thread = a_thread; errr_d.opcode = a_op_q.opcode;
          errr_d.ret_offset = a_op_q.ret_offset; errr_d.addr = a_op_q.addr;
          errr_d.state = ssm_regs_pkg::SSM_STATE_ERR_NO_CONTEXT;
        end
      end
      SBurst: begin
        bu_valid_o = 1'b1;
        if (bu_ready_i) s_d = SIdle;
      end
      SFold: begin
        // Take the lowest member left: the first one is the accumulator's start value.
        if (rem_q == '0) begin
          c_idx    = j_q;
          c_set_st = 1'b1;
          c_st     = j_io ? XUp : XStore;
          s_d      = SIdle;
        end else if (first_q) begin
          c_idx     = j_q;
          c_set_acc = 1'b1;
          c_acc     = next_val;
          rem_d[next_w] = 1'b0;
          first_d   = 1'b0;
        end else begin
          alu_in_valid = 1'b1;
          s_d = SFoldWait;
        end
      end
      SFoldWait: if (alu_out_valid) begin
        c_idx     = j_q;
        c_set_acc = 1'b1;
        c_acc     = alu_result;
        rem_d[next_w] = 1'b0;
        s_d       = SFold;
      end
      SLook: begin
        lk_valid_o = 1'b1;
        if (lk_ready_i) s_d = SLookWait;
      end
      SLookWait: if (lk_rsp_valid_i) begin
        e_d       = lk_hit_i ? lk_entry_i : '0;
        e_d.value = j_acc;
        e_d.p     = 1'b1;
        e_d.cnt   = 8'd1;
        s_d       = SCommit;
      end
      SCommit: begin
        cm_valid_o = 1'b1;
        if (cm_ready_i) begin
          c_idx    = j_q;
          c_set_st = 1'b1;
          c_st     = XRelease;
          s_d      = SIdle;
        end
      end
      default: s_d = SIdle;
    endcase
  end
  assign lk_addr_o  = j_addr;
  assign cm_write_o = 1'b1;
  assign cm_entry_o = e_q;

  // Burst hand-off: the checked arrival as it is.
  assign bu_win_o        = a_win_q;
  assign bu_ret_offset_o = a_op_q.ret_offset;
  assign bu_src_o        = a_op_q.addr;
  assign bu_dest_o       = a_dest;
  assign bu_len_o        = a_len;
  assign bu_type_o       = a_type[1:0];
  assign bu_op_o         = a_rop;
  assign bu_group_o      = a_group;

  // ---------------------------------------------------------------- GSN up sender
  // A message shown and not taken stays shown (up_hold_q), also when a lower context reaches Up.
  logic             up_found;
  logic [SlotW-1:0] up_idx;
  logic             up_hold_q;
  logic [SlotW-1:0] up_hold_idx_q;
  always_comb begin
    up_found = 1'b0; up_idx = '0;
    for (int s = Slots - 1; s >= 0; s--) if (x_st_q[s] == XUp) begin up_found = 1'b1; up_idx = SlotW'(s); end
    if (up_hold_q) up_idx = up_hold_idx_q;
    gsn_up_msg_o = '0;
    for (int s = 0; s < Slots; s++) if (up_idx == SlotW'(s)) begin
      gsn_up_msg_o[MValLsb +: MValW]   = x_acc_q[s];
      gsn_up_msg_o[MAddrLsb +: MAddrW] = x_addr_q[s];
      gsn_up_msg_o[MTypeLsb +: MTypeW] = x_red_q[s] ? x_type_q[s] : '0;
      gsn_up_msg_o[MOpLsb +: MOpW]     = x_red_q[s] ? x_op_q[s] : '0;
      gsn_up_msg_o[MKindLsb]           = x_red_q[s];
      gsn_up_msg_o[MErrLsb]            = x_poison_q[s];
    end
  end
  assign gsn_up_valid_o = up_found;
  // A context moves Up -> WaitDn only through this handshake, so the held context is still in Up.

  // ---------------------------------------------------------------- release engine
  // Answers the members of one Release context, one per cycle in window order, then frees it.
  // An answer shown and not taken stays shown (rel_hold_q): the engine keeps its context when a
  // lower one reaches Release, and an error answer that becomes due meanwhile waits behind it.
  logic             rel_found;
  logic [SlotW-1:0] rel_idx;
  logic [NumWin-1:0] rel_rem;
  logic [WinW-1:0]  rel_w;
  logic             rel_hold_q;
  logic [SlotW-1:0] rel_hold_idx_q;
  always_comb begin
    rel_found = 1'b0; rel_idx = '0;
    for (int s = Slots - 1; s >= 0; s--) if (x_st_q[s] == XRelease) begin rel_found = 1'b1; rel_idx = SlotW'(s); end
    if (rel_hold_q) begin rel_found = 1'b1; rel_idx = rel_hold_idx_q; end
    rel_rem = '0;
    for (int s = 0; s < Slots; s++) if (rel_idx == SlotW'(s)) rel_rem = x_mem_q[s];
    rel_w = '0;
    for (int w = NumWin - 1; w >= 0; w--) if (rel_rem[w]) rel_w = WinW'(w);
  end
  assign rel_active = rel_found && (!errq_q || rel_hold_q);

  always_comb begin
    ret_o = errr_q;
    ret_valid_o = errq_q;
    done_win_o = a_win_q;
    if (rel_active) begin
      ret_valid_o = 1'b1;
      ret_o = '0;
      ret_o.pe     = 4'(32'(rel_w) / NumThreads);
      ret_o.thread = 4'(32'(rel_w) % NumThreads);
      for (int w = 0; w < NumWin; w++) if (rel_w == WinW'(w)) ret_o.ret_offset = w_ret_q[w];
      for (int s = 0; s < Slots; s++) if (rel_idx == SlotW'(s)) begin
        ret_o.opcode = x_red_q[s] ? ssm_regs_pkg::SSM_OPCODE_REDUCE : ssm_regs_pkg::SSM_OPCODE_BARRIER;
        ret_o.addr   = x_addr_q[s];
        ret_o.value  = (x_red_q[s] && x_code_q[s] == ssm_regs_pkg::SSM_STATE_OK) ? x_acc_q[s] : 64'd0;
        ret_o.state  = x_code_q[s];
      end
      done_win_o = rel_w;
    end
  end
  assign done_o = ret_valid_o && ret_ready_i;
  logic rel_step;
  assign rel_step = rel_active && ret_ready_i;

  // ---------------------------------------------------------------- state
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s_q <= SIdle; j_q <= '0; rem_q <= '0; first_q <= 1'b0; e_q <= '0;
      errq_q <= 1'b0; errr_q <= '0; a_op_q <= '0; a_win_q <= '0;
      rel_hold_q <= 1'b0; rel_hold_idx_q <= '0; up_hold_q <= 1'b0; up_hold_idx_q <= '0;
      for (int s = 0; s < Slots; s++) begin
        x_st_q[s] <= XFree; x_addr_q[s] <= '0; x_red_q[s] <= 1'b0; x_group_q[s] <= '0; x_type_q[s] <= '0;
        x_op_q[s] <= '0; x_io_q[s] <= 1'b0; x_count_q[s] <= '0; x_mem_q[s] <= '0; x_poison_q[s] <= 1'b0;
        x_code_q[s] <= '0; x_acc_q[s] <= '0;
      end
    end else begin
      s_q <= s_d; j_q <= j_d; rem_q <= rem_d; first_q <= first_d; e_q <= e_d;
      errq_q <= errq_d; errr_q <= errr_d;
      rel_hold_q <= rel_active && !ret_ready_i;
      rel_hold_idx_q <= rel_idx;
      up_hold_q <= gsn_up_valid_o && !gsn_up_ready_i;
      up_hold_idx_q <= up_idx;
      if (in_valid_i && in_ready_o) begin
        a_op_q  <= in_op_i;
        a_win_q <= in_win_i;
      end
      for (int s = 0; s < Slots; s++) begin
        if (c_open && c_idx == SlotW'(s)) begin
          x_addr_q[s]   <= a_op_q.addr;
          x_red_q[s]    <= a_red;
          x_group_q[s]  <= a_group;
          x_type_q[s]   <= a_type[1:0];
          x_op_q[s]     <= a_rop;
          x_io_q[s]     <= a_io;
          x_count_q[s]  <= 8'd1;
          x_mem_q[s]    <= NumWin'(1) << a_win_q;
          x_poison_q[s] <= 1'b0;
          x_code_q[s]   <= ssm_regs_pkg::SSM_STATE_OK;
          x_acc_q[s]    <= '0;
          x_st_q[s]     <= (a_group == 8'd1) ? after_local(a_red, a_io, 1'b0) : XGather;
        end
        if (c_join && c_idx == SlotW'(s)) begin
          x_count_q[s] <= x_count_q[s] + 8'd1;
          x_mem_q[s]   <= x_mem_q[s] | (NumWin'(1) << a_win_q);
          if (m_mismatch) begin
            x_poison_q[s] <= 1'b1;
            x_code_q[s]   <= ssm_regs_pkg::SSM_STATE_ERR_MISMATCH;
          end
          // IO is sticky: one member with io=1 makes the round global. The other nodes count on
          // this node's up message, so a round whose members disagree on io still sends exactly
          // one (poisoned: err = 1) instead of none, and the tree's rounds stay paired.
          if (a_io) x_io_q[s] <= 1'b1;
          if (x_count_q[s] + 8'd1 == x_group_q[s])
            x_st_q[s] <= after_local(x_red_q[s], x_io_q[s] || a_io, x_poison_q[s] || m_mismatch);
        end
        if (c_set_st && c_idx == SlotW'(s)) x_st_q[s] <= c_st;
        if (c_set_acc && c_idx == SlotW'(s)) x_acc_q[s] <= c_acc;
        if (c_set_code && c_idx == SlotW'(s)) x_code_q[s] <= c_code;
        // With IO, a local fold comes before the message goes up.
        if (up_found && gsn_up_ready_i && up_idx == SlotW'(s)) x_st_q[s] <= XWaitDn;
        if (rel_step && rel_idx == SlotW'(s)) begin
          x_mem_q[s] <= x_mem_q[s] & ~(NumWin'(1) << rel_w);
          if ((x_mem_q[s] & ~(NumWin'(1) << rel_w)) == '0) x_st_q[s] <= XFree;
        end
      end
      if (w_write) begin
        for (int w = 0; w < NumWin; w++) if (a_win_q == WinW'(w)) begin
          w_val_q[w] <= a_op_q.value;
          w_ret_q[w] <= a_op_q.ret_offset;
        end
      end
    end
  end

  logic unused;
  assign unused = ^{a_op_q.args, a_type[2], j_red, j_poison, j_mem, alu_tag_unused, gsn_dn_msg_i[MZeroLsb +: MZeroW], gsn_dn_msg_i[MTypeLsb +: MTypeW + MOpW]};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) if (rst_ni) begin
    if (gsn_dn_valid_i && gsn_dn_ready_o)
      assert (dn_found) else $error("ssm_coll: GSN down message for %h matches no waiting context", dn_addr);
    if (s_q == SFoldWait) assert (!alu_in_valid) else $error("ssm_coll: ALU issue while waiting");
    for (int s = 0; s < Slots; s++)
      if (x_st_q[s] == XGather) assert (x_count_q[s] < x_group_q[s]) else $error("ssm_coll: full context still gathering");
  end
  a_ret_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
    ret_valid_o && !ret_ready_i |=> ret_valid_o && $stable(ret_o));
  a_up_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
    gsn_up_valid_o && !gsn_up_ready_i |=> gsn_up_valid_o && $stable(gsn_up_msg_o));
  a_bu_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
    bu_valid_o && !bu_ready_i |=> bu_valid_o && $stable(bu_src_o) && $stable(bu_win_o));
`endif
endmodule
