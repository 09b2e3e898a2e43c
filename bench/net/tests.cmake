# bench/net/tests.cmake (included from bench/CMakeLists.txt when the router block is built): the
# user surface of `hpcnet net` (docs/net_bench.md#options): exact exit codes (0 ok, 2 usage
# error) and messages through scripts/cli_expect.sh; small meshes and --quick so that each takes seconds.
set(_net_expect sh ${PROJECT_SOURCE_DIR}/scripts/cli_expect.sh)
set(_net $<TARGET_FILE:hpcnet> net)
set(_net_out ${CMAKE_CURRENT_BINARY_DIR}/net_cli)
file(MAKE_DIRECTORY ${_net_out})

# An option that none of the chosen scenarios uses is an error naming where it applies.
add_test(NAME cli.net_buf_only_buffers COMMAND ${_net_expect} 2 "--buf: does not apply to the scenario run \\(latency\\); it applies to buffers; the other scenarios take one depth: --depth" -- ${_net} --scenario latency --buf 4)
add_test(NAME cli.net_gain_buf_only_gain COMMAND ${_net_expect} 2 "--gain-buf: does not apply to the scenario run \\(saturation\\); it applies to gain" -- ${_net} --scenario saturation --gain-buf 3)
add_test(NAME cli.net_speed_options_only_speed COMMAND ${_net_expect} 2 "--speed-runs: does not apply to the scenarios run \\(zeroload, latency\\); it applies to speed" -- ${_net} --scenario zeroload,latency --speed-runs 3)
add_test(NAME cli.net_threads_only_speed COMMAND ${_net_expect} 2 "--threads: does not apply to the scenario run \\(gain\\); it applies to speed" -- ${_net} --scenario gain --threads 2)
add_test(NAME cli.net_loads_no_sweep COMMAND ${_net_expect} 2 "--loads: does not apply to the scenario run \\(saturation\\); it applies to latency, speed" -- ${_net} --scenario saturation --loads 0.1)
add_test(NAME cli.net_hotspots_without_hotspot COMMAND ${_net_expect} 2 "--hotspot-frac: applies only with the hotspot pattern" -- ${_net} --scenario zeroload --pattern uniform --hotspot-frac 0.2)
add_test(NAME cli.net_plot_needs_curves COMMAND ${_net_expect} 2 "--plot: does not apply to the scenario run \\(zeroload\\); it applies to latency, buffers" -- ${_net} --scenario zeroload --plot ${_net_out}/p0)
add_test(NAME cli.net_speed_no_mesh_options COMMAND ${_net_expect} 2 "--pattern: does not apply to the scenario run \\(speed\\); .*speed runs uniform traffic" -- ${_net} --scenario speed --pattern transpose)
add_test(NAME cli.net_idle_load_only_speed COMMAND ${_net_expect} 2 "--loads: 0 \\(idle inputs\\) applies only to the speed scenario" -- ${_net} --scenario latency --loads 0,0.1)
add_test(NAME cli.net_gain_needs_both_modes COMMAND ${_net_expect} 2 "--mode: the gain scenario compares adbr with dorvct" -- ${_net} --scenario gain --mode adbr)
add_test(NAME cli.net_depth_below_minimum COMMAND ${_net_expect} 2 "--depth: 4x4 adbr b1: buffer depth 1 packets below the DBFC minimum 2" -- ${_net} --scenario zeroload --mesh 4x4 --mode adbr --depth 1)
# --depth sets the buffers of the non-sweep scenarios
add_test(NAME cli.net_depth COMMAND ${_net_expect} 0 "^adbr +3 +uniform +" --has "^depth = 3$" -- ${_net} --scenario zeroload --mesh 4x4 --mode adbr --pattern uniform --depth 3 --quick --quiet)

