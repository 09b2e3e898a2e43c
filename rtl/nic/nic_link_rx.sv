// nic_link_rx: the receiving half of the NIC's link layer (docs/nic.md, paper section 3): a buffer
// of BufPkts packets per virtual channel, packets released whole, credits returned to the sender
// (nic_link_tx) as packets leave.
//   Link      : link_valid_i with a flit, its VC, head (first flit of a packet) and tail (last
//               flit). No ready: the sender holds a credit for every packet it sends. Each VC's
//               packets arrive whole and in order (PktFlits flits: head first, tail on the
//               PktFlits-th flit), flits of different VCs interleaved in any way. A flit finding
//               its VC's buffer full, a head inside a packet, a body flit or tail without a head,
//               and a tail anywhere but on the PktFlits-th flit (or none there) are protocol
//               errors: assertions in simulation; in hardware the flit is not written (the next
//               issue turns these into dirty-packet drops).
//   Buffer    : per VC a memory of BufPkts * PktFlits flits (one write and one synchronous read
//               port, an SRAM macro), written at the link's rate. A packet is released to the
//               output only once its tail is in (store and forward: a packet found dirty at its
//               tail will be dropped by rewinding the write pointer to the last released packet,
//               before any of its flits has left).
//   Out       : one packet stream per VC (valid/ready), independent of each other: a VC whose
//               output is stalled never delays another. out_last_o on each packet's last flit.
//               All out_* outputs are registered (the memory's read register).
//   Credits   : cred_valid_o/cred_vc_o: one packet slot of VC cred_vc_o freed. A credit is due
//               when a packet's last flit has left the buffer (out_valid_o && out_ready_i &&
//               out_last_o); due credits queue per VC and leave one a cycle, round-robin over
//               the VCs. Outputs combinational from registers only (no path from any input).
//   Latency   : a packet whose tail is on the link at cycle t shows its head flit on out_valid_o
//               at cycle t+2 (tail written at t, head read from the memory at t+1), its further
//               flits at one a cycle while out_ready_i is high; a packet sent back to back thus
//               reaches out_valid_o PktFlits+1 cycles after its head flit was on the link. The
//               credit of a packet whose last flit leaves at cycle t is on cred_valid_o at t+1
//               (later only when other VCs' credits are queued before it).
//   Throughput: one flit per cycle in; one flit per cycle per VC out.
// Link errors (next issue) slot in before the buffer write: the CRC-16 check of each packet runs
// over its flits there, and a dirty packet is dropped at its tail instead of being released.
// Parameters: Vcs: virtual channels (>= 1). PktFlits: flits per packet (>= 2). BufPkts: buffer per
//   VC in packets (>= 1; the sender's Credits). VcW, FlitW and the widths below derived.
module nic_link_rx #(
  parameter int  Vcs      = 2,
  parameter int  PktFlits = 5,
  parameter int  BufPkts  = 4,
  localparam int VcW      = (Vcs > 1) ? $clog2(Vcs) : 1,         // derived, do not override
  localparam int FlitW    = nic_formats_pkg::NIC_PKT_HEAD_BITS,  // 256: a flit is a head flit's width
  localparam int Depth    = BufPkts * PktFlits,                  // flits per VC buffer
  localparam int AddrW    = (Depth > 1) ? $clog2(Depth) : 1,     // derived, do not override
  localparam int CntW     = $clog2(Depth + 1),                   // derived, do not override
  localparam int PosW     = $clog2(PktFlits),                    // derived, do not override
  localparam int PendW    = $clog2(BufPkts + 1)                  // derived, do not override
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // the link
  input  logic                 link_valid_i,
  input  logic [VcW-1:0]       link_vc_i,
  input  logic [FlitW-1:0]     link_data_i,
  input  logic                 link_head_i,
  input  logic                 link_tail_i,
  // credits to the sender: one packet slot of VC cred_vc_o freed, one a cycle at most
  output logic                 cred_valid_o,
  output logic [VcW-1:0]       cred_vc_o,
  // packet streams per VC
  output logic [Vcs-1:0]       out_valid_o,
  input  logic [Vcs-1:0]       out_ready_i,
  output logic [Vcs*FlitW-1:0] out_data_o,
  output logic [Vcs-1:0]       out_last_o
);
  // Parameter checks
  if (Vcs < 1) begin : gen_err_vcs
    $error("nic_link_rx: Vcs must be >= 1");
  end
  if (PktFlits < 2) begin : gen_err_flits
    $error("nic_link_rx: PktFlits must be >= 2");
  end
  if (BufPkts < 1) begin : gen_err_bufpkts
    $error("nic_link_rx: BufPkts must be >= 1");
  end

  logic [Vcs-1:0] freed;     // a packet's last flit leaves: its credit is due
  logic [Vcs-1:0] pend_any;  // credits queued per VC
  logic           cred_any;
  logic [VcW-1:0] cred_idx;
  logic [Vcs-1:0] cred_gnt;

  for (genvar v = 0; v < Vcs; v++) begin : g_vc
    // ------------------------------------------------------------ write side
    //   wp_q  : next entry written;  pos_q: flits of the packet under way written (0: none)
    //   used_q: flits in the memory (written, not yet read out)
    // The flits of the packet under way (pos_q of them) are not released: avail = used - pos.
    logic [FlitW-1:0] mem_q [Depth];
    logic [AddrW-1:0] wp_q, rp_q;
    logic [PosW-1:0]  pos_q, rpos_q;
    logic [CntW-1:0]  used_q, avail;
    logic             wr, e_room, e_head, e_body, e_tail, err, we;

    assign wr     = link_valid_i && link_vc_i == VcW'(v);
    assign e_room = wr && used_q == CntW'(Depth);
    assign e_head = wr && link_head_i && pos_q != '0;
    assign e_body = wr && !link_head_i && pos_q == '0;
    assign e_tail = wr && (link_tail_i != (pos_q == PosW'(PktFlits - 1)));
    assign err    = e_room || e_head || e_body || e_tail;
    // (next issue: the CRC check joins err, and err drops the packet: wp_q <= released end)
    assign we     = wr && !err;
    assign avail  = used_q - CntW'(pos_q);

    always_ff @(posedge clk_i) begin  // the memory: written from the link (not reset)
      if (we) mem_q[wp_q] <= link_data_i;
    end

    // ------------------------------------------------------------ read side
    //   rp_q: next entry read; rpos_q: its position in its packet
    //   rv_q: the read register holds a flit not yet taken (out_valid_o)
    // A flit is read when one is released and the read register is empty or being emptied.
    logic [FlitW-1:0] rdata_q;
    logic             rv_q, rlast_q, pop, rd;
    assign pop = rv_q && out_ready_i[v];
    assign rd  = avail != '0 && (!rv_q || pop);

    always_ff @(posedge clk_i) begin  // the memory's read register (not reset)
      if (rd) begin
        rdata_q <= mem_q[rp_q];
        rlast_q <= rpos_q == PosW'(PktFlits - 1);
      end
    end

    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        wp_q   <= '0;
        pos_q  <= '0;
        rp_q   <= '0;
        rpos_q <= '0;
        used_q <= '0;
        rv_q   <= 1'b0;
      end else begin
        if (we) begin
          wp_q  <= (wp_q == AddrW'(Depth - 1)) ? '0 : wp_q + AddrW'(1);
          pos_q <= link_tail_i ? '0 : pos_q + PosW'(1);
        end
        if (rd) begin
          rp_q   <= (rp_q == AddrW'(Depth - 1)) ? '0 : rp_q + AddrW'(1);
          rpos_q <= (rpos_q == PosW'(PktFlits - 1)) ? '0 : rpos_q + PosW'(1);
        end
        used_q <= used_q + CntW'(we) - CntW'(rd);
        rv_q   <= rd || (rv_q && !pop);
      end
    end

    assign out_valid_o[v]                 = rv_q;
    assign out_data_o[v*FlitW +: FlitW]   = rdata_q;
    assign out_last_o[v]                  = rlast_q;
    assign freed[v]                       = pop && rlast_q;

    // ------------------------------------------------------------ credits due
    logic [PendW-1:0] pend_q;
    assign pend_any[v] = pend_q != '0;
    always_ff @(posedge clk_i) begin
      if (!rst_ni) pend_q <= '0;
      else         pend_q <= pend_q + PendW'(freed[v]) - PendW'(cred_gnt[v]);
    end

`ifndef SYNTHESIS
    a_room: assert property (@(posedge clk_i) disable iff (!rst_ni) !e_room)
      else $error("nic_link_rx: VC %0d: a flit with no room in the buffer", v);
    a_head: assert property (@(posedge clk_i) disable iff (!rst_ni) !e_head)
      else $error("nic_link_rx: VC %0d: a head flit inside a packet", v);
    a_body: assert property (@(posedge clk_i) disable iff (!rst_ni) !e_body)
      else $error("nic_link_rx: VC %0d: a body flit without a head", v);
    a_tail: assert property (@(posedge clk_i) disable iff (!rst_ni) !e_tail)
      else $error("nic_link_rx: VC %0d: a tail not on the packet's last flit", v);
    a_used: assert property (@(posedge clk_i) disable iff (!rst_ni)
        32'(used_q) <= Depth && used_q >= CntW'(pos_q));
    a_pend: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(pend_q) <= BufPkts);
    // Valid/ready at the output: a flit not taken stays, unchanged.
    a_out_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
        rv_q && !out_ready_i[v] |=> rv_q && $stable(rdata_q) && $stable(rlast_q));
`endif
  end

  // ---------------------------------------------------------------- credit return
  cmn_rr_arb #(.N(Vcs)) u_cred_arb (
    .clk_i, .rst_ni,
    .req_i    (pend_any),
    .advance_i(1'b1),
    .gnt_o    (cred_gnt),
    .valid_o  (cred_any),
    .idx_o    (cred_idx)
  );
  assign cred_valid_o = cred_any;
  assign cred_vc_o    = cred_idx;

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({link_valid_i, out_ready_i}));
  a_link_vc: assert property (@(posedge clk_i) disable iff (!rst_ni)
      link_valid_i |-> 32'(link_vc_i) < Vcs);
`endif
endmodule
