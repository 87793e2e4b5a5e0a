"""Lane-flow pictures: a lowering's data movement as a hand-written SVG.

One column per instruction (after a column for the entry values), one row
per lane, grouped in banks of 4, rows of 16 and halves of 32 lanes; in each
instruction's column a mark for what it did to the lane of the register it
writes, and an arrow from each lane it read.  Lanes that repeat the lane
above them, shifted, are folded into one band with the same function that
folds the lane table (:func:`verify.cex.fold_runs`).  EXEC at entry is the
bar on the left.  For a counterexample the deciding lane's path from input
to output is drawn in red, the responsible instruction's column is framed,
and the expected and actual values stand at the right.

The picture comes from a traced concrete replay (:func:`verify.encode.replay`)
and is a function of its input: the same lowering and state give the same
bytes.  This module decides nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .cex import (
    Counterexample,
    Fold,
    Row,
    ValueAt,
    _lane_local_source,
    _through_scalar,
    deciding_first,
    fold_lanes,
    value_reader,
)
from .encode import Encoding, mismatches, replay
from .ir import Lowering, SReg, VReg, reg_key
from .lanes import fmt_mask
from .lowering_file import print_instr
from .machine import Step
from .refine import Result
from .target import Target, resolve

# what an instruction did to one lane of the register it writes
MOVED, COMPUTED, KEPT, INACTIVE, MASKED, INVALID, ZERO, UNKNOWN = (
    "moved", "computed", "kept", "inactive", "masked", "invalid", "zero", "unknown")


@dataclass(frozen=True)
class Cell:
    status: str
    sources: tuple[int, ...] = ()  # the lanes it read
    why: str = ""


@dataclass
class Column:
    step: int  # index in the trace (-1: the entry column)
    line: int
    text: str
    reg: str | None  # the VGPR whose lanes it shows (None: a scalar instruction)
    cells: list[Cell]
    writes_exec: bool = False


@dataclass
class Flow:
    """What the picture shows, before any drawing."""

    title: str
    wave: int
    exec0: int
    columns: list[Column]
    rows: list[Fold]  # the lanes drawn, and the folds of the others
    path: list[tuple[int, int]] = field(default_factory=list)  # (column, lane) of the highlighted path
    responsible: int | None = None  # the column of the responsible instruction
    verdicts: dict[int, str] = field(default_factory=dict)  # lane -> text at the right
    bad: set[int] = field(default_factory=set)  # lanes whose output differs from the spec
    exec_final: int | None = None
    col_w: int = 128  # an instruction column's width (narrower where a long path must fit MAX_W)
    folded: int = 0  # instructions off the path left out (fold columns stand for them)
    chain_lines: set[int] = field(default_factory=set)  # lines the deciding lane's trace names (kept when folding)
    path_cut: bool = False  # the path is drawn from the responsible instruction on (a long one, folded)
    scalars: list[ScalarRow] = field(default_factory=list)  # SGPRs drawn below the lanes (a shader's)


@dataclass
class ScalarRow:
    """One SGPR drawn as a row below the lanes (one value for the wave):
    its value where it is an input (the entry column, step -1) and after
    each instruction that writes it (keyed by the column's trace step)."""

    reg: str
    label: str  # the IR argument it holds ("%a"), or ""
    values: dict[int, int]  # trace step (-1: entry) -> the value
    verdict: str = ""  # a result's: "IR 0x780, GPU 0x880"
    hot: set[int] = field(default_factory=set)  # steps whose value is on the cause's path (red)


_REF = re.compile(r"\b(v\d+)\[(\d+)\]")


def _cell(step: Step, reg: str, lane: int) -> Cell:
    ev = step.events.get((reg, lane))
    if ev is None:
        return Cell(KEPT)
    if ev.status == "written":
        if "unknown" in ev.why or (step.hazard and ev.src is None):
            return Cell(UNKNOWN, why=ev.why)
        if ev.src is not None:
            return Cell(MOVED, (ev.src[1],) if ev.src[1] != lane or ev.src[0] != reg else (lane,), ev.why)
        refs = tuple(dict.fromkeys(int(j) for _, j in _REF.findall(ev.why)))
        return Cell(COMPUTED, refs or (lane,), ev.why)
    wanted = tuple(int(j) for j in re.findall(r"source lane (\d+) is inactive", ev.why))
    if ev.status == "zero":
        return Cell(ZERO, wanted, ev.why)
    if "inactive and" in ev.why or "out of range" in ev.why:
        return Cell(INVALID, wanted, ev.why)
    if ev.why == f"lane {lane} inactive":
        return Cell(INACTIVE, why=ev.why)
    return Cell(MASKED, why=ev.why)


def _columns(low: Lowering, enc: Encoding) -> list[Column]:
    W = enc.machine.W
    trace = enc.machine.trace
    assert trace is not None  # a replay traces
    entry = [Cell(MOVED, (i,)) for i in range(W)]
    ins = ", ".join(f"{b.name}={reg_key(b.reg)}" for b in low.inputs)
    cols = [Column(-1, 0, f"entry: {ins}" if ins else "entry", None, entry)]
    for s in trace:
        vregs = list(dict.fromkeys(k[0] for k in s.events if k[1] is not None))
        reg = vregs[0] if vregs else None
        cells = [_cell(s, reg, i) for i in range(W)] if reg else []
        writes_exec = any(k[0] in ("exec_lo", "exec_hi") for k in s.events)
        cols.append(Column(s.index, s.instr.line, print_instr(s.instr), reg, cells, writes_exec))
    return cols


_BLAMED = re.compile(r"^line (\d+) .*, its \S+(?: or \S+)* (v\d+) = .* in error")


def _followed(chain: list[str]) -> dict[int, str]:
    """line -> the VGPR operand the cause trace showed in error there and
    followed (verify.cex.blame), read from a row's chain."""
    return {int(m.group(1)): m.group(2) for c in chain if (m := _BLAMED.match(c))}


def _path(low: Lowering, enc: Encoding, cols: list[Column], out_reg: str, lane: int,
          value: ValueAt | None = None, follow: dict[int, str] | None = None) -> list[tuple[int, int]]:
    """(column, lane) from the output back to the entry, following each
    lane's moved source (a lane computed from its own value and others
    follows its own value; from one other lane, that lane; computed in its
    lane from one VGPR, that VGPR) and, with
    `value` (verify.cex.value_reader), the SGPR hops the text follows: a
    v_writelane (or v_mov) of an SGPR back through the v_readlane or
    v_readfirstlane that read it, to the VGPR lane it came from."""
    trace = enc.machine.trace
    assert trace is not None
    path: list[tuple[int, int]] = []
    reg, k = out_reg, len(trace)
    while True:
        step = next((s for s in reversed(trace[:k]) if (reg, lane) in s.events), None)
        if step is None:
            path.append((0, lane))
            break
        col = step.index + 1
        path.append((col, lane))
        ev = step.events[(reg, lane)]
        k = step.index
        refs = _REF.findall(ev.why) if ev.status == "written" and ev.src is None else []
        hop = (_through_scalar(trace, step, "", reg, lane, value, enc.machine.W)
               if value is not None and ev.status == "written" and ev.src is None
               and step.instr.base in ("v_writelane_b32", "v_mov_b32") else None)
        if hop is not None and hop[1] is not None:  # through the scalar to the lane it was read from
            (reg, lane), k = hop[1], hop[4]
            path.append((k + 1, lane))
        elif ev.status == "written" and ev.src is None and follow and step.instr.line in follow:
            reg = follow[step.instr.line]  # the operand the text shows in error there (verify.cex.blame)
        elif ev.status == "written" and ev.src is not None:
            reg, lane = ev.src
        elif (reg, str(lane)) in refs:  # a combination with the lane's own value: follow that
            pass
        elif len(refs) == 1:
            reg, lane = refs[0][0], int(refs[0][1])
        elif ev.status == "written" and ev.src is None and (nxt := _lane_local_source(step.instr)) is not None:
            reg = nxt  # a lane-local computation of one VGPR: on into it, as the text goes (verify.cex.trace_lane)
        elif ev.status != "kept":
            break
    return list(reversed(path))


def _same_lane(cols: list[Column], act: int) -> Any:
    def same(a: int, b: int) -> bool:
        d = b - a
        if ((act >> a) & 1) != ((act >> b) & 1):
            return False
        for c in cols:
            if not c.cells:
                continue
            x, y = c.cells[a], c.cells[b]
            if x.status != y.status or len(x.sources) != len(y.sources):
                return False
            if any(sy not in (sx, sx + d) for sx, sy in zip(x.sources, y.sources)):
                return False
        return True
    return same


FOLD_COL = -2  # a Column.step: instructions off the path, folded into one narrow column
BRANCH_COL = -3  # a Column.step: a conditional branch the path met, its text "s_cbranch_scc0 L: taken (SCC = 0)"
MAX_W = 1200  # a counterexample's picture is at most this wide unless drawn full


def _text_w(f: Flow) -> float:
    return 8 + max([len(t) + 10 for t in f.verdicts.values()] + [10]) * 6.2


def _col_width(c: Column, col_w: int) -> int:
    return SCALAR_W if c.step == FOLD_COL or c.text.startswith("s_nop") else col_w


def _fold_columns(f: Flow) -> None:
    """Fit a counterexample's picture into MAX_W: keep the entry column,
    the columns on the highlighted path, the responsible one and the last;
    each run of the others becomes one narrow fold column ("lines a-b: n
    off the path"); then, if the kept columns still do not fit, narrow
    them (to 64 px at the least)."""
    def width(cols: list[Column], col_w: int) -> float:
        return LEFT + 10 + sum(_col_width(c, col_w) for c in cols) + _text_w(f) + 20
    if width(f.columns, COL_W) <= MAX_W:
        return

    def kept(cut: int) -> set[int]:
        out = {0} | {c for c, _ in f.path if c >= cut}
        out |= {k for k, c in enumerate(f.columns)
                if k >= cut and (c.step >= 0 or c.step == BRANCH_COL) and c.line in f.chain_lines}
        return out | ({f.responsible} if f.responsible is not None else set())

    keep = kept(0)
    fits = LEFT + 10 + 64 * (len(keep) + 1) + _text_w(f) + 20 <= MAX_W  # (kept at 64 px, a fold column between)
    if not fits and f.responsible is not None:
        # a long path (an SGPR hop back through a scan): drawn from the responsible instruction on
        f.path = [(c, ln) for c, ln in f.path if c >= f.responsible]
        f.path_cut = True
        keep = kept(f.responsible)
    new: list[Column] = []
    remap: dict[int, int] = {}
    run: list[Column] = []

    def flush() -> None:
        if run:
            new.append(Column(FOLD_COL, run[0].line, f"lines {run[0].line}-{run[-1].line}: {len(run)} off the path",
                              None, []))
            f.folded += len(run)
            run.clear()
    for k, c in enumerate(f.columns):
        if k in keep:
            flush()
            remap[k] = len(new)
            new.append(c)
        else:
            run.append(c)
    flush()
    f.columns = new
    f.path = [(remap[c], ln) for c, ln in f.path]
    f.responsible = remap.get(f.responsible) if f.responsible is not None else None
    n = sum(1 for c in new if _col_width(c, COL_W) == COL_W)
    fixed = width(new, 0)
    if n and fixed + n * COL_W > MAX_W:
        f.col_w = max(64, int((MAX_W - fixed) // n))


def flow(low: Lowering, target: Target, wave: int, assume: dict[str, str], mask: int, vals: dict[str, Any],
         cex: Counterexample | None = None, title: str = "", full: bool = False) -> Flow:
    """The picture's content for `low` run from EXEC = `mask` and `vals`
    (register -> lane values); with `cex`, its deciding lane highlighted
    and, unless `full`, the instructions off its path folded so that the
    picture fits MAX_W (:func:`_fold_columns`)."""
    enc = replay(low, target, wave, assume, mask, vals)
    cols = _columns(low, enc)
    out_regs = {b.name: reg_key(b.reg) for b in low.outputs}
    f = Flow(title or f"{low.name}: {target.name} wave{wave}", wave, mask, cols, [])
    lo, hi = enc.machine.exec_pair()
    if isinstance(lo, int) and isinstance(hi, int) and (lo | (hi << 32)) != mask:
        f.exec_final = lo | (hi << 32)
    bad = mismatches(enc, feq=True)
    f.bad = {i for _, i in bad}
    rows: list[Row] = deciding_first(cex.rows) if cex is not None else []
    pinned: set[int] = set()
    if rows:
        r = rows[0]
        if isinstance(next((b.reg for b in low.outputs if b.name == r.output), None), VReg):
            f.path = _path(low, enc, cols, out_regs[r.output], r.lane,
                           value_reader(low, target, wave, assume, mask, vals), _followed(r.chain))
        pinned = {ln for _, ln in f.path} | {r.lane}
        f.chain_lines = {int(m.group(1)) for c in r.chain if (m := re.match(r"line (\d+)", c))}
        m = re.match(r"line (\d+)", r.responsible)
        if m:
            f.responsible = next((k for k, c in enumerate(cols) if c.step >= 0 and c.line == int(m.group(1))), None)
        for x in rows:
            f.verdicts.setdefault(x.lane, f"expected {x.expected:#x}{' ' + x.expected_src if x.expected_src else ''}"
                                          f", got {x.actual:#x}{' ' + x.actual_src if x.actual_src else ''}")
    else:
        for name, i in bad:
            f.verdicts.setdefault(i, f"{name}: expected {enc.spec[name][0][i]:#x}, got {enc.outputs[name][i]:#x}")
    pinned |= {i for i in f.bad if i in f.verdicts}
    # and the lanes the shown failing lanes read (an inactive source among them)
    pinned |= {j for c in cols if c.cells for i in set(pinned) for j in c.cells[i].sources} if rows else set()
    f.rows = fold_lanes(list(range(wave)), _same_lane(cols, mask), pinned)
    if rows and not full:
        _fold_columns(f)
    return f


# ---------------------------------------------------------------------------
# drawing

LANE_H = 14
FOLD_H = 16
COL_W = 128
SCALAR_W = 64
LEFT = 300  # lane labels and the EXEC bar
TOP = 104
COLORS = {MOVED: "#1f6fb4", COMPUTED: "#2a9d3a", KEPT: "#9a9a9a", INACTIVE: "#d0d0d0", MASKED: "#9a9a9a",
          INVALID: "#e07000", ZERO: "#e07000", UNKNOWN: "#8a3ab9"}
HIGHLIGHT = "#d62728"


_XML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})


def _esc(t: str) -> str:
    """XML text and attribute escaping (xml.sax.saxutils would pull in
    urllib and ssl at start-up only for this)."""
    return t.translate(_XML)


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n - 1] + "~"


