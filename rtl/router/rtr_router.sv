// rtr_router: bubble-flow routers of a mesh (k-ary n-cube without wraparound), n = Dims (2, 3):
// DBFC flow control with ADBR adaptive routing, or dimension-order routing with virtual
// cut-through or wormhole switching (Mode); or of a torus (Torus: wraparound in every dimension,
// DOR-VCT with the bubble rule of Puente et al.: a packet entering a ring needs 2 free packet
// slots downstream, one continuing in it 1). Theory of operation, timing, the deadlock-freedom
// argument and the signals to trace: docs/router.md.
//
// One instance holds a K0 x K1 (x K2) block of mesh-connected routers, router r = x + K0*(y +
// K1*z), described once: all state lives in arrays indexed by the router and the logic loops over
// the routers, so that Verilator emits the router's code once (net_mesh: the whole network is one
// block, Ext = 0); K0 = K1 = K2 = 1 is one router with every port external (Ext = 1: unit tests,
// synthesis). Ports of a router: network port p = 2*d + s (dimension d, s = 0 the + direction);
// input p receives the packets travelling in direction p, output p sends them on; port NN = 2*Dims
// is the local one (injection in, ejection out). Boundary ports (Ext) are at index r*NN + p; links
// carry no ready: the sender reserves room downstream with credits (in_cred_o/out_cred_i: one-cycle
// pulses, one per packet slot freed in the VCT modes, per flit entry in wormhole mode). VCT: a
// slot's credit may come one cycle before its tail leaves (early credit, docs/router.md).
// At a boundary port the link and credit registers are at the receiver: out_valid_o/out_data_o
// and in_cred_o are this cycle's decisions (combinational from the state, no path from an input),
// in_valid_i/in_data_i and out_cred_i are registered at the edge. Two blocks joined port to port
// thus behave as one block; a sender that sees a credit pulse in cycle c drives the flit for it in
// cycle c+1 at the earliest, as a neighbouring router does.
//
// A head whose route leaves the network (hops towards an output with no link: beyond a mesh's edge,
// or a boundary output whose out_en_i is low; hops in a dimension >= Dims) is ejected by the
// router where it is, its route field and hop counter as they are (rtr_pkg::unroutable).
//
// Latency: 2 cycles per hop (head written into an input buffer at edge t, in the output's link
// register at t+1, in the next router's input buffer at t+2); injection to ejection of a node's own
// packet 2 cycles. inj_ready_o and every ej_* output are registered.
//
// Parameters: Dims (2, 3); K0, K1, K2: block size (K2 = 1 in 2-D); BufPkts: input buffer storage in
// packets (<= 8; ADBR needs >= Dims, the DBFC minimum); PktFlits: flits per packet; FlitW: flit
// width (a multiple of 32); Mode: 0 ADBR, 1 DOR-VCT, 2 DOR-wormhole; Sel: ADBR tie preference
// (rtr_pkg::route_info); Ext: boundary ports used; Torus: wraparound links (Mode 1 only, BufPkts
// >= 2); Bubble: 0 drops the bubble rule on a torus (every hop needs one free slot): a torus that
// deadlocks, for demonstrations and the test that shows the rule is needed (docs/router.md).
// buf_pkts_i: the depth in use (BufMin..BufPkts, read during reset).
// WaitW: width of the cycle counter and of the per-slot arrival stamps (waits are counted modulo
// 2^WaitW; the proven bound must stay below it, docs/router.md#starvation-freedom). WaitArb: 0
// leaves the wait-ordered allocation out of the hardware (wait_arb_i is then ignored; the bound
// does not rest on it).
//
// Starvation freedom (docs/router.md#starvation-freedom), both inputs read during reset:
//   starve_t_i: T, the wait (cycles since the head was written into this router's input buffer;
//   DOR-WH: since it reached the front of its FIFO) at which a waiting packet is starving; 0 turns
//   the backstop off. While any packet of the network is starving, every router stops taking new
//   packets at its injection port (hold): starve_o is this block's flag (combinational from the
//   state), hold_i the other blocks' flags ORed by the harness (0 for one block), registered with
//   starve_o into hold_q at the edge, so a network split in blocks holds in the same cycle as one
//   block. hold_o = hold_q. A packet being written into the injection buffer is completed.
//   wait_arb_i: 1 = the switch allocator visits first the input whose picked packet has waited
//   longest (ties: the rotating pointer), 0 = plain rotation.
//
// Implementation: a combinational block computes every router's decisions for the cycle from the
// state before the edge (skipping idle routers); the sequential block applies them in two passes
// over the routers, (A) inputs: flits and credits sent in the last cycle, (B) outputs, read side,
// ejection. Pass A reads only what pass B of the previous cycle wrote, so the blocking assignments
// inside the loops behave as registers (Verilator 5.006 cannot delay assignments to arrays inside
// loops). Both blocks assign their temporaries first, outside any branch, and the temporaries are
// not traced: Verilator then makes them local variables of the generated C++ (docs/router.md,
// Speed).
module rtr_router #(
  parameter int Dims     = 2,
  parameter int K0       = 1,
  parameter int K1       = 1,
  parameter int K2       = 1,
  parameter int BufPkts  = 2,
  parameter int PktFlits = 5,
  parameter int FlitW    = 256,
  parameter int Mode     = 0,
  parameter int Sel      = 0,
  parameter bit Ext      = 1'b1,
  parameter int Torus    = 0,
  parameter int Bubble   = 1,
  parameter int WaitW    = 32,
  parameter bit WaitArb  = 1'b1,
  parameter int Barrier  = 0,
  localparam int NR      = K0 * K1 * K2,  // routers
  localparam int NN      = 2 * Dims,      // network ports per router
  localparam int NP      = NN + 1,        // plus the local port
  localparam int InW     = $clog2(NP),
  localparam int NS      = (Mode == 2) ? 1 : BufPkts,  // requesting slots per input
  localparam int SlotW   = (NS > 1) ? $clog2(NS) : 1,
  localparam int Depth   = BufPkts * PktFlits,         // flit entries per input
  localparam int IdxW    = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int PosW    = (PktFlits > 1) ? $clog2(PktFlits) : 1,
  localparam int CntW    = $clog2(Depth + 1),
  localparam int CredMax = (Mode == 2) ? Depth : BufPkts,
  localparam int CredW   = $clog2(CredMax + 1),
  localparam int InfoW   = 2 * Dims + 5,
  localparam int AddrW   = $clog2(NR * NP * Depth),
  localparam int RW      = (NR > 1) ? $clog2(NR) : 1,
  localparam int BufMin  = (Mode == 0) ? Dims : (Torus != 0) ? 2 : 1,  // smallest run-time depth (DBFC
                                                               // in ADBR, the bubble rule on a torus)
  localparam int BubbleRule = (Torus != 0 && Bubble != 0) ? 1 : 0,  // route_info: k by input port
  localparam int BarSlots = NP * BufPkts + 1  // packet slots reported to a barrier phase unit
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // input buffer depth in use, in packets (1..BufPkts; ADBR: >= Dims); read only during reset
  input  logic [rtr_pkg::BufW-1:0] buf_pkts_i,
  // starvation backstop threshold T (0: off) and wait-ordered allocation; read during reset
  input  logic [15:0]            starve_t_i,
  input  logic                   wait_arb_i,
  // hold: the other blocks' starving flags (ORed; 0 for a single block); this block's flag
  input  logic                   hold_i,
  output logic                   starve_o,
  output logic                   hold_o,
  // boundary network ports (router r, port p at r*NN + p; Ext = 1)
  input  logic [NR*NN-1:0]       in_valid_i,
  input  logic [NR*NN*FlitW-1:0] in_data_i,
  output logic [NR*NN-1:0]       in_cred_o,
  output logic [NR*NN-1:0]       out_valid_o,
  output logic [NR*NN*FlitW-1:0] out_data_o,
  input  logic [NR*NN-1:0]       out_cred_i,
  // a neighbour is connected to that boundary output (a head routed to an output without one is
  // ejected where it is: rtr_pkg::unroutable)
  input  logic [NR*NN-1:0]       out_en_i,
  // injection (valid/ready), one per router
  input  logic [NR-1:0]          inj_valid_i,
  output logic [NR-1:0]          inj_ready_o,
  input  logic [NR*FlitW-1:0]    inj_data_i,
  // ejection (valid/ready, registered), one per router
  output logic [NR-1:0]          ej_valid_o,
  input  logic [NR-1:0]          ej_ready_i,
  output logic [NR*FlitW-1:0]    ej_data_o,
  // progress: per cycle, the routers that moved a flit through their crossbar (accumulated)
  output logic [31:0]            moved_o,
  // multiphase barrier drain (Barrier = 1; 0 otherwise; docs/barrier.md, the ordering rule): per
  // router r, BarSlots = NP*BufPkts + 1 bits at r*BarSlots: slot i = p*BufPkts + s, slot s of
  // input p (VCT: the DAMQ slot; DOR-WH: ring slot s of the FIFO, the packet at entries
  // [s*PktFlits, (s+1)*PktFlits)), bit NP*BufPkts: a packet's tail in the ejection registers
  // (or read into them at this edge), not yet taken by the node. slot_occ_o: occupied (state
  // before the edge; the ejection bit also while its tail is read at this edge); slot_left_o:
  // the packet leaves at this edge (its tail read onto a network output or into the ejection
  // registers; the ejection bit: its tail taken by the node). Read only, no effect on the logic.
  output logic [NR*BarSlots-1:0] slot_occ_o,
  output logic [NR*BarSlots-1:0] slot_left_o
);
  localparam int P = PktFlits;

  // ---------------------------------------------------------------- parameter checks
  if (Dims < 2 || Dims > 3) begin : gen_err_dims
    $error("rtr_router: Dims must be 2 or 3");
  end
  if (Mode < 0 || Mode > 2) begin : gen_err_mode
    $error("rtr_router: Mode must be 0 (ADBR), 1 (DOR-VCT) or 2 (DOR-wormhole)");
  end
  if (Mode == 0 && BufPkts < Dims) begin : gen_err_dbfc
    $error("rtr_router: BufPkts below Dims in ADBR mode (Mode=0): DBFC needs input buffers of at least Dims packets (BufPkts >= Dims)");
  end
  if (Torus != 0 && Mode != 1) begin : gen_err_torus_mode
    $error("rtr_router: a torus (Torus=1) runs DOR-VCT only (Mode=1: dimension-order routing with the bubble rule); ADBR and wormhole have no deadlock-freedom argument on a torus here");
  end
  if (Torus != 0 && BufPkts < 2) begin : gen_err_bubble
    $error("rtr_router: BufPkts below 2 on a torus (Torus=1): the bubble rule needs input buffers of at least 2 packets (BufPkts >= 2)");
  end
  if (BufPkts < 1 || BufPkts > rtr_pkg::MaxS || PktFlits < 1) begin : gen_err_size
    $error("rtr_router: BufPkts must be 1..8 and PktFlits >= 1");
  end
  if (WaitW < 8 || WaitW > 32) begin : gen_err_waitw
    $error("rtr_router: WaitW must be 8..32");
  end
  if (FlitW < 32 || FlitW % 32 != 0) begin : gen_err_flitw
    $error("rtr_router: FlitW must be a multiple of 32 (>= 32: route field and hop counter)");
  end
  if (Dims == 2 && K2 != 1) begin : gen_err_k2
    $error("rtr_router: a 2-D block needs K2 = 1");
  end
  if (K0 < 1 || K1 < 1 || K2 < 1 || K0 > 128 || K1 > 128 || K2 > 128 || K0 + K1 + K2 - 3 > 255)
  begin : gen_err_k
    $error("rtr_router: radices 1..128 (8-bit hop counts), K0+K1+K2-3 <= 255 (hop counter)");
  end

  // ---------------------------------------------------------------- topology (constants)
  // Whether input p of router r has a sender inside the block and output p a receiver.
  logic [NN-1:0] hasup [NR];  // constants
  logic [NN-1:0] hasdn [NR];
  logic [NN-1:0] oexist [NR];  // outputs that lead somewhere: inside the block, or enabled boundary
  // Routers n = 128 c + i: Verilator 5.006 limits a generate loop's iterations by a multiple of
  // --unroll-count and refuses 512 routers in one loop at 8, so the loop is split in two.
  for (genvar c = 0; c < (NR + 127) / 128; c++) begin : g_topo
    for (genvar i = 0; i < 128 && 128 * c + i < NR; i++) begin : g_rtr
      for (genvar p = 0; p < NN; p++) begin : g_port
        localparam int N = 128 * c + i;
        assign hasup[N][p]  = rtr_pkg::has_up(N, p, K0, K1, K2, Torus);
        assign hasdn[N][p]  = rtr_pkg::has_dn(N, p, K0, K1, K2, Torus);
        assign oexist[N][p] = hasdn[N][p] || (Ext && out_en_i[N*NN + p]);
      end
    end
  end

  // ---------------------------------------------------------------- state (per router r)
  // Marked public_flat_rd: read by the C++ harness to dump the blocked buffers when
  // its watchdog fires (NetSim, docs/net_sim.md); read-only, no effect on the logic.
  // Input buffers: entry e of input p of router r at (r*NP + p)*Depth + e.
  logic [FlitW-1:0]       mem_q    [NR*NP*Depth] /*verilator public_flat_rd*/;
  logic [FlitW-1:0]       odata_q  [NR*NN];       // link registers: r*NN + o
  logic [NN-1:0]          inbox_q  [NR];          // a flit arrives on input p (link valid)
  // boundary inputs (Ext): the link register is at the receiver, the boundary outputs are the
  // decisions (combinational); data of input p of router r at r*NN + p
  /* verilator lint_off UNUSEDSIGNAL */  // one unused entry when Ext = 0
  logic [FlitW-1:0]       bdata_q  [Ext ? NR*NN : 1];
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NN-1:0]          crbox_q  [NR];          // a credit comes back to output o
  // read side of the inputs
  logic [NP-1:0]          busy_q   [NR] /*verilator public_flat_rd*/; // a packet is being sent
  logic [NP-1:0]          head_q   [NR];          // the read position is the head
  logic [NP-1:0]          last_q   [NR];          // the read position is the tail
  logic [NP*PosW-1:0]     rpos_q   [NR] /*verilator public_flat_rd*/;
  // write side of the inputs
  logic [NP-1:0]          wmid_q   [NR];          // a packet is being written (head in)
  logic [NP*PosW-1:0]     wpos_q   [NR];          // next flit position to write
  // VCT: DAMQ slots
  logic [NP*NS-1:0]       occ_q    [NR] /*verilator public_flat_rd*/; // packet in slot: head in .. tail out
  logic [NP*NS-1:0]       wait_q   [NR] /*verilator public_flat_rd*/; // head in, no grant yet
  logic [NP*NS*NS-1:0]    older_q  [NR];          // [(p*NS+s)*NS + t]: t arrived before s
  logic [NP*SlotW-1:0]    wslot_q  [NR];
  logic [NP*SlotW-1:0]    rslot_q  [NR] /*verilator public_flat_rd*/;
  logic [NP*NS*InfoW-1:0] info_q   [NR] /*verilator public_flat_rd*/; // decoded routes of the slots
  // wormhole: FIFOs
  logic [NP*IdxW-1:0]     wptr_q   [NR];
  logic [NP*IdxW-1:0]     rptr_q   [NR] /*verilator public_flat_rd*/;
  logic [NP*CntW-1:0]     cnt_q    [NR] /*verilator public_flat_rd*/;
  logic [NP-1:0]          ne_q     [NR];          // cnt != 0
  logic [InfoW-1:0]       infow_q  [NR*NP*Depth]; // decoded route of the head at each entry
  // outputs
  logic [NN-1:0]          ecr_q    [NR];          // VCT: the read packet's credit went early
  logic [NP-1:0]          conn_q   [NR] /*verilator public_flat_rd*/; // output carries a packet ...
  logic [NP*InW-1:0]      cin_q    [NR] /*verilator public_flat_rd*/; // ... from this input
  logic [NP*NP-1:0]       oport_q  [NR];          // input's connected output (one-hot)
  logic [NN*CredW-1:0]    credit_q [NR] /*verilator public_flat_rd*/; // free slots/entries downstream
  logic [2:0]             ptr_q    [NR];          // allocator priority
  logic [NR-1:0]          skv_q /*verilator public_flat_rd*/; // ejection skid register valid
  logic [NR-1:0]          cpend_q;                // a packet is being sent or waits (decide)
  logic [NR-1:0]          apend_q;                // inbox or credit box not empty (pass A)
  logic [FlitW-1:0]       skd_q    [NR];
  /* verilator lint_off UNUSEDSIGNAL */  // Barrier = 0: unused
  logic [NR-1:0]          ejt_q, skt_q;           // Barrier: ej_data_o / skd_q holds a tail
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0]            moved_q;
  // run-time buffer depth (buf_pkts_i, clamped to BufMin..BufPkts, taken during reset)
  logic [NS-1:0]          slots_q;                // VCT: the slots in use (the lowest buf_pkts)
  // credits per output after reset: free slots (VCT), free flit entries (wormhole)
  logic [CredW-1:0]       credlim_q /*verilator public_flat_rd*/;
  // starvation freedom: cycle counter, arrival stamp per slot (VCT: head written; DOR-WH, one per
  // input: the packet reached the FIFO's front), threshold, allocation order, hold
  logic [WaitW-1:0]       cyc_q /*verilator public_flat_rd*/;
  logic [WaitW-1:0]       stamp_q  [NR*NP*NS] /*verilator public_flat_rd*/;
  logic [15:0]            thr_q /*verilator public_flat_rd*/;
  logic                   arb_q;
  logic                   hold_q;
  logic                   starve_c;              // some waiting packet has waited >= T (decide)

  // ---------------------------------------------------------------- decisions (combinational)
  // Per router, from the state before the clock edge: the flits moved and the grants. Only
  // dec[r] is meaningful for an idle router (all zero); the others are read only under its bits.
  localparam int DecW = 7 * NP;
  logic [DecW-1:0]         dec     [NR];   // {cred, imm, clast, ognt, gnt, rd, send}
  logic [NR-1:0]           bpend;          // dec[r] != 0 (pass B)
  logic [NP*InW-1:0]       dogin   [NR];   // output's granted input
  logic [NP*SlotW-1:0]     dpslot  [NR];   // input's picked slot
  logic [NP*NP-1:0]        drq     [NR];   // input's request (one-hot output)
  logic [NP-1:0]           dxhead  [NR];   // output sends a head
  logic [2:0]              dptr    [NR];   // allocator priority next
  logic [FlitW-1:0]        xdata   [NR*NP];  // the flit output o sends (read from mem_q)
  // barrier drain (Barrier): input p reads its packet's tail, from slot dts (VCT); the tail goes
  // to the ejection output
  /* verilator lint_off UNUSEDSIGNAL */  // Barrier = 0: unused
  logic [NP-1:0]           dtl     [NR];
  logic [NP*SlotW-1:0]     dts     [NR];
  logic [NR-1:0]           dejt;
  /* verilator lint_on UNUSEDSIGNAL */

  // Temporaries of both blocks: not traced (they hold the last router visited, nothing to see in a
  // waveform), so that Verilator can make them local variables of the generated code.
  /* verilator tracing_off */
  // temporaries of the combinational block
  logic [NN-1:0]           cnow;     // credits arriving this cycle
  logic [NP-1:0]           busy, out_ok, avail, isend, ilast, csend, clast, ofree, ifree, iimm,
                           imm, send, rd, xhead, nbusy, cred;
  logic [NP*NS-1:0]        req;
  logic [NP*InW-1:0]       cin;
  logic [NP*NP-1:0]        oport, rq;
  logic [NP*SlotW-1:0]     pslot;
  logic [rtr_pkg::MaxS-1:0] candv;
  logic [NS*NP-1:0]        ssel;     // slot s: its selected output at s*NP
  logic [6*rtr_pkg::CredBits-1:0] cred8;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [13:0]             rs;       // route_sel: {sel (7 bits), cand (7 bits)}
  /* verilator lint_on UNUSEDSIGNAL */
  logic [3:0]              pk;
  logic [38:0]             al;
  logic [InW-1:0]          src;
  logic [IdxW-1:0]         ridx;
  logic [InfoW-1:0]        pinfo;
  logic [FlitW-1:0]        fl;       // a flit read
  logic [SlotW-1:0]        csl;      // credit: the slot read, its position, its tail
  logic [PosW-1:0]         cpos;
  logic                    ctail;
  logic [NP*NS*WaitW-1:0]  wts;      // every slot's wait (cyc_q - stamp_q), valid for waiting slots
  logic [7*32-1:0]         wv;       // the picked packets' waits per input (wait_first)
  logic [2:0]              start;    // the allocator's first input

  int unsigned             r;        // the router the decisions visit

  /* verilator lint_off LATCH */  // an idle router's decision fields: see the SYNTHESIS defaults
  always_comb begin
    // Every temporary is assigned first, outside any branch: Verilator then makes it a local
    // variable of the generated function (kept in a register instead of a member re-read after
    // every store), and synthesis sees no latch.
    cnow = '0; busy = '0; out_ok = '0; avail = '0; isend = '0; ilast = '0; csend = '0; clast = '0;
    ofree = '0; ifree = '0; iimm = '0; imm = '0; send = '0; rd = '0; xhead = '0; nbusy = '0;
    req = '0; cin = '0; oport = '0; rq = '0; pslot = '0; candv = '0; cred8 = '0; rs = '0;
    pk = '0; al = '0; src = '0; ridx = '0; pinfo = '0; ssel = '0; cred = '0; csl = '0; cpos = '0;
    ctail = 1'b0; fl = '0; r = 0; wts = '0; wv = '0; start = '0;
