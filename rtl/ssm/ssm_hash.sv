// ssm_hash: the shared synchronization storage. A HashWays-way set-associative table of
// tag-value entries in HashBanks single-port SRAM banks (sets interleaved: bank = set mod
// HashBanks), one row per set = HashWays ways + the head of the set's overflow chain. Clients
// on different banks access in the same cycle (up to HashBanks per cycle); a bank serves its
// lowest-numbered requesting client first.
//
// After reset the table clears itself (HashSets/HashBanks cycles) before granting any lookup.
// Coherence unit: a client holds its set's lock from lookup to commit; a client asking for a
// set that another holds (or that a lower-numbered client asks for in the same cycle) waits.
// Commits of writes are broadcast on upd_valid_o/upd_addr_o (one lane per client) to wake
// operations parked on that address.
//
// Spill: a new entry whose set is full goes to the overflow area (ssm_spill, host memory via
// the DMA port); entries committed in the reset state are freed, on chip or in the overflow.
// Client interface: see ssm_hash_port. Lanes are selected with explicit muxes, not with
// variable-offset part-selects, which Verilator 5.006 compiles into reads one word past the end
// of a wide vector (found by AddressSanitizer). Lanes of the flat vectors: client c at [c*W +: W].
module ssm_hash #(
  parameter int NumClients = 2,
  parameter int HashSets   = 1024,
  parameter int HashWays   = 4,
  parameter int HashBanks  = 4,
  localparam int SetBits   = $clog2(HashSets),                    // derived
  localparam int BankBits  = $clog2(HashBanks),                   // HashBanks >= 2
  localparam int Rows      = HashSets / HashBanks,
  localparam int EntryW    = ssm_pkg::EntryW,
  localparam int RowW      = HashWays * (1 + 45 + EntryW) + 48
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [NumClients-1:0]        lk_valid_i,
  output logic [NumClients-1:0]        lk_ready_o,
  input  logic [NumClients*48-1:0]     lk_addr_i,
  output logic [NumClients-1:0]        lk_rsp_valid_o,
  output logic [NumClients-1:0]        lk_hit_o,
  output logic [NumClients*EntryW-1:0] lk_entry_o,
  input  logic [NumClients-1:0]        cm_valid_i,
  input  logic [NumClients-1:0]        cm_write_i,
  input  logic [NumClients*EntryW-1:0] cm_entry_i,
  output logic [NumClients-1:0]        cm_ready_o,
  output logic [NumClients-1:0]        upd_valid_o,
  output logic [NumClients*48-1:0]     upd_addr_o,
  // DMA of the overflow engine
  output logic                         dma_req_valid_o,
  input  logic                         dma_req_ready_i,
  output logic                         dma_req_write_o,
  output logic [47:0]                  dma_req_addr_o,
  output logic [5:0]                   dma_req_len_o,
  output logic [255:0]                 dma_req_wdata_o,
  input  logic                         dma_rsp_valid_i,
  input  logic [255:0]                 dma_rsp_rdata_i,
  // overflow area management and statistics
  input  logic                         ovf_add_valid_i,
  input  logic [47:0]                  ovf_add_base_i,
  input  logic [31:0]                  ovf_add_nodes_i,
  output logic                         ovf_exhausted_o,
  output logic [31:0]                  ovf_bump_left_o,
  output logic [31:0]                  ovf_free_count_o,
  output logic [31:0]                  onchip_entries_o,
  output logic [31:0]                  ovf_entries_o
);
  localparam int CW = (NumClients > 1) ? $clog2(NumClients) : 1;

  // per-client wires
  logic [NumClients-1:0]         lock_req, lock_gnt, held;
  logic [NumClients*SetBits-1:0] lock_set, held_set;
  logic [NumClients-1:0]         bank_req, bank_we, bank_gnt;
  logic [NumClients*RowW-1:0]    bank_wdata, bank_rdata;
  logic [NumClients-1:0]         sp_req_valid, sp_req_ready, sp_rsp_valid;
  logic [NumClients*ssm_pkg::SpillReqW-1:0] sp_req;
  logic [NumClients-1:0]         onchip_inc, onchip_dec, ovf_inc, ovf_dec;
  ssm_pkg::spill_rsp_t           sp_rsp;

  for (genvar c = 0; c < NumClients; c++) begin : g_port
    ssm_hash_port #(.HashSets(HashSets), .HashWays(HashWays)) u_port (
      .clk_i, .rst_ni,
      .lk_valid_i    (lk_valid_i[c]),
      .lk_ready_o    (lk_ready_o[c]),
      .lk_addr_i     (lk_addr_i[c*48 +: 48]),
      .lk_rsp_valid_o(lk_rsp_valid_o[c]),
      .lk_hit_o      (lk_hit_o[c]),
      .lk_entry_o    (lk_entry_o[c*EntryW +: EntryW]),
      .cm_valid_i    (cm_valid_i[c]),
      .cm_write_i    (cm_write_i[c]),
      .cm_entry_i    (cm_entry_i[c*EntryW +: EntryW]),
      .cm_ready_o    (cm_ready_o[c]),
      .upd_valid_o   (upd_valid_o[c]),
      .upd_addr_o    (upd_addr_o[c*48 +: 48]),
      .lock_req_o    (lock_req[c]),
      .lock_set_o    (lock_set[c*SetBits +: SetBits]),
      .lock_gnt_i    (lock_gnt[c]),
      .held_o        (held[c]),
      .held_set_o    (held_set[c*SetBits +: SetBits]),
      .bank_req_o    (bank_req[c]),
      .bank_we_o     (bank_we[c]),
      .bank_wdata_o  (bank_wdata[c*RowW +: RowW]),
      .bank_gnt_i    (bank_gnt[c]),
      .bank_rdata_i  (bank_rdata[c*RowW +: RowW]),
      .sp_req_valid_o(sp_req_valid[c]),
      .sp_req_ready_i(sp_req_ready[c]),
      .sp_req_o      (sp_req[c*ssm_pkg::SpillReqW +: ssm_pkg::SpillReqW]),
      .sp_rsp_valid_i(sp_rsp_valid[c]),
      .sp_rsp_i      (sp_rsp),
      .onchip_inc_o  (onchip_inc[c]),
      .onchip_dec_o  (onchip_dec[c]),
      .ovf_inc_o     (ovf_inc[c]),
      .ovf_dec_o     (ovf_dec[c])
    );
  end

  // ---------------------------------------------------------------- reset: clear every row
  // For Rows cycles after reset all banks write zero rows (no entry, no chain); no client gets
  // a set lock meanwhile. The table is thus empty after every reset, as SRAM is not reset.
  localparam int RowAW = (Rows > 1) ? $clog2(Rows) : 1;
  logic             init_q;
  logic [RowAW-1:0] init_row_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      init_q     <= 1'b1;
      init_row_q <= '0;
    end else if (init_q) begin
      init_row_q <= init_row_q + RowAW'(1);
      if (32'(init_row_q) == Rows - 1) init_q <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- coherence: set locks
  always_comb begin
    for (int c = 0; c < NumClients; c++) begin
      lock_gnt[c] = lock_req[c] && !init_q;
      for (int o = 0; o < NumClients; o++) begin
        if (o != c && held[o] && held_set[o*SetBits +: SetBits] == lock_set[c*SetBits +: SetBits])
          lock_gnt[c] = 1'b0;
        if (o < c && lock_req[o] && lock_set[o*SetBits +: SetBits] == lock_set[c*SetBits +: SetBits])
          lock_gnt[c] = 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- banks
  logic [HashBanks-1:0]          b_req, b_we;
  logic [HashBanks*CW-1:0]       b_owner;
  logic [HashBanks*RowW-1:0]     b_rdata;

  always_comb begin
    b_req    = '0;
    b_we     = '0;
    b_owner  = '0;
    bank_gnt = '0;
    for (int b = 0; b < HashBanks; b++) begin
      for (int c = NumClients - 1; c >= 0; c--) begin  // lowest-numbered client wins
        if (bank_req[c] && 32'(held_set[c*SetBits +: BankBits]) % HashBanks == b) begin
          b_req[b]            = 1'b1;
          b_owner[b*CW +: CW] = CW'(c);
        end
      end
      if (b_req[b]) begin
        bank_gnt[b_owner[b*CW +: CW]] = 1'b1;
        b_we[b] = bank_we[b_owner[b*CW +: CW]];
      end
    end
  end

  for (genvar b = 0; b < HashBanks; b++) begin : g_bank
    logic [CW-1:0]   owner;
    logic [RowW-1:0] wdata;
    assign owner = b_owner[b*CW +: CW];
    always_comb begin  // explicit mux (see the note on part-selects at the top)
      wdata = '0;
      for (int c = 0; c < NumClients; c++) if (owner == CW'(c)) wdata = bank_wdata[c*RowW +: RowW];
    end
    cmn_sram #(.Width(RowW), .Depth(Rows)) u_sram (
      .clk_i,
      .req_i  (b_req[b] || init_q),
      .we_i   (b_we[b] || init_q),
      .addr_i (init_q ? init_row_q : held_set[owner*SetBits + BankBits +: SetBits - BankBits]),
      .wdata_i(init_q ? '0 : wdata),
      .rdata_o(b_rdata[b*RowW +: RowW])
    );
  end

  // A client reads its bank's output the cycle after its grant (its set is held meanwhile).
  always_comb begin
    for (int c = 0; c < NumClients; c++) begin
      bank_rdata[c*RowW +: RowW] = '0;
      for (int b = 0; b < HashBanks; b++)
        if (held_set[c*SetBits +: BankBits] == BankBits'(b)) bank_rdata[c*RowW +: RowW] = b_rdata[b*RowW +: RowW];
    end
  end

  // ---------------------------------------------------------------- overflow engine
  logic                sp_valid, sp_ready, sp_rsp_v;
  ssm_pkg::spill_req_t sp_req_sel;
  logic [NumClients-1:0] sp_gnt;
  logic [CW-1:0]       sp_idx, sp_owner_q;

  cmn_rr_arb #(.N(NumClients)) u_sp_arb (
    .clk_i, .rst_ni,
    .req_i    (sp_req_valid),
    .advance_i(sp_valid && sp_ready),
    .gnt_o    (sp_gnt),
    .valid_o  (sp_valid),
    .idx_o    (sp_idx)
  );
  always_comb begin
    sp_req_sel = '0;
    for (int c = 0; c < NumClients; c++)
      if (sp_idx == CW'(c)) sp_req_sel = sp_req[c*ssm_pkg::SpillReqW +: ssm_pkg::SpillReqW];
  end
  assign sp_req_ready = sp_gnt & {NumClients{sp_ready}};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) sp_owner_q <= '0;
    else if (sp_valid && sp_ready) sp_owner_q <= sp_idx;
  end
  always_comb begin
    sp_rsp_valid = '0;
    sp_rsp_valid[sp_owner_q] = sp_rsp_v;
  end

  ssm_spill u_spill (
    .clk_i, .rst_ni,
    .req_valid_i    (sp_valid),
    .req_ready_o    (sp_ready),
    .req_i          (sp_req_sel),
    .rsp_valid_o    (sp_rsp_v),
    .rsp_o          (sp_rsp),
    .dma_req_valid_o, .dma_req_ready_i, .dma_req_write_o, .dma_req_addr_o, .dma_req_len_o,
    .dma_req_wdata_o, .dma_rsp_valid_i, .dma_rsp_rdata_i,
    .ovf_add_valid_i, .ovf_add_base_i, .ovf_add_nodes_i,
    .exhausted_o    (ovf_exhausted_o),
    .bump_left_o    (ovf_bump_left_o),
    .free_count_o   (ovf_free_count_o)
  );

  // ---------------------------------------------------------------- live-entry counters
  logic [31:0] onchip_q, ovf_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      onchip_q <= '0;
      ovf_q    <= '0;
    end else begin
      onchip_q <= onchip_q + 32'($countones(onchip_inc)) - 32'($countones(onchip_dec));
      ovf_q    <= ovf_q + 32'($countones(ovf_inc)) - 32'($countones(ovf_dec));
    end
  end
  assign onchip_entries_o = onchip_q;
  assign ovf_entries_o    = ovf_q;

`ifndef SYNTHESIS
  // Assertions: no two clients ever hold the same set.
  always_ff @(posedge clk_i) if (rst_ni) begin
    for (int a = 0; a < NumClients; a++)
      for (int b = a + 1; b < NumClients; b++)
        assert (!(held[a] && held[b] && held_set[a*SetBits +: SetBits] == held_set[b*SetBits +: SetBits]))
          else $error("ssm_hash: clients %0d and %0d hold set %0d", a, b, held_set[a*SetBits +: SetBits]);
  end
  initial begin
    if (HashBanks < 2 || (1 << BankBits) != HashBanks || (1 << SetBits) != HashSets || HashSets < 2 * HashBanks)
      $fatal(1, "ssm_hash: HashBanks must be a power of two >= 2 and HashSets a power of two >= 2*HashBanks");
  end
`endif
endmodule
