#!/usr/bin/env bash
# synth_eq.sh NAME [WORKDIR]: checks the Yosys netlist of synthesis top NAME (rtl/*/synth_tops.txt)
# against its RTL.
# Synthesizes the top (synth_top.py, netlist renamed <top>_syn), generates a side-by-side random
# testbench (gen_eq_tb.py), builds it with Verilator --binary and runs it; fails on any output
# mismatch. Seed: HPCNET_SEED (else fresh, printed). Cycles: HPCNET_EQ_CYCLES (default 20000).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name=${1:?usage: synth_eq.sh NAME [WORKDIR]}
work=$(mkdir -p "${2:-$root/build/synth_eq/$name}" && cd "${2:-$root/build/synth_eq/$name}" && pwd)

entry=$(python3 "$here/synth_top.py" --entry "$name" 2>/dev/null) || { echo "synth_eq: $name is not in rtl/*/synth_tops.txt" >&2; exit 2; }
read -r top eq _ <<<"$entry"
srcs=$(python3 "$here/synth_top.py" --sources "$name" | tr '\n' ' ')

# eq=noassert: the RTL's protocol assertions would fire on unconstrained random inputs; compare
# functions only (the RTL copy is compiled with SYNTHESIS defined, like the netlist).
defs=""
[ "$eq" = noassert ] && defs="+define+SYNTHESIS"

echo "synth_eq: $name: synthesizing"
python3 "$here/synth_top.py" "$work" "$name" --netlist "$work/${top}_syn.v" >/dev/null
python3 "$here/gen_eq_tb.py" "$name" "$work/${top}_syn.v.json" "$work/eq_$name.sv" \
  --cycles "${HPCNET_EQ_CYCLES:-20000}"
# The netlist is machine-written: lint only the RTL and the testbench.
printf '`verilator_config\nlint_off -file "*_syn.v"\nlint_off -rule UNOPTFLAT -file "*_syn.v"\n' >"$work/netlist.vlt"

echo "synth_eq: $name: building the testbench"
command -v ccache >/dev/null && export OBJCACHE=ccache
# shellcheck disable=SC2086
verilator --binary --timing --assert -Wall -fno-const-bit-op-tree -O3 -j 2 $defs \
  -Mdir "$work/obj" --top-module "eq_$name" "$work/netlist.vlt" "$work/eq_$name.sv" $srcs \
  "$work/${top}_syn.v" >"$work/verilator.log" 2>&1 || { tail -30 "$work/verilator.log"; exit 1; }

seed=${HPCNET_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
"$work/obj/Veq_$name" +seed="$seed"
