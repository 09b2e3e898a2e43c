#!/bin/sh
# elab_reject.sh REPO: an ADBR router (Mode 0) or mesh with input buffers below the DBFC minimum
# (BufPkts < Dims) must be rejected at elaboration with a clear message, by Verilator and (when
# installed) by Yosys 0.23; the same design at the minimum must elaborate. A torus (Torus = 1) must
# be rejected below the bubble rule's minimum (BufPkts < 2) and in any mode but DOR-VCT. Exit 0 on
# success.
root=${1:?usage: elab_reject.sh REPO}
# The router's and the networks' source lists (rtl/<block>/sources.f).
rtl=$(python3 "$root/scripts/filelist.py" "$root/rtl/router/sources.f" | tr '\n' ' ')
net=$(python3 "$root/scripts/filelist.py" "$root/rtl/net/sources.f" | tr '\n' ' ')
msg="BufPkts below Dims in ADBR mode"
fail=0
expect_reject() {  # label, command... (the message expected: $msg)
  label=$1
  shift
  if out=$("$@" 2>&1); then
    echo "FAIL: $label: elaborated, expected a rejection"
    fail=1
  elif ! printf '%s\n' "$out" | grep -q "$msg"; then
    echo "FAIL: $label: failed without the message '$msg':"
    printf '%s\n' "$out" | tail -5
    fail=1
  else
    echo "ok: $label: rejected: $(printf '%s\n' "$out" | grep -m1 "$msg")"
  fi
}
expect_pass() {
  label=$1
  shift
  if out=$("$@" 2>&1); then
    echo "ok: $label: elaborates"
  else
    echo "FAIL: $label: does not elaborate:"
    printf '%s\n' "$out" | tail -5
    fail=1
  fi
}
vl="verilator --lint-only -Wall --assert -fno-const-bit-op-tree"
# shellcheck disable=SC2086
expect_reject "verilator router Dims=2 BufPkts=1" $vl $rtl --top-module rtr_router -GDims=2 -GBufPkts=1 -GMode=0
# shellcheck disable=SC2086
expect_reject "verilator router Dims=3 BufPkts=2" $vl $rtl --top-module rtr_router -GDims=3 -GBufPkts=2 -GMode=0
# shellcheck disable=SC2086
expect_reject "verilator mesh 3x3x3 BufPkts=2" $vl $net --top-module net_mesh -GDims=3 -GK0=3 -GK1=3 -GK2=3 -GBufPkts=2 -GMode=0
# shellcheck disable=SC2086
expect_pass "verilator router Dims=3 BufPkts=3" $vl $rtl --top-module rtr_router -GDims=3 -GBufPkts=3 -GMode=0
# shellcheck disable=SC2086
expect_pass "verilator router Dims=3 BufPkts=2 DOR" $vl $rtl --top-module rtr_router -GDims=3 -GBufPkts=2 -GMode=1
msg="BufPkts below 2 on a torus"
# shellcheck disable=SC2086
expect_reject "verilator torus 4x4 BufPkts=1" $vl $net --top-module net_mesh -GK0=4 -GK1=4 -GBufPkts=1 -GMode=1 -GTorus=1
msg="a torus (Torus=1) runs DOR-VCT only"
# shellcheck disable=SC2086
expect_reject "verilator torus 4x4 ADBR" $vl $net --top-module net_mesh -GK0=4 -GK1=4 -GBufPkts=2 -GMode=0 -GTorus=1
# shellcheck disable=SC2086
expect_reject "verilator torus 4x4 wormhole" $vl $net --top-module net_mesh -GK0=4 -GK1=4 -GBufPkts=2 -GMode=2 -GTorus=1
# shellcheck disable=SC2086
expect_pass "verilator torus 4x4 DOR-VCT BufPkts=2" $vl $net --top-module net_mesh -GK0=4 -GK1=4 -GBufPkts=2 -GMode=1 -GTorus=1
msg="BufPkts below Dims in ADBR mode"
if command -v yosys >/dev/null; then
  expect_reject "yosys router Dims=3 BufPkts=2" yosys -q -p "read_verilog -sv $rtl; hierarchy -check -top rtr_router -chparam Dims 3 -chparam BufPkts 2 -chparam FlitW 32"
  expect_pass "yosys router Dims=3 BufPkts=3" yosys -q -p "read_verilog -sv $rtl; hierarchy -check -top rtr_router -chparam Dims 3 -chparam BufPkts 3 -chparam FlitW 32"
  msg="BufPkts below 2 on a torus"
  expect_reject "yosys torus router BufPkts=1" yosys -q -p "read_verilog -sv $rtl; hierarchy -check -top rtr_router -chparam Mode 1 -chparam Torus 1 -chparam BufPkts 1 -chparam FlitW 32"
  expect_pass "yosys torus router BufPkts=2" yosys -q -p "read_verilog -sv $rtl; hierarchy -check -top rtr_router -chparam Mode 1 -chparam Torus 1 -chparam BufPkts 2 -chparam FlitW 32"
else
  echo "yosys not installed: Yosys part skipped"
fi
exit $fail
