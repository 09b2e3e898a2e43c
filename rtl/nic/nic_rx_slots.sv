// nic_rx_slots: N slots, each free or holding a tag (nic_rx_tbl: the message table's keys, the
// parked EVENTs' owners). The lowest free slot is offered (free_o, idx_o); take_i fills it with
// tag_i at the edge; rel_i frees slot rel_idx_i, clr_i frees every slot of its mask. Tags and
// busy bits are outputs, for the owner's compares. A slot released and taken at one edge is taken.
// Parameters: N (slots, >= 1), TagW (bits of a tag).
module nic_rx_slots #(
  parameter int  N    = 2,
  parameter int  TagW = 4,
  localparam int IW   = (N > 1) ? $clog2(N) : 1  // derived, do not override
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  output logic            free_o,
  output logic [IW-1:0]   idx_o,
  input  logic            take_i,
  input  logic [TagW-1:0] tag_i,
  input  logic            rel_i,
  input  logic [IW-1:0]   rel_idx_i,
  input  logic [N-1:0]    clr_i,
  output logic [N-1:0]    busy_o,
  output logic [N*TagW-1:0] tags_o
);

  if (N < 1 || TagW < 1) begin : gen_err_params
    $error("nic_rx_slots: N and TagW must be >= 1");
  end

  always_comb begin
    idx_o  = '0;
    free_o = 1'b0;
    for (int s = N - 1; s >= 0; s--) begin
      if (!busy_o[s]) begin
        idx_o  = IW'(s);
        free_o = 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_o <= '0;
      tags_o <= '0;
    end else begin
      for (int s = 0; s < N; s++) begin
        if ((rel_i && rel_idx_i == IW'(s)) || clr_i[s]) busy_o[s] <= 1'b0;
        if (take_i && idx_o == IW'(s)) begin
          busy_o[s] <= 1'b1;
          tags_o[s*TagW +: TagW] <= tag_i;
        end
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) assert (!take_i || free_o) else $error("nic_rx_slots: take with no free slot");
  end
`endif
endmodule
