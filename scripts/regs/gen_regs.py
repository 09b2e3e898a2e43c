#!/usr/bin/env python3
"""gen_regs.py: register-map and format generator (python stdlib only). Schema: docs/regs.md.

Reads block descriptions rtl/<dir>/<stem>.toml ([block], [[reg]], [[array]], [[format]], [[enum]])
and writes, relative to an output root:
    rtl/<dir>/<stem>_pkg.sv             SystemVerilog package (Yosys 0.23 subset); not with package = false
    sw/include/hpcnet/<stem>.hpp        C++20 header-only constants, enums and format structs
                                        (namespace hpcnet::<stem>): it includes one header per
    sw/include/hpcnet/<stem>/<part>.hpp part, codes, regs and formats (CXX_PARTS)
    docs/<stem>.md                      Markdown tables
    scripts/wave/xlate/<block>.<enum>.txt   GTKWave translate file of each enum (decimal code, name;
                                        scripts/wave/gen_gtkw.py names them in the save files)
and fills every generated region of the hand-written SystemVerilog files under rtl/:
    // BEGIN GENERATED (gen_regs): <block>.<item> ...
    // END GENERATED (gen_regs)
with the localparams and typedefs of the enums and formats it names, in that order.
Usage:
    gen_regs.py --out ROOT  A.toml [B.toml ...]   write the files under ROOT (regions: ROOT's copy
                                                  of each host file, read from this repository)
    gen_regs.py --check ROOT A.toml [...]         compare with ROOT, print a diff, exit 1 on drift
    gen_regs.py --list A.toml [...]               print the generated paths (relative to ROOT)
Pass every TOML: a region may name items of any block.
"""
import argparse
import difflib
import pathlib
import re
import sys
import textwrap
import tomllib

REPO = pathlib.Path(__file__).resolve().parents[2]
BEGIN = re.compile(r"^(\s*)// BEGIN GENERATED \(gen_regs\):((?:\s+[a-z0-9_]+\.[a-z0-9_]+(?::[0-9]+)?)+)\s*$")
END = re.compile(r"^\s*// END GENERATED \(gen_regs\)\s*$")