# Patterns and shapes: the default set narrowed to what fits, an explicit misfit refused; a mesh
# or mode without a model names what exists.
add_test(NAME cli.net_patterns_narrowed COMMAND ${_net_expect} 0 "note: 1 of the default patterns does not fit the 2x4-torus, left out: transpose is not defined" --has "^dorvct +2 +bitrev " --no "^dorvct +2 +transpose " -- ${_net} --mesh 2x4-torus --scenario zeroload --quick --quiet)
add_test(NAME cli.net_pattern_misfit COMMAND ${_net_expect} 2 "--pattern: transpose is not defined on a 2x4-torus mesh" -- ${_net} --mesh 2x4-torus --scenario zeroload --pattern transpose)
# any 2-D size runs (blocks joined at run time); a 3-D mesh joins ADBR blocks only
add_test(NAME cli.net_no_model COMMAND ${_net_expect} 2 "--mode: no 5x5x5 dorwh mesh model is built \\(the modes built for 5x5x5: adbr\\); to get one, .*rtr_block_model.*rtl/router/models.cmake" -- ${_net} --mesh 5x5x5 --mode dorwh --scenario zeroload)
add_test(NAME cli.net_mode_not_built COMMAND ${_net_expect} 2 "--mode: no 8x8-torus adbr mesh model is built \\(the modes built for 8x8-torus: dorvct\\)" -- ${_net} --mesh 8x8-torus --mode adbr)

# Settings: key=value, the config file, the effective configuration and --save-config.
add_test(NAME cli.net_unknown_key COMMAND ${_net_expect} 2 "usage error: foo=3: unknown key 'foo'; the keys: scenario, mesh" -- ${_net} --scenario zeroload foo=3)
add_test(NAME cli.net_bad_setting_value COMMAND ${_net_expect} 2 "usage error: seed=x: " -- ${_net} --scenario zeroload seed=x)
add_test(NAME cli.net_list_not_spaces COMMAND ${_net_expect} 2 "usage error: 0.2: a setting is key=value" -- ${_net} --scenario latency --loads 0.1 0.2)
add_test(NAME cli.net_settings COMMAND ${_net_expect} 0 "net: seed 7$" --has "^mesh = \"4x4\"$" --has "^warmup = 300$" --has "^measure = 1000$" --has "^uniform +adbr +0.100 " --has "^uniform +adbr +0.200 " --has "^3 simulation runs" -- ${_net} --scenario latency --quiet shape=4x4 mode=adbr pattern=uniform loads=0.1,0.2 seed=7 phases=300/1000)
add_test(NAME cli.net_config_example COMMAND ${_net_expect} 0 "^mode = \\[\"adbr\", \"dorvct\"\\]$" --has "^pattern = \\[\"transpose\"\\]$" --has "^mesh = \"4x4\"$" --has "^transpose( +[0-9.]+){9} +0.333 +1.000$" -- ${_net} --config ${CMAKE_CURRENT_SOURCE_DIR}/net/examples/transpose.toml --quiet mesh=4x4 phases=300/1000)
add_test(NAME cli.net_config_unknown_key COMMAND sh -c "printf 'seed = 3\\nbogus = 1\\n' > '${_net_out}/bogus.toml'; sh \"$0\" 2 \"usage error: .*bogus.toml: bogus: unknown key 'bogus'\" -- \"$1\" net --config '${_net_out}/bogus.toml'"
         ${PROJECT_SOURCE_DIR}/scripts/cli_expect.sh $<TARGET_FILE:hpcnet>)
# a saved configuration reproduces the run: the same CSV
add_test(NAME cli.net_save_config COMMAND sh -c "set -e; \"$0\" net --scenario latency,zeroload --quiet --quick mesh=4x4 mode=dorvct pattern=bitcomp,neighbor loads=0.2,0.4 seed=3 --save-config '${_net_out}/saved.toml' --csv '${_net_out}/a.csv'; \"$0\" net --config '${_net_out}/saved.toml' --quiet --csv '${_net_out}/b.csv'; cmp '${_net_out}/a-latency.csv' '${_net_out}/b-latency.csv'; cmp '${_net_out}/a-zeroload.csv' '${_net_out}/b-zeroload.csv'; grep -q 'loads = \\[0.2, 0.4\\]' '${_net_out}/saved.toml'"
         $<TARGET_FILE:hpcnet>)

