# `hpcnet net-barrier` (bench/barrier, docs/barrier.md#results): a CI-sized run with CSV and the
# plot (its idle multiphase points are checked against the cost model: exit 1 otherwise), and
# refused options. Included from bench/barrier/bench.cmake (cli_expect, _cli: bench/CMakeLists.txt).
cli_expect(net_barrier_quick 0 [=[Crossover: idle half barriers]=]
           --exists ${_cli}/net_barrier/bar-size.csv --exists ${_cli}/net_barrier/bar-crossover.csv
           --exists ${_cli}/net_barrier/bar-compare.csv --exists ${_cli}/net_barrier/plots/barrier_time_2d.png
           --has [=[4x4 +16 +6 +multiphase +half +0\.00 +2 +13\.0 +13 +13 +1\.00 +288 ]=]
           -- net-barrier --quick --quiet --csv ${_cli}/net_barrier/bar.csv --plot ${_cli}/net_barrier/plots)
# its default networks (2x2 .. 8x8x8) are benchmark models (rtl/router/models.cmake): `make test-long`
set_tests_properties(cli.net_barrier_quick PROPERTIES LABELS long)
# ... and without them the command says so
if(NOT HPCNET_BENCH_MODELS)
  cli_expect(net_barrier_needs_bench_models 2 [=[no [0-9x]+ ADBR network with phase units is built.*`make bench` builds them]=]
             -- net-barrier --quick --quiet)
endif()
cli_expect(net_barrier_no_net 2 [=[--nets: no 5x5 ADBR network with phase units is built; built: .*4x4 adbr]=]
           -- net-barrier --nets 5x5)
cli_expect(net_barrier_bad_kind 2 [=[--kinds: third not in]=] -- net-barrier --kinds third)
cli_expect(net_barrier_compare_nodes 2 [=[--compare-nodes: no 2-D ADBR mesh of 32 nodes with phase units]=]
           -- net-barrier --scenario compare --nets 4x4 --compare-nodes 32)
