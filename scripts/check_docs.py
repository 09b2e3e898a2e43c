#!/usr/bin/env python3
"""Checks that README.md and docs/**/*.md are true for a fresh clone (CTest: docs.check).

Rules (each failure is printed as file:line: message; the exit status is 1 if any):

1. Links. Every Markdown link [text](target) whose target is not a URL (http:, https:,
   mailto:) resolves, relative to the Markdown file, to a file or folder of the repository
   and stays inside it. A #anchor must name a heading of the target file (GitHub's rule:
   lower case, punctuation except '-' and '_' dropped, spaces to '-', a repeated heading gets
   -1, -2, ...).
2. Repository paths in code. Checked: inline code spans (`...`; a span may run over a line
   break), every line of a fenced block without a language or marked sh (comments included)
   and of an indented code block. Every word there whose first path component is a top-level
   entry of the repository (rtl/, sim/, sw/, tb/, bench/, scripts/, docs/, cmake/, .ci/,
   Makefile, CMakeLists.txt, README.md) must exist (a trailing ':<line>', '#anchor' or
   punctuation is dropped first). Words with a placeholder or pattern (< > * ? { } [ ] $ ...)
   are skipped.
3. Bare file names in the same code (no '/', an extension of a source kind: .sv .svh .cpp
   .hpp .h .c .toml .py .sh .gtkw .sigs .f .cmake .md) must be the name of some file of the
   repository.
4. CLI commands. In the same code, the word after 'hpcnet' (or a path ending in /hpcnet), if
   it is a lower-case word (not an option, placeholder or prose), must be a command of the
   front end. The commands are read statically from bench/**/*.cpp: the first argument of
   reg.add("name", ...) and, where reg.add takes a variable, the {"name", "help", function,
   ...} entries of that file; no build is needed. An option (--name) after the command must be
   one of the front end's: the first argument of add_option / add_flag / set_version_flag in
   bench/, the second of add_list (the list options, bench/common/cli.hpp), or --help.
5. Test names. No TEST_CASE or SECTION name under tb/ may contain a comma (Catch2 splits its
   test-name arguments at commas, so such a test cannot be selected by pasting its name) or a
   semicolon (catch_discover_tests splits the CTest name there: two CTest entries that each
   select no test and pass without running anything). In code that runs a test program
   (build/tb/.../<program> "name"), the program must be a test target of tb/ and the name a
   TEST_CASE of tb/ ('*' a wildcard, as for Catch2; a name built by a macro matches with its
   parameters as wildcards), or a tag expression ("[trace]") whose tags are used in tb/.
6. CTest names. An inline code span that starts with a test program's CTest prefix (the
   PREFIX of hpcnet_unit_test in tb/**/CMakeLists.txt, e.g. "net.", "router.unit.") followed
   by a name with a space must start a TEST_CASE name of tb/ ("..." and <placeholder> match
   anything; a shortened name is accepted); a span `cli.<name>` must name an add_test() of
   bench/CMakeLists.txt or an included *.cmake (bench/net/tests.cmake), or a cli_expect(<name> ...)
   there (the test cli.<name>; '*' a wildcard).

7. History. Docs say how things are now, with the command and date of each figure: no commit
   hash (a word of 7 to 40 hexadecimal digits with both a digit and a letter, not after 0x;
   anywhere, code included; dates and the commands that measure replace them) and no session
   "stop" (the word stop or stops followed by a number).

Excluded by rule:
- generated files: words under build/ (or another build folder: build-*/, b/), as a fresh
  clone has none; Verilator's generated model files (V<model>...). The files a word may name
  are those of the source tree: build folders (build, build-*, b, any folder holding a
  CMakeCache.txt) and .git are not read;
- files of the installed tools, not of the repository: Verilator's runtime (verilated*,
  fstapi.c);
- words starting with '.' (an extension such as `.sv`, not a file).

Run: python3 scripts/check_docs.py [repository root]  (default: the folder above this script)
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
TOP_ENTRIES = {"rtl", "sim", "sw", "tb", "bench", "scripts", "docs", "cmake", ".ci",
               "Makefile", "CMakeLists.txt", "README.md"}
GENERATED_DIRS = re.compile(r"^(build|build-[^/]*|b)(/|$)")
SOURCE_EXT = (".sv", ".svh", ".cpp", ".hpp", ".h", ".c", ".toml", ".py", ".sh", ".gtkw", ".sigs",
              ".f", ".cmake", ".md")
PLACEHOLDER = re.compile(r"[<>*?{}\[\]$]|\.\.\.|…")
SKIP_DIRS = {".git", "build"}

errors = []


def err(path, line, msg):
    errors.append(f"{os.path.relpath(path, ROOT)}:{line}: {msg}")


def repo_files():
    out = []
    for d, dirs, files in os.walk(ROOT):
        rel = os.path.relpath(d, ROOT)
        dirs[:] = [x for x in dirs if x != ".git"
                   and not (rel == "." and (x in SKIP_DIRS or GENERATED_DIRS.match(x)))
                   and not os.path.exists(os.path.join(d, x, "CMakeCache.txt"))]
        for f in files:
            out.append(os.path.normpath(os.path.join(rel, f)))
    return out


FILES = repo_files()
BASENAMES = {os.path.basename(f) for f in FILES}


def strip_comments(src):
    """C++ source without comments (string literals kept)."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            out.append("\n" * src.count("\n", i, n if j < 0 else j))
            i = n if j < 0 else j + 2
        elif c == "'":
            j = i + 1
            while j < n and src[j] != "'":
                j += 2 if src[j] == "\\" else 1
            out.append(src[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def test_names():
    """(kind, name, file, line) of every TEST_CASE / TEMPLATE_TEST_CASE / SECTION under tb/."""
    found = []
    macro = re.compile(r"\b(TEST_CASE|TEMPLATE_TEST_CASE|TEMPLATE_TEST_CASE_SIG|SCENARIO|SECTION|"
                       r"TEST_CASE_METHOD|TEMPLATE_LIST_TEST_CASE)\s*\(")
    for f in FILES:
        if not f.startswith("tb" + os.sep) or not f.endswith((".cpp", ".hpp", ".h")):
            continue
        path = os.path.join(ROOT, f)
        src = strip_comments(open(path, encoding="utf-8").read())
        for m in macro.finditer(src):
            pos = m.end()
            if m.group(1) == "TEST_CASE_METHOD":
                comma = src.find(",", pos)
                pos = comma + 1
            # the first argument up to its top-level comma: string literals, and macro parameters
            # (a name built by a macro: each parameter is a wildcard, written \0)
            parts, depth, i = [], 0, pos
            while i < len(src):
                c = src[i]
                if c == '"':
                    lit = re.match(r'"((?:[^"\\]|\\.)*)"', src[i:])
                    parts.append(lit.group(1))
                    i += lit.end()
                    continue
                if c in "([{":
                    depth += 1
                elif c in ")]}" and depth > 0:
                    depth -= 1
                elif c in ",)" and depth == 0:
                    break
                elif not c.isspace() and (not parts or parts[-1] != "\0"):
                    parts.append("\0")
                i += 1
            if not any(p != "\0" for p in parts):
                continue
            found.append((m.group(1), "".join(parts), path, src.count("\n", 0, m.start()) + 1))
    return found


def name_matches(doc, template, whole):
    """A name written in the docs (with '*', '...' or <placeholder> wildcards) against a TEST_CASE
    name (with \\0 for a macro parameter); whole=False accepts a shortened name."""
    wild = r"\*|\.\.\.|…|<[^>]*>"
    d = re.compile("^" + ".*".join(re.escape(x) for x in re.split(r"\s*(?:" + wild + r")\s*", doc))
                   + ("$" if whole else ""), re.I)
    t = re.compile("^" + ".+".join(re.escape(x) for x in template.split("\0")) + "$", re.I)
    sample = template.replace("\0", "X")
    return bool(d.match(sample) or t.match(re.sub(wild, "X", doc)) or
                (not whole and any(t.match(re.sub(wild, "X", doc) + "X" * k) for k in (0, 1))))


def cli_commands():
    cmds = set()
    for f in FILES:
        if not f.startswith("bench" + os.sep) or not f.endswith(".cpp"):
            continue
        src = strip_comments(open(os.path.join(ROOT, f), encoding="utf-8").read())
        cmds.update(re.findall(r'\breg\.add\(\s*"([^"]+)"', src))
        if re.search(r"\breg\.add\(\s*[A-Za-z_]", src):
            cmds.update(re.findall(r'\{\s*"([a-z][a-z0-9-]*)"\s*,\s*"[^"]*"\s*,\s*[A-Za-z_]', src))
    return cmds


def cli_options():
    opts = {"--help"}
    for f in FILES:
        if f.startswith("bench" + os.sep) and f.endswith((".cpp", ".hpp")):
            src = open(os.path.join(ROOT, f), encoding="utf-8").read()
            for m in re.finditer(r'(?:add_(?:option|flag)|set_version_flag)\(\s*"([^"]+)"|add_list\(\s*\*?\w+\s*,\s*"([^"]+)"', src):
                opts.update(o.strip() for o in (m.group(1) or m.group(2)).split(","))
    return opts


CLI_OPTIONS = cli_options()


def test_tags():
    """Every Catch2 tag used in tb/ (the second argument of a TEST_CASE: "[a][b]")."""
    tags = set()
    for f in FILES:
        if f.startswith("tb" + os.sep) and f.endswith((".cpp", ".hpp")):
            for group in re.findall(r'"((?:\[[\w.-]+\])+)"', open(os.path.join(ROOT, f), encoding="utf-8").read()):
                tags.update(re.findall(r"\[([\w.-]+)\]", group))
    return tags


TAGS = test_tags()


def test_targets():
    targets = set()
    for f in FILES:
        if f.startswith("tb" + os.sep) and os.path.basename(f) == "CMakeLists.txt":
            src = open(os.path.join(ROOT, f), encoding="utf-8").read()
            targets.update(re.findall(r"hpcnet_unit_test\(\s*([A-Za-z0-9_${}]+)", src))
    return targets


def slug(heading):
    h = re.sub(r"`", "", heading.strip().lower())
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", h)
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


_anchor_cache = {}


def anchors(path):
    if path not in _anchor_cache:
        seen, out, fence = {}, set(), False
        for line in open(path, encoding="utf-8"):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            m = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                s = slug(m.group(1))
                k = seen.get(s, 0)
                out.add(s if k == 0 else f"{s}-{k}")
                seen[s] = k + 1
        _anchor_cache[path] = out
    return _anchor_cache[path]


def check_link(md, lineno, target):
    if re.match(r"^[a-z]+:", target):
        return
    target = target.split()[0] if target.strip() else target
    file_part, _, anchor = target.partition("#")
    dest = md if file_part == "" else os.path.normpath(os.path.join(os.path.dirname(md), file_part))
    if os.path.relpath(dest, ROOT).startswith(".."):
        err(md, lineno, f"link leaves the repository: {target}")
        return
    if not os.path.exists(dest):
        err(md, lineno, f"link to a missing file: {target}")
        return
    if anchor and dest.endswith(".md") and anchor not in anchors(dest):
        err(md, lineno, f"link to a missing anchor: {target}")


def check_span(md, lineno, span, cmds, names, targets):
    words = span.split()
    for i, w in enumerate(words):
        w = w.strip("\"'(),;")
        w = w.split("=")[-1] if "=" in w and not w.startswith("-") else w
        if w.startswith("./"):
            w = w[2:]
        base = re.sub(r"(:[0-9-]+)?[.,;:)]*$", "", w.split("#")[0])
        # 4. CLI commands
        if (w == "hpcnet" or w.endswith("/hpcnet")) and i + 1 < len(words):
            nxt = words[i + 1].strip("`\"'.,;)")
            if re.match(r"^[a-z][a-z0-9-]*$", nxt) and nxt not in cmds:
                err(md, lineno, f"`{span}`: no hpcnet command '{nxt}' (commands: {', '.join(sorted(cmds))})")
            for opt in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", " ".join(words[i + 1:])):
                if opt not in CLI_OPTIONS:
                    err(md, lineno, f"`{span}`: no hpcnet option {opt}")
        if not base or PLACEHOLDER.search(base) or GENERATED_DIRS.match(base) or base.startswith("."):
            continue
        if re.match(r"^(verilated|fstapi)", os.path.basename(base)):
            continue
        first = base.split("/")[0]
        if "/" in base or base in TOP_ENTRIES:
            if first in TOP_ENTRIES and not os.path.exists(os.path.join(ROOT, base)):
                err(md, lineno, f"`{span}`: no file or folder {base}")
        elif base.endswith(SOURCE_EXT) and not re.match(r"^V[a-z]", base) and base not in BASENAMES:
            err(md, lineno, f"`{span}`: no file named {base} in the repository")
    # 5. test programs with a test name
    for m in re.finditer(r"(?:^|\s)(?:\./)?build[^/\s]*/(tb/\S*?)([A-Za-z0-9_]+)\s+\"([^\"]+)\"", span):
        prog, name = m.group(2), m.group(3)
        if not any(re.fullmatch(re.sub(r"\\\$\\\{[^}]*\\\}", ".+", re.escape(t)), prog) for t in targets):
            err(md, lineno, f"`{span}`: no test program {prog} in tb/")
        if "," in name:
            err(md, lineno, f"`{span}`: Catch2 splits the test name at its comma")
        elif re.fullmatch(r"(\[[\w.-]+\])+", name):  # a tag expression: every tag must be used in tb/
            for tag in re.findall(r"\[([\w.-]+)\]", name):
                if tag not in TAGS:
                    err(md, lineno, f"`{span}`: no test in tb/ has the tag [{tag}]")
        elif not any(name_matches(name, n, True) for n in names):
            err(md, lineno, f"`{span}`: no TEST_CASE named \"{name}\" in tb/")


def check_ctest_name(md, lineno, span, names, prefixes, cli_tests):
    if span.startswith("cli."):
        pat = re.compile("^" + ".*".join(re.escape(p) for p in span.split("*")) + "$")
        if not any(pat.match(t) for t in cli_tests):
            err(md, lineno, f"`{span}`: no CLI test of that name in bench/CMakeLists.txt")
        return
    for prefix in sorted(prefixes, key=len, reverse=True):
        rest = span[len(prefix):]
        if span.startswith(prefix) and " " in rest:
            if not any(name_matches(rest.strip(), n, False) for n in names):
                err(md, lineno, f"`{span}`: no TEST_CASE of tb/ starts like this (CTest prefix {prefix})")
            return


def check_markdown(md, cmds, names, targets, prefixes, cli_tests):
    text, fence, info, indented, prev, last_text = [], False, "", False, "", ""
    for lineno, line in enumerate(open(md, encoding="utf-8"), 1):
        # an indented code block: lines of 4 spaces after a blank line that does not follow a list
        if not fence and line.startswith("    ") and line.strip():
            if indented or (prev == "" and not re.match(r"^\s*([-*+]|[0-9]+\.)\s|^\s", last_text)):
                indented = True
                check_span(md, lineno, line.strip(), cmds, names, targets)
                text.append("\n")
                continue
        elif line.strip():
            indented = False
        prev = line.strip()
        if line.strip() and not indented:
            last_text = line
        if line.lstrip().startswith("```"):
            fence, info = not fence, line.strip()[3:].strip()
            text.append("\n")
        elif fence:
            # a fenced block without a language or marked sh: shell commands and diagrams, checked
            # line by line with the rules of code spans
            if info in ("", "sh", "bash", "console"):
                code = line.strip()
                if code:
                    check_span(md, lineno, code, cmds, names, targets)
            text.append("\n")
        else:
            text.append(line)
    text = "".join(text)
    # a span may run over one line break, not over a blank line
    def keep(m):
        span = re.sub(r"\s+", " ", m.group(2)).strip()
        lineno = text.count("\n", 0, m.start()) + 1
        check_span(md, lineno, span, cmds, names, targets)
        check_ctest_name(md, lineno, span, names, prefixes, cli_tests)
        return re.sub(r"[^\n]", " ", m.group(0))
    rest = re.sub(r"(`+)((?:(?!\n\s*\n).)+?)\1", keep, text, flags=re.S)
    for m in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", rest):
        check_link(md, rest.count("\n", 0, m.start()) + 1, m.group(1))


HASH = re.compile(r"(?<![0-9A-Za-z_.#/-])([0-9a-f]{7,40})(?![0-9A-Za-z_])")
STOP = re.compile(r"\bstops?\s+[0-9]+\b", re.I)


def check_history(md):
    """Rule 7: commit hashes and session stops."""
    for lineno, line in enumerate(open(md, encoding="utf-8"), 1):
        for m in HASH.finditer(line):
            word = m.group(1)
            if re.search(r"[0-9]", word) and re.search(r"[a-f]", word) and \
                    not line[:m.start()].lower().endswith("0x"):
                err(md, lineno, f"a commit hash ({word}): say the date and the command instead (rule 7)")
        for m in STOP.finditer(line):
            err(md, lineno, f"session history ('{m.group(0)}'): say how things are now (rule 7)")


def main():
    found = test_names()
    case_names = {n for k, n, _, _ in found if k != "SECTION"}
    for kind, name, path, line in found:
        if re.search(r"[,;]", name):
            err(path, line, f'{kind} name with a comma or semicolon (rule 5): "{name}"')
    cmds, targets = cli_commands(), test_targets()
    prefixes, cli_tests = set(), set()
    for f in FILES:
        if os.path.basename(f) == "CMakeLists.txt" or f.endswith(".cmake"):  # tests.cmake files too
            src = open(os.path.join(ROOT, f), encoding="utf-8").read()
            if f.startswith("tb" + os.sep):
                prefixes.update(re.findall(r'PREFIX\s+"([^"]+\.)"', src))
            cli_tests.update(re.findall(r"add_test\(\s*NAME\s+(cli\.[A-Za-z0-9_.]+)", src))
            cli_tests.update("cli." + n for n in re.findall(r"cli_expect\(\s*([A-Za-z0-9_.]+)", src))
    docs = [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, f) for f in FILES if f.startswith("docs" + os.sep) and f.endswith(".md"))
    for md in docs:
        check_markdown(md, cmds, case_names, targets, prefixes, cli_tests)
        check_history(md)
    for e in errors:
        print(e)
    print(f"check_docs: {len(docs)} Markdown files, {len(found)} test and section names, "
          f"{len(cmds)} hpcnet commands: {'FAIL, ' + str(len(errors)) + ' problems' if errors else 'OK'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
