// ssm_burst: the burst-reduce unit (ssm_burst_reduce(src, dest, length, type, op, size, io=0);
// SPEC section 2, paper seed 001 sections 3.2, 4.1, 5.3). docs/ssm_burst.md has the state
// machines, the chunking and alignment scheme, the combine order and the throughput analysis.
//
// Participants (windows w = pe*NumThreads+thread) arrive one per in_valid_i/in_ready_o handshake,
// already validated by the front unit (group 1..NumWin, type/op valid, src/dest aligned to the
// element size, length a nonzero multiple of it). Groups form in arrival order: the first arrival
// opens a group of in_group_i members in a free context, the next arrivals join it until it is
// complete, then the next arrival opens the next group. An arrival whose group/type/op/length
// differs from the group's first arrival, or whose window is already a member, poisons the group:
// it still counts as a member; when complete every member gets ERR_MISMATCH and no data moves.
// Slots contexts: one group moves data while the next gathers; in_ready_o is low only while the
// context next in turn is neither free nor gathering.
//
// Data engine (one group at a time, contexts in formation order): every member's buffer is cut
// into 32-byte logical chunks (offset 32k). Read issuer: for chunk k, member by member in
// ascending window order, it reads the source's 32-byte-aligned blocks (trimmed to the buffer)
// that chunk k still needs (0, 1 or 2 reads; 2 only for chunk 0 of an unaligned source). A
// per-member carry keeps the bytes of the last block beyond the chunk, so every source byte is
// read exactly once. Realigner (cmn_realign, one stream per member): concatenates carry and
// response(s) into the logical chunk. Combiner: the first member's chunk is loaded into one of 4
// accumulator slots, every further member is folded in word by word through ssm_alu:
//     r[i] = (((s_w0[i] op s_w1[i]) op s_w2[i]) ... op s_wn[i]),  w0 < w1 < ... (window order)
// Write issuer: once chunk k is complete it writes the dest-aligned block k of every member's
// dest (built from chunks k-1 and k), then frees chunk k-1's slot; after the last chunk one more
// block per unaligned dest. Completions (one per member, in arrival order) follow the last data
// write accepted at the DMA port, so a completion's slot write reaches memory after the data.
//
// DMA master (ssm_top contract): requests of 1..32 bytes, never crossing a 32-byte boundary, byte
// i of wdata goes to addr+i; reads are answered in request order with byte i = byte at addr+i,
// responses are never stalled: the unit never has more reads outstanding than its response
// buffer (RspDepth) can hold. The request is registered: once valid it holds until accepted.
// Writes get priority over reads at the port. In-place operation (src == dest for every member)
// is supported; any other overlap between buffers gives undefined results.
//
// Timing: last arrival handshake in cycle t -> first DMA read request valid in cycle t+3.
// Throughput: one 32-byte chunk of one member per cycle in the realigner, one 64-bit word per
// cycle in the combiner; the port (8 B/cycle for reads + writes) is the bottleneck.
module ssm_burst #(
  parameter int  NumPe      = 5,
  parameter int  NumThreads = 4,
  parameter int  Slots      = 2,
  localparam int NumWin     = NumPe * NumThreads,                // derived
  localparam int WinW       = (NumWin > 1) ? $clog2(NumWin) : 1  // derived
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // arrivals (validated by the front unit)
  input  logic                 in_valid_i,
  output logic                 in_ready_o,
  input  logic [WinW-1:0]      in_win_i,
  input  logic [11:0]          in_ret_offset_i,
  input  logic [47:0]          in_src_i,
  input  logic [47:0]          in_dest_i,
  input  logic [31:0]          in_len_i,
  input  logic [1:0]           in_type_i,
  input  logic [1:0]           in_op_i,
  input  logic [7:0]           in_group_i,
  // completions, one per participant
  output logic                 ret_valid_o,
  input  logic                 ret_ready_i,
  output ssm_pkg::ret_t        ret_o,
  // DMA master
  output logic                 dma_req_valid_o,
  input  logic                 dma_req_ready_i,
  output logic                 dma_req_write_o,
  output logic [47:0]          dma_req_addr_o,
  output logic [5:0]           dma_req_len_o,
  output logic [255:0]         dma_req_wdata_o,
  input  logic                 dma_rsp_valid_i,
  input  logic [255:0]         dma_rsp_rdata_i
);
  // ---------------------------------------------------------------- constants
  localparam int SlotW    = (Slots > 1) ? $clog2(Slots) : 1;
  localparam int NumEnt   = Slots * NumWin;                      // per-context member tables
  localparam int EntW     = (NumEnt > 1) ? $clog2(NumEnt) : 1;
  localparam int RspDepth = 16;  // response buffer: reads in flight + responses held <= RspDepth
  localparam int CrW      = $clog2(RspDepth + 1);
  localparam int StepDepth = 16; // step records (read issuer -> realigner)
  localparam int AccSlots = 4;   // accumulator chunks (k-1 and k being written, k+1, k+2 combining)
  localparam int AluLat   = 4;   // ssm_alu's fixed latency (checked by ssm_alu)
  localparam int KW       = 28;  // chunk/block counters: length < 2^32 -> at most 2^27 + 1 blocks
  localparam int StepW    = WinW + 1 + 1 + 2 + 6 + 6 + 1 + 1;
  localparam int ChunkW   = 256 + 1 + 1 + 3;
  localparam int TagW     = 5;   // ALU tag {chunk end, slot[1:0], word[1:0]}

  localparam logic [3:0] OpcodeBurst = 4'd8;    // ssm_regs_pkg::SSM_OPCODE_BURST
  localparam logic [7:0] StateOk     = 8'h01;   // ssm_regs_pkg::SSM_STATE_OK
  localparam logic [7:0] StateMism   = 8'h8C;   // ssm_regs_pkg::SSM_STATE_ERR_MISMATCH

  // Context states.
  localparam logic [2:0] CFree = 3'd0, CGather = 3'd1, CReady = 3'd2, CRun = 3'd3, CRet = 3'd4;
  // Engine states.
  localparam logic [1:0] EIdle = 2'd0, ERun = 2'd1, EDrain = 2'd2;

  if (NumWin < 1 || NumWin > 255) begin : gen_err_numwin
    $error("ssm_burst: NumPe*NumThreads must be 1..255");
  end
  if (NumPe > 16 || NumThreads > 16) begin : gen_err_pe
    $error("ssm_burst: NumPe and NumThreads must be <= 16 (4-bit fields in ret_t)");
  end
  if (Slots < 1) begin : gen_err_slots
    $error("ssm_burst: Slots must be >= 1");
  end

  // ---------------------------------------------------------------- helpers
  /* verilator lint_off UNUSEDSIGNAL */
  function logic [32:0] min33(input logic [32:0] x, input logic [32:0] y);
    min33 = (x < y) ? x : y;
  endfunction
  // Lowest member above cur (0 when none; see has_next).
  function logic [WinW-1:0] next_mem(input logic [NumWin-1:0] m, input logic [WinW-1:0] cur);
    next_mem = '0;
    for (int i = NumWin - 1; i >= 0; i--) if (m[i] && i > 32'(cur)) next_mem = WinW'(i);
  endfunction
  function logic has_next(input logic [NumWin-1:0] m, input logic [WinW-1:0] cur);
    has_next = 1'b0;
    for (int i = 0; i < NumWin; i++) if (m[i] && i > 32'(cur)) has_next = 1'b1;
  endfunction
  function logic [WinW-1:0] first_mem(input logic [NumWin-1:0] m);
    first_mem = '0;
    for (int i = NumWin - 1; i >= 0; i--) if (m[i]) first_mem = WinW'(i);
  endfunction
  function logic [SlotW-1:0] slot_inc(input logic [SlotW-1:0] s);
    slot_inc = (32'(s) == Slots - 1) ? '0 : s + SlotW'(1);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- contexts
  logic [2:0]        cst_q   [Slots];
  logic [7:0]        csize_q [Slots];
  logic [7:0]        ccnt_q  [Slots];
  logic [31:0]       clen_q  [Slots];
  logic [1:0]        ctype_q [Slots];
  logic [1:0]        cop_q   [Slots];
  logic              cpois_q [Slots];
  logic [NumWin-1:0] cmask_q [Slots];
  // Member tables, entry ctx*NumWin + i: src/dest by window, {window, ret_offset} by arrival.
  logic [47:0]       src_q   [NumEnt];
  logic [47:0]       dest_q  [NumEnt];
  logic [WinW+11:0]  arr_q   [NumEnt];

  logic [SlotW-1:0]  gat_q, run_q, ret_q;  // gathering (next to open), moving data, answering
  logic [7:0]        rt_q;                 // completion emitter: arrival index

  // ---------------------------------------------------------------- arrivals
  logic             arrive, a_open, a_mism, a_dup, a_full;
  logic [2:0]       a_st;
  logic [7:0]       a_cnt, a_size;
  logic [NumWin-1:0] a_mask;
  always_comb begin
    a_st = '0; a_cnt = '0; a_size = '0; a_mask = '0; a_mism = 1'b0;
    for (int s = 0; s < Slots; s++) if (gat_q == SlotW'(s)) begin
      a_st   = cst_q[s];
      a_cnt  = ccnt_q[s];
      a_size = csize_q[s];
      a_mask = cmask_q[s];
      a_mism = in_group_i != csize_q[s] || in_type_i != ctype_q[s] || in_op_i != cop_q[s] ||
               in_len_i != clen_q[s];
    end
  end
  assign in_ready_o = a_st == CFree || a_st == CGather;
  assign arrive     = in_valid_i && in_ready_o;
  assign a_open     = a_st == CFree;
  assign a_dup      = !a_open && a_mask[in_win_i];
  // The arrival completes the group.
  assign a_full     = a_open ? (in_group_i == 8'd1) : (a_cnt + 8'd1 == a_size);

  logic [EntW-1:0] a_src_idx, a_arr_idx;
  assign a_src_idx = EntW'(32'(gat_q) * NumWin + 32'(in_win_i));
  assign a_arr_idx = EntW'(32'(gat_q) * NumWin + (a_open ? 0 : 32'(a_cnt)));

  always_ff @(posedge clk_i) begin  // member tables (not reset: read only for members)
    if (arrive) begin
      if (a_open || !a_dup) begin
        src_q[a_src_idx]  <= in_src_i;
        dest_q[a_src_idx] <= in_dest_i;
      end
      arr_q[a_arr_idx] <= {in_win_i, in_ret_offset_i};
    end
  end

  // ---------------------------------------------------------------- engine: group registers
  logic [1:0]        eng_q;
  logic [NumWin-1:0] g_mask_q;
  logic [31:0]       g_len_q;
  logic [1:0]        g_type_q, g_op_q;
  logic [KW-1:0]     g_nchunk_q;   // K = ceil(len / 32)
  logic [WinW-1:0]   g_first_q;    // lowest member window

  logic [2:0]        r_st;         // state of the context run_q
  logic              r_pois;
  logic [NumWin-1:0] r_mask;
  logic [31:0]       r_len;
  logic [1:0]        r_type, r_op;
  always_comb begin
    r_st = '0; r_pois = 1'b0; r_mask = '0; r_len = '0; r_type = '0; r_op = '0;
    for (int s = 0; s < Slots; s++) if (run_q == SlotW'(s)) begin
      r_st = cst_q[s]; r_pois = cpois_q[s]; r_mask = cmask_q[s]; r_len = clen_q[s];
      r_type = ctype_q[s]; r_op = cop_q[s];
    end
  end
  logic eng_start, eng_skip, eng_end;
  assign eng_start = eng_q == EIdle && r_st == CReady && !r_pois;
  assign eng_skip  = eng_q == EIdle && r_st == CReady && r_pois;   // poisoned: straight to answers

  // ---------------------------------------------------------------- DMA request register
  logic         oq_valid_q, oq_write_q;
  logic [47:0]  oq_addr_q;
  logic [5:0]   oq_len_q;
  logic [255:0] oq_wdata_q;
  logic         oq_free, take_wi, take_ri;
  assign oq_free = !oq_valid_q || dma_req_ready_i;

  // ---------------------------------------------------------------- read issuer
  logic            ri_act_q, ri_sub_q;
  logic [KW-1:0]   ri_k_q;
  logic [WinW-1:0] ri_w_q;
  logic [CrW-1:0]  cred_q;          // reads issued and not yet consumed from the response buffer
  logic            step_ready, step_push;
  logic [StepW-1:0] step_in;

  logic [47:0] ri_src;
  logic [4:0]  ri_a, ri_gap;
  logic [32:0] ri_len33, ri_base, ri_rend, ri_rf, ri_end1, ri_end2;
  logic [5:0]  ri_len1, ri_len2;
  logic        ri_k0, ri_kl, ri_r1, ri_r2, ri_first, ri_last, ri_lastsub, ri_want, ri_adv, ri_go;
  logic [1:0]  ri_nr;
  logic [32:0] ri_start;

  assign ri_src   = src_q[EntW'(32'(run_q) * NumWin + 32'(ri_w_q))];
  assign ri_a     = ri_src[4:0];
  assign ri_gap   = 5'd0 - ri_a;                       // (32 - a) mod 32
  assign ri_len33 = {1'b0, g_len_q};
  assign ri_k0    = ri_k_q == '0;
  assign ri_base  = {ri_k_q, 5'b00000};                // 32k
  assign ri_rend  = min33(ri_base + 33'd32, ri_len33); // end of chunk k (relative to src)
  // Bytes of the source read so far (relative): chunk k-1 read up to the end of its last block.
  assign ri_rf    = ri_k0 ? 33'd0 : min33(ri_base + 33'(ri_gap), ri_len33);
  assign ri_end1  = min33(ri_rf + (ri_k0 ? 33'd32 - 33'(ri_a) : 33'd32), ri_len33);
  assign ri_end2  = min33(ri_end1 + 33'd32, ri_len33);
  assign ri_r1    = ri_rf < ri_rend;
  assign ri_r2    = ri_r1 && ri_end1 < ri_rend;
  assign ri_nr    = ri_r2 ? 2'd2 : (ri_r1 ? 2'd1 : 2'd0);
  assign ri_len1  = 6'(ri_end1 - ri_rf);
  assign ri_len2  = 6'(ri_end2 - ri_end1);
  assign ri_first = ri_w_q == g_first_q;
  assign ri_last  = !has_next(g_mask_q, ri_w_q);
  assign ri_kl    = ri_k_q + KW'(1) == g_nchunk_q;      // the member's last chunk
  assign ri_start = ri_sub_q ? ri_end1 : ri_rf;
  assign ri_lastsub = (ri_nr == 2'd0) || (ri_nr == 2'd1) || ri_sub_q;

  assign ri_go    = eng_q == ERun && ri_act_q && step_ready;
  assign ri_want  = ri_go && ri_nr != 2'd0 && cred_q < CrW'(RspDepth);
  // The step is done: record pushed, (k, w) advances.
  assign ri_adv   = ri_go && (ri_nr == 2'd0 || (take_ri && ri_lastsub));
  assign step_push = ri_adv;
  assign step_in  = {ri_w_q, ri_k0, ri_kl, ri_nr, ri_len1, ri_len2, ri_first, ri_last};

  logic [47:0] ri_addr;
  logic [5:0]  ri_rlen;
  assign ri_addr = ri_src + 48'(ri_start);
  assign ri_rlen = ri_sub_q ? ri_len2 : ri_len1;

  // ---------------------------------------------------------------- step FIFO, response buffer
  logic             st_valid, st_pop;
  logic [StepW-1:0] st_rec;
  logic [$clog2(StepDepth+1)-1:0] st_count;
  cmn_fifo #(.Width(StepW), .Depth(StepDepth)) u_steps (
    .clk_i, .rst_ni,
    .valid_i(step_push), .ready_o(step_ready), .data_i(step_in),
    .valid_o(st_valid), .ready_i(st_pop), .data_o(st_rec), .count_o(st_count)
  );

  logic         rb_ready, rb_valid, rb_pop;
  logic [255:0] rb_data;
  logic [CrW-1:0] rb_count;
  cmn_fifo #(.Width(256), .Depth(RspDepth)) u_rsp (
    .clk_i, .rst_ni,
    .valid_i(dma_rsp_valid_i), .ready_o(rb_ready), .data_i(dma_rsp_rdata_i),
    .valid_o(rb_valid), .ready_i(rb_pop), .data_o(rb_data), .count_o(rb_count)
  );

  // ---------------------------------------------------------------- realigner
  // One cmn_realign stream per member: the step's reads are the beats (bytes at position 0 of the
  // response, len1 then len2), a step with no read a beat of no byte; every step's last beat gives
  // chunk k (the carry holds the bytes read beyond it). Chunk 0 opens the member's stream, the
  // last chunk closes it.
  logic [WinW-1:0] s_w;
  logic            s_k0, s_kl, s_first, s_last;
  logic [1:0]      s_nr;
  logic [5:0]      s_len1, s_len2;
  assign {s_w, s_k0, s_kl, s_nr, s_len1, s_len2, s_first, s_last} = st_rec;

  logic         have1_q;            // chunk 0, two reads: the first one has been taken
  logic         rl_valid, rl_ready, rl_fin, rl_take, cf_push, cf_ready;
  logic [5:0]   rl_len, cf_len;
  logic [255:0] cf_data;
  logic [1:0]   cf_user;
  logic [WinW-1:0] cf_sid;
  logic [4:0]   cf_lo;
  logic         cf_first, cf_last;
  logic [ChunkW-1:0] cf_in;

  assign rl_fin   = s_nr != 2'd2 || have1_q;   // the step's last beat
  assign rl_valid = st_valid && (s_nr == 2'd0 || rb_valid);
  assign rl_len   = (s_nr == 2'd0) ? 6'd0 : ((s_nr == 2'd2 && have1_q) ? s_len2 : s_len1);
  assign rl_take  = rl_valid && rl_ready;
  cmn_realign #(.Bytes(32), .Streams(NumWin), .UserW(2)) u_realign (
    .clk_i, .rst_ni,
    .valid_i  (rl_valid),
    .ready_o  (rl_ready),
    .sid_i    (s_w),
    .first_i  (s_k0 && !have1_q),
    .dst_off_i(5'd0),
    .off_i    (5'd0),
    .len_i    (rl_len),
    .last_i   (s_kl && rl_fin),
    .data_i   (rb_data),
    .user_i   ({s_first, s_last}),
    .valid_o  (cf_push),
    .ready_i  (cf_ready),
    .sid_o    (cf_sid),
    .data_o   (cf_data),
    .lo_o     (cf_lo),
    .len_o    (cf_len),
    .first_o  (cf_first),
    .last_o   (cf_last),
    .user_o   (cf_user)
  );
  assign st_pop = rl_take && rl_fin;
  assign rb_pop = rl_take && s_nr != 2'd0;
  assign cf_in  = {cf_data, cf_user, 3'((32'(cf_len) + 7) / 8)};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      have1_q <= 1'b0;
    end else if (rl_take) begin
      have1_q <= !rl_fin;
    end
  end

  // ---------------------------------------------------------------- combiner
  logic              c_valid, c_pop, c_first, c_last;
  logic [255:0]      c_data;
  logic [2:0]        c_nw;
  logic [1:0]        cf_count;
  cmn_fifo #(.Width(ChunkW), .Depth(2)) u_chunks (
    .clk_i, .rst_ni,
    .valid_i(cf_push), .ready_o(cf_ready), .data_i(cf_in),
    .valid_o(c_valid), .ready_i(c_pop), .data_o({c_data, c_first, c_last, c_nw}), .count_o(cf_count)
  );

  logic [63:0]   acc_q [AccSlots*4];
  logic [15:0]   pend_q;           // ALU result outstanding for acc word slot*4+j
  logic [KW-1:0] cb_k_q;           // chunk being combined
  logic [1:0]    cb_j_q;           // next word of the current member
  logic [KW-1:0] done_q;           // chunks complete (in order)
  logic [KW-1:0] freed_q;          // chunks whose accumulator slot is free again
  logic [1:0]    cb_slot;
  logic [3:0]    cb_sj;
  logic          cb_free, cb_load, cb_fwd, cb_issue, cb_wlast;
  logic [63:0]   cb_b, cb_a;

  logic            alu_ov;
  logic [63:0]     alu_res;
  logic [TagW-1:0] alu_otag;

  assign cb_slot  = cb_k_q[1:0];
  assign cb_sj    = {cb_slot, cb_j_q};
  assign cb_free  = (cb_k_q - freed_q) < KW'(AccSlots);
  assign cb_load  = eng_q == ERun && c_valid && c_first && cb_free;
  assign cb_fwd   = alu_ov && alu_otag[3:0] == cb_sj;
  assign cb_issue = eng_q == ERun && c_valid && !c_first && (!pend_q[cb_sj] || cb_fwd);
  assign cb_wlast = {1'b0, cb_j_q} == c_nw - 3'd1;
  assign c_pop    = cb_load || (cb_issue && cb_wlast);
  always_comb begin  // explicit muxes (Verilator 5.006 over-reads variable part-selects)
    cb_b = '0;
    for (int j = 0; j < 4; j++) if (cb_j_q == 2'(j)) cb_b = c_data[j*64 +: 64];
  end
  assign cb_a = cb_fwd ? alu_res : acc_q[cb_sj];

  ssm_alu #(.TagW(TagW), .Latency(AluLat)) u_alu (
    .clk_i, .rst_ni,
    .in_valid_i  (cb_issue),
    .in_type_i   (g_type_q),
    .in_op_i     (g_op_q),
    .in_a_i      (cb_a),
    .in_b_i      (cb_b),
    .in_tag_i    ({c_last && cb_wlast, cb_sj}),
    .out_valid_o (alu_ov),
    .out_result_o(alu_res),
    .out_tag_o   (alu_otag)
  );

  logic cb_done_direct, cb_done_alu;
  assign cb_done_direct = cb_load && c_last;            // a one-member group
  assign cb_done_alu    = alu_ov && alu_otag[4];

  always_ff @(posedge clk_i) begin
    for (int i = 0; i < AccSlots * 4; i++) begin
      if (cb_load && 32'(cb_slot) == i / 4) acc_q[i] <= c_data[(i % 4) * 64 +: 64];
      if (alu_ov && 32'(alu_otag[3:0]) == i) acc_q[i] <= alu_res;
    end
  end

  // ---------------------------------------------------------------- write issuer
  logic            wi_act_q;
  logic [KW-1:0]   wi_k_q;
  logic [WinW-1:0] wi_w_q;
  logic [47:0]     wi_dest;
  logic [4:0]      wi_d;
  logic [32:0]     wi_base, wi_rs, wi_re;
  logic            wi_k0, wi_blk_ready, wi_nonempty, wi_want, wi_adv, wi_blk_end;
  logic [5:0]      wi_len, wi_sh;
  logic [1:0]      wi_slot, wi_pslot;
  logic [255:0]    wi_cur, wi_prev, wi_wdata;
  logic [511:0]    wi_cat;

  assign wi_dest  = dest_q[EntW'(32'(run_q) * NumWin + 32'(wi_w_q))];
  assign wi_d     = wi_dest[4:0];
  assign wi_k0    = wi_k_q == '0;
  assign wi_base  = {wi_k_q, 5'b00000};
  // Block k of the dest covers result bytes [32k - d, 32k + 32 - d), clipped to [0, len).
  assign wi_rs    = wi_k0 ? 33'd0 : wi_base - 33'(wi_d);
  assign wi_re    = min33(wi_base + 33'd32 - 33'(wi_d), {1'b0, g_len_q});
  assign wi_nonempty = wi_rs < wi_re;
  assign wi_len   = 6'(wi_re - wi_rs);
  assign wi_sh    = wi_k0 ? 6'd32 : 6'd32 - {1'b0, wi_d};
  // Block k needs chunk k (k < K), the flush block K needs chunk K-1 only.
  assign wi_blk_ready = (wi_k_q < g_nchunk_q) ? (done_q > wi_k_q) : 1'b1;
  assign wi_slot  = wi_k_q[1:0];
  assign wi_pslot = wi_k_q[1:0] - 2'd1;
  always_comb begin
    wi_cur = '0; wi_prev = '0;
    for (int j = 0; j < 4; j++) begin
      wi_cur[j*64 +: 64]  = acc_q[{wi_slot, 2'(j)}];
      wi_prev[j*64 +: 64] = acc_q[{wi_pslot, 2'(j)}];
    end
    wi_cat   = {wi_cur, wi_prev} >> {wi_sh, 3'b000};
    wi_wdata = wi_cat[255:0];
  end
  assign wi_want    = eng_q == ERun && wi_act_q && wi_blk_ready && wi_nonempty;
  assign wi_adv     = eng_q == ERun && wi_act_q && wi_blk_ready && (!wi_nonempty || take_wi);
  assign wi_blk_end = wi_adv && !has_next(g_mask_q, wi_w_q);
  assign eng_end    = wi_blk_end && wi_k_q == g_nchunk_q;

  // ---------------------------------------------------------------- DMA request register
  assign take_wi = wi_want && oq_free;
  assign take_ri = !take_wi && ri_want && oq_free;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      oq_valid_q <= 1'b0;
    end else if (oq_free) begin
      oq_valid_q <= take_wi || take_ri;
    end
  end
  always_ff @(posedge clk_i) begin
    if (take_wi) begin
      oq_write_q <= 1'b1;
      oq_addr_q  <= wi_dest + 48'(wi_rs);
      oq_len_q   <= wi_len;
      oq_wdata_q <= wi_wdata;
    end else if (take_ri) begin
      oq_write_q <= 1'b0;
      oq_addr_q  <= ri_addr;
      oq_len_q   <= ri_rlen;
      oq_wdata_q <= '0;
    end
  end
  assign dma_req_valid_o = oq_valid_q;
  assign dma_req_write_o = oq_write_q;
  assign dma_req_addr_o  = oq_addr_q;
  assign dma_req_len_o   = oq_len_q;
  assign dma_req_wdata_o = oq_wdata_q;

  // ---------------------------------------------------------------- engine state
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      eng_q <= EIdle;
      g_mask_q <= '0; g_len_q <= '0; g_type_q <= '0; g_op_q <= '0; g_nchunk_q <= '0; g_first_q <= '0;
      ri_act_q <= 1'b0; ri_sub_q <= 1'b0; ri_k_q <= '0; ri_w_q <= '0; cred_q <= '0;
      cb_k_q <= '0; cb_j_q <= '0; done_q <= '0; freed_q <= '0; pend_q <= '0;
      wi_act_q <= 1'b0; wi_k_q <= '0; wi_w_q <= '0;
    end else begin
      // credits: +1 per read loaded into the request register, -1 per response consumed
      cred_q <= cred_q + CrW'(take_ri) - CrW'(rb_pop);

      unique case (eng_q)
        EIdle: if (eng_start) begin
          eng_q      <= ERun;
          g_mask_q   <= r_mask;
          g_len_q    <= r_len;
          g_type_q   <= r_type;
          g_op_q     <= r_op;
          g_nchunk_q <= KW'(({1'b0, r_len} + 33'd31) >> 5);
          g_first_q  <= first_mem(r_mask);
        end
        ERun: if (eng_end) eng_q <= EDrain;
        EDrain: if (!oq_valid_q) eng_q <= EIdle;   // the last write was accepted
        default: eng_q <= EIdle;
      endcase

      // read issuer
      if (take_ri && !ri_lastsub) ri_sub_q <= 1'b1;
      if (ri_adv) begin
        ri_sub_q <= 1'b0;
        if (!ri_last) begin
          ri_w_q <= next_mem(g_mask_q, ri_w_q);
        end else begin
          ri_w_q <= g_first_q;
          ri_k_q <= ri_k_q + KW'(1);
          if (ri_kl) ri_act_q <= 1'b0;
        end
      end

      // combiner
      if (cb_issue) cb_j_q <= cb_wlast ? 2'd0 : cb_j_q + 2'd1;
      if (c_pop && c_last) cb_k_q <= cb_k_q + KW'(1);
      done_q <= done_q + KW'(cb_done_direct) + KW'(cb_done_alu);
      for (int i = 0; i < 16; i++) begin
        if (cb_issue && 32'(cb_sj) == i) pend_q[i] <= 1'b1;
        else if (alu_ov && 32'(alu_otag[3:0]) == i) pend_q[i] <= 1'b0;
      end

      // write issuer
      if (wi_adv) begin
        if (!wi_blk_end) begin
          wi_w_q <= next_mem(g_mask_q, wi_w_q);
        end else begin
          wi_w_q <= g_first_q;
          if (!wi_k0) freed_q <= freed_q + KW'(1);
          if (wi_k_q == g_nchunk_q) wi_act_q <= 1'b0;
          else wi_k_q <= wi_k_q + KW'(1);
        end
      end

      // a new group (last: takes precedence over the updates above, which are idle then)
      if (eng_start) begin
        ri_act_q <= 1'b1; ri_sub_q <= 1'b0; ri_k_q <= '0; ri_w_q <= first_mem(r_mask);
        cb_k_q <= '0; cb_j_q <= '0; done_q <= '0; freed_q <= '0;
        wi_act_q <= 1'b1; wi_k_q <= '0; wi_w_q <= first_mem(r_mask);
      end
    end
  end

  // ---------------------------------------------------------------- completions
  logic [2:0]      t_st;
  logic            t_pois;
  logic [7:0]      t_cnt;
  logic [WinW+11:0] t_arr;
  logic [WinW-1:0] t_win;
  logic [47:0]     t_src;
  always_comb begin
    t_st = '0; t_pois = 1'b0; t_cnt = '0;
    for (int s = 0; s < Slots; s++) if (ret_q == SlotW'(s)) begin
      t_st = cst_q[s]; t_pois = cpois_q[s]; t_cnt = ccnt_q[s];
    end
  end
  assign t_arr = arr_q[EntW'(32'(ret_q) * NumWin + 32'(rt_q))];
  assign t_win = t_arr[WinW+11:12];
  assign t_src = src_q[EntW'(32'(ret_q) * NumWin + 32'(t_win))];

  assign ret_valid_o = t_st == CRet;
  always_comb begin
    ret_o            = '0;
    ret_o.pe         = 4'(32'(t_win) / NumThreads);
    ret_o.thread     = 4'(32'(t_win) % NumThreads);
    ret_o.opcode     = OpcodeBurst;
    ret_o.ret_offset = t_arr[11:0];
    ret_o.addr       = t_src;
    ret_o.value      = 64'd0;
    ret_o.state      = t_pois ? StateMism : StateOk;
  end
  logic ret_last;
  assign ret_last = ret_valid_o && ret_ready_i && rt_q + 8'd1 == t_cnt;

  // ---------------------------------------------------------------- context state
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      gat_q <= '0; run_q <= '0; ret_q <= '0; rt_q <= '0;
      for (int s = 0; s < Slots; s++) begin
        cst_q[s] <= CFree; csize_q[s] <= '0; ccnt_q[s] <= '0; clen_q[s] <= '0; ctype_q[s] <= '0;
        cop_q[s] <= '0; cpois_q[s] <= 1'b0; cmask_q[s] <= '0;
      end
    end else begin
      if (arrive && a_full) gat_q <= slot_inc(gat_q);
      if (eng_skip || (eng_q == EDrain && !oq_valid_q)) run_q <= slot_inc(run_q);
      if (ret_valid_o && ret_ready_i) rt_q <= ret_last ? 8'd0 : rt_q + 8'd1;
      if (ret_last) ret_q <= slot_inc(ret_q);
      for (int s = 0; s < Slots; s++) begin
        if (arrive && gat_q == SlotW'(s)) begin
          if (a_open) begin
            csize_q[s] <= in_group_i;
            clen_q[s]  <= in_len_i;
            ctype_q[s] <= in_type_i;
            cop_q[s]   <= in_op_i;
            ccnt_q[s]  <= 8'd1;
            cpois_q[s] <= 1'b0;
            cmask_q[s] <= NumWin'(1) << in_win_i;
          end else begin
            ccnt_q[s]  <= ccnt_q[s] + 8'd1;
            cpois_q[s] <= cpois_q[s] || a_mism || a_dup;
            cmask_q[s] <= cmask_q[s] | (NumWin'(1) << in_win_i);
          end
          cst_q[s] <= a_full ? CReady : CGather;
        end
        if (run_q == SlotW'(s)) begin
          if (eng_start) cst_q[s] <= CRun;
          if (eng_skip || (eng_q == EDrain && !oq_valid_q)) cst_q[s] <= CRet;
        end
        if (ret_last && ret_q == SlotW'(s)) cst_q[s] <= CFree;
      end
    end
  end

  // ---------------------------------------------------------------- unused
  logic unused;
  assign unused = ^{st_count, rb_count, cf_count, a_size, wi_cat[511:256], cf_sid, cf_lo, cf_first,
                    cf_last};

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  // DMA request rules: length 1..32, no 32-byte crossing, payload held until accepted.
  a_dma_len: assert property (@(posedge clk_i) disable iff (!rst_ni)
      dma_req_valid_o |-> dma_req_len_o != 6'd0 && dma_req_len_o <= 6'd32 &&
                          (32'(dma_req_addr_o[4:0]) + 32'(dma_req_len_o)) <= 32);
  a_dma_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      dma_req_valid_o && !dma_req_ready_i |=> dma_req_valid_o && $stable(dma_req_write_o) &&
      $stable(dma_req_addr_o) && $stable(dma_req_len_o) && $stable(dma_req_wdata_o));
  // Responses are never stalled: the buffer always has room (credit rule).
  a_rsp_room: assert property (@(posedge clk_i) disable iff (!rst_ni)
      dma_rsp_valid_i |-> rb_ready);
  a_cred: assert property (@(posedge clk_i) disable iff (!rst_ni)
      cred_q <= CrW'(RspDepth) && rb_count <= cred_q);
  a_rsp_expected: assert property (@(posedge clk_i) disable iff (!rst_ni)
      dma_rsp_valid_i |-> cred_q - rb_count > CrW'(oq_valid_q && !oq_write_q));
  // Completions hold until taken.
  a_ret_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      ret_valid_o && !ret_ready_i |=> ret_valid_o && $stable(ret_o));
  // Arrivals are validated by the front unit.
  a_in_valid: assert property (@(posedge clk_i) disable iff (!rst_ni)
      in_valid_i |-> 32'(in_win_i) < NumWin && in_group_i != 8'd0 && 32'(in_group_i) <= NumWin &&
                     in_len_i != 32'd0);
  // Internal invariants.
  a_step_push: assert property (@(posedge clk_i) disable iff (!rst_ni) step_push |-> step_ready);
  a_ri_reads: assert property (@(posedge clk_i) disable iff (!rst_ni)
      ri_go && ri_nr == 2'd2 |-> ri_k0);
  a_start_clean: assert property (@(posedge clk_i) disable iff (!rst_ni)
      eng_start |-> !st_valid && !rb_valid && !c_valid && cred_q == '0 && pend_q == '0 && !have1_q);
  a_alu_pend: assert property (@(posedge clk_i) disable iff (!rst_ni)
      alu_ov |-> pend_q[alu_otag[3:0]]);
  a_slot_order: assert property (@(posedge clk_i) disable iff (!rst_ni)
      freed_q <= done_q && done_q <= cb_k_q + KW'(1) && (cb_k_q - freed_q) <= KW'(AccSlots));
  a_load_clean: assert property (@(posedge clk_i) disable iff (!rst_ni)
      cb_load |-> pend_q[{cb_slot, 2'd0} +: 4] == 4'd0);
  a_wi_order: assert property (@(posedge clk_i) disable iff (!rst_ni)
      eng_q == ERun && wi_act_q |-> wi_k_q <= g_nchunk_q && (wi_k_q == '0 || freed_q == wi_k_q - KW'(1)));
  a_dma_idle: assert property (@(posedge clk_i) disable iff (!rst_ni)
      take_ri || take_wi |-> eng_q == ERun);
  // Every request stays inside the member's buffer.
  always_ff @(posedge clk_i) if (rst_ni) begin
    if (take_wi) assert (wi_re <= {1'b0, g_len_q} && wi_rs < wi_re)
      else $error("ssm_burst: write outside the dest buffer");
    if (take_ri) assert (ri_start < {1'b0, g_len_q} && ri_start + 33'(ri_rlen) <= {1'b0, g_len_q})
      else $error("ssm_burst: read outside the source buffer");
    if (eng_q == EDrain) assert (!st_valid && !rb_valid && !c_valid && cred_q == '0 && pend_q == '0)
      else $error("ssm_burst: group ended with data in flight");
    if (arrive) assert (a_open || !a_full || 32'(a_cnt) + 1 == 32'(a_size))
      else $error("ssm_burst: group count overflow");
  end
`endif
endmodule
