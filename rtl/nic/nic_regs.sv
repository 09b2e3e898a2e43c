// nic_regs: the NIC's register block (docs/nic.md section 5, map in docs/nic_formats.md): the
// MMIO slave decoding the 32 user pages (one per VP) and the privileged page.
//   MMIO      : one request per cycle; a read is answered by mmio_rsp_valid_o one cycle after it
//               was accepted. Unmapped offsets read 0 and ignore writes. mmio_req_ready_o is 1
//               except for a KEY_CTRL write while a fence is under way (key_busy_i, nic_inval) or
//               the previous KEY_CTRL commit is in this cycle: it waits until the fence is over.
//               KEY_STATUS.BUSY reads key_busy_i or a commit in this cycle.
//   DQ window : a write anywhere in a VP page's 0x000..0x7F8 is a PIO word for that VP's DQ
//               (pio_*; nic_dq says when it was dropped: the VP's ERR then records DQ_OVERFLOW).
//   Windows   : the per-VP ring context is kept by the units that use it: the CQ ring (base,
//               size, head, tail) in nic_cmpl, the MPQ ring in nic_rx, the host-DQ ring in nic_hdq.
//               An access to a VP's user page or VPC element is also routed to them (win_o,
//               nic_pkg::win_t); their answers (win_rdata_i, OR-ed) are returned with this unit's.
//   Set-up    : the privileged registers (VPC_CTRL, NODE_ID, KEY_*, ATT_*) are held here and
//               driven to the units; KEY_CTRL and ATT_DATA writes are one-cycle commit pulses.
//   Errors    : ErrPorts reporters (descriptor execution, receive path) plus DQ overflow, queued
//               into the VP error words (nic_vp_err): the first error of a VP since its ERR was
//               cleared is kept with a saturating count. A PIO write waits (mmio_req_ready_o low)
//               while the DQ-overflow queue is full.
//   Interrupt : irq_o is registered: high while some VP has (IRQ_CAUSE & IRQ_EN) != 0 or
//               (IRQ_STATUS & IRQ_ENABLE) != 0.
// Parameters: NumVp (<= 32), DqWords, NumKeys, AttLog2, RouteLog2 (reported in CONFIG), ErrPorts.
module nic_regs #(
  parameter int NumVp    = 32,
  parameter int DqWords  = 512,
  parameter int NumKeys  = 1024,
  parameter int AttLog2  = 16,
  parameter int RouteLog2 = 6,
  parameter int ErrPorts = 2,
  localparam int CntW = $clog2(DqWords + 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // MMIO slave
  input  logic                   mmio_req_valid_i,
  output logic                   mmio_req_ready_o,
  input  logic                   mmio_req_write_i,
  input  logic [17:0]            mmio_req_addr_i,
  input  logic [63:0]            mmio_req_wdata_i,
  output logic                   mmio_rsp_valid_o,
  output logic [63:0]            mmio_rsp_rdata_o,
  // PIO words to the DQs
  output logic                   pio_valid_o,
  output logic [4:0]             pio_vp_o,
  output logic [63:0]            pio_data_o,
  input  logic                   pio_drop_i,
  // host-DQ doorbells
  output logic                   tail_we_o,
  output logic [4:0]             tail_vp_o,
  output logic [31:0]            tail_o,
  // the windows of the units that keep per-VP context (nic_cmpl, nic_rx, nic_hdq)
  output nic_pkg::win_t          win_o,
  input  logic [63:0]            win_rdata_i,
  // region table and ATT writes
  output logic                   key_we_o,
  output logic [15:0]            key_sel_o,
  output logic [47:0]            key_base_o,
  output logic [39:0]            key_len_o,
  output logic [63:0]            key_ctrl_o,
  output logic                   att_we_o,
  output logic [31:0]            att_index_o,
  output logic [35:0]            att_ppn_o,
  // route-table writes (nic_route)
  output logic                   route_we_o,
  output logic [31:0]            route_index_o,
  output logic [23:0]            route_o,
  // VP set-up
  output logic [13:0]            node_id_o,
  output logic [NumVp-1:0]       vp_en_o,
  output logic [NumVp-1:0]       vp_phys_ok_o,
  // status of the units
  input  logic [NumVp*CntW-1:0]  dq_words_i,
  input  logic [NumVp*64-1:0]    vp_status_i,  // vp_status format per VP
  input  logic [31:0]            tx_pkts_i,
  input  logic [31:0]            rx_pkts_i,
  // errors and interrupt causes
  input  logic [ErrPorts-1:0]    err_valid_i,
  input  logic [ErrPorts*5-1:0]  err_vp_i,
  input  logic [ErrPorts*8-1:0]  err_code_i,
  input  logic [ErrPorts*16-1:0] err_tag_i,
  input  logic [NumVp-1:0]       cq_irq_i,     // pulse: a CQ entry of an INTR descriptor was written
  input  logic [NumVp-1:0]       mpq_irq_i,    // pulse: a mini-packet was written into the MPQ
  input  logic                   rx_err_valid_i,
  input  logic [63:0]            rx_err_i,     // RX_ERR fields CODE, PTYPE, SRC_NODE; COUNT: errors reported (1, 2)
  input  logic                   key_busy_i,   // a region-table fence is under way (nic_inval)
  // the link layer (rtl/link): the sender's status, the receiver's drop counters and error buffer
  input  logic [63:0]            link_status_i,  // LINK_STATUS fields
  input  logic [63:0]            link_drops_i,   // LINK_DROPS fields
  input  logic [4*96-1:0]        link_errbuf_i,  // lnk_errlog's entries
  input  logic                   link_dirty_i,   // a dirty packet dropped: IRQ_STATUS.LINK_DROP
  input  logic                   link_down_i,    // the link went down: IRQ_STATUS.LINK_DOWN
  input  logic                   link_up_i,      // it came back up: IRQ_STATUS.LINK_UP
  output logic                   link_clr_o,     // LINK_DROPS written: clear the counters
  output logic                   irq_o
);

  if (NumVp < 1 || NumVp > 32) begin : gen_err_vp
    $error("nic_regs: NumVp must be 1..32");
  end
  if (ErrPorts < 1) begin : gen_err_ports
    $error("nic_regs: ErrPorts must be >= 1");
  end

  // ---------------------------------------------------------------- state
  logic [13:0]         node_id_q;
  logic [3:0]          irq_status_q, irq_enable_q;
  logic [3:0]          irq_set;  // the causes of this cycle (a W1C write of the same cycle keeps them)
  assign irq_set = {link_up_i, link_down_i, link_dirty_i, rx_err_valid_i};
  logic [31:0]         att_index_q;
  logic [31:0]         route_index_q;
  logic [15:0]         key_sel_q;
  logic [47:0]         key_base_q;
  logic [39:0]         key_len_q;
  logic [63:0]         key_ctrl_q;
  logic [63:0]         rx_err_q;
  logic [16:0]         rx_err_sum;  // the count after this report (saturates at 0xFFFF)
  assign rx_err_sum = 17'(rx_err_q[nic_formats_pkg::NIC_RX_ERR_COUNT_LSB +: 16]) + 17'(rx_err_i[nic_formats_pkg::NIC_RX_ERR_COUNT_LSB +: 16]);
  logic [NumVp*3-1:0]  irq_en_q, irq_cause_q;
  logic [2:0]          cause_set;  // the causes the accessed VP gains in this cycle (ERR, MPQ, CQ)
  always_comb begin
    cause_set = '0;
    for (int v = 0; v < NumVp; v++) if (vp == 5'(v)) cause_set = {err_new && err_new_vp == vp, mpq_irq_i[v], cq_irq_i[v]};
  end
  logic [63:0]         rdata_q;
  logic                rsp_q, irq_q;

  // ---------------------------------------------------------------- decode
  logic        user, priv, wr, rd, key_wait, pio_wait;
  logic [ErrPorts:0] err_room;  // the error queues have room (the last: DQ overflow)
  logic [1:0]  le_idx;  // LINK_ERR entry of a privileged offset
  assign le_idx = 2'((poff - nic_formats_pkg::NIC_LINK_ERR_OFFSET) >> 4);
  logic [4:0]  vp;      // the user page, or the VPC element
  logic [11:0] uoff;    // offset inside a user page
  logic [17:0] poff;    // privileged offset
  logic [5:0]  voff;    // offset inside a VPC element
  logic        vpc;
  always_comb begin
    user = mmio_req_addr_i[17] == 1'b0 && 32'(mmio_req_addr_i[16:12]) < NumVp;
    priv = mmio_req_addr_i[17] == 1'b1;
    vp   = user ? mmio_req_addr_i[16:12] : mmio_req_addr_i[10:6];
    uoff = mmio_req_addr_i[11:0];
    poff = mmio_req_addr_i;
    vpc  = priv && mmio_req_addr_i >= nic_formats_pkg::NIC_VPC_OFFSET
           && 32'(mmio_req_addr_i) - 32'(nic_formats_pkg::NIC_VPC_OFFSET) < NumVp * 32'(nic_formats_pkg::NIC_VPC_STRIDE);
    voff = mmio_req_addr_i[5:0];
    key_wait = mmio_req_valid_i && mmio_req_write_i && priv && poff == 18'(nic_formats_pkg::NIC_KEY_CTRL_OFFSET)
               && (key_busy_i || key_we_o);
    pio_wait = mmio_req_valid_i && mmio_req_write_i && user && uoff < 12'(nic_formats_pkg::NIC_VP_DQ_FREE_OFFSET)
               && !err_room[ErrPorts];
    wr   = mmio_req_valid_i && mmio_req_write_i && !key_wait && !pio_wait;
    rd   = mmio_req_valid_i && !mmio_req_write_i;
  end
  assign mmio_req_ready_o = !key_wait && !pio_wait;

  // the owners' windows: a VP's user page and its VPC element
  always_comb begin
    win_o       = '0;
    win_o.valid = (wr || rd) && (user || vpc);
    win_o.write = mmio_req_write_i;
    win_o.vpc   = !user;
    win_o.vp    = vp;
    win_o.off   = user ? uoff : 12'(voff);
    win_o.wdata = mmio_req_wdata_i;
  end

  // DQ window and doorbells are decoded combinationally (one cycle less on the PIO path)
  assign pio_valid_o = wr && user && uoff < 12'(nic_formats_pkg::NIC_VP_DQ_FREE_OFFSET);
  assign pio_vp_o    = vp;
  assign pio_data_o  = mmio_req_wdata_i;
  assign tail_we_o   = wr && user && 18'(uoff) == nic_formats_pkg::NIC_VP_HDQ_TAIL_OFFSET;
  assign tail_vp_o   = vp;
  assign tail_o      = mmio_req_wdata_i[31:0];

  // ---------------------------------------------------------------- registers
  // errors: the reporters, then a dropped PIO word, queued into the VP error words
  logic [63:0] err_rd;
  logic        err_new;
  logic [4:0]  err_new_vp;
  nic_vp_err #(.NumVp(NumVp), .Ports(ErrPorts + 1)) u_err (
    .clk_i, .rst_ni,
    .rep_valid_i({pio_valid_o && pio_drop_i, err_valid_i}), .rep_room_o(err_room),
    .rep_vp_i({pio_vp_o, err_vp_i}), .rep_code_i({8'(nic_formats_pkg::NIC_STATUS_DQ_OVERFLOW), err_code_i}),
    .rep_tag_i({16'd0, err_tag_i}),
    .clr_i(wr && user && 18'(uoff) == nic_formats_pkg::NIC_VP_ERR_OFFSET), .clr_vp_i(vp),
    .rd_vp_i(vp), .rd_data_o(err_rd), .new_valid_o(err_new), .new_vp_o(err_new_vp));

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      node_id_q    <= '0;
      irq_status_q <= '0;
      irq_enable_q <= '0;
      att_index_q  <= '0;
      route_index_q <= '0;
      key_sel_q    <= '0;
      key_base_q   <= '0;
      key_len_q    <= '0;
      key_ctrl_q   <= '0;
      rx_err_q     <= '0;
      irq_en_q     <= '0;
      irq_cause_q  <= '0;
      vp_en_o      <= '0;
      vp_phys_ok_o <= '0;
      key_we_o     <= 1'b0;
      link_clr_o   <= 1'b0;
      att_we_o     <= 1'b0;
      att_index_o  <= '0;
      att_ppn_o    <= '0;
      route_we_o   <= 1'b0;
      route_index_o <= '0;
      route_o      <= '0;
      rsp_q        <= 1'b0;
      rdata_q      <= '0;
      irq_q        <= 1'b0;
    end else begin
      key_we_o <= 1'b0;
      link_clr_o <= 1'b0;
      att_we_o <= 1'b0;
      route_we_o <= 1'b0;
      // interrupt causes first, so a software clear in the same cycle wins only over older ones
      for (int v = 0; v < NumVp; v++) begin
        if (cq_irq_i[v])  irq_cause_q[v*3 + 0] <= 1'b1;
        if (mpq_irq_i[v]) irq_cause_q[v*3 + 1] <= 1'b1;
      end
      if (err_new) irq_cause_q[32'(err_new_vp)*3 + 2] <= 1'b1;
      if (rx_err_valid_i) begin
        // the first error's fields, and the count of errors (this report's COUNT: 1 or 2)
        if (rx_err_q[nic_formats_pkg::NIC_RX_ERR_COUNT_LSB +: 16] == '0) rx_err_q <= rx_err_i;
        else rx_err_q[nic_formats_pkg::NIC_RX_ERR_COUNT_LSB +: 16] <= rx_err_sum[16] ? 16'hFFFF : rx_err_sum[15:0];
      end
      irq_status_q <= irq_status_q | irq_set;
      // software writes
      if (wr && user) begin
        case (18'(uoff))
          nic_formats_pkg::NIC_VP_IRQ_EN_OFFSET:    irq_en_q[32'(vp)*3 +: 3]     <= mmio_req_wdata_i[2:0];
          // W1C: a cause raised in this cycle stays (as for IRQ_STATUS)
          nic_formats_pkg::NIC_VP_IRQ_CAUSE_OFFSET: irq_cause_q[32'(vp)*3 +: 3]  <= (irq_cause_q[32'(vp)*3 +: 3] & ~mmio_req_wdata_i[2:0]) | cause_set;
          default: ;
        endcase
      end
      if (wr && vpc) begin
        case (18'(voff))
          nic_formats_pkg::NIC_VPC_CTRL_OFFSET: begin
            vp_en_o[vp]      <= mmio_req_wdata_i[nic_formats_pkg::NIC_VPC_CTRL_ENABLE_LSB];
            vp_phys_ok_o[vp] <= mmio_req_wdata_i[nic_formats_pkg::NIC_VPC_CTRL_PHYS_OK_LSB];
          end
          default: ;
        endcase
      end else if (wr && priv) begin
        case (poff)
          nic_formats_pkg::NIC_NODE_ID_OFFSET:    node_id_q    <= mmio_req_wdata_i[13:0];
          nic_formats_pkg::NIC_IRQ_STATUS_OFFSET: irq_status_q <= (irq_status_q & ~mmio_req_wdata_i[3:0]) | irq_set;
          nic_formats_pkg::NIC_IRQ_ENABLE_OFFSET: irq_enable_q <= mmio_req_wdata_i[3:0];
          nic_formats_pkg::NIC_ATT_INDEX_OFFSET:  att_index_q  <= mmio_req_wdata_i[31:0];
          nic_formats_pkg::NIC_ATT_DATA_OFFSET: begin
            att_we_o    <= 1'b1;
            att_index_o <= att_index_q;
            att_ppn_o   <= mmio_req_wdata_i[35:0];
            att_index_q <= att_index_q + 32'd1;
          end
          nic_formats_pkg::NIC_ROUTE_INDEX_OFFSET: route_index_q <= mmio_req_wdata_i[31:0];
          nic_formats_pkg::NIC_ROUTE_DATA_OFFSET: begin
            route_we_o    <= 1'b1;
            route_index_o <= route_index_q;
            route_o       <= mmio_req_wdata_i[23:0];
            route_index_q <= route_index_q + 32'd1;
          end
          nic_formats_pkg::NIC_KEY_SEL_OFFSET:  key_sel_q  <= mmio_req_wdata_i[15:0];
          nic_formats_pkg::NIC_KEY_BASE_OFFSET: key_base_q <= mmio_req_wdata_i[47:0];
          nic_formats_pkg::NIC_KEY_LEN_OFFSET:  key_len_q  <= mmio_req_wdata_i[39:0];
          nic_formats_pkg::NIC_KEY_CTRL_OFFSET: begin
            key_ctrl_q <= mmio_req_wdata_i;
            key_we_o   <= 1'b1;
          end
          nic_formats_pkg::NIC_RX_ERR_OFFSET: rx_err_q <= '0;
          nic_formats_pkg::NIC_LINK_DROPS_OFFSET: link_clr_o <= 1'b1;
          default: ;
        endcase
      end
      // reads: answered in the next cycle
      rsp_q   <= rd;
      rdata_q <= rd ? win_rdata_i : '0;  // the owners' registers (0 when not theirs), with these
      if (rd && user) begin
        case (18'(uoff))
          nic_formats_pkg::NIC_VP_DQ_FREE_OFFSET:   rdata_q <= 64'(DqWords) - 64'(dq_words_i[32'(vp)*CntW +: CntW]);
          nic_formats_pkg::NIC_VP_ERR_OFFSET:       rdata_q <= err_rd;
          nic_formats_pkg::NIC_VP_STATUS_OFFSET:    rdata_q <= vp_status_i[32'(vp)*64 +: 64];
          nic_formats_pkg::NIC_VP_IRQ_EN_OFFSET:    rdata_q <= 64'(irq_en_q[32'(vp)*3 +: 3]);
          nic_formats_pkg::NIC_VP_IRQ_CAUSE_OFFSET: rdata_q <= 64'(irq_cause_q[32'(vp)*3 +: 3]);
          default: ;
        endcase
      end else if (rd && vpc) begin
        case (18'(voff))
          nic_formats_pkg::NIC_VPC_CTRL_OFFSET:     rdata_q <= 64'({vp_phys_ok_o[vp], vp_en_o[vp]});
          default: ;
        endcase
      end else if (rd && priv) begin
        case (poff)
          nic_formats_pkg::NIC_ID_OFFSET:         rdata_q <= (64'(nic_formats_pkg::NIC_ID_VERSION_RESET) << nic_formats_pkg::NIC_ID_VERSION_LSB) | 64'(nic_formats_pkg::NIC_ID_MAGIC_RESET);
          nic_formats_pkg::NIC_CONFIG_OFFSET:     rdata_q <= (64'(RouteLog2) << nic_formats_pkg::NIC_CONFIG_ROUTE_LOG2_LSB) | (64'(AttLog2) << nic_formats_pkg::NIC_CONFIG_ATT_LOG2_LSB) | (64'(NumKeys) << nic_formats_pkg::NIC_CONFIG_NUM_KEYS_LSB)
                                            | (64'(DqWords) << nic_formats_pkg::NIC_CONFIG_DQ_WORDS_LSB) | 64'(NumVp);
          nic_formats_pkg::NIC_NODE_ID_OFFSET:    rdata_q <= 64'(node_id_q);
          nic_formats_pkg::NIC_IRQ_VP_OFFSET:     rdata_q <= 64'(irq_vps);
          nic_formats_pkg::NIC_IRQ_STATUS_OFFSET: rdata_q <= 64'(irq_status_q);
          nic_formats_pkg::NIC_IRQ_ENABLE_OFFSET: rdata_q <= 64'(irq_enable_q);
          nic_formats_pkg::NIC_ATT_INDEX_OFFSET:  rdata_q <= 64'(att_index_q);
          nic_formats_pkg::NIC_ROUTE_INDEX_OFFSET: rdata_q <= 64'(route_index_q);
          nic_formats_pkg::NIC_KEY_SEL_OFFSET:    rdata_q <= 64'(key_sel_q);
          nic_formats_pkg::NIC_KEY_STATUS_OFFSET: rdata_q <= 64'(key_busy_i || key_we_o);
          nic_formats_pkg::NIC_KEY_BASE_OFFSET:   rdata_q <= 64'(key_base_q);
          nic_formats_pkg::NIC_KEY_LEN_OFFSET:    rdata_q <= 64'(key_len_q);
          nic_formats_pkg::NIC_KEY_CTRL_OFFSET:   rdata_q <= key_ctrl_q;
          nic_formats_pkg::NIC_RX_ERR_OFFSET:     rdata_q <= rx_err_q;
          nic_formats_pkg::NIC_LINK_STATUS_OFFSET: rdata_q <= link_status_i;
          nic_formats_pkg::NIC_LINK_DROPS_OFFSET:  rdata_q <= link_drops_i;
          nic_formats_pkg::NIC_COUNTERS_OFFSET:   rdata_q <= {rx_pkts_i, tx_pkts_i};
          default: begin  // the link's error buffer (LINK_ERR array: INFO, WORD per entry)
            if (poff >= nic_formats_pkg::NIC_LINK_ERR_OFFSET && poff < nic_formats_pkg::NIC_LINK_ERR_OFFSET
                + 18'(nic_formats_pkg::NIC_LINK_ERR_COUNT) * nic_formats_pkg::NIC_LINK_ERR_STRIDE)
              rdata_q <= poff[3] ? link_errbuf_i[32'(le_idx)*96 + 32 +: 64] : 64'(link_errbuf_i[32'(le_idx)*96 +: 32]);
          end
        endcase
      end
      irq_q <= irq_vps != '0 || (irq_status_q & irq_enable_q) != '0;
    end
  end

  logic [31:0] irq_vps;
  always_comb begin
    irq_vps = '0;
    for (int v = 0; v < NumVp; v++) irq_vps[v] = (irq_cause_q[v*3 +: 3] & irq_en_q[v*3 +: 3]) != '0;
  end

  assign mmio_rsp_valid_o = rsp_q;
  assign mmio_rsp_rdata_o = rdata_q;
  assign irq_o       = irq_q;
  assign node_id_o   = node_id_q;
  assign key_sel_o   = key_sel_q;
  assign key_base_o  = key_base_q;
  assign key_len_o   = key_len_q;
  assign key_ctrl_o  = key_ctrl_q;
endmodule
