#!/usr/bin/env python3
"""cell_sources.py: where a top's cells go, by cell type and by source line (Yosys 0.23, python stdlib).

    cell_sources.py OUTDIR NAME [--lines N] [--reuse]     NAME: a top of rtl/*/synth_tops.txt

Two Yosys runs:
  1. synth_top.py's flow (synth -flatten, so the same cell count), stopping after the coarse stage
     to write the word-level netlist ($mux, $shiftx, $eq, $sdff, ... with their widths;
     OUTDIR/NAME.coarse.json); prints the final cells per type.
  2. That netlist again, each coarse cell labelled with its source line (a variable part-select's
     $shift/$shiftx has src line 0: "sel:" and the named signals on its ports instead).
     The coarse cells of each of the N lines with the widest cells, then of the rest, are mapped
     to gates alone (techmap; opt -fast; the other lines' cells left coarse): the gates they make
     are the line's count. Counts are before ABC, which rewrites the gates together (the final
     total is lower); flops are final.
--reuse reports on OUTDIR's files of an earlier run. Logs: OUTDIR/NAME.src.log, NAME.lines.log.
"""
import argparse
import collections
import json
import pathlib
import re
import subprocess
import sys

from synth_top import LATCHES, read_tops

FINE = ["opt -fast -full", "memory_map", "opt -full", "techmap", "opt -fast", "abc -fast", "opt -fast"]
FINE_KEEP_MEM = ["opt -fast -full", "opt -full", "techmap", "opt -fast", "abc -fast", "opt -fast"]
LINE = re.compile(r"([\w.]+\.s?v):(\d+)")


def yosys(out, name, lines):
    ys = out / f"{name}.ys"
    ys.write_text("\n".join(lines) + "\n")
    with open(out / f"{name}.log", "w") as f:
        if subprocess.run(["yosys", "-s", str(ys)], stdout=f, stderr=subprocess.STDOUT).returncode:
            sys.exit(f"cell_sources: yosys failed, see {out}/{name}.log")


def synth(t, out, name):
    top = t["top"]
    chp = "".join(f" -chparam {k} {v}" for k, v in t["params"])
    yosys(out, f"{name}.src", [
        f"read_verilog -sv {' '.join(t['sources'])}", f"hierarchy -check -top {top}{chp}",
        f"synth -flatten -top {top} -run begin:fine", f"write_json {out}/{name}.coarse.json",
        *(FINE_KEEP_MEM if t["mem_keep"] else FINE), "hierarchy -check", "check -assert",
        f"select -assert-none {LATCHES}", f"tee -q -o {out}/{name}.stat.json stat -json"])


def first_line(text):
    """The first nonzero source line named in text ("nic_regs.sv:233"), outside Yosys' own files."""
    return next((f"{f}:{n}" for f, n in LINE.findall(text) if int(n) and f != "techmap.v"), None)


def param(c, name):
    w = c.get("parameters", {}).get(name, "0")
    return int(w, 2) if isinstance(w, str) and set(w) <= {"0", "1"} else int(w)


def shape(c):
    """A coarse cell's type and width: $mux/64, a case's $pmux/64x10 (10 cases)."""
    w = param(c, "Y_WIDTH") or param(c, "WIDTH")
    s = f"x{param(c, 'S_WIDTH')}" if c["type"] == "$pmux" else ""
    return f"{c['type']}/{w}{s}" if w > 1 or s else c["type"]


