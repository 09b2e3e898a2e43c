#!/usr/bin/env python3
"""synth_top.py: synthesizes one synthesis top of a block with Yosys 0.23 (python stdlib).

    synth_top.py OUTDIR NAME [--netlist FILE]     prints one CSV row: name,top,cells,flops,mem_bits
    synth_top.py --list                           prints the names of every top
    synth_top.py --sources NAME                   prints the top's source files, one a line
    synth_top.py --entry NAME                     prints the top's module, its eq= option (- for none) and its file

The tops are the blocks' own: every rtl/<block>/synth_tops.txt, read in path order (a new block
adds its file, no line elsewhere); a name must be unique. One top a line ('#' starts a comment):
    <name> <top module> [Param=value ...] [mem=keep] [eq=noassert] <sources ...>
Sources are relative to the repository root: a block's source list (rtl/<block>/sources.f, read by
scripts/filelist.py, docs/common.md#source-lists) or single files. The design is flattened (stats
count every instance). mem=keep keeps memories as $mem_v2 cells (SRAM macros) instead of mapping
them to flops, and reports their bits separately. eq=noassert: synth_eq.sh compares functions only
(random inputs break the RTL's protocol assertions). The flow fails (exit 1, log in
OUTDIR/NAME.log) on a Yosys error, on `check -assert`, or when a latch is left. --netlist also
writes the netlist as module <top>_syn (write_verilog -noattr) and its ports as FILE.ports.json.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from filelist import read_list  # noqa: E402
LATCHES = "t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_* t:$_SR_*"
FINE_KEEP_MEM = ["opt -fast -full", "opt -full", "techmap", "opt -fast", "abc -fast", "opt -fast"]


def tops_files():
    """Every block's list of synthesis tops, rtl/<block>/synth_tops.txt, in path order."""
    return sorted(ROOT.glob("rtl/*/synth_tops.txt"))


def read_tops(paths=None):
    """{name: top} of the given files (default: every block's), in file order."""
    tops = {}
    for path in paths or tops_files():
        tops.update(read_tops_file(pathlib.Path(path), tops))
    return tops


def read_tops_file(path, seen):
    tops = {}
    for n, line in enumerate(path.read_text().splitlines(), 1):
        tok = line.split("#", 1)[0].split()
        if not tok:
            continue
        if tok[0] in seen or tok[0] in tops:
            sys.exit(f"synth_top: {path}:{n}: the top {tok[0]} is named twice")
        t = {"name": tok[0], "top": tok[1], "params": [], "mem_keep": False, "sources": [], "eq": "",
             "file": path}
        for x in tok[2:]:
            if x == "mem=keep":
                t["mem_keep"] = True
            elif x.startswith("eq="):  # options of synth_eq.sh, not parameters
                t["eq"] = x[3:]
                continue
            elif "=" in x:
                t["params"].append(tuple(x.split("=", 1)))
            else:  # a source list or a file; a file reached twice is read once
                for f in read_list(x) if x.endswith(".f") else [str(ROOT / x)]:
                    if f not in t["sources"]:
                        t["sources"].append(f)
        tops[t["name"]] = t
    return tops


def script(t, out, netlist):
    top = t["top"]
    chp = "".join(f" -chparam {k} {v}" for k, v in t["params"])
    s = [f"read_verilog -sv {' '.join(t['sources'])}", f"hierarchy -check -top {top}{chp}"]
    if t["mem_keep"]:
        s += [f"synth -flatten -top {top} -run begin:fine"] + FINE_KEEP_MEM + ["hierarchy -check", "stat"]
    else:
        s += [f"synth -flatten -top {top}"]
    s += ["check -assert", f"select -assert-none {LATCHES}",
          f"tee -q -o {out}/{t['name']}.stat.json stat -json",
          f"tee -q -o {out}/{t['name']}.mem.txt dump t:$mem_v2 t:$mem"]
    if netlist:
        s += [f"rename -top {top}_syn",
              f"write_verilog -noattr {netlist}", f"write_json {netlist}.json"]
    return "\n".join(s) + "\n"


def stats(t, out):
    d = json.loads((out / f"{t['name']}.stat.json").read_text())["design"]
    by_type = d.get("num_cells_by_type", {})
    flops = sum(n for ty, n in by_type.items() if "DFF" in ty.upper())
    dump = (out / f"{t['name']}.mem.txt").read_text()
    widths = [int(w) for w in re.findall(r"parameter \\WIDTH (\d+)", dump)]
    sizes = [int(n) for n in re.findall(r"parameter \\SIZE (\d+)", dump)]
    mem_bits = sum(w * n for w, n in zip(widths, sizes))
    return d.get("num_cells", 0), flops, mem_bits


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("name", nargs="?")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--sources", metavar="NAME", help="print the source files of top NAME")
    ap.add_argument("--entry", metavar="NAME", help="print top NAME's module, eq= option and file")
    ap.add_argument("--netlist")
    ap.add_argument("--tops", action="append", help="a tops file instead of the blocks' (tests; repeatable)")
    a = ap.parse_args()
    tops = read_tops(a.tops)
    where = " ".join(a.tops) if a.tops else "rtl/*/synth_tops.txt"
    if a.list:
        print("\n".join(tops))
        return 0
    for name in (a.sources, a.entry, a.name):
        if name and name not in tops:
            sys.exit(f"synth_top: {name} is not in {where}")
    if a.sources:
        print("\n".join(tops[a.sources]["sources"]))
        return 0
    if a.entry:
        t = tops[a.entry]
        print(f"{t['top']} {t['eq'] or '-'} {t['file']}")
        return 0
    if not a.outdir or not a.name:
        ap.error("OUTDIR and NAME are needed")
    t, out = tops[a.name], pathlib.Path(a.outdir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    ys = out / f"{a.name}.ys"
    ys.write_text(script(t, out, a.netlist and str(pathlib.Path(a.netlist).resolve())))
    log = out / f"{a.name}.log"
    with open(log, "w") as f:
        rc = subprocess.run(["yosys", "-s", str(ys)], stdout=f, stderr=subprocess.STDOUT).returncode
    if rc != 0:
        err = [l for l in log.read_text().splitlines() if "ERROR" in l or "Assert" in l or "latch" in l]
        print(f"synth_top: {a.name} FAILED (yosys exit {rc}), see {log}", file=sys.stderr)
        print("\n".join(err[-5:]), file=sys.stderr)
        return 1
    cells, flops, mem_bits = stats(t, out)
    print(f"{a.name},{t['top']},{cells},{flops},{mem_bits}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
