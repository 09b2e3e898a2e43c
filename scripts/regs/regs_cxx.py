"""regs_cxx.py: the C++ headers (an umbrella and one header per part) (gen_regs.py drives it; schema: docs/regs.md)."""
from regs_model import *  # noqa: F401,F403 (the model and the shared helpers)


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
