#!/bin/sh
# bench/net/cli_expect.sh: runs a command and checks its exit code and output (the tests of
# bench/net/tests.cmake).
#   cli_expect.sh CODE [-e REGEX]... [-n REGEX]... -- COMMAND [ARG]...
# Passes when COMMAND exits with CODE, its output (stdout and stderr together) has a line
# matching every -e REGEX and none matching any -n REGEX (grep -E). The output is printed.
code=$1
shift
want=""
unwanted=""
nl='
'
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    -e) want="$want$2$nl"; shift 2 ;;
    -n) unwanted="$unwanted$2$nl"; shift 2 ;;
    *) echo "cli_expect: unknown argument '$1'"; exit 2 ;;
  esac
done
[ "$1" = "--" ] && shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
fail=0
if [ "$rc" -ne "$code" ]; then echo "cli_expect: exit code $rc, expected $code"; fail=1; fi
IFS=$nl
for re in $want; do
  printf '%s\n' "$out" | grep -Eq -- "$re" || { echo "cli_expect: no line matches: $re"; fail=1; }
done
for re in $unwanted; do
  printf '%s\n' "$out" | grep -Eq -- "$re" && { echo "cli_expect: a line matches (it should not): $re"; fail=1; }
done
exit $fail
