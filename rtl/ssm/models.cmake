# SSM models driven from C++.
set(SSM_RTL
  ${HPCNET_RTL}/common/cmn_fifo.sv
  ${HPCNET_RTL}/common/cmn_rr_arb.sv
  ${HPCNET_RTL}/common/cmn_sram.sv
  ${HPCNET_RTL}/ssm/ssm_regs_pkg.sv
  ${HPCNET_RTL}/ssm/ssm_pkg.sv
  ${HPCNET_RTL}/ssm/ssm_csr.sv
  ${HPCNET_RTL}/ssm/ssm_opq.sv
  ${HPCNET_RTL}/ssm/ssm_core.sv
  ${HPCNET_RTL}/ssm/ssm_hash_port.sv
  ${HPCNET_RTL}/ssm/ssm_hash.sv
  ${HPCNET_RTL}/ssm/ssm_spill.sv
  ${HPCNET_RTL}/ssm/ssm_retw.sv
  ${HPCNET_RTL}/alu/ssm_fp64_add.sv
  ${HPCNET_RTL}/alu/ssm_fp64_cmp.sv
  ${HPCNET_RTL}/alu/ssm_alu.sv
  ${HPCNET_RTL}/ssm/ssm_coll.sv
  ${HPCNET_RTL}/ssm/ssm_burst.sv
  ${HPCNET_RTL}/ssm/ssm_top.sv)

# The engine as the driver sees it: default parameters (2 cores) and a 1-core variant.
hpcnet_model(PREFIX Vssm_top TOP ssm_top SOURCES ${SSM_RTL})
hpcnet_model(PREFIX Vssm_top_1core TOP ssm_top SOURCES ${SSM_RTL} ARGS -GNumCores=1)

# Module-level unit tests (tb/ssm/unit): the hash table with a tiny geometry so that sets fill
# and spill easily, and the operation queues with the default parameters. A module alone does not
# use every constant of ssm_pkg/ssm_regs_pkg, hence -Wno-UNUSEDPARAM.
set(SSM_UNIT_RTL_BASE
  ${HPCNET_RTL}/common/cmn_fifo.sv
  ${HPCNET_RTL}/common/cmn_rr_arb.sv
  ${HPCNET_RTL}/common/cmn_sram.sv
  ${HPCNET_RTL}/ssm/ssm_regs_pkg.sv
  ${HPCNET_RTL}/ssm/ssm_pkg.sv)
hpcnet_model(PREFIX Vssm_hash TOP ssm_hash
             SOURCES ${SSM_UNIT_RTL_BASE} ${HPCNET_RTL}/ssm/ssm_spill.sv
                     ${HPCNET_RTL}/ssm/ssm_hash_port.sv ${HPCNET_RTL}/ssm/ssm_hash.sv
             ARGS -Wno-UNUSEDPARAM -GNumClients=2 -GHashSets=16 -GHashBanks=4 -GHashWays=4)
hpcnet_model(PREFIX Vssm_opq TOP ssm_opq
             SOURCES ${SSM_UNIT_RTL_BASE} ${HPCNET_RTL}/ssm/ssm_opq.sv
             ARGS -Wno-UNUSEDPARAM)

# ---- ssm_burst (burst-reduce unit) -------------------------------------------------------------
# Unit tests in tb/ssm/burst: the unit with its default parameters (5 PEs x 4 threads, 2 slots)
# and the real ssm_alu. -Wno-UNUSEDPARAM: the packages' constants are not all used here.
set(SSM_BURST_RTL
  ${HPCNET_RTL}/common/cmn_fifo.sv
  ${HPCNET_RTL}/ssm/ssm_regs_pkg.sv
  ${HPCNET_RTL}/ssm/ssm_pkg.sv
  ${HPCNET_RTL}/alu/ssm_fp64_add.sv
  ${HPCNET_RTL}/alu/ssm_fp64_cmp.sv
  ${HPCNET_RTL}/alu/ssm_alu.sv
  ${HPCNET_RTL}/ssm/ssm_burst.sv)
hpcnet_model(PREFIX Vssm_burst TOP ssm_burst SOURCES ${SSM_BURST_RTL} ARGS -Wno-UNUSEDPARAM)
