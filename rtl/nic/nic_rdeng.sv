// nic_rdeng: the NIC's read engine (engines 0 and 1 are two instances; docs/nic.md section 4, the
// paper's sections 2.4 and 3). Per job: translates the source, reads it from host memory in
// requests of at most ReqBytes that never cross a 4 KB page, issued while the data FIFO
// (nic_rdfifo, FifoBytes) has room for every frame outstanding, and turns the frames into
// packets cut at destination 128-byte boundaries (nic_pktz: cmn_realign, then 5-flit packets).
// This file is the front end (translation, read requests, zero fill, FIFO credit) and the queues
// to the back end (nic_pktz), which drains one job's frames while the front end already
// translates and reads the next ones.
//   Job      : job_valid_i/job_ready_o with {vp, src, phys, phys_ok, len (>= 1), dst, head};
//              taken when the front end is idle (the previous job's reads all issued; its
//              packets may still be draining) and the job queue to the back end has room (JobQ =
//              4 jobs waiting besides the one whose packets are going out).
//   Translate: xl_req_* / xl_rsp_* (a nic_att client; write = 0). The first request checks the
//              whole source range (len = job length) and translates the first page; if it
//              fails, the job sends no packet and its result carries that status (in job order,
//              after the previous job's result). Later 4 KB pages are requested with len = the
//              job's bytes in that page, one at a time, each as soon as the previous answer is
//              back and there is room for the answer (two page slots: the page being read and
//              the next), so page-crossing translations overlap the data movement. A later page
//              that fails (the region deregistered under a transfer): no byte of it or beyond is
//              read; the FIFO is filled with zero frames instead and the job's result carries
//              the status (the packets still go out, with zeros from that page on). xl_rsp_ready_o
//              is always high (a response always has its slot); the response comes at least one
//              cycle after its request is accepted.
//   Fence    : while inv_active_i and the job's key is inv_key_i (not a physical job), the
//              job's translations are withdrawn (nic_inval): no new read is issued from the
//              next cycle on (a request already shown stays until taken, valid/ready), the
//              rest of the job is zero frames, and its result carries BAD_KEY as for a later
//              page that fails (a first translation still outstanding counts as
//              failed: no packet). inv_hold_o stays high while such a translation is held or
//              a lookup of it is outstanding.
//   Reads    : rd_req_* (48-bit physical byte address, len 1..ReqBytes, a rolling tag) cut at
//              ReqBytes-aligned addresses: the first request runs from the source address to the
//              next ReqBytes boundary, the others are aligned, so every 32-byte frame of the
//              source range is returned exactly once. A request is issued only while
//              (frames outstanding + frames it touches) <= FifoBytes / 32, outstanding counting
//              from the request until the frame leaves the FIFO.
//   Responses: rd_rsp_* frames aligned to 32-byte addresses, in request order (rd_rsp_last_i is
//              not needed: the engine counts frames). rd_rsp_ready_o is the FIFO's room, high
//              whenever a frame comes (the credit rule; asserted).
//   Packets, result: see nic_pktz (results in job order, a failed job's too).
//   Latency  : job to first translation request 1 cycle; translation answer to first read
//              request 1 cycle; a frame reaches the packetizer 3 cycles after it arrives; a
//              packet's head leaves once the FIFO holds every frame the packet needs.
//   Throughput: one read request per cycle. At large sizes one flit per cycle on the packet
//              output (25.6 bytes/cycle), across requests, pages and jobs, when the DMA channel
//              returns a frame per cycle and its latency is below about (FifoBytes / 32) * 1.25
//              cycles (320 with the defaults). The front end spends about the first
//              translation's latency plus 3 cycles per job, and at most JobQ + 1 jobs are in
//              the engine: measured with a 250-cycle DMA latency and a 24-cycle ATT, streams of
//              4 KB jobs and larger run at 25.6 bytes/cycle, 1 KB jobs at 15.2, 128-byte jobs
//              at 2.3 (tb/nic/test_nic_rdeng.cpp).
// Parameters: FifoBytes: data FIFO bytes (a multiple of 32, >= ReqBytes + 128). ReqBytes: largest
//   read request (a power of two, 32..4096). TagW: read tag bits (>= 1).
module nic_rdeng #(
  parameter int FifoBytes = 8192,
  parameter int ReqBytes  = 1024,
  parameter int TagW      = 4
) (
  input  logic         clk_i, rst_ni,
  // job
  input  logic         job_valid_i,
  output logic         job_ready_o,
  input  logic [4:0]   job_vp_i,
  input  logic [63:0]  job_src_i,     // vaddr format {KEY, ADDR} (physical ADDR with job_phys_i)
  input  logic         job_phys_i,
  input  logic         job_phys_ok_i,
  input  logic [31:0]  job_len_i,     // bytes, >= 1
  input  logic [63:0]  job_dst_i,     // destination {KEY, ADDR}: the packets' ADDR; its offset shapes the cuts
  input  logic [255:0] job_head_i,    // head-flit template (RHEAD, PTYPE, nodes, VPs, PHYS, REV, MSG_ID set)
  // result
  output logic         res_valid_o,
  input  logic         res_ready_i,
  output logic [7:0]   res_status_o,
  output logic [7:0]   res_msg_id_o,
  output logic [4:0]   res_vp_o,
  // translation client (nic_att port; write = 0)
  output logic         xl_req_valid_o,
  input  logic         xl_req_ready_i,
  output logic [4:0]   xl_req_vp_o,
  output logic [63:0]  xl_req_addr_o,
  output logic [31:0]  xl_req_len_o,
  output logic         xl_req_phys_o,
  output logic         xl_req_phys_ok_o,
  input  logic         xl_rsp_valid_i,
  output logic         xl_rsp_ready_o,
  input  logic [7:0]   xl_rsp_status_i,
  input  logic [47:0]  xl_rsp_paddr_i,
  // the fence of a region-table change (nic_inval)
  input  logic         inv_active_i,
  input  logic [15:0]  inv_key_i,
  output logic         inv_hold_o,
  // DMA read channel (a cmn_dma_arb master in the NIC; responses in request order)
  output logic         rd_req_valid_o,
  input  logic         rd_req_ready_i,
  output logic [47:0]  rd_req_addr_o,
  output logic [12:0]  rd_req_len_o,
  output logic [TagW-1:0] rd_req_tag_o,
  input  logic         rd_rsp_valid_i,
  output logic         rd_rsp_ready_o,
  input  logic [255:0] rd_rsp_data_i,
  input  logic         rd_rsp_last_i,
  // packets
  output logic         pkt_valid_o,
  input  logic         pkt_ready_i,
  output logic [255:0] pkt_data_o,
  output logic         pkt_last_o
);
  localparam int FifoFrames = FifoBytes / 32;
  localparam int ReqLog     = $clog2(ReqBytes);
  localparam int OutW       = $clog2(FifoFrames + 1);
  localparam int CntW       = $clog2(FifoFrames + 3);  // nic_rdfifo's count
  // Jobs taken and not yet started by the back end (see Throughput: 4 lets 4 KB jobs stream at
  // full rate with a 250-cycle DMA latency; more would help smaller jobs, 362 bits each).
  localparam int JobQ       = 4;

  // Parameter checks
  if (ReqBytes < 32 || ReqBytes > 4096 || (1 << ReqLog) != ReqBytes) begin : gen_err_req
    $error("nic_rdeng: ReqBytes must be a power of two in 32..4096");
  end
  if (FifoBytes % 32 != 0 || FifoBytes < ReqBytes + 128) begin : gen_err_fifo
    $error("nic_rdeng: FifoBytes must be a multiple of 32 and >= ReqBytes + 128");
  end
  if (TagW < 1) begin : gen_err_tag
    $error("nic_rdeng: TagW must be >= 1");
  end

  // ---------------------------------------------------------------- job registers
  typedef enum logic [1:0] {
    S_IDLE,  // takes a job
    S_XL0,   // first translation (whole-range check) under way
    S_READ,  // reads (and later translations) under way
    S_DONE   // reads all issued (or the first translation failed): the job's status out
  } state_e;
  state_e       fe_q;
  logic [4:0]   j_vp_q;                // the job's fields translation needs
  logic [15:0]  j_skey_q;
  logic         j_phys_q, j_phys_ok_q;
  logic         job_take, jq_ready;
  logic         fr_valid, fr_ready, fr_take;  // the data FIFO's output (to the back end)
  logic [255:0] fr_data;
  assign job_ready_o = fe_q == S_IDLE && jq_ready;
  assign job_take    = job_valid_i && job_ready_o;

  // ---------------------------------------------------------------- page slots
  // cur: the page the read cursor is in; nxt: the one after it. err: the page failed.
  logic         cur_v_q, cur_err_q, nxt_v_q, nxt_err_q;
  logic [35:0]  cur_ppn_q, nxt_ppn_q;
  logic         c_v, c_err, n_v, n_err;
  logic [35:0]  c_ppn, n_ppn;

  // ---------------------------------------------------------------- translation
  logic         xq_v_q, xq_wait_q;     // a request shown; a request accepted, answer not back
  logic [63:0]  xq_addr_q;
  logic [31:0]  xq_len_q;
  logic [47:0]  xl_next_q;             // ADDR of the next page to translate
  logic [31:0]  xl_left_q;             // job bytes in pages not yet requested
  logic         xl_stop_q;             // a page failed: no more requests
  logic         xq_take, xr_take, xr_ok, xl_go, kill;
  logic [7:0]   xr_st;                 // the answer's status (BAD_KEY when its key is fenced)
  logic         rd_hold_q;             // the read request shown last cycle was not taken: it stays
  logic [12:0]  pg0_bytes;             // job bytes the first page can hold (1..4096)
  logic [31:0]  xl_plen;

  assign xl_req_valid_o   = xq_v_q;
  assign xl_req_vp_o      = j_vp_q;
  assign xl_req_addr_o    = xq_addr_q;
  assign xl_req_len_o     = xq_len_q;
  assign xl_req_phys_o    = j_phys_q;
  assign xl_req_phys_ok_o = j_phys_ok_q;
  assign xl_rsp_ready_o   = 1'b1;
  assign xq_take   = xq_v_q && xl_req_ready_i;
  assign xr_take   = xl_rsp_valid_i;
  assign kill      = inv_active_i && !j_phys_q && j_skey_q == inv_key_i && (fe_q == S_XL0 || fe_q == S_READ);
  assign xr_st     = (kill && xl_rsp_status_i == nic_formats_pkg::NIC_STATUS_OK) ? nic_formats_pkg::NIC_STATUS_BAD_KEY
                                                                                  : xl_rsp_status_i;
  assign xr_ok     = xr_st == nic_formats_pkg::NIC_STATUS_OK;
  assign inv_hold_o = kill && (fe_q == S_XL0 || xq_v_q || xq_wait_q || (cur_v_q && !cur_err_q)
                               || (nxt_v_q && !nxt_err_q) || rd_hold_q);
  assign pg0_bytes = 13'h1000 - {1'b0, job_src_i[11:0]};
  assign xl_plen   = (xl_left_q > 32'h1000) ? 32'h1000 : xl_left_q;
  assign xl_go     = fe_q == S_READ && xl_left_q != '0 && !xl_stop_q && !xq_v_q && !xq_wait_q &&
                     !nxt_v_q;

  // ---------------------------------------------------------------- read cursor and credit
  logic [47:0]        rd_addr_q;       // next source ADDR to read
  logic [31:0]        rd_rem_q;        // job bytes not yet requested
  logic [TagW-1:0]    tag_q;
  logic [OutW-1:0]    outst_q;         // frames requested, not yet out of the FIFO
  logic [ReqLog:0]    rd_room, rd_len;
  logic               rd_last, rd_take, pg_end, pg_pop, credit;
  logic [ReqLog:0]    rd_frm;
  logic [CntW-1:0]    fifo_cnt;
  logic               zf, zf_last, rd_done;
  logic [5:0]         zf_bytes;        // source bytes a zero frame stands for (to the next frame)
  logic [OutW-1:0]    inflight;        // frames requested from the DMA, not yet arrived

  assign rd_room = (ReqLog+1)'(ReqBytes) - (ReqLog+1)'(rd_addr_q[ReqLog-1:0]);
  assign rd_last = rd_rem_q <= 32'(rd_room);
  assign rd_len  = rd_last ? rd_rem_q[ReqLog:0] : rd_room;
  assign rd_frm  = ((ReqLog+1)'(rd_addr_q[4:0]) + rd_len + (ReqLog+1)'(31)) >> 5;
  assign credit  = 32'(outst_q) + 32'(rd_frm) <= FifoFrames;
  assign inflight = outst_q - OutW'(fifo_cnt);

  // a request shown and not yet taken stays (valid/ready), even when a fence has marked its page
  assign rd_req_valid_o = fe_q == S_READ && rd_rem_q != '0 && cur_v_q && (!cur_err_q || rd_hold_q) && credit;
  assign rd_req_addr_o  = {cur_ppn_q, rd_addr_q[11:0]};
  assign rd_req_len_o   = 13'(rd_len);
  assign rd_req_tag_o   = tag_q;
  assign rd_take = rd_req_valid_o && rd_req_ready_i;
  assign pg_end  = 13'(rd_addr_q[11:0]) + 13'(rd_len) == 13'h1000;
  assign pg_pop  = rd_take && pg_end;

  // Zero fill (the cursor's page failed: it starts on a page boundary, or anywhere after a fence): one zero frame a cycle
  // once every DMA frame has arrived, within the credit.
  assign zf      = fe_q == S_READ && rd_rem_q != '0 && cur_v_q && cur_err_q && inflight == '0 &&
                   32'(outst_q) < FifoFrames && !xq_v_q && !xq_wait_q && !rd_hold_q;  // (a fence may leave a lookup or a request out)
  assign zf_bytes = 6'd32 - 6'(rd_addr_q[4:0]);  // a fence may stop the job before its first read
  assign zf_last  = rd_rem_q <= 32'(zf_bytes);
  assign rd_done = (rd_take && rd_last) || (zf && zf_last);

  always_comb begin
    c_v = cur_v_q;  c_err = cur_err_q;  c_ppn = cur_ppn_q;
    n_v = nxt_v_q;  n_err = nxt_err_q;  n_ppn = nxt_ppn_q;
    if (pg_pop) begin
      c_v = n_v;  c_err = n_err;  c_ppn = n_ppn;
      n_v = 1'b0;
    end
    if (xr_take) begin
      if (!c_v) begin
        c_v = 1'b1;  c_err = !xr_ok;  c_ppn = xl_rsp_paddr_i[47:12];
      end else begin
        n_v = 1'b1;  n_err = !xr_ok;  n_ppn = xl_rsp_paddr_i[47:12];
      end
    end
    if (kill && fe_q == S_READ) begin  // the fence: no read from the held pages
      c_err = c_err || c_v;
      n_err = n_err || n_v;
    end
    if (rd_done || (fe_q == S_XL0 && xr_take && !xr_ok)) begin
      c_v = 1'b0;
      n_v = 1'b0;
    end
  end

  // ---------------------------------------------------------------- job status
  logic       st_fail_q;               // the first translation failed
  logic [7:0] st_code_q;
  logic       st_push, st_q_ready, st_valid, st_ready, st_fail;
  logic [7:0] st_code;
  assign st_push = fe_q == S_DONE;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      fe_q        <= S_IDLE;
      j_vp_q      <= '0;
      j_skey_q    <= '0;
      j_phys_q    <= 1'b0;
      j_phys_ok_q <= 1'b0;
      xq_v_q      <= 1'b0;
      xq_wait_q   <= 1'b0;
      xq_addr_q   <= '0;
      xq_len_q    <= '0;
      xl_next_q   <= '0;
      xl_left_q   <= '0;
      xl_stop_q   <= 1'b0;
      cur_v_q     <= 1'b0;
      cur_err_q   <= 1'b0;
      cur_ppn_q   <= '0;
      nxt_v_q     <= 1'b0;
      nxt_err_q   <= 1'b0;
      nxt_ppn_q   <= '0;
      rd_addr_q   <= '0;
      rd_rem_q    <= '0;
      tag_q       <= '0;
      outst_q     <= '0;
      st_fail_q   <= 1'b0;
      st_code_q   <= '0;
      rd_hold_q   <= 1'b0;
    end else begin
      {cur_v_q, cur_err_q, cur_ppn_q} <= {c_v, c_err, c_ppn};
      rd_hold_q <= rd_req_valid_o && !rd_req_ready_i;
      {nxt_v_q, nxt_err_q, nxt_ppn_q} <= {n_v, n_err, n_ppn};
      outst_q <= outst_q + (rd_take ? OutW'(rd_frm) : '0) + OutW'(zf) - OutW'(fr_take);
      // translation requests
      if (xq_take) begin
        xq_v_q    <= 1'b0;
        xq_wait_q <= 1'b1;
      end
      if (xr_take) xq_wait_q <= 1'b0;
      if (xl_go) begin
        xq_v_q    <= 1'b1;
        xq_addr_q <= {j_skey_q, xl_next_q};
        xq_len_q  <= xl_plen;
        xl_next_q <= xl_next_q + 48'h1000;
        xl_left_q <= xl_left_q - xl_plen;
      end
      if (xr_take && !xr_ok) begin
        xl_stop_q <= 1'b1;
        st_code_q <= xr_st;
      end
      if (kill && fe_q == S_READ) begin
        xl_stop_q <= 1'b1;
        if (st_code_q == nic_formats_pkg::NIC_STATUS_OK) st_code_q <= nic_formats_pkg::NIC_STATUS_BAD_KEY;
      end
      // reads
      if (rd_take) begin
        rd_addr_q <= rd_addr_q + 48'(rd_len);
        rd_rem_q  <= rd_rem_q - 32'(rd_len);
        tag_q     <= tag_q + TagW'(1);
      end
      if (zf) begin
        rd_addr_q <= rd_addr_q + 48'(zf_bytes);
        rd_rem_q  <= zf_last ? '0 : rd_rem_q - 32'(zf_bytes);
      end
      unique case (fe_q)
        S_IDLE: if (job_take) begin
          fe_q        <= S_XL0;
          j_vp_q      <= job_vp_i;
          j_skey_q    <= job_src_i[63:48];
          j_phys_q    <= job_phys_i;
          j_phys_ok_q <= job_phys_ok_i;
          xq_v_q      <= 1'b1;
          xq_addr_q   <= job_src_i;
          xq_len_q    <= job_len_i;
          xl_next_q   <= {job_src_i[47:12] + 36'd1, 12'd0};
          xl_left_q   <= (job_len_i > 32'(pg0_bytes)) ? job_len_i - 32'(pg0_bytes) : '0;
          xl_stop_q   <= 1'b0;
          rd_addr_q   <= job_src_i[47:0];
          rd_rem_q    <= job_len_i;
          st_code_q   <= nic_formats_pkg::NIC_STATUS_OK;
          st_fail_q   <= 1'b0;
        end
        S_XL0: if (xr_take) begin
          st_fail_q <= !xr_ok;
          fe_q      <= xr_ok ? S_READ : S_DONE;
        end
        S_READ: if (rd_done) fe_q <= S_DONE;
        S_DONE: if (st_q_ready) fe_q <= S_IDLE;
        default: fe_q <= S_IDLE;
      endcase
    end
  end

  // One status per job, in job order: at most one per job the back end holds or has queued.
  logic [$clog2(JobQ + 2)-1:0] unused_st_cnt;
  cmn_fifo #(.Width(9), .Depth(JobQ + 1)) u_status (
    .clk_i, .rst_ni,
    .valid_i(st_push),
    .ready_o(st_q_ready),
    .data_i ({st_fail_q, st_code_q}),
    .valid_o(st_valid),
    .ready_i(st_ready),
    .data_o ({st_fail, st_code}),
    .count_o(unused_st_cnt)
  );

  // ---------------------------------------------------------------- job queue to the back end
  // Jobs go to the back end as they are taken (what it needs: source offset, length,
  // destination, template, vp); it starts one when the previous one's last flit has left.
  localparam int JqW = 5 + 32 + 64 + 256 + 5;
  logic           jq_valid, jq_ready_pk;
  logic [JqW-1:0] jq_data;
  logic [4:0]     jb_src_off, jb_vp;
  logic [31:0]    jb_len;
  logic [63:0]    jb_dst;
  logic [255:0]   jb_head;
  logic [$clog2(JobQ + 1)-1:0] unused_jq_cnt;
  cmn_fifo #(.Width(JqW), .Depth(JobQ)) u_jobs (
    .clk_i, .rst_ni,
    .valid_i(job_take),
    .ready_o(jq_ready),
    .data_i ({job_src_i[4:0], job_len_i, job_dst_i, job_head_i, job_vp_i}),
    .valid_o(jq_valid),
    .ready_i(jq_ready_pk),
    .data_o (jq_data),
    .count_o(unused_jq_cnt)
  );
  assign {jb_src_off, jb_len, jb_dst, jb_head, jb_vp} = jq_data;

  // ---------------------------------------------------------------- data FIFO and back end
  logic         fifo_wr;
  assign fifo_wr = rd_rsp_valid_i || zf;
  assign fr_take = fr_valid && fr_ready;

  nic_rdfifo #(.Depth(FifoFrames), .Width(256)) u_fifo (
    .clk_i, .rst_ni,
    .wr_valid_i(fifo_wr),
    .wr_ready_o(rd_rsp_ready_o),
    .wr_data_i (zf ? 256'd0 : rd_rsp_data_i),
    .rd_valid_o(fr_valid),
    .rd_ready_i(fr_ready),
    .rd_data_o (fr_data),
    .count_o   (fifo_cnt)
  );

  nic_pktz #(.CntW(CntW)) u_pktz (
    .clk_i, .rst_ni,
    .jb_valid_i  (jq_valid),
    .jb_ready_o  (jq_ready_pk),
    .jb_src_off_i(jb_src_off),
    .jb_len_i    (jb_len),
    .jb_dst_i    (jb_dst),
    .jb_head_i   (jb_head),
    .jb_vp_i     (jb_vp),
    .st_valid_i  (st_valid),
    .st_ready_o  (st_ready),
    .st_fail_i   (st_fail),
    .st_code_i   (st_code),
    .fr_valid_i  (fr_valid),
    .fr_ready_o  (fr_ready),
    .fr_data_i   (fr_data),
    .fr_count_i  (fifo_cnt),
    .pkt_valid_o,
    .pkt_ready_i,
    .pkt_data_o,
    .pkt_last_o,
    .res_valid_o,
    .res_ready_i,
    .res_status_o,
    .res_msg_id_o,
    .res_vp_o
  );

  // Not needed: the request's last frame (the engine counts frames), the page offset of paddr.
  logic unused_in;
  assign unused_in = rd_rsp_last_i ^ (^xl_rsp_paddr_i[11:0]);

