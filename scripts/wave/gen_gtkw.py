#!/usr/bin/env python3
"""gen_gtkw.py: writes GTKWave save files (.gtkw) from signal lists (python stdlib).

    gen_gtkw.py --list SIGS -o OUT.gtkw         from a signal list (format below), as written
    gen_gtkw.py --list SIGS --fit T.fst -o OUT.gtkw
                                                for trace T: vector ranges and parameters taken from
                                                T, opened on T's first cycles, as many as leave the
                                                cycle counter's numbers room (the range in the
                                                file's comments); signals missing from T left out
    gen_gtkw.py --list SIGS --check T.fst       exit 1 unless every listed signal is in trace T
    ... [--router N | --router X,Y[,Z]]         the router of a %mesh list (default: the middle one)
    gen_gtkw.py --trace T.fst [--scope S] -o OUT.gtkw
                                                every signal directly in scope S (default: the top
                                                module's scope) of a .fst or .vcd trace
    gen_gtkw.py --top T.fst                     prints the trace's top module (first scope in TOP)
    gen_gtkw.py --signals T.fst                 prints every signal path of the trace
    gen_gtkw.py --find NAME                     prints the path of the block's list or save file
                                                NAME (nic_top.sigs: rtl/nic/wave/nic_top.sigs)

Signal lists and their save files live in their block's folder, rtl/<block>/wave/<name>.sigs and
<name>.gtkw (wave.sh, check_wave.py and tb/wave find them there by name).

SIGS format, one item a line ('#' starts a comment):
    == Group name                 starts a group (closed by the next group or the end)
    %param K0=8 K1=8 Dims=2       parameter values used without a trace (--fit/--check read the
                                  trace's own, from the %params or %mesh scope)
    %params TOP.gsn_tree          the scope whose parameters {EXPR} below can use
    %let u=TOP.rtr_router         a name {EXPR} can use (text)
    %include FILE                 the lines of FILE (beside this list) here
    %mesh TOP.net_mesh.u_net      %params of a rtr_router block; enables {r}, {link}, --router
    PATH [FORMAT] [OPTION...]     a signal. PATH: vectors need their [msb:lsb] (GTKWave drops them
                                  silently otherwise; --fit corrects them); int, integer and
                                  parameter signals take none (--signals prints the right names).
      {EXPR}                      in a PATH, option or group name: the value of a Python
                                  expression of the parameters (e.g. {Depth-1}); with %mesh also
                                  r (the router's index x + K0*(y + K1*z)) and nodes (K0*K1*K2)
      {link} in PATH              one line per network output port o of the router, index
                                  r*2*Dims + o (the link registers), named by the port
      FORMAT                      hex (vectors' default), dec, sdec, bin (single bits' default),
                                  enum (the trace's own enum table: Verilator writes one for every
                                  SystemVerilog enum, e.g. the FSM states)
      alias=NAME                  the name shown
      xlate=BLOCK.ENUM            show the codes by name: the translate file gen_regs.py writes
                                  from the TOML enum (scripts/wave/xlate/BLOCK.ENUM.txt)
      xlate=rtl:MODULE.NAME       the same for the codes of a plain-logic state register: the
                                  names of the `localparam logic [..] NAME = ..., ...;` statement
                                  of rtl/*/MODULE.sv (written to scripts/wave/xlate/rtl.MODULE.
                                  NAME.txt when stale; check_wave.py drift checks them); with
                                  per=/split=, every slice
      fields=BLOCK.FORMAT         the vector, then one row per field of the TOML format (positions
                                  from rtl/*/*.toml through gen_regs.py; enum fields by name)
      fields=PKG.TYPE_t           the same for a packed struct typedef of rtl/*/PKG.sv; with
                                  xlate=FIELD:BLOCK.ENUM[,...] its code fields shown by name
      per=port | per=net          split into equal slices, one per router port (X+ X- Y+ Y- [Z+
                                  Z-] L) or per network port (without L), port 0 lowest; with
                                  fields=, each slice split into the fields
      split=A,B,C                 split into equal slices named A (most significant), B, C;
                                  split=N: N slices named 0 (lowest) .. N-1
      closed                      the group of a split signal starts collapsed
      part=I/N                    only slice I of N equal slices (slice 0 lowest; e.g. one
                                  node's flit of a mesh's data port: part={r}/{nodes})
      head=LSB:W                  with fields=: the fields decoded on head flits only, "-" on
                                  the others: bits [LSB+W-1:LSB] of each flit (slice) are 0 in a
                                  head flit (sim/net's flit index, mod 2**W); each field row
                                  shows those bits and the field through a translate file
                                  (xlate/head.<u|s><width>.i<W>.txt, written here)
.fst headers are read with fst2vcd (GTKWave package, scripts/wave/fstinfo.py).
"""
import argparse
import math
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "scripts" / "regs"))
import fstinfo  # noqa: E402
from gtkw_view import CHAR_PX, SIGNALS_W, SIZE, SST_W, gtkwave_units, readable_view, view_comments, wave_px, zoom_line  # noqa: E402,F401

