"""fstinfo.py: reads what the wave scripts need from an FST (or VCD) trace (python stdlib).

    header(trace)        {"start", "end", "exp"}: first and last time, time unit 10**exp s
    variables(trace)     [Var]: every traced variable, in file order
    parameters(trace, scope)   {name: int} of the parameters directly in scope
    changes(trace, codes)      yields (time, code, int value) of the variables' value changes

.fst contents are read with fst2vcd (GTKWave package); the FST header block is read directly.
"""
import collections
import pathlib
import re
import struct
import subprocess

# GTKWave names vectors of these kinds with [msb:lsb]; int, integer, parameter... without it.
RANGED = {"wire", "reg", "logic", "bit", "tri", "tri0", "tri1", "wand", "wor", "supply0", "supply1"}

# scope: dotted scope; name: the name in the scope ("occ_q[27]"); path: what a save file names
# (scope.name[msb:lsb] for ranged vectors); msb/lsb: the declared range (width-1, 0 without one).
Var = collections.namedtuple("Var", "scope name path kind width msb lsb code")


def _vcd_lines(trace):
    if not pathlib.Path(trace).is_file():
        raise SystemExit(f"fstinfo: no trace {trace}")
    if str(trace).endswith(".fst"):
        p = subprocess.Popen(["fst2vcd", str(trace)], stdout=subprocess.PIPE, text=True)
        return p, p.stdout
    return None, open(trace)


def _lines(trace, stop_at_definitions=True):
    p, src = _vcd_lines(trace)
    try:
        for line in src:
            if stop_at_definitions and "$enddefinitions" in line:
                break
            yield line
    finally:
        if p:
            p.kill()
            p.wait()
        else:
            src.close()


def header(trace):
    """First and last time of the trace and its time unit exponent."""
    if str(trace).endswith(".fst"):
        with open(trace, "rb") as f:
            b = f.read(74)
        if len(b) < 74 or b[0] != 0:
            raise SystemExit(f"fstinfo: {trace} does not start with an FST header block")
        start, end = struct.unpack(">QQ", b[9:25])
        return {"start": start, "end": end, "exp": struct.unpack("b", b[73:74])[0]}
    times, exp = [], -12
    units = {"s": 0, "ms": -3, "us": -6, "ns": -9, "ps": -12, "fs": -15}
    text = open(trace).read()
    m = re.search(r"\$timescale\s+(\d+)\s*(\w+)\s+\$end", text)
    if m:
        exp = units[m.group(2)] + len(m.group(1)) - 1
    times = [int(t) for t in re.findall(r"^#(\d+)", text, re.M)]
    return {"start": min(times, default=0), "end": max(times, default=0), "exp": exp}


def variables(trace):
    scopes, out = [], []
    for line in _lines(trace):
        tok = line.split()
        if tok[:1] == ["$scope"]:
            scopes.append(tok[2])
        elif tok[:1] == ["$upscope"]:
            scopes.pop()
        elif tok[:1] == ["$var"]:
            kind, width, code, name = tok[1], int(tok[2]), tok[3], tok[4]
            rng = tok[5] if len(tok) > 6 and tok[5].startswith("[") else ""
            m = re.fullmatch(r"\[(\d+)(?::(\d+))?\]", rng)
            msb, lsb = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else (width - 1, 0)
            if kind in RANGED and width > 1 and not rng:
                rng = f"[{msb}:{lsb}]"
            if kind not in RANGED:
                rng = ""
            scope = ".".join(scopes)
            out.append(Var(scope, name, f"{scope}.{name}{rng}", kind, width, msb, lsb, code))
    return out


def changes(trace, codes):
    """(time, code, value) for every change of the variables with these codes (x and z read as 0)."""
    codes, t = set(codes), None
    for line in _lines(trace, stop_at_definitions=False):
        if line.startswith("#"):
            t = int(line[1:])
            continue
        if t is None or not line.strip() or line.startswith("$"):
            continue
        if line[0] in "bB":
            val, code = line[1:].split()
        elif line[0] in "01xzXZ":
            val, code = line[0], line[1:].strip()
        else:
            continue
        if code in codes:
            yield t, code, int(re.sub("[xzXZ]", "0", val), 2)


def parameters(trace, scope):
    """{name: value} of the parameters of `scope` (their first values in the trace): those traced in
    the scope and in the scopes above it (Verilator traces a parameter an instance passes on
    unchanged only once), the innermost one winning."""
    parts = scope.split(".")
    depth = {".".join(parts[:i]): i for i in range(1, len(parts) + 1)}
    pv = {}  # code: [(depth, name)] (parameters of equal value share one code)
    for v in variables(trace):
        if v.scope in depth and v.kind == "parameter":
            pv.setdefault(v.code, []).append((depth[v.scope], v.name))
    found = {}
    for _, code, val in changes(trace, pv):
        if code not in found:
            found[code] = val
        if len(found) == len(pv):
            break
    named = sorted((d, name, found[code]) for code, names in pv.items() if code in found for d, name in names)
    return {name: val for _, name, val in named}
