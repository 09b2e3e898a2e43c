// nic_cmpl_pkg: the record the completion unit keeps per message (MSG_ID) from dispatch to
// completion: what the CQ entry, the local event and the interrupt need (docs/nic.md section 4).
package nic_cmpl_pkg;
  typedef struct packed {
    logic [127:0] lev_data;  // the local event's 16 bytes
    logic [47:0]  lev_pa;    // the local event's physical address (translated at dispatch)
    logic [15:0]  lev_key;   // the key it was translated with (a fence of that key drops the event)
    logic         lev_phys;  // the address is physical (no key)
    logic         lev;       // write the local event on success
    logic         intr;      // raise the VP's CQ interrupt cause with the CQ entry
    logic         cq_ok;     // write a CQ entry on success too
    logic [31:0]  len;       // bytes of the transfer (the CQ entry's LEN on success)
    logic [13:0]  dst_node;
    logic [3:0]   typ;       // descriptor TYPE
    logic [15:0]  tag;
    logic [4:0]   vp;
  } rec_t;
  // $bits(rec_t), written out: Yosys 0.23 cannot take $bits of a type (nic_cmpl checks the two agree)
  localparam int RecW = 267;
endpackage
