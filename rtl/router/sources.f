// Source list of the bubble-flow router (rtl/router, top rtr_router). docs/common.md#source-lists.
rtl/common/cmn_sim_cycle.sv
rtl/router/rtr_pkg.sv
rtl/router/rtr_route.sv
rtl/router/rtr_alloc.sv
rtl/router/rtr_phase.sv
rtl/router/rtr_router.sv
