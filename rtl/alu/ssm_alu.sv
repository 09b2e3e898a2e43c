// ssm_alu: the reduction combine unit: result = a OP b for the reduce and burst-reduce units.
//   Pipelined: one operation per cycle, no backpressure, fixed latency for every type and op:
//     Latency = 4: an operation taken at the rising edge that sees in_valid_i (cycle t) comes out
//     with out_valid_o, its result and its tag in cycle t+4, in issue order.
//   The Latency parameter is not a knob: a parent declares its own constant (4) and passes it, so
//   that elaboration fails ($error) if the pipeline depth and the parent disagree.
//   in_type_i: 0 int64 (signed), 1 uint64, 2 double (IEEE 754 binary64), 3 int32 x 2 (two
//              independent signed lanes, [31:0] and [63:32]).
//   in_op_i  : 0 sum (integers wrap), 1 max, 2 min, 3 = a (never sent; defined as the result a).
//   double sum: ssm_fp64_add (RNE, subnormals, x86 SSE NaN/zero rules with a as first operand);
//   double max/min: ssm_fp64_cmp (-0 < +0; a NaN -> quiet(a), else b NaN -> quiet(b)).
//   Reset: synchronous, active low; clears the valid pipeline (operations in flight are dropped).
//   out_result_o/out_tag_o are meaningful only with out_valid_o.
module ssm_alu #(
  parameter int TagW    = 8,
  parameter int Latency = 4  // fixed; see above
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            in_valid_i,
  input  logic [1:0]      in_type_i,
  input  logic [1:0]      in_op_i,
  input  logic [63:0]     in_a_i,
  input  logic [63:0]     in_b_i,
  input  logic [TagW-1:0] in_tag_i,
  output logic            out_valid_o,
  output logic [63:0]     out_result_o,
  output logic [TagW-1:0] out_tag_o
);
  if (Latency != 4) begin : gen_err_latency
    $error("ssm_alu: Latency is 4 (the pipeline depth), not a free parameter");
  end
  if (TagW < 1) begin : gen_err_tagw
    $error("ssm_alu: TagW must be >= 1");
  end

  // Type and op codes (documented in docs/ssm_alu.md).
  localparam logic [1:0] TInt64 = 2'd0, TUint64 = 2'd1, TDouble = 2'd2, TInt32x2 = 2'd3;
  localparam logic [1:0] OpSum = 2'd0, OpMax = 2'd1, OpMin = 2'd2;

  // ---------------------------------------------------------------- integer and compare results
  logic [63:0] sum64, fcmp;
  logic [31:0] sum_lo, sum_hi;
  logic        s_gt, u_gt, lo_gt, hi_gt;  // a > b (signed 64, unsigned 64, lane 0, lane 1)
  logic        fp_sum;                    // handled by the FP adder
  logic [63:0] oth;                       // every other result

  assign sum64  = in_a_i + in_b_i;
  assign sum_lo = in_a_i[31:0] + in_b_i[31:0];
  assign sum_hi = in_a_i[63:32] + in_b_i[63:32];
  assign s_gt   = $signed(in_a_i) > $signed(in_b_i);
  assign u_gt   = in_a_i > in_b_i;
  assign lo_gt  = $signed(in_a_i[31:0]) > $signed(in_b_i[31:0]);
  assign hi_gt  = $signed(in_a_i[63:32]) > $signed(in_b_i[63:32]);
  assign fp_sum = (in_type_i == TDouble) && (in_op_i == OpSum);

  ssm_fp64_cmp u_cmp (
    .a_i  (in_a_i),
    .b_i  (in_b_i),
    .max_i(in_op_i == OpMax),
    .res_o(fcmp)
  );

  always_comb begin
    oth = in_a_i;  // op 3
    case (in_type_i)
      TInt64: begin
        if (in_op_i == OpSum)      oth = sum64;
        else if (in_op_i == OpMax) oth = s_gt ? in_a_i : in_b_i;
        else if (in_op_i == OpMin) oth = s_gt ? in_b_i : in_a_i;
      end
      TUint64: begin
        if (in_op_i == OpSum)      oth = sum64;
        else if (in_op_i == OpMax) oth = u_gt ? in_a_i : in_b_i;
        else if (in_op_i == OpMin) oth = u_gt ? in_b_i : in_a_i;
      end
      TDouble: begin
        if (in_op_i == OpMax || in_op_i == OpMin) oth = fcmp;
      end
      TInt32x2: begin
        if (in_op_i == OpSum) begin
          oth = {sum_hi, sum_lo};
        end else if (in_op_i == OpMax) begin
          oth = {hi_gt ? in_a_i[63:32] : in_b_i[63:32], lo_gt ? in_a_i[31:0] : in_b_i[31:0]};
        end else if (in_op_i == OpMin) begin
          oth = {hi_gt ? in_b_i[63:32] : in_a_i[63:32], lo_gt ? in_b_i[31:0] : in_a_i[31:0]};
        end
      end
      default: ;
    endcase
  end

  // ---------------------------------------------------------------- FP adder
  logic        add_valid;
  logic [63:0] add_sum;
  ssm_fp64_add #(.Latency(Latency)) u_add (
    .clk_i,
    .rst_ni,
    .in_valid_i (in_valid_i && fp_sum),
    .a_i        (in_a_i),
    .b_i        (in_b_i),
    .out_valid_o(add_valid),
    .sum_o      (add_sum)
  );

  // ---------------------------------------------------------------- delay line
  // Per stage {tag, fp_sum, other result}; stage i loads when stage i-1 (or the input) is valid.
  localparam int W = TagW + 1 + 64;
  logic [Latency-1:0]   vld_q, vld_in;
  logic [Latency*W-1:0] dat_q, dat_in;

  assign vld_in = {vld_q[Latency-2:0], in_valid_i};
  assign dat_in = {dat_q[(Latency-1)*W-1:0], in_tag_i, fp_sum, oth};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) vld_q <= '0;
    else         vld_q <= vld_in;
  end
  for (genvar i = 0; i < Latency; i++) begin : g_dly
    always_ff @(posedge clk_i) begin
      if (vld_in[i]) dat_q[i*W +: W] <= dat_in[i*W +: W];
    end
  end

  logic [TagW-1:0] last_tag;
  logic            last_fp;
  logic [63:0]     last_oth;
  assign {last_tag, last_fp, last_oth} = dat_q[(Latency-1)*W +: W];

  assign out_valid_o  = vld_q[Latency-1];
  assign out_tag_o    = last_tag;
  assign out_result_o = last_fp ? add_sum : last_oth;

`ifndef SYNTHESIS
  a_in_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown(in_valid_i));
  // The adder runs in lock step with the delay line.
  a_add_sync: assert property (@(posedge clk_i) disable iff (!rst_ni)
      add_valid |-> out_valid_o && last_fp);
  a_add_sync2: assert property (@(posedge clk_i) disable iff (!rst_ni)
      out_valid_o && last_fp |-> add_valid);
`else
  logic unused_add_valid;
  assign unused_add_valid = add_valid;
`endif
endmodule