# Outputs: tidy CSVs (snake_case header with units, the configuration as columns, one value per
# cell), --json's named tables, plots past saturation with titles as written, progress with an estimate.
add_test(NAME cli.net_tidy_csv COMMAND sh -c "set -e; \"$0\" net --scenario latency,saturation --quiet --quick --mesh 4x4 --mode adbr,dorvct --pattern transpose --loads 0.1,0.3 --csv '${_net_out}/t.csv' --json '${_net_out}/t.json'; head -1 '${_net_out}/t-latency.csv' | grep -qx 'mesh,mode,pattern,offered_load_flits_per_node_cycle,buffer_depth_pkts,packet_flits,seed,warmup_cycles,measure_cycles,accepted_flits_per_node_cycle,latency_cycles,net_latency_cycles,p99_latency_cycles,avg_hops,max_source_queue_pkts,stable,added_point,max_age_cycles,min_source_delivered_pkts,max_router_wait_cycles,hold_cycles'; if grep -q '[%(]' '${_net_out}/t-latency.csv' '${_net_out}/t-saturation.csv'; then exit 1; fi; grep -q '^4x4,dorvct,transpose,,2,5,1,500,2000,' '${_net_out}/t-saturation.csv'; grep -q '\"saturation\": \\[' '${_net_out}/t.json'; grep -q '\"configuration\": \\[' '${_net_out}/t.json'"
         $<TARGET_FILE:hpcnet>)
add_test(NAME cli.net_curves_past_saturation COMMAND sh -c "set -e; rm -rf '${_net_out}/plots'; \"$0\" net --scenario latency --quiet --quick --mesh 4x4 --mode adbr --pattern transpose --plot '${_net_out}/plots' > '${_net_out}/curves.txt'; grep -Eq '^transpose +adbr +0.[0-9]+ [+] ' '${_net_out}/curves.txt'; grep -q 'noenhanced' '${_net_out}/plots/latency_transpose.gp'; test -s '${_net_out}/plots/latency_transpose.png'"
         $<TARGET_FILE:hpcnet>)
add_test(NAME cli.net_progress COMMAND ${_net_expect} 0 "^\\[net 1/~6\\] 4x4 adbr b2 +uniform +load 0.010" --has "^\\[net 6/~6\\]" -- ${_net} --scenario zeroload --mesh 4x4 --mode adbr --quick)
# a one-load latency run adds no zero-load run
add_test(NAME cli.net_one_load COMMAND ${_net_expect} 0 "^1 simulation runs" --no "zero-load runs" -- ${_net} --scenario latency --mesh 4x4 --mode adbr --pattern uniform --loads 0.2 --quick --quiet)
# a saturation above its routing's ideal throughput is flagged (8x8 hotspot with --quick's short runs)
add_test(NAME cli.net_above_bound COMMAND ${_net_expect} 0 "^hotspot +0.[0-9]+ \\(> bound!\\) " --has "note: hotspot adbr: saturation 0.[0-9]+ is above the ideal throughput of its routing \\(0.139, ideal any\\)" -- ${_net} --scenario saturation --quick --quiet --mode adbr --pattern hotspot)
# speed: its own header, --loads, the cycles/s it prints, no verdict from one run
add_test(NAME cli.net_speed_surface COMMAND ${_net_expect} 0 "^loads = \\[0.1\\]$" --has "^\\[net 1/~1\\] speed 8x8, 1 thread, load 0.10, run 1: [0-9]+ cycles/cpu-s" --has "^simulation speed 8x8 at load 0.1, 1 thread, cycles/cpu-s +[0-9]+ +>= 180000 +\\(no verdict: 1 run\\)$" --has "note: one run per point: figures only" --no "^(# )?(pattern|mode|mesh) =" --no " (MISSED|met)$" -- ${_net} --scenario speed --quick --speed-mesh 8x8 --threads 1 --loads 0.1)

