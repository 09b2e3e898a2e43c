#!/bin/sh
# run_sv_tb.sh EXE [ARGS...]: runs a Verilated SystemVerilog testbench with +seed=<HPCNET_SEED>,
# or with a fresh seed when HPCNET_SEED is unset (the testbench prints it).
exe=$1
shift
seed=${HPCNET_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
exec "$exe" +seed="$seed" "$@"
