#!/usr/bin/env python3
"""filelist.py: reads the RTL source lists (rtl/<block>/sources.f; python stdlib).

    filelist.py LIST...        prints the files of the lists, one absolute path a line

A list has one file a line, relative to the repository root; `-f LIST` reads another list in
place; `//` starts a comment; a file reached twice is kept at its first place. The same format
Verilator reads with -f when run from the repository root (docs/common.md#source-lists).
CMake reads the lists with hpcnet_sources() (rtl/models.cmake), synthesis through the blocks' synth_tops.txt.
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _read(path, out):
    path = pathlib.Path(path)
    if not path.is_absolute():
        path = ROOT / path
    if not path.is_file():
        raise SystemExit(f"filelist: no source list {path}")
    for n, line in enumerate(path.read_text().splitlines(), 1):
        line = line.split("//", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-f"):
            _read(line[2:].strip(), out)
        elif len(line.split()) != 1:
            raise SystemExit(f"filelist: {path}:{n}: one file a line, not '{line}'")
        else:
            f = ROOT / line
            if not f.is_file():
                raise SystemExit(f"filelist: {path}:{n}: no file {line}")
            if str(f) not in out:
                out.append(str(f))


def read_list(*lists):
    """The files of the lists, absolute, in order, each once."""
    out = []
    for lst in lists:
        _read(lst, out)
    return out


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("\n".join(read_list(*sys.argv[1:])))