# Issue 34: what a researcher could get wrong without a word. A config file's key given twice (in
# a row: CLI11 merges the lines; apart: the later would win) and a binary file are refused, naming
# the key or the file.
add_test(NAME cli.net_config_duplicate_key COMMAND sh -c "printf 'seed = 3\\nseed = 4\\n' > '${_net_out}/dup.toml'; sh \"$0\" 2 \"^hpcnet: usage error: .*dup.toml: seed: the key 'seed' is given 2 times\" --no 'At Most' -- \"$1\" net --config '${_net_out}/dup.toml'"
         ${PROJECT_SOURCE_DIR}/scripts/cli_expect.sh $<TARGET_FILE:hpcnet>)
add_test(NAME cli.net_config_duplicate_key_apart COMMAND sh -c "printf 'seed = 3\\nmesh = \"4x4\"\\nseed = 4\\n' > '${_net_out}/dup2.toml'; sh \"$0\" 2 \"usage error: .*dup2.toml: seed: the key 'seed' is given twice\" -- \"$1\" net --config '${_net_out}/dup2.toml'"
         ${PROJECT_SOURCE_DIR}/scripts/cli_expect.sh $<TARGET_FILE:hpcnet>)
add_test(NAME cli.net_config_binary COMMAND sh -c "printf 'seed\\001\\000\\377\\033[2J = 1\\n' > '${_net_out}/bin.toml'; out=$(\"$0\" net --config '${_net_out}/bin.toml' 2>&1); rc=$?; echo \"$out\" | od -c | head -5; [ $rc -eq 2 ] && echo \"$out\" | grep -q \"usage error: --config: '.*bin.toml' is not a text config file (TOML): control byte 0x01 at offset 4\" && ! echo \"$out\" | LC_ALL=C grep -q \"$(printf '\\033')\""
         $<TARGET_FILE:hpcnet>)
# net-run: numbers past the range refused (a window that would wrap around 2^64), a mesh radix out
# of range said as such, an unknown --model a usage error, --help defaults inside their ranges, an
# explicit --drain-limit 0 refused (it meant the default).
cli_expect(net_run_warmup_overflow 2 [=[usage error: --warmup: Value 18446744073709551615 not in range 0 to 1099511627776]=]
           --no [=[: seed]=] -- net-run --mesh 4x4 --warmup 18446744073709551615 --measure 100)
cli_expect(net_run_mesh_radix 2 [=[usage error: --mesh: .*bad mesh '1x1000': every radix must be 2\.\.64 \(1 and 1000 are not\)]=]
           --no [=[expected KxK]=] -- net-run --mesh 1x1000)
cli_expect(net_run_bad_model 2 [=[^hpcnet: usage error: --model: no mesh model 'Vnet_nope' is built]=] -- net-run --model Vnet_nope)
cli_expect(net_run_help_defaults 0 [=[--drain-limit UINT:UINT in \[1 - 1099511627776\]=50000$]=]
           --has [=[--buf UINT:UINT in \[1 - 8\] +input buffer depth]=] --no [=[\[1 - 8\]=0]=] -- net-run --help)
cli_expect(net_run_drain_limit_zero 2 [=[usage error: --drain-limit: Value 0 not in range 1 to]=] -- net-run --drain-limit 0)

