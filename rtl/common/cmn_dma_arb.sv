// cmn_dma_arb: N DMA masters onto one DMA port (tagged requests, responses routed back by tag).
//   Requests  : a round-robin arbiter (cmn_rr_arb) picks a requesting master; its payload
//               (req_data, opaque ReqW bits: write flag, address, length, write data, ...) and its
//               tag go to the port. Once a request is on the port the grant is held until the
//               request is accepted (the port obeys the valid/ready rule however many masters
//               ask), and after an accepted beat with req_last_i low it stays with the master
//               until a beat with req_last_i high is accepted (a burst is never interleaved; the
//               master may idle between the beats of its burst, the port then shows no request).
//   Tags      : the port tag is {master tag, master index}: req_tag_o = {req_tag_i[m], m}, the
//               index in the low IdxW bits. A response goes to the master named by the low IdxW
//               bits of rsp_tag_i and carries the master's own tag (rsp_tag_o, the high bits)
//               and the data (rsp_data_o, shared by all masters). Responses may come back in any
//               order; a response naming no master (index >= N) is dropped (and asserted against).
//   Latency   : none. The port request, the masters' req_ready_o, the masters' rsp_valid_o and
//               the port's rsp_ready_o are combinational from the inputs and the hold state;
//               req_ready_o[m] may be high while master m has no request (it is then ignored).
//   Throughput: one request beat and one response per cycle.
//   Fairness  : AdvanceOnStall = 1: the round-robin pointer moves past a master in the cycle its
//               request (or burst) first shows on the port, so a master that keeps requesting
//               waits for at most N-1 grants to others. AdvanceOnStall = 0: the pointer moves
//               only when that first beat is accepted in the same cycle; a request the port
//               stalls first leaves the pointer where it was, and the same master can win the
//               next grant again (the arbitration ssm_top was built and measured with).
// Parameters: N: masters (>= 1). ReqW: request payload bits (>= 1). MTagW: the masters' own tag
//   bits (>= 1; tie to 0 when a master needs none). RspW: response payload bits (>= 1).
//   AdvanceOnStall: see Fairness. IdxW, TagW are derived (TagW = MTagW + IdxW, the port's tag).
module cmn_dma_arb #(
  parameter int N              = 2,
  parameter int ReqW           = 8,
  parameter int MTagW          = 1,
  parameter int RspW           = 8,
  parameter bit AdvanceOnStall = 1'b1,
  localparam int IdxW = (N > 1) ? $clog2(N) : 1,  // derived, do not override
  localparam int TagW = MTagW + IdxW              // derived, do not override
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // masters: requests
  input  logic [N-1:0]      req_valid_i,
  output logic [N-1:0]      req_ready_o,
  input  logic [N*ReqW-1:0] req_data_i,
  input  logic [N*MTagW-1:0] req_tag_i,
  input  logic [N-1:0]      req_last_i,   // last beat of a burst (tie high: single beats)
  // masters: responses
  output logic [N-1:0]      rsp_valid_o,
  input  logic [N-1:0]      rsp_ready_i,
  output logic [MTagW-1:0]  rsp_tag_o,
  output logic [RspW-1:0]   rsp_data_o,
  // port: requests
  output logic              req_valid_o,
  input  logic              req_ready_i,
  output logic [ReqW-1:0]   req_data_o,
  output logic [TagW-1:0]   req_tag_o,
  output logic              req_last_o,
  // port: responses
  input  logic              rsp_valid_i,
  output logic              rsp_ready_o,
  input  logic [TagW-1:0]   rsp_tag_i,
  input  logic [RspW-1:0]   rsp_data_i
);
  // Parameter checks
  if (N < 1) begin : gen_err_n
    $error("cmn_dma_arb: N must be >= 1");
  end
  if (ReqW < 1 || MTagW < 1 || RspW < 1) begin : gen_err_width
    $error("cmn_dma_arb: ReqW, MTagW and RspW must be >= 1");
  end

  // ---------------------------------------------------------------- grant
  logic            any, stall_q, lock_q, lock_d, hold, advance;
  logic [IdxW-1:0] arb_idx, idx, hold_idx_q;
  logic [N-1:0]    arb_gnt;

  assign hold    = stall_q || lock_q;  // the port belongs to master hold_idx_q
  assign advance = AdvanceOnStall ? (any && !hold) : (any && req_ready_i && !hold);
  cmn_rr_arb #(.N(N)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (req_valid_i),
    .advance_i(advance),
    .gnt_o    (arb_gnt),
    .valid_o  (any),
    .idx_o    (arb_idx)
  );
  assign idx    = hold ? hold_idx_q : arb_idx;
  assign lock_d = (req_valid_o && req_ready_i) ? !req_last_o : lock_q;  // inside a burst

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      stall_q    <= 1'b0;
      lock_q     <= 1'b0;
      hold_idx_q <= '0;
    end else begin
      stall_q    <= req_valid_o && !req_ready_i;
      lock_q     <= lock_d;
      hold_idx_q <= idx;
    end
  end

  // ---------------------------------------------------------------- request mux
  always_comb begin  // explicit muxes (Verilator 5.006 over-reads variable part-selects)
    req_valid_o = 1'b0;
    req_data_o  = '0;
    req_tag_o   = '0;
    req_last_o  = 1'b0;
    for (int m = 0; m < N; m++) if (idx == IdxW'(m)) begin
      req_valid_o = hold ? req_valid_i[m] : any;
      req_data_o  = req_data_i[m*ReqW +: ReqW];
      req_tag_o   = {req_tag_i[m*MTagW +: MTagW], IdxW'(m)};
      req_last_o  = req_last_i[m];
    end
  end
  always_comb begin
    for (int m = 0; m < N; m++) req_ready_o[m] = (idx == IdxW'(m)) && req_ready_i;
  end

  // ---------------------------------------------------------------- response demux
  logic [IdxW-1:0] rsp_idx;
  assign rsp_idx    = rsp_tag_i[IdxW-1:0];
  assign rsp_tag_o  = rsp_tag_i[TagW-1:IdxW];
  assign rsp_data_o = rsp_data_i;
  always_comb begin
    rsp_ready_o = 1'b1;  // a response naming no master is dropped
    for (int m = 0; m < N; m++) begin
      rsp_valid_o[m] = rsp_valid_i && rsp_idx == IdxW'(m);
      if (rsp_idx == IdxW'(m)) rsp_ready_o = rsp_ready_i[m];
    end
  end

  logic unused;
  assign unused = ^arb_gnt;

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({req_valid_i, req_ready_i, rsp_valid_i}));
  // The port obeys the valid/ready rule: a request not accepted stays, unchanged.
  a_port_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      req_valid_o && !req_ready_i |=> req_valid_o && $stable(req_data_o) && $stable(req_tag_o) &&
      $stable(req_last_o));
  // ... which needs every master to obey it: a request stays, unchanged, until accepted.
  for (genvar m = 0; m < N; m++) begin : g_master_rules
    a_master_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
        req_valid_i[m] && !req_ready_o[m] |=> req_valid_i[m] &&
        $stable(req_data_i[m*ReqW +: ReqW]) && $stable(req_tag_i[m*MTagW +: MTagW]) &&
        $stable(req_last_i[m]));
  end
  // A held grant belongs to a master (index in range); a response names a master.
  a_hold_idx: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(idx) < N);
  a_rsp_master: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rsp_valid_i |-> 32'(rsp_idx) < N);
`endif
endmodule
