# bench/nic/tests.cmake (included from bench/nic/bench.cmake): `hpcnet
# nic` (docs/nic_bench.md): a quick run of each scenario with its table header and a sane value
# range, the outputs (CSV per table, JSON tables, plots), a wrong destination byte failing the
# run (exit 1), and options refused (exit 2). Each run takes seconds.
set(_nic ${_cli}/nic)

# latency: the three paths and the breakdown; the PIO path's 8-byte minimum between 0.5 and 10 us
cli_expect(nic_latency_quick 0 [=[^path +size +iters +min us +median us +mean us +p99 us +min cycles$]=]
           --has [=[^pio +8 +20 +(0\.[5-9][0-9]{2}|[1-9]\.[0-9]{3}) ]=]
           --has [=[^dma +8 +20 +(0\.[5-9][0-9]{2}|[1-9]\.[0-9]{3}) ]=]
           --has [=[^imm +8 +20 +(0\.[5-9][0-9]{2}|[1-9]\.[0-9]{3}) ]=]
           --has [=[^imm +64 +20 +[0-9]]=] --no [=[^imm +1024 ]=]
           --has [=[^pio +8 +receiver CPU: seen by polling +[0-9]]=]
           --has [=[note: the paper.s order dma > imm > pio .* with imm as its immediate path: (kept|NOT kept)]=]
           --exists ${_nic}/lat-latency.csv --exists ${_nic}/lat-breakdown.csv --exists ${_nic}/plots/latency.png
           --json ${_nic}/lat.json tables.latency --json ${_nic}/lat.json tables.latency_paper
           --json ${_nic}/lat.json tables.breakdown --json ${_nic}/lat.json config.notify
           -- nic --scenario latency --quick --quiet --csv ${_nic}/lat.csv --json ${_nic}/lat.json --plot ${_nic}/plots)
# the tidy CSV: snake_case header with units, the configuration as columns, no annotations
add_test(NAME cli.nic_tidy_csv
         COMMAND sh -c "set -e; rm -f '${_nic}/tidy-latency.csv'; \"$0\" nic --scenario latency --paths pio --sizes 8 --iters 20 --warmup 1 --trips 1 --quiet --csv '${_nic}/tidy.csv' > /dev/null; head -1 '${_nic}/tidy-latency.csv' | grep -qx 'path,size_bytes,iterations,min_latency_us,median_latency_us,mean_latency_us,p99_latency_us,min_latency_cycles,clock_mhz,pcie_raw_gbps,pcie_read_latency_cycles,pcie_mps_bytes,pcie_mrrs_bytes,pcie_tlp_overhead_bytes,pio_write_latency_cycles,link_delay_cycles,seed,notify'; if grep -q '[%(]' '${_nic}/tidy-latency.csv'; then exit 1; fi; grep -q '^pio,8,20,' '${_nic}/tidy-latency.csv'"
                 $<TARGET_FILE:hpcnet>)
# --notify event: the receiver waits on a remote event
cli_expect(nic_latency_event 0 [=[waits on a remote event]=] --has [=[^pio +8 +5 +(0\.[5-9][0-9]{2}|[1-9]\.[0-9]{3}) ]=]
           -- nic --scenario latency --paths pio --sizes 8 --iters 5 --warmup 1 --trips 1 --notify event --quiet)
# bandwidth and read: 64 KiB streams between 1 and 8 GB/s, the bottleneck named, the plot
cli_expect(nic_bandwidth_quick 0 [=[^size +msgs +cycles +GB/s +% of bottleneck ]=]
           --has [=[^65536 +8 +[0-9]+ +[1-7]\.[0-9]{3} ]=]
           --has [=[modelled bottleneck 7\.314 GB/s: PCIe writes at the writing node]=]
           --has [=[half of the peak]=] --has [=[Streaming RDMA read]=]
           --exists ${_nic}/bw_plots/bandwidth.png --json ${_nic}/bw.json tables.bandwidth --json ${_nic}/bw.json tables.read
           -- nic --scenario bandwidth,read --quick --quiet --plot ${_nic}/bw_plots --json ${_nic}/bw.json)
# vps: 32 VPs at once, the aggregate and Jain's index
cli_expect(nic_vps_quick 0 [=[^32 +4096 +4 +[1-7]\.[0-9]{3} ]=] --has [=[Jain index]=] --has [=[^31 +4 +16384 ]=]
           --json ${_nic}/vps.json tables.vps_summary
           -- nic --scenario vps --quick --quiet --json ${_nic}/vps.json)
# speed: both runs with their cycles per second and the peak RSS
cli_expect(nic_speed_quick 0 [=[^streaming +8 RDMA writes of 64 KiB +[0-9]+ ]=]
           --has [=[^ping-pong +50 round trips of 8 B .* [0-9]+\.[0-9] +]=]
           -- nic --scenario speed --quick --quiet)
