# Waveform test of the SSM (tb/wave): make run's demo, a window after reset (rtl/ssm/wave/ssm_top.sigs).
wave_trace_test(NAME ssm_top SIGS ssm_top FIRST 200 LAST 900
  CMD $<TARGET_FILE:hpcnet> demo --trace ${_out}/ssm_top.fst --trace-first 200 --trace-last 900)
