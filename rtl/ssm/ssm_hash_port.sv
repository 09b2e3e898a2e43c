// ssm_hash_port: one client's access path into the hash table (one per processing core).
// A client does  lookup -> (response) -> commit, holding the set's lock in between, so that
// the read-modify-write of an entry is atomic against every other client (the coherence rule:
// units touching the same set are serialized; different sets proceed in parallel).
//
//   lookup : lk_valid_i/lk_ready_o with lk_addr_i. lk_ready_o rises when the set lock is won.
//   answer : lk_rsp_valid_o pulse with lk_hit_o and lk_entry_o (on chip or found in overflow).
//   commit : cm_valid_i held with cm_write_i/cm_entry_i until cm_ready_o pulses. write=0 only
//            releases the set. An entry committed in the reset state (l=0, p=0, cnt=0) is freed;
//            a new entry goes to a free way, else to the overflow area (ssm_spill).
//   update : upd_valid_o pulses with the commit of a write (the coherence unit's broadcast).
// Latency (on chip, no bank conflict): lock 0, lookup answer 3 cycles, commit 2 cycles.
module ssm_hash_port #(
  parameter int HashSets  = 1024,
  parameter int HashWays  = 4,
  localparam int SetBits  = $clog2(HashSets),               // derived
  localparam int EntryW   = ssm_pkg::EntryW,        // derived
  localparam int WayW     = 1 + 45 + EntryW,                // valid, addr[47:3], entry
  localparam int RowW     = HashWays * WayW + 48            // ways, overflow chain head
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // client
  input  logic                lk_valid_i,
  output logic                lk_ready_o,
  input  logic [47:0]         lk_addr_i,
  output logic                lk_rsp_valid_o,
  output logic                lk_hit_o,
  output ssm_pkg::entry_t     lk_entry_o,
  input  logic                cm_valid_i,
  input  logic                cm_write_i,
  input  ssm_pkg::entry_t     cm_entry_i,
  output logic                cm_ready_o,
  output logic                upd_valid_o,
  output logic [47:0]         upd_addr_o,
  // set lock (coherence unit)
  output logic                lock_req_o,
  output logic [SetBits-1:0]  lock_set_o,
  input  logic                lock_gnt_i,
  output logic                held_o,
  output logic [SetBits-1:0]  held_set_o,
  // bank access (row of the held set)
  output logic                bank_req_o,
  output logic                bank_we_o,
  output logic [RowW-1:0]     bank_wdata_o,
  input  logic                bank_gnt_i,
  input  logic [RowW-1:0]     bank_rdata_i,
  // overflow engine
  output logic                sp_req_valid_o,
  input  logic                sp_req_ready_i,
  output ssm_pkg::spill_req_t sp_req_o,
  input  logic                sp_rsp_valid_i,
  input  ssm_pkg::spill_rsp_t sp_rsp_i,
  // live-entry accounting: +1/-1 pulses
  output logic                onchip_inc_o,
  output logic                onchip_dec_o,
  output logic                ovf_inc_o,
  output logic                ovf_dec_o
);
  typedef enum logic [3:0] {
    PIdle, PRead, PTag, PSpLookup, PSpLookupWait, PAnswer, PCommit, PSpCommit, PSpCommitWait,
    PWrite, PDone
  } state_e;

  // The set of an address: addr[47:3] XOR-folded to SetBits (documented in docs/ssm.md).
  localparam int Chunks = (45 + SetBits - 1) / SetBits;
  /* verilator lint_off UNUSEDSIGNAL */
  function logic [SetBits-1:0] set_of(input logic [47:0] a);
    logic [Chunks*SetBits-1:0] padded;
    padded = '0;
    padded[44:0] = a[47:3];
    set_of = '0;
    for (int i = 0; i < Chunks; i++) set_of = set_of ^ padded[i*SetBits +: SetBits];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  state_e                state_q, state_d;
  logic [47:0]           addr_q, addr_d;
  logic [SetBits-1:0]    set_q, set_d;
  logic [RowW-1:0]       row_q, row_d;
  logic                  hit_q, hit_d;
  logic                  in_ovf_q, in_ovf_d;      // the entry lives in the overflow area
  logic [$clog2(HashWays+1)-1:0] way_q, way_d;
  ssm_pkg::entry_t       entry_q, entry_d;
  logic [47:0]           node_q, node_d, prev_q, prev_d, next_q, next_d;
  logic                  write_q, write_d;

  // Row fields.
  function logic way_valid(input logic [RowW-1:0] r, input int w);
    way_valid = r[w*WayW + WayW - 1];
  endfunction
  function logic [44:0] way_tag(input logic [RowW-1:0] r, input int w);
    way_tag = r[w*WayW + EntryW +: 45];
  endfunction
  function logic [EntryW-1:0] way_entry(input logic [RowW-1:0] r, input int w);
    way_entry = r[w*WayW +: EntryW];
  endfunction

  logic [47:0] row_head;
  assign row_head = row_q[HashWays*WayW +: 48];

  // Tag compare on the row just read.
  logic                          tag_hit;
  logic [$clog2(HashWays+1)-1:0] tag_way;
  always_comb begin
    tag_hit = 1'b0;
    tag_way = '0;
    for (int w = HashWays - 1; w >= 0; w--) begin
      if (way_valid(bank_rdata_i, w) && way_tag(bank_rdata_i, w) == addr_q[47:3]) begin
        tag_hit = 1'b1;
        tag_way = ($clog2(HashWays+1))'(w);
      end
    end
  end

  // First free way of the held row.
  logic                          free_found;
  logic [$clog2(HashWays+1)-1:0] free_way;
  always_comb begin
    free_found = 1'b0;
    free_way   = '0;
    for (int w = HashWays - 1; w >= 0; w--) begin
      if (!way_valid(row_q, w)) begin
        free_found = 1'b1;
        free_way   = ($clog2(HashWays+1))'(w);
      end
    end
  end

  logic cm_reset;  // the committed entry is back in the reset state
  assign cm_reset = !cm_entry_i.l && !cm_entry_i.p && (cm_entry_i.cnt == '0);

  always_comb begin
    state_d  = state_q;
    addr_d   = addr_q;
    set_d    = set_q;
    row_d    = row_q;
    hit_d    = hit_q;
    in_ovf_d = in_ovf_q;
    way_d    = way_q;
    entry_d  = entry_q;
    node_d   = node_q;
    prev_d   = prev_q;
    next_d   = next_q;
    write_d  = write_q;

    lock_req_o     = 1'b0;
    lock_set_o     = set_of(lk_addr_i);
    lk_ready_o     = 1'b0;
    lk_rsp_valid_o = 1'b0;
    cm_ready_o     = 1'b0;
    upd_valid_o    = 1'b0;
    bank_req_o     = 1'b0;
    bank_we_o      = 1'b0;
    sp_req_valid_o = 1'b0;
    sp_req_o       = '0;
    sp_req_o.addr  = addr_q;
    sp_req_o.head  = row_head;
    sp_req_o.node  = node_q;
    sp_req_o.prev  = prev_q;
    sp_req_o.next  = next_q;
    sp_req_o.entry = entry_q;
    onchip_inc_o   = 1'b0;
    onchip_dec_o   = 1'b0;
    ovf_inc_o      = 1'b0;
    ovf_dec_o      = 1'b0;

    unique case (state_q)
      PIdle: begin
        lock_req_o = lk_valid_i;
        lk_ready_o = lock_gnt_i;
        if (lk_valid_i && lock_gnt_i) begin
          addr_d  = lk_addr_i;
          set_d   = set_of(lk_addr_i);
          state_d = PRead;
        end
      end
      PRead: begin
        bank_req_o = 1'b1;
        if (bank_gnt_i) state_d = PTag;
      end
      PTag: begin
        row_d    = bank_rdata_i;
        hit_d    = tag_hit;
        in_ovf_d = 1'b0;
        way_d    = tag_way;
        entry_d  = tag_hit ? way_entry(bank_rdata_i, 32'(tag_way)) : '0;
        state_d  = (!tag_hit && bank_rdata_i[HashWays*WayW +: 48] != '0) ? PSpLookup : PAnswer;
      end
      PSpLookup: begin
        sp_req_valid_o = 1'b1;
        sp_req_o.op    = ssm_pkg::SpLookup;
        if (sp_req_ready_i) state_d = PSpLookupWait;
      end
      PSpLookupWait: if (sp_rsp_valid_i) begin
        hit_d    = sp_rsp_i.found;
        in_ovf_d = sp_rsp_i.found;
        entry_d  = sp_rsp_i.found ? sp_rsp_i.entry : '0;
        node_d   = sp_rsp_i.node;
        prev_d   = sp_rsp_i.prev;
        next_d   = sp_rsp_i.next;
        state_d  = PAnswer;
      end
      PAnswer: begin
        lk_rsp_valid_o = 1'b1;
        state_d        = PCommit;
      end
      PCommit: if (cm_valid_i) begin
        entry_d = cm_entry_i;
        write_d = cm_write_i;
        if (!cm_write_i || (!hit_q && cm_reset)) begin
          cm_ready_o = 1'b1;             // nothing to store: release the set
          state_d    = PIdle;
        end else if (hit_q && !in_ovf_q) begin
          row_d[way_q*WayW +: WayW] = {!cm_reset, addr_q[47:3], cm_entry_i};
          onchip_dec_o = cm_reset;
          state_d      = PWrite;
        end else if (hit_q) begin        // in the overflow area: rewrite or unlink the node
          ovf_dec_o = cm_reset;
          state_d   = PSpCommit;
        end else if (free_found) begin   // new entry, room on chip
          row_d[free_way*WayW +: WayW] = {1'b1, addr_q[47:3], cm_entry_i};
          onchip_inc_o = 1'b1;
          state_d      = PWrite;
        end else begin                   // new entry, set full: spill
          ovf_inc_o = 1'b1;
          state_d   = PSpCommit;
        end
      end
      PSpCommit: begin
        sp_req_valid_o = 1'b1;
        sp_req_o.op    = !hit_q ? ssm_pkg::SpInsert :
                         (!entry_q.l && !entry_q.p && entry_q.cnt == '0) ? ssm_pkg::SpUnlink
                                                                        : ssm_pkg::SpUpdate;
        if (sp_req_ready_i) state_d = PSpCommitWait;
      end
      PSpCommitWait: if (sp_rsp_valid_i) begin
        if (sp_rsp_i.head != row_head) begin
          row_d[HashWays*WayW +: 48] = sp_rsp_i.head;
          state_d = PWrite;
        end else begin
          state_d = PDone;
        end
      end
      PWrite: begin
        bank_req_o = 1'b1;
        bank_we_o  = 1'b1;
        if (bank_gnt_i) begin
          cm_ready_o  = 1'b1;
          upd_valid_o = write_q;
          state_d     = PIdle;
        end
      end
      PDone: begin
        cm_ready_o  = 1'b1;
        upd_valid_o = write_q;
        state_d     = PIdle;
      end
      default: state_d = PIdle;
    endcase
  end

  assign lk_hit_o     = hit_q;
  assign lk_entry_o   = entry_q;
  assign upd_addr_o   = addr_q;
  assign held_o       = (state_q != PIdle);
  assign held_set_o   = set_q;
  assign bank_wdata_o = row_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q  <= PIdle;
      addr_q   <= '0;
      set_q    <= '0;
      row_q    <= '0;
      hit_q    <= 1'b0;
      in_ovf_q <= 1'b0;
      way_q    <= '0;
      entry_q  <= '0;
      node_q   <= '0;
      prev_q   <= '0;
      next_q   <= '0;
      write_q  <= 1'b0;
    end else begin
      state_q  <= state_d;
      addr_q   <= addr_d;
      set_q    <= set_d;
      row_q    <= row_d;
      hit_q    <= hit_d;
      in_ovf_q <= in_ovf_d;
      way_q    <= way_d;
      entry_q  <= entry_d;
      node_q   <= node_d;
      prev_q   <= prev_d;
      next_q   <= next_d;
      write_q  <= write_d;
    end
  end

`ifndef SYNTHESIS
  // Assertions
  always_ff @(posedge clk_i) if (rst_ni) begin
    if (cm_valid_i) assert (state_q == PCommit || state_q == PSpCommit || state_q == PSpCommitWait ||
                            state_q == PWrite || state_q == PDone)
      else $error("ssm_hash_port: commit without a lookup");
    if (sp_rsp_valid_i) assert (state_q == PSpLookupWait || state_q == PSpCommitWait)
      else $error("ssm_hash_port: unexpected overflow response");
  end
`endif
endmodule
