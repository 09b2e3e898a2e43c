// nic_pktz: the read engine's packetizer (nic_rdeng's back end). Takes the source frames of one
// job at a time from the data FIFO, realigns them from the source offset to the destination
// offset (cmn_realign) and cuts them at destination 128-byte boundaries into packets of 5 flits:
// one packet per destination 128-byte block the job touches.
//   Jobs     : jb_valid_i/jb_ready_o, in order, each as soon as the previous one has ended (the
//              same cycle as its last flit). The data FIFO holds (or will hold) exactly the job's
//              source frames: the 32-byte-aligned frames covering source bytes [src, src + len),
//              src mod 32 = jb_src_off_i, in address order; none if its first translation failed.
//              A failed job's status shows before a frame of a later job is counted (nic_rdeng
//              puts a job's status out before it starts the next job's reads), so no frame is
//              ever taken for it.
//   Status   : st_valid_i/st_ready_o/{st_fail_i, st_code_i}: one per job, in job order (OK, a
//              later page's failure, or st_fail_i with the failed first translation's status).
//              Taken with the job's last flit, or, when st_fail_i shows while the job is the
//              current one (no packet of it has begun: it has no frame), with its result. The
//              LAST packet's head waits for it and carries it (AUX STATUS): a later page's
//              failure is the receiver's to report (NACK, or the read's completion), once.
//   Frames   : fr_valid_i/fr_ready_o/fr_data_i: the data FIFO's output; fr_count_i its
//              occupancy (frames held, some still on their way to the output: nic_rdfifo counts
//              a frame two cycles before it can show it).
//   Packets  : pkt_valid_o/pkt_ready_i/pkt_data_o/pkt_last_o: flit 0 the head (nic_formats
//              pkt_head: the job's template with FIRST on the first packet, LAST on the last,
//              LEN = the packet's valid bytes, ADDR = {dst KEY, destination address of its first
//              valid byte}, MSG_LEN = the job length, AUX = 0, on the LAST packet the job's
//              status), flits 1..4 the block's four 32-byte frames
//              (payload byte i = destination byte (ADDR & ~127) + i; bytes outside the job 0),
//              pkt_last_o on flit 4. A head leaves only when the FIFO holds every frame the
//              packet still needs, so that a packet, once begun, is never held up by the DMA.
//   Result   : res_valid_o/res_ready_i/{res_status_o, res_msg_id_o, res_vp_o}: one per job, in
//              job order, once its last flit has been accepted (a failed job: once every earlier
//              flit has been accepted), through a 2-entry queue. Status OK for a job that sent
//              its packets (its last packet's head carries a later page's failure). The head of a job's LAST packet
//              leaves only with an entry reserved for its result, so a packet once begun never
//              waits for the result's consumer: the consumer may need the VC this packet holds
//              (nic_ackgen's answers on VC1).
//   Latency  : a flit enters a 2-entry output FIFO (cmn_fifo) the cycle it is formed and is at
//              pkt_data_o the next cycle; no packet or result output depends combinationally
//              on an input.
//   Throughput: one flit per cycle (5 per 128 bytes), 4 source frames per 5 cycles in steady
//              state; the next job's first head follows the previous job's last flit at once,
//              but for a job of one packet: its head, a LAST one, waits for the result entry the
//              previous job's last flit holds until it leaves (one idle cycle on pkt_*).
// Parameters: CntW: width of fr_count_i (the FIFO's count).
module nic_pktz #(
  parameter int CntW = 9
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // jobs (from the front end)
  input  logic            jb_valid_i,
  output logic            jb_ready_o,
  input  logic [4:0]      jb_src_off_i,
  input  logic [31:0]     jb_len_i,
  input  logic [63:0]     jb_dst_i,
  input  logic [255:0]    jb_head_i,
  input  logic [4:0]      jb_vp_i,
  // job status
  input  logic            st_valid_i,
  output logic            st_ready_o,
  input  logic            st_fail_i,
  input  logic [7:0]      st_code_i,
  // source frames
  input  logic            fr_valid_i,
  output logic            fr_ready_o,
  input  logic [255:0]    fr_data_i,
  input  logic [CntW-1:0] fr_count_i,
  // packets
  output logic            pkt_valid_o,
  input  logic            pkt_ready_i,
  output logic [255:0]    pkt_data_o,
  output logic            pkt_last_o,
  // result
  output logic            res_valid_o,
  input  logic            res_ready_i,
  output logic [7:0]      res_status_o,
  output logic [7:0]      res_msg_id_o,
  output logic [4:0]      res_vp_o
);
  // Parameter checks
  if (CntW < 3) begin : gen_err_cntw
    $error("nic_pktz: CntW must be >= 3 (a packet may need 5 frames)");
  end

  // ---------------------------------------------------------------- job state
  logic                       busy_q, fail_now;
  nic_formats_pkg::pkt_head_t head_q;     // template; MSG_LEN and the ADDR key set at load
  logic [4:0]                 vp_q, src_off_q, dst_off_q;
  // source side: bytes not yet fed to the realigner, the next beat is the job's first
  logic [31:0]                src_rem_q;
  logic                       src_first_q;
  // packet side
  logic [31:0]                hrem_q;     // job bytes not yet given to a packet
  logic [47:0]                baddr_q;    // destination address of the next packet's first byte
  logic                       pfirst_q;   // the next head is the job's first
  logic                       plast_q;    // the packet under way is the job's last
  logic [2:0]                 slot_q;     // 0: head next; 1..4: payload frame slot_q-1 next
  logic [1:0]                 slo_q, shi_q;  // the packet's payload frames holding job bytes

  // A job whose first translation failed: its status (the head of the status queue, since every
  // earlier job has taken its own) says so; it has no frame and no packet has begun.
  logic run;
  assign fail_now = busy_q && st_valid_i && st_fail_i;
  assign run      = busy_q && !fail_now;

  // ---------------------------------------------------------------- the next head
  logic [6:0]  boff;
  logic [1:0]  shi_d;
  logic [4:0]  unused_bend_lo;
  logic [7:0]  room, plen;
  logic        hlast;
  logic [31:0] ahead;
  logic [7:0]  need_b, need_f;
  logic [4:0]  pos;
  logic        data_ok;
  assign boff  = baddr_q[6:0];
  assign room  = 8'd128 - {1'b0, boff};              // 1..128
  assign hlast = hrem_q <= 32'(room);
  assign plen  = hlast ? hrem_q[7:0] : room;         // 1..128
  // the frame of the packet's last valid byte (boff + plen - 1 < 128)
  assign {shi_d, unused_bend_lo} = boff + plen[6:0] - 7'd1;
  // Frames the packet still needs from the FIFO: its bytes not yet fed to the realigner (bytes
  // fed ahead of the packets headed so far sit in the realigner).
  assign ahead  = hrem_q - src_rem_q;
  assign need_b = (ahead >= 32'(plen)) ? 8'd0 : plen - ahead[7:0];
  assign pos    = src_first_q ? src_off_q : 5'd0;
  assign need_f = (8'(pos) + need_b + 8'd31) >> 5;   // 0..5
  assign data_ok = 32'(fr_count_i) >= 32'(need_f);

  nic_formats_pkg::pkt_head_t hflit, ld_head;
  logic [255:0]               hbits;
  always_comb begin
    ld_head          = jb_head_i;
    ld_head.msg_len  = jb_len_i;
    ld_head.addr.key = jb_dst_i[63:48];
    hflit           = head_q;
    hflit.first     = pfirst_q;
    hflit.last      = hlast;
    hflit.len       = plen;
    hflit.addr.addr = baddr_q;
    hflit.aux       = hlast ? 64'(st_code_i) : 64'd0;
  end
  assign hbits = hflit;

  // ---------------------------------------------------------------- realigner
  logic [4:0]   b_off;
  logic [5:0]   b_room, b_len;
  logic         b_last, ra_valid_i, ra_ready_o, fr_take;
  logic         ra_valid_o, ra_ready_i, ra_first_o, ra_last_o;
  logic [255:0] ra_data_o;
  logic [4:0]   ra_lo_o;
  logic [5:0]   ra_len_o;
  logic         ra_sid_o, ra_user_o;
  assign b_off      = src_first_q ? src_off_q : 5'd0;
  assign b_room     = 6'd32 - {1'b0, b_off};
  assign b_last     = src_rem_q <= 32'(b_room);
  assign b_len      = b_last ? src_rem_q[5:0] : b_room;
  assign ra_valid_i = run && src_rem_q != '0 && fr_valid_i;
  assign fr_ready_o = run && src_rem_q != '0 && ra_ready_o;
  assign fr_take    = fr_valid_i && fr_ready_o;

  cmn_realign #(.Bytes(32), .Streams(1), .UserW(1)) u_realign (
    .clk_i, .rst_ni,
    .valid_i  (ra_valid_i),
    .ready_o  (ra_ready_o),
    .sid_i    (1'b0),
    .first_i  (src_first_q),
    .dst_off_i(dst_off_q),
    .off_i    (b_off),
    .len_i    (b_len),
    .last_i   (b_last),
    .data_i   (fr_data_i),
    .user_i   (1'b0),
    .valid_o  (ra_valid_o),
    .ready_i  (ra_ready_i),
    .sid_o    (ra_sid_o),
    .data_o   (ra_data_o),
    .lo_o     (ra_lo_o),
    .len_o    (ra_len_o),
    .first_o  (ra_first_o),
    .last_o   (ra_last_o),
    .user_o   (ra_user_o)
  );

  // Only the assertions read the frame's position fields; one stream, no user bits.
  logic unused_ra;
  assign unused_ra = ^{ra_first_o, ra_last_o, ra_lo_o, ra_len_o, ra_sid_o, ra_user_o};

  // ---------------------------------------------------------------- flits
  localparam int ObW = 256 + 1 + 1 + 8 + 8 + 5;  // data, last, job end, status, msg id, vp
  logic           ob_valid_i, ob_ready_o, ob_valid_o, ob_ready_i;
  logic [ObW-1:0] ob_data_i, ob_data_o;
  logic [1:0]     ob_cnt;
  logic [1:0]     sidx;
  logic           sdata, s_end, j_end, slot_ok;
  logic           do_head, do_data, do_zero, do_flit, fail_go, done_now;
  logic [255:0]   flit;

  assign sidx    = slot_q[1:0] - 2'd1;                 // slots 1..4 -> frames 0..3
  assign sdata   = sidx >= slo_q && sidx <= shi_q;
  assign s_end   = slot_q == 3'd4;
  assign j_end   = s_end && plast_q;
  logic res_room;  // a result entry free (none reserved, fewer than 2 held)
  assign do_head = run && slot_q == 3'd0 && ob_ready_o && data_ok && (!hlast || (res_room && st_valid_i));
  assign slot_ok = run && slot_q != 3'd0 && ob_ready_o && (!j_end || st_valid_i);
  assign ra_ready_i = slot_ok && sdata;
  assign do_data = slot_ok && sdata && ra_valid_o;
  assign do_zero = slot_ok && !sdata;
  assign do_flit = do_data || do_zero;
  // A failed job's result waits for every earlier flit (and result) to leave.
  assign fail_go  = fail_now && ob_cnt == 2'd0 && res_room;
  assign done_now = (do_flit && j_end) || fail_go;
  assign st_ready_o = done_now;
  assign jb_ready_o = !busy_q || done_now;

  assign flit       = do_head ? hbits : (do_data ? ra_data_o : 256'd0);
  assign ob_valid_i = do_head || do_flit;
  assign ob_data_i  = {vp_q, head_q.msg_id, nic_formats_pkg::NIC_STATUS_OK, do_flit && j_end, do_flit && s_end, flit};

  cmn_fifo #(.Width(ObW), .Depth(2)) u_ob (
    .clk_i, .rst_ni,
    .valid_i(ob_valid_i),
    .ready_o(ob_ready_o),
    .data_i (ob_data_i),
    .valid_o(ob_valid_o),
    .ready_i(ob_ready_i),
    .data_o (ob_data_o),
    .count_o(ob_cnt)
  );

  logic ob_end;
  assign ob_end      = ob_data_o[257];
  // A job's last flit has its result entry reserved (res_room at its last head).
  assign pkt_valid_o = ob_valid_o;
  assign ob_ready_i  = pkt_ready_i;
  assign pkt_data_o  = ob_data_o[255:0];
  assign pkt_last_o  = ob_data_o[256];

  // ---------------------------------------------------------------- state
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      head_q      <= '0;
      vp_q        <= '0;
      src_off_q   <= '0;
      dst_off_q   <= '0;
      src_rem_q   <= '0;
      src_first_q <= 1'b0;
      hrem_q      <= '0;
      baddr_q     <= '0;
      pfirst_q    <= 1'b0;
      plast_q     <= 1'b0;
      slot_q      <= '0;
      slo_q       <= '0;
      shi_q       <= '0;
    end else begin
      if (fr_take) begin
        src_rem_q   <= src_rem_q - 32'(b_len);
        src_first_q <= 1'b0;
      end
      if (do_head) begin
        hrem_q   <= hrem_q - 32'(plen);
        baddr_q  <= {baddr_q[47:7] + 41'd1, 7'd0};
        pfirst_q <= 1'b0;
        plast_q  <= hlast;
        slo_q    <= boff[6:5];
        shi_q    <= shi_d;
        slot_q   <= 3'd1;
      end
      if (do_flit) slot_q <= s_end ? 3'd0 : slot_q + 3'd1;
      if (done_now) busy_q <= 1'b0;
      if (jb_valid_i && jb_ready_o) begin
        busy_q              <= 1'b1;
        head_q              <= ld_head;
        vp_q                <= jb_vp_i;
        src_off_q           <= jb_src_off_i;
        dst_off_q           <= jb_dst_i[4:0];
        src_rem_q           <= jb_len_i;
        src_first_q         <= 1'b1;
        hrem_q              <= jb_len_i;
        baddr_q             <= jb_dst_i[47:0];
        pfirst_q            <= 1'b1;
        plast_q             <= 1'b0;
        slot_q              <= 3'd0;
      end
    end
  end

  // ---------------------------------------------------------------- result
  localparam int RqW = 8 + 8 + 5;
  logic           rq_valid_i, rq_ready_o;
  logic [RqW-1:0] rq_data_i, rq_data_o;
  logic [1:0]     rq_cnt;
  logic           rsv_q;  // an entry reserved for the job whose last packet is under way
  assign rq_valid_i = (pkt_valid_o && pkt_ready_i && ob_end) || fail_go;
  assign rq_data_i  = fail_go ? {vp_q, head_q.msg_id, st_code_i} : ob_data_o[ObW-1:258];
  assign res_room   = !rsv_q && rq_cnt != 2'd2;
  cmn_fifo #(.Width(RqW), .Depth(2)) u_res (
    .clk_i, .rst_ni,
    .valid_i(rq_valid_i),
    .ready_o(rq_ready_o),
    .data_i (rq_data_i),
    .valid_o(res_valid_o),
    .ready_i(res_ready_i),
    .data_o (rq_data_o),
    .count_o(rq_cnt)
  );
  assign {res_vp_o, res_msg_id_o, res_status_o} = rq_data_o;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) rsv_q <= 1'b0;
    else if (do_head && hlast) rsv_q <= 1'b1;
    else if (pkt_valid_o && pkt_ready_i && ob_end) rsv_q <= 1'b0;
  end

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({jb_valid_i, st_valid_i, fr_valid_i, pkt_ready_i, res_ready_i}));
  a_len: assert property (@(posedge clk_i) disable iff (!rst_ni) jb_valid_i |-> jb_len_i != '0);
  // A flit always finds room (every push is gated by ob_ready_o).
  a_ob_room: assert property (@(posedge clk_i) disable iff (!rst_ni) ob_valid_i |-> ob_ready_o);
  // The realigner's frames fall into the payload slots the cut computed: the job's first frame
  // in its first data slot, starting at the destination offset, its last in the last one.
  logic dseen_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni || (jb_valid_i && jb_ready_o)) dseen_q <= 1'b0;
    else if (do_data)                          dseen_q <= 1'b1;
  end
  a_ra_first: assert property (@(posedge clk_i) disable iff (!rst_ni)
      do_data |-> ra_first_o == !dseen_q && ra_lo_o == (dseen_q ? 5'd0 : dst_off_q));
  a_ra_last: assert property (@(posedge clk_i) disable iff (!rst_ni)
      do_data |-> ra_last_o == (plast_q && sidx == shi_q));
  a_ra_len: assert property (@(posedge clk_i) disable iff (!rst_ni)
      do_data && !ra_last_o |-> 6'(ra_lo_o) + ra_len_o == 6'd32);
  // No frame is left when the job ends; the source side ends no later than the packet side (its
  // last beat may give the last flit).
  a_fail_clean: assert property (@(posedge clk_i) disable iff (!rst_ni)
      fail_now |-> pfirst_q && slot_q == 3'd0 && !dseen_q && src_first_q);
  a_ra_idle: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !run |-> !ra_valid_o);
  a_src_done: assert property (@(posedge clk_i) disable iff (!rst_ni)
      done_now && !fail_now |-> hrem_q == '0 && (src_rem_q == '0 || (fr_take && b_last)));
  // A result always finds its reserved entry.
  a_res_room: assert property (@(posedge clk_i) disable iff (!rst_ni) rq_valid_i |-> rq_ready_o);
  a_res_hold: assert property (@(posedge clk_i) disable iff (!rst_ni)
      res_valid_o && !res_ready_i |=> res_valid_o && $stable({res_status_o, res_msg_id_o, res_vp_o}));
  a_pkt_hold: assert property (@(posedge clk_i) disable iff (!rst_ni)
      pkt_valid_o && !pkt_ready_i |=> pkt_valid_o && $stable({pkt_data_o, pkt_last_o}));
`endif
endmodule