SV_KEYWORDS = set("""alias always always_comb always_ff always_latch and assert assign assume automatic before
begin bind bins binsof bit break buf bufif0 bufif1 byte case casex casez cell chandle checker class clocking
cmos config const constraint context continue cover covergroup coverpoint cross deassign default defparam
design disable dist do edge else end endcase endchecker endclass endclocking endconfig endfunction endgenerate
endgroup endinterface endmodule endpackage endprimitive endprogram endproperty endspecify endsequence endtable
endtask enum event eventually expect export extends extern final first_match for force foreach forever fork
forkjoin function generate genvar global highz0 highz1 if iff ifnone ignore_bins illegal_bins implements
implies import incdir include initial inout input inside instance int integer interconnect interface
intersect join join_any join_none large let liblist library local localparam logic longint macromodule
matches medium modport module nand negedge nettype new nexttime nmos nor noshowcancelled not notif0 notif1
null or output package packed parameter pmos posedge primitive priority program property protected pull0
pull1 pulldown pullup pulsestyle_ondetect pulsestyle_onevent pure rand randc randcase randsequence rcmos real
realtime ref reg reject_on release repeat restrict return rnmos rpmos rtran rtranif0 rtranif1 s_always
s_eventually s_nexttime s_until s_until_with scalared sequence shortint shortreal showcancelled signed small
soft solve specify specparam static string strong strong0 strong1 struct super supply0 supply1
sync_accept_on sync_reject_on table tagged task this throughout time timeprecision timeunit tran tranif0
tranif1 tri tri0 tri1 triand trior trireg type typedef union unique unique0 unsigned until until_with
untyped use uwire var vectored virtual void wait wait_order wand weak weak0 weak1 while wildcard wire with
within wor xnor xor""".split())
CXX_KEYWORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
co_return co_yield decltype default delete do double dynamic_cast else enum explicit export extern false
float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or
or_eq private protected public register reinterpret_cast requires return short signed sizeof static
static_assert static_cast struct switch template this thread_local throw true try typedef typeid typename
union unsigned using virtual void volatile wchar_t while xor xor_eq""".split())


class MapError(Exception):
    pass


# The keys each table may have (a misspelt key is an error, not a silently ignored line).
KEYS = {
    "block": {"name", "title", "package", "import", "bar_bytes", "word_bytes"},
    "reg": {"name", "offset", "access", "desc", "fields"},
    "array": {"name", "offset", "stride", "count", "count_param", "desc", "regs"},
    "enum": {"name", "width", "desc", "values", "package"},
    "value": {"name", "value", "desc"},
    "format": {"name", "bits", "desc", "fields", "package", "part"},
    "field": {"name", "lsb", "width", "count", "signed", "enum", "format", "reserved", "reset", "desc"},
}


def keys_ok(path, kind, table):
    extra = set(table) - KEYS[kind]
    if extra:
        raise MapError(f"{path}: {kind} {table.get('name', '')}: unknown key(s) {', '.join(sorted(extra))}")


# ------------------------------------------------------------------ loading and checks
class Block:
    """One TOML: its dict, file stem (names of the outputs), repo-relative path and imports."""

    def __init__(self, d, path, imports):
        self.d, self.path, self.imports = d, path, imports
        self.name = d["block"]["name"]
        self.stem = path.stem
        self.prefix = self.name.upper()
        self.enums = {e["name"]: e for e in d["enum"]}
        self.formats = {f["name"]: f for f in d["format"]}

    def src(self):
        return self.path.relative_to(REPO).as_posix()

    def is_regmap(self):
        return bool(self.d["reg"] or self.d["array"])

    def lookup(self, kind, ref):
        """(owning block, item) of an enum or format named `name` or `block.name`."""
        blk, _, name = ref.rpartition(".")
        owner = self if blk in ("", self.name) else next((b for b in self.imports if b.name == blk), None)
        table = None if owner is None else (owner.enums if kind == "enum" else owner.formats)
        if not table or name not in table:
            raise MapError(f"{self.src()}: unknown {kind} {ref} (an import of [block] names other blocks)")
        return owner, table[name]


def load(path, cache):
    path = pathlib.Path(path).resolve()
    if path in cache:
        if cache[path] is None:
            raise MapError(f"{path}: imports itself")
        return cache[path]
    cache[path] = None
    with open(path, "rb") as f:
        d = tomllib.load(f)
    blk = d.get("block", {})
    if "name" not in blk:
        raise MapError(f"{path}: [block] needs a name")
    for k in ("reg", "array", "format", "enum"):
        d.setdefault(k, [])
    keys_ok(path, "block", blk)
    for kind in ("reg", "array", "format", "enum"):
        for t in d[kind]:
            keys_ok(path, kind, t)
            for r in t.get("regs", []):
                keys_ok(path, "reg", r)
            for f in t.get("fields", []) + [x for r in t.get("regs", []) for x in r.get("fields", [])]:
                keys_ok(path, "field", f)
            for v in t.get("values", []):
                keys_ok(path, "value", v)
    imports = [load(REPO / p, cache) for p in blk.get("import", [])]
    b = Block(d, path, imports)
    validate(b)
    cache[path] = b
    return b


def span(f):
    return f["width"] * f.get("count", 1)


def fields_ok(b, owner, fields, limit, one_word):
    """Widths, overlaps and references of the fields of a register (one_word) or a format."""
    used, names = 0, set()
    for f in fields:
        where = f"{b.src()}: {owner}.{f['name']}"
        if f["name"] in names:
            raise MapError(f"{where} is defined twice")
        names.add(f["name"])
        if "format" in f:
            ob, sub = b.lookup("format", f["format"])
            if ob is not b or list(b.formats).index(sub["name"]) >= list(b.formats).index(owner):
                raise MapError(f"{where}: a nested format must be an earlier format of the same block")
            f.setdefault("width", sub["bits"])
            if f["width"] != sub["bits"] or f.get("signed") or "enum" in f:
                raise MapError(f"{where}: a nested format field is exactly the format (no width/signed/enum)")
        lsb, w, n = f["lsb"], f["width"], f.get("count", 1)
        if w < 1 or n < 1 or lsb + w * n > limit:
            raise MapError(f"{where} does not fit in {limit} bits")
        if w > 64 and "format" not in f:
            raise MapError(f"{where}: fields are at most 64 bits wide (use count or a nested format)")
        if one_word and lsb // 64 != (lsb + w - 1) // 64:
            raise MapError(f"{where} crosses a 64-bit word")
        if "enum" in f:
            _, e = b.lookup("enum", f["enum"])
            if any(v["value"] >> w for v in e["values"]):
                raise MapError(f"{where} is too narrow for the values of enum {f['enum']}")
        bits = ((1 << (w * n)) - 1) << lsb
        if used & bits:
            raise MapError(f"{where} overlaps another field")
        used |= bits
        if "reset" in f and f["reset"] >> w:
            raise MapError(f"{where} reset does not fit")


def validate(b):
    d = b.d
    word_bits = 8 * d["block"].get("word_bytes", 8)
    for r in d["reg"]:
        fields_ok(b, r["name"], r.get("fields", []), word_bits, True)
    for a in d["array"]:
        for r in a["regs"]:
            fields_ok(b, f"{a['name']}.{r['name']}", r.get("fields", []), word_bits, True)
            if r["offset"] >= a["stride"]:
                raise MapError(f"{b.src()}: {a['name']}.{r['name']} offset outside the stride")
    for e in d["enum"]:
        if "width" not in e:
            raise MapError(f"{b.src()}: enum {e['name']} needs a width")
        for v in e["values"]:
            if v["value"] >> e["width"]:
                raise MapError(f"{b.src()}: {e['name']}.{v['name']} does not fit in {e['width']} bits")
    for f in d["format"]:
        if f.get("part", "formats") not in ("regs", "formats") or (f.get("part") == "regs" and not b.is_regmap()):
            raise MapError(f"{b.src()}: format {f['name']}: part is \"formats\" or, in a block with registers, \"regs\"")
        fields_ok(b, f["name"], f["fields"], 1 << 20, False)
        top = max(fx["lsb"] + span(fx) for fx in f["fields"])
        f.setdefault("bits", 64 * ((top + 63) // 64))
        if f["bits"] < top:
            raise MapError(f"{b.src()}: format {f['name']} is {f['bits']} bits but its fields reach bit {top - 1}")


def camel(name):
    return "".join(p.capitalize() for p in name.split("_"))


def words(f):
    return (f["bits"] + 63) // 64


def bit_range(lo, n):
    return f"{lo + n - 1}:{lo}" if n > 1 else f"{lo}"


class Names:
    """Rejects a generated identifier that was already emitted (e.g. REG_FIELD vs FORMAT_FIELD)."""

    def __init__(self, where):
        self.seen, self.where = set(), where

    def __call__(self, name):
        if name in self.seen:
            raise MapError(f"{self.where}: generated name {name} is not unique")
        self.seen.add(name)
        return name


def comment(ind, text, width=100):
    """A // comment wrapped to `width` columns."""
    return textwrap.wrap(text, width, initial_indent=f"{ind}// ", subsequent_indent=f"{ind}//   ",
                         break_on_hyphens=False) or [f"{ind}//"]


