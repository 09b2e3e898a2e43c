// lnk_pkg: the reliable link layer's shared definitions (docs/link.md): the CRC-16 of a link
// packet, the flit's protected fields, and the control word of the reverse direction.
//
// CRC: CRC-16/CCITT, polynomial x^16 + x^12 + x^5 + 1 (0x1021), initial value 0xFFFF, no final
// XOR, bits taken most significant first. 0x1021 = (x + 1)(x^15 + x^14 + x^13 + x^12 + x^4 + x^3 +
// x^2 + x + 1), the second factor primitive: the code has Hamming distance 4 up to 32,751 bits, so
// on a link packet (5 flits of 280 protected bits: 1,400 bits) it detects every 1-, 2- and 3-bit
// error, every error of an odd number of bits (the x + 1 factor), every burst of 16 bits or less,
// and all but 1 in 2^15 of the 17-bit bursts and 1 in 2^16 of the others (tests in
// tb/link/test_lnk_crc.cpp). The paper cites Intel's rolling CRC-16 for its links; CCITT is the
// common 16-bit choice with these guarantees at this length.
//
// A flit's protected bits (FlitBits = 280), in the order the CRC takes them:
//   {seq (the packet's sequence number on its head flit, 0 on the others), vc (8 bits), head,
//    tail, 6 zero bits, data (256 bits)}
// A packet's CRC covers its flits in order; the tail flit carries it (crc field).
//
// Control word (CtlW = 64 bits, sent every cycle in the reverse direction, like a link's control
// symbols): {chk[15:0], free[3][7:0], free[2], free[1], free[0], 1'b0, echo[1:0], rnd[1:0], lst[1:0], nack_id,
//           ack[7:0]} (bits 14:9, {echo, rnd, lst}, are the end's state: StW bits)
//   ack     : the sequence number the receiver expects next (cumulative: every earlier packet is
//             accepted)
//   nack_id : toggles when the receiver asks for a replay from ack (an error episode)
//   free[v] : packets of VC v the receiver has released so far (mod 256): the sender's credits
//             are Credits - (new packets sent on v - free[v]); a lost word costs nothing (the
//             next one carries the same totals)
//   lst     : the state of the end that sends the word (lnk_state): LstUp, LstTrain (it is down
//             and flushing), LstReady (flushed, waiting for the other end), LstHeard (flushed,
//             and it has heard the other end's READY); the sender uses ack, nack_id and free
//             only from LstUp words
//   rnd     : the sending end's round (it moves on each time the end goes DOWN)
//   echo    : the other end's round this end heard last (in READY or HEARD words, and kept in UP
//             words): an end goes UP only on a HEARD word that echoes its own current round, so
//             READY and HEARD words of an earlier round are never taken for this one
//   chk     : CRC-16 of the 48 bits below it; a word whose chk fails is ignored
package lnk_pkg;
  /* verilator lint_off UNUSEDPARAM */  // a unit may use only some of them
  localparam int unsigned FlitBits = 280;
  localparam int unsigned CtlW     = 64;
  localparam int unsigned MaxVcs   = 4;
  localparam int unsigned StW      = 6;   // an end's state in the control word: {echo, rnd, lst}
  localparam logic [15:0] CrcPoly  = 16'h1021;
  localparam logic [15:0] CrcInit  = 16'hFFFF;
  localparam logic [1:0]  LstUp    = 2'd0;
  localparam logic [1:0]  LstTrain = 2'd1;
  localparam logic [1:0]  LstReady = 2'd2;
  localparam logic [1:0]  LstHeard = 2'd3;
  /* verilator lint_on UNUSEDPARAM */

  // the CRC after n more bits (d's top bit first)
  function automatic logic [15:0] crc16_bits(input logic [15:0] crc, input logic [FlitBits-1:0] d);
    logic [15:0] c;
    c = crc;
    for (int i = FlitBits - 1; i >= 0; i--) begin
      c = (c[15] ^ d[i]) ? ({c[14:0], 1'b0} ^ CrcPoly) : {c[14:0], 1'b0};
    end
    crc16_bits = c;
  endfunction

  // a flit's protected bits
  function automatic logic [FlitBits-1:0] flit_bits(input logic [7:0] seq, input logic [7:0] vc,
                                                    input logic head, input logic tail,
                                                    input logic [255:0] data);
    flit_bits = {seq, vc, head, tail, 6'b0, data};
  endfunction

  // the control word's check: the CRC of its 48 payload bits (padded at the top)
  function automatic logic [15:0] ctl_chk(input logic [47:0] payload);
    ctl_chk = crc16_bits(CrcInit, FlitBits'(payload));
  endfunction
endpackage