# GTKWave trace flags (analyzer.h): hex 0x2, dec 0x4, bin 0x8, right-justify 0x20, signed 0x400,
# file-translated 0x2000, FST enum table 0x100000000; group begin/end with blank 0x200. GTKWave
# 3.3.118 shows a Verilator FST enum table's names only with the enum flag and the binary base
# (what it writes itself); with dec it shows the codes. Translate files here are keyed in decimal.
FLAGS = {"bin": 0x28, "hex": 0x22, "dec": 0x24, "sdec": 0x424, "enum": 0x100000028}
XLATED = 0x2024
GROUP_BEGIN, GROUP_END, CLOSED = 0x800200, 0x1000200, 0x400000
RANGE = re.compile(r"\[(\d+):(\d+)\]$")
XLATE_DIR = HERE / "xlate"
WAVE_DIRS = "rtl/*/wave"  # the blocks' signal lists and save files


class ListError(Exception):
    pass


def signal_lists():
    """Every block's signal list, rtl/<block>/wave/*.sigs, in path order."""
    return sorted(ROOT.glob(f"{WAVE_DIRS}/*.sigs"))


def find_wave_file(name):
    """The path of rtl/<block>/wave/NAME (a list or a save file), or None; a name in two blocks is an error."""
    found = sorted(ROOT.glob(f"{WAVE_DIRS}/{name}"))
    if len(found) > 1:
        raise ListError(f"{name} is in more than one block: {' '.join(str(f.relative_to(ROOT)) for f in found)}")
    return found[0] if found else None


# ------------------------------------------------------------------ formats (field positions)
def toml_formats():
    """{block.format: format dict} of every rtl/*/*_regs.toml and *_formats.toml (gen_regs.py)."""
    import gen_regs
    cache, out = {}, {}
    for t in sorted(ROOT.glob("rtl/*/*_regs.toml")) + sorted(ROOT.glob("rtl/*/*_formats.toml")):
        gen_regs.load(t, cache)
    for b in cache.values():
        for name, f in b.formats.items():
            out[f"{b.name}.{name}"] = (b, f)
    return out


def toml_fields(ref, formats, lsb=0, prefix=""):
    """[(name, lsb, width, fmt, xlate)] of a TOML format, nested formats flattened."""
    if ref not in formats:
        raise ListError(f"no format {ref} in rtl/*/*.toml")
    b, f = formats[ref]
    out = []
    for fx in f["fields"]:
        for i in range(fx.get("count", 1)):
            name = prefix + fx["name"] + (f"[{i}]" if fx.get("count", 1) > 1 else "")
            lo = lsb + fx["lsb"] + i * fx["width"]
            if "format" in fx:
                out += toml_fields(f"{b.name}.{fx['format'].rpartition('.')[2]}", formats, lo, name + ".")
                continue
            xl = None
            if "enum" in fx:
                owner, e = b.lookup("enum", fx["enum"])
                xl = f"{owner.name}.{e['name']}"
            fmt = ("bin" if fx["width"] == 1 else "dec" if xl or (fx["width"] <= 8 and not fx.get("signed"))
                   else "sdec" if fx.get("signed") else "hex")
            out.append((name, lo, fx["width"], fmt, xl))
    return out


