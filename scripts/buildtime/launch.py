#!/usr/bin/env python3
"""Build-time launcher (scripts/buildtime/report.py sets it up; docs/testing.md).

    launch.py LOG KIND TARGET OUTPUT -- command...

Runs the command, then appends one tab-separated line to LOG: kind, target, output, CPU seconds
(user + system of the command and its children) and wall seconds. CMake calls it for every
compile, link and custom command (RULE_LAUNCH_*), and for every Verilator run at configure time
(VERILATOR_BIN points at verilator.sh, which calls it). The command's exit status is returned.
"""
import os
import sys
import time


def main() -> int:
    sep = sys.argv.index("--")
    # a placeholder CMake leaves empty (the <OUTPUT> of a post-build step) is no argument at all
    log, kind, target, output = (sys.argv[1:sep] + ["", ""])[:4]
    cmd = sys.argv[sep + 1:]
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.environ["HPCNET_BUILDTIME_INNER"] = "1"  # verilator.sh: this run is logged here
        try:
            os.execvp(cmd[0], cmd)
        except OSError as e:
            print(f"launch.py: cannot run {cmd[0]}: {e}", file=sys.stderr)
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    cpu = ru.ru_utime + ru.ru_stime
    with open(log, "a") as f:
        f.write(f"{kind}\t{target}\t{output}\t{cpu:.3f}\t{wall:.3f}\n")
    return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


if __name__ == "__main__":
    sys.exit(main())
