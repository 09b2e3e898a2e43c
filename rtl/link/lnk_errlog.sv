// lnk_errlog: what software sees of lnk_rx's dropped packets (docs/link.md section 5): counters by
// cause and an error buffer of the last Entries drops.
//   In       : lnk_rx's drop_* ports (two reports a cycle at most; port 0 first).
//   Counters : cnt_o = {DUP[63:48], SEQ[47:32], FRAMING[31:16] (causes 2, 3, 4, 5, 8, 9), CRC[15:0]},
//              16 bits each, saturating; clr_i clears them all.
//   Buffer   : the last Entries drops, entry i at buf_o[i*Ew +: Ew] = {word[63:0], number[15:0],
//              seq[7:0], vc[3:0], cause[3:0]} (Ew = 96), number counting every drop (wrapping) so
//              that software can order the entries (the first drop is number 1); an entry
//              never written reads 0.
//   Irq      : dirty_o pulses (registered) when a drop of a cause other than DUP and SEQ came in
//              (the consequences of an earlier error and replays are not dirty packets).
// Parameters: Entries (1..16).
module lnk_errlog #(
  parameter int  Entries = 4,
  localparam int Ew      = 96
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [1:0]           drop_valid_i,
  input  logic [7:0]           drop_cause_i,
  input  logic [15:0]          drop_seq_i,
  input  logic [7:0]           drop_vc_i,
  input  logic [127:0]         drop_word_i,
  input  logic                 clr_i,
  output logic [63:0]          cnt_o,
  output logic [Entries*Ew-1:0] buf_o,
  output logic                 dirty_o
);
  if (Entries < 1 || Entries > 16) begin : gen_err_entries
    $error("lnk_errlog: Entries must be 1..16");
  end
  localparam int PW = (Entries > 1) ? $clog2(Entries) : 1;

  logic [15:0] cnt_q [4];
  logic [15:0] num_q;
  logic [PW-1:0] wp_q;

  // the counter group of a cause: 0 CRC, 1 FRAMING, 2 SEQ, 3 DUP
  function automatic logic [1:0] group(input logic [3:0] c);
    group = (c == 4'd1) ? 2'd0 : (c == 4'd6) ? 2'd2 : (c == 4'd7) ? 2'd3 : 2'd1;
  endfunction

  logic [1:0] inc [4];
  always_comb begin
    for (int g = 0; g < 4; g++)
      inc[g] = 2'(drop_valid_i[0] && group(drop_cause_i[3:0]) == 2'(g)) + 2'(drop_valid_i[1] && group(drop_cause_i[7:4]) == 2'(g));
  end
  // the entries this cycle's reports go to: the first at wp, a second one after it
  logic [PW-1:0] wp1, wp2;
  logic [Entries-1:0] we0, we1;
  logic [Ew-1:0] e0, e1;
  assign wp1 = (32'(wp_q) + 1 == Entries) ? '0 : wp_q + PW'(1);
  assign wp2 = (32'(wp1) + 1 == Entries) ? '0 : wp1 + PW'(1);
  // e0 goes to wp: port 0's report, or port 1's when it is alone; e1 (port 1's) to wp + 1
  assign e0 = drop_valid_i[0] ? {drop_word_i[63:0], num_q + 16'd1, drop_seq_i[7:0], drop_vc_i[3:0], drop_cause_i[3:0]}
                              : {drop_word_i[127:64], num_q + 16'd1, drop_seq_i[15:8], drop_vc_i[7:4], drop_cause_i[7:4]};
  assign e1 = {drop_word_i[127:64], num_q + 16'd2, drop_seq_i[15:8], drop_vc_i[7:4], drop_cause_i[7:4]};
  always_comb begin
    for (int i = 0; i < Entries; i++) begin
      we0[i] = drop_valid_i != '0 && wp_q == PW'(i);
      we1[i] = drop_valid_i == 2'b11 && wp1 == PW'(i);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int g = 0; g < 4; g++) cnt_q[g] <= '0;
      num_q   <= '0;
      wp_q    <= '0;
      buf_o   <= '0;
      dirty_o <= 1'b0;
    end else begin
      dirty_o <= 1'b0;
      for (int g = 0; g < 4; g++) begin
        if (clr_i) cnt_q[g] <= '0;
        else cnt_q[g] <= (32'(cnt_q[g]) + 32'(inc[g]) > 32'hFFFF) ? 16'hFFFF : cnt_q[g] + 16'(inc[g]);
      end
      for (int p = 0; p < 2; p++) begin
        if (drop_valid_i[p] && drop_cause_i[4*p +: 4] != 4'd6 && drop_cause_i[4*p +: 4] != 4'd7) dirty_o <= 1'b1;
      end
      // the buffer: port 0's drop, then port 1's (each entry written by its own enable: no
      // run-time indexed write)
      for (int i = 0; i < Entries; i++) begin
        if (we0[i]) buf_o[i*Ew +: Ew] <= e0;
        if (we1[i]) buf_o[i*Ew +: Ew] <= e1;
      end
      if (drop_valid_i != '0) begin
        wp_q  <= (drop_valid_i == 2'b11) ? wp2 : wp1;
        num_q <= num_q + ((drop_valid_i == 2'b11) ? 16'd2 : 16'd1);
      end
    end
  end
  assign cnt_o = {cnt_q[3], cnt_q[2], cnt_q[1], cnt_q[0]};
endmodule
