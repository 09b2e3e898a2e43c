#!/usr/bin/env bash
# VERILATOR_BIN of a timed build tree (scripts/buildtime/report.py): runs the real verilator_bin
# through launch.py so that every Verilator run, at configure time too, is logged with its model.
set -euo pipefail
real=${HPCNET_VERILATOR_REAL:-$(command -v verilator_bin)}
if [[ -z ${HPCNET_BUILDTIME_LOG:-} || -n ${HPCNET_BUILDTIME_INNER:-} ]]; then
  exec "$real" "$@"
fi
args=("$@")
prefix=verilator
for ((i = 0; i + 1 < ${#args[@]}; i++)); do
  [[ ${args[i]} == --prefix ]] && prefix=${args[i + 1]}
done
exec python3 "$(dirname "$0")/launch.py" "$HPCNET_BUILDTIME_LOG" verilator "$prefix" "$prefix" -- "$real" "$@"
