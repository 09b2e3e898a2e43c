// ssm_pkg: types shared by the SSM modules. Register offsets, field positions and codes come
// from the generated ssm_regs_pkg (source: ssm_regs.toml); this package holds the internal
// structures only. Arrays of these structs cross module ports as flat vectors (Yosys 0.23
// mis-handles arrays of structs), indexed [i*$bits(T) +: $bits(T)].
package ssm_pkg;

  // A module uses only some of these constants.
  /* verilator lint_off UNUSEDPARAM */

  // A tag-value entry's state (SPEC section 2). The reset state is l=0, p=0, cnt=0.
  typedef struct packed {
    logic [63:0] value;
    logic        l;     // lock
    logic        p;     // present (full)
    logic [7:0]  cnt;   // readers left (put/get)
  } entry_t;

  // A queued command, as staged by the command windows.
  typedef struct packed {
    logic [3:0]  opcode;
    logic [11:0] ret_offset;
    logic [47:0] addr;
    logic [63:0] value;
    logic [63:0] args;      // the window's ARGS word (cmd_args: readers, size, group, type, ...)
  } op_t;

  // A completion handed to the return writer.
  typedef struct packed {
    logic [3:0]  pe;
    logic [3:0]  thread;
    logic [3:0]  opcode;
    logic [11:0] ret_offset;
    logic [47:0] addr;      // for the error register
    logic [63:0] value;
    logic [7:0]  state;
  } ret_t;

  // Requests to the spill (overflow area) engine.
  localparam logic [1:0] SpLookup = 2'd0;  // walk the chain from head for addr
  localparam logic [1:0] SpUpdate = 2'd1;  // rewrite node with entry (next kept)
  localparam logic [1:0] SpUnlink = 2'd2;  // remove node (prev, next) from the chain, free it
  localparam logic [1:0] SpInsert = 2'd3;  // allocate a node for addr/entry at the chain head

  typedef struct packed {
    logic [1:0]  op;
    logic [47:0] addr;
    entry_t      entry;
    logic [47:0] head;  // chain head of the set
    logic [47:0] node;  // node found by the lookup (update/unlink)
    logic [47:0] prev;  // its predecessor, 0 when node is the head
    logic [47:0] next;  // its successor, 0 at the end
  } spill_req_t;

  typedef struct packed {
    logic        found;
    entry_t      entry;
    logic [47:0] node;
    logic [47:0] prev;
    logic [47:0] next;
    logic [47:0] head;  // the chain head after the operation
  } spill_rsp_t;

  // Widths of the structures above, for flat vectors (Yosys 0.23 cannot take $bits of a
  // package type in a parameter); ssm_top checks them against $bits in simulation.
  localparam int EntryW    = 74;
  localparam int OpW       = 192;
  localparam int RetW      = 144;
  localparam int SpillReqW = 316;
  localparam int SpillRspW = 267;
  // Field positions inside a flat op_t (checked by ssm_top in simulation).
  localparam int OpAddrLsb      = 128;
  localparam int OpRetOffsetLsb = 176;
  localparam int OpOpcodeLsb    = 188;

  /* verilator lint_on UNUSEDPARAM */
endpackage