def member(name, keywords):
    """A field's struct member name: lower case, with a trailing _ where it is a keyword."""
    m = name.lower()
    return m + "_" if m in keywords else m


# ------------------------------------------------------------------ SystemVerilog
def sv_fields(o, n, prefix, fs, ind):
    for f in fs:
        p = f"{prefix}_{f['name']}"
        o.append(f"{ind}localparam int unsigned {n(p + '_LSB')} = {f['lsb']};")
        o.append(f"{ind}localparam int unsigned {n(p + '_WIDTH')} = {f['width']};")
        if f.get("count", 1) > 1:
            o.append(f"{ind}localparam int unsigned {n(p + '_COUNT')} = {f['count']};")
        if "reset" in f:
            w = f["width"]
            o.append(f"{ind}localparam logic [{w - 1}:0] {n(p + '_RESET')} = {w}'h{f['reset']:x};")


def sv_enum(o, n, b, e, ind, w=None):
    """The codes as localparams of the enum's width, or of w bits (a region's `item:w`)."""
    E, w = f"{b.prefix}_{e['name'].upper()}", w or e["width"]
    o += comment(ind, f"{e['name']}: {e.get('desc', '')}")
    o.append(f"{ind}localparam int unsigned {n(E + '_WIDTH')} = {w};")
    for v in e["values"]:
        o.append(f"{ind}localparam logic [{w - 1}:0] {n(E + '_' + v['name'])} = {w}'d{v['value']};")


def sv_logic(w):
    return f"logic [{w - 1}:0]" if w > 1 else "logic"


def sv_format(o, n, b, f, ind):
    """Localparams of the positions, then the packed struct (first member = most significant;
    bits no field covers become rsvd_<lsb> members)."""
    F = f"{b.prefix}_{f['name'].upper()}"
    o += comment(ind, f"{f['name']} ({f['bits']} bits): {f.get('desc', '')}")
    o.append(f"{ind}localparam int unsigned {n(F + '_BITS')} = {f['bits']};")
    sv_fields(o, n, F, f["fields"], ind)
    members, top = [], f["bits"]
    for fx in sorted(f["fields"], key=lambda x: -x["lsb"]):
        hi = fx["lsb"] + span(fx)
        if hi < top:
            members.append((sv_logic(top - hi), f"rsvd_{hi}", f"[{bit_range(hi, top - hi)}] reserved"))
        if "format" in fx:
            typ = f"{fx['format'].rpartition('.')[2]}_t"
        else:
            typ = sv_logic(span(fx))
        note = f"[{bit_range(fx['lsb'], span(fx))}]"
        if fx.get("count", 1) > 1:
            note += f" {fx['count']} x {fx['width']} bits, element i at lsb + i*{fx['width']}"
        if "enum" in fx:
            note += f" {fx['enum']}"
        if fx.get("reserved"):
            note += " reserved"
        members.append((typ, member(fx["name"], SV_KEYWORDS), note))
        top = fx["lsb"]
    if top > 0:
        members.append((sv_logic(top), "rsvd_0", f"[{bit_range(0, top)}] reserved"))
    tw = max(len(t) for t, _, _ in members)
    mw = max(len(m) for _, m, _ in members) + 1
    o.append(f"{ind}typedef struct packed {{")
    o += [f"{ind}  {t:<{tw}} {m + ';':<{mw}}  // {c}" for t, m, c in members]
    o.append(f"{ind}}} {n(f['name'] + '_t')};")


