# bench/machine/tests.cmake (included from bench/machine/bench.cmake): `hpcnet machine`
# (docs/machine.md): a quick run of each program on 2x2 with its table header and a sane value, the
# CSV and JSON outputs, and options refused (exit 2). Each run takes seconds.
set(_machine ${_cli}/machine)
# ping-pong: a one-way latency per distance and the fit; the back-to-back reference
# (the network's NIC-to-NIC time grows by the routers' 2 cycles a hop)
cli_expect(machine_pingpong_quick 0 [=[^hops +node +polled \(cycles\) +polled \(ns\) +NIC to NIC +NIC to memory]=]
           --has [=[^1 +1 +[0-9]+\.[0-9] ]=] --has [=[^2 +3 +[0-9]+\.[0-9] ]=] --has [=[^2\.00 +2 +[0-9]]=]
           --exists ${_machine}/pp-pingpong.csv --json ${_machine}/pp.json tables.pingpong_fit
           -- machine --program ping-pong --shape 2x2 --mode dorvct --quick --quiet --csv ${_machine}/pp.csv --json ${_machine}/pp.json)
# all-to-all: every byte checked (0 wrong), the bound
cli_expect(machine_alltoall_quick 0 [=[^nodes +bytes/msg +rounds +cycles +B/cycle]=] --has [=[^4 +64 +4 +[0-9]+ .* 0 +0$]=]
           -- machine --program all-to-all --shape 2x2 --quick --quiet)
# the stencil on 4 nodes (the sync tree of 4): bit-identical to the host
cli_expect(machine_stencil_quick 0 [=[^nodes +grid +steps +cycles]=] --has [=[^4 +16x16 +3 .* yes$]=]
           -- machine --program stencil --shape 2x2 --tile 8 --quick --quiet)
# refused before anything runs
cli_expect(machine_bad_program 2 [=[--program]=] -- machine --program broadcast)
cli_expect(machine_bad_size 2 [=[--size: does not apply: all-to-all and stream only]=] -- machine --program ping-pong --size 64)
cli_expect(machine_bad_trace_node 2 [=[--trace-node: node 9 of a 4-node machine]=] -- machine --shape 2x2 --trace-node 9)
cli_expect(machine_stencil_no_tree 2 [=[--shape]=] -- machine --program stencil --shape 3x3 --quick)
cli_expect(machine_too_many_nodes 2 [=[--shape: 512 nodes: a NIC routes to 256 nodes at most]=] -- machine --shape 32x16)
