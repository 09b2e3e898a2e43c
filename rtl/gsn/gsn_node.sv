// gsn_node: one node of the global sync network's combining tree (docs/gsn.md).
//
// Up path (children -> parent). Each child's message is stored in the combining context (slot)
// of its addr: a message whose addr matches an open slot joins it; otherwise one child per cycle
// (round-robin among the children whose addr has no slot) allocates the first free slot, and
// every other child presenting the same addr in that cycle joins it at once. With no free slot
// the message waits (c_up_ready_o low): backpressure on that child only. When every child has
// contributed, the slot combines the values in child index order,
//   acc = v0; acc = acc op v1; ...; acc = acc op v(NumChild-1)   (reduce; kind of the slot),
// as a chain of NumChild-1 dependent ssm_alu operations (several slots may be in the pipeline
// at once, one issue per cycle, tag = slot; an ALU result is forwarded into the slot's next
// operation, or the last one into the output register, in the cycle it returns). A barrier needs
// no ALU: its value is 0. The combined
// message {err, kind, op, type, addr, value} then moves into the output register (round-robin
// among finished slots) and the slot is freed. The slot's kind/op/type are those of the first
// message that opened it; err is set when any child sent err=1, when a child's kind/op/type
// differ from the slot's, or when a child contributes twice to one open slot (a user/SSM error:
// the second message is absorbed and only sets err; the simulation also fails an assertion
// unless GSN_ALLOW_DUP is defined, see docs/gsn.md). Bits [127:118] are ignored and sent as 0.
//
// Down path (parent -> children): a stateless broadcast. A message from the parent is held in
// one register until every child port has taken it (a pending bit per child), then the next.
//
// Latency (no contention, all children in the same cycle): up, accept -> p_up_valid_o
//   2 cycles for a barrier, 2 + (NumChild-1)*L for a reduce (L = ssm_alu latency);
//   down, p_dn accepted -> c_dn_valid_o 1 cycle.
// Throughput: up, one combined message per cycle; down, one message per 2 cycles (the parent
//   side is registered: p_dn_ready_o = register empty).
// Combinational paths: c_up_ready_o from c_up_valid_i/c_up_msg_i and state only (not from
//   p_up_ready_i); every other output is a register. Hence no combinational path crosses a
//   tree level, and the root may connect p_up_* to its own p_dn_* directly.
// Parameters: NumChild: children in use (>= 1). Slots: open combining contexts (>= 1).
module gsn_node #(
  parameter int NumChild = 4,
  parameter int Slots    = 4,
  localparam int MsgW   = gsn_pkg::GSN_MSG_BITS,        // derived, do not override
  localparam int SlotW  = (Slots > 1) ? $clog2(Slots) : 1,
  localparam int ChildW = (NumChild > 1) ? $clog2(NumChild) : 1,
  localparam int StepW  = $clog2(NumChild + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // children: up (contributions) and down (results)
  input  logic [NumChild-1:0]      c_up_valid_i,
  output logic [NumChild-1:0]      c_up_ready_o,
  input  logic [NumChild*MsgW-1:0] c_up_msg_i,
  output logic [NumChild-1:0]      c_dn_valid_o,
  input  logic [NumChild-1:0]      c_dn_ready_i,
  output logic [NumChild*MsgW-1:0] c_dn_msg_o,
  // parent: up (combined message) and down (result)
  output logic                     p_up_valid_o,
  input  logic                     p_up_ready_i,
  output logic [MsgW-1:0]          p_up_msg_o,
  input  logic                     p_dn_valid_i,
  output logic                     p_dn_ready_o,
  input  logic [MsgW-1:0]          p_dn_msg_i
);
  // Parameter checks
  if (NumChild < 1) begin : gen_err_child
    $error("gsn_node: NumChild must be >= 1");
  end
  if (Slots < 1) begin : gen_err_slots
    $error("gsn_node: Slots must be >= 1");
  end

  // The fields every child of one operation must agree on: ref = {kind, op, type}, adjacent in the
  // message (gsn_pkg, docs/gsn_formats.md), msg[RefLsb +: RefW] = msg[116:112].
  localparam int RefLsb     = gsn_pkg::GSN_MSG_TYPE_LSB;
  localparam int RefW       = gsn_pkg::GSN_MSG_KIND_LSB + 1 - RefLsb;
  localparam int RefOp      = gsn_pkg::GSN_MSG_OP_LSB - RefLsb;    // op inside ref
  localparam int RefKind    = gsn_pkg::GSN_MSG_KIND_LSB - RefLsb;  // kind inside ref: 1 = reduce
  localparam int AluLatency = 4;  // ssm_alu's fixed pipeline depth (checked by ssm_alu)

  // ---------------------------------------------------------------------------------------------
  // Children's messages, decoded
  logic [NumChild*48-1:0]   c_addr;
  logic [NumChild*RefW-1:0] c_ref;
  logic [NumChild*64-1:0]   c_val;
  logic [NumChild-1:0]      c_err;
  logic                     unused_zero;
  for (genvar i = 0; i < NumChild; i++) begin : g_dec
    assign c_val[i*64 +: 64]     = c_up_msg_i[i*MsgW + gsn_pkg::GSN_MSG_VALUE_LSB +: 64];
    assign c_addr[i*48 +: 48]    = c_up_msg_i[i*MsgW + gsn_pkg::GSN_MSG_ADDR_LSB +: 48];
    assign c_ref[i*RefW +: RefW] = c_up_msg_i[i*MsgW + RefLsb +: RefW];
    assign c_err[i]              = c_up_msg_i[i*MsgW + gsn_pkg::GSN_MSG_ERR_LSB];
  end
  always_comb begin
    unused_zero = 1'b0;
    for (int i = 0; i < NumChild; i++)
      unused_zero = unused_zero ^ (^c_up_msg_i[i*MsgW + gsn_pkg::GSN_MSG_ZERO_LSB +: gsn_pkg::GSN_MSG_ZERO_WIDTH]);
  end

  // ---------------------------------------------------------------------------------------------
  // Combining contexts (slots), flat vectors indexed by slot (and child)
  logic [Slots-1:0]             sl_valid_q, sl_valid_d;
  logic [Slots*48-1:0]          sl_addr_q, sl_addr_d;
  logic [Slots*RefW-1:0]        sl_ref_q, sl_ref_d;      // of the message that opened the slot
  logic [Slots-1:0]             sl_err_q, sl_err_d;
  logic [Slots*NumChild-1:0]    sl_have_q, sl_have_d;    // child contributed
  logic [Slots*StepW-1:0]       sl_step_q, sl_step_d;    // next child to fold into value 0
  logic [Slots-1:0]             sl_busy_q, sl_busy_d;    // ALU operation in flight
  logic [Slots*NumChild*64-1:0] sl_val_q, sl_val_d;      // child values; [s][0] is the accumulator

  // ---------------------------------------------------------------------------------------------
  // Arrivals: match each child against the open slots
  logic [NumChild-1:0]       hit, dup, miss, join_new;
  // accept, dn_pend_q, dn_pend_d are read (never written) by the simulator's count of the messages
  // on the tree's links (sim/gsn/gsn_links.hpp): public_flat_rd keeps them and their names
  logic [NumChild-1:0]       accept /*verilator public_flat_rd*/;
  logic [NumChild*SlotW-1:0] hslot;
  always_comb begin
    hit   = '0;
    dup   = '0;
    hslot = '0;
    for (int i = 0; i < NumChild; i++) begin
      for (int s = 0; s < Slots; s++) begin
        if (sl_valid_q[s] && sl_addr_q[s*48 +: 48] == c_addr[i*48 +: 48]) begin
          hit[i]                  = 1'b1;
          hslot[i*SlotW +: SlotW] = SlotW'(s);
          dup[i]                  = sl_have_q[s*NumChild + i];
        end
      end
    end
    miss = c_up_valid_i & ~hit;
  end

  // First free slot (a slot freed this cycle is not reused before the next one).
  logic             free_any;
  logic [SlotW-1:0] free_idx;
  always_comb begin
    free_any = 1'b0;
    free_idx = '0;
    for (int s = Slots - 1; s >= 0; s--) begin
      if (!sl_valid_q[s]) begin
        free_any = 1'b1;
        free_idx = SlotW'(s);
      end
    end
  end

  // One allocation per cycle, round-robin among the children that found no slot.
  logic [NumChild-1:0] alloc_gnt;
  logic                alloc_any, alloc_ok;
  logic [ChildW-1:0]   alloc_idx;
  logic [47:0]         alloc_addr;
  logic [RefW-1:0]     alloc_ref;
  cmn_rr_arb #(.N(NumChild)) u_alloc_arb (
    .clk_i, .rst_ni,
    .req_i    (miss),
    .advance_i(alloc_ok),
    .gnt_o    (alloc_gnt),
    .valid_o  (alloc_any),
    .idx_o    (alloc_idx)
  );
  assign alloc_ok = alloc_any && free_any;
  always_comb begin  // explicit muxes: Verilator 5.006 over-reads variable part-selects
    alloc_addr = '0;
    alloc_ref  = '0;
    for (int i = 0; i < NumChild; i++) begin
      if (alloc_idx == ChildW'(i)) begin
        alloc_addr = c_addr[i*48 +: 48];
        alloc_ref  = c_ref[i*RefW +: RefW];
      end
    end
    for (int i = 0; i < NumChild; i++) begin
      join_new[i] = miss[i] && alloc_ok && (c_addr[i*48 +: 48] == alloc_addr);
    end
    accept = (c_up_valid_i & hit) | join_new;
  end
  assign c_up_ready_o = accept;
  logic unused_alloc_gnt;
  assign unused_alloc_gnt = ^alloc_gnt;

  // ---------------------------------------------------------------------------------------------
  // Combine: slot state, ALU issue and results
  logic [Slots-1:0] complete, reduce, done, ret, can_issue;
  logic [Slots*StepW-1:0] step_now;
  logic              alu_out_valid;
  logic [63:0]       alu_out_result;
  logic [SlotW-1:0]  alu_out_tag;
  always_comb begin
    for (int s = 0; s < Slots; s++) begin
      complete[s] = sl_valid_q[s] && (sl_have_q[s*NumChild +: NumChild] == {NumChild{1'b1}});
      reduce[s]   = sl_ref_q[s*RefW + RefKind];
      ret[s]      = alu_out_valid && (alu_out_tag == SlotW'(s));
      step_now[s*StepW +: StepW] = sl_step_q[s*StepW +: StepW] + (ret[s] ? StepW'(1) : StepW'(0));
      can_issue[s] = complete[s] && reduce[s] && (!sl_busy_q[s] || ret[s]) &&
                     (step_now[s*StepW +: StepW] != StepW'(NumChild));
      // finished: a barrier, a reduce whose last result is in, or whose last result returns now
      done[s] = complete[s] &&
                ((!sl_busy_q[s] && (!reduce[s] || sl_step_q[s*StepW +: StepW] == StepW'(NumChild))) ||
                 (ret[s] && step_now[s*StepW +: StepW] == StepW'(NumChild)));
    end
  end

  // Issue: the lowest slot ready for its next operation.
  logic             iss_any;
  logic [SlotW-1:0] iss_idx;
  logic [63:0]      iss_a, iss_b;
  logic [1:0]       iss_type, iss_op;
  always_comb begin
    iss_any = 1'b0;
    iss_idx = '0;
    for (int s = Slots - 1; s >= 0; s--) begin
      if (can_issue[s]) begin
        iss_any = 1'b1;
        iss_idx = SlotW'(s);
      end
    end
    iss_a    = '0;
    iss_b    = '0;
    iss_type = '0;
    iss_op   = '0;
    for (int s = 0; s < Slots; s++) begin
      if (iss_idx == SlotW'(s)) begin
        iss_a    = ret[s] ? alu_out_result : sl_val_q[s*NumChild*64 +: 64];
        iss_type = sl_ref_q[s*RefW +: 2];
        iss_op   = sl_ref_q[s*RefW + RefOp +: 2];
        for (int c = 1; c < NumChild; c++) begin
          if (step_now[s*StepW +: StepW] == StepW'(c)) iss_b = sl_val_q[(s*NumChild + c)*64 +: 64];
        end
      end
    end
  end

  ssm_alu #(.TagW(SlotW), .Latency(AluLatency)) u_alu (
    .clk_i, .rst_ni,
    .in_valid_i  (iss_any),
    .in_type_i   (iss_type),
    .in_op_i     (iss_op),
    .in_a_i      (iss_a),
    .in_b_i      (iss_b),
    .in_tag_i    (iss_idx),
    .out_valid_o (alu_out_valid),
    .out_result_o(alu_out_result),
    .out_tag_o   (alu_out_tag)
  );

  // ---------------------------------------------------------------------------------------------
  // Output register towards the parent: a finished slot moves in and is freed.
  logic [Slots-1:0] done_gnt;
  logic             done_any, out_load;
  logic [SlotW-1:0] done_idx;
  logic             out_valid_q;
  logic [MsgW-1:0]  out_msg_q, out_msg_d;
  logic [Slots-1:0] err_now;  // an arrival sets the slot's err in this cycle
  cmn_rr_arb #(.N(Slots)) u_done_arb (
    .clk_i, .rst_ni,
    .req_i    (done),
    .advance_i(out_load),
    .gnt_o    (done_gnt),
    .valid_o  (done_any),
    .idx_o    (done_idx)
  );
  logic unused_done_gnt;
  assign unused_done_gnt = ^done_gnt;
  assign out_load = done_any && (!out_valid_q || p_up_ready_i);
  always_comb begin
    out_msg_d = '0;
    for (int s = 0; s < Slots; s++) begin
      if (done_idx == SlotW'(s)) begin
        out_msg_d[gsn_pkg::GSN_MSG_VALUE_LSB +: 64] = !reduce[s] ? 64'd0 :
                                                      ret[s] ? alu_out_result : sl_val_q[s*NumChild*64 +: 64];
        out_msg_d[gsn_pkg::GSN_MSG_ADDR_LSB +: 48]  = sl_addr_q[s*48 +: 48];
        out_msg_d[RefLsb +: RefW]                   = sl_ref_q[s*RefW +: RefW];
        out_msg_d[gsn_pkg::GSN_MSG_ERR_LSB]         = sl_err_q[s] || err_now[s];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      out_msg_q   <= '0;
    end else begin
      if (out_load) begin
        out_valid_q <= 1'b1;
        out_msg_q   <= out_msg_d;
      end else if (p_up_ready_i) begin
        out_valid_q <= 1'b0;
      end
    end
  end
  assign p_up_valid_o = out_valid_q;
  assign p_up_msg_o   = out_msg_q;

  // ---------------------------------------------------------------------------------------------
  // Slot next state
  always_comb begin
    sl_valid_d = sl_valid_q;
    sl_addr_d  = sl_addr_q;
    sl_ref_d   = sl_ref_q;
    sl_err_d   = sl_err_q;
    sl_have_d  = sl_have_q;
    sl_step_d  = sl_step_q;
    sl_busy_d  = sl_busy_q;
    sl_val_d   = sl_val_q;
    err_now    = '0;
    // ALU results and issues
    for (int s = 0; s < Slots; s++) begin
      if (ret[s]) begin
        sl_val_d[s*NumChild*64 +: 64]  = alu_out_result;
        sl_step_d[s*StepW +: StepW]    = step_now[s*StepW +: StepW];
        sl_busy_d[s]                   = 1'b0;
      end
      if (iss_any && iss_idx == SlotW'(s)) sl_busy_d[s] = 1'b1;
      if (out_load && done_idx == SlotW'(s)) sl_valid_d[s] = 1'b0;
    end
    // Allocation (the slot is free now: no result, issue or output concerns it)
    for (int s = 0; s < Slots; s++) begin
      if (alloc_ok && free_idx == SlotW'(s)) begin
        sl_valid_d[s]                   = 1'b1;
        sl_addr_d[s*48 +: 48]           = alloc_addr;
        sl_ref_d[s*RefW +: RefW]        = alloc_ref;
        sl_err_d[s]                     = 1'b0;
        sl_have_d[s*NumChild +: NumChild] = '0;
        sl_step_d[s*StepW +: StepW]     = StepW'(1);
        sl_busy_d[s]                    = 1'b0;
      end
    end
    // Arrivals: into the matching slot, or into the one allocated now
    for (int i = 0; i < NumChild; i++) begin
      for (int s = 0; s < Slots; s++) begin
        if (hit[i] && hslot[i*SlotW +: SlotW] == SlotW'(s) && c_up_valid_i[i]) begin
          if (dup[i]) begin
            err_now[s] = 1'b1;
          end else begin
            sl_have_d[s*NumChild + i]           = 1'b1;
            sl_val_d[(s*NumChild + i)*64 +: 64] = c_val[i*64 +: 64];
            if (c_err[i] || c_ref[i*RefW +: RefW] != sl_ref_q[s*RefW +: RefW]) err_now[s] = 1'b1;
          end
        end
        if (join_new[i] && free_idx == SlotW'(s)) begin
          sl_have_d[s*NumChild + i]           = 1'b1;
          sl_val_d[(s*NumChild + i)*64 +: 64] = c_val[i*64 +: 64];
          if (c_err[i] || c_ref[i*RefW +: RefW] != alloc_ref) err_now[s] = 1'b1;
        end
      end
    end
    sl_err_d = sl_err_d | err_now;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sl_valid_q <= '0;
      sl_busy_q  <= '0;
    end else begin
      sl_valid_q <= sl_valid_d;
      sl_busy_q  <= sl_busy_d;
    end
  end
  // Slot contents are not reset: they are read only while the slot is valid.
  always_ff @(posedge clk_i) begin
    sl_addr_q <= sl_addr_d;
    sl_ref_q  <= sl_ref_d;
    sl_err_q  <= sl_err_d;
    sl_have_q <= sl_have_d;
    sl_step_q <= sl_step_d;
    sl_val_q  <= sl_val_d;
  end

  // ---------------------------------------------------------------------------------------------
  // Down path: broadcast register with a pending bit per child
  logic                dn_valid_q;
  logic [MsgW-1:0]     dn_msg_q;
  logic [NumChild-1:0] dn_pend_q /*verilator public_flat_rd*/, dn_pend_d /*verilator public_flat_rd*/;
  assign p_dn_ready_o = !dn_valid_q;
  always_comb begin
    dn_pend_d = dn_pend_q & ~c_dn_ready_i;
    if (p_dn_valid_i && !dn_valid_q) dn_pend_d = {NumChild{1'b1}};
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      dn_valid_q <= 1'b0;
      dn_pend_q  <= '0;
      dn_msg_q   <= '0;
    end else begin
      dn_pend_q  <= dn_pend_d;
      dn_valid_q <= (dn_pend_d != '0);
      if (p_dn_valid_i && !dn_valid_q) dn_msg_q <= p_dn_msg_i;
    end
  end
  assign c_dn_valid_o = dn_pend_q;
  assign c_dn_msg_o   = {NumChild{dn_msg_q}};

`ifndef SYNTHESIS
  // Assertions
  // Message stability (valid && !ready |=> valid && same message) as small monitors with
  // immediate assertions: a concurrent $stable of a slice of a port that is, after inlining, part
  // of the tree's wide link vectors makes Verilator 5.006 emit a sampling loop that does not compile.
  logic [NumChild-1:0]      mon_cup_q, mon_cdn_q;
  logic [NumChild*MsgW-1:0] mon_cup_msg_q;
  logic                     mon_pup_q, mon_pdn_q;
  logic [MsgW-1:0]          mon_pup_msg_q, mon_pdn_msg_q, mon_cdn_msg_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      mon_cup_q <= '0;
      mon_cdn_q <= '0;
      mon_pup_q <= 1'b0;
      mon_pdn_q <= 1'b0;
    end else begin
      for (int i = 0; i < NumChild; i++) begin
        // a child holds its message until it is taken
        if (mon_cup_q[i]) begin
          a_c_up_hold: assert (c_up_valid_i[i] &&
                               c_up_msg_i[i*MsgW +: MsgW] == mon_cup_msg_q[i*MsgW +: MsgW])
            else $error("gsn_node: child %0d dropped or changed its up message before it was taken", i);
        end
        if (mon_cdn_q[i]) begin
          a_c_dn_stable: assert (c_dn_valid_o[i] && c_dn_msg_o[i*MsgW +: MsgW] == mon_cdn_msg_q)
            else $error("gsn_node: down message to child %0d changed before it was taken", i);
        end
      end
      if (mon_pup_q) begin
        a_p_up_stable: assert (p_up_valid_o && p_up_msg_o == mon_pup_msg_q)
          else $error("gsn_node: up message changed before the parent took it");
      end
      if (mon_pdn_q) begin
        a_p_dn_hold: assert (p_dn_valid_i && p_dn_msg_i == mon_pdn_msg_q)
          else $error("gsn_node: the parent changed its down message before it was taken");
      end
      mon_cup_q <= c_up_valid_i & ~c_up_ready_o;
      mon_cdn_q <= c_dn_valid_o & ~c_dn_ready_i;
      mon_pup_q <= p_up_valid_o && !p_up_ready_i;
      mon_pdn_q <= p_dn_valid_i && !p_dn_ready_o;
    end
    mon_cup_msg_q <= c_up_msg_i;
    mon_cdn_msg_q <= dn_msg_q;
    mon_pup_msg_q <= p_up_msg_o;
    mon_pdn_msg_q <= p_dn_msg_i;
  end
`ifndef GSN_ALLOW_DUP
  for (genvar i = 0; i < NumChild; i++) begin : g_assert_child
    // a child contributes twice to one open combining context (user/SSM error; docs/gsn.md)
    a_c_up_no_dup: assert property (@(posedge clk_i) disable iff (!rst_ni)
        !(c_up_valid_i[i] && hit[i] && dup[i]));
  end
`endif
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({c_up_valid_i, c_dn_ready_i, p_up_ready_i, p_dn_valid_i}));
  a_alu_tag: assert property (@(posedge clk_i) disable iff (!rst_ni)
      alu_out_valid |-> (sl_busy_q & ret) != '0);
  a_dn_pend: assert property (@(posedge clk_i) disable iff (!rst_ni)
      dn_valid_q == (dn_pend_q != '0));
  for (genvar s = 0; s < Slots; s++) begin : g_assert_slot
    for (genvar t = s + 1; t < Slots; t++) begin : g_pair
      a_addr_unique: assert property (@(posedge clk_i) disable iff (!rst_ni)
          !(sl_valid_q[s] && sl_valid_q[t] && sl_addr_q[s*48 +: 48] == sl_addr_q[t*48 +: 48]));
    end
    a_busy_valid: assert property (@(posedge clk_i) disable iff (!rst_ni)
        sl_busy_q[s] |-> complete[s] && reduce[s]);
  end
`endif
endmodule
