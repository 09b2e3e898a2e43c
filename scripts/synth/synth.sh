#!/usr/bin/env bash
# synth.sh OUTDIR [NAME...]: Yosys 0.23 synthesis of every block's tops (rtl/*/synth_tops.txt), or of
# the NAMEs given. Each top must pass `check -assert` and contain no latch (synth_top.py). Prints each
# top's row as it finishes (with its done/total count and seconds), then the whole table (top, cells,
# flops, memory bits kept as SRAM macros), and writes OUTDIR/synth_report.csv; per-top Yosys script,
# log and stats are in OUTDIR. Exits non-zero if any top fails.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: synth.sh OUTDIR [NAME...]}
shift
mkdir -p "$out"
# One Yosys is pinned: Debian 12's 0.23 (scripts/deps.sh installs it; docs/sources.md#toolchain-facts-the-build-relies-on).
ver=$(yosys -V 2>/dev/null || true)
case "$ver" in
  *"Yosys 0.23"*) ;;
  *) echo "synth: expected Yosys 0.23 (Debian 12), found '${ver:-none}'" >&2; exit 1 ;;
esac
if (($#)); then names=("$@"); else mapfile -t names < <(python3 "$here/synth_top.py" --list); fi

csv="$out/synth_report.csv"
echo "name,top,cells,flops,mem_bits" >"$csv"
row_fmt='%-16s %-16s %10s %8s %12s'
header() { printf "$row_fmt\n" top module cells flops mem_bits; }
failed=()
total=${#names[@]}
done_n=0
echo "synth: ${total} top(s), logs in $out"
printf "%-8s $row_fmt %6s\n" done top module cells flops mem_bits time
for n in "${names[@]}"; do
  start=$SECONDS
  if row=$(python3 "$here/synth_top.py" "$out" "$n"); then
    echo "$row" >>"$csv"
  else
    failed+=("$n")
    row="$n,FAILED,,,"
    echo "$row" >>"$csv"
  fi
  done_n=$((done_n + 1))
  IFS=, read -r rn rt rc rf rm <<<"$row"
  printf "%-8s $row_fmt %5ss\n" "$done_n/$total" "$rn" "$rt" "$rc" "$rf" "$rm" "$((SECONDS - start))"
done

echo
header
tail -n +2 "$csv" | while IFS=, read -r n t c f m; do
  printf "$row_fmt\n" "$n" "$t" "$c" "$f" "$m"
done
echo "report: $csv"
if ((${#failed[@]})); then
  echo "synth: FAILED: ${failed[*]} (logs in $out)" >&2
  exit 1
fi
