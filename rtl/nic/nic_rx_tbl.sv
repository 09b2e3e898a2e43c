// nic_rx_tbl: the receiver's table of messages in progress (nic_rx, docs/nic.md section 7), keyed by
// {SRC_NODE, MSG_ID}, and the store of EVENTs that came before their message's data.
//   Lookup : key_i is compared with every entry's key at once (the tags, Ents x 22 bits in flops:
//            a CAM); hit_o and, on a hit, the entry's state rd_o (from a cmn_ctx_mem read with the
//            match) in the same cycle. idx_o is the match, or the lowest free entry (full_o: none).
//   Alloc  : alloc_i at an edge takes entry idx_o for key_i (only when !hit_o && !full_o).
//   Write  : we_i writes the state wdata_i into entry widx_i; free_i releases entry fidx_i (its
//            tag invalid; its state is rewritten at the next allocation before it is read).
//   Purge  : purge_i frees, at the edge, every entry whose MSG_ID epoch (bits MsgW+1:MsgW) is not
//            purge_ep_i and, with purge_src_i, whose SRC_NODE is purge_node_i: a sender's older
//            epoch's messages will never be completed (their rest was dropped when its link went
//            down). A purged entry's parked EVENT slot is released.
//   Park   : an EVENT waiting for its message's data: pk_free_o (a slot is free) and pk_idx_o (the
//            lowest free slot); pk_take_i marks pk_idx_o busy, pk_we_i writes slot pk_widx_i
//            (address word, PHYS, the 16 event bytes), pk_rel_i frees slot pk_ridx_i, pk_rd_o reads
//            slot pk_ridx_i (combinational).
// Latency: lookups combinational; writes seen from the next cycle. Throughput: one of each a cycle.
// The state of an entry (State bits, see nic_rx): {known, rem[31:0], st[7:0], ev, slot}.
// Parameters: Ents (entries, >= 2), Slots (parked EVENTs, >= 0), MsgW (MSG_ID slot bits: the
//   epoch above them).
module nic_rx_tbl #(
  parameter int  Ents  = 16,
  parameter int  Slots = 2,
  parameter int  MsgW  = 6,
  localparam int IW    = $clog2(Ents),                   // derived, do not override
  localparam int SW    = (Slots > 1) ? $clog2(Slots) : 1, // derived, do not override
  localparam int StW   = 1 + 32 + 8 + 1 + SW,             // derived, do not override
  localparam int PkW   = 64 + 1 + 128                     // derived, do not override
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic [21:0]    key_i,      // {SRC_NODE, MSG_ID}
  output logic           hit_o,
  output logic           full_o,
  output logic [IW-1:0]  idx_o,
  output logic [StW-1:0] rd_o,
  output logic [IW:0]    used_o,     // entries in use (status)
  input  logic           alloc_i,
  input  logic           we_i,
  input  logic [IW-1:0]  widx_i,
  input  logic [StW-1:0] wdata_i,
  input  logic           free_i,
  input  logic [IW-1:0]  fidx_i,
  input  logic           purge_i,
  input  logic           purge_src_i,
  input  logic [13:0]    purge_node_i,
  input  logic [1:0]     purge_ep_i,
  output logic           pk_free_o,
  output logic [SW-1:0]  pk_idx_o,
  input  logic           pk_take_i,
  input  logic           pk_we_i,
  input  logic [SW-1:0]  pk_widx_i,
  input  logic [PkW-1:0] pk_wdata_i,
  input  logic           pk_rel_i,
  input  logic [SW-1:0]  pk_ridx_i,
  output logic [PkW-1:0] pk_rd_o
);

  if (Ents < 2 || Slots < 0) begin : gen_err_params
    $error("nic_rx_tbl: Ents must be >= 2 and Slots >= 0");
  end

  // the keys (a CAM)
  logic [Ents-1:0]    tv;            // valid
  logic [Ents*22-1:0] tk;            // keys
  logic [Ents-1:0]    m, pg;         // match; purged at this edge
  logic [IW-1:0]      mi, fi;
  logic               any_free;
  always_comb begin
    mi = '0;
    used_o = '0;
    for (int e = 0; e < Ents; e++) begin
      m[e]  = tv[e] && tk[e*22 +: 22] == key_i;
      pg[e] = purge_i && tv[e] && tk[e*22 + MsgW +: 2] != purge_ep_i
              && (!purge_src_i || tk[e*22 + 8 +: 14] == purge_node_i);
      if (m[e]) mi = IW'(e);
      used_o = used_o + (IW + 1)'(tv[e]);
    end
  end
  assign hit_o  = |m;
  assign full_o = !any_free;
  assign idx_o  = hit_o ? mi : fi;
  nic_rx_slots #(.N(Ents), .TagW(22)) u_keys (
    .clk_i, .rst_ni, .free_o(any_free), .idx_o(fi), .take_i(alloc_i), .tag_i(key_i),
    .rel_i(free_i), .rel_idx_i(fidx_i), .clr_i(pg), .busy_o(tv), .tags_o(tk));

  cmn_ctx_mem #(.Width(StW), .Depth(Ents), .Reads(1)) u_st (
    .clk_i, .rst_ni, .we_i, .waddr_i(widx_i), .wdata_i, .raddr_i(mi), .rdata_o(rd_o));

  // parked EVENTs: each slot's tag is the entry it belongs to (released when that is purged);
  // none with Slots 0 (VC1 carries no EVENT)
  if (Slots > 0) begin : g_park
    logic [Slots-1:0]    pb, pclr;
    logic [Slots*IW-1:0] po;
    always_comb begin
      for (int s = 0; s < Slots; s++) pclr[s] = pb[s] && pg[po[s*IW +: IW]];
    end
    nic_rx_slots #(.N(Slots), .TagW(IW)) u_slots (
      .clk_i, .rst_ni, .free_o(pk_free_o), .idx_o(pk_idx_o), .take_i(pk_take_i), .tag_i(idx_o),
      .rel_i(pk_rel_i), .rel_idx_i(pk_ridx_i), .clr_i(pclr), .busy_o(pb), .tags_o(po));
    cmn_ctx_mem #(.Width(PkW), .Depth(Slots), .Reads(1)) u_pk (
      .clk_i, .rst_ni, .we_i(pk_we_i), .waddr_i(pk_widx_i), .wdata_i(pk_wdata_i), .raddr_i(pk_ridx_i),
      .rdata_o(pk_rd_o));
  end else begin : g_no_park
    assign pk_free_o = 1'b0;
    assign pk_idx_o  = '0;
    assign pk_rd_o   = '0;
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_pk;
    assign unused_pk = ^{pk_take_i, pk_we_i, pk_widx_i, pk_wdata_i, pk_rel_i, pk_ridx_i};
    /* verilator lint_on UNUSEDSIGNAL */
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      a_alloc: assert (!alloc_i || (!hit_o && !full_o)) else $error("nic_rx_tbl: allocation on a hit or a full table");
      a_onehot: assert ($countones(m) <= 1) else $error("nic_rx_tbl: a key in two entries");
      a_ep: assert (MsgW + 2 <= 8) else $error("nic_rx_tbl: MsgW too large");
    end
  end
`endif
endmodule
