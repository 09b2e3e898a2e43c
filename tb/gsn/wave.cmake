# Waveform test of the global sync network (tb/wave): a 16-node tree (rtl/gsn/wave/gsn_tree.sigs).
wave_trace_test(NAME gsn_tree SIGS gsn_tree FIRST 100 LAST 600 ENV
  CMD $<TARGET_FILE:tb_gsn> "gsn: random Vgsn_tree_16")
