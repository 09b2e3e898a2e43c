// lnk_end: one end of a reliable link (docs/link.md): the sender lnk_tx, the receiver lnk_rx and
// the link's state lnk_state, as a device (the NIC) or a router port uses them.
//   in_*   : packets to send, one stream per VC (lnk_tx's rules).
//   tx_*   : flits onto the wire; rx_*: flits from the wire (the other end's tx_*).
//   ctl_o  : this end's control word for the other end's sender (every cycle, with lst);
//   ctl_i  : the other end's control word (ctl_valid_i when it was not lost).
//   out_*  : packets accepted, one stream per VC.
//   drop_* : lnk_rx's drop reports (for lnk_errlog).
//   hold_i : the device keeps the link from leaving DOWN (the NIC: while it completes the messages
//            the link's going down cut short).
//   Status : retries, timeouts, unacked, full (lnk_tx); up, lst (lnk_state: LstUp, LstTrain
//            (down), LstReady), downs (times the link went down), down_o (a pulse when it does).
// While the link is down the end takes the packets offered and drops them, and delivers nothing
// new (lnk_tx, lnk_rx): a device above it completes what needed the link with an error.
// Parameters: Vcs, PktFlits, Credits (= the other end's BufPkts), BufPkts, RetxFlits, Timeout,
//   DownRetries (lnk_tx), MinTrain (lnk_state).
module lnk_end #(
  parameter int  Vcs         = 2,
  parameter int  PktFlits    = 5,
  parameter int  Credits     = 4,
  parameter int  BufPkts     = 4,
  parameter int  RetxFlits   = 160,
  parameter int  Timeout     = 1024,
  parameter int  DownRetries = 16,
  parameter int  MinTrain    = 32,
  localparam int VcW         = (Vcs > 1) ? $clog2(Vcs) : 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic [Vcs-1:0]           in_valid_i,
  output logic [Vcs-1:0]           in_ready_o,
  input  logic [Vcs*256-1:0]       in_data_i,
  input  logic [Vcs-1:0]           in_last_i,
  output logic                     tx_valid_o,
  output logic [VcW-1:0]           tx_vc_o,
  output logic [255:0]             tx_data_o,
  output logic                     tx_head_o,
  output logic                     tx_tail_o,
  output logic [7:0]               tx_seq_o,
  output logic [15:0]              tx_crc_o,
  input  logic                     rx_valid_i,
  input  logic [VcW-1:0]           rx_vc_i,
  input  logic [255:0]             rx_data_i,
  input  logic                     rx_head_i,
  input  logic                     rx_tail_i,
  input  logic [7:0]               rx_seq_i,
  input  logic [15:0]              rx_crc_i,
  output logic [lnk_pkg::CtlW-1:0] ctl_o,
  input  logic                     ctl_valid_i,
  input  logic [lnk_pkg::CtlW-1:0] ctl_i,
  input  logic                     hold_i,       // the device keeps the link down (lnk_state)
  output logic [Vcs-1:0]           out_valid_o,
  input  logic [Vcs-1:0]           out_ready_i,
  output logic [Vcs*256-1:0]       out_data_o,
  output logic [Vcs-1:0]           out_last_o,
  output logic [1:0]               drop_valid_o,
  output logic [7:0]               drop_cause_o,
  output logic [15:0]              drop_seq_o,
  output logic [7:0]               drop_vc_o,
  output logic [127:0]             drop_word_o,
  output logic [15:0]              retries_o,
  output logic [15:0]              timeouts_o,
  output logic [7:0]               unacked_o,
  output logic                     full_o,
  output logic                     up_o,
  output logic [1:0]               lst_o,
  output logic [15:0]              downs_o,
  output logic                     down_o
);
  logic       give_up, peer_valid, drained;
  logic [lnk_pkg::StW-1:0] peer_st, st;

  lnk_tx #(.Vcs(Vcs), .PktFlits(PktFlits), .Credits(Credits), .RetxFlits(RetxFlits), .Timeout(Timeout),
           .DownRetries(DownRetries)) u_tx (
    .clk_i, .rst_ni, .in_valid_i, .in_ready_o, .in_data_i, .in_last_i,
    .link_valid_o(tx_valid_o), .link_vc_o(tx_vc_o), .link_data_o(tx_data_o), .link_head_o(tx_head_o),
    .link_tail_o(tx_tail_o), .link_seq_o(tx_seq_o), .link_crc_o(tx_crc_o), .ctl_valid_i, .ctl_i,
    .retries_o, .timeouts_o, .unacked_o, .full_o,
    .up_i(up_o), .give_up_o(give_up), .peer_valid_o(peer_valid), .peer_st_o(peer_st));
  lnk_rx #(.Vcs(Vcs), .PktFlits(PktFlits), .BufPkts(BufPkts)) u_rx (
    .clk_i, .rst_ni, .link_valid_i(rx_valid_i), .link_vc_i(rx_vc_i), .link_data_i(rx_data_i),
    .link_head_i(rx_head_i), .link_tail_i(rx_tail_i), .link_seq_i(rx_seq_i), .link_crc_i(rx_crc_i), .ctl_o,
    .out_valid_o, .out_ready_i, .out_data_o, .out_last_o,
    .drop_valid_o, .drop_cause_o, .drop_seq_o, .drop_vc_o, .drop_word_o,
    .up_i(up_o), .st_i(st), .drained_o(drained));
  lnk_state #(.Timeout(Timeout), .MinTrain(MinTrain)) u_state (
    .clk_i, .rst_ni, .give_up_i(give_up), .peer_valid_i(peer_valid), .peer_st_i(peer_st),
    .drained_i(drained), .hold_i, .up_o, .lst_o, .st_o(st), .downs_o, .down_o);
endmodule
