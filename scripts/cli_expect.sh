#!/bin/sh
# scripts/cli_expect.sh: runs a command line and checks its exit code exactly (CTest's WILL_FAIL
# only tells zero from nonzero) and what it printed (stdout and stderr together). The CLI tests of
# bench/CMakeLists.txt use it (docs/cli.md).
#
# Usage: cli_expect.sh RC REGEX [checks] -- COMMAND [ARG...]
#   RC      the exit code the command must return
#   REGEX   an extended regular expression (grep -E) the output must match ("" = any output)
# checks, each repeatable:
#   --clean PATH     remove PATH (file or folder) before the run
#   --has REGEX      the output must also match REGEX (each REGEX is matched line by line)
#   --no REGEX       the output must not match REGEX (e.g. the banner: nothing was run)
#   --exists PATH    PATH must exist after the run (removed before it, so that a file left by an
#                    earlier run cannot pass; likewise the file of --json)
#   --absent PATH    PATH must not exist after the run
#   --json PATH KEY  PATH must be valid JSON holding KEY (a dotted path, e.g. tables.ssm)
set -u
[ $# -ge 3 ] || { echo "usage: $0 RC REGEX [checks] -- COMMAND [ARG...]" >&2; exit 2; }
want=$1
re=$2
shift 2
checks=""
nl='
'
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --clean) rm -rf -- "$2"; shift 2 ;;
    --has | --no | --absent) checks="$checks$1$nl$2$nl"; shift 2 ;;
    --exists) rm -rf -- "$2"; checks="$checks$1$nl$2$nl"; shift 2 ;;  # removed first: a stale file cannot pass
    --json) rm -f -- "$2"; checks="$checks--json$nl$2 $3$nl"; shift 3 ;;
    *) echo "cli_expect: unknown check $1" >&2; exit 2 ;;
  esac
done
[ "${1:-}" = "--" ] || { echo "cli_expect: no -- before the command" >&2; exit 2; }
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
fail=0
if [ "$rc" -ne "$want" ]; then
  echo "cli_expect: exit code $rc, expected $want" >&2
  fail=1
fi
if [ -n "$re" ] && ! printf '%s\n' "$out" | grep -Eq -- "$re"; then
  echo "cli_expect: the output does not match: $re" >&2
  fail=1
fi
kind=""
while IFS= read -r line; do
  [ -n "$line" ] || continue
  if [ -z "$kind" ]; then kind=$line; continue; fi
  case $kind in
    --has) if ! printf '%s\n' "$out" | grep -Eq -- "$line"; then echo "cli_expect: the output does not match: $line" >&2; fail=1; fi ;;
    --no) if printf '%s\n' "$out" | grep -Eq -- "$line"; then echo "cli_expect: the output matches: $line" >&2; fail=1; fi ;;
    --exists) [ -e "$line" ] || { echo "cli_expect: $line was not made" >&2; fail=1; } ;;
    --absent) [ ! -e "$line" ] || { echo "cli_expect: $line exists" >&2; fail=1; } ;;
    --json)
      python3 - "${line% *}" "${line##* }" <<'PY' || fail=1
import json, sys
path, key = sys.argv[1], sys.argv[2]
try:
    node = json.load(open(path))
    for k in key.split("."):
        node = node[k]
except Exception as e:  # unreadable, not JSON, or the key is missing
    sys.exit(f"cli_expect: {path}: no {key}: {e!r}")
PY
      ;;
  esac
  kind=""
done <<EOF2
$checks
EOF2
[ $fail -eq 0 ] && echo "cli_expect: exit code $rc and output as expected"
exit $fail
