#!/usr/bin/env python3
"""check_wave.py: the checks behind the wave tests (tb/wave; python stdlib).

    check_wave.py drift                     every checked-in rtl/<block>/wave/<top>.gtkw is its .sigs
                                            list as written (gen_gtkw.py --list SIGS -o ...)
    check_wave.py trace SIGS TRACE [--first A --last B] [--router R] [--env] [-- CMD...]
                                            runs CMD first when given (it must succeed and write
                                            TRACE; --env: with HPCNET_TRACE=TRACE:A:B), then checks
                                            the trace of SIGS's top:
      - every signal the list names (for this trace's parameters and router) is in the trace;
      - the cycle counter (the list's `alias=cycle` signal, cmn_sim_cycle) steps by one at every
        rising edge of its clock and at no other time; with --first/--last (the harness's trace
        window) it reads A at the first traced time and B + 1 after the last edge;
      - the save file made for the trace (--fit) opens at the trace's first time on its first
        cycles, as many as leave the counter's numbers room (at least 8, at most the window),
        says that range in its comments, and names translate files that exist;
      - net_mesh lists: every HOP_COUNT row shows "-" or a hop count the network can have (the
        head flit's fields decoded on head flits only).
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fstinfo  # noqa: E402
import gen_gtkw  # noqa: E402


def fail(msg):
    print(f"check_wave: FAIL: {msg}", file=sys.stderr)
    return 1


def drift():
    bad, lists = 0, gen_gtkw.signal_lists()
    parts = {(s.parent / m).resolve() for s in lists for m in re.findall(r"^%include\s+(\S+)", s.read_text(), re.M)}
    # first (making the save files below rewrites a stale one)
    for f in sorted((HERE / "xlate").glob("rtl.*.txt")):  # gen_gtkw.py's, from RTL localparams
        mod, name = f.name[4:-4].split(".")
        if gen_gtkw.rtl_xlate(f"rtl:{mod}.{name}")[1] != f.read_text():
            bad += fail(f"xlate/{f.name} differs from the localparams of {mod}.sv (make wave, or "
                        f"gen_gtkw.py --list on a list naming it, rewrites it)")
    for sigs in lists:
        gtkw = sigs.with_suffix(".gtkw")
        rel_sigs, rel_gtkw = sigs.relative_to(gen_gtkw.ROOT), gtkw.relative_to(gen_gtkw.ROOT)
        if sigs.resolve() in parts:  # a part of other lists (%include), no save file of its own
            continue
        if not gtkw.exists():
            bad += fail(f"{rel_gtkw} is missing (gen_gtkw.py --list {rel_sigs} -o {rel_gtkw})")
            continue
        with tempfile.TemporaryDirectory() as d:
            out = pathlib.Path(d) / gtkw.name
            subprocess.run([sys.executable, str(HERE / "gen_gtkw.py"), "--list", str(sigs), "-o", str(out)], check=True)
            if out.read_text() != gtkw.read_text():
                bad += fail(f"{rel_gtkw} differs from its list: python3 scripts/wave/gen_gtkw.py "
                            f"--list {rel_sigs} -o {rel_gtkw}")
    print(f"check_wave: drift: {'FAILED' if bad else 'every save file matches its list, every RTL translate file its RTL'}")
    return 1 if bad else 0


def counter(groups, variables):
    """(counter Var, its clock Var) from the list's alias=cycle signal."""
    paths = [p for _, rows in groups for p, _, opts, _ in rows if opts.get("alias") == "cycle"]
    if len(paths) != 1:
        raise SystemExit(f"check_wave: the list needs one signal with alias=cycle, has {len(paths)}")
    by_path = {v.path: v for v in variables}
    cnt = by_path[paths[0]]
    clk = next((v for v in variables if v.scope == cnt.scope and v.name == "clk_i"), None)
    if clk is None:
        raise SystemExit(f"check_wave: no clk_i beside {cnt.path}")
    return cnt, clk


