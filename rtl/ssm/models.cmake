# SSM models driven from C++: the engine's source list (rtl/ssm/sources.f).
hpcnet_sources(SSM_RTL ${HPCNET_RTL}/ssm/sources.f)

# The engine as the driver sees it: default parameters (2 cores) and a 1-core variant.
hpcnet_model(PREFIX Vssm_top TOP ssm_top SOURCES ${SSM_RTL})
hpcnet_model(PREFIX Vssm_top_1core TOP ssm_top SOURCES ${SSM_RTL} ARGS -GNumCores=1)

# Module-level unit tests (tb/ssm/unit): the hash table with a tiny geometry so that sets fill
# and spill easily, and the operation queues with the default parameters. A module alone does not
# use every constant of ssm_pkg/ssm_regs_pkg, hence -Wno-UNUSEDPARAM.
hpcnet_model(PREFIX Vssm_hash TOP ssm_hash SOURCES ${SSM_RTL}
             ARGS -Wno-UNUSEDPARAM -GNumClients=2 -GHashSets=16 -GHashBanks=4 -GHashWays=4)
hpcnet_model(PREFIX Vssm_opq TOP ssm_opq SOURCES ${SSM_RTL} ARGS -Wno-UNUSEDPARAM)
# The collective unit alone (tb/ssm/unit/test_ssm_coll*.cpp): 3 PEs x 2 threads and 2 contexts, so
# that groups fill and every context is taken (ERR_NO_CONTEXT) within a few operations.
hpcnet_model(PREFIX Vssm_coll TOP ssm_coll SOURCES ${SSM_RTL}
             ARGS -Wno-UNUSEDPARAM -GNumPe=3 -GNumThreads=2 -GSlots=2)

# ---- ssm_burst (burst-reduce unit) -------------------------------------------------------------
# Unit tests in tb/ssm/burst: the unit with its default parameters (5 PEs x 4 threads, 2 slots)
# and the real ssm_alu. -Wno-UNUSEDPARAM: the packages' constants are not all used here.
hpcnet_model(PREFIX Vssm_burst TOP ssm_burst SOURCES ${SSM_RTL} ARGS -Wno-UNUSEDPARAM)
