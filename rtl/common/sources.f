// Source list of the common cells (rtl/common): one file a line, relative to the repository root;
// `-f LIST` reads another list in place; `//` starts a comment. docs/common.md#source-lists.
rtl/common/cmn_fifo.sv
rtl/common/cmn_rr_arb.sv
rtl/common/cmn_sram.sv
rtl/common/cmn_ctx_mem.sv
rtl/common/cmn_dma_arb.sv
rtl/common/cmn_realign.sv
rtl/common/cmn_sim_cycle.sv
