// nic_inval: the fence of a region-table change (docs/nic.md section 4, "Deregistration"). When a
// key that was VALID is committed again (deregistered or changed), translations taken with it
// before the commit may still sit in the units that use them: a receiver's page, an engine's
// pages, a local event's address in the message table. This unit withdraws them and tells the
// driver when none can be used any more, so that `rdma_dereg_mr` returns only then.
//   Phase 1 (active_o, key_o): from the cycle after the commit. Every holder compares key_o with
//               the keys of the translations it holds or has asked for, stops using a matching
//               one at its next safe point (a receiver at the end of the packet it is writing, an
//               engine before its next read request; the transfer then completes with an error)
//               and keeps hold_i[h] high until it holds none and has no lookup of that key
//               outstanding (a lookup accepted before the commit may still answer OK). Phase 1
//               ends in the first cycle with hold_i all low; no new holder can appear (lookups
//               after the commit see the key invalid, and the next commit waits for the fence).
//   Phase 2   : the DMA reads already issued (the count outstanding at the end of phase 1) have
//               all completed: host memory is no longer read for the old translations. Writes
//               need no wait here: a holder releases only after its last write beat was taken by
//               the DMA write channel (no buffer in between), and the host orders the read of
//               KEY_STATUS after them (PCIe: a read completion does not pass posted writes).
//   busy_o    : phase 1 or 2, or a commit just seen (KEY_STATUS.BUSY). nic_regs holds a
//               KEY_CTRL write while busy_o, so fences never overlap.
// Parameters: Holders (>= 1): units reporting hold_i. RdW: bits of the outstanding-read count.
module nic_inval #(
  parameter int Holders = 6,
  parameter int RdW     = 8
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               fence_i,      // commit of a key that was VALID (from nic_att)
  input  logic [15:0]        fence_key_i,
  output logic               active_o,     // withdraw translations of key_o
  output logic [15:0]        key_o,
  input  logic [Holders-1:0] hold_i,       // holder h may still use a translation of key_o
  input  logic               rd_issue_i,   // a DMA read request accepted
  input  logic               rd_done_i,    // a DMA read's last frame accepted
  output logic               busy_o
);
  if (Holders < 1) begin : gen_err_holders
    $error("nic_inval: Holders must be >= 1");
  end
  if (RdW < 1 || RdW > 16) begin : gen_err_rdw
    $error("nic_inval: RdW must be 1..16");
  end

  typedef enum logic [1:0] {SIdle, SHold, SReads} state_e;
  state_e         state_q;
  logic [RdW-1:0] out_q, out_d;   // DMA reads outstanding
  logic [RdW-1:0] wait_q;         // of them, issued before phase 1 ended and not yet done

  assign out_d    = out_q + RdW'(rd_issue_i) - RdW'(rd_done_i);
  assign active_o = state_q != SIdle;
  assign busy_o   = state_q != SIdle || fence_i;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      out_q   <= '0;
      wait_q  <= '0;
      key_o   <= '0;
    end else begin
      out_q <= out_d;
      unique case (state_q)
        SIdle: if (fence_i) begin
          key_o   <= fence_key_i;
          state_q <= SHold;
        end
        SHold: if (hold_i == '0) begin
          wait_q  <= out_d;
          state_q <= (out_d == '0) ? SIdle : SReads;
        end
        SReads: begin
          if (rd_done_i) wait_q <= wait_q - RdW'(1);
          if (wait_q == '0 || (wait_q == RdW'(1) && rd_done_i)) state_q <= SIdle;
        end
        default: state_q <= SIdle;
      endcase
    end
  end

`ifndef SYNTHESIS
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni) !$isunknown({fence_i, hold_i, rd_issue_i, rd_done_i}));
  // nic_regs holds the next KEY_CTRL write while busy: fences never overlap.
  a_overlap: assert property (@(posedge clk_i) disable iff (!rst_ni) fence_i |-> state_q == SIdle);
  a_rd_under: assert property (@(posedge clk_i) disable iff (!rst_ni) rd_done_i |-> out_q != '0 || rd_issue_i);
  a_rd_over: assert property (@(posedge clk_i) disable iff (!rst_ni) rd_issue_i && !rd_done_i |-> out_q != '1);
`endif
endmodule
