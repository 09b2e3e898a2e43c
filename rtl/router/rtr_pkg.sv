// rtr_pkg: constants and the combinational functions of the bubble-flow router (docs/router.md):
// the mesh or torus topology of a block of routers (step, has_up, has_dn, up, dn), route decoding
// (route_info), route computation with DBFC admission and the selection function (route_sel),
// the oldest-first pick of a DAMQ buffer (pick_oldest), the switch allocator (alloc), the head
// update of a hop (hop_update) and the injection port's room (inj_room). rtr_router calls them
// for every router it holds; rtr_route and rtr_alloc wrap them as modules for unit tests and
// synthesis. Sizes are fixed maxima (7 ports, 8 slots); callers pass the real ones.
//
// Head flit: bits [7:0], [15:8], [23:16] are the signed remaining hops in dimensions 0, 1, 2
// (destination minus current coordinate), bits [31:24] count the hops travelled. Every other bit
// of every flit is payload. Ports: network port p = 2*d + s (d: dimension, s = 0 for the +
// direction, 1 for the - direction); port 2*Dims is the local one (injection in, ejection out).
// Input port p receives the packets travelling in direction p, output port p sends them on.
package rtr_pkg;

  // A module uses only some of these constants.
  /* verilator lint_off UNUSEDPARAM */

  localparam int RouteW   = 24;  // route field: three signed 8-bit hop counts
  localparam int MaxP     = 7;   // ports of a 3-D router (6 network + local)
  localparam int MaxS     = 8;   // DAMQ slots per input (BufPkts <= 8)
  localparam int BufW     = 4;   // the run-time buffer depth input buf_pkts_i (0..15)
  localparam int CredBits = 8;   // credit counters as passed to route_sel
  localparam int MaxInfoW = 11;

  // Modes
  localparam int ModeAdbr   = 0;  // ADBR fully adaptive minimal routing, DBFC, VCT, DAMQ
  localparam int ModeDorVct = 1;  // dimension-order routing, VCT (one free packet slot), DAMQ
  localparam int ModeDorWh  = 2;  // dimension-order routing, wormhole (flit credits, FIFO)

  /* verilator lint_on UNUSEDPARAM */

  // ---------------------------------------------------------------- topology
  // Router r = x + K0*(y + K1*z) of a K0 x K1 x K2 block; network port p = 2*d + s. Input p of a
  // router receives from the neighbour at coordinate - 1 in dimension d when s = 0 (+ 1 when
  // s = 1), output p sends to the neighbour at + 1 (- 1). Torus: the coordinates wrap around
  // (every dimension a ring; a radix-1 dimension has no links).
  // Node-id distance between neighbours in port p's dimension.
  function automatic int step(input int p, input int K0, input int K1);
    step = (p / 2 == 0) ? 1 : (p / 2 == 1) ? K0 : K0 * K1;
  endfunction
  // The radix of port p's dimension and router r's coordinate in it.
  function automatic int radix(input int p, input int K0, input int K1, input int K2);
    radix = (p / 2 == 0) ? K0 : (p / 2 == 1) ? K1 : K2;
  endfunction
  function automatic int coord(input int r, input int p, input int K0, input int K1, input int K2);
    coord = (r / step(p, K0, K1)) % radix(p, K0, K1, K2);
  endfunction
  // Input p of router r has a sender inside the block.
  function automatic bit has_up(input int r, input int p, input int K0, input int K1, input int K2,
                                input int Torus);
    if (Torus != 0) has_up = radix(p, K0, K1, K2) > 1;
    else       has_up = (p % 2 == 0) ? (coord(r, p, K0, K1, K2) > 0)
                                     : (coord(r, p, K0, K1, K2) < radix(p, K0, K1, K2) - 1);
  endfunction
  // Output p of router r has a receiver inside the block: input p ^ 1 (same dimension, other
  // direction) has a sender.
  function automatic bit has_dn(input int r, input int p, input int K0, input int K1, input int K2,
                                input int Torus);
    has_dn = has_up(r, p ^ 1, K0, K1, K2, Torus);
  endfunction
  // The router sending to input p of router r (when has_up), receiving from its output p (has_dn).
  function automatic int up(input int r, input int p, input int K0, input int K1, input int K2,
                            input int Torus);
    int c, k;
    up = (p % 2 == 0) ? r - step(p, K0, K1) : r + step(p, K0, K1);
    if (Torus != 0) begin  // (a constant: a mesh computes no coordinate here)
      c = coord(r, p, K0, K1, K2);
      k = radix(p, K0, K1, K2);
      if (p % 2 == 0 && c == 0)     up = r + (k - 1) * step(p, K0, K1);  // wraparound link
      if (p % 2 == 1 && c == k - 1) up = r - (k - 1) * step(p, K0, K1);
    end
  endfunction
  function automatic int dn(input int r, input int p, input int K0, input int K1, input int K2,
                            input int Torus);
    dn = up(r, p ^ 1, K0, K1, K2, Torus);
  endfunction

  // ---------------------------------------------------------------- routes
  // Route information of one buffered packet, decoded once when its head flit is written:
  // 2*Dims+5 bits, with NP = 2*Dims+1 ports:
  //   omask [NP-1:0]     candidate output ports before flow control (ADBR: every productive
  //                      network port; DOR: the port of the lowest dimension with hops left; the
  //                      local port 2*Dims when no hop is left)
  //   k     [NP+1:NP]    DBFC requirement: free packet slots needed downstream (ADBR: dimensions
  //                      with hops left; DOR: 1; 0 for ejection). Bubble (a torus, DOR-VCT
  //                      only): the bubble rule: 1 when the packet continues in its ring
  //                      (output port = input port `inp`), 2 when it enters a ring (from
  //                      injection or from another dimension)
  //   pref  [NP+3:NP+2]  dimension preferred when downstream credits tie (ADBR; see route_sel)
  // Sel: 0 = prefer the dimension with the fewest hops left (it finishes a dimension early and
  // lowers the DBFC requirement of the rest of the path), 1 = the one with the most hops left.
  // Ties: the lowest dimension. Dimensions >= Dims are ignored.
  function automatic logic [MaxInfoW-1:0] route_info(input logic [RouteW-1:0] r, input int Dims,
                                                     input int Mode, input int Sel,
                                                     input logic [2:0] inp, input int Bubble);
    logic [6:0] om;
    logic [1:0] k, pref;
    logic [7:0] a, best;
    logic       found;
    om    = '0;
    k     = '0;
    pref  = '0;
    best  = '0;
    found = 1'b0;
    for (int d = 0; d < 3; d++) begin
      a = r[8*d+7] ? (8'd0 - r[8*d +: 8]) : r[8*d +: 8];
      if (d < Dims && a != 8'd0 && (Mode == ModeAdbr || !found)) begin
        om = om | (r[8*d+7] ? (7'(2) << (2*d)) : (7'(1) << (2*d)));
        // ADBR: one more dimension; DOR: 1, or 2 to enter a ring of a torus (the bubble rule)
        k = (Mode == ModeAdbr) ? k + 2'd1
          : (Bubble != 0 && 32'(inp) != 2*d + (r[8*d+7] ? 1 : 0)) ? 2'd2 : 2'd1;
        if (!found || (Sel == 0 ? (a < best) : (a > best))) begin
          best = a;
          pref = 2'(d);
        end
        found = 1'b1;
      end
    end
    if (!found) om = om | (7'(1) << (2*Dims));  // no hop left: ejection
    route_info = MaxInfoW'(om) | (MaxInfoW'(k) << (2*Dims + 1)) | (MaxInfoW'(pref) << (2*Dims + 3));
  endfunction

  // A head whose route cannot be followed from this router: hops towards an output without a link
  // (`exists`: the router's network outputs that lead somewhere; a mesh has none beyond its edges)
  // or hops in a dimension >= Dims. Such a route leaves the network: the router ejects the packet
  // here with its route field as it is: non-zero, where a packet routed normally leaves with a zero
  // one (docs/router.md).
  function automatic logic unroutable(input logic [RouteW-1:0] r, input logic [5:0] exists, input int Dims);
    logic bad;
    bad = 1'b0;
    for (int d = 0; d < 3; d++) begin
      if (r[8*d +: 8] != 8'd0 && (d >= Dims || !exists[2*d + (r[8*d+7] ? 1 : 0)])) bad = 1'b1;
    end
    unroutable = bad;
  endfunction

  // Route information of an unroutable head: the local port (ejection), k = 0.
  function automatic logic [MaxInfoW-1:0] eject_info(input int Dims);
    eject_info = MaxInfoW'(1) << (2*Dims);
  endfunction

  // Route computation of one packet from its decoded route `info`, the outputs that can take a
  // new packet this cycle (`ofree`: idle or sending its tail now, and able to take a flit) and the
  // credits of the network outputs (`cred`, CredBits bits each: free packet slots downstream in
  // the VCT modes, free flit entries in wormhole mode). Returns {sel, cand}, 7 bits each:
  //   cand: admissible outputs: candidate ports that are free and satisfy DBFC, credit >= k (a
  //         packet with hops left in k dimensions needs k free packet slots downstream; DOR has
  //         k = 1); the local port needs only ofree;
  //   sel : the selection function's choice (one-hot, 0 when cand is empty): the admissible port
  //         with the most credits; on a tie the port in dimension pref; then the lowest port.
  function automatic logic [13:0] route_sel(input logic [MaxInfoW-1:0] info,
                                            input logic [6:0] ofree,
                                            input logic [6*CredBits-1:0] cred,
                                            input int Dims, input int Mode);
    logic [6:0]          om, cand, sel;
    logic [1:0]          k, pref;
    logic [CredBits-1:0] best, c;
    logic                bpref;
    om   = 7'(info >> 0) & ~(7'h7f << (2*Dims + 1));
    k    = 2'(info >> (2*Dims + 1));
    pref = 2'(info >> (2*Dims + 3));
    cand = '0;
    sel  = '0;
    best  = '0;
    bpref = 1'b0;
    for (int p = 0; p < 6; p++) begin
      c = cred[p*CredBits +: CredBits];
      if (p < 2*Dims && om[p] && ofree[p] && c >= CredBits'(k)) begin
        cand[p] = 1'b1;
        // more credits, or as many and in the preferred dimension (then the first found)
        if (sel == '0 || c > best || (Mode == ModeAdbr && c == best && !bpref && 2'(p / 2) == pref)) begin
          sel   = 7'(1) << p;
          best  = c;
          bpref = (2'(p / 2) == pref);
        end
      end
    end
    if ((om & ofree & (7'(1) << (2*Dims))) != '0) begin
      cand = cand | (7'(1) << (2*Dims));
      sel  = 7'(1) << (2*Dims);
    end
    route_sel = {sel, cand};
  endfunction

  // ---------------------------------------------------------------- DAMQ pick and allocation
  // The age rows of one input (NS x NS bits, row s at s*NS: t arrived before s) spread onto the
  // MaxS x MaxS layout of pick_oldest.
  function automatic logic [MaxS*MaxS-1:0] expand_age(input logic [MaxS*MaxS-1:0] a, input int NS);
    expand_age = '0;
    for (int s = 0; s < MaxS; s++) begin
      if (s < NS) expand_age[s*MaxS +: MaxS] = MaxS'(a >> (s*NS)) & ~(MaxS'('1) << NS);
    end
  endfunction

  // DAMQ pick: of the slots with an admissible output (`cand`), the oldest; older[s*8 + t] says
  // that the packet in slot t arrived before the one in slot s. Returns {found, slot[2:0]}.
  function automatic logic [3:0] pick_oldest(input logic [MaxS-1:0] cand,
                                             input logic [MaxS*MaxS-1:0] older, input int NS);
    logic       found;
    logic [2:0] slot;
    found = 1'b0;
    slot  = '0;
    for (int s = 0; s < MaxS; s++) begin
      if (s < NS && cand[s] && (cand & older[s*MaxS +: MaxS]) == '0) begin
        found = 1'b1;
        slot  = 3'(s);
      end
    end
    pick_oldest = {found, slot};
  endfunction

  // Requests of NP inputs (NP x NP one-hot, input i at i*NP) spread onto the 7 x 7 layout of alloc.
  function automatic logic [48:0] expand_req(input logic [48:0] q, input int NP);
    expand_req = '0;
    for (int i = 0; i < 7; i++) begin
      if (i < NP) expand_req[i*7 +: 7] = 7'(q >> (i*NP)) & ~(7'h7f << NP);
    end
  endfunction

  // Switch allocation of one router. req[i*7 +: 7]: input i's request (one-hot output, or 0).
  // The inputs are visited in a rotating order starting at ptr; each gets its output if no input
  // before it in this order took that output; ptr then moves just past the first input granted.
  // Returns {ptr_next[2:0], found, gnt[6:0] (per input), ognt[6:0] (per output),
  // ogin[20:0] (per output: the input granted, 3 bits)} = 39 bits.
  function automatic logic [38:0] alloc(input logic [48:0] req, input logic [2:0] ptr,
                                        input int NI);
    logic [6:0]  gnt, ognt;
    logic [20:0] ogin;
    logic [2:0]  first;
    logic        found;
    gnt   = '0;
    ognt  = '0;
    ogin  = '0;
    first = ptr;
    found = 1'b0;
    for (int pass = 0; pass < 2; pass++) begin
      for (int i = 0; i < 7; i++) begin
        if (i < NI && ((pass == 0) == (3'(i) >= ptr)) && req[i*7 +: 7] != '0
            && (req[i*7 +: 7] & ognt) == '0) begin
          gnt[i] = 1'b1;
          ognt   = ognt | req[i*7 +: 7];
          for (int o = 0; o < 7; o++) begin
            if (req[i*7 + o]) ogin[o*3 +: 3] = 3'(i);
          end
          if (!found) first = 3'(i);
          found = 1'b1;
        end
      end
    end
    alloc = {found ? ((32'(first) == NI - 1) ? 3'd0 : first + 3'd1) : ptr, found, gnt, ognt, ogin};
  endfunction

  // The head flit's first 32 bits after a hop on network port p (dimension p/2, direction p%2):
  // that dimension's remaining hops move one step towards zero, the hop counter counts one more.
  function automatic logic [31:0] hop_update(input logic [31:0] h, input int p);
    hop_update = h;
    for (int d = 0; d < 3; d++) begin
      if (d == p / 2) hop_update[8*d +: 8] = (p % 2 == 0) ? (h[8*d +: 8] - 8'd1) : (h[8*d +: 8] + 8'd1);
    end
    hop_update[31:24] = h[31:24] + 8'd1;
  endfunction

  // The injection port has room for a flit. VCT modes: a packet is being written (wmid), or one
  // of the slots in use (slots) is free (occ: the local input's slots); wormhole: its FIFO holds
  // fewer than lim flits (cnt).
  function automatic logic inj_room(input logic wmid, input logic [MaxS-1:0] occ,
                                    input logic [MaxS-1:0] slots, input logic [15:0] cnt,
                                    input logic [15:0] lim, input int Mode);
    if (Mode == ModeDorWh) inj_room = cnt != lim;
    else                   inj_room = wmid || (~occ & slots) != '0;
  endfunction

endpackage
