// nic_dq: the VPs' on-chip descriptor queues (DQs) and their completeness checkers (paper 2.1 and
// 2.3, docs/nic.md). Each VP owns a FIFO of DqWords 64-bit words in one SRAM of NumVp*DqWords
// words (VP v's words at rows v*DqWords .. v*DqWords+DqWords-1, a ring). Words arrive in order from
// one writer per VP (PIO words, or words fetched from the VP's host DQ) that may stop anywhere
// inside a descriptor for any time (a preempted process), so a VP's head descriptor is offered
// only when all its words are in. Descriptor framing: word 0 is desc_ctrl; its NWORDS (2..MaxWords)
// counts the descriptor's words, word 0 included. A head word whose NWORDS is outside 2..MaxWords
// is a bad descriptor of one word: it is handed out alone with desc_bad_o, so that the NIC can
// complete it with an error and the queue stays in step.
//   PIO writes : pio_valid_i appends pio_data_i to VP pio_vp_i's DQ in this cycle, unless the DQ
//                is full (words_o = DqWords), the VP is disabled or pio_vp_i >= NumVp: then the
//                word is dropped and pio_drop_o (combinational) is high in this cycle. No ready.
//   Fetched    : fw_valid_i/fw_ready_o, a word for VP fw_vp_i (< NumVp); the payload holds until
//                taken. fw_ready_o = !pio_valid_i && (the VP's DQ is not full || the VP is
//                disabled): PIO has priority; a word for a disabled VP is taken and dropped; a
//                full DQ stalls the word (nothing is lost). Combinational from pio_valid_i and
//                fw_vp_i.
//   Per-VP     : words_o[v*CntW +: CntW]: words held (written and not yet read out; DQ_FREE =
//                DqWords - words). A word read out of the SRAM for a descriptor is free from the
//                next cycle (word 0 when the descriptor is chosen, then one word a cycle).
//                head_ok_o[v]: VP v is enabled and its head descriptor is complete (or bad) and
//                not being read out (while one of v's descriptors is offered, head_ok_o[v] may
//                already show the next one); head_ctrl_o[v*64 +: 64] is its word 0 (valid with
//                head_ok_o). From registers, and vp_en_i for head_ok_o.
//   Descriptors: desc_valid_o/desc_ready_i, one descriptor: desc_vp_o, desc_nwords_o (words taken:
//                NWORDS, or 1 with desc_bad_o), desc_words_o (word i at [i*64 +: 64], words >=
//                desc_nwords_o are 0). Registered; holds until taken. The read-out engine chooses
//                among the VPs with head_ok_o & vp_ok_i, round-robin (cmn_rr_arb: a VP that keeps
//                both waits for at most NumVp-1 descriptors of others), when it is idle or in the
//                cycle its descriptor is taken; the choice is then held until the descriptor is
//                taken (vp_ok_i may change in any cycle; it matters only in the cycle of a
//                choice). Within a VP descriptors leave in order.
//   Disable    : a VP whose vp_en_i is low is emptied (its words are discarded), except a
//                descriptor of it already being read out, which completes; it is emptied after.
//   Latency    : a descriptor of n words (n = 1 when bad) whose last word is written in cycle t,
//                with head_ok_o[v] then set (its word 0 loaded), the engine idle and vp_ok_i[v]
//                high in cycle t+1: desc_valid_o in cycle t+n+2 (chosen in t+1, words 1..n-1 read
//                in t+2..t+n, the next head word read in t+n+1).
//   Throughput : one SRAM write (PIO or fetched) and one SRAM read per cycle. A descriptor of n
//                words every n+1 cycles (the next one is chosen in the cycle one is taken); n+2
//                for one VP back to back (its next head word is read after its descriptor).
// Parameters: NumVp (1..32 VPs), DqWords (words per DQ, a power of two >= MaxWords), MaxWords
//   (largest NWORDS, 2..31). CntW derived.
module nic_dq #(
  parameter int NumVp    = 32,
  parameter int DqWords  = 512,   // words per VP's DQ (one SRAM of NumVp*DqWords x 64 bit)
  parameter int MaxWords = 24,
  localparam int CntW = $clog2(DqWords + 1)  // derived, do not override
) (
  input  logic clk_i, rst_ni,
  input  logic [NumVp-1:0] vp_en_i,          // enabled VPs
  // PIO word writes (from the MMIO decoder): no ready, one per cycle at most
  input  logic        pio_valid_i,
  input  logic [4:0]  pio_vp_i,
  input  logic [63:0] pio_data_i,
  output logic        pio_drop_o,            // combinational: this PIO write is dropped (DQ full or VP disabled)
  // fetched words (host-DQ fetcher): valid/ready, lower priority than PIO in the same cycle
  input  logic        fw_valid_i,
  output logic        fw_ready_o,
  input  logic [4:0]  fw_vp_i,
  input  logic [63:0] fw_data_i,
  // per-VP state (registers, scheduler)
  output logic [NumVp*CntW-1:0] words_o,     // words held per VP
  output logic [NumVp-1:0]      head_ok_o,   // the VP's head descriptor is complete (or bad)
  output logic [NumVp*64-1:0]   head_ctrl_o, // the VP's head word (word 0 of its next descriptor; valid with head_ok_o)
  input  logic [NumVp-1:0]      vp_ok_i,     // VPs the scheduler lets start a descriptor now
  // descriptors out, round-robin among VPs with head_ok & vp_ok (in order within a VP)
  output logic                  desc_valid_o,
  input  logic                  desc_ready_i,
  output logic [4:0]            desc_vp_o,
  output logic [4:0]            desc_nwords_o,   // words taken (1 for a bad descriptor)
  output logic [MaxWords*64-1:0] desc_words_o,   // word i at [i*64 +: 64]; words >= nwords are 0
  output logic                  desc_bad_o,
  // the VP whose descriptor is being read out or offered (words already counted free, not yet
  // taken): STATUS counts it as outstanding, so software never sees an empty DQ and nothing
  // outstanding while a descriptor is in between
  output logic [NumVp-1:0]      active_o
);
  localparam int PtrW  = (DqWords > 1) ? $clog2(DqWords) : 1;
  localparam int VpW   = (NumVp > 1) ? $clog2(NumVp) : 1;
  localparam int AddrW = (NumVp > 1) ? VpW + PtrW : PtrW;  // row {vp, word}
  localparam int Depth = NumVp * DqWords;
  localparam int NwLsb = nic_formats_pkg::NIC_DESC_CTRL_NWORDS_LSB;
  localparam int NwW   = nic_formats_pkg::NIC_DESC_CTRL_NWORDS_WIDTH;

  // Parameter checks
  if (NumVp < 1 || NumVp > 32) begin : gen_err_numvp
    $error("nic_dq: NumVp must be 1..32");
  end
  if (MaxWords < 2 || MaxWords > (1 << NwW) - 1) begin : gen_err_maxwords
    $error("nic_dq: MaxWords must be 2..31 (NWORDS is 5 bits)");
  end
  if (DqWords < MaxWords || (1 << PtrW) != DqWords) begin : gen_err_dqwords
    $error("nic_dq: DqWords must be a power of two >= MaxWords");
  end

  // ---------------------------------------------------------------- the SRAM (1 write, 1 read)
  logic             we, re;
  logic [AddrW-1:0] waddr, raddr;
  logic [63:0]      wdata, rdata_q;
  logic [63:0]      mem_q [Depth];  // not reset (an SRAM)

  always_ff @(posedge clk_i) begin
    if (we) mem_q[waddr] <= wdata;
    if (re) rdata_q <= mem_q[raddr];
  end

  // ---------------------------------------------------------------- read-out engine state
  localparam logic [1:0] StRd = 2'd0, StHead = 2'd1, StOut = 2'd2;
  logic           busy_q;       // a descriptor is being read out or offered
  logic [1:0]     st_q;         // StRd: reading words 1..n-1; StHead: next head word; StOut: offered
  logic [VpW-1:0] cur_q;        // its VP
  logic [NwW-1:0] n_q, ridx_q;  // its words; the next word to read
  logic           bad_q;
  logic           rd_pend_q;    // rdata_q holds word rd_widx_q of the descriptor
  logic [NwW-1:0] rd_widx_q;
  logic           hd_pend_q;    // rdata_q holds VP cur_q's next head word

  // ---------------------------------------------------------------- per-VP state
  logic [NumVp*PtrW-1:0] rp_all, wp_all;
  logic [NumVp-1:0]      full, hreq;
  logic [NumVp*NwW-1:0]  need_all;   // words the head descriptor takes
  logic [NumVp-1:0]      bad_all;
  logic                  pick;       // a descriptor is chosen this cycle (VP arb_idx)
  logic [VpW-1:0]        arb_idx, wvp, fvp;
  logic                  arb_valid, free;  // free: VP fvp's word at its read pointer is read

  for (genvar v = 0; v < NumVp; v++) begin : g_vp
    logic [PtrW-1:0] rp_q, wp_q;   // next word to read out, next word to write
    logic [CntW-1:0] cnt_q;        // words held
    logic            hv_q;         // hc_q holds the word at rp_q (the head), not yet chosen
    logic [63:0]     hc_q;
    logic            wr, fr, fl, pk, hl;
    logic [NwW-1:0]  nw;
    logic            nw_bad;

    assign wr = we && wvp == VpW'(v);
    assign fr = free && fvp == VpW'(v);
    assign pk = pick && arb_idx == VpW'(v);
    assign hl = hd_pend_q && cur_q == VpW'(v);
    assign fl = !vp_en_i[v] && !(busy_q && cur_q == VpW'(v));  // disabled: emptied

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        rp_q  <= '0;
        wp_q  <= '0;
        cnt_q <= '0;
        hv_q  <= 1'b0;
      end else if (fl) begin
        rp_q  <= wp_q;
        cnt_q <= '0;
        hv_q  <= 1'b0;
      end else begin
        if (wr) wp_q <= wp_q + PtrW'(1);
        if (fr) rp_q <= rp_q + PtrW'(1);
        cnt_q <= cnt_q + CntW'(wr) - CntW'(fr);
        // The head word: written into an empty DQ (it lands at rp_q), or read after a read-out.
        if (pk)                    hv_q <= 1'b0;
        else if (wr && cnt_q == '0) hv_q <= 1'b1;
        else if (hl)               hv_q <= 1'b1;
      end
    end
    always_ff @(posedge clk_i) begin  // not reset: valid with hv_q
      if (wr && cnt_q == '0) hc_q <= wdata;
      else if (hl)           hc_q <= rdata_q;
    end

    assign nw     = hc_q[NwLsb +: NwW];
    assign nw_bad = nw < NwW'(2) || nw > NwW'(MaxWords);
    assign need_all[v*NwW +: NwW] = nw_bad ? NwW'(1) : nw;
    assign bad_all[v]  = nw_bad;
    assign head_ok_o[v] = hv_q && vp_en_i[v] && (nw_bad || cnt_q >= CntW'(nw));
    assign head_ctrl_o[v*64 +: 64] = hc_q;
    assign words_o[v*CntW +: CntW] = cnt_q;
    assign rp_all[v*PtrW +: PtrW]  = rp_q;
    assign wp_all[v*PtrW +: PtrW]  = wp_q;
    assign full[v] = cnt_q == CntW'(DqWords);
    assign hreq[v] = cnt_q != '0;  // after a read-out: a next head word is there to read

`ifndef SYNTHESIS
    a_cnt: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(cnt_q) <= DqWords);
    a_head: assert property (@(posedge clk_i) disable iff (!rst_ni) hv_q |-> cnt_q != '0);
`endif
  end

  // ---------------------------------------------------------------- writes
  // Per-VP values at the writers' VPs (explicit muxes: docs/sources.md, toolchain facts).
  logic pio_en, pio_full, pio_in, fw_en, fw_full, fw_in, pio_acc, fw_acc;
  always_comb begin
    pio_en = 1'b0; pio_full = 1'b0; fw_en = 1'b0; fw_full = 1'b0;
    for (int v = 0; v < NumVp; v++) begin
      if (pio_vp_i == 5'(v)) begin
        pio_en   = vp_en_i[v];
        pio_full = full[v];
      end
      if (fw_vp_i == 5'(v)) begin
        fw_en   = vp_en_i[v];
        fw_full = full[v];
      end
    end
  end
  assign pio_in     = 32'(pio_vp_i) < NumVp;
  assign fw_in      = 32'(fw_vp_i) < NumVp;
  assign pio_acc    = pio_valid_i && pio_in && pio_en && !pio_full;
  assign pio_drop_o = pio_valid_i && !pio_acc;
  assign fw_ready_o = !pio_valid_i && (!fw_en || !fw_full);
  assign fw_acc     = fw_valid_i && fw_ready_o && fw_in && fw_en;  // else dropped

  assign we    = pio_acc || fw_acc;
  assign wvp   = pio_acc ? VpW'(pio_vp_i) : VpW'(fw_vp_i);
  assign wdata = pio_acc ? pio_data_i : fw_data_i;
  logic [PtrW-1:0] wp_sel;
  always_comb begin
    wp_sel = '0;
    for (int v = 0; v < NumVp; v++) if (wvp == VpW'(v)) wp_sel = wp_all[v*PtrW +: PtrW];
  end
  assign waddr = AddrW'({wvp, wp_sel});

  // ---------------------------------------------------------------- choice
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NumVp-1:0] arb_gnt;  // unused: the index is used
  /* verilator lint_on UNUSEDSIGNAL */
  cmn_rr_arb #(.N(NumVp)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (head_ok_o & vp_ok_i),
    .advance_i(pick),
    .gnt_o    (arb_gnt),
    .valid_o  (arb_valid),
    .idx_o    (arb_idx)
  );
  assign pick = arb_valid && (!busy_q || (st_q == StOut && desc_ready_i));

  logic [63:0]     p_hc;    // the chosen VP's head word, words, bad flag
  logic [NwW-1:0]  p_need;
  logic            p_bad;
  logic [PtrW-1:0] cur_rp;  // the VP being read out: read pointer, words left to read
  logic            cur_hreq;
  always_comb begin
    p_hc = '0; p_need = '0; p_bad = 1'b0; cur_rp = '0; cur_hreq = 1'b0;
    for (int v = 0; v < NumVp; v++) begin
      if (arb_idx == VpW'(v)) begin
        p_hc   = head_ctrl_o[v*64 +: 64];
        p_need = need_all[v*NwW +: NwW];
        p_bad  = bad_all[v];
      end
      if (cur_q == VpW'(v)) begin
        cur_rp   = rp_all[v*PtrW +: PtrW];
        cur_hreq = hreq[v];
      end
    end
  end

  // ---------------------------------------------------------------- read-out
  // Word 0 is the head register; words 1..n-1 are read from the SRAM one a cycle (StRd), then the
  // VP's next head word if one is held (StHead; else its next write loads it).
  logic rd_word, rd_head;
  assign rd_word = busy_q && st_q == StRd;
  assign rd_head = busy_q && st_q == StHead && cur_hreq;
  assign re      = rd_word || rd_head;
  assign raddr   = AddrW'({cur_q, cur_rp});
  assign free    = pick || rd_word;
  assign fvp     = pick ? arb_idx : cur_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q    <= 1'b0;
      st_q      <= StRd;
      cur_q     <= '0;
      n_q       <= '0;
      ridx_q    <= '0;
      bad_q     <= 1'b0;
      rd_pend_q <= 1'b0;
      rd_widx_q <= '0;
      hd_pend_q <= 1'b0;
    end else begin
      rd_pend_q <= rd_word;
      rd_widx_q <= ridx_q;
      hd_pend_q <= rd_head;
      if (pick) begin
        busy_q <= 1'b1;
        st_q   <= (p_need == NwW'(1)) ? StHead : StRd;
        cur_q  <= arb_idx;
        n_q    <= p_need;
        bad_q  <= p_bad;
        ridx_q <= NwW'(1);
      end else if (busy_q) begin
        case (st_q)
          StRd: begin
            ridx_q <= ridx_q + NwW'(1);
            if (ridx_q == n_q - NwW'(1)) st_q <= StHead;
          end
          StHead: st_q <= StOut;
          default: if (desc_ready_i) busy_q <= 1'b0;
        endcase
      end
    end
  end

  // The output register: word 0 and zeros when chosen, then words 1..n-1 as they are read.
  for (genvar w = 0; w < MaxWords; w++) begin : g_word
    logic [63:0] ow_q;  // not reset: valid with desc_valid_o
    always_ff @(posedge clk_i) begin
      if (pick)                                  ow_q <= (w == 0) ? p_hc : '0;
      else if (rd_pend_q && rd_widx_q == NwW'(w)) ow_q <= rdata_q;
    end
    assign desc_words_o[w*64 +: 64] = ow_q;
  end

  assign desc_valid_o  = busy_q && st_q == StOut;
  always_comb begin
    active_o = '0;
    if (busy_q) active_o[cur_q] = 1'b1;
  end
  assign desc_vp_o     = 5'(cur_q);
  assign desc_nwords_o = 5'(n_q);
  assign desc_bad_o    = bad_q;

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({pio_valid_i, fw_valid_i, desc_ready_i, vp_en_i, vp_ok_i}));
  a_fw_vp: assert property (@(posedge clk_i) disable iff (!rst_ni) fw_valid_i |-> fw_in);
  // Valid/ready: a fetched word not taken stays, unchanged; an offered descriptor likewise.
  a_fw_hold: assert property (@(posedge clk_i) disable iff (!rst_ni)
      fw_valid_i && !fw_ready_o |=> fw_valid_i && $stable({fw_vp_i, fw_data_i}));
  // (an immediate assertion: Verilator 5.006 emits C++ that does not compile for a concurrent
  // assertion that samples a vector as wide as desc_words_o)
  logic                    stall_q;
  logic [MaxWords*64+10:0] stall_desc_q;
  always_ff @(posedge clk_i) begin
    stall_q      <= rst_ni && desc_valid_o && !desc_ready_i;
    stall_desc_q <= {desc_vp_o, desc_nwords_o, desc_bad_o, desc_words_o};
    if (rst_ni && stall_q)
      a_desc_hold: assert (desc_valid_o
                           && stall_desc_q == {desc_vp_o, desc_nwords_o, desc_bad_o, desc_words_o})
        else $error("nic_dq: the offered descriptor changed before it was taken");
  end
  // The SRAM never reads the row written in the same cycle (a read takes only held words).
  a_rw: assert property (@(posedge clk_i) disable iff (!rst_ni) !(we && re && waddr == raddr));
  a_cur: assert property (@(posedge clk_i) disable iff (!rst_ni) busy_q |-> 32'(cur_q) < NumVp);
  a_n: assert property (@(posedge clk_i) disable iff (!rst_ni)
      busy_q |-> n_q != '0 && 32'(n_q) <= MaxWords && (!bad_q || n_q == NwW'(1)));
`endif
endmodule