def label(mod):
    """{cell name: its source line, or else "sel:" and the named signals on its ports, or else
    the label of a cell it feeds}."""
    net = {}
    for n, x in mod["netnames"].items():
        if not n.startswith("$"):
            for b in x["bits"]:
                net.setdefault(b, set()).add(n)
    out = {}
    for name, c in mod["cells"].items():
        ln = first_line(c.get("attributes", {}).get("src", ""))
        if not ln:  # a variable part-select (src line 0): the signals it reads or writes (most bits)
            names = collections.Counter(n for bits in c["connections"].values() for b in bits for n in net.get(b, ()))
            ln = "sel:" + ",".join(n for n, _ in names.most_common(2)) if names else "?"
        out[name] = ln
    # a cell with neither (a part-select's shifted mask, its index arithmetic) takes the label
    # of a cell its output feeds
    users = collections.defaultdict(set)
    for name, c in mod["cells"].items():
        for port, bits in c["connections"].items():
            if c.get("port_directions", {}).get(port) == "input":
                for b in bits:
                    users[b].add(name)
    for _ in range(20):
        todo = [n for n, ln in out.items() if ln == "?"]
        for name in todo:
            c = mod["cells"][name]
            outs = [b for p, bits in c["connections"].items()
                    if c.get("port_directions", {}).get(p) == "output" for b in bits]
            out[name] = next((out[u] for b in outs for u in sorted(users[b]) if out[u] != "?"), "?")
        if all(out[n] == "?" for n in todo):
            break
    return out


def by_line(out, name, top, n_lines):
    """[(line, cells, flops)] of the n_lines lines with the widest coarse cells, then the rest."""
    d = json.loads((out / f"{name}.coarse.json").read_text())
    mod = d["modules"][top]
    lines = label(mod)
    width = collections.Counter()  # the bits on a line's cells' ports
    for cn, c in mod["cells"].items():
        width[lines[cn]] += sum(len(bits) for bits in c["connections"].values())
    chosen = [ln for ln, _ in width.most_common(n_lines)]
    for cn, c in mod["cells"].items():
        c.setdefault("attributes", {})["grp"] = f"g{chosen.index(lines[cn])}" if lines[cn] in chosen else "grest"
    (out / f"{name}.grp.json").write_text(json.dumps(d))
    steps = [f"read_json {out}/{name}.grp.json", f"hierarchy -top {top}", "design -save coarse"]
    for i, g in enumerate([f"g{i}" for i in range(len(chosen))] + ["grest"]):
        steps += ["design -load coarse", f"techmap a:grp={g}", "opt -fast",
                  f"tee -q -o {out}/{name}.step{i}.json stat -json"]
    yosys(out, f"{name}.lines", steps)
    rows = []
    for i, ln in enumerate(chosen + ["(the rest)"]):
        ty = json.loads((out / f"{name}.step{i}.json").read_text())["design"]["num_cells_by_type"]
        gates = {k: v for k, v in ty.items() if k.startswith("$_")}
        rows.append((ln, sum(gates.values()), sum(v for k, v in gates.items() if "DFF" in k)))
    coarse = collections.defaultdict(collections.Counter)
    for cn, c in mod["cells"].items():
        coarse[lines[cn]][shape(c)] += 1
    return rows, coarse


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("name")
    ap.add_argument("--lines", type=int, default=15, help="source lines mapped one at a time")
    ap.add_argument("--reuse", action="store_true", help="report on OUTDIR's files of an earlier run")
    a = ap.parse_args()
    tops = read_tops()
    if a.name not in tops:
        sys.exit(f"cell_sources: {a.name} is not in rtl/*/synth_tops.txt")
    out = pathlib.Path(a.outdir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if not a.reuse:
        synth(tops[a.name], out, a.name)

    by_type = json.loads((out / f"{a.name}.stat.json").read_text())["design"]["num_cells_by_type"]
    total = sum(by_type.values())
    print(f"{a.name}: {total} cells")
    for ty, n in sorted(by_type.items(), key=lambda x: -x[1]):
        print(f"  {ty:<14} {n:>8} {100 * n / total:5.1f}%")

    rows, coarse = by_line(out, a.name, tops[a.name]["top"], a.lines)
    print(f"\nbefore ABC, by source line ({sum(r[1] for r in rows)} cells):")
    print(f"  {'line':<20} {'cells':>8} {'flops':>7}  coarse cells (type/width, x count)")
    for ln, n, f in rows:
        cs = ", ".join(f"{k} x{v}" if v > 1 else k for k, v in coarse[ln].most_common(5))
        print(f"  {ln:<20} {n:>8} {f:>7}  {cs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
