#!/usr/bin/env bash
# wave.sh BUILD [TRACE] [--router N | --router X,Y[,Z]] [--list NAME] [--shot OUT.png]
# Opens TRACE (default: the newest .fst under BUILD) in GTKWave with a save file made for it:
# <top> is the trace's top module (the first scope inside TOP); its block's list,
# rtl/<block>/wave/<top>.sigs, is turned into BUILD/wave/<top>.gtkw for this trace (scripts/wave/gen_gtkw.py --fit): vector widths and
# parameters read from the trace, opened zoomed on the traced window, the cycle counter on top.
# --router picks the router of a mesh trace (net_mesh; default the middle one). --shot writes a
# PNG of that view without a display (scripts/wave/shot.sh) instead of opening a window. --list
# NAME takes rtl/<block>/wave/NAME.sigs instead of the top's list (nic_link: a NIC's link layer). A
# top without a .sigs list opens with rtl/<block>/wave/<top>.gtkw, or with none. Without a display it says
# so and prints the commands to run elsewhere, instead of letting GTKWave fail.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=build
trace=""
shot=""
list=""
gen_args=()
pos=0
while (($#)); do
  case "$1" in
    --router) gen_args+=(--router "${2:?--router needs N or x,y[,z]}"); shift 2 ;;
    --shot) shot=${2:?--shot needs OUT.png}; shift 2 ;;
    --list) list=${2:?--list needs NAME (rtl/<block>/wave/NAME.sigs)}; shift 2 ;;
    -*) echo "wave: unknown option $1" >&2; exit 1 ;;
    *) if ((pos == 0)); then build=$1; else trace=$1; fi; pos=$((pos + 1)); shift ;;
  esac
done
if [ -z "$trace" ]; then
  [ -d "$build" ] || { echo "wave: no build directory '$build'" >&2; exit 1; }
  trace=$(find "$build" -name '*.fst' -type f -printf '%T@ %p\n' | sort -n | tail -n 1 | cut -d' ' -f2-)
fi
if [ -z "$trace" ] || [ ! -f "$trace" ]; then
  echo "wave: no .fst trace under '$build' (make run writes $build/demo.fst)" >&2
  exit 1
fi
top=$(python3 "$here/wave/gen_gtkw.py" --top "$trace")
name=${list:-$top}
sigs=$(python3 "$here/wave/gen_gtkw.py" --find "$name.sigs" || true)
[ -z "$list" ] || [ -n "$sigs" ] || { echo "wave: no list rtl/<block>/wave/$list.sigs" >&2; exit 1; }
save=$(python3 "$here/wave/gen_gtkw.py" --find "$name.gtkw" || true)
if [ -n "$sigs" ]; then
  mkdir -p "$build/wave"
  python3 "$here/wave/gen_gtkw.py" --list "$sigs" --fit "$trace" "${gen_args[@]}" \
    --dumpfile "$(realpath "$trace")" -o "$build/wave/$name.gtkw"
  save="$build/wave/$name.gtkw"
elif ((${#gen_args[@]})); then
  echo "wave: --router needs a trace with a .sigs list (top $top has none)" >&2
  exit 1
fi
args=("$trace")
if [ -n "$save" ] && [ -f "$save" ]; then
  args+=("$save")
else
  echo "wave: no save file for top '$top' (rtl/<block>/wave/$name.gtkw); opening the trace without one"
  save=""
fi
echo "wave: $trace (top $top)${save:+, save file $save}"
if [ -n "$shot" ]; then
  [ -n "$save" ] || { echo "wave: --shot needs a save file" >&2; exit 1; }
  exec bash "$here/wave/shot.sh" "$trace" "$save" "$shot"
fi
if ! command -v gtkwave >/dev/null; then
  echo "wave: gtkwave is not installed (make deps installs it)" >&2
  exit 1
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "wave: no display (DISPLAY is not set), so GTKWave cannot open a window here." >&2
  echo "  On a machine with a display:  gtkwave --rcvar 'scale_to_time_dimension n' ${args[*]}" >&2
  echo "  Over SSH: ssh -X, or copy the files. A picture, headless: bash $here/wave/shot.sh ${args[*]} OUT.png" >&2
  exit 2
fi
# the time axis in ns: a harness trace counts 1 ns a cycle (sim/core/harness.hpp), so it reads cycles
exec gtkwave --rcvar 'scale_to_time_dimension n' "${args[@]}"
