#!/usr/bin/env bash
# shot.sh TRACE SAVE.gtkw OUT.png: a PNG of GTKWave showing TRACE with the save file, without a
# display (Xvfb; the screen is the save file's [size], or SHOT_SIZE=WxH). Needs xvfb and imagemagick
# (apt-get install xvfb imagemagick). Make the save file for the trace first (scripts/wave.sh does:
# BUILD/wave/<top>.gtkw), e.g.
#   bash scripts/wave.sh build build/demo.fst   # writes build/wave/ssm_top.gtkw (no display: it stops there)
#   bash scripts/wave/shot.sh build/demo.fst build/wave/ssm_top.gtkw /tmp/ssm_top.png
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
trace=${1:?usage: shot.sh TRACE SAVE.gtkw OUT.png}
save=${2:?usage: shot.sh TRACE SAVE.gtkw OUT.png}
out=${3:?usage: shot.sh TRACE SAVE.gtkw OUT.png}
for tool in gtkwave xvfb-run import; do
  command -v "$tool" >/dev/null || { echo "shot: $tool is missing (apt-get install gtkwave xvfb imagemagick)" >&2; exit 1; }
done
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
rm -f "$out"
log=$(mktemp)
view=$(mktemp --suffix=.gtkw)
trap 'rm -f "$log" "$view"' EXIT
# SHOT_SIZE=WxH: another window size (e.g. 1600x2400 to see every row of a long list).
if [ -n "${SHOT_SIZE:-}" ]; then
  sed "s/^\[size\] .*/[size] ${SHOT_SIZE/x/ }/" "$save" >"$view"
else
  cp "$save" "$view"
fi
save=$view
size=$(awk '/^\[size\]/ {print $2 "x" $3; exit}' "$save")
HPCNET_SHOT=$out timeout 120 xvfb-run -a -s "-screen 0 ${size:-1600x900}x24" \
  gtkwave --rcvar 'scale_to_time_dimension n' -S "$here/shot.tcl" "$trace" "$save" >"$log" 2>&1 || true
if [ ! -s "$out" ]; then
  echo "shot: no picture written; GTKWave said:" >&2
  grep -v '^FSTLOAD' "$log" | tail -n 20 >&2
  exit 1
fi
grep -i 'error\|could not' "$log" | grep -v '^FSTLOAD' >&2 || true
echo "shot: $out"