def sv_fields(ref, lsb=0, prefix=""):
    """The same for `typedef struct packed {...} TYPE_t;` of rtl/*/PKG.sv (numeric ranges, nested
    structs of the same package)."""
    pkg, _, typ = ref.partition(".")
    files = list(ROOT.glob(f"rtl/*/{pkg}.sv"))
    if not files:
        raise ListError(f"no package rtl/*/{pkg}.sv")
    text = re.sub(r"//[^\n]*", "", files[0].read_text())
    structs = {m.group(2): m.group(1) for m in re.finditer(r"typedef\s+struct\s+packed\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S)}

    def members(t):
        if t not in structs:
            raise ListError(f"no packed struct {t} in {files[0].relative_to(ROOT)}")
        out = []
        for m in re.finditer(r"(\w+)\s*(?:\[(\d+):(\d+)\])?\s+(\w+)\s*;", structs[t]):
            kind, hi, lo, name = m.groups()
            out.append((name, kind, int(hi) - int(lo) + 1 if hi else 1))
        return out

    def width(t):
        return sum(width(k) if k in structs else w for _, k, w in members(t))

    def walk(t, lo, pre):
        res = []
        for name, kind, w in reversed(members(t)):  # first member = most significant
            if kind in structs:
                res += walk(kind, lo, f"{pre}{name}.")
                lo += width(kind)
            else:
                res.append((pre + name, lo, w, "bin" if w == 1 else "hex", None))
                lo += w
        return res

    return sorted(walk(typ, lsb, prefix), key=lambda f: -f[1])  # as declared: msb first


# ------------------------------------------------------------------ the list
def list_lines(path, depth=0):
    """(where, line) of a list with its %include files inlined."""
    path = pathlib.Path(path)
    for n, line in enumerate(path.read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line.startswith("%include"):
            if depth > 4:
                raise ListError(f"{path}:{n}: %include nested too deep")
            yield from list_lines(path.parent / line.split()[1], depth + 1)
        elif line:
            yield f"{path.name}:{n}", line


def parse_list(path):
    """(groups [(name, [(path, fmt, opts)])], directives {param: {..}, mesh: scope, ...})."""
    groups, dirs = [(None, [])], {"param": {}, "mesh": None, "params": None}
    for n, line in list_lines(path):
        if line.startswith("=="):
            groups.append((line[2:].strip(), []))
            continue
        tok = line.split()
        if tok[0] in ("%param", "%let"):
            for k, v in (x.split("=", 1) for x in tok[1:]):
                dirs["param"][k] = int(v) if tok[0] == "%param" else v
            continue
        if tok[0] in ("%mesh", "%params"):
            dirs[tok[0][1:]] = tok[1]
            continue
        path, fmt, opts = tok[0], None, {}
        for x in tok[1:]:
            if "=" in x:
                k, v = x.split("=", 1)
                if k not in ("alias", "xlate", "fields", "per", "split", "part", "head"):
                    raise ListError(f"{n}: unknown option {k}")
                opts[k] = v
            elif x in FLAGS:
                fmt = x
            elif x == "closed":
                opts["closed"] = "1"
            else:
                raise ListError(f"{n}: unknown format {x}")
        groups[-1][1].append((path, fmt, opts))
    return [g for g in groups if g[1]], dirs


def router_index(spec, p):
    """Router index from --router (N or x,y[,z]); default the middle router of the block."""
    k = (p.get("K0", 1), p.get("K1", 1), p.get("K2", 1))
    if spec is None:
        c = [(ki - 1) // 2 for ki in k]
    elif "," in spec:
        c = [int(x) for x in spec.split(",")] + [0, 0]
    else:
        r = int(spec)
        c = [r % k[0], r // k[0] % k[1], r // (k[0] * k[1])]
        if r >= k[0] * k[1] * k[2]:
            raise ListError(f"router {r} is not in a {k[0]}x{k[1]}x{k[2]} block")
    if any(not 0 <= c[i] < k[i] for i in range(3)):
        raise ListError(f"router {spec} is not in a {k[0]}x{k[1]}x{k[2]} block")
    return c[0] + k[0] * (c[1] + k[1] * c[2]), c[:3]


def port_names(dims, local=True):
    return [f"{a}{s}" for a in "XYZ"[:dims] for s in "+-"] + (["L"] if local else [])


def subst(text, env):
    """{EXPR} replaced by the value of EXPR (parameters, r, nodes); {link} left for expand."""
    def one(m):
        if m.group(1) == "link":
            return m.group(0)
        try:
            return str(eval(m.group(1), {"__builtins__": {}}, env))  # noqa: S307 (our own lists)
        except Exception as e:
            raise ListError(f"{text}: cannot evaluate {{{m.group(1)}}} ({e}; parameters: {sorted(env)})")
    for _ in range(4):  # a %let text may hold {EXPR} itself
        new = re.sub(r"\{([^{}]+)\}", one, text) if text else text
        if new == text:
            break
        text = new
    return text


def expand(groups, dirs, router):
    """Templates substituted: [(group, [(path, fmt, opts, label)])]."""
    env, out = dict(dirs["param"]), []
    if dirs["mesh"]:
        env["r"], _ = router_index(router, env)
        env["nodes"] = env.get("K0", 1) * env.get("K1", 1) * env.get("K2", 1)
    elif router is not None:
        raise ListError("--router needs a %mesh list")
    nn = 2 * env.get("Dims", 2)
    for name, sigs in groups:
        rows = []
        for path, fmt, opts in sigs:
            path, opts = subst(path, env), {k: subst(v, env) for k, v in opts.items()}
            if "{link}" in path:
                if "r" not in env:
                    raise ListError(f"{path}: {{link}} needs a %mesh line")
                for o, pn in enumerate(port_names(nn // 2, local=False)):
                    rows.append((path.replace("{link}", str(env["r"] * nn + o)), fmt, opts, pn))
            else:
                rows.append((path, fmt, opts, None))
        out.append((subst(name, env), rows))
    return out


def base(path):
    return RANGE.sub("", path)


def fit(groups, have, strict):
    """Paths replaced by the trace's (its ranges); missing ones dropped or, strict, reported."""
    out, missing = [], []
    for name, rows in groups:
        kept = []
        for path, fmt, opts, label in rows:
            if base(path) in have:
                kept.append((have[base(path)].path, fmt, opts, label))
            else:
                missing.append(base(path))
        if kept:
            out.append((name, kept))
    return out, missing


# ------------------------------------------------------------------ save file
def head_xlate(width, signed, head_bits):
    """(file name, text) of the translate file of a head-only field: the value (head bits << width |
    field), the field's decimal value where the head bits are 0, "-" elsewhere."""
    name = f"head.{'s' if signed else 'u'}{width}.i{head_bits}.txt"
    lines = [f"# a {'signed' if signed else 'unsigned'} {width}-bit field of a head flit: decoded where the flit's "
             f"{head_bits} index bits (the higher ones) are 0, '-' on body flits",
             "# GENERATED by scripts/wave/gen_gtkw.py (head=); do not edit."]
    for idx in range(1 << head_bits):
        for v in range(1 << width):
            shown = (v - (1 << width) if signed and v >> (width - 1) else v) if idx == 0 else "-"
            lines.append(f"{idx << width | v} {shown}")
    return name, "\n".join(lines) + "\n"


def rtl_xlate(ref):
    """(file name, text) of the translate file of the localparam statement naming `rtl:MOD.NAME`."""
    mod, _, name = ref[4:].partition(".")
    files = list(ROOT.glob(f"rtl/*/{mod}.sv"))
    if not files:
        raise ListError(f"xlate={ref}: no rtl/*/{mod}.sv")
    text = re.sub(r"//[^\n]*", "", files[0].read_text())
    m = re.search(r"localparam\s+logic\s*(?:\[\d+:\d+\])?\s*([^;]*\b" + name + r"\s*=[^;]*);", text)
    if not m:
        raise ListError(f"xlate={ref}: no `localparam logic ... {name} = ...;` in {files[0].relative_to(ROOT)}")
    base_of = {"d": 10, "h": 16, "b": 2, "o": 8}
    codes = [(n, int(v, base_of[b.lower()])) for n, b, v in
             re.findall(r"(\w+)\s*=\s*\d*'([dDhHbBoO])([0-9a-fA-F_]+)", m.group(1))]
    src = files[0].relative_to(ROOT)
    lines = [f"# {mod}: {', '.join(n for n, _ in codes)}",
             f"# GENERATED by scripts/wave/gen_gtkw.py from the localparams of {src}; do not edit."]
    return f"rtl.{mod}.{name}.txt", "\n".join(lines + [f"{v} {n}" for n, v in codes]) + "\n"


class Writer:
    """Save-file lines. Translate files are named absolute for a trace's own save file, relative to
    the repository (GTKWave started there) in the checked-in ones."""

    def __init__(self, absolute):
        self.o, self.xlates, self.absolute = [], {}, absolute

    def row(self, flags, name, xlate=None):
        self.o.append(f"@{flags:x}")
        if xlate and xlate.startswith(("rtl:", "head:")):
            fname, text = rtl_xlate(xlate) if xlate.startswith("rtl:") else head_xlate(*(int(x) for x in xlate[5:].split(",")))
            xlate = fname[:-4]
            f = XLATE_DIR / fname
            if not f.is_file() or f.read_text() != text:
                f.write_text(text)
        elif xlate:
            f = XLATE_DIR / f"{xlate}.txt"
            if not f.is_file():
                raise ListError(f"no translate file {f} (make regs writes it from the TOML enum)")
        if xlate:
            n = self.xlates.setdefault(xlate, len(self.xlates) + 1)
            self.o.append(f"^{n} {f if self.absolute else f.relative_to(ROOT)}")
        self.o.append(name)

    def group(self, name, begin, closed=False):
        # as GTKWave writes a closed group: its begin closed, its end closed and collapsed
        flags = (GROUP_BEGIN | (CLOSED if closed else 0)) if begin else GROUP_END | (CLOSED | 0x1000 if closed else 0)
        self.o += [f"@{flags:x}", f"-{name}"]


def bits(path, lo, width):
    """GTKWave's name of bits [lo+width-1:lo] of a vector: (i)path, i counted from the msb."""
    m = RANGE.search(path)
    msb, lsb = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    return " ".join(f"({msb - (lsb + b)}){path}" for b in range(lo + width - 1, lo - 1, -1))


def width_of(path):
    m = RANGE.search(path)
    return int(m.group(1)) - int(m.group(2)) + 1 if m else 1


def signal(w, path, fmt, opts, label, dims, formats):
    """One list line: the signal, or a group with it and its slices and fields."""
    opts = dict(opts)
    short = opts.get("alias") or base(path).rsplit(".", 1)[-1] + (f" {label}" if label else "")
    fmt = fmt or ("hex" if width_of(path) > 1 else "bin")
    ref = opts.get("fields")
    if not ref and not {"per", "split", "part"} & set(opts):
        if opts.get("xlate"):
            w.row(XLATED, f"#{{{short}}} {bits(path, 0, width_of(path))}", opts["xlate"])
        elif "alias" in opts or label:
            w.row(FLAGS[fmt], f"+{{{short}}} {path}")
        else:
            w.row(FLAGS[fmt], path)
        return
    fields = []
    if ref:
        fields = sv_fields(ref) if "_pkg." in ref else toml_fields(ref, formats)
        names = {f[0] for f in fields}
        for item in filter(None, opts.pop("xlate", "").split(",")):
            fname, _, enum = item.partition(":")
            if fname not in names or not enum:
                raise ListError(f"{path}: xlate={item}: {ref} has no field {fname} (FIELD:BLOCK.ENUM)")
            fields = [(n, lo, fw, "dec", enum) if n == fname else (n, lo, fw, ff, x) for n, lo, fw, ff, x in fields]
    slices = [(None, 0, width_of(path))]
    if "per" in opts or "split" in opts:
        if opts.get("split", "").isdigit():
            names = [str(i) for i in range(int(opts["split"]))]
        elif "split" in opts:
            names = opts["split"].split(",")[::-1]
        elif opts["per"] in ("port", "net"):
            names = port_names(dims, local=opts["per"] == "port")
        else:
            raise ListError(f"{path}: per={opts['per']}: port or net")
        if width_of(path) % len(names):
            raise ListError(f"{path}: {len(names)} slices do not divide {width_of(path)} bits")
        sw = width_of(path) // len(names)
        slices = [(pn, i * sw, sw) for i, pn in enumerate(names)]
    if "part" in opts:
        i, n = (int(x) for x in opts["part"].split("/"))
        if width_of(path) % n or not 0 <= i < n:
            raise ListError(f"{path}: part={opts['part']} is not a slice of {width_of(path)} bits")
        sw = width_of(path) // n
        short = opts.get("alias") or f"{short}[{i}]"
        if not fields:
            w.row(FLAGS["bin" if sw == 1 else fmt], f"#{{{short}}} {bits(path, i * sw, sw)}")
            return
        slices = [(None, i * sw, sw)]
    w.group(short, True, "closed" in opts)
    if "part" not in opts:
        w.row(FLAGS[fmt], f"+{{{short}}} {path}")
    for pn, lo, sw in slices:
        pre = f"{short} {pn}" if pn else short
        # GTKWave shows an alias from its last '.': a field of a slice reads "X+ HOPS[0]"
        fname = (lambda n: f"{short}.{pn} {n.rsplit('.', 1)[-1]}") if pn else (lambda n: f"{short}.{n}")
        if not fields and opts.get("xlate"):
            w.row(XLATED, f"#{{{pre}}} {bits(path, lo, sw)}", opts["xlate"])
        elif not fields:
            w.row(FLAGS["bin" if sw == 1 else fmt], f"#{{{pre}}} {bits(path, lo, sw)}")
        head = opts.get("head")
        for name, flo, fw, ffmt, xl in fields:
            if flo + fw > sw:
                raise ListError(f"{path}: field {name} of {ref} does not fit in {sw} bits")
            if head and not xl and fw > 1:  # the head flit's index bits, then the field: decoded on heads only
                hlo, hw = (int(x) for x in head.split(":"))
                if hlo + hw > sw:
                    raise ListError(f"{path}: head={head} does not fit in a flit of {sw} bits")
                w.row(XLATED, f"#{{{fname(name)}}} {bits(path, lo + hlo, hw)} {bits(path, lo + flo, fw)}",
                      f"head:{fw},{int(ffmt == 'sdec')},{hw}")
                continue
            w.row(XLATED if xl else FLAGS[ffmt], f"#{{{fname(name)}}} {bits(path, lo + flo, fw)}", xl)
    w.group(short, False, "closed" in opts)


def signals_px(lines):
    """About the width GTKWave gives the signal-name pane: it widens it to the longest name shown
    (a group's name and " {", an alias's or a path's last part)."""
    longest = 0
    for line in lines:
        if line.startswith("-"):
            shown = line[1:] + " {"
        elif line[:2] in ("#{", "+{"):
            shown = line[2:line.index("}")].rsplit(".", 1)[-1]
        elif line[:1] in ("@", "^", "["):
            continue
        else:
            shown = RANGE.sub("", line).rsplit(".", 1)[-1] + (RANGE.search(line) or [""])[0]
        longest = max(longest, len(shown))
    return max(SIGNALS_W, CHAR_PX * longest + 40)


def gtkw(groups, dims, formats, dumpfile=None, hdr=None, trace=None):
    w = Writer(absolute=hdr is not None)
    for name, rows in groups:
        if name:
            w.group(name, True)
        for path, fmt, opts, label in rows:
            signal(w, path, fmt, opts, label, dims, formats)
        if name:
            w.group(name, False)
    pane = signals_px(w.o)
    head = ["[*] GENERATED by scripts/wave/gen_gtkw.py"]
    if dumpfile:
        head.append(f'[dumpfile] "{dumpfile}"')
    view = readable_view(trace, groups, hdr, pane) if trace and hdr else None
    if view:
        head += view_comments(view, hdr)
    mul = gtkwave_units(hdr)
    head += [f"[timestart] {hdr['start'] * mul if hdr else 0}", f"[size] {SIZE[0]} {SIZE[1]}"]
    if hdr:
        head.append(zoom_line((view[0] if view else hdr["end"] - hdr["start"]) * mul, pane))
    head += [f"[sst_width] {SST_W}", f"[signals_width] {pane}", "[sst_expanded] 0", "[sst_vpaned_height] 250"]
    return "\n".join(head + w.o) + "\n"


def load(sigs, trace, router, strict):
    """The expanded groups and parameters of a list, fitted to `trace` when one is given."""
    groups, dirs = parse_list(sigs)
    scope = dirs["mesh"] or dirs["params"]
    if trace and scope:
        dirs["param"].update(fstinfo.parameters(trace, scope))
    groups = expand(groups, dirs, router)
    missing = []
    if trace:
        have = {base(v.path): v for v in fstinfo.variables(trace)}
        groups, missing = fit(groups, have, strict)
    return groups, dirs["param"], missing


def top_module(trace):
    return next((v.scope.split(".")[1] for v in fstinfo.variables(trace) if v.scope.count(".") >= 1), "TOP")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--list", help="signal list (.sigs)")
    g.add_argument("--trace", help="take the signals of one scope of this trace")
    g.add_argument("--top", metavar="TRACE", help="print the top module of TRACE")
    g.add_argument("--signals", metavar="TRACE", help="print every signal path of TRACE")
    g.add_argument("--find", metavar="NAME", help="print the path of rtl/<block>/wave/NAME (exit 1: none)")
    ap.add_argument("--scope", help="scope for --trace (default TOP.<top module>)")
    ap.add_argument("--fit", metavar="TRACE", help="with --list: fit the save file to TRACE")
    ap.add_argument("--check", metavar="TRACE", help="with --list: every signal must be in TRACE")
    ap.add_argument("--router", help="with a %%mesh list: router index N or x,y[,z]")
    ap.add_argument("--dumpfile", help="trace to name in the save file")
    ap.add_argument("-o", "--out")
    a = ap.parse_args()
    try:
        if a.top:
            print(top_module(a.top))
            return 0
        if a.signals:
            print("\n".join(v.path for v in fstinfo.variables(a.signals)))
            return 0
        if a.find:
            f = find_wave_file(a.find)
            if f:
                print(f)
            return 0 if f else 1
        if a.list and a.check:
            groups, _, missing = load(a.list, a.check, a.router, True)
            n = sum(len(r) for _, r in groups)
            if missing:
                print(f"gen_gtkw: {len(missing)} of {n + len(missing)} signals of {a.list} are not in "
                      f"{a.check}:\n  " + "\n  ".join(missing), file=sys.stderr)
                return 1
            print(f"gen_gtkw: all {n} signals of {a.list} are in {a.check}")
            return 0
        if not a.out:
            raise ListError("-o OUT.gtkw is needed")
        if a.list:
            groups, p, missing = load(a.list, a.fit, a.router, False)
            if missing:
                print(f"gen_gtkw: not in {a.fit}, left out: {' '.join(missing)}", file=sys.stderr)
            hdr = fstinfo.header(a.fit) if a.fit else None
            text = gtkw(groups, p.get("Dims", 2), toml_formats(), a.dumpfile, hdr, a.fit)
        else:
            scope = a.scope or f"TOP.{top_module(a.trace)}"
            rows = [(v.path, None, {}, None) for v in fstinfo.variables(a.trace) if v.scope == scope]
            if not rows:
                raise ListError(f"no signals in scope {scope}")
            text = gtkw([(scope.split(".")[-1], rows)], 2, {}, a.dumpfile, fstinfo.header(a.trace))
        pathlib.Path(a.out).write_text(text)
    except ListError as e:
        sys.exit(f"gen_gtkw: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
