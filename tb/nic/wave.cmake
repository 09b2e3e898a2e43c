# Waveform tests of the NIC (tb/wave; lists in rtl/nic/wave).
# The NIC: node 0 of the two-node test, its first immediate writes (descriptors in, packets out).
wave_trace_test(NAME nic_top SIGS nic_top FIRST 10600 LAST 11400 ENV
  CMD $<TARGET_FILE:tb_nic_pair> "nic: immediate writes of 1 to 128 bytes")
# The link layer's replay (rtl/nic/wave/nic_link.sigs, docs/link.md section 10): node 0 of the NIC
# demo with both directions dead for 3 cycles in its RDMA write; the NACK at about cycle 3399.
wave_trace_test(NAME nic_link SIGS nic_link FIRST 3360 LAST 3440
  CMD $<TARGET_FILE:hpcnet> nic-demo --link-dead 700:3 --trace ${_out}/nic_link.fst --trace-first 3360 --trace-last 3440)
# A NIC on the router network (rtl/nic/wave/nic_net.sigs, docs/machine.md section 10): node 1 of a
# 2x2 machine's ping-pong, its NIC, its router's link end and plane 0 merged into one file; a write
# from node 0 arrives at about cycle 2822, node 1's answer and its own write leave after it.
wave_trace_test(NAME nic_net SIGS nic_net FIRST 2800 LAST 3400
  CMD $<TARGET_FILE:hpcnet> machine --shape 2x2 --program ping-pong --quick --trace-node 1 --trace ${_out}/nic_net.fst --trace-first 2800 --trace-last 3400)
