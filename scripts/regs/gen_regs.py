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
import sys

from regs_model import *  # noqa: F401,F403 (regs_model.py: loading and checking a TOML)
from regs_sv import *  # noqa: F401,F403 (regs_sv.py: SV packages and generated regions)
from regs_cxx import *  # noqa: F401,F403 (regs_cxx.py: C++ headers)
from regs_md import *  # noqa: F401,F403 (regs_md.py: Markdown tables, GTKWave translate files)


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
