// ssm_fp64_cmp: IEEE 754 binary64 maximum / minimum, combinational.
//   res_o = max_i ? max(a_i, b_i) : min(a_i, b_i), with:
//   NaN    : a NaN -> a with the quiet bit (51) set; else b NaN -> b quieted (the same rule as
//            ssm_fp64_add and x86 SSE arithmetic: a is the first operand).
//   Zeros  : -0 < +0, so max(-0, +0) = +0 and min(-0, +0) = -0 in either operand order.
//   Else   : the numerically larger (max) / smaller (min) operand, bit for bit (Inf included).
//   Equal operands are then identical encodings, so the choice between them does not matter.
// The order is taken on keys: a positive encoding with its sign bit set, a negative one inverted;
// unsigned key order is then numeric order with -0 just below +0.
module ssm_fp64_cmp (
  input  logic [63:0] a_i,
  input  logic [63:0] b_i,
  input  logic        max_i,
  output logic [63:0] res_o
);
  logic        a_nan, b_nan, b_gt_a, b_lt_a;
  logic [63:0] ka, kb;

  assign a_nan  = (a_i[62:52] == 11'h7ff) && (a_i[51:0] != '0);
  assign b_nan  = (b_i[62:52] == 11'h7ff) && (b_i[51:0] != '0);
  assign ka     = a_i[63] ? ~a_i : {1'b1, a_i[62:0]};
  assign kb     = b_i[63] ? ~b_i : {1'b1, b_i[62:0]};
  assign b_gt_a = (kb > ka);
  assign b_lt_a = (kb < ka);

  always_comb begin
    if (a_nan)      res_o = a_i | 64'h0008_0000_0000_0000;
    else if (b_nan) res_o = b_i | 64'h0008_0000_0000_0000;
    else if (max_i) res_o = b_gt_a ? b_i : a_i;
    else            res_o = b_lt_a ? b_i : a_i;
  end
endmodule