`ifndef SYNTHESIS
  // ---------------------------------------------------------------- assertions
  a_known: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !$isunknown({job_valid_i, xl_req_ready_i, xl_rsp_valid_i, rd_req_ready_i, rd_rsp_valid_i,
                   pkt_ready_i, res_ready_i}));
  a_job_len: assert property (@(posedge clk_i) disable iff (!rst_ni) job_valid_i |-> job_len_i != '0);
  // Translation answers only what was asked.
  a_xl_rsp: assert property (@(posedge clk_i) disable iff (!rst_ni) xl_rsp_valid_i |-> xq_wait_q);
  // Reads: within ReqBytes and one page; the credit rule; frames only when some are due.
  a_rd_len: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rd_req_valid_o |-> rd_req_len_o != '0 && 32'(rd_req_len_o) <= ReqBytes &&
                         13'(rd_req_addr_o[11:0]) + rd_req_len_o <= 13'h1000);
  a_credit: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(outst_q) <= FifoFrames);
  a_rsp_due: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rd_rsp_valid_i |-> inflight != '0 && !zf && rd_rsp_ready_o);
  a_fifo_le: assert property (@(posedge clk_i) disable iff (!rst_ni)
      32'(fifo_cnt) <= 32'(outst_q));
  // A job ends its reads with every translation answered.
  a_done_xl: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rd_done |-> !xq_v_q && !xq_wait_q && (xl_left_q == '0 || xl_stop_q));
  // The status queue never overflows (at most two jobs between the front end and the result).
  a_st_room: assert property (@(posedge clk_i) disable iff (!rst_ni) st_push |-> st_q_ready);
  a_req_hold: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rd_req_valid_o && !rd_req_ready_i |=> rd_req_valid_o &&
                                           $stable({rd_req_addr_o, rd_req_len_o, rd_req_tag_o}));
`endif
endmodule
