// nic_rx_pages: the receiver's translation client (nic_rx, docs/nic.md section 7): its requests to
// the ATT, and the translations it keeps for the message whose FIRST check passed last (the cached
// message: its range, key and VP; the current page and the next one, asked for ahead).
//   Head    : for the head shown (h_i): hm_o, a packet of the cached message (its pages may be
//             used); hc_o, in the current page (or physical), hn_o, in the next one (c_ppn_o,
//             n_ppn_o). first_i (a FIRST taken whose message has not failed) makes its message the
//             cached one (no page kept yet); use_n_i (a head taken in the next page) makes the
//             next page the current one.
//   Requests: while ask_i (a state that asks: the FIRST's check, a packet's own, an EVENT's) the
//             request own_* is shown when no translation is outstanding; otherwise, while pf_ok_i,
//             the next page of the cached message is asked for ahead. A request not taken is shown
//             again unchanged until the ATT takes it (req_*). One translation is outstanding at a
//             time: own_rsp_o marks the answer (rsp_*) to the state's own request.
//   Answers : ans_i with ans_chk_i (the FIRST's check: the message's pages may be used when
//             ans_ok_i) and ans_page_i (a page of the cached message: it becomes the current page,
//             ans_vpn_i to ans_ppn_i, when ans_ok_i).
//   Fence   : while inv_active_i, the cached message's pages of key inv_key_i are dropped (its later
//             packets ask for their own translations); hold_o while such a translation, or a
//             request held, may still be used.
// Latency: head lookups combinational; one request a cycle at most.
module nic_rx_pages (
  input  logic        clk_i,
  input  logic        rst_ni,
  /* verilator lint_off UNUSEDSIGNAL */  // (the head's fields not needed here)
  input  nic_formats_pkg::pkt_head_t h_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic        hm_o,
  output logic        hc_o,
  output logic        hn_o,
  output logic [35:0] c_ppn_o,
  output logic [35:0] n_ppn_o,
  input  logic        first_i,
  input  logic        use_n_i,
  // the state's own request
  input  logic        ask_i,
  input  logic        own_valid_i,
  input  logic [4:0]  own_vp_i,
  input  logic [63:0] own_addr_i,
  input  logic [31:0] own_len_i,
  input  logic        own_phys_i,
  input  logic        own_phys_ok_i,
  input  logic        pf_ok_i,
  // to the ATT (through nic_rx_ahead)
  output logic        req_valid_o,
  input  logic        req_ready_i,
  output logic [4:0]  req_vp_o,
  output logic [63:0] req_addr_o,
  output logic [31:0] req_len_o,
  output logic        req_phys_o,
  output logic        req_phys_ok_o,
  input  logic        rsp_valid_i,
  input  logic [7:0]  rsp_status_i,
  input  logic [35:0] rsp_ppn_i,
  output logic        own_rsp_o,
  // the answer to the state's own request, as the state takes it
  input  logic        ans_i,
  input  logic        ans_chk_i,
  input  logic        ans_page_i,
  input  logic        ans_ok_i,
  input  logic [35:0] ans_vpn_i,
  input  logic [35:0] ans_ppn_i,
  // the fence of a region-table change
  input  logic        inv_active_i,
  input  logic [15:0] inv_key_i,
  output logic        hold_o
);

  // the cached message (mc_ok_q: its FIRST check passed) and its pages
  logic        mc_ok_q;
  logic [13:0] m_src_q;
  logic [7:0]  m_id_q;
  logic [47:0] m_end_q;
  logic [15:0] m_key_q;
  logic [4:0]  m_vp_q;
  logic        m_phys_q;
  logic        c_ok_q, n_ok_q, n_pend_q;
  logic [35:0] c_vpn_q, c_ppn_q, n_vpn_q, n_ppn_q;
  logic        out_q;             // a translation request is outstanding
  logic        n_gen_q, m_gen_q;  // the message a prefetch was asked for (a new FIRST flips m_gen)
  logic        kill_m;            // the cached message's pages are of the key withdrawn
  assign kill_m = inv_active_i && !m_phys_q && m_key_q == inv_key_i;

  assign hm_o = mc_ok_q && !kill_m && h_i.src_node == m_src_q && h_i.msg_id == m_id_q && h_i.dst_vp == m_vp_q
                && h_i.phys == m_phys_q && (h_i.phys || h_i.addr.key == m_key_q);
  assign hc_o = hm_o && (h_i.phys || (c_ok_q && h_i.addr.addr[47:12] == c_vpn_q));
  assign hn_o = hm_o && n_ok_q && h_i.addr.addr[47:12] == n_vpn_q;

  // requests: a held one, the state's own, or the prefetch of the next page
  typedef struct packed {
    logic [4:0]  vp;
    logic [63:0] addr;
    logic [31:0] len;
    logic        phys, phys_ok;
    logic        pf;    // a prefetch, asked for by message generation gen
    logic        gen;
  } rq_t;
  rq_t         rq_q;
  logic        rq_hold_q, want_pf, pf_taken;
  logic [35:0] pf_vpn;
  always_comb begin
    pf_vpn  = c_vpn_q + 36'd1;
    want_pf = pf_ok_i && c_ok_q && !n_ok_q && !out_q && !m_phys_q && mc_ok_q && {pf_vpn, 12'd0} < m_end_q;
    if (rq_hold_q) begin
      req_valid_o   = 1'b1;
      req_vp_o      = rq_q.vp;
      req_addr_o    = rq_q.addr;
      req_len_o     = rq_q.len;
      req_phys_o    = rq_q.phys;
      req_phys_ok_o = rq_q.phys_ok;
    end else if (ask_i) begin
      req_valid_o   = own_valid_i && !out_q;
      req_vp_o      = own_vp_i;
      req_addr_o    = own_addr_i;
      req_len_o     = own_len_i;
      req_phys_o    = own_phys_i;
      req_phys_ok_o = own_phys_ok_i;
    end else begin
      req_valid_o   = want_pf;
      req_vp_o      = m_vp_q;
      req_addr_o    = {m_key_q, pf_vpn, 12'd0};
      req_len_o     = 32'(((m_end_q - {pf_vpn, 12'd0}) > 48'd4096) ? 48'd4096 : (m_end_q - {pf_vpn, 12'd0}));
      req_phys_o    = 1'b0;  // (want_pf: the message is not physical)
      req_phys_ok_o = own_phys_ok_i;
    end
  end
  assign pf_taken  = req_valid_o && req_ready_i && (rq_hold_q ? rq_q.pf : !ask_i);
  assign own_rsp_o = rsp_valid_i && out_q && !n_pend_q;
  assign c_ppn_o   = c_ppn_q;
  assign n_ppn_o   = n_ppn_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rq_hold_q <= 1'b0; rq_q <= '0; out_q <= 1'b0;
      mc_ok_q <= 1'b0; m_src_q <= '0; m_id_q <= '0; m_end_q <= '0; m_key_q <= '0; m_vp_q <= '0; m_phys_q <= 1'b0;
      c_ok_q <= 1'b0; n_ok_q <= 1'b0; n_pend_q <= 1'b0; c_vpn_q <= '0; c_ppn_q <= '0; n_vpn_q <= '0; n_ppn_q <= '0;
      n_gen_q <= 1'b0; m_gen_q <= 1'b0;
    end else begin
      rq_hold_q <= req_valid_o && !req_ready_i;
      if (!rq_hold_q)
        rq_q <= {req_vp_o, req_addr_o, req_len_o, req_phys_o, req_phys_ok_o, !ask_i, m_gen_q};  // (rq_t's order)
      if (req_valid_o && req_ready_i) out_q <= 1'b1;
      if (rsp_valid_i) out_q <= 1'b0;
      if (pf_taken) begin
        n_pend_q <= 1'b1;
        n_vpn_q  <= req_addr_o[47:12];
        n_gen_q  <= rq_hold_q ? rq_q.gen : m_gen_q;  // the message that asked for it
      end
      if (rsp_valid_i && n_pend_q) begin  // kept only for the message that asked for it
        n_pend_q <= 1'b0;
        n_ok_q   <= rsp_status_i == nic_formats_pkg::NIC_STATUS_OK && n_gen_q == m_gen_q && !kill_m;
        n_ppn_q  <= rsp_ppn_i;
      end
      if (first_i) begin
        m_gen_q  <= !m_gen_q;
        mc_ok_q  <= 1'b0;
        m_src_q  <= h_i.src_node;
        m_id_q   <= h_i.msg_id;
        m_key_q  <= h_i.addr.key;
        m_vp_q   <= h_i.dst_vp;
        m_phys_q <= h_i.phys;
        m_end_q  <= h_i.addr.addr + 48'(h_i.msg_len);
        c_ok_q   <= 1'b0;
        n_ok_q   <= 1'b0;
      end
      if (use_n_i) begin
        c_vpn_q <= n_vpn_q;
        c_ppn_q <= n_ppn_q;
        n_ok_q  <= 1'b0;
      end
      if (ans_i) begin
        if (ans_chk_i) mc_ok_q <= ans_ok_i;
        if (ans_page_i) begin
          c_ok_q  <= ans_ok_i;
          c_vpn_q <= ans_vpn_i;
          c_ppn_q <= ans_ppn_i;
        end
      end
      if (kill_m) begin  // the fence: its later packets ask for their own translations
        c_ok_q  <= 1'b0;
        n_ok_q  <= 1'b0;
        mc_ok_q <= 1'b0;
      end
    end
  end
  assign hold_o = (kill_m && (c_ok_q || n_ok_q || n_pend_q || mc_ok_q)) || (inv_active_i && rq_hold_q);

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) assert (!(first_i && use_n_i)) else $error("nic_rx_pages: a FIRST that uses the next page");
  end
`endif
endmodule