# rate: the quick run (immediate writes and mini-packets, library and packed PIO-WC submission, 1
# and 32 VPs): both tables' tidy columns, the 8 rows, every rate positive, each row's busiest stage
add_test(NAME cli.nic_rate_quick
         COMMAND sh -c "set -e; d='${_nic}'; rm -f \"$d/rate-rate.csv\" \"$d/rate-rate_stages.csv\"; \"$0\" nic --scenario rate --quick --quiet --csv \"$d/rate.csv\" > /dev/null; head -1 \"$d/rate-rate.csv\" | grep -q '^kind,submit,vps,messages,cycles,mmsgs_per_s,cycles_per_msg,steady_cycles_per_msg,pct_of_link,busiest_stage,busiest_use_pct,clock_mhz,.*,message_bytes,messages_per_vp,link_mmsgs_per_s$'; head -1 \"$d/rate-rate_stages.csv\" | grep -q '^kind,submit,vps,pio_bus_busy_pct,pio_bus_cycles_per_msg,wc_bursts_per_msg,mmio_words_per_msg,vc0_flits_per_msg,vc0_busy_pct,vc1_busy_pct,rx_cycles_per_msg,rx_busy_pct,round_trip_cycles,in_flight_msgs,window_use_pct,dma_reads_in_flight,node1_pcie_up_busy_pct,node0_pcie_down_busy_pct,'; awk -F, 'NR > 1 { n++; if (!(\$6 > 0) || \$4 != \$3 * 16 || \$10 == \"\") bad++ } END { exit !(n == 8 && !bad) }' \"$d/rate-rate.csv\"; grep -q '^imm,pio-wc-packed,32,512,' \"$d/rate-rate.csv\"; grep -q '^mp,pio-wc,1,16,' \"$d/rate-rate.csv\""
         $<TARGET_FILE:hpcnet>)
# rate: a wrong byte at node 1 (injected after the run, before the check) fails the run: exit 1,
# for the written bytes and for a mini-packet in the MPQ
cli_expect(nic_rate_wrong_byte 1 [=[check failed: IMM_WRITE 8 B, pio-wc, 2 VPs: VP 1's destination: byte 16 is]=]
           -- nic --scenario rate --rate-kinds imm --rate-vps 2 --rate-msgs 4 --rate-submit pio-wc --quiet)
cli_expect(nic_rate_wrong_mp 1 [=[check failed: MP_SEND 8 B, pio-wc, 2 VPs: MPQ entry 4: the payload: byte 0 is]=]
           -- nic --scenario rate --rate-kinds mp --rate-vps 2 --rate-msgs 4 --rate-submit pio-wc --quiet)
set_tests_properties(cli.nic_rate_wrong_byte cli.nic_rate_wrong_mp PROPERTIES ENVIRONMENT HPCNET_NIC_BENCH_FAULT=rate)
# a wrong destination byte (injected after the stream, before the check) fails the run: exit 1
cli_expect(nic_wrong_byte 1 [=[check failed: RDMA write 4 KiB stream: the destination: byte [0-9]+ is]=]
           --json ${_nic}/wrong.json exit_code
           -- nic --scenario bandwidth --bw-sizes 4096 --bw-bytes 16384 --quiet --json ${_nic}/wrong.json)
set_tests_properties(cli.nic_wrong_byte PROPERTIES ENVIRONMENT HPCNET_NIC_BENCH_FAULT=stream)
# options refused before anything is simulated
cli_expect(nic_not_apply 2 [=[--iters: does not apply to the scenario run \(bandwidth\); it applies to latency]=]
           -- nic --scenario bandwidth --iters 5)
cli_expect(nic_plot_not_apply 2 [=[--plot: does not apply to the scenarios run \(vps, speed\); it applies to bandwidth, latency, read]=]
           -- nic --scenario vps,speed --plot ${_nic}/none)
cli_expect(nic_imm_sizes 2 [=[--sizes: the imm path takes sizes of 1 to 128 bytes]=] -- nic --scenario latency --paths imm --sizes 256)
cli_expect(nic_bad_mps 2 [=[--mps: 512 not in \{128,256\}]=] --no [=[: seed]=] -- nic --mps 512)
cli_expect(nic_bad_scenario 2 [=[--scenario: frob not in]=] --no [=[: seed]=] -- nic --scenario latency,frob)
cli_expect(nic_bad_vps 2 [=[--vps: Value 33 not in range 1 to 32]=] --no [=[: seed]=] -- nic --vps 33)
cli_expect(nic_list_space 2 [=[not expected: 16]=] --no [=[: seed]=] -- nic --sizes 8 16)
cli_expect(nic_zero_size 2 [=[--sizes: Value 0 not in range]=] --no [=[: seed]=] -- nic --sizes 0,8)
# The NIC demo (bench/nic/nic_demo.cpp): every step checked, the trace of both NICs written.
cli_expect(nic_demo 0 [=[result +: PASS]=] --has [=[write past the end of the target's region .*RANGE \(found at the target\), no byte touched]=]
           --exists ${_cli}/nic_demo/nic.fst --exists ${_cli}/nic_demo/nic-2.fst --json ${_cli}/nic_demo/nic.json tables.nic-demo
           -- nic-demo --trace ${_cli}/nic_demo/nic.fst --json ${_cli}/nic_demo/nic.json)
cli_expect(nic_demo_bad_bytes 2 [=[--bytes]=] -- nic-demo --bytes 0)
# the largest --bytes the help allows (1 MiB; issue 33: the source's fill inside a simulated thread
# ran past the watchdog above about 640 KB): both transfers byte-exact, about a second
cli_expect(nic_demo_1mib 0 [=[result +: PASS]=] --has [=[^  RDMA write 1048576 B, remote event .* bytes identical, event seen]=]
           --has [=[^  RDMA read 1048576 B back .* bytes identical]=] -- nic-demo --bytes 1048576)
