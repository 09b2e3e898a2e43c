"""gtkw_view.py: the view a GTKWave save file opens on (gen_gtkw.py --fit; python stdlib): the
window's first cycles, as many as leave the cycle counter's numbers room, the range in the save
file's comments, times and zoom in GTKWave's own time unit."""
import math

import fstinfo

# Window, collapsed signal tree and (at least) signal-name pane, in pixels; a name's character.
SIZE, SST_W, SIGNALS_W, CHAR_PX = (1600, 900), 48, 300, 8


def wave_px(pane):
    """The wave area's width beside a signal-name pane of `pane` pixels (and a scroll bar)."""
    return SIZE[0] - SST_W - pane - 40


def gtkwave_units(hdr):
    """GTKWave's time unit per unit of the trace: it counts in the trace's unit rounded down to s, ms,
    us, ns, ps or fs (a trace in units of 100 ps: GTKWave counts ps, 100 a unit); the save file's
    times and zoom are in GTKWave's units."""
    return 10 ** (hdr["exp"] - 3 * math.floor(hdr["exp"] / 3)) if hdr else 1


def zoom_line(span, pane):
    """GTKWave's zoom z shows 2**-z of its time units per 200 pixels: `span` of them in the wave area."""
    return f"*{-math.log2(max(span, 1) * 200 / wave_px(pane) * 1.02):.6f} -1"


def readable_view(trace, groups, hdr, pane):
    """The view a person can read of a trace: from its first time, as many cycles as leave the
    cycle counter's numbers room to show (CHAR_PX a digit and a margin), at most the traced
    window. (time span, first cycle, last cycle in view, last traced cycle, time units a cycle),
    or None for a list without a counter (alias=cycle) or a trace of fewer than two cycles."""
    path = next((p for _, rows in groups for p, _, o, _ in rows if o.get("alias") == "cycle"), None)
    var = next((v for v in fstinfo.variables(trace) if v.path == path), None) if path else None
    if var is None:
        return None
    seen = []
    for t, _, val in fstinfo.changes(trace, [var.code]):
        seen.append((t, val))
        if len(seen) == 3:
            break
    if len(seen) < 3:
        return None
    period = seen[2][0] - seen[1][0]
    first = seen[0][1]
    cycles = max((hdr["end"] - hdr["start"]) // period, 1)
    fit = wave_px(pane) // (CHAR_PX * len(str(first + cycles)) + 16)
    n = min(max(fit, 8), cycles)
    return n * period, first, first + n, first + cycles, period


def view_comments(view, hdr):
    span, first, last, end, period = view
    unit = 10 ** hdr["exp"] * period
    axis = ("1 ns on the time axis = 1 cycle (cycle c from c ns, its rising edge at c + 0.5 ns)"
            if abs(unit - 1e-9) < 1e-15 else f"a cycle = {period} time units")
    return [f"[*] view: cycles {first}..{last} of the traced window {first}..{end}: the cycle row's numbers "
            f"fit; View > Zoom > Zoom Best Fit shows the whole window",
            f"[*] {axis}; make wave opens it with gtkwave --rcvar 'scale_to_time_dimension n' (an axis in ns)"]