def gen_sv(b):
    n = Names(b.src())
    d = b.d
    P = b.prefix
    o = [f"// {b.stem}_pkg: {'register offsets, field positions, ' if b.is_regmap() else ''}formats and codes of "
         f"{d['block'].get('title', b.name)}.",
         f"// GENERATED by scripts/regs/gen_regs.py from {b.src()}; do not edit (run `make regs`).",
         f"package {b.stem}_pkg;", "",
         "  // A user reads only some of these constants.", "  /* verilator lint_off UNUSEDPARAM */", ""]
    # offsets are as wide as the BAR needs (at least 16 bits)
    aw = max(16, (int(d["block"].get("bar_bytes", 0x10000)) - 1).bit_length())
    def off(v):
        return f"logic [{aw - 1}:0]", f"{aw}'h{v:04x}"
    o.append("  // ---- registers")
    for r in d["reg"]:
        t, v = off(r['offset'])
        o.append(f"  localparam {t} {n(P + '_' + r['name'] + '_OFFSET')} = {v};")
        sv_fields(o, n, f"{P}_{r['name']}", r.get("fields", []), "  ")
    o.append("")
    o.append("  // ---- arrays (element i at OFFSET + i*STRIDE; COUNT is the default-parameter count)")
    for a in d["array"]:
        A = f"{P}_{a['name']}"
        t, v = off(a['offset'])
        o.append(f"  localparam {t} {n(A + '_OFFSET')} = {v};")
        t, v = off(a['stride'])
        o.append(f"  localparam {t} {n(A + '_STRIDE')} = {v};")
        o.append(f"  localparam int unsigned {n(A + '_COUNT')} = {a['count']};  // {a.get('count_param', '')}")
        for r in a["regs"]:
            t, v = off(r['offset'])
            o.append(f"  localparam {t} {n(A + '_' + r['name'] + '_OFFSET')} = {v};")
            sv_fields(o, n, f"{A}_{r['name']}", r.get("fields", []), "  ")
    o.append("")
    o.append("  // ---- formats (LSB counts from bit 0 of the whole format; package = false: regions only)")
    for f in d["format"]:
        if f.get("package", True):
            sv_format(o, n, b, f, "  ")
    o.append("")
    o.append("  // ---- codes")
    for e in d["enum"]:
        if e.get("package", True):
            sv_enum(o, n, b, e, "  ")
    o += ["", "  /* verilator lint_on UNUSEDPARAM */", "endpackage", ""]
    return "\n".join(o)


def gen_region(blocks, items, ind, where):
    """The body of one generated region: the named enums and formats, in the order given."""
    n = Names(where)
    for item in items:
        if item.partition(".")[0] not in blocks:
            raise MapError(f"{where}: unknown block in {item} (pass every TOML to gen_regs.py)")
    srcs = ", ".join(sorted({blocks[i.partition('.')[0]].src() for i in items}))
    o = [f"{ind}// Generated by scripts/regs/gen_regs.py (`make regs`); do not edit. Source:"]
    o += comment(ind, srcs)
    o.append(f"{ind}/* verilator lint_off UNUSEDPARAM */")
    emitted = set()
    for item in items:
        blk, _, name = item.partition(".")
        name, _, width = name.partition(":")
        b = blocks[blk]
        if name in b.enums:
            e = b.enums[name]
            if width and any(v["value"] >> int(width) for v in e["values"]):
                raise MapError(f"{where}: the values of {blk}.{name} do not fit in {width} bits")
            sv_enum(o, n, b, e, ind, int(width or 0))
        elif width:
            raise MapError(f"{where}: {item}: only an enum takes a width")
        elif name in b.formats:
            f = b.formats[name]
            for fx in f["fields"]:
                if "format" in fx and f"{blk}.{fx['format'].rpartition('.')[2]}" not in emitted:
                    raise MapError(f"{where}: {item} nests {fx['format']}: name it earlier in the region")
            sv_format(o, n, b, f, ind)
        else:
            raise MapError(f"{where}: {b.src()} has no enum or format {name}")
        emitted.add(item)
    o.append(f"{ind}/* verilator lint_on UNUSEDPARAM */")
    return o