def check_counter(trace, cnt, clk, first, last):
    rises, steps, values, prev_clk, bad = set(), [], [], None, 0
    for t, code, val in fstinfo.changes(trace, [cnt.code, clk.code]):
        if code == clk.code:
            if prev_clk == 0 and val == 1:
                rises.add(t)
            prev_clk = val
        if code == cnt.code:
            if values and val != values[-1][1] + 1:
                bad += fail(f"cycle counter jumps from {values[-1][1]} to {val} at time {t}")
            if values:
                steps.append(t)
            values.append((t, val))
    if not values:
        return fail(f"{cnt.path} has no value in {trace}")
    if set(steps) != rises - {values[0][0]}:
        extra, missed = sorted(set(steps) - rises)[:3], sorted(rises - set(steps) - {values[0][0]})[:3]
        bad += fail(f"the counter does not step exactly at the clock's rising edges "
                    f"(steps without an edge at {extra}, edges without a step at {missed})")
    hdr = fstinfo.header(trace)
    if values[0][0] != hdr["start"]:
        bad += fail(f"the counter's first value is at time {values[0][0]}, the trace starts at {hdr['start']}")
    if first is not None and values[0][1] != first:
        bad += fail(f"the counter reads {values[0][1]} at the window's start, the harness's cycle is {first}")
    if last is not None and values[-1][1] != last + 1:
        bad += fail(f"the counter reads {values[-1][1]} after the window's last edge, expected {last + 1}")
    print(f"check_wave: cycle counter {values[0][1]}..{values[-1][1]}, {len(steps)} steps at the clock's "
          f"rising edges (window {first}..{last})")
    return bad


def check_save(sigs, trace, router):
    hdr = fstinfo.header(trace)
    with tempfile.TemporaryDirectory() as d:
        out = pathlib.Path(d) / "t.gtkw"
        cmd = [sys.executable, str(HERE / "gen_gtkw.py"), "--list", str(sigs), "--fit", str(trace), "-o", str(out)]
        subprocess.run(cmd + (["--router", router] if router else []), check=True)
        text = out.read_text()
    bad = 0
    mul = gen_gtkw.gtkwave_units(hdr)  # GTKWave's time units per trace unit (save-file times are GTKWave's)
    m = re.search(r"^\[timestart\] (\d+)$", text, re.M)
    if not m or int(m.group(1)) != hdr["start"] * mul:
        bad += fail(f"the save file starts at {m and m.group(1)}, the trace at {hdr['start']}")
    z = re.search(r"^\*(-?[\d.]+) ", text, re.M)
    # GTKWave shows 2**-zoom time units per 200 pixels: the view (the first cycles, as many as
    # leave the counter's numbers room, at most the window) must fit the wave area.
    pane = re.search(r"^\[signals_width\] (\d+)$", text, re.M)
    shown = 2 ** -float(z.group(1)) / 200 * gen_gtkw.wave_px(int(pane.group(1))) / mul if z and pane else 0
    span = hdr["end"] - hdr["start"]
    v = re.search(r"^\[\*\] view: cycles (\d+)\.\.(\d+) of the traced window (\d+)\.\.(\d+)", text, re.M)
    if not v:
        bad += fail("the save file does not say its view's cycles ([*] view: cycles a..b of the traced window a..c)")
    else:
        a, b, first, end = (int(x) for x in v.groups())
        per = span / max(end - first, 1)  # time units a cycle
        if a != first or not (min(8, end - first) <= b - a <= end - first):
            bad += fail(f"the view's cycles {a}..{b} are not the window's first ones ({first}..{end})")
        if not z or not (b - a) * per <= shown <= 1.1 * (b - a) * per + 1:
            bad += fail(f"the save file shows {shown:.0f} time units, its view's cycles {a}..{b} take {(b - a) * per:.0f}")
        px = gen_gtkw.wave_px(int(pane.group(1))) / max(b - a, 1) if pane else 0
        if b - a > 8 and px < len(str(b)) * gen_gtkw.CHAR_PX + 16 - 1:
            bad += fail(f"{px:.0f} pixels a cycle: the counter's {len(str(b))}-digit numbers do not fit")
        if "1 ns on the time axis = 1 cycle" not in text and per == 10:
            bad += fail("the save file does not say that the time axis counts cycles")
    for f in re.findall(r"^\^\d+ (.*)$", text, re.M):
        if not pathlib.Path(f).is_file():
            bad += fail(f"translate file {f} is missing")
    return bad