# Issue 34, the rest. Stability as the field defines it: accepted throughput within 5% of the
# offered one AND every measured packet delivered within the drain limit. 4x4 at 0.8 drains but
# accepts about 0.6: unstable; at 0.1: stable (the table's and the tidy record's words).
cli_expect(net_run_unstable_past_saturation 0 [=[^4x4 adbr b2 .* NO +[0-9]+ ]=] --no [=[ yes +[0-9]+ +[0-9]+ \(node]=]
           --json ${_net_out}/hi.json tables.net_run
           -- net-run --mesh 4x4 --load 0.8 --quiet --json ${_net_out}/hi.json)
cli_expect(net_run_stable_low_load 0 [=[^4x4 adbr b2 .* yes +[0-9]+ ]=] -- net-run --mesh 4x4 --load 0.1 --quiet)
add_test(NAME cli.net_run_stable_recorded
         COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/cli_check.py record ${_net_out}/hi.json --eq "mesh=\"4x4\"" --no-prose)
set_tests_properties(cli.net_run_stable_recorded PROPERTIES DEPENDS cli.net_run_unstable_past_saturation)
add_test(NAME cli.net_run_stable_false_in_json
         COMMAND ${Python3_EXECUTABLE} -c "import json,sys; r=json.load(open(sys.argv[1]))['tables']['net_run'][0]; sys.exit(0 if r['stable'] is False and r['tagged_drained'] is True and r['accepted_flits_per_node_cycle'] < 0.95 * r['offered_flits_per_node_cycle'] else 1)"
                 ${_net_out}/hi.json)
set_tests_properties(cli.net_run_stable_false_in_json PROPERTIES DEPENDS cli.net_run_unstable_past_saturation)
# net-run's CSV and JSON are tidy: snake_case headers with units, one value a cell (pattern and
# load apart, the fewest deliveries apart from their node), empty for what does not exist, the
# configuration as columns; the JSON's table is the CSV's.
set(_net_run_header "model,run,pattern,offered_load_flits_per_node_cycle,traffic_trace,cycles,delivered_pkts,avg_latency_cycles,p99_latency_cycles,max_latency_cycles,offered_flits_per_node_cycle,accepted_flits_per_node_cycle,tagged_drained,stable,max_age_cycles,min_source_delivered_pkts,min_source_node,max_router_wait_cycles,wait_bound_cycles,hold_pct,max_link_util_flits_per_cycle,cycles_per_cpu_s,cycles_per_wall_s,serial_steps,mesh,mode,buffer_depth_pkts,packet_flits,threads,joined,seed,warmup_cycles,measure_cycles,drain_limit_cycles,ej_ready_prob,max_queue_pkts,starve_t_cycles,wait_arb,stable_tolerance")
add_test(NAME cli.net_run_tidy COMMAND sh -c "set -e; \"$0\" net-run --mesh 4x4 --pattern transpose --load 0.3 --warmup 500 --measure 2000 --runs 2 --quiet --csv '${_net_out}/run.csv' --json '${_net_out}/run.json'; \"$1\" \"$2\" tidy '${_net_out}/run.csv' --header '${_net_run_header}' --table '${_net_out}/run.json' net_run; grep -q '^Vnet_mesh_4x4_adbr[^,]*,2,transpose,0.300,,' '${_net_out}/run.csv'; \"$0\" net-run --mesh 8x8 --mode dorvct --joined --quiet --traffic-trace '${CMAKE_CURRENT_SOURCE_DIR}/net/traces/example.trace' --csv '${_net_out}/tr.csv'; \"$1\" \"$2\" tidy '${_net_out}/tr.csv' --header '${_net_run_header}'; grep -q ',,,.*example.trace,' '${_net_out}/tr.csv'"
         $<TARGET_FILE:hpcnet> ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/cli_check.py)
# net's --json config holds the values run, not --help's words ("every mode built for --mesh"):
# the modes, patterns, depth, loads and phases of the rows it wrote.
add_test(NAME cli.net_json_config_values COMMAND sh -c "set -e; \"$0\" net --scenario zeroload,latency --mesh 4x4 --quick --quiet --loads 0.1 --json '${_net_out}/cfg.json'; \"$1\" \"$2\" record '${_net_out}/cfg.json' --no-prose --same mode=zeroload.mode --same pattern=zeroload.pattern --same depth=zeroload.buffer_depth_pkts --same loads=latency.offered_load_flits_per_node_cycle --same warmup=latency.warmup_cycles --same measure=latency.measure_cycles --eq 'scenario=[\"zeroload\", \"latency\"]'"
         $<TARGET_FILE:hpcnet> ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/cli_check.py)
# Long runs: an estimate up front; a trace with a message at cycle 2^40 runs in moments (its idle
# cycles skipped), its latency exact (2 hops: 2 x 2 + 6 cycles), the cycles counted.
file(WRITE ${_net_out}/late.trace "0 0 1 5\n1099511627776 0 2 5\n")
cli_expect(net_run_trace_idle_gap 0 [=[^4x4 adbr b2 +Vnet_mesh_4x4_adbr +trace late.trace .* 1099511627787 +2 +[0-9.]+ +10 +10 ]=]
           --has [=[^\[net-run\] 4x4 adbr b2: the trace's 1099511627777 cycles, about [0-9]+ of them busy \(the idle ones skipped\) on 16 routers: about [0-9.]+ s$]=]
           --has [=[^\[net-run 1/1\] run 1: 1099511627787 cycles \(1099511627[0-9]+ idle ones skipped\)]=]
           -- net-run --mesh 4x4 --traffic-trace ${_net_out}/late.trace)
set_tests_properties(cli.net_run_trace_idle_gap PROPERTIES TIMEOUT 60)
cli_expect(net_run_estimate 0 [=[^\[net-run\] 4x4 adbr b2: 3000 cycles \(warm-up 1000 \+ window 2000, then the drain\) on 16 routers: about [0-9.]+ s$]=]
           -- net-run --mesh 4x4 --warmup 1000 --measure 2000)
cli_expect(net_estimate 0 [=[^\[net\] about [0-9]+ runs of 2500 cycles or more on the 4x4 \(16 routers\): about [0-9.]+ s$]=]
           -- net --scenario zeroload --mesh 4x4 --mode adbr --quick)
# Ctrl-C: the finished runs written as a partial table (its last line says so), the JSON partial
# with exit code 130; a net run keeps the tables it finished.
add_test(NAME cli.net_run_interrupted COMMAND sh -c "set -e; rm -rf '${_net_out}/int'; \"$1\" \"$2\" interrupt --wait '^\\[net-run 2/' -- \"$0\" net-run --mesh 4x4 --warmup 100 --measure 20000 --runs 100 --csv '${_net_out}/int/r.csv' --json '${_net_out}/int/r.json'; tail -1 '${_net_out}/int/r.csv' | grep -q '^# partial: interrupted at cycle [0-9]*; [0-9]* rows$'; \"$1\" \"$2\" tidy '${_net_out}/int/r.csv' --table '${_net_out}/int/r.json' net_run; \"$1\" -c \"import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j['partial'] and j['exit_code'] == 130 and len(j['tables']['net_run']) >= 2 else 1)\" '${_net_out}/int/r.json'"
         $<TARGET_FILE:hpcnet> ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/cli_check.py)
add_test(NAME cli.net_interrupted_keeps_tables COMMAND sh -c "set -e; rm -rf '${_net_out}/int2'; \"$1\" \"$2\" interrupt --wait 'CSV written to .*-zeroload.csv' -- \"$0\" net --scenario zeroload,latency --mesh 8x8 --mode adbr --pattern uniform --loads 0.1,0.2,0.3,0.4 --warmup 100 --measure 40000 --csv '${_net_out}/int2/n.csv' --json '${_net_out}/int2/n.json'; test -s '${_net_out}/int2/n-zeroload.csv'; test ! -e '${_net_out}/int2/n-latency.csv'; \"$1\" -c \"import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j['partial'] and j['exit_code'] == 130 and 'zeroload' in j['tables'] and 'latency' not in j['tables'] else 1)\" '${_net_out}/int2/n.json'"
         $<TARGET_FILE:hpcnet> ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/cli_check.py)
# No folder is left behind by a usage error found after the outputs were checked, nor by a failed run.
cli_expect(net_usage_error_no_folder 2 [=[--depth: 4x4 adbr b1]=] --clean ${_net_out}/made1 --absent ${_net_out}/made1
           -- net --scenario zeroload --mesh 4x4 --mode adbr --depth 1 --json ${_net_out}/made1/a/x.json)
