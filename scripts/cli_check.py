#!/usr/bin/env python3
"""cli_check.py: checks of the hpcnet CLI's records that a shell pattern cannot make (the CLI tests
of bench/CMakeLists.txt and bench/net/tests.cmake; docs/cli.md; python stdlib).

    cli_check.py record JSON [--same KEY[=TABLE.COLUMN]]... [--eq KEY=VALUE]... [--no-prose]
        --json's record reproduces the run: config KEY holds the values the rows of TABLE.COLUMN
        took (a list: the same set; a single value: every row's; TABLE.COLUMN defaults to the
        first table and the column KEY); --eq: config KEY is VALUE (JSON); --no-prose: no config
        value is words (a string with a blank or a parenthesis, e.g. "every mode built for --mesh").
    cli_check.py tidy CSV [--header H1,H2,...] [--table JSON TABLE]
        a tidy table (docs/cli.md): snake_case headers (exactly H1,H2,... when given), no cell
        with an annotation (a blank-separated word or a parenthesis, a % sign) and none "-"; with
        --table, the JSON record's table TABLE holds the same rows (numbers as numbers, "" as null).
    cli_check.py interrupt --wait REGEX [--rc N] -- CMD...
        runs CMD, sends it SIGINT when its output (stdout or stderr) matches REGEX, and checks its
        exit code (default 130); the output is printed.
"""
import argparse
import csv
import json
import re
import signal
import subprocess
import sys

SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


def fail(msg):
    print(f"cli_check: FAIL: {msg}", file=sys.stderr)
    return 1


def values(rows, column):
    out = []
    for r in rows:
        if column not in r:
            raise KeyError(f"no column {column} (columns: {', '.join(r)})")
        if r[column] not in out:
            out.append(r[column])
    return out


def record(a):
    j = json.load(open(a.json))
    cfg, tables, bad = j["config"], j["tables"], 0
    for spec in a.same or []:
        key, _, where = spec.partition("=")
        table, _, column = where.partition(".") if where else (next(iter(tables)), "", key)
        got = values(tables[table], column or key)
        want = cfg.get(key)
        if isinstance(want, list):
            if sorted(map(json.dumps, want)) != sorted(map(json.dumps, got)):
                bad += fail(f"config {key} = {want}, but {table}.{column or key} ran {got}")
        elif got != [want]:
            bad += fail(f"config {key} = {want!r}, but {table}.{column or key} holds {got}")
    for spec in a.eq or []:
        key, _, v = spec.partition("=")
        if cfg.get(key) != json.loads(v):
            bad += fail(f"config {key} = {cfg.get(key)!r}, expected {v}")
    if a.no_prose:
        def words(v):
            if isinstance(v, str):
                return bool(re.search(r"[ ()]", v))
            if isinstance(v, list):
                return any(words(x) for x in v)
            if isinstance(v, dict):
                return any(words(x) for x in v.values())
            return False
        for k, v in cfg.items():
            if words(v):
                bad += fail(f"config {k} holds words, not a value: {v!r}")
    print(f"cli_check: record {a.json}: {'FAILED' if bad else 'as the run'}")
    return 1 if bad else 0


def tidy(a):
    with open(a.csv, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    rows = list(csv.reader(lines))
    head, body, bad = rows[0], rows[1:], 0
    if a.header and head != a.header.split(","):
        bad += fail(f"header {','.join(head)}\n  expected {a.header}")
    for h in head:
        if not SNAKE.match(h):
            bad += fail(f"header {h!r} is not snake_case")
    for r in body:
        for h, c in zip(head, r):
            if c == "-" or "%" in c or "(" in c or (" " in c and h not in ("model_path", "machine")):
                bad += fail(f"cell {h} = {c!r} is not one value")
    if a.table:
        path, name = a.table
        t = json.load(open(path))["tables"][name]
        if len(t) != len(body):
            bad += fail(f"{name}: {len(t)} rows in the JSON, {len(body)} in the CSV")
        for jr, cr in zip(t, body):
            for h, c in zip(head, cr):
                v = jr.get(h)
                if (c == "" and v is not None) or (c != "" and str(v).lower() != c.lower() and not _num_eq(v, c)):
                    bad += fail(f"{name}.{h}: JSON {v!r}, CSV {c!r}")
    print(f"cli_check: tidy {a.csv}: {'FAILED' if bad else f'{len(body)} rows, {len(head)} columns, one value a cell'}")
    return 1 if bad else 0


def _num_eq(v, c):
    try:
        return float(v) == float(c)
    except (TypeError, ValueError):
        return False


def interrupt(a):
    p = subprocess.Popen(a.cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sent = False
    pat = re.compile(a.wait)
    for line in p.stdout:
        sys.stdout.write(line)
        if not sent and pat.search(line):
            p.send_signal(signal.SIGINT)
            sent = True
    rc = p.wait()
    if not sent:
        return fail(f"the output never matched {a.wait} (exit code {rc})")
    if rc != a.rc:
        return fail(f"exit code {rc}, expected {a.rc}")
    print(f"cli_check: interrupted, exit code {rc}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("record")
    r.add_argument("json")
    r.add_argument("--same", action="append")
    r.add_argument("--eq", action="append")
    r.add_argument("--no-prose", action="store_true")
    t = sub.add_parser("tidy")
    t.add_argument("csv")
    t.add_argument("--header")
    t.add_argument("--table", nargs=2, metavar=("JSON", "TABLE"))
    i = sub.add_parser("interrupt")
    i.add_argument("--wait", required=True)
    i.add_argument("--rc", type=int, default=130)
    i.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.what == "interrupt":
        a.cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    try:
        return {"record": record, "tidy": tidy, "interrupt": interrupt}[a.what](a)
    except (OSError, KeyError, ValueError, IndexError) as e:
        return fail(repr(e))


if __name__ == "__main__":
    sys.exit(main())