def regions(blocks):
    """{repo-relative path: text} for every hand-written .sv file under rtl/ with regions."""
    out = {}
    for path in sorted((REPO / "rtl").rglob("*.sv")):
        text = path.read_text()
        if "BEGIN GENERATED (gen_regs)" not in text:
            continue
        rel = path.relative_to(REPO).as_posix()
        lines, res, i = text.split("\n"), [], 0
        while i < len(lines):
            res.append(lines[i])
            m = BEGIN.match(lines[i])
            if "BEGIN GENERATED (gen_regs)" in lines[i] and not m:
                raise MapError(f"{rel}:{i + 1}: malformed region marker")
            if m:
                j = i + 1
                while j < len(lines) and not END.match(lines[j]):
                    if BEGIN.match(lines[j]):
                        raise MapError(f"{rel}:{j + 1}: region inside a region")
                    j += 1
                if j == len(lines):
                    raise MapError(f"{rel}:{i + 1}: region without its END line")
                res += gen_region(blocks, m.group(2).split(), m.group(1), f"{rel}:{i + 1}")
                i = j
                continue
            i += 1
        out[rel] = "\n".join(res)
    return out


# ------------------------------------------------------------------ C++ header
def cxx_uint(w):
    return "std::uint8_t" if w <= 8 else "std::uint16_t" if w <= 16 else "std::uint32_t" if w <= 32 else "std::uint64_t"


def cxx_type(b, f):
    """The C++ type of one element of field f, and how it converts to and from the raw bits."""
    if "format" in f:
        return camel(f["format"].rpartition(".")[2]), "format"
    if "enum" in f:
        ob, e = b.lookup("enum", f["enum"])
        return (camel(e["name"]) if ob is b else f"{ob.stem}::{camel(e['name'])}"), "enum"
    if f.get("signed"):
        return ("std::int32_t" if f["width"] <= 32 else "std::int64_t"), "signed"
    if f["width"] == 1:
        return "bool", "bool"
    return ("std::uint32_t" if f["width"] <= 32 else "std::uint64_t"), "uint"


def cxx_format(o, n, b, f):
    F, T = f["name"].upper(), camel(f["name"])
    o += comment("", f"{f['name']} ({f['bits']} bits): {f.get('desc', '')}")
    o.append(f"inline constexpr unsigned {n(F + '_WORDS')} = {words(f)};")
    for fx in f["fields"]:
        p = f"{F}_{fx['name']}"
        o.append(f"inline constexpr Field {n(p)}{{{fx['lsb'] // 64}, {fx['lsb'] % 64}, {fx['width']}}};")
        if fx.get("count", 1) > 1:
            o.append(f"inline constexpr unsigned {n(p + '_COUNT')} = {fx['count']};")
    put, get, mem = [], [], []
    for fx in f["fields"]:
        m, p = member(fx["name"], CXX_KEYWORDS), f"{F}_{fx['name']}"
        typ, how = cxx_type(b, fx)
        cnt = fx.get("count", 1)
        fld, el = (f"{p}.at(i)", f"{m}[i]") if cnt > 1 else (p, m)
        if how == "format":
            w = f"formats::put_words(w.data(), {fld}.bit(), {typ}::kBits, {el}.pack())"
            r = f"{typ}::unpack(formats::get_words<{typ}::kWords>(w.data(), {fld}.bit(), {typ}::kBits))"
        elif how in ("enum", "signed"):
            w = f"{fld}.write(w.data(), static_cast<std::uint64_t>({el}))"
            raw = f"{fld}.read(w.data())"
            r = f"static_cast<{typ}>({raw if how == 'enum' else f'formats::sign_extend({raw}, {fld}.width)'})"
        else:
            w = f"{fld}.write(w.data(), {el})"
            r = (f"{fld}.read(w.data()) != 0" if how == "bool" else f"{fld}.read(w.data())" if typ == "std::uint64_t"
                 else f"static_cast<{typ}>({fld}.read(w.data()))")
        loop = f"for (unsigned i = 0; i < {p}_COUNT; ++i) " if cnt > 1 else ""
        put.append(f"    {loop}{w};")
        get.append(f"    {loop}r.{el} = {r};")
        n(f"{T}::{m}")
        decl = f"std::array<{typ}, {cnt}> {m}" if cnt > 1 else f"{typ} {m}"
        init = "{}" if cnt > 1 or how in ("enum", "format") else "false" if how == "bool" else "0"
        note = f"[{bit_range(fx['lsb'], span(fx))}]" + (" reserved;" if fx.get("reserved") else "")
        mem.append((decl, init, f"{note} {fx.get('desc', '')}".rstrip()))
    o.append(f"struct {n(T)} {{")
    o.append(f"  static constexpr unsigned kBits = {f['bits']}, kWords = {words(f)};")
    o.append("  using Words = std::array<std::uint64_t, kWords>;")
    for x, i, c in mem:
        o += comment("  ", c) + [f"  {x} = {i};"]
    o += ["  // The format's words (bits no field covers are 0; each field truncated to its width).",
          "  constexpr Words pack() const {", "    Words w{};"] + put + ["    return w;", "  }",
          f"  static constexpr {T} unpack(const Words& w) {{", f"    {T} r;"] + get + ["    return r;", "  }",
          f"  bool operator==(const {T}&) const = default;", "};", ""]


