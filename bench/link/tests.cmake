# bench/link/tests.cmake (included from bench/link/bench.cmake):
# `hpcnet link` (docs/link.md section 9): its quick run with every table, the outputs (CSV per table,
# JSON tables, plots), and refused values (exit 2); the link fault options of `hpcnet nic` and
# `nic-demo` (docs/link.md section 10): faults injected and survived, bad values refused.
set(_link ${_cli}/link)

# the quick run: goodput at BER 0 is 1.000 of itself, a replay at 1e-3, the crossing's cycles, the speed pair
cli_expect(link_quick 0 [=[^retx +delay +BER/flit +GB/s +of error-free +faults ]=]
           --has [=[^160 +2 +0 +[1-8]\.[0-9]{3} +1\.000 +0 +0 ]=]
           --has [=[^160 +2 +0\.001 +[1-8]\.[0-9]{3} +(0\.9|1\.0)[0-9]{2} +[1-9]]=]
           --has [=[^160 +100 +0 +[1-8]\.[0-9]{3} +0\.[0-9]{3} ]=]
           --has [=[^2 +one at a time +head +[0-9]+ +[0-9]+ ]=] --has [=[goal: at most one cycle per link crossing]=]
           --has [=[^1 +on +[0-9]+ ]=] --has [=[median of 1 pairs: speed with faults on / off [0-9.]+]=]
           --exists ${_link}/q-goodput_ber.csv --exists ${_link}/q-crossing.csv --exists ${_link}/plots/goodput_ber.png
           --exists ${_link}/plots/goodput_delay.png
           --json ${_link}/q.json tables.goodput_ber --json ${_link}/q.json tables.goodput_delay
           --json ${_link}/q.json tables.crossing --json ${_link}/q.json tables.speed --json ${_link}/q.json config.retx
           -- link --quick --quiet --retx 160 --csv ${_link}/q.csv --json ${_link}/q.json --plot ${_link}/plots)
# the tidy CSV: snake_case with units, no annotations
add_test(NAME cli.link_tidy_csv
         COMMAND sh -c "set -e; rm -f '${_link}/t-crossing.csv'; \"$0\" link --scenario crossing --quick --quiet --csv '${_link}/t.csv' > /dev/null; head -1 '${_link}/t-crossing.csv' | grep -qx 'delay_cycles,traffic,flit,in_to_out_cycles,layer_cycles,packet_in_to_out_cycles,packet_wire_cycles,packet_layer_cycles,pkt_flits,credits_per_vc,retx_flits,packets'; if grep -q '[%(]' '${_link}/t-crossing.csv'; then exit 1; fi"
                 $<TARGET_FILE:hpcnet>)
# refused before anything runs
cli_expect(link_bad_ber 2 [=[--bers: Value 2e-2 not in range 0 to 0\.01]=] --no [=[: seed]=] -- link --bers 0,2e-2)
cli_expect(link_bad_retx 2 [=[--retx: 640 not in \{160,320\}]=] --no [=[: seed]=] -- link --retx 640)
cli_expect(link_not_apply 2 [=[--bers: does not apply to the scenario run \(crossing\); it applies to ber]=]
           -- link --scenario crossing --bers 0)
cli_expect(link_plot_not_apply 2 [=[--plot: does not apply to the scenarios run \(crossing, speed\); it applies to ber, delay]=]
           -- link --scenario crossing,speed --plot ${_link}/none)
cli_expect(link_speed_ber_zero 2 [=[--speed-ber: 0 is no fault]=] -- link --scenario speed --speed-ber 0)
if(NOT HPCNET_BENCH_MODELS)
  # the doubled buffer is a benchmark model: refused in a make-test tree, with the way to build it
  cli_expect(link_retx_not_built 2 [=[--retx: no nic_top model with a 320-flit retransmit buffer is built .*make bench]=]
             -- link --scenario ber --retx 320)
endif()

# faults from the command line: the nic command survives them (every byte checked) and counts them
cli_expect(nic_link_faults 0 [=[link faults injected: [1-9][0-9]* on flits and [1-9][0-9]* on control words over 1 runs]=]
           --has [=[^link faults from the start of each run's traffic: bit errors 0\.001 per flit, drops 0\.001 per flit, control words hit and lost 0\.001 each, dead 500 cycles from 2000 cycles after the traffic starts. both directions, seed 7$]=]
           --json ${_link}/nf.json tables.bandwidth
           -- nic --scenario bandwidth --bw-sizes 65536 --bw-bytes 262144 --link-ber 1e-3 --link-drop 1e-3 --link-ctl 1e-3
              --link-dead 2000:500 --link-seed 7 --quiet --json ${_link}/nf.json)
# (a ';' in a regular expression would split the CMake list: '.' stands for it)
# a dead window of 3 cycles in nic-demo's RDMA write: node 1 drops, node 0 replays once
cli_expect(nic_demo_link_dead 0 [=[result +: PASS]=]
           --has [=[^  link 0 -> 1  : 3 faults on flits, 3 on control words. node 1 dropped [1-9] .*node 0 replayed 1 times]=]
           -- nic-demo --link-dead 700:3)
cli_expect(nic_link_dead_form 2 [=[--link-dead: '5' is not AT:CYCLES]=] -- nic --link-dead 5)
cli_expect(nic_link_dead_forever 2 [=[--link-dead: CYCLES 0 \(dead for good\) is refused]=] -- nic --link-dead 100:0)
cli_expect(nic_link_ber_range 2 [=[--link-ber: Value 0\.5 not in range 0 to 0\.01]=] --no [=[: seed]=] -- nic --link-ber 0.5)
cli_expect(nic_demo_link_bad 2 [=[--link-repeat: 'x' is not a number]=] -- nic-demo --link-repeat x)
