// ssm_spill: the overflow-area engine. Entries that do not fit in their on-chip hash set live in
// host memory as 32-byte nodes (format ovf_node in ssm_regs.toml) on a singly linked chain per
// set; the chain head is kept on chip in the set's row. Free nodes come from a bump region
// handed over by the driver (OVF_ADD_BASE/OVF_ADD_NODES) and from a free list of released nodes
// (linked through NEXT, head kept here).
//
// One request at a time (req_ready_o only in idle); every accepted request is answered by one
// rsp_valid_o pulse. Requests (ssm_pkg::spill_req_t):
//   SpLookup : walk from head; rsp.found/entry/node/prev/next describe the match.
//   SpUpdate : rewrite node with {addr, entry, next}.
//   SpUnlink : remove node from the chain (rewrite prev.NEXT, or move the head), free the node.
//   SpInsert : allocate a node, write {addr, entry, next = head}; rsp.head = the new node.
//              With no node left it waits, raising exhausted_o, until ovf_add_valid_i.
// Every response carries rsp.head, the chain head after the operation.
// DMA: 32-byte node reads/writes and 8-byte NEXT writes, one request outstanding at a time.
module ssm_spill (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               req_valid_i,
  output logic               req_ready_o,
  input  ssm_pkg::spill_req_t req_i,
  output logic               rsp_valid_o,
  output ssm_pkg::spill_rsp_t rsp_o,
  // DMA (tag handled by the top)
  output logic               dma_req_valid_o,
  input  logic               dma_req_ready_i,
  output logic               dma_req_write_o,
  output logic [47:0]        dma_req_addr_o,
  output logic [5:0]         dma_req_len_o,
  output logic [255:0]       dma_req_wdata_o,
  input  logic               dma_rsp_valid_i,
  input  logic [255:0]       dma_rsp_rdata_i,
  // overflow area management
  input  logic               ovf_add_valid_i,
  input  logic [47:0]        ovf_add_base_i,
  input  logic [31:0]        ovf_add_nodes_i,
  output logic               exhausted_o,
  output logic [31:0]        bump_left_o,
  output logic [31:0]        free_count_o
);

  typedef enum logic [3:0] {
    StIdle, StRead, StReadWait, StUnlinkPrev, StFree, StAlloc, StAllocWait, StInsert, StDone
  } state_e;

  state_e              state_q, state_d;
  ssm_pkg::spill_req_t req_q, req_d;
  ssm_pkg::spill_rsp_t rsp_q, rsp_d;
  logic [47:0]         cur_q, cur_d;       // node being read
  logic [47:0]         bump_next_q, bump_next_d;
  logic [31:0]         bump_left_q, bump_left_d;
  logic [47:0]         free_head_q, free_head_d;
  logic [31:0]         free_count_q, free_count_d;

  // Node image helpers.
  /* verilator lint_off UNUSEDSIGNAL */
  // e is an ssm_pkg::entry_t: {value[63:0], l, p, cnt[7:0]}.
  function logic [255:0] node_image(input logic [47:0] addr, input logic [ssm_pkg::EntryW-1:0] e,
                                              input logic [47:0] next, input logic valid);
    node_image = '0;
    node_image[47:0]    = {addr[47:1], valid};
    node_image[127:64]  = e[73:10];
    node_image[128]     = e[9];
    node_image[129]     = e[8];
    node_image[143:136] = e[7:0];
    node_image[239:192] = next;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  ssm_pkg::entry_t rd_entry;
  logic [47:0]     rd_tag, rd_next;
  assign rd_tag         = dma_rsp_rdata_i[47:0];
  assign rd_next        = dma_rsp_rdata_i[239:192];
  assign rd_entry.value = dma_rsp_rdata_i[127:64];
  assign rd_entry.l     = dma_rsp_rdata_i[128];
  assign rd_entry.p     = dma_rsp_rdata_i[129];
  assign rd_entry.cnt   = dma_rsp_rdata_i[143:136];

  always_comb begin
    state_d      = state_q;
    req_d        = req_q;
    rsp_d        = rsp_q;
    cur_d        = cur_q;
    bump_next_d  = bump_next_q;
    bump_left_d  = bump_left_q;
    free_head_d  = free_head_q;
    free_count_d = free_count_q;

    exhausted_o     = 1'b0;

    unique case (state_q)
      StIdle: if (req_valid_i) begin
        req_d       = req_i;
        rsp_d       = '0;
        rsp_d.head  = req_i.head;
        rsp_d.node  = req_i.node;
        unique case (req_i.op)
          ssm_pkg::SpLookup: begin cur_d = req_i.head; state_d = StRead; end
          ssm_pkg::SpUpdate: begin cur_d = req_i.node; state_d = StInsert; end
          ssm_pkg::SpUnlink: begin
            if (req_i.prev == '0) begin rsp_d.head = req_i.next; state_d = StFree; end
            else state_d = StUnlinkPrev;
          end
          default:  state_d = StAlloc;  // SpInsert
        endcase
      end
      StRead: if (dma_req_ready_i) state_d = StReadWait;
      StReadWait: if (dma_rsp_valid_i) begin
        if (rd_tag == {req_q.addr[47:1], 1'b1}) begin
          rsp_d.found = 1'b1;
          rsp_d.entry = rd_entry;
          rsp_d.node  = cur_q;
          rsp_d.next  = rd_next;
          state_d     = StDone;
        end else if (rd_next == '0) begin
          state_d = StDone;
        end else begin
          rsp_d.prev = cur_q;
          cur_d      = rd_next;
          state_d    = StRead;
        end
      end
      StUnlinkPrev: if (dma_req_ready_i) state_d = StFree;  // prev.NEXT = next
      StFree: begin  // node = {invalid, NEXT = free list}; push on the free list
        if (dma_req_ready_i) begin
          free_head_d  = req_q.node;
          free_count_d = free_count_q + 32'd1;
          state_d      = StDone;
        end
      end
      StAlloc: begin
        if (free_head_q != '0) begin
          cur_d = free_head_q;
          if (dma_req_ready_i) state_d = StAllocWait;
        end else if (bump_left_q != '0) begin
          cur_d       = bump_next_q;
          bump_next_d = bump_next_q + 48'd32;
          bump_left_d = bump_left_q - 32'd1;
          state_d     = StInsert;
        end else begin
          exhausted_o = 1'b1;  // the driver's handler adds a chunk (ovf_add below)
        end
      end
      StAllocWait: if (dma_rsp_valid_i) begin
        free_head_d  = rd_next;
        free_count_d = free_count_q - 32'd1;
        state_d      = StInsert;
      end
      StInsert: begin  // write node cur = {addr, entry, next}
        if (dma_req_ready_i) begin
          if (req_q.op == ssm_pkg::SpInsert) rsp_d.head = cur_q;
          rsp_d.node = cur_q;
          state_d    = StDone;
        end
      end
      StDone:  state_d = StIdle;
      default: state_d = StIdle;
    endcase

    if (ovf_add_valid_i) begin
      bump_next_d = ovf_add_base_i;
      bump_left_d = ovf_add_nodes_i;
    end
  end

  // DMA requests of the current state (registered inputs only).
  always_comb begin
    dma_req_valid_o = 1'b0;
    dma_req_write_o = 1'b0;
    dma_req_addr_o  = cur_q;
    dma_req_len_o   = 6'd32;
    dma_req_wdata_o = '0;
    unique case (state_q)
      StRead: dma_req_valid_o = 1'b1;
      StUnlinkPrev: begin
        dma_req_valid_o       = 1'b1;
        dma_req_write_o       = 1'b1;
        dma_req_addr_o        = req_q.prev + 48'd24;
        dma_req_len_o         = 6'd8;
        dma_req_wdata_o[47:0] = req_q.next;
      end
      StFree: begin
        dma_req_valid_o = 1'b1;
        dma_req_write_o = 1'b1;
        dma_req_addr_o  = req_q.node;
        dma_req_wdata_o = node_image('0, '0, free_head_q, 1'b0);
      end
      StAlloc: begin
        dma_req_valid_o = (free_head_q != '0);
        dma_req_addr_o  = free_head_q;
      end
      StInsert: begin
        dma_req_valid_o = 1'b1;
        dma_req_write_o = 1'b1;
        dma_req_wdata_o = node_image(req_q.addr, req_q.entry,
                                     (req_q.op == ssm_pkg::SpUpdate) ? req_q.next : req_q.head, 1'b1);
      end
      default: ;
    endcase
  end

  // Node fields this engine does not look at.
  logic unused_rsp;
  assign unused_rsp = ^{dma_rsp_rdata_i[255:240], dma_rsp_rdata_i[191:144], dma_rsp_rdata_i[135:130],
                        dma_rsp_rdata_i[63:48]};

  assign req_ready_o  = (state_q == StIdle);
  assign rsp_valid_o  = (state_q == StDone);
  assign rsp_o        = rsp_q;
  assign bump_left_o  = bump_left_q;
  assign free_count_o = free_count_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q      <= StIdle;
      req_q        <= '0;
      rsp_q        <= '0;
      cur_q        <= '0;
      bump_next_q  <= '0;
      bump_left_q  <= '0;
      free_head_q  <= '0;
      free_count_q <= '0;
    end else begin
      state_q      <= state_d;
      req_q        <= req_d;
      rsp_q        <= rsp_d;
      cur_q        <= cur_d;
      bump_next_q  <= bump_next_d;
      bump_left_q  <= bump_left_d;
      free_head_q  <= free_head_d;
      free_count_q <= free_count_d;
    end
  end

`ifndef SYNTHESIS
  // Assertions
  always_ff @(posedge clk_i) if (rst_ni) begin
    if (dma_rsp_valid_i)
      assert (state_q == StReadWait || state_q == StAllocWait)
        else $error("ssm_spill: unexpected DMA read response");
    if (state_q == StIdle && req_valid_i && req_i.op != ssm_pkg::SpLookup && req_i.op != ssm_pkg::SpInsert)
      assert (req_i.node != '0) else $error("ssm_spill: update/unlink without a node");
  end
`endif
endmodule