def check_heads(sigs, trace, router):
    """Every HOP_COUNT row of the save file made for the trace shows a hop count the network can
    have (at most the sum of its radixes) or "-": the head flit's fields are decoded on head flits
    only (head= in the list), never on body flits, whose payload would read as any number."""
    with tempfile.TemporaryDirectory() as d:
        out = pathlib.Path(d) / "t.gtkw"
        cmd = [sys.executable, str(HERE / "gen_gtkw.py"), "--list", str(sigs), "--fit", str(trace), "-o", str(out)]
        subprocess.run(cmd + (["--router", router] if router else []), check=True)
        lines = out.read_text().splitlines()
    params = fstinfo.parameters(trace, next(l.split()[1] for _, l in gen_gtkw.list_lines(sigs) if l.startswith("%mesh")))
    limit = params.get("K0", 1) + params.get("K1", 1) + params.get("K2", 1)
    by_path = {v.path: v for v in fstinfo.variables(trace)}
    xlates, bad, rows = {}, 0, 0
    for i, line in enumerate(lines):
        if line.startswith("^"):
            xlates[line.split()[0]] = line.split(None, 1)[1]
        if not (line.startswith("#{") and line[2:line.index("}")].endswith("HOP_COUNT")):
            continue
        rows += 1
        xl = lines[i - 1].split(None, 1)[1] if lines[i - 1].startswith("^") else None
        table = {}
        if xl:
            for t in (gen_gtkw.ROOT / xl).read_text().splitlines():
                if t and not t.startswith("#"):
                    k, v = t.split(None, 1)
                    table[int(k)] = v
        picks = [re.match(r"\((\d+)\)(.*)", x).groups() for x in line[line.index("}") + 2:].split()]
        var = by_path[picks[0][1]]
        shown = set()
        for _, _, val in fstinfo.changes(trace, [var.code]):
            v = 0
            for idx, _ in picks:  # GTKWave's (i): bit msb - i, the first pick the most significant
                v = v << 1 | (val >> (var.msb - int(idx) - var.lsb)) & 1
            shown.add(table.get(v, str(v)) if xl else str(v))
        wrong = sorted(x for x in shown if x != "-" and not (x.isdigit() and int(x) <= limit))
        if wrong:
            bad += fail(f"{line[2:line.index('}')]} shows {wrong[:5]}: more hops than the network has ({limit})")
    print(f"check_wave: {rows} HOP_COUNT rows show hop counts on head flits only")
    return bad


def trace_check(a):
    if a.cmd and run(a):
        return 1
    groups, params, missing = gen_gtkw.load(a.sigs, a.trace, a.router, True)
    bad = 0
    if missing:
        bad += fail(f"{len(missing)} signals of {a.sigs} are not in {a.trace}: {' '.join(missing[:8])}")
    else:
        print(f"check_wave: all {sum(len(r) for _, r in groups)} signals of {pathlib.Path(a.sigs).name} "
              f"are in the trace (parameters {params})")
    cnt, clk = counter(groups, fstinfo.variables(a.trace))
    bad += check_counter(a.trace, cnt, clk, a.first, a.last)
    bad += check_save(a.sigs, a.trace, a.router)
    if any(line.startswith("%mesh") for _, line in gen_gtkw.list_lines(a.sigs)) and "net_mesh" in pathlib.Path(a.sigs).name:
        bad += check_heads(a.sigs, a.trace, a.router)
    return 1 if bad else 0


def run(a):
    env = dict(os.environ)
    env.setdefault("HPCNET_SEED", "1")  # the same run, so the same length, every time
    trace = pathlib.Path(a.trace)
    trace.unlink(missing_ok=True)
    if a.env:
        env["HPCNET_TRACE"] = f"{trace}:{a.first}:{a.last}"
    rc = subprocess.run(a.cmd, env=env).returncode
    if rc != 0:
        return fail(f"{' '.join(a.cmd)} exited {rc}")
    if not trace.is_file():
        return fail(f"{' '.join(a.cmd)} wrote no trace {trace}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("drift")
    t = sub.add_parser("trace")
    t.add_argument("sigs")
    t.add_argument("trace")
    t.add_argument("--first", type=int)
    t.add_argument("--last", type=int)
    t.add_argument("--router")
    t.add_argument("--env", action="store_true", help="run CMD with HPCNET_TRACE=TRACE:FIRST:LAST")
    argv = sys.argv[1:]
    cmd = argv[argv.index("--") + 1:] if "--" in argv else []  # -- CMD...: the program writing TRACE
    a = ap.parse_args(argv[:len(argv) - len(cmd) - (1 if cmd or "--" in argv else 0)])
    if a.what == "drift":
        return drift()
    a.cmd = cmd
    return trace_check(a)


if __name__ == "__main__":
    sys.exit(main())