def _head_lines(c: Column, n_chars: int = 19) -> list[str]:
    if c.step < 0:
        return ["entry", *[_short(p, n_chars - 1) for p in c.text.removeprefix("entry: ").split(", ")][:3]]
    toks = c.text.split(" ")
    n = 1
    while n < len(toks) and (n == 1 or toks[n - 1].endswith(",")):
        n += 1
    operands = " ".join(toks[1:n])
    ctrl = [t for t in toks[n:] if not t.endswith((":0xf", ":0x0"))]
    out = [f"line {c.line}", _short(toks[0], n_chars)]
    if operands:
        out.append(_short(operands, n_chars))
    out += [_short(t, n_chars) for t in ctrl[:2]]
    return out


def render(f: Flow) -> str:
    """The picture as SVG text (deterministic bytes)."""
    ys: dict[int, float] = {}  # lane -> y of the row or band that shows it
    row_y: list[tuple[Fold, float, int]] = []
    y = float(TOP)
    prev = -1
    gaps: list[tuple[float, int]] = []  # (y, strength) of group separators
    for fold in f.rows:
        run = list(fold.lanes)
        first = run[0]
        if prev >= 0:
            strength = 3 if first % 32 == 0 else 2 if first % 16 == 0 else 1 if first // 4 != prev // 4 else 0
            if strength:
                y += 2 * strength
                gaps.append((y - strength, strength))
        h = FOLD_H if fold.like is not None else LANE_H
        row_y.append((fold, y, h))
        for i in run:
            ys[i] = y + h / 2
        y += h
        prev = run[-1]
    scalar_y: list[tuple[ScalarRow, float]] = []
    if f.scalars:
        y += 12
        gaps.append((y - 6, 2))
        for sr in f.scalars:
            scalar_y.append((sr, y + LANE_H / 2))
            y += LANE_H + 2
    bottom = y
    xs: list[float] = []
    x = float(LEFT + 10)
    for c in f.columns:
        w = _col_width(c, f.col_w)
        xs.append(x + w / 2)
        x += w
    right = x
    text_w = _text_w(f)
    width = max(int(right + text_w + 20), 1150)  # the legend's width
    height = int(bottom + 90)
    o: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="DejaVu Sans Mono, monospace" font-size="10">',
        '<defs><marker id="arrow" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="5" markerHeight="5" '
        'orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#6a8cae"/></marker>'
        f'<marker id="harrow" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="5" markerHeight="5" '
        f'orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="{HIGHLIGHT}"/></marker></defs>',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text class="title" x="8" y="16" font-size="13" font-weight="bold">{_esc(f.title)}</text>',
    ]
    # group separators and the lane labels
    dash = ' stroke-dasharray="2,3"'
    bold = ' font-weight="bold"'
    for gy, s in gaps:
        o.append(f'<line class="sep" x1="8" y1="{gy:.1f}" x2="{right:.0f}" y2="{gy:.1f}" stroke="#444" '
                 f'stroke-width="{[0, 0.5, 1, 2][s]}"{dash if s == 1 else ""}/>')
    o.append(f'<text x="{LEFT - 34}" y="{TOP - 8}" text-anchor="end" fill="#555">lane</text>'
             f'<text x="{LEFT - 28}" y="{TOP - 8}" fill="#555">EXEC</text>')
    for fold, ry, h in row_y:
        i = fold.lanes[0]
        active = (f.exec0 >> i) & 1
        if fold.like is not None:
            o.append(f'<g class="fold" data-lane="{i}" data-last="{fold.lanes[-1]}">'
                     f'<rect x="8" y="{ry + 1:.1f}" width="{right - 8:.0f}" height="{h - 2}" fill="#efefef"/>'
                     f'<text x="12" y="{ry + h - 4:.1f}" fill="#555">{_esc(fold.text())}</text>')
        else:
            o.append(f'<g class="lane" data-lane="{i}" data-last="{i}">'
                     f'<text x="12" y="{ry + h - 3:.1f}" fill="#333">{"row " + str(i // 16) if i % 16 == 0 else ""}'
                     f'</text><text x="{LEFT - 30}" y="{ry + h - 3:.1f}" text-anchor="end" fill="#333">{i}</text>')
        o.append(f'<rect class="exec{" on" if active else ""}" x="{LEFT - 24}" y="{ry + 1:.1f}" width="12" '
                 f'height="{h - 2}" fill="{"#2a9d3a" if active else "#e6e6e6"}"/></g>')
    # column heads
    for k, c in enumerate(f.columns):
        cx = xs[k]
        resp = k == f.responsible
        o.append(f'<g class="column{" responsible" if resp else ""}{" branch" if c.step == BRANCH_COL else ""}" '
                 f'data-column="{k}" data-line="{c.line}">'
                 f'<title>{_esc(c.text)}</title>')
        if resp:
            o.append(f'<rect x="{cx - (f.col_w - 24) / 2:.1f}" y="{TOP - 84}" width="{f.col_w - 24}" height="{bottom - TOP + 88:.0f}" '
                     f'fill="none" stroke="{HIGHLIGHT}" stroke-width="2" rx="4"/>'
                     f'<text x="{cx:.1f}" y="{bottom + 14:.0f}" text-anchor="middle" fill="{HIGHLIGHT}" '
                     f'font-weight="bold">responsible</text>')
        if c.step == FOLD_COL:
            heads = ["...", c.text.split(": ", 1)[1].split(" ", 1)[0] + " more"]
        elif c.step == BRANCH_COL:  # the branch, which way it went and the condition it read
            nc = max(8, int(_col_width(c, f.col_w) / 6.6))
            ins, how = c.text.split(": ", 1)
            way, _, cond = how.partition(" (")
            heads = [f"line {c.line}", _short(ins.split(" ")[0], nc), way, _short(cond.rstrip(")"), nc)]
            o.append(f'<text class="branch {"taken" if way == "taken" else "not-taken"}" x="{cx:.1f}" '
                     f'y="{bottom + 26:.0f}" text-anchor="middle" fill="#7b3fa0" font-weight="bold">'
                     f'branch {way}</text>')
        else:
            nc = max(8, int(_col_width(c, f.col_w) / 6.6))
            heads = (_head_lines(c, nc) if (c.cells or c.step < 0)
                     else [f"line {c.line}", *[_short(t, nc) for t in c.text.split(" ", 1)[:1]]])
        for n, t in enumerate(heads):
            o.append(f'<text x="{cx:.1f}" y="{TOP - 72 + 11 * n}" text-anchor="middle"'
                     f'{bold if n == 1 else ""} fill="{HIGHLIGHT if resp else "#222"}">'
                     f'{_esc(t)}</text>')
        if c.writes_exec:
            o.append(f'<text x="{cx:.1f}" y="{bottom + 26:.0f}" text-anchor="middle" fill="#2a9d3a">writes EXEC</text>')
        if c.reg and c.step >= 0:
            o.append(f'<text x="{cx:.1f}" y="{TOP - 4}" text-anchor="middle" fill="#555">{c.reg}</text>')
        if not c.cells and c.step != -1:
            o.append(f'<line x1="{cx:.1f}" y1="{TOP}" x2="{cx:.1f}" y2="{bottom:.0f}" stroke="#ddd" '
                     f'stroke-dasharray="3,3"/>')
        o.append("</g>")
    # arrows and marks
    on_path = set(f.path)
    prev_k = 0
    for k, c in enumerate(f.columns):
        if not c.cells:
            continue
        if k > 0:
            seen: set[tuple[float, float]] = set()
            for fold, _ry, _h in row_y:
                i = fold.lanes[0]
                cell = c.cells[i]
                for j in cell.sources:
                    y1, y2 = ys[j], ys[i]
                    if (y1, y2) in seen:
                        continue
                    seen.add((y1, y2))
                    x1, x2 = xs[prev_k] + 6, xs[k] - 6
                    if cell.status in (INVALID, ZERO):  # the read that found its source lane inactive
                        o.append(f'<line class="arrow invalid" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                                 f'y2="{y2:.1f}" stroke="{COLORS[INVALID]}" stroke-width="0.9" stroke-dasharray="4,3"/>')
                        continue
                    o.append(f'<line class="arrow" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                             f'stroke="#6a8cae" stroke-width="0.8" marker-end="url(#arrow)"/>')
        for fold, _ry, _h in row_y:
            i = fold.lanes[0]
            cell = c.cells[i]
            cy = ys[i]
            hl = (k, i) in on_path
            col = HIGHLIGHT if hl else COLORS[cell.status]
            cls = f'mark {cell.status}{" path" if hl else ""}'
            tip = f"<title>lane {i}: {_esc(cell.why or cell.status)}</title>" if cell.why else ""
            cx = xs[k]
            if cell.status in (MOVED, COMPUTED):
                o.append(f'<circle class="{cls}" data-lane="{i}" cx="{cx:.1f}" cy="{cy:.1f}" r="{4.5 if hl else 3.5}" '
                         f'fill="{col}">{tip}</circle>')
            elif cell.status == INVALID:
                o.append(f'<g class="{cls}" data-lane="{i}" stroke="{col}" stroke-width="1.8">{tip}'
                         f'<line x1="{cx - 4:.1f}" y1="{cy - 4:.1f}" x2="{cx + 4:.1f}" y2="{cy + 4:.1f}"/>'
                         f'<line x1="{cx - 4:.1f}" y1="{cy + 4:.1f}" x2="{cx + 4:.1f}" y2="{cy - 4:.1f}"/></g>')
            elif cell.status == ZERO:
                o.append(f'<text class="{cls}" data-lane="{i}" x="{cx:.1f}" y="{cy + 3.5:.1f}" text-anchor="middle" '
                         f'fill="{col}" font-weight="bold">0{tip}</text>')
            elif cell.status == UNKNOWN:
                o.append(f'<text class="{cls}" data-lane="{i}" x="{cx:.1f}" y="{cy + 3.5:.1f}" text-anchor="middle" '
                         f'fill="{col}" font-weight="bold">?{tip}</text>')
            else:  # not written: a hollow mark
                o.append(f'<circle class="{cls}" data-lane="{i}" cx="{cx:.1f}" cy="{cy:.1f}" r="3" fill="white" '
                         f'stroke="{col}" stroke-width="{1.8 if hl else 1}">{tip}</circle>')
        prev_k = k
    # the deciding lane's path, over the arrows
    for (c1, l1), (c2, l2) in zip(f.path, f.path[1:]):
        o.append(f'<line class="path" data-lane="{l2}" x1="{xs[c1] + 6:.1f}" y1="{ys[l1]:.1f}" x2="{xs[c2] - 6:.1f}" '
                 f'y2="{ys[l2]:.1f}" stroke="{HIGHLIGHT}" stroke-width="2.2" marker-end="url(#harrow)"/>')
    # the SGPRs: a value where each is an input or written
    for sr, sy in scalar_y:
        name = f"{sr.reg} {sr.label}".strip()
        o.append(f'<g class="sgpr" data-reg="{sr.reg}"><text x="12" y="{sy + 3.5:.1f}" fill="#333">{_esc(name)}</text>'
                 f'<text x="{LEFT - 30}" y="{sy + 3.5:.1f}" text-anchor="end" fill="#555">SGPR</text>')
        for k, c in enumerate(f.columns):
            if c.step not in sr.values:
                continue
            hot = c.step in sr.hot
            o.append(f'<text class="svalue{" path" if hot else ""}" data-step="{c.step}" x="{xs[k]:.1f}" '
                     f'y="{sy + 3.5:.1f}" text-anchor="middle" font-size="9" fill="{HIGHLIGHT if hot else "#1f6fb4"}"'
                     f'{bold if hot else ""}>{sr.values[c.step]:#x}</text>')
        if sr.verdict:
            o.append(f'<text class="verdict bad" x="{right + 8:.0f}" y="{sy + 3.5:.1f}" fill="{HIGHLIGHT}">'
                     f'{_esc(sr.reg)}: {_esc(sr.verdict)}</text>')
        o.append("</g>")
    # expected vs actual
    for fold, _ry, _h in row_y:
        i = fold.lanes[0]
        if i in f.verdicts:
            o.append(f'<text class="verdict{" bad" if i in f.bad else ""}" data-lane="{i}" x="{right + 8:.0f}" '
                     f'y="{ys[i] + 3.5:.1f}" fill="{HIGHLIGHT}">lane {i}: {_esc(f.verdicts[i])}</text>')
        elif not f.verdicts and (f.exec0 >> i) & 1:
            o.append(f'<text class="verdict ok" data-lane="{i}" x="{right + 8:.0f}" y="{ys[i] + 3.5:.1f}" '
                     f'fill="#2a9d3a">= spec</text>')
    # legend
    ly = bottom + 44
    legend = [(COLORS[MOVED], "moved from the lane the arrow starts at"), (COLORS[COMPUTED], "computed (arrows: lanes read)"),
              (COLORS[KEPT], "o not written (masked, or lane inactive)"), (COLORS[INVALID], "x invalid read (dashed: from an inactive lane), not written"),
              (COLORS[ZERO], "0 invalid read, writes 0"), (COLORS[UNKNOWN], "? unknown (hazard, DS in flight)")]
    for n, (colr, t) in enumerate(legend):
        lx = 8 + (n % 3) * 380
        yy = ly + (n // 3) * 14
        o.append(f'<circle cx="{lx + 4}" cy="{yy - 3}" r="3.5" fill="{colr}"/>'
                 f'<text x="{lx + 12}" y="{yy}" fill="#333">{_esc(t)}</text>')
    ex = f"EXEC at entry {fmt_mask(f.exec0, f.wave)}"
    if f.exec_final is not None:
        ex += f", at the end {fmt_mask(f.exec_final, f.wave)}"
    if f.path:
        ex += "; red: the deciding lane's path" + (" from the responsible instruction" if f.path_cut else "")
    if f.folded:
        ex += f"; {f.folded} instructions off the path folded (--svg-full draws them)"
    o.append(f'<text x="8" y="{ly + 30}" fill="#333">{_esc(ex)}</text>')
    o.append("</svg>")
    return "\n".join(o) + "\n"


# ---------------------------------------------------------------------------
# from a command's results


def tag_values(low: Lowering, wave: int) -> dict[str, Any]:
    """Lane-tagged inputs: input k's lane i holds (k << 8) + i (as verify.cex)."""
    vals: dict[str, Any] = {}
    for k, b in enumerate(low.inputs, 1):
        vals[reg_key(b.reg)] = [(k << 8) + i for i in range(wave)] if isinstance(b.reg, VReg) else (k << 8) + 0x80
    return vals


def contract_mask(low: Lowering, wave: int) -> int:
    """EXEC for a proof's picture: the contract's fixed mask, else every lane."""
    return int(low.exec_contract, 16) if low.exec_contract.startswith("0x") else (1 << wave) - 1


def result_svg(low: Lowering, results: list[Result], assume: dict[str, str], full: bool = False) -> str:
    """The picture of `verify lowering`'s (or `verify asm`'s) results: the
    first counterexample with lanes to show (the instructions off its path
    folded unless `full`), else the first result's run with lane-tagged
    inputs under its contract."""
    pick = next((r for r in results if r.cex is not None and r.cex.rows), None)
    r = pick or results[0]
    tgt = resolve(r.target)[0]
    asm = {**assume, **r.assumptions}
    if pick is not None and pick.cex is not None:
        c = pick.cex
        vals = c.state or c.inputs
        title = f"{low.name}: {r.target} wave{r.wave}: refuted ({c.obligation}), EXEC {fmt_mask(c.exec_mask, r.wave)}"
        return render(flow(low, tgt, r.wave, asm, c.exec_mask, vals, c, title, full))
    title = f"{low.name}: {r.target} wave{r.wave}: {r.verdict} (lane-tagged inputs: input k lane i = k*0x100+i)"
    return render(flow(low, tgt, r.wave, asm, contract_mask(low, r.wave), tag_values(low, r.wave), None, title))


def show_svg(low: Lowering, target: Target, wave: int, assume: dict[str, str], mask: int,
             given: dict[str, list[int]]) -> str:
    """The picture of `verify show` on a lowering: inputs as given, else lane numbers."""
    vals: dict[str, Any] = {}
    for name, v in given.items():
        b = next((b for b in low.inputs if b.name == name), None)
        vals[reg_key(b.reg) if b is not None else name] = v if b is None or isinstance(b.reg, VReg) else v[0]
    for b in low.inputs:
        vals.setdefault(reg_key(b.reg), list(range(wave)))
    return render(flow(low, target, wave, assume, mask, vals, None, f"{low.name}: {target.name} wave{wave}"))


# ---------------------------------------------------------------------------
# from a replayed trace (verify tv's counterexample, verify/tv/cextv.py)


def _scalar_rows(trace: list[Any], value: ValueAt, sgprs: dict[str, tuple[str, int | None]], out_reg: str,
                 r: Row) -> list[ScalarRow]:
    """The SGPRs a shader's picture draws: its SGPR arguments (`sgprs`:
    register -> (IR argument, entry value)), an SGPR result, and the SGPRs
    the deciding lane's trace names as written (at most 8), each with its
    values; red: the result's last value, an SGPR the responsible
    instruction writes, and the one it reads that its text names."""
    regs = list(sgprs) + ([out_reg] if out_reg.startswith("s") else [])
    regs += [m.group(1) for c in r.chain for m in re.finditer(r"writes (s\d+|vcc_lo|vcc_hi)\b", c)]
    regs = list(dict.fromkeys(regs))[:8]
    resp = re.match(r"line (\d+)", r.responsible)
    out: list[ScalarRow] = []
    for reg in regs:
        op = SReg((reg,))
        vals: dict[int, int] = {}
        if reg in sgprs:
            v0 = sgprs[reg][1]
            if v0 is None:
                v0 = value(0, op, None)
            if v0 is not None:
                vals[-1] = v0
        hot: set[int] = set()
        at = next((st.index for st in trace if resp and st.instr.line == int(resp.group(1))), None)
        for st in trace:
            if (reg, None) in st.events:
                v = value(st.index + 1, op, None)
                if v is not None:
                    vals[st.index] = v
                if st.index == at:
                    hot.add(st.index)
        last = max((k for k in vals if k >= 0), default=None)
        if reg == out_reg and last is not None:
            hot.add(last)
        if at is not None and re.search(rf"(reads its \S+( or \S+)* |<- ){reg}\b", r.responsible):
            hot.add(max((k for k in vals if k < at), default=-1))  # the value the responsible instruction read
        verdict = (f"IR {r.expected:#x}{' ' + r.expected_src if r.expected_src else ''}, GPU {r.actual:#x}"
                   if reg == out_reg else "")
        out.append(ScalarRow(reg, sgprs[reg][0] if reg in sgprs else "", vals, verdict, hot))
    return out


def trace_svg(low: Lowering, machine: Any, value: ValueAt | None, wave: int, mask: int, rows: list[Row],
              out_reg: str, title: str, full: bool = False,
              sgprs: dict[str, tuple[str, int | None]] | None = None,
              branches: list[tuple[int, int, str]] | None = None) -> str:
    """The picture of a counterexample whose GPU code was replayed
    concretely outside a lowering (`machine`, with its trace): the columns,
    the deciding lane's path to `out_reg` and the responsible column as
    :func:`flow` draws them, the others folded unless `full`.  `branches`:
    the conditional branches the path met, each (trace steps run before it,
    its line, "s_cbranch_scc0 L: taken (SCC = 0)"), drawn as a column of
    their own where the path passed them."""
    enc = _Replayed(machine)
    cols = _columns(low, enc)  # type: ignore[arg-type]
    f = Flow(title, wave, mask, cols, [])
    ordered = deciding_first(rows)
    f.bad = {r.lane for r in rows}
    r = ordered[0]
    if out_reg.startswith("v"):
        f.path = _path(low, enc, cols, out_reg, r.lane, value, _followed(r.chain))  # type: ignore[arg-type]
    if value is not None and (sgprs or out_reg.startswith("s")):  # a shader's SGPRs
        f.scalars = _scalar_rows(machine.trace or [], value, sgprs or {}, out_reg, r)
    pinned = {ln for _, ln in f.path} | {r.lane}
    f.chain_lines = {int(m.group(1)) for c in r.chain if (m := re.match(r"line (\d+)", c))}
    m = re.match(r"line (\d+)", r.responsible)
    if m:
        f.responsible = next((k for k, c in enumerate(cols) if c.step >= 0 and c.line == int(m.group(1))), None)
    for x in ordered:
        f.verdicts.setdefault(x.lane, f"IR {x.expected:#x}{' ' + x.expected_src if x.expected_src else ''}"
                                      f", GPU {x.actual:#x}{' ' + x.actual_src if x.actual_src else ''}")
    pinned |= {j for c in cols if c.cells for i in set(pinned) for j in c.cells[i].sources}
    f.rows = fold_lanes(list(range(wave)), _same_lane(cols, mask), pinned)
    if branches:
        _branch_columns(f, branches, r)
        if f.responsible is None and m:  # the branch itself named
            f.responsible = next((k for k, c in enumerate(f.columns) if c.step == BRANCH_COL
                                  and c.line == int(m.group(1))), None)
    if not full:
        _fold_columns(f)
    return render(f)


def _branch_columns(f: Flow, branches: list[tuple[int, int, str]], r: Row) -> None:
    """Each branch (trace steps before it, line, text) a column between the
    instructions it came between; the path's and the responsible column's
    indices moved along.  A branch the row's trace names is kept when the
    picture folds."""
    at: dict[int, list[tuple[int, str]]] = {}
    for n, line, text in branches:
        at.setdefault(n, []).append((line, text))
    new: list[Column] = []
    remap: dict[int, int] = {}
    for k, c in enumerate(f.columns):
        if c.step >= 0:
            new += [Column(BRANCH_COL, line, text, None, []) for line, text in at.pop(c.step, [])]
        remap[k] = len(new)
        new.append(c)
    new += [Column(BRANCH_COL, line, text, None, []) for n in sorted(at) for line, text in at[n]]
    f.columns = new
    f.path = [(remap[c], ln) for c, ln in f.path]
    f.responsible = remap[f.responsible] if f.responsible is not None else None
    f.chain_lines |= {line for _, line, _ in branches if any(f"line {line} (" in c for c in r.chain)}


@dataclass
class _Replayed:
    """What :func:`_columns` and :func:`_path` read of an Encoding."""

    machine: Any
