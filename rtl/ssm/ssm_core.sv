// ssm_core: a fine-grain processing core. Executes one put/get/lock/unlock/trylock at a time:
//   check   -> malformed commands complete at once with an error state (no table access);
//   lookup  -> the entry, with its set locked (ssm_hash client port);
//   execute -> the new entry and the answer (the paper's semantics, SPEC section 2);
//   commit  -> store the entry (or just release the set). A get/put/lock that must wait parks
//              instead: park_o pulses with the release, so no update to the entry can be missed;
//   return  -> {value, state} to the return writer; done_o pops the thread's operation.
// Unlock with waiters hands the lock to the oldest parked lock (ho_* query of ssm_opq): the
// entry stays locked and the waiter's completion is returned by this core as well.
// Latency on chip, no contention: 1 (accept) + 1 (check) + 4 (lookup) + 1 + 2 (commit) + 1 (return).
module ssm_core #(
  parameter int NumPe      = 5,
  parameter int NumThreads = 4,
  localparam int NumWin    = NumPe * NumThreads,                // derived
  localparam int WinW      = (NumWin > 1) ? $clog2(NumWin) : 1,
  localparam int EntryW    = ssm_pkg::EntryW
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // dispatch from the scheduler
  input  logic                disp_valid_i,
  output logic                disp_ready_o,
  input  ssm_pkg::op_t        disp_op_i,
  input  logic [WinW-1:0]     disp_win_i,
  input  logic [NumPe*32-1:0] cpt_slots_i,
  // hash table client
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
  // feedback to the operation queues
  output logic                park_o,
  output logic                done_o,
  output logic [WinW-1:0]     win_o,
  output logic                ho_valid_o,
  output logic [47:0]         ho_addr_o,
  input  logic                ho_found_i,
  input  logic [WinW-1:0]     ho_win_i,
  input  logic [11:0]         ho_ret_offset_i,
  output logic                ho_take_o,
  // completions
  output logic                ret_valid_o,
  input  logic                ret_ready_i,
  output ssm_pkg::ret_t       ret_o
);
  typedef enum logic [2:0] { CIdle, CCheck, CLookup, CWait, CExec, CCommit, CRet, CRetWaiter } state_e;

  state_e          state_q, state_d;
  ssm_pkg::op_t    op_q, op_d;
  logic [WinW-1:0] win_q, win_d;
  logic            hit_q, hit_d;
  ssm_pkg::entry_t entry_q, entry_d;      // looked-up entry, then the entry to commit
  logic            write_q, write_d;
  logic            park_q, park_d;
  logic [7:0]      state_code_q, state_code_d;
  logic [63:0]     value_q, value_d;
  logic            handoff_q, handoff_d;
  logic [WinW-1:0] waiter_win_q, waiter_win_d;
  logic [11:0]     waiter_ret_q, waiter_ret_d;

  // Who issued the operation.
  logic [3:0] pe, thread;
  assign pe     = 4'(32'(win_q) / NumThreads);
  assign thread = 4'(32'(win_q) % NumThreads);

  // Command checks, in priority order.
  logic [31:0] slots;
  logic [7:0]  check_code;
  logic [7:0]  readers;
  logic [3:0]  size;
  assign slots   = cpt_slots_i[pe*32 +: 32];
  assign readers = op_q.args[ssm_regs_pkg::SSM_CMD_ARGS_READERS_LSB +: 8];
  assign size    = op_q.args[ssm_regs_pkg::SSM_CMD_ARGS_SIZE_LSB +: 4];
  always_comb begin
    check_code = ssm_regs_pkg::SSM_STATE_OK;
    if (slots == '0)                                   check_code = ssm_regs_pkg::SSM_STATE_ERR_NO_CPT;
    else if (32'(op_q.ret_offset) >= slots)            check_code = ssm_regs_pkg::SSM_STATE_ERR_RET_OFFSET;
    else if (op_q.opcode != ssm_regs_pkg::SSM_OPCODE_PUT && op_q.opcode != ssm_regs_pkg::SSM_OPCODE_GET &&
             op_q.opcode != ssm_regs_pkg::SSM_OPCODE_LOCK && op_q.opcode != ssm_regs_pkg::SSM_OPCODE_UNLOCK &&
             op_q.opcode != ssm_regs_pkg::SSM_OPCODE_TRYLOCK)
                                                       check_code = ssm_regs_pkg::SSM_STATE_ERR_OPCODE;
    else if (op_q.addr[2:0] != 3'b000)                 check_code = ssm_regs_pkg::SSM_STATE_ERR_ALIGN;
    else if (op_q.opcode == ssm_regs_pkg::SSM_OPCODE_GET && size != 4'd4 && size != 4'd8)
                                                       check_code = ssm_regs_pkg::SSM_STATE_ERR_SIZE;
    else if (op_q.opcode == ssm_regs_pkg::SSM_OPCODE_PUT && readers == '0)
                                                       check_code = ssm_regs_pkg::SSM_STATE_ERR_READERS;
  end

  // Execution of one operation on the looked-up entry (hit_q, entry_q).
  logic            x_write, x_park, x_handoff;
  ssm_pkg::entry_t x_entry;
  logic [7:0]      x_code;
  logic [63:0]     x_value;
  always_comb begin
    x_entry   = hit_q ? entry_q : '0;
    x_write   = 1'b0;
    x_park    = 1'b0;
    x_handoff = 1'b0;
    x_code    = ssm_regs_pkg::SSM_STATE_OK;
    x_value   = '0;
    ho_valid_o = 1'b0;
    unique case (op_q.opcode)
      ssm_regs_pkg::SSM_OPCODE_PUT:
        if (hit_q && entry_q.p) x_park = 1'b1;
        else begin
          x_entry.value = op_q.value;
          x_entry.p     = 1'b1;
          x_entry.cnt   = readers;
          x_write       = 1'b1;
        end
      ssm_regs_pkg::SSM_OPCODE_GET:
        if (!(hit_q && entry_q.p)) x_park = 1'b1;
        else begin
          x_value     = (size == 4'd4) ? {32'd0, entry_q.value[31:0]} : entry_q.value;
          x_entry.cnt = entry_q.cnt - 8'd1;
          x_entry.p   = (entry_q.cnt != 8'd1);
          x_write     = 1'b1;
        end
      ssm_regs_pkg::SSM_OPCODE_LOCK, ssm_regs_pkg::SSM_OPCODE_TRYLOCK:
        if (hit_q && entry_q.l) begin
          if (op_q.opcode == ssm_regs_pkg::SSM_OPCODE_LOCK) x_park = 1'b1;
          else x_code = ssm_regs_pkg::SSM_STATE_BUSY;
        end else begin
          x_entry.l = 1'b1;
          x_write   = 1'b1;
        end
      ssm_regs_pkg::SSM_OPCODE_UNLOCK:
        if (!(hit_q && entry_q.l)) x_code = ssm_regs_pkg::SSM_STATE_ERR_NOT_LOCKED;
        else begin
          ho_valid_o = (state_q == CExec);
          if (ho_found_i) x_handoff = 1'b1;      // the lock passes on; the entry is unchanged
          else begin
            x_entry.l = 1'b0;
            x_write   = 1'b1;
          end
        end
      default: ;
    endcase
  end

  always_comb begin
    state_d      = state_q;
    op_d         = op_q;
    win_d        = win_q;
    hit_d        = hit_q;
    entry_d      = entry_q;
    write_d      = write_q;
    park_d       = park_q;
    state_code_d = state_code_q;
    value_d      = value_q;
    handoff_d    = handoff_q;
    waiter_win_d = waiter_win_q;
    waiter_ret_d = waiter_ret_q;

    disp_ready_o = 1'b0;
    lk_valid_o   = 1'b0;
    cm_valid_o   = 1'b0;
    park_o       = 1'b0;
    done_o       = 1'b0;
    ho_take_o    = 1'b0;
    ret_valid_o  = 1'b0;
    ret_o        = '0;
    ret_o.pe         = pe;
    ret_o.thread     = thread;
    ret_o.opcode     = op_q.opcode;
    ret_o.ret_offset = op_q.ret_offset;
    ret_o.addr       = op_q.addr;
    ret_o.value      = value_q;
    ret_o.state      = state_code_q;

    unique case (state_q)
      CIdle: begin
        disp_ready_o = 1'b1;
        if (disp_valid_i) begin
          op_d      = disp_op_i;
          win_d     = disp_win_i;
          handoff_d = 1'b0;
          value_d   = '0;
          state_d   = CCheck;
        end
      end
      CCheck: begin
        state_code_d = check_code;
        state_d      = (check_code == ssm_regs_pkg::SSM_STATE_OK) ? CLookup : CRet;
      end
      CLookup: begin
        lk_valid_o = 1'b1;
        if (lk_ready_i) state_d = CWait;
      end
      CWait: if (lk_rsp_valid_i) begin
        hit_d   = lk_hit_i;
        entry_d = lk_entry_i;
        state_d = CExec;
      end
      CExec: begin
        entry_d      = x_entry;
        write_d      = x_write;
        park_d       = x_park;
        state_code_d = x_code;
        value_d      = x_value;
        handoff_d    = x_handoff;
        waiter_win_d = ho_win_i;
        waiter_ret_d = ho_ret_offset_i;
        ho_take_o    = x_handoff;
        state_d      = CCommit;
      end
      CCommit: begin
        cm_valid_o = 1'b1;
        if (cm_ready_i) begin
          park_o  = park_q;
          state_d = park_q ? CIdle : CRet;
        end
      end
      CRet: begin
        ret_valid_o = 1'b1;
        if (ret_ready_i) begin
          if (handoff_q) state_d = CRetWaiter;
          else begin
            done_o  = 1'b1;
            state_d = CIdle;
          end
        end
      end
      CRetWaiter: begin  // the lock's new holder learns it got the lock
        ret_valid_o      = 1'b1;
        ret_o.pe         = 4'(32'(waiter_win_q) / NumThreads);
        ret_o.thread     = 4'(32'(waiter_win_q) % NumThreads);
        ret_o.opcode     = ssm_regs_pkg::SSM_OPCODE_LOCK;
        ret_o.ret_offset = waiter_ret_q;
        ret_o.value      = '0;
        ret_o.state      = ssm_regs_pkg::SSM_STATE_OK;
        if (ret_ready_i) begin
          done_o  = 1'b1;
          state_d = CIdle;
        end
      end
      default: state_d = CIdle;
    endcase
  end

  assign lk_addr_o  = op_q.addr;
  assign cm_write_o = write_q;
  assign cm_entry_o = entry_q;
  assign win_o      = win_q;
  assign ho_addr_o  = op_q.addr;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q      <= CIdle;
      op_q         <= '0;
      win_q        <= '0;
      hit_q        <= 1'b0;
      entry_q      <= '0;
      write_q      <= 1'b0;
      park_q       <= 1'b0;
      state_code_q <= '0;
      value_q      <= '0;
      handoff_q    <= 1'b0;
      waiter_win_q <= '0;
      waiter_ret_q <= '0;
    end else begin
      state_q      <= state_d;
      op_q         <= op_d;
      win_q        <= win_d;
      hit_q        <= hit_d;
      entry_q      <= entry_d;
      write_q      <= write_d;
      park_q       <= park_d;
      state_code_q <= state_code_d;
      value_q      <= value_d;
      handoff_q    <= handoff_d;
      waiter_win_q <= waiter_win_d;
      waiter_ret_q <= waiter_ret_d;
    end
  end

`ifndef SYNTHESIS
  // Assertions
  always_ff @(posedge clk_i) if (rst_ni) begin
    if (state_q == CExec && op_q.opcode == ssm_regs_pkg::SSM_OPCODE_GET && hit_q && entry_q.p)
      assert (entry_q.cnt != '0) else $error("ssm_core: present entry with counter 0");
    if (ho_take_o) assert (ho_found_i) else $error("ssm_core: hand-off without a waiter");
  end
  // Valid/ready rule on the core's output streams.
  a_lk_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
    lk_valid_o && !lk_ready_i |=> lk_valid_o && $stable(lk_addr_o));
  a_cm_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
    cm_valid_o && !cm_ready_i |=> cm_valid_o && $stable(cm_write_o) && $stable(cm_entry_o));
  a_ret_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
    ret_valid_o && !ret_ready_i |=> ret_valid_o && $stable(ret_o));
`endif
endmodule