# The C++ header of a block is an umbrella, sw/include/hpcnet/<stem>.hpp, including one header per
# part, sw/include/hpcnet/<stem>/<part>.hpp, each in namespace hpcnet::<stem>: the codes, the
# register map with the formats that lay out a register (part = "regs"), the other formats. A part
# includes only parts before it in this order; an empty part is not written.
CXX_PARTS = {
    "codes": "codes (an enum class and to_string() per enum)",
    "regs": "register offsets and fields, and the formats that lay out a register",
    "formats": "formats (a struct with pack() and unpack() per format)",
}


def part_of(f):
    return f.get("part", "formats")


def cxx_header(b, part, body):
    """A part's header: its includes (the parts before it and the imported codes its formats
    name), then body in the block's namespace."""
    d, title = b.d, b.d["block"].get("title", b.name)
    fmts = [f for f in d["format"] if part_of(f) == part]
    order = list(CXX_PARTS)
    incl = set()
    for f in fmts:
        for fx in f["fields"]:
            if "enum" in fx:
                ob, _ = b.lookup("enum", fx["enum"])
                incl.add(f"{ob.stem}/codes")
            if "format" in fx:
                _, sub = b.lookup("format", fx["format"])
                sp = part_of(sub)
                if order.index(sp) > order.index(part):
                    raise MapError(f"{b.src()}: format {f['name']} ({part}) nests {sub['name']} ({sp}): "
                                   f"a {part} format nests only formats of its part or earlier ones")
                incl.add(f"{b.stem}/{sp}")
    incl.discard(f"{b.stem}/{part}")
    o = comment("", f"{b.stem}/{part}.hpp: {title}, {CXX_PARTS[part]}.")
    o += [f"// GENERATED by scripts/regs/gen_regs.py from {b.src()}; do not edit (run `make regs`).",
         f"// Part of hpcnet/{b.stem}.hpp (include that).",
         "#pragma once", "#include <array>", "#include <cstdint>", "", '#include "hpcnet/formats.hpp"']
    o += [f'#include "hpcnet/{i}.hpp"' for i in sorted(incl)]
    o += ["", f"namespace hpcnet::{b.stem} {{", "",
          "// Field: bits [lsb, lsb+width) of 64-bit word `word` of a register or format (hpcnet/formats.hpp).",
          "using formats::Field;", ""]
    o += body
    o += [f"}}  // namespace hpcnet::{b.stem}", ""]
    return "\n".join(o)


def cxx_formats(o, n, b, part):
    fmts = [f for f in b.d["format"] if part_of(f) == part]
    if not fmts:
        return
    o += ["// ---- formats: Field.word selects the 64-bit word, Field.lsb is inside that word; each struct",
          "// packs to and unpacks from its words (bit b of the format = bit b % 64 of word b / 64)", ""]
    for f in fmts:
        cxx_format(o, n, b, f)


def cxx_regs(o, n, b):
    d = b.d

    def fields(prefix, fs):
        for f in fs:
            p = f"{prefix}_{f['name']}"
            o.append(f"inline constexpr Field {n(p)}{{{f['lsb'] // 64}, {f['lsb'] % 64}, {f['width']}}};")
            if "reset" in f:
                o.append(f"inline constexpr std::uint64_t {n(p + '_RESET')} = 0x{f['reset']:x};")

    o += [f"inline constexpr std::uint32_t BAR_BYTES = 0x{d['block'].get('bar_bytes', 0):x};",
          f"inline constexpr std::uint32_t WORD_BYTES = {d['block'].get('word_bytes', 8)};", "",
          "// ---- registers"]
    for r in d["reg"]:
        o.append(f"inline constexpr std::uint32_t {n(r['name'] + '_OFFSET')} = 0x{r['offset']:x};")
        fields(r["name"], r.get("fields", []))
    o += ["", "// ---- arrays: element i at OFFSET + i * STRIDE; COUNT is the default-parameter count"]
    for a in d["array"]:
        A = a["name"]
        o.append(f"inline constexpr std::uint32_t {n(A + '_OFFSET')} = 0x{a['offset']:x};")
        o.append(f"inline constexpr std::uint32_t {n(A + '_STRIDE')} = 0x{a['stride']:x};")
        o.append(f"inline constexpr std::uint32_t {n(A + '_COUNT')} = {a['count']};  // {a.get('count_param', '')}")
        for r in a["regs"]:
            o.append(f"inline constexpr std::uint32_t {n(A + '_' + r['name'] + '_OFFSET')} = 0x{r['offset']:x};")
            fields(f"{A}_{r['name']}", r.get("fields", []))
    o.append("")
    cxx_formats(o, n, b, "regs")


