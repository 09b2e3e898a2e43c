// nic_rx_tbl: the receiver's table of messages in progress (nic_rx, docs/nic.md section 7), with an
// entry for every possible message: one per {sender node mod 2^NodeW, MSG_ID slot}. A sender has at
// most 2^MsgW messages in flight (its message table), so the table never fills and a head never
// waits for an entry; an EVENT that comes before its message's data is parked in its own entry.
//   Sender : one word per sender index (a cmn_ctx_mem, 2^NodeW words: reads "nothing in progress"
//            after reset): its node's upper bits (the tag), the link epoch of its entries, one
//            in-progress bit per MSG_ID slot. A head whose epoch is not the word's sees none of the
//            sender's entries in progress (a sender's older epoch's messages never complete: their
//            rest was dropped before its link when it went down); the head's take drops them.
//   Lookup : for the head shown (src_i, msg_id_i), combinational: hit_o (its entry is in progress),
//            rd_o (its state, on a hit), alias_o (NodeW > 0: another node with the same low NodeW
//            bits has messages in progress here: the head cannot have an entry).
//   Take   : take_i at an edge makes the head's entry the current one; with use_i the entry is set
//            in progress (use_free_i: freed instead, an EVENT that completes its message) and the
//            sender's entries of other epochs dropped.
//   Current: we_i writes its state (wdata_i); free_i frees it (never at a take); pk_we_i writes its
//            parked EVENT (address word, PHYS, the 16 event bytes), pk_rd_o reads it. Writes are
//            seen from the next cycle.
// The state and the parked EVENTs are memories of 2^(NodeW+MsgW) rows, not reset: a row is read
// only while its bit is set, and written (state at the packet's end) before it is read again.
// The state of an entry (StW bits, see nic_rx): {known, rem[31:0], st[7:0], ev}.
// Parameters: NodeW (sender node bits; 0: the entries by MSG_ID alone, VC1's answers to this node's
//   own messages), MsgW (MSG_ID slot bits: the epoch above them), Park (store parked EVENTs).
module nic_rx_tbl #(
  parameter int  NodeW = 6,
  parameter int  MsgW  = 6,
  parameter bit  Park  = 1'b1,
  localparam int IW    = NodeW + MsgW,                     // derived, do not override
  localparam int TagW  = (NodeW > 0) ? 14 - NodeW : 1,     // derived, do not override
  localparam int WdW   = TagW + 2 + (1 << MsgW),           // derived, do not override
  localparam int StW   = 1 + 32 + 8 + 1,                   // derived, do not override
  localparam int PkW   = 64 + 1 + 128                      // derived, do not override
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic [13:0]    src_i,      // the head shown: SRC_NODE, MSG_ID
  input  logic [7:0]     msg_id_i,
  output logic           hit_o,
  output logic           alias_o,
  output logic [StW-1:0] rd_o,
  input  logic           take_i,
  input  logic           use_i,
  input  logic           use_free_i,
  input  logic           we_i,
  input  logic [StW-1:0] wdata_i,
  input  logic           free_i,
  input  logic           pk_we_i,
  input  logic [PkW-1:0] pk_wdata_i,
  output logic [PkW-1:0] pk_rd_o
);

  if (NodeW < 0 || NodeW > 8 || MsgW < 1 || MsgW > 6) begin : gen_err_params
    $error("nic_rx_tbl: NodeW must be 0..8 and MsgW 1..6");
  end

  // the head's sender word and entry
  localparam int SIW = (NodeW > 0) ? NodeW : 1;
  logic [SIW-1:0]  sidx, sidx_q;
  logic [IW-1:0]   idx, idx_q;
  logic [TagW-1:0] tag;
  logic [1:0]      ep;
  logic [MsgW-1:0] slot;
  assign slot = msg_id_i[MsgW-1:0];
  assign ep   = msg_id_i[MsgW +: 2];
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_id;  // (bits above the epoch, MsgW < 6)
  assign unused_id = ^msg_id_i;
  /* verilator lint_on UNUSEDSIGNAL */
  if (NodeW > 0) begin : g_node
    assign sidx = src_i[NodeW-1:0];
    assign tag  = src_i[13:NodeW];
    assign idx  = {src_i[NodeW-1:0], slot};
  end else begin : g_msg
    assign sidx = '0;
    assign tag  = '0;
    assign idx  = slot;
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_src;
    assign unused_src = ^src_i;
    /* verilator lint_on UNUSEDSIGNAL */
  end

  typedef struct packed {
    logic [TagW-1:0]       tag;
    logic [1:0]            ep;
    logic [(1<<MsgW)-1:0]  busy;
  } word_t;
  word_t w, w_now, w_q, w_wr;
  logic  w_we;
  logic [SIW-1:0] w_waddr;
  logic [WdW-1:0] w_rd;
  assign w = w_rd;
  // the sender's entries as this head sees them: none if of another epoch (or none at all: the
  // word is the head's sender's from now); another node's while it has some in progress (alias)
  assign alias_o = NodeW > 0 && w.busy != '0 && w.tag != tag;
  always_comb begin
    w_now = w;
    if (w.ep != ep || w.busy == '0) begin
      w_now.tag  = tag;
      w_now.ep   = ep;
      w_now.busy = '0;
    end
  end
  assign hit_o   = !alias_o && w_now.busy[slot];
  // the word written: at a take (the head's, set or freed), or at a free (the current's, cleared)
  always_comb begin
    w_wr = w_now;
    w_wr.busy[slot] = !use_free_i;
    w_waddr = sidx;
    if (free_i) begin
      w_wr = w_q;
      w_wr.busy[idx_q[MsgW-1:0]] = 1'b0;
      w_waddr = sidx_q;
    end
  end
  assign w_we = (take_i && use_i) || free_i;
  cmn_ctx_mem #(.Width(WdW), .Depth(1 << NodeW), .Reads(1)) u_snd (
    .clk_i, .rst_ni, .we_i(w_we), .waddr_i(w_waddr), .wdata_i(w_wr), .raddr_i(sidx), .rdata_o(w_rd));
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      idx_q  <= '0;
      sidx_q <= '0;
      w_q    <= '0;
    end else if (take_i) begin
      idx_q  <= idx;
      sidx_q <= sidx;
      w_q    <= w_wr;
    end
  end

  // the entries' state and parked EVENTs (memories, not reset: read only on a hit)
  logic [StW-1:0] st_mem [1 << IW];
  always_ff @(posedge clk_i) begin
    if (we_i) st_mem[idx_q] <= wdata_i;
  end
  assign rd_o = hit_o ? st_mem[idx] : '0;
  if (Park) begin : g_park
    logic [PkW-1:0] pk_mem [1 << IW];
    always_ff @(posedge clk_i) begin
      if (pk_we_i) pk_mem[idx_q] <= pk_wdata_i;
    end
    assign pk_rd_o = pk_mem[idx_q];
  end else begin : g_no_park
    assign pk_rd_o = '0;
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_pk;
    assign unused_pk = ^{pk_we_i, pk_wdata_i};
    /* verilator lint_on UNUSEDSIGNAL */
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      a_one_write: assert (!(take_i && use_i && free_i)) else $error("nic_rx_tbl: a take and a free at one edge");
      a_use_alias: assert (!(take_i && use_i && alias_o)) else $error("nic_rx_tbl: an entry for an aliased sender");
    end
  end
`endif
endmodule
