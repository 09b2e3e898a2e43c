// nic_route: the NIC's route table (source routing, docs/machine.md "Routing"): one entry per
// destination node, written by the driver at start-up (ROUTE_INDEX / ROUTE_DATA), read for every
// packet the NIC sends. On each VC's stream to the link layer it rewrites the head flit's router
// head (pkt_head.RHEAD, bits 31:0: the route field of rtr_formats, then the hop count) with the
// entry of the packet's DST_NODE, hop count 0; every other bit, and every non-head flit, passes
// unchanged. Combinational: no cycle is added, and valid/ready pass straight through.
//   Table : a cmn_ctx_mem of 2^NodeLog2 entries of 24 bits (the route field: signed hops per
//           dimension), one read port per VC. An entry never written reads 0, as does a DST_NODE
//           beyond the table: route 0 is the back-to-back link's head, and on a network it ejects
//           the packet at its own router, where the sender's own receiver answers a packet for
//           another node with NACK BAD_NODE (docs/nic.md section 7).
//   Heads : a VC's first beat after reset, and the beat after each beat with last, is a head.
// Parameters: Vcs (streams), NodeLog2 (table entries 2^NodeLog2).
module nic_route #(
  parameter int Vcs      = 2,
  parameter int NodeLog2 = 6
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // table writes (nic_regs: ROUTE_DATA)
  input  logic              we_i,
  input  logic [31:0]       windex_i,
  input  logic [23:0]       wroute_i,
  // the VC streams: in from the VC arbiters, out to the link layer
  input  logic [Vcs-1:0]     in_valid_i,
  output logic [Vcs-1:0]     in_ready_o,
  input  logic [Vcs*256-1:0] in_data_i,
  input  logic [Vcs-1:0]     in_last_i,
  output logic [Vcs-1:0]     out_valid_o,
  input  logic [Vcs-1:0]     out_ready_i,
  output logic [Vcs*256-1:0] out_data_o,
  output logic [Vcs-1:0]     out_last_o
);
  if (Vcs < 1 || NodeLog2 < 1 || NodeLog2 > 14) begin : gen_err_params
    $error("nic_route: Vcs must be >= 1 and NodeLog2 in 1..14 (DST_NODE has 14 bits)");
  end

  localparam int Depth = 1 << NodeLog2;
  localparam int DstLsb = nic_formats_pkg::NIC_PKT_HEAD_DST_NODE_LSB;

  logic [Vcs*NodeLog2-1:0] raddr;
  logic [Vcs*24-1:0]       rroute;
  logic [Vcs-1:0]          hd_q;   // the next beat of VC v is a head
  logic [Vcs-1:0]          known;  // its DST_NODE has an entry in the table

  for (genvar v = 0; v < Vcs; v++) begin : gen_vc
    logic [13:0] dst;
    assign dst = in_data_i[v*256 + DstLsb +: 14];
    assign known[v] = 32'(dst) < Depth;
    assign raddr[v*NodeLog2 +: NodeLog2] = dst[NodeLog2-1:0];
    always_comb begin
      out_data_o[v*256 +: 256] = in_data_i[v*256 +: 256];
      if (hd_q[v]) out_data_o[v*256 +: 32] = {8'd0, known[v] ? rroute[v*24 +: 24] : 24'd0};
    end
  end
  assign out_valid_o = in_valid_i;
  assign in_ready_o  = out_ready_i;
  assign out_last_o  = in_last_i;

  cmn_ctx_mem #(.Width(24), .Depth(Depth), .Reads(Vcs)) u_tab (
    .clk_i, .rst_ni, .we_i(we_i && windex_i < 32'(Depth)), .waddr_i(windex_i[NodeLog2-1:0]), .wdata_i(wroute_i),
    .raddr_i(raddr), .rdata_o(rroute));

  always_ff @(posedge clk_i) begin
    if (!rst_ni) hd_q <= '1;
    else
      for (int v = 0; v < Vcs; v++)
        if (in_valid_i[v] && out_ready_i[v]) hd_q[v] <= in_last_i[v];
  end
endmodule
