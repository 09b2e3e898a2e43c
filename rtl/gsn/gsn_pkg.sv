// gsn_pkg: the global sync network's message format (docs/gsn.md). The same 128-bit layout is
// used up the tree (a node's contribution) and down the tree (the result):
//   [63:0] value   reduce operand / result (0 for barriers)
//   [111:64] addr  48-bit byte address: identifies the collective
//   [113:112] type 0 int64, 1 uint64, 2 double, 3 int32x2   (ssm_alu encodings)
//   [115:114] op   0 sum, 1 max, 2 min
//   [116] kind     0 barrier, 1 reduce
//   [117] err      error (set by a node or by the tree; travels up and down)
//   [127:118]      zero (ignored by the tree, sent as zero)
// Arrays of messages cross ports as flat vectors indexed [i*MsgW +: MsgW].
package gsn_pkg;

  // A module uses only some of these constants.
  /* verilator lint_off UNUSEDPARAM */

  localparam int MsgW    = 128;
  localparam int ValLsb  = 0;
  localparam int AddrLsb = 64;
  localparam int TypeLsb = 112;
  localparam int OpLsb   = 114;
  localparam int KindLsb = 116;
  localparam int ErrLsb  = 117;

  localparam logic [1:0] TypeInt64  = 2'd0;
  localparam logic [1:0] TypeUint64 = 2'd1;
  localparam logic [1:0] TypeDouble = 2'd2;
  localparam logic [1:0] TypeInt32x2 = 2'd3;
  localparam logic [1:0] OpSum = 2'd0;
  localparam logic [1:0] OpMax = 2'd1;
  localparam logic [1:0] OpMin = 2'd2;
  localparam logic KindBarrier = 1'b0;
  localparam logic KindReduce  = 1'b1;

  typedef struct packed {
    logic [9:0]  zero;
    logic        err;
    logic        kind;
    logic [1:0]  op;
    logic [1:0]  dtype;
    logic [47:0] addr;
    logic [63:0] value;
  } msg_t;

  /* verilator lint_on UNUSEDPARAM */

endpackage
