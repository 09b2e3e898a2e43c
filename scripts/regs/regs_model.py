"""regs_model.py: the register-map model of gen_regs.py: loading and checking a block's TOML,
and the helpers every output shares (names, comments, bit ranges). Schema: docs/regs.md."""
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
