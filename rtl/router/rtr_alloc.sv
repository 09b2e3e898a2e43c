// rtr_alloc: the switch allocator of one router as a module (unit tests, synthesis): the
// combinational allocation rtr_pkg::alloc and its priority pointer. rtr_router calls the same
// function for every router (with the pointer in its state).
//   Each input presents at most one request: the output chosen for its picked packet.
//   The inputs are visited in a rotating order starting at the pointer; each gets its output if
//   no input before it in this order took that output (a maximal matching); the pointer then
//   moves just past the first input granted, as a round-robin arbiter's.
//   req_i[i*NI + o]: input i requests output o (at most one bit per input; NI outputs).
//   gnt_o[i]: input i is granted; ognt_o[o], ogin_o[o*3 +: 3]: output o is granted, to input ogin.
//   Wait order (wait_arb_i = 1, the router's wait_arb_i; docs/router.md#starvation-freedom): the
//   visit starts at the requesting input whose picked packet has waited longest (wait_i[i*32 +:
//   32]; ties: the first in the rotating order from the pointer, rtr_pkg::wait_first) instead of
//   at the pointer; the rest is the same (the pointer then moves past that input).
//   Fairness: the first input in the order always gets what it asks for, and the pointer moves
//   past the first winner in every cycle with a grant, so an input that keeps requesting is
//   granted within NI-1 cycles with grants; when every input asks for the same output, the
//   grants go round-robin (equal shares).
module rtr_alloc #(
  parameter int NI = 5   // inputs = outputs, 1..7
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [NI*NI-1:0] req_i,
  input  logic            wait_arb_i,
  input  logic [NI*32-1:0] wait_i,
  output logic [NI-1:0]   gnt_o,
  output logic [NI-1:0]   ognt_o,
  output logic [NI*3-1:0] ogin_o
);
  if (NI < 1 || NI > rtr_pkg::MaxP) begin : gen_err_ni
    $error("rtr_alloc: NI must be 1..7");
  end

  logic [48:0] req7;
  logic [38:0] al;
  logic [2:0]  ptr_q;
  logic [7*32-1:0] w7;
  logic [2:0]  start;

  always_comb begin
    req7 = '0;
    for (int i = 0; i < NI; i++) req7[i*7 +: NI] = req_i[i*NI +: NI];
    w7 = '0;
    w7[NI*32-1:0] = wait_i;
  end
  assign start = wait_arb_i ? rtr_pkg::wait_first(w7, rtr_pkg::req_any(req7), ptr_q, NI) : ptr_q;
  assign al = rtr_pkg::alloc(req7, start, NI);
  assign gnt_o  = al[28 +: NI];
  assign ognt_o = al[21 +: NI];
  assign ogin_o = al[0 +: NI*3];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) ptr_q <= '0;
    else         ptr_q <= al[38:36];
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni && req_i != '0) begin
      for (int i = 0; i < NI; i++) begin
        a_one_req: assert ($onehot0(req_i[i*NI +: NI]))
          else $error("rtr_alloc: input %0d requests several outputs", i);
      end
    end
  end
`endif

  if (NI < 7) begin : g_unused
    logic unused;
    assign unused = ^{al[35], al[34:28+NI], al[27:21+NI], al[20:NI*3]};
  end else begin : g_unused7
    logic unused;
    assign unused = al[35];
  end
endmodule
