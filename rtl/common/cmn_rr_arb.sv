// cmn_rr_arb: round-robin arbiter over N requesters.
//   gnt_o/idx_o/valid_o are combinational from req_i and the priority pointer (no latency):
//   the grant goes to the first requester at or after the pointer, wrapping around.
//   advance_i says the grant was used this cycle: the pointer moves just past the winner.
//   Without advance_i the grant may change with req_i (the pointer holds).
//   Fairness: an input that keeps requesting waits for at most N-1 used grants to others.
// Parameters: N: requesters (>= 1). IdxW is derived (max(1, $clog2(N))).
module cmn_rr_arb #(
  parameter int N = 4,
  localparam int IdxW = (N > 1) ? $clog2(N) : 1  // derived, do not override
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  input  logic            advance_i,
  output logic [N-1:0]    gnt_o,
  output logic            valid_o,
  output logic [IdxW-1:0] idx_o
);
  // Parameter checks
  if (N < 1) begin : gen_err_n
    $error("cmn_rr_arb: N must be >= 1");
  end

  logic [IdxW-1:0] prio_q, prio_d;  // index with the highest priority
  logic [IdxW-1:0] idx_hi, idx_lo;  // first request at/after the pointer, first request overall
  logic            found_hi, found_lo;

  always_comb begin
    found_hi = 1'b0;
    found_lo = 1'b0;
    idx_hi   = '0;
    idx_lo   = '0;
    for (int i = 0; i < N; i++) begin
      if (req_i[i] && !found_hi && (IdxW'(i) >= prio_q)) begin
        found_hi = 1'b1;
        idx_hi   = IdxW'(i);
      end
      if (req_i[i] && !found_lo) begin
        found_lo = 1'b1;
        idx_lo   = IdxW'(i);
      end
    end
  end

  assign valid_o = found_lo;
  assign idx_o   = found_hi ? idx_hi : idx_lo;
  assign gnt_o   = valid_o ? (N'(1) << idx_o) : '0;

  always_comb begin
    prio_d = prio_q;
    if (valid_o && advance_i) prio_d = (idx_o == IdxW'(N - 1)) ? '0 : idx_o + IdxW'(1);
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) prio_q <= '0;
    else         prio_q <= prio_d;
  end

`ifndef SYNTHESIS
  // Assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({req_i, advance_i}));
  a_onehot: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(gnt_o));
  a_gnt_req: assert property (@(posedge clk_i) disable iff (!rst_ni) (gnt_o & ~req_i) == '0);
  a_valid: assert property (@(posedge clk_i) disable iff (!rst_ni) valid_o == (req_i != '0));
  a_idx: assert property (@(posedge clk_i) disable iff (!rst_ni) valid_o |-> gnt_o[idx_o]);
  a_prio_range: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(prio_q) < N);
`endif
endmodule
