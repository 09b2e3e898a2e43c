// ssm_top: the node synchronization engine (SSM), paper seed 001 / SPEC section 2.
// Blocks (docs/ssm.md has the diagram): ssm_csr (registers, command windows) -> ssm_opq
// (per-thread FIFOs, scheduler, parked operations) -> NumCores x ssm_core -> ssm_hash (banked
// set-associative table, coherence unit, ssm_spill overflow engine) ; cores -> ssm_retw
// (return writer); collectives -> ssm_coll (barrier, reduce, GSN port) and ssm_burst (burst
// reduce). The DMA port is shared round-robin by the return writer, the spill engine and ssm_burst.
// PORT CONTRACT (frozen; the C++ simulation binds to these names):
//   MMIO slave : 64-bit register reads/writes from the host bus. A request moves when
//                mmio_req_valid_i && mmio_req_ready_o. A read is answered by mmio_rsp_valid_o
//                (one cycle pulse) some cycles later; at most one read is outstanding.
//   DMA master : requests of 1..32 bytes that never cross a 32-byte boundary; byte i of
//                dma_req_wdata_o goes to dma_req_addr_o + i. Writes are posted (no response).
//                A read returns one dma_rsp beat with the request's tag; byte i of
//                dma_rsp_rdata_i is the byte at addr + i. The host memory completes requests
//                in the order it accepted them.
//   irq_o      : level interrupt, high while (IRQ_STATUS & IRQ_ENABLE) != 0.
//   GSN        : one 128-bit message stream up to the global sync network and one down from it
//                (docs/gsn.md). A single node loops gsn_up back to gsn_dn.
module ssm_top #(
  parameter int NumPe      = 5,    // processing elements
  parameter int NumThreads = 4,    // threads per PE
  parameter int NumCores   = 2,    // fine-grain processing cores
  parameter int OpqDepth   = 4,    // operation FIFO depth per thread
  parameter int HashSets   = 1024, // sets in the on-chip hash table
  parameter int HashWays   = 4,    // ways per set
  parameter int HashBanks  = 4,    // SRAM banks (sets interleaved over banks)
  parameter int CollSlots  = 4,    // open barrier/reduce contexts
  parameter int BurstSlots = 2     // burst-reduce groups (one moving data, one gathering)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // MMIO slave
  input  logic         mmio_req_valid_i,
  output logic         mmio_req_ready_o,
  input  logic         mmio_req_write_i,
  input  logic [15:0]  mmio_req_addr_i,
  input  logic [63:0]  mmio_req_wdata_i,
  output logic         mmio_rsp_valid_o,
  output logic [63:0]  mmio_rsp_rdata_o,
  // DMA master
  output logic         dma_req_valid_o,
  input  logic         dma_req_ready_i,
  output logic         dma_req_write_o,
  output logic [47:0]  dma_req_addr_o,
  output logic [5:0]   dma_req_len_o,
  output logic [3:0]   dma_req_tag_o,
  output logic [255:0] dma_req_wdata_o,
  input  logic         dma_rsp_valid_i,
  output logic         dma_rsp_ready_o,
  input  logic [3:0]   dma_rsp_tag_i,
  input  logic [255:0] dma_rsp_rdata_i,
  // global sync network
  output logic         gsn_up_valid_o,
  input  logic         gsn_up_ready_i,
  output logic [gsn_pkg::GSN_MSG_BITS-1:0] gsn_up_msg_o,
  input  logic         gsn_dn_valid_i,
  output logic         gsn_dn_ready_o,
  input  logic [gsn_pkg::GSN_MSG_BITS-1:0] gsn_dn_msg_i,
  // interrupt
  output logic         irq_o
);
  localparam int NumWin = NumPe * NumThreads;
  localparam int WinW   = (NumWin > 1) ? $clog2(NumWin) : 1;
  localparam int EntryW = ssm_pkg::EntryW;
  localparam int RetW   = ssm_pkg::RetW;
  localparam int DmRetw = 0, DmSpill = 1, DmBurst = 2;  // DMA masters (the index is the DMA tag)

  // ---------------------------------------------------------------- registers and commands
  logic                push_valid;
  logic [WinW-1:0]     push_win;
  ssm_pkg::op_t        push_op;
  logic [NumWin-1:0]   full;
  logic                qf_valid, qf_ready;
  ssm_pkg::ret_t       qf_ret;
  logic [NumPe*48-1:0] cpt_base;
  logic [NumPe*32-1:0] cpt_slots;
  logic                ovf_add_valid, ovf_exhausted;
  logic [47:0]         ovf_add_base;
  logic [31:0]         ovf_add_nodes, ovf_bump_left, ovf_free_count, onchip_entries, ovf_entries;
  logic [31:0]         park_events;
  logic                err_valid, op_done;
  ssm_pkg::ret_t       err_ret;

  ssm_csr #(.NumPe(NumPe), .NumThreads(NumThreads), .NumCores(NumCores), .OpqDepth(OpqDepth),
            .HashSets(HashSets), .HashWays(HashWays)) u_csr (
    .clk_i, .rst_ni,
    .mmio_req_valid_i, .mmio_req_ready_o, .mmio_req_write_i, .mmio_req_addr_i, .mmio_req_wdata_i,
    .mmio_rsp_valid_o, .mmio_rsp_rdata_o,
    .push_valid_o    (push_valid),
    .push_win_o      (push_win),
    .push_op_o       (push_op),
    .full_i          (full),
    .qf_valid_o      (qf_valid),
    .qf_ready_i      (qf_ready),
    .qf_ret_o        (qf_ret),
    .cpt_base_o      (cpt_base),
    .cpt_slots_o     (cpt_slots),
    .ovf_add_valid_o (ovf_add_valid),
    .ovf_add_base_o  (ovf_add_base),
    .ovf_add_nodes_o (ovf_add_nodes),
    .ovf_exhausted_i (ovf_exhausted),
    .ovf_bump_left_i (ovf_bump_left),
    .ovf_free_count_i(ovf_free_count),
    .onchip_entries_i(onchip_entries),
    .ovf_entries_i   (ovf_entries),
    .park_events_i   (park_events),
    .err_valid_i     (err_valid),
    .err_ret_i       (err_ret),
    .op_done_i       (op_done),
    .irq_o
  );

  // ---------------------------------------------------------------- queues and scheduler
  logic [NumCores-1:0]      disp_valid, disp_ready, park, done, ho_valid, ho_found, ho_take;
  ssm_pkg::op_t             disp_op;
  logic [WinW-1:0]          disp_win;
  logic [NumCores*WinW-1:0] core_win, ho_win;
  logic [NumCores*48-1:0]   ho_addr;
  logic [NumCores*12-1:0]   ho_ret_offset;
  logic [NumWin-1:0]        parked;
  logic [NumCores:0]        upd_valid_all;      // write broadcasts: cores, then ssm_coll
  logic [(NumCores+1)*48-1:0] upd_addr_all;
  logic                     coll_valid, coll_ready;
  logic [1:0]               ext_done;
  logic [2*WinW-1:0]        ext_win;

  ssm_opq #(.NumPe(NumPe), .NumThreads(NumThreads), .NumCores(NumCores), .OpqDepth(OpqDepth),
            .NumExt(2), .NumUpd(NumCores + 1)) u_opq (
    .clk_i, .rst_ni,
    .push_valid_i   (push_valid),
    .push_win_i     (push_win),
    .push_op_i      (push_op),
    .full_o         (full),
    .disp_valid_o   (disp_valid),
    .disp_ready_i   (disp_ready),
    .disp_op_o      (disp_op),
    .disp_win_o     (disp_win),
    .coll_valid_o   (coll_valid),
    .coll_ready_i   (coll_ready),
    .ext_done_i     (ext_done),
    .ext_win_i      (ext_win),
    .park_i         (park),
    .done_i         (done),
    .win_i          (core_win),
    .ho_valid_i     (ho_valid),
    .ho_addr_i      (ho_addr),
    .ho_found_o     (ho_found),
    .ho_win_o       (ho_win),
    .ho_ret_offset_o(ho_ret_offset),
    .ho_take_i      (ho_take),
    .upd_valid_i    (upd_valid_all),
    .upd_addr_i     (upd_addr_all),
    .parked_o       (parked),
    .park_events_o  (park_events)
  );

  // ---------------------------------------------------------------- processing cores
  // Hash clients: the cores, then ssm_coll. Return sources: the cores, queue-full errors,
  // ssm_coll, ssm_burst.
  localparam int NumHc = NumCores + 1, NumRs = NumCores + 3;
  logic [NumHc-1:0]        lk_valid, lk_ready, lk_rsp_valid, lk_hit, cm_valid, cm_write, cm_ready;
  logic [NumHc*48-1:0]     lk_addr;
  logic [NumHc*EntryW-1:0] lk_entry, cm_entry;
  logic [NumRs-1:0]        ret_valid, ret_ready;
  logic [NumRs*RetW-1:0]   ret;

  for (genvar c = 0; c < NumCores; c++) begin : g_core
    ssm_core #(.NumPe(NumPe), .NumThreads(NumThreads)) u_core (
      .clk_i, .rst_ni,
      .disp_valid_i   (disp_valid[c]),
      .disp_ready_o   (disp_ready[c]),
      .disp_op_i      (disp_op),
      .disp_win_i     (disp_win),
      .cpt_slots_i    (cpt_slots),
      .lk_valid_o     (lk_valid[c]),
      .lk_ready_i     (lk_ready[c]),
      .lk_addr_o      (lk_addr[c*48 +: 48]),
      .lk_rsp_valid_i (lk_rsp_valid[c]),
      .lk_hit_i       (lk_hit[c]),
      .lk_entry_i     (lk_entry[c*EntryW +: EntryW]),
      .cm_valid_o     (cm_valid[c]),
      .cm_write_o     (cm_write[c]),
      .cm_entry_o     (cm_entry[c*EntryW +: EntryW]),
      .cm_ready_i     (cm_ready[c]),
      .park_o         (park[c]),
      .done_o         (done[c]),
      .win_o          (core_win[c*WinW +: WinW]),
      .ho_valid_o     (ho_valid[c]),
      .ho_addr_o      (ho_addr[c*48 +: 48]),
      .ho_found_i     (ho_found[c]),
      .ho_win_i       (ho_win[c*WinW +: WinW]),
      .ho_ret_offset_i(ho_ret_offset[c*12 +: 12]),
      .ho_take_o      (ho_take[c]),
      .ret_valid_o    (ret_valid[c]),
      .ret_ready_i    (ret_ready[c]),
      .ret_o          (ret[c*RetW +: RetW])
    );
  end
  assign ret_valid[NumCores]            = qf_valid;
  assign qf_ready                       = ret_ready[NumCores];
  assign ret[NumCores*RetW +: RetW]     = qf_ret;

  // ---------------------------------------------------------------- collectives
  logic         bu_valid, bu_ready;
  logic [WinW-1:0] bu_win;
  logic [11:0]  bu_ret_offset;
  logic [47:0]  bu_src, bu_dest;
  logic [31:0]  bu_len;
  logic [1:0]   bu_type, bu_op;
  logic [7:0]   bu_group;
  logic         coll_done;
  logic [WinW-1:0] coll_done_win;
  ssm_pkg::ret_t coll_ret, burst_ret;

  ssm_coll #(.NumPe(NumPe), .NumThreads(NumThreads), .Slots(CollSlots)) u_coll (
    .clk_i, .rst_ni,
    .in_valid_i     (coll_valid),
    .in_ready_o     (coll_ready),
    .in_op_i        (disp_op),
    .in_win_i       (disp_win),
    .cpt_slots_i    (cpt_slots),
    .ret_valid_o    (ret_valid[NumCores+1]),
    .ret_ready_i    (ret_ready[NumCores+1]),
    .ret_o          (coll_ret),
    .done_o         (coll_done),
    .done_win_o     (coll_done_win),
    .bu_valid_o     (bu_valid),
    .bu_ready_i     (bu_ready),
    .bu_win_o       (bu_win),
    .bu_ret_offset_o(bu_ret_offset),
    .bu_src_o       (bu_src),
    .bu_dest_o      (bu_dest),
    .bu_len_o       (bu_len),
    .bu_type_o      (bu_type),
    .bu_op_o        (bu_op),
    .bu_group_o     (bu_group),
    .lk_valid_o     (lk_valid[NumCores]),
    .lk_ready_i     (lk_ready[NumCores]),
    .lk_addr_o      (lk_addr[NumCores*48 +: 48]),
    .lk_rsp_valid_i (lk_rsp_valid[NumCores]),
    .lk_hit_i       (lk_hit[NumCores]),
    .lk_entry_i     (lk_entry[NumCores*EntryW +: EntryW]),
    .cm_valid_o     (cm_valid[NumCores]),
    .cm_write_o     (cm_write[NumCores]),
    .cm_entry_o     (cm_entry[NumCores*EntryW +: EntryW]),
    .cm_ready_i     (cm_ready[NumCores]),
    .gsn_up_valid_o,
    .gsn_up_ready_i,
    .gsn_up_msg_o,
    .gsn_dn_valid_i,
    .gsn_dn_ready_o,
    .gsn_dn_msg_i
  );
  assign ret[(NumCores+1)*RetW +: RetW] = coll_ret;

  logic         bu_dma_valid, bu_dma_ready, bu_dma_write;
  logic [47:0]  bu_dma_addr;
  logic [5:0]   bu_dma_len;
  logic [255:0] bu_dma_wdata;
  ssm_burst #(.NumPe(NumPe), .NumThreads(NumThreads), .Slots(BurstSlots)) u_burst (
    .clk_i, .rst_ni,
    .in_valid_i     (bu_valid),
    .in_ready_o     (bu_ready),
    .in_win_i       (bu_win),
    .in_ret_offset_i(bu_ret_offset),
    .in_src_i       (bu_src),
    .in_dest_i      (bu_dest),
    .in_len_i       (bu_len),
    .in_type_i      (bu_type),
    .in_op_i        (bu_op),
    .in_group_i     (bu_group),
    .ret_valid_o    (ret_valid[NumCores+2]),
    .ret_ready_i    (ret_ready[NumCores+2]),
    .ret_o          (burst_ret),
    .dma_req_valid_o(bu_dma_valid),
    .dma_req_ready_i(bu_dma_ready),
    .dma_req_write_o(bu_dma_write),
    .dma_req_addr_o (bu_dma_addr),
    .dma_req_len_o  (bu_dma_len),
    .dma_req_wdata_o(bu_dma_wdata),
    .dma_rsp_valid_i(dm_rsp_valid[DmBurst]),
    .dma_rsp_rdata_i(dm_rsp_rdata)
  );
  assign ret[(NumCores+2)*RetW +: RetW] = burst_ret;

  // A collective participant's operation leaves its FIFO when its answer is taken.
  assign ext_done[0]           = coll_done;
  assign ext_win[0 +: WinW]    = coll_done_win;
  assign ext_done[1]           = ret_valid[NumCores+2] && ret_ready[NumCores+2];
  assign ext_win[WinW +: WinW] = WinW'(32'(burst_ret.pe) * NumThreads + 32'(burst_ret.thread));

  // ---------------------------------------------------------------- hash table
  logic         sp_dma_valid, sp_dma_ready, sp_dma_write;
  logic [47:0]  sp_dma_addr;
  logic [5:0]   sp_dma_len;
  logic [255:0] sp_dma_wdata;

  ssm_hash #(.NumClients(NumHc), .HashSets(HashSets), .HashWays(HashWays), .HashBanks(HashBanks)) u_hash (
    .clk_i, .rst_ni,
    .lk_valid_i      (lk_valid),
    .lk_ready_o      (lk_ready),
    .lk_addr_i       (lk_addr),
    .lk_rsp_valid_o  (lk_rsp_valid),
    .lk_hit_o        (lk_hit),
    .lk_entry_o      (lk_entry),
    .cm_valid_i      (cm_valid),
    .cm_write_i      (cm_write),
    .cm_entry_i      (cm_entry),
    .cm_ready_o      (cm_ready),
    .upd_valid_o     (upd_valid_all),
    .upd_addr_o      (upd_addr_all),
    .dma_req_valid_o (sp_dma_valid),
    .dma_req_ready_i (sp_dma_ready),
    .dma_req_write_o (sp_dma_write),
    .dma_req_addr_o  (sp_dma_addr),
    .dma_req_len_o   (sp_dma_len),
    .dma_req_wdata_o (sp_dma_wdata),
    .dma_rsp_valid_i (dm_rsp_valid[DmSpill]),
    .dma_rsp_rdata_i (dm_rsp_rdata),
    .ovf_add_valid_i (ovf_add_valid),
    .ovf_add_base_i  (ovf_add_base),
    .ovf_add_nodes_i (ovf_add_nodes),
    .ovf_exhausted_o (ovf_exhausted),
    .ovf_bump_left_o (ovf_bump_left),
    .ovf_free_count_o(ovf_free_count),
    .onchip_entries_o(onchip_entries),
    .ovf_entries_o   (ovf_entries)
  );

  // ---------------------------------------------------------------- return writer
  logic         rw_dma_valid, rw_dma_ready;
  logic [47:0]  rw_dma_addr;
  logic [255:0] rw_dma_wdata;

  ssm_retw #(.NumPe(NumPe), .NumSrc(NumRs)) u_retw (
    .clk_i, .rst_ni,
    .ret_valid_i    (ret_valid),
    .ret_ready_o    (ret_ready),
    .ret_i          (ret),
    .cpt_base_i     (cpt_base),
    .cpt_slots_i    (cpt_slots),
    .dma_req_valid_o(rw_dma_valid),
    .dma_req_ready_i(rw_dma_ready),
    .dma_req_addr_o (rw_dma_addr),
    .dma_req_wdata_o(rw_dma_wdata),
    .err_valid_o    (err_valid),
    .err_ret_o      (err_ret),
    .done_o         (op_done)
  );

  // ---------------------------------------------------------------- DMA port: round-robin
  // Masters DmRetw (the return writer: writes only), DmSpill, DmBurst through cmn_dma_arb: a
  // request the host memory did not take stays on the port unchanged; the master index is the DMA
  // tag (the masters add no tag bits of their own), so a response goes back to the master that asked.
  localparam int NumDm  = 3;
  localparam int DmReqW = 1 + 48 + 6 + 256;  // {write, addr, len, wdata}
  logic [NumDm-1:0]        dm_valid, dm_ready, dm_rsp_valid;
  logic [NumDm*DmReqW-1:0] dm_req;
  logic [1:0]              dm_rsp_tag;
  logic [255:0]            dm_rsp_rdata;
  logic                    dm_last;
  assign dm_valid[DmRetw]                  = rw_dma_valid;
  assign dm_req[DmRetw*DmReqW +: DmReqW]   = {1'b1, rw_dma_addr, 6'd16, rw_dma_wdata};
  assign rw_dma_ready                      = dm_ready[DmRetw];
  assign dm_valid[DmSpill]                 = sp_dma_valid;
  assign dm_req[DmSpill*DmReqW +: DmReqW]  = {sp_dma_write, sp_dma_addr, sp_dma_len, sp_dma_wdata};
  assign sp_dma_ready                      = dm_ready[DmSpill];
  assign dm_valid[DmBurst]                 = bu_dma_valid;
  assign dm_req[DmBurst*DmReqW +: DmReqW]  = {bu_dma_write, bu_dma_addr, bu_dma_len, bu_dma_wdata};
  assign bu_dma_ready                      = dm_ready[DmBurst];
  // AdvanceOnStall = 0: the arbitration the engine was built and measured with (cmn_dma_arb).
  cmn_dma_arb #(.N(NumDm), .ReqW(DmReqW), .MTagW(2), .RspW(256), .AdvanceOnStall(1'b0)) u_dma_arb (
    .clk_i, .rst_ni,
    .req_valid_i(dm_valid),
    .req_ready_o(dm_ready),
    .req_data_i (dm_req),
    .req_tag_i  ('0),
    .req_last_i ('1),
    .rsp_valid_o(dm_rsp_valid),
    .rsp_ready_i('1),
    .rsp_tag_o  (dm_rsp_tag),
    .rsp_data_o (dm_rsp_rdata),
    .req_valid_o(dma_req_valid_o),
    .req_ready_i(dma_req_ready_i),
    .req_data_o ({dma_req_write_o, dma_req_addr_o, dma_req_len_o, dma_req_wdata_o}),
    .req_tag_o  (dma_req_tag_o),
    .req_last_o (dm_last),
    .rsp_valid_i(dma_rsp_valid_i),
    .rsp_ready_o(dma_rsp_ready_o),
    .rsp_tag_i  (dma_rsp_tag_i),
    .rsp_data_i (dma_rsp_rdata_i)
  );

  logic unused;
  assign unused = ^{parked, dm_rsp_valid[DmRetw], dm_rsp_tag, dm_last};

`ifndef SYNTHESIS
  // The cycle counter of the waveforms (simulation only, no outputs).
  cmn_sim_cycle u_cycle (.clk_i);
`endif

`ifndef SYNTHESIS
  // Assertions: DMA requests never cross a 32-byte boundary; reads only by spill and burst.
  always_ff @(posedge clk_i) if (rst_ni) begin
    if (dma_req_valid_o)
      assert (dma_req_len_o != 0 && dma_req_len_o <= 32 &&
              (32'(dma_req_addr_o[4:0]) + 32'(dma_req_len_o)) <= 32)
        else $error("ssm_top: DMA request crosses a 32-byte boundary");
    if (dma_rsp_valid_i) assert (dma_rsp_tag_i == 4'(DmSpill) || dma_rsp_tag_i == 4'(DmBurst))
      else $error("ssm_top: stray DMA response");
  end
  // The port's valid/ready rule and the masters' are checked in cmn_dma_arb.
  initial begin
    if ($bits(ssm_pkg::entry_t) != ssm_pkg::EntryW || $bits(ssm_pkg::op_t) != ssm_pkg::OpW ||
        $bits(ssm_pkg::ret_t) != ssm_pkg::RetW || $bits(ssm_pkg::spill_req_t) != ssm_pkg::SpillReqW ||
        $bits(ssm_pkg::spill_rsp_t) != ssm_pkg::SpillRspW)
      $fatal(1, "ssm_pkg: a structure width constant is stale");
  end
  ssm_pkg::op_t layout_probe;
  always_comb begin
    layout_probe = '0;
    layout_probe.opcode = 4'hf;
    layout_probe.addr = 48'h1;
    layout_probe.ret_offset = 12'h1;
  end
  always_ff @(posedge clk_i)
    assert (layout_probe == (ssm_pkg::OpW'(4'hf) << ssm_pkg::OpOpcodeLsb |
                             ssm_pkg::OpW'(1) << ssm_pkg::OpAddrLsb | ssm_pkg::OpW'(1) << ssm_pkg::OpRetOffsetLsb))
      else $fatal(1, "ssm_pkg: op_t field positions are stale");
`endif
endmodule