def cxx_codes(o, n, b):
    for e in b.d["enum"]:
        T = camel(e["name"])
        o += comment("", e.get("desc", ""))
        o.append(f"enum class {n(T)} : {cxx_uint(e['width'])} {{")
        o += [f"  {v['name']} = 0x{v['value']:x},  // {v.get('desc', '')}" for v in e["values"]]
        o.append("};")
        o.append(f"constexpr const char* to_string({T} v) {{")
        o.append("  switch (v) {")
        o += [f"    case {T}::{v['name']}: return \"{v['name']}\";" for v in e["values"]]
        o += ["  }", "  return \"?\";", "}", ""]


def gen_hpp(b):
    """{repo-relative path: text}: the block's part headers and its umbrella header."""
    d, n, out = b.d, Names(b.src()), {}
    bodies = {"codes": [], "regs": [], "formats": []}
    cxx_codes(bodies["codes"], n, b)
    if b.is_regmap():
        cxx_regs(bodies["regs"], n, b)
    cxx_formats(bodies["formats"], n, b, "formats")
    parts = [p for p in CXX_PARTS if bodies[p]]
    for p in parts:
        out[f"sw/include/hpcnet/{b.stem}/{p}.hpp"] = cxx_header(b, p, bodies[p])
    o = [f"// {b.stem}.hpp: {'register offsets, fields, ' if b.is_regmap() else ''}formats and codes of "
         f"{d['block'].get('title', b.name)}.",
         f"// GENERATED by scripts/regs/gen_regs.py from {b.src()}; do not edit (run `make regs`).",
         f"// Namespace hpcnet::{b.stem}, one header per part (docs/regs.md):"]
    o += [f"//   {b.stem}/{p + '.hpp':<12} {CXX_PARTS[p]}" for p in parts]
    o += ["#pragma once", ""] + [f'#include "hpcnet/{b.stem}/{p}.hpp"' for p in parts]
    o += [f'#include "hpcnet/{i.stem}.hpp"  // imported' for i in b.imports] + [""]
    out[f"sw/include/hpcnet/{b.stem}.hpp"] = "\n".join(o)
    return out


# ------------------------------------------------------------------ Markdown
def md_text(s):
    return str(s).replace("|", "\\|")


