// Source list of the synchronization engine (rtl/ssm, top ssm_top) with the lists it depends on,
// in compile order (packages first). docs/common.md#source-lists.
-f rtl/common/sources.f
-f rtl/alu/sources.f
rtl/ssm/ssm_regs_pkg.sv
rtl/ssm/ssm_pkg.sv
rtl/gsn/gsn_pkg.sv
rtl/ssm/ssm_csr.sv
rtl/ssm/ssm_opq.sv
rtl/ssm/ssm_core.sv
rtl/ssm/ssm_hash_port.sv
rtl/ssm/ssm_hash.sv
rtl/ssm/ssm_spill.sv
rtl/ssm/ssm_retw.sv
rtl/ssm/ssm_coll.sv
rtl/ssm/ssm_burst.sv
rtl/ssm/ssm_top.sv
