// Source list of the NIC (rtl/nic, top nic_top). docs/common.md#source-lists.
-f rtl/link/sources.f  // (with rtl/common's)
rtl/nic/nic_formats_pkg.sv
rtl/nic/nic_pkg.sv
rtl/nic/nic_cmpl_pkg.sv
rtl/nic/nic_vp_err.sv
rtl/nic/nic_ring_ctx.sv
rtl/nic/nic_regs.sv
rtl/nic/nic_rx_ahead.sv
rtl/nic/nic_rx_mpq.sv
rtl/nic/nic_rx_tbl.sv
rtl/nic/nic_rx_pages.sv
rtl/nic/nic_rx.sv
rtl/nic/nic_cmpl.sv
rtl/nic/nic_desc_check.sv
rtl/nic/nic_exec.sv
rtl/nic/nic_epoch_drop.sv
rtl/nic/nic_route.sv
rtl/nic/nic_ackgen.sv
rtl/nic/nic_att.sv
rtl/nic/nic_inval.sv
rtl/nic/nic_rdfifo.sv
rtl/nic/nic_pktz.sv
rtl/nic/nic_rdeng.sv
rtl/nic/nic_dq.sv
rtl/nic/nic_hdq.sv
rtl/nic/nic_top.sv
