# Waveform tests of the router and its networks (tb/wave; lists in rtl/router/wave).
wave_trace_test(NAME rtr_router SIGS rtr_router FIRST 5 LAST 60 ENV
  CMD $<TARGET_FILE:tb_rtr_router> "rtr_router DAMQ: a blocked packet does not block a later one")
# An 8x8 mesh (`hpcnet net`, the middle router 27) and a 4x4 mesh (a chosen router).
wave_trace_test(NAME net_mesh_8x8 SIGS net_mesh FIRST 100 LAST 500
  CMD $<TARGET_FILE:hpcnet> net --scenario latency --mesh 8x8 --mode adbr --pattern uniform
      --loads 0.3 --warmup 200 --measure 300 --quiet
      --trace ${_out}/net_mesh_8x8.fst --trace-first 100 --trace-last 500)
# the whole 8x8 model is a benchmark model (rtl/router/models.cmake): `make test-long`
set_tests_properties(wave.net_mesh_8x8 PROPERTIES LABELS long)
wave_trace_test(NAME net_mesh_4x4 SIGS net_mesh FIRST 40 LAST 130 ROUTER 1,2 ENV
  CMD $<TARGET_FILE:test_net_mesh> "mesh: all-to-all 4x4 adbr")
# One full multiphase barrier across a 4x4 ADBR mesh under background load (docs/barrier.md,
# tracing a barrier): the call at cycle 60.
wave_trace_test(NAME net_barrier_4x4 SIGS net_barrier FIRST 50 LAST 120 ROUTER 1,1
  CMD $<TARGET_FILE:hpcnet> net-barrier --scenario size --nets 4x4 --methods multiphase --kinds full --loads 0.1
      --barriers 1 --warmup 60 --quiet --trace ${_out}/net_barrier_4x4.fst --trace-first 50 --trace-last 120)
