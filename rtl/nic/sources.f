// Source list of the NIC (rtl/nic, top nic_top). docs/common.md#source-lists.
-f rtl/common/sources.f
rtl/nic/nic_formats_pkg.sv
rtl/nic/nic_rdfifo.sv
rtl/nic/nic_pktz.sv
rtl/nic/nic_rdeng.sv
