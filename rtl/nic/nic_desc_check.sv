// nic_desc_check: decodes and checks one descriptor (docs/nic.md section 4, the descriptor formats
// in docs/nic_formats.md), combinationally; nic_exec dispatches what it passes.
//   Fields : the control word (ctrl_o), RDMA length (len_o), the local address (local_o: RDMA
//            source or destination) and the remote one (remote_o: RDMA, or an immediate write's
//            destination), the local and remote event words (address, 16 data bytes), and the
//            word where immediate or mini-packet data begin (dat_at_o: after the control words
//            and the events present).
//   Checks : in this order, the first failing gives status_o (NIC_STATUS_OK when none):
//            bad_i (the DQ framed it badly) and NWORDS against the type and flags -> BAD_NWORDS;
//            an invalid type -> BAD_TYPE; REV on a read or a mini-packet -> BAD_FLAGS; an RDMA
//            length of 0, an immediate write of 0 or more than 128 bytes, a mini-packet of more
//            than 120 -> BAD_LEN; DST_VP >= NumVp -> BAD_VP; PHYS without the VP's PHYS_OK ->
//            PHYS_DENIED; an event address not 16-byte aligned -> EV_ALIGN. (The checks through
//            the ATT come after, in nic_exec.)
// Parameters: NumVp (VPs a DST_VP may name), MaxWords (descriptor words, 18..31).
module nic_desc_check #(
  parameter int NumVp    = 32,
  parameter int MaxWords = 24
) (
  /* verilator lint_off UNUSEDSIGNAL */  // reserved words and fields
  input  logic [MaxWords*64-1:0]        words_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic                          bad_i,
  input  logic                          phys_ok_i,  // the posting VP's PHYS_OK
  output nic_formats_pkg::desc_ctrl_t   ctrl_o,
  output logic [31:0]                   len_o,
  output logic [63:0]                   local_o,
  output logic [63:0]                   remote_o,
  output logic [63:0]                   lev_addr_o,
  output logic [127:0]                  lev_data_o,
  output logic [63:0]                   rev_addr_o,
  output logic [127:0]                  rev_data_o,
  output logic [4:0]                    dat_at_o,
  output logic [7:0]                    status_o
);

  if (MaxWords < 18 || MaxWords > 31) begin : gen_err_words
    $error("nic_desc_check: MaxWords must be 18..31 (an immediate write of 128 bytes with no event takes 18)");
  end

  nic_formats_pkg::desc_ctrl_t c;
  logic       imm, mp, rdma;
  logic [4:0] lev_at, rev_at, dat_at, need;
  always_comb begin
    c      = words_i[63:0];
    imm    = c.type_ == nic_formats_pkg::NIC_DESC_TYPE_IMM_WRITE;
    mp     = c.type_ == nic_formats_pkg::NIC_DESC_TYPE_MP_SEND;
    rdma   = c.type_ == nic_formats_pkg::NIC_DESC_TYPE_RDMA_WRITE || c.type_ == nic_formats_pkg::NIC_DESC_TYPE_RDMA_READ;
    lev_at = imm ? 5'd2 : mp ? 5'd1 : 5'd4;
    rev_at = lev_at + (c.lev ? 5'd3 : 5'd0);
    dat_at = rev_at + (c.rev ? 5'd3 : 5'd0);
    // data words: ceil(len / 8); a mini-packet has at least one (a descriptor is 2 words or more)
    need   = imm ? dat_at + 5'((32'(c.short_len) + 7) / 8)
           : mp  ? dat_at + ((c.short_len == 0) ? 5'd1 : 5'((32'(c.short_len) + 7) / 8))
           : dat_at;
    ctrl_o     = c;
    len_o      = words_i[64 +: 32];
    local_o    = words_i[2*64 +: 64];
    remote_o   = imm ? words_i[64 +: 64] : words_i[3*64 +: 64];
    lev_addr_o = words_i[32'(lev_at)*64 +: 64];
    lev_data_o = words_i[(32'(lev_at) + 1)*64 +: 128];
    rev_addr_o = words_i[32'(rev_at)*64 +: 64];
    rev_data_o = words_i[(32'(rev_at) + 1)*64 +: 128];
    dat_at_o   = dat_at;
    status_o   = nic_formats_pkg::NIC_STATUS_OK;
    if (bad_i)                                                       status_o = nic_formats_pkg::NIC_STATUS_BAD_NWORDS;
    else if (c.type_ == nic_formats_pkg::NIC_DESC_TYPE_INVALID || c.type_ > nic_formats_pkg::NIC_DESC_TYPE_MP_SEND)
                                                                     status_o = nic_formats_pkg::NIC_STATUS_BAD_TYPE;
    else if (c.rev && (c.type_ == nic_formats_pkg::NIC_DESC_TYPE_RDMA_READ || mp))
                                                                     status_o = nic_formats_pkg::NIC_STATUS_BAD_FLAGS;
    else if (c.nwords != need)                                       status_o = nic_formats_pkg::NIC_STATUS_BAD_NWORDS;
    else if (rdma && len_o == 0)                                     status_o = nic_formats_pkg::NIC_STATUS_BAD_LEN;
    else if (imm && (c.short_len == 0 || c.short_len > 8'd128))      status_o = nic_formats_pkg::NIC_STATUS_BAD_LEN;
    else if (mp && c.short_len > 8'd120)                             status_o = nic_formats_pkg::NIC_STATUS_BAD_LEN;
    else if (32'(c.dst_vp) >= NumVp)                                 status_o = nic_formats_pkg::NIC_STATUS_BAD_VP;
    else if (c.phys && !phys_ok_i)                                   status_o = nic_formats_pkg::NIC_STATUS_PHYS_DENIED;
    else if ((c.lev && lev_addr_o[3:0] != '0) || (c.rev && rev_addr_o[3:0] != '0))
                                                                     status_o = nic_formats_pkg::NIC_STATUS_EV_ALIGN;
  end
endmodule
