// nic_epoch_drop: on the way from the NIC's VC0 sources to the link, drops every packet of a
// message from an older link epoch (docs/nic.md section 8). When the link goes down the
// completion unit completes every message under way with LINK_DOWN and the epoch moves on; what
// engine 0 or nic_exec still sends of those messages (the rest of a write, its EVENT) must not
// reach the other node once the link is back up: the sender has reported them failed.
//   in_* / out_*: flits of VC0 packets (valid/ready, in_last_i on a packet's last flit); a
//   packet's head carries MSG_ID = {epoch, slot}. A packet is passed or dropped whole, decided at
//   its head; a head already shown on out_* and not yet taken stays shown (valid/ready) even if
//   the epoch moves on meanwhile (the link, down, drops it anyway). Packets passed are unchanged,
//   with no delay.
// Parameters: MsgW (the slot bits of MSG_ID: 1..6).
module nic_epoch_drop #(
  parameter int MsgW = 6
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [1:0]   epoch_i,
  input  logic         in_valid_i,
  output logic         in_ready_o,
  /* verilator lint_off UNUSEDSIGNAL */  // only the head's MSG_ID
  input  logic [255:0] in_data_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic         in_last_i,
  output logic         out_valid_o,
  input  logic         out_ready_i
);
  if (MsgW < 1 || MsgW > 6) begin : gen_err_msgw
    $error("nic_epoch_drop: MsgW must be 1..6");
  end
  logic head_q, drop_q, shown_q, stale, drop;
  assign stale = 2'(in_data_i[nic_formats_pkg::NIC_PKT_HEAD_MSG_ID_LSB +: 8] >> MsgW) != epoch_i;
  assign drop  = head_q ? stale && !shown_q : drop_q;
  assign out_valid_o = in_valid_i && !drop;
  assign in_ready_o  = drop || out_ready_i;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      head_q <= 1'b1; drop_q <= 1'b0; shown_q <= 1'b0;
    end else begin
      shown_q <= out_valid_o && !out_ready_i;
      if (in_valid_i && in_ready_o) begin
        head_q <= in_last_i;
        if (head_q) drop_q <= drop;
      end
    end
  end
`ifndef SYNTHESIS
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni) !$isunknown({in_valid_i, out_ready_i}));
`endif
endmodule
