#!/usr/bin/env python3
"""Where a fresh build and test run spend their time (docs/testing.md).

    scripts/buildtime/report.py [--build DIR] [--jobs N] [--tier test|long|all] ...

Configures a fresh build tree (DIR, default build-time/; removed first unless --reuse) with every
compile, link, custom command and Verilator run timed (HPCNET_BUILDTIME_LOG, launch.py) and
ccache off, builds it, runs the suite's tier through CTest, and prints:
  - the machine, and configure, build and test wall time (and the CPU time of the first two);
  - CPU seconds per Verilated model (Verilator at configure and build time, C++ compile) and per
    other build target, sorted;
  - test time per test program, sorted (wall seconds, summed over its test cases).
--csv PREFIX writes PREFIX_units.csv and PREFIX_tests.csv; --markdown FILE writes the tables as
Markdown for the docs.
"""
import argparse
import collections
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))


def run_timed(cmd, env=None, check=True):
    """Runs cmd; returns (wall s, CPU s of it and its children)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    if check and p.returncode != 0:
        sys.exit(f"report.py: {' '.join(cmd)} failed with exit {p.returncode}")
    return wall, ru.ru_utime + ru.ru_stime, p.returncode


def machine():
    model, mhz = platform.processor() or "?", ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name") and model in ("?", "", "x86_64"):
                model = line.split(":", 1)[1].strip()
            if line.startswith("cpu MHz") and not mhz:
                mhz = f" at {float(line.split(':', 1)[1]):.0f} MHz"
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs, {model}{mhz}"


def read_log(path):
    rows = []
    if os.path.exists(path):
        for line in open(path):
            kind, target, output, cpu, wall = line.rstrip("\n").split("\t")
            rows.append((kind, target, output, float(cpu), float(wall)))
    return rows


def units(rows):
    """CPU seconds per unit: a Verilated model (by its prefix) or another target."""
    models = sorted({r[2] for r in rows if r[0] == "verilator"}, key=len, reverse=True)
    pats = [(m, re.compile(r"(?<![A-Za-z0-9])" + re.escape(m) + r"(?![A-Za-z0-9])")) for m in models]
    per = collections.defaultdict(lambda: collections.Counter())
    for kind, target, output, cpu, _ in rows:
        unit = None
        for m, pat in pats:  # longest first: Vnet_mesh_4x4_adbr_t2 before Vnet_mesh_4x4_adbr
            if pat.search(output.replace("/", " ")) or (kind == "verilator" and output == m):
                unit = m
                break
        if unit is None:
            unit = target if target not in ("hpcnet_models",) else "hpcnet_models (runtime, link)"
        per[unit][kind] += cpu
    out = []
    for u, c in per.items():
        out.append((u, "model" if u in models else "target", c["verilator"] + c["custom"],
                    c["compile"], c["link"], sum(c.values())))
    out.sort(key=lambda r: -r[5])
    return out


def test_programs(build, junit):
    """(program, tests, wall s) per test program, from the JUnit file and ctest's test list."""
    shown = json.loads(subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"],
                                      capture_output=True, text=True, check=True).stdout)
    prog = {}
    for t in shown.get("tests", []):
        cmd = t.get("command") or ["?"]
        name = os.path.basename(cmd[0])
        if re.match(r"(python3?|bash|sh)$", name) and len(cmd) > 1:
            name = os.path.basename(cmd[1])
        prog[t["name"]] = name
    per = collections.defaultdict(lambda: [0, 0.0, 0])
    for tc in ET.parse(junit).getroot().iter("testcase"):
        name = tc.get("name")
        p = per[prog.get(name, name)]
        p[0] += 1
        p[1] += float(tc.get("time", 0))
        if tc.find("failure") is not None or tc.get("status") == "fail":
            p[2] += 1
    out = [(k, v[0], v[1], v[2]) for k, v in per.items()]
    out.sort(key=lambda r: -r[2])
    return out


