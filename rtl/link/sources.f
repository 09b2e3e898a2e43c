// Source list of the reliable link layer (rtl/link, docs/link.md): the CRC-16 and control word
// (lnk_pkg), the sender, the receiver,
// the link's state, one end of a link (the three joined) and the error log. docs/common.md#source-lists.
-f rtl/common/sources.f
rtl/link/lnk_pkg.sv
rtl/link/lnk_tx.sv
rtl/link/lnk_rx.sv
rtl/link/lnk_state.sv
rtl/link/lnk_end.sv
rtl/link/lnk_errlog.sv