`ifdef SYNTHESIS
    // Synthesis: the decision fields of an idle router get a value too. In simulation they are
    // never read (bpend).
    for (int i = 0; i < NR; i++) begin
      dec[i] = '0; dogin[i] = '0; dpslot[i] = '0; drq[i] = '0; dxhead[i] = '0; dptr[i] = '0;
      dtl[i] = '0; dts[i] = '0;
      for (int o = 0; o < NP; o++) xdata[i*NP + o] = '0;
    end
    out_data_o = '0;
`endif
    bpend = '0;
    dejt = '0;
    starve_c = 1'b0;
    // the boundary outputs are this cycle's decisions (Ext): in_cred_o, out_valid_o and, when
    // valid, out_data_o (written only with a flit: a wide port is not rebuilt every cycle)
    in_cred_o   = '0;
    out_valid_o = '0;
    for (r = 0; r < NR; r++) begin
      if (cpend_q[r]) begin
        busy  = busy_q[r];
        nbusy = ne_q[r] & ~busy;
        if (Mode == 2) req = (NP*NS)'(nbusy);  // the FIFO's head packet, when the input is idle
        else           req = wait_q[r];
        // every slot's wait, computed once, unconditionally (one subtractor per slot: nothing
        // for synthesis to share between exclusive uses); starving: a waiting packet (VCT: every
        // waiting slot; DOR-WH: an idle input's front packet) has waited T cycles or more
        for (int i = 0; i < NP*NS; i++) wts[i*WaitW +: WaitW] = cyc_q - stamp_q[r*NP*NS + i];
        if (thr_q != '0) begin
          for (int i = 0; i < NP*NS; i++) begin
            if (req[i] && wts[i*WaitW +: WaitW] >= WaitW'(thr_q)) starve_c = 1'b1;
          end
        end
        // outputs that can take a flit. Credits: the counter plus a credit arriving this cycle
        // (the credit link register crbox_q, which also registers a boundary pulse out_cred_i;
        // pass A adds it to the counter at this edge), so a freed slot is reused one cycle earlier.
        cnow = crbox_q[r];
        out_ok = '1;
        if (Mode == 2) begin
          for (int o = 0; o < NN; o++) out_ok[o] = credit_q[r][o*CredW +: CredW] != '0 || cnow[o];
        end
        out_ok[NN] = !skv_q[r];
        // inputs sending a packet: the next flit goes when it is here and the output takes it
        oport = oport_q[r];
        isend = '0;
        ilast = '0;
        csend = '0;
        clast = '0;
        avail = '0;
        if (busy != '0) begin
          for (int p = 0; p < NP; p++) begin
            if (busy[p]) begin
              if (Mode == 2) begin
                avail[p] = ne_q[r][p];
              end else begin
                // here unless it belongs to the packet being written and is not written yet
                avail[p] = !(wmid_q[r][p] && wslot_q[r][p*SlotW +: SlotW] == rslot_q[r][p*SlotW +: SlotW])
                           || (wpos_q[r][p*PosW +: PosW] > rpos_q[r][p*PosW +: PosW]);
              end
              if (avail[p] && (oport[p*NP +: NP] & out_ok) != '0) begin
                isend[p] = 1'b1;
                csend    = csend | oport[p*NP +: NP];
                if (last_q[r][p]) begin
                  ilast[p] = 1'b1;
                  clast    = clast | oport[p*NP +: NP];
                end
              end
            end
          end
        end
        ofree = (~conn_q[r] | clast) & out_ok;
        ifree = ~busy | ilast;
        // routes of the waiting packets of free inputs; each input picks its oldest packet
        // with an admissible output; allocation
        rq    = '0;
        pslot = '0;
        al    = '0;
        iimm  = '0;
        imm   = '0;
        cin   = cin_q[r];
        dptr[r] = ptr_q[r];
        if (req != '0) begin
          cred8 = '0;
          for (int o = 0; o < NN; o++) begin
            cred8[o*rtr_pkg::CredBits +: rtr_pkg::CredBits] =
                rtr_pkg::CredBits'(credit_q[r][o*CredW +: CredW]) + rtr_pkg::CredBits'(cnow[o]);
          end
          for (int p = 0; p < NP; p++) begin
            if (ifree[p] && req[p*NS +: NS] != '0) begin
              candv = '0;
              for (int s = 0; s < NS; s++) begin
                ssel[s*NP +: NP] = '0;
                if (req[p*NS + s]) begin
                  pinfo = (Mode == 2) ? infow_q[(r*NP + p)*Depth + 32'(rptr_q[r][p*IdxW +: IdxW])]
                                      : info_q[r][(p*NS + s)*InfoW +: InfoW];
                  rs = rtr_pkg::route_sel(rtr_pkg::MaxInfoW'(pinfo), 7'(ofree),
                                          cred8, Dims, Mode);
                  ssel[s*NP +: NP] = rs[7 +: NP];
                  candv[s] = rs[6:0] != '0;
                end
              end
              if (Mode == 2) begin
                pk = {candv[0], 3'd0};
              end else begin
                pk = rtr_pkg::pick_oldest(candv,
                                          rtr_pkg::expand_age(64'(older_q[r][p*NS*NS +: NS*NS]), NS), NS);
              end
              if (pk[3]) begin
                pslot[p*SlotW +: SlotW] = SlotW'(pk[2:0]);
                for (int s = 0; s < NS; s++) begin
                  if (pk[2:0] == 3'(s)) begin
                    rq[p*NP +: NP] = ssel[s*NP +: NP];
                    if (WaitArb && arb_q) wv[p*32 +: 32] = 32'(wts[(p*NS + s)*WaitW +: WaitW]);
                  end
                end
              end
            end
          end
          if (rq != '0) begin
            // the first input visited: the longest-waiting picked packet's (wait_arb_i), else the
            // rotating pointer
            start = (WaitArb && arb_q) ? rtr_pkg::wait_first(wv, rtr_pkg::req_any(rtr_pkg::expand_req(49'(rq), NP)),
                                                ptr_q[r], NP)
                          : ptr_q[r];
            al = rtr_pkg::alloc(rtr_pkg::expand_req(49'(rq), NP), start, NP);
            // an immediate grant: the input and the output were both idle, the head moves now
            for (int p = 0; p < NP; p++) begin
              if (al[28 + p] && !busy[p] && (rq[p*NP +: NP] & conn_q[r]) == '0) begin
                iimm[p] = 1'b1;
                imm     = imm | rq[p*NP +: NP];
              end
            end
            dptr[r] = al[38:36];
            for (int o = 0; o < NP; o++) dogin[r][o*InW +: InW] = InW'(al[o*3 +: 3]);
          end
        end
        send = csend | imm;
        rd   = isend | iimm;
        // credit pulses to the upstream routers: a flit entry read (wormhole); a slot freed by
        // its tail (VCT), or one cycle early with the flit before the tail when the tail is here
        // and goes to a network output, which never stalls it (docs/router.md, early credit)
        cred = '0;
        for (int p = 0; p < NP; p++) begin
          if (rd[p]) begin
            if (Mode == 2) begin
              cred[p] = 1'b1;
            end else begin
              csl   = busy[p] ? rslot_q[r][p*SlotW +: SlotW] : pslot[p*SlotW +: SlotW];
              cpos  = busy[p] ? rpos_q[r][p*PosW +: PosW] : '0;
              ctail = busy[p] ? last_q[r][p] : (P == 1);
              if (ctail) begin
                cred[p] = (p == NN) || !ecr_q[r][p];
              end else if (P >= 2 && p < NN && 32'(cpos) == P - 2
                           && !(busy[p] ? oport[p*NP + NN] : rq[p*NP + NN])
                           && (!(wmid_q[r][p] && wslot_q[r][p*SlotW +: SlotW] == csl)
                               || (inbox_q[r][p] && wpos_q[r][p*PosW +: PosW] == PosW'(P - 1)))) begin
                // the tail is here after this edge (in the buffer, or arriving at it)
                cred[p] = 1'b1;
              end
            end
          end
        end
        if (Ext && (cred[NN-1:0] & ~hasup[r]) != '0) in_cred_o[r*NN +: NN] = cred[NN-1:0] & ~hasup[r];
        if (Ext && (send[NN-1:0] & ~hasdn[r]) != '0) out_valid_o[r*NN +: NN] = send[NN-1:0] & ~hasdn[r];
        // the entry each sending output reads, and whether it is a head
        xhead = '0;
        for (int o = 0; o < NP; o++) begin
          if (send[o]) begin
            src = csend[o] ? cin[o*InW +: InW] : InW'(al[o*3 +: 3]);
            if (Mode == 2) begin
              ridx = rptr_q[r][32'(src)*IdxW +: IdxW];
            end else if (busy[src]) begin
              ridx = IdxW'(32'(rslot_q[r][32'(src)*SlotW +: SlotW]) * P
                           + 32'(rpos_q[r][32'(src)*PosW +: PosW]));
            end else begin
              ridx = IdxW'(32'(pslot[32'(src)*SlotW +: SlotW]) * P);
            end
            fl = mem_q[AddrW'((r*NP + 32'(src)) * Depth + 32'(ridx))];
            xdata[r*NP + o] = fl;
            xhead[o] = csend[o] ? head_q[r][src] : 1'b1;
            if (Ext && o < NN && !hasdn[r][o]) begin  // a boundary output: the flit goes out now
              if (xhead[o]) fl[rtr_pkg::HeadW-1:0] = rtr_pkg::hop_update(fl[rtr_pkg::HeadW-1:0], o);
              out_data_o[(r*NN + o)*FlitW +: FlitW] = fl;
            end
          end
        end
        // barrier drain: the tails read at this edge (their slots leave), and whether one goes
        // to the ejection output
        if (Barrier != 0) begin
          dtl[r] = '0;
          dts[r] = '0;
          for (int p = 0; p < NP; p++) begin
            if (rd[p] && (busy[p] ? last_q[r][p] : (P == 1))) begin
              dtl[r][p] = 1'b1;
              dts[r][p*SlotW +: SlotW] = busy[p] ? rslot_q[r][p*SlotW +: SlotW] : pslot[p*SlotW +: SlotW];
              if (busy[p] ? oport[p*NP + NN] : rq[p*NP + NN]) dejt[r] = 1'b1;
            end
          end
        end
        dec[r]    = {cred, imm, clast, NP'(al[21 +: 7]), NP'(al[28 +: 7]), rd, send};
        bpend[r]  = (send | rd | NP'(al[28 +: 7])) != '0;
        dpslot[r] = pslot;
        drq[r]    = rq;
        dxhead[r] = xhead;
      end
    end
  end


  /* verilator lint_on LATCH */

  // ---------------------------------------------------------------- state updates
  logic [rtr_pkg::RouteW-1:0] wroute;
  logic [InfoW-1:0]           winfo;    // its decoded route (a head)
  logic [NN-1:0]         arrive, back;
  logic                  injw;
  logic [SlotW-1:0]      fs, wsl;
  logic [IdxW-1:0]       widx;
  logic [DecW-1:0]       dc;
  logic [NP-1:0]         d_send, d_rd, d_gnt, d_ognt, d_clast, d_imm, busy0, credn;
  logic [NN-1:0]         cu;
  logic [SlotW-1:0]      rsl;
  logic [PosW-1:0]       rp;
  logic                  lst, ejpop;
  logic [31:0]           moved;
  logic [RW-1:0]         nb;  // a neighbour
  logic [NR-1:0]         amask, bmask;  // routers visited by passes A and B
  logic [NR-1:0]         xmask;         // Ext: routers with a boundary flit or credit arriving
  logic [31:0]           bufn;          // run-time buffer depth (reset)
  logic                  hold_n;        // hold after this edge
  logic                  hchg;          // hold changes at this edge
  int unsigned           u;             // the router the state update visits
`ifndef SYNTHESIS
  // simulation only (read by NetSim): the longest wait of a granted packet, cycles on hold
  logic [WaitW-1:0]      maxwait_q /*verilator public_flat_rd*/;
  logic [WaitW-1:0]      gwait;
  logic [31:0]           holdcyc_q /*verilator public_flat_rd*/;
  logic [NR-1:0]         inj_wait_q;   // injection valid and not ready last cycle
  logic [FlitW-1:0]      inj_prev_q [NR];
`endif

  /* verilator lint_off BLKSEQ */
  always_ff @(posedge clk_i) begin
    // temporaries first, outside any branch (local variables of the generated function)
    wroute = '0; winfo = '0; arrive = '0; back = '0; injw = 1'b0; fs = '0; wsl = '0; widx = '0; dc = '0;
    d_send = '0; d_rd = '0; d_gnt = '0; d_ognt = '0; d_clast = '0; d_imm = '0; busy0 = '0;
    credn = '0; cu = '0; rsl = '0; rp = '0; lst = 1'b0; ejpop = 1'b0; moved = '0; nb = '0;
    amask = '0; bmask = '0; xmask = '0; bufn = '0; u = 0; hold_n = 1'b0; hchg = 1'b0;
`ifndef SYNTHESIS
    gwait = '0;
`endif
    if (!rst_ni) begin
      for (int i = 0; i < NR; i++) begin
        inbox_q[i]  = '0;
        crbox_q[i]  = '0;
        busy_q[i]   = '0;
        head_q[i]   = '1;
        last_q[i]   = (P == 1) ? '1 : '0;
        rpos_q[i]   = '0;
        wmid_q[i]   = '0;
        wpos_q[i]   = '0;
        occ_q[i]    = '0;
        wait_q[i]   = '0;
        older_q[i]  = '0;
        wslot_q[i]  = '0;
        rslot_q[i]  = '0;
        info_q[i]   = '0;
        wptr_q[i]   = '0;
        rptr_q[i]   = '0;
        cnt_q[i]    = '0;
        ne_q[i]     = '0;
        conn_q[i]   = '0;
        ecr_q[i]    = '0;
        cin_q[i]    = '0;
        oport_q[i]  = '0;
        ptr_q[i]    = '0;
      end
      // run-time buffer depth: clamped to BufMin..BufPkts (a_buf_pkts reports a value outside)
      bufn = (32'(buf_pkts_i) < 32'(BufMin)) ? 32'(BufMin)
           : (32'(buf_pkts_i) > 32'(BufPkts)) ? 32'(BufPkts) : 32'(buf_pkts_i);
      credlim_q = CredW'((Mode == 2) ? bufn * 32'(P) : bufn);
      slots_q   = '0;
      for (int s = 0; s < NS; s++) slots_q[s] = (Mode == 2) || 32'(s) < bufn;
      for (int i = 0; i < NR; i++) begin
        for (int o = 0; o < NN; o++) credit_q[i][o*CredW +: CredW] = credlim_q;
      end
`ifndef SYNTHESIS
      a_buf_pkts: assert (32'(buf_pkts_i) >= 32'(BufMin) && 32'(buf_pkts_i) <= 32'(BufPkts))
        else $error("rtr_router: buf_pkts_i = %0d outside %0d..%0d (BufPkts %0d%s)", buf_pkts_i,
                    BufMin, BufPkts, BufPkts, (Mode == 0) ? "; ADBR: DBFC needs >= Dims"
                                            : (Torus != 0) ? "; torus: the bubble rule needs >= 2" : "");
`endif
      thr_q       = starve_t_i;
      arb_q       = wait_arb_i;
      cyc_q       = '0;
      hold_q      = 1'b0;
`ifndef SYNTHESIS
      maxwait_q   = '0;
      holdcyc_q   = '0;
`endif
      skv_q       = '0;
      ejt_q       = '0;
      skt_q       = '0;
      cpend_q     = '0;
      apend_q     = '0;
      inj_ready_o = '1;
      ej_valid_o  = '0;
      moved_q     = '0;
`ifndef SYNTHESIS
      inj_wait_q  = '0;
`endif
    end else begin
      // hold after this edge: a starving packet here or in another block (decided before the
      // edge); the injection ports' ready follows it (passes A and B, and below when it changes)
      hold_n = starve_c | hold_i;
      hchg   = hold_n != hold_q;
      hold_q = hold_n;
      // (A) inputs: flits on the links and credit pulses, sent in the last cycle
      amask = apend_q | inj_valid_i;
`ifndef SYNTHESIS
      amask = amask | inj_wait_q;
`endif
      if (Ext && (in_valid_i | out_cred_i) != '0) begin  // boundary flits and credits to register
        for (int i = 0; i < NR; i++) begin
          if ((in_valid_i[i*NN +: NN] | out_cred_i[i*NN +: NN]) != '0) xmask[i] = 1'b1;
        end
        amask = amask | xmask;
      end
      for (u = 0; u < NR; u++) begin
       if (amask[u]) begin
        apend_q[u] = 1'b0;
        arrive = inbox_q[u];
        back   = crbox_q[u];
        injw   = inj_valid_i[u] && inj_ready_o[u];  // inj_ready_o: the state before the edge
`ifndef SYNTHESIS
        if (inj_wait_q[u] || inj_valid_i[u]) begin
          if (inj_wait_q[u]) begin
            a_inj_hold: assert (inj_valid_i[u] && inj_data_i[u*FlitW +: FlitW] == inj_prev_q[u])
              else $error("rtr_router %0d: injection valid dropped or data changed before ready", u);
          end
          inj_wait_q[u] = inj_valid_i[u] && !inj_ready_o[u];
          if (inj_wait_q[u]) inj_prev_q[u] = inj_data_i[u*FlitW +: FlitW];
        end
`endif
        if (back != '0) begin
          for (int o = 0; o < NN; o++) begin
            if (back[o]) begin
`ifndef SYNTHESIS
              // credits never exceed the downstream buffer
              a_cred_max: assert (credit_q[u][o*CredW +: CredW] != credlim_q)
                else $error("rtr_router %0d: output %0d credit overflow", u, o);
`endif
              credit_q[u][o*CredW +: CredW] = credit_q[u][o*CredW +: CredW] + CredW'(1);
            end
          end
          crbox_q[u] = '0;
        end
        if (arrive != '0 || injw) begin
          for (int p = 0; p < NP; p++) begin
            if ((p == NN) ? injw : arrive[p]) begin
`ifndef SYNTHESIS
              // no overflow: a network input takes a flit only with room (credits)
              if (p < NN) begin
                a_no_overflow: assert ((Mode == 2)
                                       ? (cnt_q[u][p*CntW +: CntW] != CntW'(credlim_q))
                                       : (wmid_q[u][p] || (occ_q[u][p*NS +: NS] & slots_q) != slots_q))
                  else $error("rtr_router %0d: input %0d overflows", u, p);
              end
`endif
              // the flit's route field (decoded if it is a head); the flit is copied below
              if (p == NN)                    wroute = inj_data_i[u*FlitW +: rtr_pkg::RouteW];
              else if (NR > 1 && hasup[u][p]) wroute = odata_q[rtr_pkg::up(u, p, K0, K1, K2, Torus)*NN + p][rtr_pkg::RouteW-1:0];
              else if (Ext)                   wroute = bdata_q[u*NN + p][rtr_pkg::RouteW-1:0];
              // a head: its route decoded once; one that leaves the network is ejected here
              if (!wmid_q[u][p]) begin
                winfo = rtr_pkg::unroutable(wroute, 6'(oexist[u]), Dims) ? InfoW'(rtr_pkg::eject_info(Dims))
                      : InfoW'(rtr_pkg::route_info(wroute, Dims, Mode, Sel, 3'(p), BubbleRule));
              end
              if (Mode == 2) begin
                widx = wptr_q[u][p*IdxW +: IdxW];
                if (!wmid_q[u][p]) begin
                  infow_q[(u*NP + p)*Depth + 32'(widx)] = winfo;
                  // a head into an empty FIFO is its front from the next cycle on
                  if (cnt_q[u][p*CntW +: CntW] == '0) stamp_q[(u*NP + p)*NS] = cyc_q + WaitW'(1);
                end
                wptr_q[u][p*IdxW +: IdxW] = (widx == IdxW'(Depth - 1)) ? '0 : widx + IdxW'(1);
                cnt_q[u][p*CntW +: CntW]  = cnt_q[u][p*CntW +: CntW] + CntW'(1);
                ne_q[u][p] = 1'b1;
              end else begin
                // a head takes the lowest free slot; it is younger than every packet here
                fs = '0;
                for (int s = NS - 1; s >= 0; s--) if (!occ_q[u][p*NS + s]) fs = SlotW'(s);
                wsl  = wmid_q[u][p] ? wslot_q[u][p*SlotW +: SlotW] : fs;
                widx = IdxW'(32'(wsl) * P + 32'(wpos_q[u][p*PosW +: PosW]));
                if (!wmid_q[u][p]) begin
                  wslot_q[u][p*SlotW +: SlotW] = fs;
                  for (int s = 0; s < NS; s++) begin
                    if (fs == SlotW'(s)) begin
                      info_q[u][(p*NS + s)*InfoW +: InfoW] = winfo;
                      older_q[u][(p*NS + s)*NS +: NS] = occ_q[u][p*NS +: NS];
                      for (int t = 0; t < NS; t++) begin
                        if (t != s) older_q[u][(p*NS + t)*NS + s] = 1'b0;
                      end
                      occ_q[u][p*NS + s]  = 1'b1;
                      wait_q[u][p*NS + s] = 1'b1;
                      stamp_q[(u*NP + p)*NS + s] = cyc_q + WaitW'(1);
                    end
                  end
                end
              end
              if (p == NN) begin
                mem_q[(u*NP + p)*Depth + 32'(widx)] = inj_data_i[u*FlitW +: FlitW];
              end else if (NR > 1 && hasup[u][p]) begin
                mem_q[(u*NP + p)*Depth + 32'(widx)] = odata_q[rtr_pkg::up(u, p, K0, K1, K2, Torus)*NN + p];
              end else if (Ext) begin
                mem_q[(u*NP + p)*Depth + 32'(widx)] = bdata_q[u*NN + p];
              end
              wmid_q[u][p] = (wpos_q[u][p*PosW +: PosW] != PosW'(P - 1));
              wpos_q[u][p*PosW +: PosW] = (wpos_q[u][p*PosW +: PosW] == PosW'(P - 1)) ? '0
                                          : wpos_q[u][p*PosW +: PosW] + PosW'(1);
            end
          end
          inbox_q[u] = '0;
          inj_ready_o[u] = rtr_pkg::inj_room(wmid_q[u][NN], rtr_pkg::MaxS'(occ_q[u][NN*NS +: NS]),
                                             rtr_pkg::MaxS'(slots_q), 16'(cnt_q[u][NN*CntW +: CntW]),
                                             16'(credlim_q), Mode) && (!hold_q || wmid_q[u][NN]);
          cpend_q[u] = 1'b1;  // a flit was written: a packet may wait
        end
        if (Ext && xmask[u]) begin
          // the boundary's link and credit registers (written here, used at the next edge; both
          // are empty here: what they held was taken above)
          crbox_q[u] = out_cred_i[u*NN +: NN] & ~hasdn[u];
          inbox_q[u] = in_valid_i[u*NN +: NN] & ~hasup[u];
          for (int p = 0; p < NN; p++) begin
            if (inbox_q[u][p]) bdata_q[u*NN + p] = in_data_i[(u*NN + p)*FlitW +: FlitW];
          end
          if ((crbox_q[u] | inbox_q[u]) != '0) apend_q[u] = 1'b1;
        end
       end
      end
      // (B) outputs, read side and ejection, from the decisions
      moved = '0;
      bmask = bpend | ej_valid_o | skv_q;
      for (u = 0; u < NR; u++) begin
        dc = bpend[u] ? dec[u] : '0;
        if (bmask[u] && (dc != '0 || ej_valid_o[u] || skv_q[u])) begin
          d_send  = dc[0*NP +: NP];
          d_rd    = dc[1*NP +: NP];
          d_gnt   = dc[2*NP +: NP];
          d_ognt  = dc[3*NP +: NP];
          d_clast = dc[4*NP +: NP];
          d_imm   = dc[5*NP +: NP];
          credn   = dc[6*NP +: NP];  // credit pulses (decided with the grants)
          busy0   = busy_q[u];
`ifndef SYNTHESIS
          if (dc != '0) begin
            // only packets with no hop left are ejected, or with a route that leaves the network here
            if (d_send[NN] && dxhead[u][NN]) begin
              a_eject_zero: assert (xdata[u*NP + NN][rtr_pkg::HopW*Dims-1:0] == '0
                                    || rtr_pkg::unroutable(xdata[u*NP + NN][rtr_pkg::RouteW-1:0], 6'(oexist[u]), Dims))
                else $error("rtr_router %0d: ejected a packet with hops left", u);
            end
            // a granted output is free (or sends its tail now)
            a_ognt_free: assert ((d_ognt & conn_q[u] & ~d_clast) == '0)
              else $error("rtr_router %0d: output granted while busy", u);
          end
`endif
          if ((d_rd | d_gnt) != '0) begin
            for (int p = 0; p < NP; p++) begin
              if (d_gnt[p]) begin
`ifndef SYNTHESIS
                // the granted packet's wait in this router (cyc_q: the cycle of the decision)
                for (int s = 0; s < NS; s++) begin
                  if (Mode == 2 ? (s == 0) : (dpslot[u][p*SlotW +: SlotW] == SlotW'(s))) begin
                    gwait = cyc_q - stamp_q[(u*NP + p)*NS + s];
                  end
                end
                if (gwait > maxwait_q) maxwait_q = gwait;
`endif
                oport_q[u][p*NP +: NP] = drq[u][p*NP +: NP];
                if (Mode != 2) begin
                  for (int s = 0; s < NS; s++) begin
                    if (dpslot[u][p*SlotW +: SlotW] == SlotW'(s)) wait_q[u][p*NS + s] = 1'b0;
                  end
                end
              end
              if (d_rd[p]) begin
                rsl = busy0[p] ? rslot_q[u][p*SlotW +: SlotW] : dpslot[u][p*SlotW +: SlotW];
                rp  = busy0[p] ? rpos_q[u][p*PosW +: PosW] : '0;
                lst = busy0[p] ? last_q[u][p] : (P == 1);
                if (Mode == 2) begin
                  rptr_q[u][p*IdxW +: IdxW] = (rptr_q[u][p*IdxW +: IdxW] == IdxW'(Depth - 1)) ? '0
                                              : rptr_q[u][p*IdxW +: IdxW] + IdxW'(1);
                  cnt_q[u][p*CntW +: CntW] = cnt_q[u][p*CntW +: CntW] - CntW'(1);
                  ne_q[u][p] = cnt_q[u][p*CntW +: CntW] != '0;
                  // the tail read: the next packet, when here, is the front from the next cycle on
                  if (lst && ne_q[u][p]) stamp_q[(u*NP + p)*NS] = cyc_q + WaitW'(1);
                end else if (lst) begin
                  // the tail: the slot is free (its credit goes now, or went one cycle early)
                  if (p < NN) ecr_q[u][p] = 1'b0;
                  for (int s = 0; s < NS; s++) if (rsl == SlotW'(s)) occ_q[u][p*NS + s] = 1'b0;
                end else if (p < NN && credn[p]) begin
                  ecr_q[u][p] = 1'b1;  // early credit: none with the tail
                end
                if (lst) begin
                  busy_q[u][p] = 1'b0;
                  rpos_q[u][p*PosW +: PosW] = '0;
                  head_q[u][p] = 1'b1;
                  last_q[u][p] = (P == 1);
                end else begin
                  busy_q[u][p] = 1'b1;
                  rslot_q[u][p*SlotW +: SlotW] = rsl;
                  rpos_q[u][p*PosW +: PosW] = rp + PosW'(1);
                  head_q[u][p] = 1'b0;
                  last_q[u][p] = (32'(rp) + 1 == P - 1);
                end
              end
              if (d_gnt[p] && !(d_rd[p] && !busy0[p])) begin  // a deferred grant: head next cycle
                busy_q[u][p] = 1'b1;
                rslot_q[u][p*SlotW +: SlotW] = dpslot[u][p*SlotW +: SlotW];
                rpos_q[u][p*PosW +: PosW] = '0;
                head_q[u][p] = 1'b1;
                last_q[u][p] = (P == 1);
              end
            end
            if (credn[NN]) begin
              inj_ready_o[u] = rtr_pkg::inj_room(wmid_q[u][NN], rtr_pkg::MaxS'(occ_q[u][NN*NS +: NS]),
                                                 rtr_pkg::MaxS'(slots_q), 16'(cnt_q[u][NN*CntW +: CntW]),
                                                 16'(credlim_q), Mode) && (!hold_q || wmid_q[u][NN]);
            end
          end
          // credit pulses to the upstream routers' credit boxes (at the boundary: in_cred_o)
          if (credn[NN-1:0] != '0) begin
            for (int p = 0; p < NN; p++) begin
              if (NR > 1 && credn[p] && hasup[u][p]) begin
                nb = RW'(rtr_pkg::up(u, p, K0, K1, K2, Torus));
                crbox_q[nb][p] = 1'b1;
                apend_q[nb] = 1'b1;
              end
            end
          end
          // connections and credits
          if ((d_clast | d_ognt) != '0) begin
            for (int o = 0; o < NP; o++) begin
              if (d_clast[o]) conn_q[u][o] = 1'b0;
              if (d_ognt[o]) begin
                conn_q[u][o] = !(d_imm[o] && P == 1);
                cin_q[u][o*InW +: InW] = dogin[u][o*InW +: InW];
              end
            end
            ptr_q[u] = dptr[u];
          end
          // credits: a VCT grant reserves a packet slot downstream, a wormhole flit an entry
          cu = (Mode == 2) ? d_send[NN-1:0] : d_ognt[NN-1:0];
          if (cu != '0) begin
            for (int o = 0; o < NN; o++) begin
              if (cu[o]) begin
`ifndef SYNTHESIS
                // credits: never used when there are none
                a_cred_underflow: assert (credit_q[u][o*CredW +: CredW] != '0)
                  else $error("rtr_router %0d: output %0d used without credit", u, o);
`endif
                credit_q[u][o*CredW +: CredW] = credit_q[u][o*CredW +: CredW] - CredW'(1);
              end
            end
          end
          // link registers, written only with a flit (a head's route field updated); the flit
          // is marked in the receiver's inbox. A boundary output is the decision itself (out_data_o).
          if (d_send[NN-1:0] != '0) begin
            for (int o = 0; o < NN; o++) begin
              if (d_send[o]) begin
                if (NR > 1 && hasdn[u][o]) begin
                  odata_q[u*NN + o] = xdata[u*NP + o];
                  if (dxhead[u][o]) begin
                    odata_q[u*NN + o][rtr_pkg::HeadW-1:0] = rtr_pkg::hop_update(xdata[u*NP + o][rtr_pkg::HeadW-1:0], o);
                  end
                  nb = RW'(rtr_pkg::dn(u, o, K0, K1, K2, Torus));
                  inbox_q[nb][o] = 1'b1;
                  apend_q[nb] = 1'b1;
                end else begin
`ifndef SYNTHESIS
                  // a minimal route never leaves the mesh
                  a_port_exists: assert (Ext && out_en_i[u*NN + o])
                    else $error("rtr_router %0d: output %0d has no neighbour", u, o);
`endif
                end
              end
            end
          end
          // ejection: output register ej_data_o and skid register skd_q (room: !skv_q)
          ejpop = ej_valid_o[u] && ej_ready_i[u];
          if (!ej_valid_o[u] || ejpop) begin
            if (skv_q[u]) begin
              ej_data_o[u*FlitW +: FlitW] = skd_q[u];
              skv_q[u]      = 1'b0;
              ej_valid_o[u] = 1'b1;
              if (Barrier != 0) begin
                ejt_q[u] = skt_q[u];
                skt_q[u] = 1'b0;
              end
            end else if (d_send[NN]) begin
              ej_data_o[u*FlitW +: FlitW] = xdata[u*NP + NN];
              ej_valid_o[u] = 1'b1;
              if (Barrier != 0) ejt_q[u] = bpend[u] && dejt[u];
            end else begin
              ej_valid_o[u] = 1'b0;
              if (Barrier != 0) ejt_q[u] = 1'b0;
            end
          end else if (d_send[NN]) begin
            skd_q[u] = xdata[u*NP + NN];
            skv_q[u] = 1'b1;
            if (Barrier != 0) skt_q[u] = bpend[u] && dejt[u];
          end
          if (d_send != '0) moved = moved + 32'd1;
          cpend_q[u] = busy_q[u] != '0 || ((Mode == 2) ? ne_q[u] != '0 : wait_q[u] != '0);
        end
      end
      moved_q = moved_q + moved;
      // the hold changed: every injection port's ready follows it (a packet being written goes on)
      if (hchg) begin
        for (int i = 0; i < NR; i++) begin
          inj_ready_o[i] = rtr_pkg::inj_room(wmid_q[i][NN], rtr_pkg::MaxS'(occ_q[i][NN*NS +: NS]),
                                             rtr_pkg::MaxS'(slots_q), 16'(cnt_q[i][NN*CntW +: CntW]),
                                             16'(credlim_q), Mode) && (!hold_q || wmid_q[i][NN]);
        end
      end
`ifndef SYNTHESIS
      if (hold_q) holdcyc_q = holdcyc_q + 32'd1;
`endif
      cyc_q = cyc_q + WaitW'(1);
    end
  end
  /* verilator lint_on BLKSEQ */
  /* verilator tracing_on */
`ifndef SYNTHESIS
  // The cycle counter of the waveforms (simulation only, no outputs).
  cmn_sim_cycle u_cycle (.clk_i);
`endif

  // ---------------------------------------------------------------- barrier drain outputs
  // (docs/barrier.md, what the router integration has to do, item 3)
  if (Barrier != 0) begin : g_bar
    always_comb begin
      /* verilator lint_off WIDTHCONCAT */  // '0 of more than 8k bits (8x8x8: 11,264)
      slot_occ_o  = '0;
      slot_left_o = '0;
      /* verilator lint_on WIDTHCONCAT */
      for (int i = 0; i < NR; i++) begin
        for (int p = 0; p < NP; p++) begin
          if (Mode == 2) begin
            // ring slots from the read pointer's to the one the write pointer has reached; a
            // packet being forwarded in cut-through may have no flit here: its slot stays
            // occupied until its tail is read (rptr inside the slot)
            for (int j = 0; j < BufPkts; j++) begin
              if (j < (32'(rptr_q[i][p*IdxW +: IdxW]) + 32'(cnt_q[i][p*CntW +: CntW]) + P - 1) / P
                      - 32'(rptr_q[i][p*IdxW +: IdxW]) / P) begin
                slot_occ_o[i*BarSlots + p*BufPkts + (32'(rptr_q[i][p*IdxW +: IdxW]) / P + j) % BufPkts] = 1'b1;
              end
            end
            if (bpend[i] && dtl[i][p]) begin
              slot_left_o[i*BarSlots + p*BufPkts + 32'(rptr_q[i][p*IdxW +: IdxW]) / P] = 1'b1;
            end
          end else begin
            for (int s = 0; s < NS; s++) begin
              slot_occ_o[i*BarSlots + p*BufPkts + s] = occ_q[i][p*NS + s];
              if (bpend[i] && dtl[i][p] && dts[i][p*SlotW +: SlotW] == SlotW'(s)) begin
                slot_left_o[i*BarSlots + p*BufPkts + s] = 1'b1;
              end
            end
          end
        end
        // the ejection registers: a tail there, or read into them at this edge; it leaves when
        // the node takes it and no other tail is there or arriving
        slot_occ_o[i*BarSlots + NP*BufPkts] = ejt_q[i] || skt_q[i] || (bpend[i] && dejt[i]);
        slot_left_o[i*BarSlots + NP*BufPkts] = ej_valid_o[i] && ej_ready_i[i] && ejt_q[i]
                                               && !skt_q[i] && !(bpend[i] && dejt[i]);
      end
    end
  end else begin : g_nobar
    assign slot_occ_o  = '0;
    assign slot_left_o = '0;
  end

  assign moved_o  = moved_q;
  assign starve_o = starve_c;
  assign hold_o   = hold_q;

endmodule
