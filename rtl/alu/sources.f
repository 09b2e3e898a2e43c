// Source list of the reduction ALU (rtl/alu; used by the SSM and the GSN). docs/common.md#source-lists.
rtl/alu/ssm_fp64_add.sv
rtl/alu/ssm_fp64_cmp.sv
rtl/alu/ssm_alu.sv
