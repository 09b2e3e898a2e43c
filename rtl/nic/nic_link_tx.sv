// nic_link_tx: the sending half of the NIC's link layer (docs/nic.md, paper section 3): Vcs
// virtual channels (VC0 requests and RDMA-write data, VC1 RDMA-read responses) share one link,
// served round-robin flit by flit, with credit-based flow control per VC.
//   In streams : one packet stream per VC (valid/ready): PktFlits flits of FlitW bits, flit 0 the
//                head flit (nic_formats pkt_head), in_last_i on the PktFlits-th flit and only
//                there. A flit, once offered, holds until taken. in_ready_o[v] is combinational
//                from in_valid_i, the credit counters and the arbiter's pointer (no path from
//                cred_*_i or any other input).
//   Credits    : the transmitter starts with Credits per VC (the receiver's buffer, in packets).
//                A packet may start on VC v only with a credit for v; the credit is taken with its
//                head flit. cred_valid_i/cred_vc_i gives one credit back (a packet slot of the
//                receiver freed); it can be used from the next cycle on. A credit that would raise
//                a VC's count above Credits is a protocol error (assertion).
//   Arbitration: each cycle the VCs that have a flit offered and either a packet under way or a
//                credit request the link; cmn_rr_arb picks one (round-robin, the pointer moving past
//                each winner): flits of different VCs interleave flit by flit, a VC that keeps
//                requesting waits for at most Vcs-1 flits of others. A VC without credit never
//                holds the link: another VC's flits go meanwhile.
//   Link       : link_valid_o with the flit (link_data_o), its VC, head (first flit of a packet)
//                and tail (last flit). No ready: the receiver has room for every flit it is sent
//                (credits). All link outputs are registered.
//   Latency    : a flit taken at cycle t is on the link at cycle t+1.
//   Throughput : one flit per cycle on the link (whenever some VC is eligible).
// Link errors (next issue) slot in between the arbiter and the link register: the CRC-16 of each
// packet is accumulated over its flits there, every flit sent is also written into the retransmit
// buffer, and `hold` (the retransmit buffer full) stops the arbiter with all state kept.
// Parameters: Vcs: virtual channels (>= 1). PktFlits: flits per packet (>= 2). Credits: receiver
//   buffer per VC in packets (>= 1; nic_link_rx's BufPkts). VcW, FlitW, CredW derived.
module nic_link_tx #(
  parameter int  Vcs      = 2,
  parameter int  PktFlits = 5,
  parameter int  Credits  = 4,                                 // receiver buffer per VC, in packets
  localparam int VcW      = (Vcs > 1) ? $clog2(Vcs) : 1,       // derived, do not override
  localparam int FlitW    = nic_formats_pkg::NIC_PKT_HEAD_BITS,  // 256: a flit is a head flit's width
  localparam int CredW    = $clog2(Credits + 1)                // derived, do not override
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // packet streams per VC (flit 0 the head; last on the PktFlits-th flit)
  input  logic [Vcs-1:0]       in_valid_i,
  output logic [Vcs-1:0]       in_ready_o,
  input  logic [Vcs*FlitW-1:0] in_data_i,
  input  logic [Vcs-1:0]       in_last_i,
  // the link: one flit per cycle, no ready (room is reserved by credits)
  output logic               link_valid_o,
  output logic [VcW-1:0]     link_vc_o,
  output logic [FlitW-1:0]   link_data_o,
  output logic               link_head_o,   // first flit of a packet
  output logic               link_tail_o,   // last flit
  // credits from the receiver: one packet slot of VC cred_vc_i freed
  input  logic               cred_valid_i,
  input  logic [VcW-1:0]     cred_vc_i
);
  // Parameter checks
  if (Vcs < 1) begin : gen_err_vcs
    $error("nic_link_tx: Vcs must be >= 1");
  end
  if (PktFlits < 2) begin : gen_err_flits
    $error("nic_link_tx: PktFlits must be >= 2");
  end
  if (Credits < 1) begin : gen_err_credits
    $error("nic_link_tx: Credits must be >= 1");
  end

  // Next issue: the retransmit buffer has no free block; the arbiter stops, state kept.
  logic hold;
  assign hold = 1'b0;

  // ---------------------------------------------------------------- per-VC state
  //   cred_q : credits held (packets the receiver has room for)
  //   busy_q : a packet under way (its head sent, its tail not yet): its flits need no credit
  logic [Vcs-1:0] elig, gnt, take;
  logic [Vcs-1:0] busy_q;
  logic           gnt_any;
  logic [VcW-1:0] gnt_idx;

  for (genvar v = 0; v < Vcs; v++) begin : g_vc
    logic [CredW-1:0] cred_q;
    logic             ret;
    assign ret     = cred_valid_i && cred_vc_i == VcW'(v);
    assign elig[v] = in_valid_i[v] && (busy_q[v] || cred_q != '0) && !hold;
    assign take[v] = gnt[v] && !busy_q[v];  // a head leaves: one credit taken
    always_ff @(posedge clk_i) begin
      if (!rst_ni) begin
        cred_q    <= CredW'(Credits);
        busy_q[v] <= 1'b0;
      end else begin
        cred_q <= cred_q + CredW'(ret) - CredW'(take[v]);
        if (gnt[v]) busy_q[v] <= !in_last_i[v];
      end
    end
`ifndef SYNTHESIS
    // Credits never exceed Credits: a credit comes back only for a packet sent.
    a_cred_max: assert property (@(posedge clk_i) disable iff (!rst_ni)
        ret |-> 32'(cred_q) < Credits);
    // A packet has exactly PktFlits flits: last on the PktFlits-th and only there.
    int unsigned pos_q;
    always_ff @(posedge clk_i) begin
      if (!rst_ni)    pos_q <= 0;
      else if (gnt[v]) pos_q <= in_last_i[v] ? 0 : pos_q + 1;
    end
    a_len: assert property (@(posedge clk_i) disable iff (!rst_ni)
        in_valid_i[v] |-> in_last_i[v] == (pos_q == PktFlits - 1));
    // Valid/ready: a flit not taken stays, unchanged.
    a_in_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
        in_valid_i[v] && !in_ready_o[v] |=> in_valid_i[v] &&
        $stable(in_data_i[v*FlitW +: FlitW]) && $stable(in_last_i[v]));
`endif
  end

  // ---------------------------------------------------------------- round-robin over the VCs
  cmn_rr_arb #(.N(Vcs)) u_arb (
    .clk_i, .rst_ni,
    .req_i    (elig),
    .advance_i(1'b1),  // a grant always sends its flit (the link has no ready)
    .gnt_o    (gnt),
    .valid_o  (gnt_any),
    .idx_o    (gnt_idx)
  );
  assign in_ready_o = gnt;

  // The granted flit (an AND-OR mux: no variable part-select).
  logic [FlitW-1:0] sel_data;
  logic             sel_head, sel_tail;
  always_comb begin
    sel_data = '0;
    sel_head = 1'b0;
    sel_tail = 1'b0;
    for (int v = 0; v < Vcs; v++) begin
      if (gnt[v]) begin
        sel_data = in_data_i[v*FlitW +: FlitW];
        sel_head = !busy_q[v];
        sel_tail = in_last_i[v];
      end
    end
  end

  // ---------------------------------------------------------------- link register
  // (next issue: the CRC-16 accumulator and the retransmit-buffer write sit at this stage)
  always_ff @(posedge clk_i) begin
    if (!rst_ni) link_valid_o <= 1'b0;
    else         link_valid_o <= gnt_any;
  end
  always_ff @(posedge clk_i) begin  // payload: meaningful only with link_valid_o
    if (gnt_any) begin
      link_vc_o   <= gnt_idx;
      link_data_o <= sel_data;
      link_head_o <= sel_head;
      link_tail_o <= sel_tail;
    end
  end

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({in_valid_i, cred_valid_i}));
  a_cred_vc: assert property (@(posedge clk_i) disable iff (!rst_ni)
      cred_valid_i |-> 32'(cred_vc_i) < Vcs);
  a_one_flit: assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(gnt));
`endif
endmodule
