// nic_att: the NIC's address translation and protection unit (paper 2.2, SPEC section 6 ATT). A
// region table (on-chip SRAM, NumKeys entries: base, length, rights, owner VP, ATT base) and the
// ATT (NIC-attached DRAM, 2^AttLog2 physical page numbers of 4 KB pages, AttLat cycles a read)
// turn a lookup {vp, vaddr (KEY, ADDR), len, write, phys, phys_ok} into {status, paddr}.
//   Check     : in this order, the first failing one gives the status (paddr 0 on any error):
//               phys: PHYS_DENIED without phys_ok, else OK with paddr = ADDR (no ATT read);
//               KEY >= NumKeys or the entry not VALID: BAD_KEY; OWNER_VP != vp: NOT_OWNER;
//               len = 0, ADDR < base or ADDR + len > base + length (computed in 49 bits, no
//               overflow): RANGE; the READ (write = 0) or WRITE (write = 1) right missing: PERM;
//               ATT index = ATT_BASE + (ADDR >> 12) - (base >> 12) >= 2^AttLog2: RANGE; else OK
//               with paddr = {ATT[index], ADDR[11:0]}. A region's pages are the 4 KB pages it
//               touches, registered in virtual order from ATT_BASE (its base may be any byte).
//   Lookups   : Clients valid/ready ports (req_*), fields of client c at [c*W +: W]. A round-robin
//               arbiter (cmn_rr_arb) accepts one lookup a cycle among the clients that request
//               and have room; req_ready_o is one-hot or zero and depends combinationally on
//               req_valid_i (of all clients), never on rsp_ready_i. A request shown must hold its
//               fields until accepted (asserted).
//   Responses : per client a valid/ready port (rsp_*), in request order, from a buffer of
//               RspDepth = AttLat + 4 entries; a client's request is accepted only while its
//               buffer has room for all of the client's lookups in flight, so a response not
//               taken is never lost and never blocks another client. Outputs are registered.
//   Latency   : AttLat + 3 cycles: a lookup accepted in cycle t (req_valid && req_ready) has its
//               response valid from cycle t + AttLat + 3 (t+1: region table data; t+2: checks
//               registered, ATT read issued; t+2+AttLat: ATT data, response written into the
//               buffer). Errors and phys lookups take the same path, so order is kept.
//   Throughput: one lookup a cycle in total (any mix of clients), sustained by a single client
//               when its rsp_ready stays high; AttLat + 3 lookups in flight.
//   Config    : key_we_i commits region table entry key_sel_i (base, length, and the KEY_CTRL
//               fields of nic_formats_pkg; key_sel_i >= NumKeys is ignored); att_we_i writes ATT
//               entry att_index_i (>= 2^AttLog2 ignored). Both may come at any time. A lookup
//               accepted in cycle t sees the region entry as written by the writes of cycles
//               before t (not a write in cycle t itself) and the ATT as written by the writes of
//               cycles before t + 2 (not one in cycle t + 2 or later).
//   Fence     : key_fence_o marks a commit of a key that was VALID (deregistered or changed): a
//               lookup accepted in the commit cycle or before may have translated with the old
//               entry, and nic_inval withdraws such translations from the units that hold them.
//   Reset     : clears VALID of every key (a flop per key). The region table and the ATT keep
//               their contents (SRAM, DRAM; not reset). A lookup uses a region entry only when
//               VALID, and an ATT entry only when every check passed, i.e. in a page of a
//               registered region, whose ATT entries the driver writes before it commits the key.
//               An ATT entry never written reads 0 in the Verilated models (--x-initial fast
//               zeroes memories; simulation never sees X); in silicon it is whatever the DRAM holds.
// Parameters: NumVp: VPs (1..32; vp < NumVp asserted). NumKeys: region table entries (1..65536).
//   AttLog2: log2 of the ATT entries (1..30). AttLat: cycles of an ATT read, request to data
//   (>= 1). Clients: lookup ports (>= 1).
module nic_att #(
  parameter int NumVp   = 32,
  parameter int NumKeys = 1024,  // region table entries (keys 0..NumKeys-1)
  parameter int AttLog2 = 16,    // ATT entries = 2^AttLog2 (the paper's 256 MB DRAM holds 2^25; the model's default is smaller)
  parameter int AttLat  = 24,    // cycles of an ATT (NIC DRAM) read, request to data
  parameter int Clients = 4      // lookup ports
) (
  input  logic clk_i, rst_ni,
  // configuration from the register block (privileged page: KEY_SEL/KEY_BASE/KEY_LEN/KEY_CTRL, ATT_INDEX/ATT_DATA)
  input  logic        key_we_i,     // commit one region table entry
  input  logic [15:0] key_sel_i,
  input  logic [47:0] key_base_i,   // first virtual byte of the region
  input  logic [39:0] key_len_i,    // region bytes
  input  logic [63:0] key_ctrl_i,   // KEY_CTRL fields: VALID, READ, WRITE, OWNER_VP, ATT_BASE (nic_formats_pkg)
  input  logic        att_we_i,     // write one ATT entry
  input  logic [31:0] att_index_i,
  input  logic [35:0] att_ppn_i,    // physical page number (physical address >> 12)
  output logic        key_fence_o,  // key_we_i commits a key that was VALID: its old translations need a fence (nic_inval)
  // lookups, Clients ports; responses in request order per port
  input  logic [Clients-1:0]    req_valid_i,
  output logic [Clients-1:0]    req_ready_o,
  input  logic [Clients*5-1:0]  req_vp_i,
  input  logic [Clients*64-1:0] req_addr_i,    // nic vaddr format: {KEY[63:48], ADDR[47:0]}
  input  logic [Clients*32-1:0] req_len_i,     // bytes the access covers from ADDR
  input  logic [Clients-1:0]    req_write_i,   // 1: needs the WRITE right, 0: READ
  input  logic [Clients-1:0]    req_phys_i,    // ADDR is physical (no translation)
  input  logic [Clients-1:0]    req_phys_ok_i, // the VP may use physical addresses
  output logic [Clients-1:0]    rsp_valid_o,
  input  logic [Clients-1:0]    rsp_ready_i,
  output logic [Clients*8-1:0]  rsp_status_o,  // nic status codes
  output logic [Clients*48-1:0] rsp_paddr_o    // physical address of ADDR (0 on error)
);
  // Parameter checks
  if (NumVp < 1 || NumVp > 32) begin : gen_err_vp
    $error("nic_att: NumVp must be 1..32");
  end
  if (NumKeys < 1 || NumKeys > 65536) begin : gen_err_keys
    $error("nic_att: NumKeys must be 1..65536");
  end
  if (AttLog2 < 1 || AttLog2 > 30) begin : gen_err_att
    $error("nic_att: AttLog2 must be 1..30");
  end
  if (AttLat < 1) begin : gen_err_lat
    $error("nic_att: AttLat must be >= 1");
  end
  if (Clients < 1) begin : gen_err_clients
    $error("nic_att: Clients must be >= 1");
  end

  localparam int KeyW     = (NumKeys > 1) ? $clog2(NumKeys) : 1;
  localparam int CliW     = (Clients > 1) ? $clog2(Clients) : 1;
  localparam int AttN     = 1 << AttLog2;
  localparam int RspDepth = AttLat + 4;              // a client's buffer: its lookups in flight
  localparam int OccW     = $clog2(RspDepth + 1);
  localparam int TblW     = 48 + 40 + 1 + 1 + 5 + 32;  // base, length, READ, WRITE, OWNER_VP, ATT_BASE
  localparam int RspW     = 8 + 48;                  // status, paddr
  localparam int CtxW     = CliW + 8 + 1 + 48;       // client, status, use the ATT, paddr (or its offset)
  localparam int PipeW    = AttLat * CtxW;

  // KEY_CTRL fields (nic_formats_pkg)
  localparam int VldLsb = nic_formats_pkg::NIC_KEY_CTRL_VALID_LSB;
  localparam int RdLsb  = nic_formats_pkg::NIC_KEY_CTRL_READ_LSB;
  localparam int WrLsb  = nic_formats_pkg::NIC_KEY_CTRL_WRITE_LSB;
  localparam int OwnLsb = nic_formats_pkg::NIC_KEY_CTRL_OWNER_VP_LSB;
  localparam int AbLsb  = nic_formats_pkg::NIC_KEY_CTRL_ATT_BASE_LSB;

  // ---------------------------------------------------------------- accept (cycle t)
  logic [4:0]  c_vp   [Clients];
  logic [63:0] c_addr [Clients];
  logic [31:0] c_len  [Clients];
  for (genvar c = 0; c < Clients; c++) begin : g_in
    assign c_vp[c]   = req_vp_i[c*5 +: 5];
    assign c_addr[c] = req_addr_i[c*64 +: 64];
    assign c_len[c]  = req_len_i[c*32 +: 32];
  end

  logic [Clients-1:0] room, arb_req, arb_gnt;
  logic               acc;
  logic [CliW-1:0]    acc_cli;
  assign arb_req = req_valid_i & room;
  cmn_rr_arb #(.N(Clients)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (arb_req),
    .advance_i(acc),
    .gnt_o    (arb_gnt),
    .valid_o  (acc),
    .idx_o    (acc_cli)
  );
  assign req_ready_o = arb_gnt;

  nic_formats_pkg::vaddr_t a_va;
  logic                    a_key_ok;
  logic [KeyW-1:0]         a_key;
  assign a_va     = c_addr[acc_cli];
  assign a_key_ok = 32'(a_va.key) < NumKeys;
  assign a_key    = a_key_ok ? KeyW'(a_va.key) : '0;

  // ---------------------------------------------------------------- region table
  // VALID in flops (reset), the rest in a 1-write 1-read SRAM read at the accept edge (a write in
  // the same cycle is not seen: read before write).
  logic               tbl_we;
  logic [KeyW-1:0]    tbl_waddr;
  logic [TblW-1:0]    tbl_mem [NumKeys];
  logic [TblW-1:0]    tbl_rd_q;
  logic [NumKeys-1:0] kvalid_q;
  assign tbl_we    = key_we_i && 32'(key_sel_i) < NumKeys;
  assign tbl_waddr = KeyW'(key_sel_i);
  assign key_fence_o = tbl_we && kvalid_q[tbl_waddr];

  always_ff @(posedge clk_i) begin
    if (tbl_we) tbl_mem[tbl_waddr] <= {key_base_i, key_len_i, key_ctrl_i[RdLsb], key_ctrl_i[WrLsb],
                                       key_ctrl_i[OwnLsb +: 5], key_ctrl_i[AbLsb +: 32]};
    if (acc) tbl_rd_q <= tbl_mem[a_key];
  end
  // The write enable of each VALID flop from a two-level decode of the key (one AND a key).
  localparam int LoW = (KeyW + 1) / 2, HiW = KeyW - LoW;
  logic [(1 << LoW)-1:0] dec_lo;
  logic [(1 << HiW)-1:0] dec_hi;
  assign dec_lo = (1 << LoW)'(1) << tbl_waddr[LoW-1:0];
  if (HiW > 0) begin : g_dec_hi
    assign dec_hi = tbl_we ? (1 << HiW)'(1) << tbl_waddr[KeyW-1:LoW] : '0;
  end else begin : g_dec_hi1
    assign dec_hi = tbl_we;
  end
  for (genvar k = 0; k < NumKeys; k++) begin : g_kvalid
    always_ff @(posedge clk_i) begin
      if (!rst_ni)                                      kvalid_q[k] <= 1'b0;
      else if (dec_hi[k >> LoW] && dec_lo[k % (1 << LoW)]) kvalid_q[k] <= key_ctrl_i[VldLsb];
    end
  end

  // ---------------------------------------------------------------- stage 1 (t+1): checks
  logic                    s1_v_q, s1_key_ok_q, s1_kvalid_q, s1_write_q, s1_phys_q, s1_phys_ok_q;
  logic [CliW-1:0]         s1_cli_q;
  logic [4:0]              s1_vp_q;
  logic [47:0]             s1_addr_q;
  logic [31:0]             s1_len_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) s1_v_q <= 1'b0;
    else         s1_v_q <= acc;
  end
  always_ff @(posedge clk_i) begin
    if (acc) begin
      s1_cli_q     <= acc_cli;
      s1_vp_q      <= c_vp[acc_cli];
      s1_addr_q    <= a_va.addr;
      s1_len_q     <= c_len[acc_cli];
      s1_write_q   <= req_write_i[acc_cli];
      s1_phys_q    <= req_phys_i[acc_cli];
      s1_phys_ok_q <= req_phys_ok_i[acc_cli];
      s1_key_ok_q  <= a_key_ok;
      s1_kvalid_q  <= kvalid_q[a_key];
    end
  end

  logic [47:0] e_base;
  logic [39:0] e_len;
  logic        e_rd, e_wr;
  logic [4:0]  e_owner;
  logic [31:0] e_attb;
  assign {e_base, e_len, e_rd, e_wr, e_owner, e_attb} = tbl_rd_q;

  logic [48:0]        end_req, end_reg;  // one past the last byte, 49 bits: no overflow
  logic [35:0]        pdiff;             // pages from the region's first page to ADDR's
  logic [36:0]        idx_w;             // ATT index before the range check
  logic               in_range, has_right, idx_ok;
  logic [7:0]         s1_st;
  logic               s1_use;
  logic [47:0]        s1_pa;
  assign end_req   = {1'b0, s1_addr_q} + 49'(s1_len_q);
  assign end_reg   = {1'b0, e_base} + 49'(e_len);
  assign in_range  = s1_len_q != '0 && s1_addr_q >= e_base && end_req <= end_reg;
  assign has_right = s1_write_q ? e_wr : e_rd;
  assign pdiff     = s1_addr_q[47:12] - e_base[47:12];
  assign idx_w     = 37'(e_attb) + 37'(pdiff);
  assign idx_ok    = (idx_w >> AttLog2) == '0;

  always_comb begin
    s1_st  = nic_formats_pkg::NIC_STATUS_OK;
    s1_use = 1'b0;
    s1_pa  = '0;
    if (s1_phys_q) begin
      if (!s1_phys_ok_q) s1_st = nic_formats_pkg::NIC_STATUS_PHYS_DENIED;
      else               s1_pa = s1_addr_q;
    end else if (!s1_key_ok_q || !s1_kvalid_q) begin
      s1_st = nic_formats_pkg::NIC_STATUS_BAD_KEY;
    end else if (e_owner != s1_vp_q) begin
      s1_st = nic_formats_pkg::NIC_STATUS_NOT_OWNER;
    end else if (!in_range) begin
      s1_st = nic_formats_pkg::NIC_STATUS_RANGE;
    end else if (!has_right) begin
      s1_st = nic_formats_pkg::NIC_STATUS_PERM;
    end else if (!idx_ok) begin
      s1_st = nic_formats_pkg::NIC_STATUS_RANGE;
    end else begin
      s1_use = 1'b1;
      s1_pa  = {36'b0, s1_addr_q[11:0]};
    end
  end

  // ---------------------------------------------------------------- stage 2 (t+2): ATT read
  logic                s2_v_q, s2_use_q;
  logic [CtxW-1:0]     s2_ctx_q;
  logic [AttLog2-1:0]  s2_idx_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) s2_v_q <= 1'b0;
    else         s2_v_q <= s1_v_q;
  end
  always_ff @(posedge clk_i) begin
    if (s1_v_q) begin
      s2_ctx_q <= {s1_cli_q, s1_st, s1_use, s1_pa};
      s2_use_q <= s1_use;
      s2_idx_q <= idx_w[AttLog2-1:0];
    end
  end

  // The ATT: a 1-write 1-read memory read at the issue edge (an ATT write in the same cycle is
  // not seen), its data delayed AttLat - 1 more cycles (the DRAM's latency, pipelined).
  logic [35:0] att_mem [AttN];
  logic [35:0] att_rd_q, att_data;
  always_ff @(posedge clk_i) begin
    if (att_we_i && (att_index_i >> AttLog2) == '0) att_mem[att_index_i[AttLog2-1:0]] <= att_ppn_i;
    if (s2_v_q && s2_use_q) att_rd_q <= att_mem[s2_idx_q];
  end
  if (AttLat > 1) begin : g_dpipe
    localparam int DpW = (AttLat - 1) * 36;
    logic [DpW-1:0] dp_q;  // stage k (k = 0..AttLat-2): the data read k+2 cycles ago
    always_ff @(posedge clk_i) dp_q <= DpW'({dp_q, att_rd_q});
    assign att_data = dp_q[(AttLat-2)*36 +: 36];
  end else begin : g_dnopipe
    assign att_data = att_rd_q;
  end

  // The lookups' context, in step with the ATT data: stage k holds the lookup issued k+1 cycles ago.
  logic [AttLat-1:0] p_v_q;
  logic [PipeW-1:0]  p_ctx_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) p_v_q <= '0;
    else         p_v_q <= AttLat'({p_v_q, s2_v_q});
  end
  always_ff @(posedge clk_i) p_ctx_q <= PipeW'({p_ctx_q, s2_ctx_q});

  logic            o_v, o_use;
  logic [CliW-1:0] o_cli;
  logic [7:0]      o_st;
  logic [47:0]     o_pa, o_paddr;
  assign o_v = p_v_q[AttLat-1];
  assign {o_cli, o_st, o_use, o_pa} = p_ctx_q[(AttLat-1)*CtxW +: CtxW];
  assign o_paddr = o_use ? {att_data, o_pa[11:0]} : o_pa;

  // ---------------------------------------------------------------- response buffers (t+2+AttLat)
  logic [Clients-1:0] f_push, f_ready;
  for (genvar c = 0; c < Clients; c++) begin : g_rsp
    logic [RspW-1:0] f_data;
    logic [OccW-1:0] f_count, occ_q;  // occ: accepted, not yet taken by the client
    logic            inc, dec;
    assign f_push[c] = o_v && o_cli == CliW'(c);
    cmn_fifo #(.Width(RspW), .Depth(RspDepth)) u_buf (
      .clk_i, .rst_ni,
      .valid_i(f_push[c]), .ready_o(f_ready[c]), .data_i({o_st, o_paddr}),
      .valid_o(rsp_valid_o[c]), .ready_i(rsp_ready_i[c]), .data_o(f_data), .count_o(f_count)
    );
    assign rsp_status_o[c*8 +: 8]   = f_data[RspW-1 -: 8];
    assign rsp_paddr_o[c*48 +: 48]  = f_data[47:0];
    assign inc     = acc && acc_cli == CliW'(c);
    assign dec     = rsp_valid_o[c] && rsp_ready_i[c];
    assign room[c] = occ_q < OccW'(RspDepth);
    always_ff @(posedge clk_i) begin
      if (!rst_ni)         occ_q <= '0;
      else if (inc && !dec) occ_q <= occ_q + OccW'(1);
      else if (dec && !inc) occ_q <= occ_q - OccW'(1);
    end
`ifndef SYNTHESIS
    a_occ: assert property (@(posedge clk_i) disable iff (!rst_ni)
        occ_q <= OccW'(RspDepth) && f_count <= occ_q);
    // Valid/ready rule at the lookup port: a request not taken stays, unchanged.
    a_req_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
        req_valid_i[c] && !req_ready_o[c] |=> req_valid_i[c] && $stable({req_vp_i[c*5 +: 5],
        req_addr_i[c*64 +: 64], req_len_i[c*32 +: 32], req_write_i[c], req_phys_i[c], req_phys_ok_i[c]}));
    a_vp: assert property (@(posedge clk_i) disable iff (!rst_ni)
        req_valid_i[c] |-> 32'(req_vp_i[c*5 +: 5]) < NumVp);
`endif
  end

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({req_valid_i, rsp_ready_i, key_we_i, att_we_i}));
  a_one: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(req_ready_o));
  a_ready_valid: assert property (@(posedge clk_i) disable iff (!rst_ni) (req_ready_o & ~req_valid_i) == '0);
  // A response always finds room in its buffer (the accept rule reserved it).
  a_room: assert property (@(posedge clk_i) disable iff (!rst_ni) (f_push & ~f_ready) == '0);
  // (an immediate assertion: a concurrent one samples the wide pipeline register, and Verilator
  // 5.006 then emits a copy loop whose index it does not declare)
  always_ff @(posedge clk_i) begin
    if (rst_ni && o_v) a_cli: assert (32'(o_cli) < Clients) else $error("nic_att: response for client %0d", o_cli);
  end
`endif
endmodule
