#!/usr/bin/env bash
# wave.sh BUILD [TRACE]: opens TRACE (default: the newest .fst under BUILD) in GTKWave with the
# save file scripts/wave/<top>.gtkw, <top> being the trace's top module (the first scope inside
# TOP; make one with scripts/wave/gen_gtkw.py). When scripts/wave/<top>.sigs exists, the save
# file is generated from it for this trace (BUILD/wave/<top>.gtkw, vector widths taken from the
# trace), so that a model of the same top with other parameters shows every listed signal.
# Without a display it says so and prints the command to run elsewhere, instead of letting
# GTKWave fail.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
trace=${2:-}
if [ -z "$trace" ]; then
  [ -d "$build" ] || { echo "wave: no build directory '$build'" >&2; exit 1; }
  trace=$(find "$build" -name '*.fst' -type f -printf '%T@ %p\n' | sort -n | tail -n 1 | cut -d' ' -f2-)
fi
if [ -z "$trace" ] || [ ! -f "$trace" ]; then
  echo "wave: no .fst trace under '$build' (make run writes $build/demo.fst)" >&2
  exit 1
fi
top=$(python3 "$here/wave/gen_gtkw.py" --top "$trace")
save="$here/wave/$top.gtkw"
if [ -f "$here/wave/$top.sigs" ]; then
  mkdir -p "$build/wave"
  python3 "$here/wave/gen_gtkw.py" --list "$here/wave/$top.sigs" --fit "$trace" -o "$build/wave/$top.gtkw" &&
    save="$build/wave/$top.gtkw"
fi
args=("$trace")
if [ -f "$save" ]; then
  args+=("$save")
else
  echo "wave: no save file for top '$top' ($save); opening the trace without one"
  save=""
fi
echo "wave: $trace (top $top)${save:+, save file $save}"
if ! command -v gtkwave >/dev/null; then
  echo "wave: gtkwave is not installed (make deps installs it)" >&2
  exit 1
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "wave: no display (DISPLAY is not set), so GTKWave cannot open a window here." >&2
  echo "  On a machine with a display:  gtkwave ${args[*]}" >&2
  echo "  Over SSH: ssh -X, or copy the files. Headless picture: timeout 60 xvfb-run -a gtkwave -S shot.tcl ${args[*]}" >&2
  exit 2
fi
exec gtkwave "${args[@]}"