def table(headers, rows, fmt):
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(f(x) for f, x in zip(fmt, r)) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build-time"), help="build tree (removed first)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="parallel jobs (build and tests)")
    ap.add_argument("--reuse", action="store_true", help="keep the tree and log (an incremental build)")
    ap.add_argument("--tier", choices=["test", "long", "all"], default="test",
                    help="which tests: test (make test), long (make test-long), all")
    ap.add_argument("--target", action="append", default=[], help="build target(s) (default: all)")
    ap.add_argument("--cmake-arg", action="append", default=[], help="more configure arguments (--cmake-arg=-DX=Y)")
    ap.add_argument("--no-test", action="store_true", help="configure and build only")
    ap.add_argument("--csv", help="write PREFIX_units.csv and PREFIX_tests.csv")
    ap.add_argument("--markdown", help="write the tables as Markdown to this file")
    ap.add_argument("--top", type=int, default=0, help="rows per table printed (0: all)")
    a = ap.parse_args()

    build = os.path.abspath(a.build)
    log = os.path.join(build, "buildtime.log")
    if not a.reuse and os.path.exists(build):
        shutil.rmtree(build)
    os.makedirs(build, exist_ok=True)
    env = dict(os.environ, HPCNET_BUILDTIME_LOG=log, CCACHE_DISABLE="1")
    env.pop("HPCNET_BUILDTIME_INNER", None)
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "deps.sh")], check=True)

    cfg_wall, cfg_cpu, _ = run_timed(
        ["cmake", "-S", ROOT, "-B", build, "-DHPCNET_CCACHE=OFF", f"-DHPCNET_BUILDTIME_LOG={log}",
         f"-DVERILATOR_BIN={os.path.join(HERE, 'verilator.sh')}"] + a.cmake_arg, env=env)
    targets = sum((["--target", t] for t in a.target), [])
    bld_wall, bld_cpu, _ = run_timed(["cmake", "--build", build, "-j", str(a.jobs)] + targets, env=env)

    tests, test_wall, failed = [], 0.0, 0
    if not a.no_test:
        junit = os.path.join(build, "junit.xml")
        labels = {"test": ["-LE", "long"], "long": ["-L", "long"], "all": []}[a.tier]
        test_wall, _, rc = run_timed(["ctest", "--test-dir", build, "-j", str(a.jobs),
                                      "--output-junit", junit] + labels, check=False)
        tests = test_programs(build, junit)
        failed = sum(t[3] for t in tests)

    us = units(read_log(log))
    n = a.top or None
    summary = [
        ("machine", machine()),
        ("jobs", str(a.jobs)),
        ("configure", f"{cfg_wall:.0f} s wall, {cfg_cpu:.0f} CPU s"),
        ("build", f"{bld_wall:.0f} s wall, {bld_cpu:.0f} CPU s"),
        ("models", f"{sum(1 for u in us if u[1] == 'model')}, "
                   f"{sum(u[5] for u in us if u[1] == 'model'):.0f} CPU s"),
    ]
    if not a.no_test:
        summary.append((f"tests ({a.tier})", f"{sum(t[1] for t in tests)} in {len(tests)} programs, "
                        f"{failed} failed, {test_wall:.0f} s wall, {sum(t[2] for t in tests):.0f} s summed"))
    summary.append(("total", f"{cfg_wall + bld_wall + test_wall:.0f} s wall "
                             f"({(cfg_wall + bld_wall + test_wall) / 60:.1f} min)"))
    s = lambda x: str(x)
    f0 = lambda x: f"{x:.0f}"
    f1 = lambda x: f"{x:.1f}"
    md = ["## Summary", "", table(["", ""], summary, [s, s]), "",
          "## CPU seconds per model and per other target", "",
          table(["unit", "kind", "Verilator s", "compile s", "link s", "total s"], us[:n],
                [s, s, f1, f1, f1, f1])]
    if tests:
        md += ["", "## Test time per test program", "",
               table(["program", "tests", "wall s", "failed"], tests[:n], [s, s, f1, s])]
    text = "\n".join(md) + "\n"
    print(text)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    if a.csv:
        with open(a.csv + "_units.csv", "w") as f:
            f.write("unit,kind,verilator_cpu_s,compile_cpu_s,link_cpu_s,total_cpu_s\n")
            for u in us:
                f.write(f"{u[0]},{u[1]},{u[2]:.3f},{u[3]:.3f},{u[4]:.3f},{u[5]:.3f}\n")
        with open(a.csv + "_tests.csv", "w") as f:
            f.write("program,tests,wall_s,failed\n")
            for t in tests:
                f.write(f"{t[0]},{t[1]},{t[2]:.3f},{t[3]}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
