# Waveform test of the common cells (tb/wave): the SV testbench of cmn_fifo (+trace: tb_cmn_fifo.fst
# from time 0 to the end), rtl/common/wave/tb_cmn_fifo.sigs.
wave_trace_test(NAME tb_cmn_fifo SIGS tb_cmn_fifo FIRST 0 CMD $<TARGET_FILE:tb_cmn_fifo_sv> +seed=1 +trace)
