// ssm_fp64_add: IEEE 754 binary64 adder, fully pipelined: one addition per cycle, no backpressure.
//   Latency   : Latency = 4. a_i/b_i taken at the rising edge that sees in_valid_i (cycle t) give
//               sum_o with out_valid_o in cycle t+4. Outputs are registered. The parameter is not a
//               knob: a parent passes its own constant and elaboration fails if it is not 4.
//   Rounding  : round to nearest, ties to even. Subnormal inputs and outputs are exact (no flush
//               to zero); an overflow gives +-Inf.
//   Zeros     : an exact zero sum of operands of opposite signs is +0 (x + (-x) = +0, +0 + -0 = +0);
//               -0 + -0 = -0; x + +-0 = x.
//   NaN, Inf  : like x86-64 SSE `addsd` with a as the first source: a NaN -> a with the quiet bit
//               (51) set; else b NaN -> b quieted; else Inf + (-Inf) -> default NaN
//               0xFFF8_0000_0000_0000; else an Inf operand -> that Inf.
//   Stages    : 1 unpack, classify, order by magnitude (big/small), exponent difference;
//               2 align the small operand (guard, round, sticky) and add or subtract;
//               3 normalize (carry right shift, or left shift limited to the subnormal exponent);
//               4 round (RNE, the increment carries into the exponent), pack, select specials.
//   Datapath registers load only with a valid beat (hold otherwise) and have no reset.
module ssm_fp64_add #(
  parameter int Latency = 4  // fixed; see above
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        in_valid_i,
  input  logic [63:0] a_i,
  input  logic [63:0] b_i,
  output logic        out_valid_o,
  output logic [63:0] sum_o
);
  if (Latency != 4) begin : gen_err_latency
    $error("ssm_fp64_add: Latency is 4 (the pipeline depth), not a free parameter");
  end

  // ---------------------------------------------------------------- stage 1: unpack, order
  logic        a_sgn, b_sgn;
  logic [10:0] a_exp, b_exp;
  logic [51:0] a_frac, b_frac;
  logic        a_nan, b_nan, a_inf, b_inf;
  logic        a_big;                // |a| >= |b| (finite encodings order like their magnitudes)
  logic [62:0] big, sml;
  logic [10:0] big_e, sml_e, diff;
  logic        spec;                 // the result is a NaN or an Inf (exponent 0x7ff)
  logic        spec_sgn;
  logic [51:0] spec_frac;

  assign {a_sgn, a_exp, a_frac} = a_i;
  assign {b_sgn, b_exp, b_frac} = b_i;
  assign a_nan = (a_exp == 11'h7ff) && (a_frac != '0);
  assign b_nan = (b_exp == 11'h7ff) && (b_frac != '0);
  assign a_inf = (a_exp == 11'h7ff) && (a_frac == '0);
  assign b_inf = (b_exp == 11'h7ff) && (b_frac == '0);
  assign a_big = (a_i[62:0] >= b_i[62:0]);
  assign big   = a_big ? a_i[62:0] : b_i[62:0];
  assign sml   = a_big ? b_i[62:0] : a_i[62:0];
  // Effective exponents: a subnormal (field 0) has exponent 1 and no hidden bit.
  assign big_e = (big[62:52] == '0) ? 11'd1 : big[62:52];
  assign sml_e = (sml[62:52] == '0) ? 11'd1 : sml[62:52];
  assign diff  = big_e - sml_e;

  always_comb begin
    spec      = 1'b1;
    spec_sgn  = 1'b0;
    spec_frac = '0;
    if (a_nan) begin
      spec_sgn  = a_sgn;
      spec_frac = {1'b1, a_frac[50:0]};
    end else if (b_nan) begin
      spec_sgn  = b_sgn;
      spec_frac = {1'b1, b_frac[50:0]};
    end else if (a_inf && b_inf && (a_sgn != b_sgn)) begin
      spec_sgn  = 1'b1;                       // default NaN 0xFFF8_0000_0000_0000
      spec_frac = {1'b1, 51'd0};
    end else if (a_inf) begin
      spec_sgn  = a_sgn;
    end else if (b_inf) begin
      spec_sgn  = b_sgn;
    end else begin
      spec      = 1'b0;
    end
  end

  logic        s1_valid_q;
  logic        s1_spec_q, s1_sgn_q, s1_sub_q;
  logic [51:0] s1_sfrac_q;
  logic [10:0] s1_e_q;
  logic [52:0] s1_mb_q, s1_ms_q;  // significands with the hidden bit
  logic [5:0]  s1_d_q;            // exponent difference, saturated at 63

  always_ff @(posedge clk_i) begin
    if (in_valid_i) begin
      s1_spec_q  <= spec;
      s1_sgn_q   <= spec ? spec_sgn : (a_big ? a_sgn : b_sgn);
      s1_sub_q   <= a_sgn ^ b_sgn;
      s1_sfrac_q <= spec_frac;
      s1_e_q     <= big_e;
      s1_mb_q    <= {big[62:52] != '0, big[51:0]};
      s1_ms_q    <= {sml[62:52] != '0, sml[51:0]};
      s1_d_q     <= (diff > 11'd63) ? 6'd63 : diff[5:0];
    end
  end

  // ---------------------------------------------------------------- stage 2: align, add
  // Fixed point, 57 bits: [56] carry, [55] hidden bit of big, [54:3] fraction, [2] guard,
  // [1] round, [0] sticky. The small significand is shifted right by the exponent difference; every
  // bit shifted below bit 0 is ORed into bit 0 (sticky), which keeps RNE exact (see docs).
  logic [63:0] ext, shifted, lost;
  logic [55:0] aligned;
  logic [56:0] mb_x, sum;
  logic        sum_zero, zero_sgn;

  assign ext     = {8'd0, s1_ms_q, 3'd0};
  assign shifted = ext >> s1_d_q;
  assign lost    = ext & ~({64{1'b1}} << s1_d_q);
  assign aligned = {shifted[55:1], shifted[0] | (lost != '0)};
  assign mb_x    = {1'b0, s1_mb_q, 3'd0};
  assign sum     = s1_sub_q ? (mb_x - {1'b0, aligned}) : (mb_x + {1'b0, aligned});
  // An exact zero (detected beside the adder, not after it): +0 for x - x (RNE), the common sign
  // for zeros of one sign.
  assign sum_zero = s1_sub_q ? (mb_x == {1'b0, aligned}) : ((s1_mb_q == '0) && (aligned == '0));
  assign zero_sgn = s1_sgn_q & ~s1_sub_q;

  logic        s2_valid_q;
  logic        s2_spec_q, s2_sgn_q;
  logic [51:0] s2_sfrac_q;
  logic [10:0] s2_e_q;
  logic [56:0] s2_sum_q;

  always_ff @(posedge clk_i) begin
    if (s1_valid_q) begin
      s2_spec_q  <= s1_spec_q;
      s2_sgn_q   <= (!s1_spec_q && sum_zero) ? zero_sgn : s1_sgn_q;
      s2_sfrac_q <= s1_sfrac_q;
      s2_e_q     <= s1_e_q;
      s2_sum_q   <= sum;
    end
  end

  // ---------------------------------------------------------------- stage 3: normalize
  // Left shift by min(leading zeros, e - 1): a marker bit at position 55 - (e - 1) stops the
  // leading-zero search there, so the result never gets an exponent below 1 (it stays subnormal,
  // field 0, when its hidden bit is still 0 after the shift).
  logic [10:0] lim;
  logic [55:0] marker;
  logic [55:0] n0, n1, n2, n3, n4, n5, n6;  // value being shifted
  logic [55:0] v0, v1, v2, v3, v4;          // value | marker: decides the shifts
  logic        sh5, sh4, sh3, sh2, sh1, sh0;
  logic [5:0]  sh;
  logic [52:0] mant;
  logic        rnd, stk;
  logic [11:0] e_n;

  assign lim = s2_e_q - 11'd1;
  always_comb begin
    marker = '0;
    for (int i = 0; i < 56; i++) if (lim == 11'(55 - i)) marker[i] = 1'b1;
  end
  assign n0 = s2_sum_q[55:0];
  assign v0 = s2_sum_q[55:0] | marker;
  assign sh5 = (v0[55:24] == '0);
  assign n1  = sh5 ? {n0[23:0], 32'd0} : n0;
  assign v1  = sh5 ? {v0[23:0], 32'd0} : v0;
  assign sh4 = (v1[55:40] == '0);
  assign n2  = sh4 ? {n1[39:0], 16'd0} : n1;
  assign v2  = sh4 ? {v1[39:0], 16'd0} : v1;
  assign sh3 = (v2[55:48] == '0);
  assign n3  = sh3 ? {n2[47:0], 8'd0} : n2;
  assign v3  = sh3 ? {v2[47:0], 8'd0} : v2;
  assign sh2 = (v3[55:52] == '0);
  assign n4  = sh2 ? {n3[51:0], 4'd0} : n3;
  assign v4  = sh2 ? {v3[51:0], 4'd0} : v3;
  assign sh1 = (v4[55:54] == '0);
  assign n5  = sh1 ? {n4[53:0], 2'd0} : n4;
  assign sh0 = sh1 ? !v4[53] : !v4[55];
  assign n6  = sh0 ? {n5[54:0], 1'd0} : n5;
  assign sh  = {sh5, sh4, sh3, sh2, sh1, sh0};

  always_comb begin
    if (s2_sum_q[56]) begin  // carry: shift right by one, exponent + 1 (2047: overflow)
      mant = s2_sum_q[56:4];
      rnd  = s2_sum_q[3];
      stk  = (s2_sum_q[2:0] != '0);
      e_n  = {1'b0, s2_e_q} + 12'd1;
    end else begin
      mant = n6[55:3];
      rnd  = n6[2];
      stk  = (n6[1:0] != '0);
      e_n  = n6[55] ? ({1'b0, s2_e_q} - {6'd0, sh}) : 12'd0;
    end
  end

  logic        s3_valid_q;
  logic        s3_spec_q, s3_sgn_q;
  logic [51:0] s3_sfrac_q;
  logic [11:0] s3_e_q;
  logic [52:0] s3_mant_q;
  logic        s3_rnd_q, s3_stk_q;

  always_ff @(posedge clk_i) begin
    if (s2_valid_q) begin
      s3_spec_q  <= s2_spec_q;
      s3_sgn_q   <= s2_sgn_q;
      s3_sfrac_q <= s2_sfrac_q;
      s3_e_q     <= e_n;
      s3_mant_q  <= mant;
      s3_rnd_q   <= rnd;
      s3_stk_q   <= stk;
    end
  end

  // ---------------------------------------------------------------- stage 4: round, pack
  // {exponent, fraction} + 1 carries a rounded-up all-ones fraction into the exponent: the next
  // binade, a subnormal becoming the smallest normal, or the largest finite becoming Inf.
  logic        up;
  logic [62:0] packed_r;
  logic [63:0] res;

  assign up       = s3_rnd_q & (s3_stk_q | s3_mant_q[0]);
  assign packed_r = {s3_e_q[10:0], s3_mant_q[51:0]} + {62'd0, up};
  always_comb begin
    if (s3_spec_q)                 res = {s3_sgn_q, 11'h7ff, s3_sfrac_q};
    else if (s3_e_q >= 12'd2047)   res = {s3_sgn_q, 11'h7ff, 52'd0};
    else                           res = {s3_sgn_q, packed_r};
  end

  logic        s4_valid_q;
  logic [63:0] s4_res_q;
  always_ff @(posedge clk_i) begin
    if (s3_valid_q) s4_res_q <= res;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
      s2_valid_q <= 1'b0;
      s3_valid_q <= 1'b0;
      s4_valid_q <= 1'b0;
    end else begin
      s1_valid_q <= in_valid_i;
      s2_valid_q <= s1_valid_q;
      s3_valid_q <= s2_valid_q;
      s4_valid_q <= s3_valid_q;
    end
  end

  assign out_valid_o = s4_valid_q;
  assign sum_o       = s4_res_q;

  // shifted[63:56] is always 0; v4 decides only the last two shifts; the hidden bit is implied
  // by the exponent field.
  logic unused;
  assign unused = ^{shifted[63:56], v4[52:0], s3_mant_q[52]};

`ifndef SYNTHESIS
  // Exactness invariant of the 3-bit guard/round/sticky scheme: a left shift by 2 or more
  // (massive cancellation) only happens when no bit was lost in the alignment (difference <= 1).
  logic s2_lost_q;
  always_ff @(posedge clk_i) if (s1_valid_q) s2_lost_q <= (lost != '0);
  a_cancel_exact: assert property (@(posedge clk_i) disable iff (!rst_ni)
      s2_valid_q && !s2_spec_q && !s2_sum_q[56] && sh >= 6'd2 && s2_sum_q != '0 |-> !s2_lost_q);
  // A normal result has its hidden bit set; a subnormal one (field 0) only comes from the limit.
  a_norm: assert property (@(posedge clk_i) disable iff (!rst_ni)
      s3_valid_q && !s3_spec_q && s3_e_q != '0 |-> s3_mant_q[52]);
  // (A NaN or Inf operand runs the datapath with exponent 2047; its result is replaced.)
  a_exp_range: assert property (@(posedge clk_i) disable iff (!rst_ni)
      s3_valid_q && !s3_spec_q |-> s3_e_q <= 12'd2047);
  a_in_known: assert property (@(posedge clk_i) disable iff (!rst_ni) !$isunknown(in_valid_i));
  a_zero: assert property (@(posedge clk_i) disable iff (!rst_ni)
      s1_valid_q |-> sum_zero == (sum == '0));
`endif
endmodule
