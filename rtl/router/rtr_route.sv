// rtr_route: the route computation of one packet as a module (unit tests, synthesis): the head
// flit's route field decoded as the input buffer does when the head arrives
// (rtr_pkg::route_info), then the admissible outputs and the selection function's choice as the
// router computes them every cycle (rtr_pkg::route_sel). rtr_router calls the same functions.
//   route_i : bits [23:0] of the head flit (signed remaining hops of dimensions 0, 1, 2)
//   inport_i: the input port the packet is buffered at (Torus: the bubble rule's k depends on it)
//   ofree_i : outputs that can take a new packet this cycle (the local port is NN = 2*Dims)
//   credit_i: credits of the network outputs (free packet slots downstream; flit entries in
//             wormhole mode)
//   omask_o/k_o/pref_o: the decoded route: candidate ports (productive directions, or the one
//             dimension-order port, or the local port when no hop is left), the DBFC
//             requirement k (dimensions with hops left; 1 in DOR; in a torus 1 to continue in
//             the ring of the input port, 2 to enter one; 0 for ejection), the
//             dimension preferred on a credit tie
//   cand_o  : admissible outputs: candidates that are free and have credit >= k (DBFC)
//   sel_o   : the choice (one-hot, 0 if none): most credits, then pref, then the lowest port
module rtr_route #(
  parameter int Dims  = 2,
  parameter int Mode  = 0,
  parameter int Sel   = 0,
  parameter int CredW = 4,
  parameter int Torus = 0,
  localparam int NN   = 2 * Dims,
  localparam int NP   = NN + 1
) (
  input  logic [rtr_pkg::RouteW-1:0] route_i,
  input  logic [2:0]                 inport_i,
  input  logic [NP-1:0]              ofree_i,
  input  logic [NN*CredW-1:0]        credit_i,
  output logic [NP-1:0]              omask_o,
  output logic [1:0]                 k_o,
  output logic [1:0]                 pref_o,
  output logic [NP-1:0]              cand_o,
  output logic [NP-1:0]              sel_o
);
  if (CredW > rtr_pkg::CredBits) begin : gen_err_credw
    $error("rtr_route: CredW must be <= 8");
  end

  /* verilator lint_off UNUSEDSIGNAL */  // fixed-size fields, used up to NP
  logic [rtr_pkg::MaxInfoW-1:0]       info;
  logic [13:0]                        rs;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [6*rtr_pkg::CredBits-1:0]     cred8;

  assign info    = rtr_pkg::route_info(route_i, Dims, Mode, Sel, inport_i, Torus);
  assign omask_o = info[NP-1:0];
  assign k_o     = info[NP +: 2];
  assign pref_o  = info[NP+2 +: 2];

  always_comb begin
    cred8 = '0;
    for (int o = 0; o < NN; o++) begin
      cred8[o*rtr_pkg::CredBits +: rtr_pkg::CredBits] = rtr_pkg::CredBits'(credit_i[o*CredW +: CredW]);
    end
  end
  assign rs     = rtr_pkg::route_sel(info, 7'(ofree_i), cred8, Dims, Mode);
  assign cand_o = rs[0 +: NP];
  assign sel_o  = rs[7 +: NP];

endmodule