def gen_md(b):
    d = b.d
    blk = d["block"]
    o = [f"# {blk.get('title', b.name)}: {'register map' if b.is_regmap() else 'formats and codes'}", "",
         f"Generated by `scripts/regs/gen_regs.py` from `{b.src()}`; do not edit. "
         + (f"BAR size 0x{blk.get('bar_bytes', 0):x} bytes, {blk.get('word_bytes', 8)}-byte registers. "
            if b.is_regmap() else "")
         + "The schema is in [regs.md](regs.md).", ""]

    def field_rows(fs):
        rows = []
        for f in fs:
            rst = f"0x{f['reset']:x}" if "reset" in f else ""
            rows.append((bit_range(f["lsb"], f["width"]), f["name"], rst, f.get("desc", "")))
        return rows

    if b.is_regmap():
        o += ["## Registers", "", "| Offset | Register | Access | Bits | Field | Reset | Description |",
              "|---|---|---|---|---|---|---|"]
        for r in d["reg"]:
            o.append(f"| 0x{r['offset']:03x} | **{r['name']}** | {r['access']} | | | | {md_text(r.get('desc', ''))} |")
            o += [f"| | | | {x} | {fn} | {rs} | {md_text(ds)} |" for x, fn, rs, ds in field_rows(r.get("fields", []))]
        o += ["", "## Arrays", "", "Element *i* of an array starts at offset + *i* x stride.", ""]
        for a in d["array"]:
            o += [f"### {a['name']}", "", md_text(a.get("desc", "")), "",
                  f"Offset 0x{a['offset']:x}, stride 0x{a['stride']:x}, count {a.get('count_param', '')} "
                  f"(default {a['count']}).", "",
                  "| Offset in element | Register | Access | Description |", "|---|---|---|---|"]
            o += [f"| 0x{r['offset']:02x} | {r['name']} | {r['access']} | {md_text(r.get('desc', ''))} |"
                  for r in a["regs"]]
            o.append("")

    def kind(f):
        if "format" in f:
            return f"format [{f['format']}](#{f['format'].rpartition('.')[2]})"
        if "enum" in f:
            ob, e = b.lookup("enum", f["enum"])
            where = "" if ob is b else f"{ob.stem}.md"
            return f"enum [{f['enum']}]({where}#{e['name']}-{e['width']}-bit{'s' if e['width'] > 1 else ''})"
        t = f"{f['count']} x {f['width']} bits (element i at {f['lsb']} + {f['width']}i)" if f.get("count", 1) > 1 else ""
        t += (", " if t else "") + "signed" if f.get("signed") else ""
        return ", ".join(x for x in (t, "reserved" if f.get("reserved") else "") if x)

    o += ["## Formats", "", "Bits count from bit 0 of the whole format (word = bit / 64). Bits without a field "
          "are reserved: written as 0, ignored when read.", ""]
    for f in d["format"]:
        o += [f"### {f['name']}", "", md_text(f.get("desc", "")) + f" {f['bits']} bits.", "",
              "| Bits | Field | Type | Description |", "|---|---|---|---|"]
        for fx in f["fields"]:
            o.append(f"| {bit_range(fx['lsb'], span(fx))} | {fx['name']} | {md_text(kind(fx))} | "
                     f"{md_text(fx.get('desc', ''))} |")
        o.append("")
    o += ["## Codes", ""] if d["enum"] else []
    for e in d["enum"]:
        o += [f"### {e['name']} ({e['width']} bit{'s' if e['width'] > 1 else ''})", "", md_text(e.get("desc", "")), "",
              "| Value | Name | Description |", "|---|---|---|"]
        o += [f"| 0x{v['value']:02x} | {v['name']} | {md_text(v.get('desc', ''))} |" for v in e["values"]]
        o.append("")
    return "\n".join(o)


# ------------------------------------------------------------------ GTKWave translate files
XLATE_DIR = "scripts/wave/xlate"


def gen_xlate(b, e):
    """A GTKWave translate filter file: one line per code, the value as GTKWave prints it in decimal
    format, then the name (the save files show the field in decimal with this filter)."""
    o = [f"# {b.name}.{e['name']}: {e.get('desc', '')}".rstrip(),
         f"# GENERATED by scripts/regs/gen_regs.py from {b.src()}; do not edit (run `make regs`)."]
    o += [f"{v['value']} {v['name']}" for v in e["values"]]
    return "\n".join(o) + "\n"


# ------------------------------------------------------------------ driver
def outputs(tomls):
    """{path relative to the output root: text} for the given TOMLs and every region."""
    cache = {}
    given = [load(t, cache) for t in tomls]
    blocks = {}
    for b in cache.values():
        if blocks.setdefault(b.name, b) is not b:
            raise MapError(f"{b.src()}: block name {b.name} is also used by {blocks[b.name].src()}")
    out = {}
    for b in given:
        if b.d["block"].get("package", True):
            out[f"{b.path.parent.relative_to(REPO).as_posix()}/{b.stem}_pkg.sv"] = gen_sv(b)
        out.update(gen_hpp(b))
        out[f"docs/{b.stem}.md"] = gen_md(b)
        for e in b.d["enum"]:
            out[f"{XLATE_DIR}/{b.name}.{e['name']}.txt"] = gen_xlate(b, e)
    out.update(regions(blocks))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--out", metavar="ROOT", help="write generated files under ROOT")
    g.add_argument("--check", metavar="ROOT", help="compare generated files with those under ROOT")
    g.add_argument("--list", action="store_true", help="print the generated paths")
    ap.add_argument("toml", nargs="+")
    a = ap.parse_args()
    drift = 0
    try:
        gen = outputs(a.toml)
        if a.list:
            print(";".join(sorted(gen)))
            return 0
        root = pathlib.Path(a.out or a.check)
        for rel, text in gen.items():
            path = root / rel
            if a.out:
                path.parent.mkdir(parents=True, exist_ok=True)
                if not path.exists() or path.read_text() != text:
                    path.write_text(text)
                continue
            old = path.read_text() if path.exists() else ""
            if old != text:
                drift += 1
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), text.splitlines(True), f"checked-in/{rel}", f"generated/{rel}"))
    except (MapError, KeyError, OSError, tomllib.TOMLDecodeError) as e:
        sys.exit(f"gen_regs: error: {e}")
    if drift:
        print(f"gen_regs: {drift} file(s) differ from the TOML; run `make regs` and commit them")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
