// nic_pkg: types shared by the NIC's units (docs/nic.md section 6).
package nic_pkg;
  // win_t: an MMIO access that nic_regs routes to the unit owning the register (its window): a
  // register of a VP's user page, or of an element of the privileged VPC array (one per VP). The
  // owner keeps that context in its own memory (cmn_ctx_mem): a write is applied at the edge; a
  // read is answered with the register's value in the same cycle (0 for an offset not the owner's),
  // and nic_regs returns the OR of the owners' answers one cycle later.
  typedef struct packed {
    logic        valid;  // an access this cycle
    logic        write;  // a write (else a read)
    logic        vpc;    // a VPC element (else the VP's user page)
    logic [4:0]  vp;     // the VP (the user page, or the VPC element)
    logic [11:0] off;    // offset in the user page, or in the VPC element
    logic [63:0] wdata;
  } win_t;
endpackage
