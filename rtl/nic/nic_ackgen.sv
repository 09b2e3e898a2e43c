// nic_ackgen: the answers a NIC sends on VC1 (docs/nic.md section 6): ACK / NACK packets for
// the messages the VC0 receiver took (ack_*: a write, an immediate write, an event, a
// mini-packet), and a NACK for every read request engine 1 failed (its result carries only the
// message id: the requester's node and VP are queued here, in job order, as the VC0 receiver hands
// each request to engine 1). Engine 1 results that succeeded only pop that queue: the requester
// completes on the last READ_DATA packet, and are taken at once. One packet (5 flits: head, zero
// payload) at a time; an engine 1 failure before the receiver's answers (failures are rare, and
// engine 1 keeps at most two results: a result waiting behind a stream of answers would stop it).
module nic_ackgen #(
  parameter int ReqDepth = 4   // read requests engine 1 may hold (its job and result queue)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [13:0]  node_id_i,
  // answers from the VC0 receiver
  input  logic         ack_valid_i,
  output logic         ack_ready_o,
  input  logic [13:0]  ack_node_i,
  input  logic [4:0]   ack_vp_i,
  input  logic [4:0]   ack_src_vp_i,
  input  logic [7:0]   ack_msg_id_i,
  input  logic [7:0]   ack_status_i,
  input  logic         ack_event_i,   // AUX EVENT: the remote event failed its own check
  // read requests handed to engine 1 (their head flits), and engine 1's results
  input  logic         req_push_i,
  input  logic [255:0] req_head_i,
  output logic         req_room_o,    // the queue can take another request
  input  logic         res_valid_i,
  output logic         res_ready_o,
  input  logic [7:0]   res_status_i,
  input  logic [7:0]   res_msg_id_i,
  // packets (VC1)
  output logic         pkt_valid_o,
  input  logic         pkt_ready_i,
  output logic [255:0] pkt_data_o,
  output logic         pkt_last_o
);

  if (ReqDepth < 1) begin : gen_err_depth
    $error("nic_ackgen: ReqDepth must be >= 1");
  end

  // requesters of the reads engine 1 holds: {SRC_NODE, SRC_VP, DST_VP, MSG_ID}
  localparam int QW = 14 + 5 + 5 + 8;
  nic_formats_pkg::pkt_head_t rh;
  logic          q_valid, q_ready, q_in_ready;
  logic [QW-1:0] q_data;
  logic [$clog2(ReqDepth + 1)-1:0] q_count;
  assign rh = (req_head_i);
  cmn_fifo #(.Width(QW), .Depth(ReqDepth)) u_req (
    .clk_i, .rst_ni,
    .valid_i(req_push_i), .ready_o(q_in_ready), .data_i({rh.src_node, rh.src_vp, rh.dst_vp, rh.msg_id}),
    .valid_o(q_valid), .ready_i(q_ready), .data_o(q_data), .count_o(q_count));
  assign req_room_o = q_in_ready;

  // the packet being sent: 5 flits, a head and four zero flits
  logic [2:0]  left_q;
  nic_formats_pkg::pkt_head_t   h_q, h;
  logic        take_ack, take_res, res_fail;
  // a failure needs the packet slot; a success only pops the queue
  assign res_fail    = res_valid_i && q_valid && res_status_i != nic_formats_pkg::NIC_STATUS_OK;
  assign take_res    = res_valid_i && q_valid && (res_status_i == nic_formats_pkg::NIC_STATUS_OK || left_q == '0);
  assign take_ack    = left_q == '0 && ack_valid_i && !res_fail;
  assign ack_ready_o = left_q == '0 && !res_fail;
  assign res_ready_o = take_res;
  assign q_ready     = take_res;
  always_comb begin
    h = '0;
    h.src_node = node_id_i;
    if (take_ack) begin
      h.ptype  = (ack_status_i == nic_formats_pkg::NIC_STATUS_OK) ? nic_formats_pkg::NIC_PKT_TYPE_ACK : nic_formats_pkg::NIC_PKT_TYPE_NACK;
      h.dst_node = ack_node_i;
      h.dst_vp = ack_vp_i;
      h.src_vp = ack_src_vp_i;
      h.msg_id = ack_msg_id_i;
      h.aux    = 64'(ack_status_i) | (64'(ack_event_i) << nic_formats_pkg::NIC_ACK_AUX_EVENT_LSB);
    end else begin
      h.ptype  = nic_formats_pkg::NIC_PKT_TYPE_NACK;
      {h.dst_node, h.dst_vp, h.src_vp, h.msg_id} = q_data;
      h.aux    = 64'(res_status_i);
    end
    h.first = 1'b1;
    h.last  = 1'b1;
  end
  assign pkt_valid_o = left_q != '0;
  assign pkt_data_o  = (left_q == 3'd5) ? 256'(h_q) : '0;
  assign pkt_last_o  = left_q == 3'd1;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      left_q <= '0;
      h_q    <= '0;
    end else begin
      if (pkt_valid_o && pkt_ready_i) left_q <= left_q - 3'd1;
      if (take_ack || (take_res && res_status_i != nic_formats_pkg::NIC_STATUS_OK)) begin
        left_q <= 3'd5;
        h_q    <= h;
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      a_req_room: assert (!req_push_i || q_in_ready) else $error("nic_ackgen: read request queue overflow");
      if (take_res) begin
        a_res_order: assert (q_data[7:0] == res_msg_id_i)
          else $error("nic_ackgen: engine 1 result for message %0d out of request order", res_msg_id_i);
      end
    end
  end
`endif
  logic unused;
  assign unused = ^{q_count, rh};
endmodule
