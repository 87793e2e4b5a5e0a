"""An optimality bound over every DPP16 control, row/bank mask, bound_ctrl
and fi setting (and every DPP8 and permlane16/permlanex16 select): no
program of at most N components cheaper than C refines the spec.

The search in ``search.py`` enumerates programs whose DPP16 moves have
full masks (only the last move may take a mask).  With a row mask, a bank
mask, bound_ctrl and fi free on every move there are about a thousand
moves per control, and four-move programs are far too many to enumerate.
This module proves a *lower bound* instead, on a relaxation that keeps
only a few lanes: the *window*.

- **Tests.**  A program must refine the spec under every EXEC mask the
  contract admits, so in particular under EXEC = the window's lanes (for
  ``exec=any``; under ``exec=full``, all lanes).  The window is closed
  under the spec's sources: every value the spec wants on a window lane
  comes from a window lane of x.
- **What is kept.**  The lanes of v1 and v2 inside the window, exactly, as
  which lane of x they hold.  A value read from outside the window is
  forgotten: x there is never wanted in the window; v1/v2 there hold their
  initial contents (never wanted) until a component may have written them
  outside the window, and a *symbol* after that: an unknown value, the same
  symbol wherever one read put it, so a broadcast of one unknown value
  cannot be two different wanted values.
- **Moves.**  Each component's effect on the window (which window lane or
  outside lane each window lane reads, or keeps, or zero) comes from
  running it through the ordinary machine on lane-tagged registers
  (``concrete.run``), as the search's lane maps do.  DPP16 moves run once
  per control, bound_ctrl and fi setting with full masks; a row/bank mask
  then keeps the old value on the lanes it disables
  (``ops.dpp.masks_enable``; the masks gate only the destination,
  assumption ``dpp.mask_scope``'s default ``dest``), and only the masks'
  pattern on the window's banks matters.  A DPP8 lane reads by its own
  select entry, so eight runs give every select word's effect.  Moves with one effect on the
  window and one hazard shape are one move of the relaxed search.
- **Search.**  Uniform cost over the window states, in and out of
  whole-wave mode, with the hazard waits and costs of
  ``search.Costing``, up to N components, cheaper than C.  A state meets
  the goal when every constrained window lane holds its wanted value or a
  symbol, and no symbol must be two values.

Every concrete program ends in a window state the relaxed search reaches
at no greater cost (it keeps more, never less), so if no relaxed program
cheaper than C meets the goal, no concrete program does: the bound holds.
If one does, the bound is not established (the relaxed program is
reported; it need not be a real lowering).  The window is chosen from a
short deterministic list; the claim names the one that held.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import product
from operator import itemgetter
from typing import Any

from ..backend import Concrete
from ..diag import InputError, Span
from ..ir import Instr
from ..lowering_file import parse_instr
from ..machine import Machine
from ..ops import OPS
from ..ops.dpp import masks_enable
from ..target import FeatureLog, Target
from .components import CLASSES, OUT, TMP, VREGS, Component, X, _dpp16_controls, build, distinct
from .concrete import TAG_BASE, Goal, Space, run
from .cost import CostModel
from .search import Costing, Sig, _instr

# the window effect of a component, per window lane: a code
OLD = -1  # keeps the destination's value
JUNK = -2  # 0, or a value the spec never wants in the window
FRESH = -3  # an unknown value of its own (a component that is no data movement)
OUTSIDE = 1 << 16  # + reg * 4096 + lane: reads that lane, outside the window
_INF = float("inf")
SYM = 1 << 10  # window values at or above are symbols; below: 0 junk, k + 1 = x's k-th window lane

Effect = tuple[int, ...]
WState = tuple[tuple[int, ...], tuple[int, ...], bool, bool]  # v1, v2 window lanes; v1, v2 written outside


@dataclass
class Move:
    """One move of the relaxed search: a representative component and its
    effect on the window (the others it stands for have the same effect and
    the same hazard shape)."""
    comp: Component
    effect: Effect
    shape: Any  # what the hazard rules and the cost model see of it (with its destination)
    fast: Any = None  # the new window lanes from (0, x, v1, v2) when no symbol is involved
    outside: bool = False  # reads a lane outside the window

    def prepare(self, n: int) -> None:
        if FRESH in self.effect:
            return
        pos = []
        for k, c in enumerate(self.effect):
            if c == OLD:
                pos.append(1 + self.comp.dst * n + k)
            elif c == JUNK or c >= OUTSIDE:
                pos.append(0)
            else:
                pos.append(1 + (c >> 6) * n + (c & 63))
        self.outside = any(c >= OUTSIDE for c in self.effect)
        self.fast = itemgetter(*pos) if n > 1 else (lambda t, p=pos[0]: (t[p],))


@dataclass
class BoundResult:
    holds: bool
    below: float  # the bound: no program cheaper than this
    max_ops: int
    window: tuple[int, ...]
    exec_test: int
    instances: dict[str, int] = field(default_factory=dict)  # class -> concrete instances covered
    moves: int = 0  # relaxed moves after merging
    states: int = 0
    witness: list[str] | None = None  # a relaxed program cheaper than the bound meeting the goal
    witness_cost: int | None = None
    windows_tried: int = 0

    fi: bool = False  # the targets take fi (GFX10+)
    dpp8: bool = False  # every DPP8 select was covered too
    permlanes: tuple[str, ...] = ()  # the permlane classes whose every select was covered
    note: str = ""  # why no window was searched

    def scope(self) -> str:
        """What the bound adds to the claim's scope."""
        mods = "row_mask, bank_mask, bound_ctrl and fi" if self.fi else "row_mask, bank_mask and bound_ctrl"
        dpp8 = f", every DPP8 move with any select{' and fi' if self.fi else ''}" if self.dpp8 else ""
        perm = (f", every {' and '.join(self.permlanes)} move with any select and op_sel" if self.permlanes else "")
        return (f"every DPP16 move with any control, {mods}{dpp8}{perm} (a lower bound, proved on lanes "
                f"{_lanes_text(self.window)})")

    def failure(self) -> str:
        if self.note:
            return f"bound over every DPP16 control and mask: not established ({self.note})"
        return (f"bound over every DPP16 control and mask: not established (on lanes {_lanes_text(self.window)} a "
                f"relaxed program of cost {self.witness_cost} meets the spec; it need not be a real lowering)"
                if self.witness is not None else
                f"bound over every DPP16 control and mask: not established (the relaxed search passed "
                f"{self.states:,} states)")

    def to_json(self) -> dict[str, Any]:
        return {"holds": self.holds, "below": self.below, "max_ops": self.max_ops, "window": list(self.window),
                "exec_test": hex(self.exec_test), "instances": self.instances, "moves": self.moves,
                "states": self.states, "witness": self.witness, "witness_cost": self.witness_cost,
                "windows_tried": self.windows_tried}


def _lanes_text(lanes: Iterable[int]) -> str:
    return ", ".join(map(str, lanes))


def _dpp_variants(targets: list[Target], wave: int) -> Iterable[tuple[str, bool, bool]]:
    """(control text, bound_ctrl, fi) for every DPP16 control the targets
    have, with every zero-fill and fetch-inactive setting they accept."""
    for feat, ctrl in _dpp16_controls():
        if not all(t.has(feat) for t in targets):
            continue
        for bc in (False, True):
            for fi in (False, True):
                text = f"v_mov_b32_dpp v1, v0 {ctrl} row_mask:0xf bank_mask:0xf" + (" bound_ctrl:1" if bc else "") + (
                    " fi:1" if fi else "")
                try:
                    ins = parse_instr(text, Span("<bound>", 1))
                    if any(OPS[ins.base].check(ins, t, wave) for t in distinct(targets)):
                        continue
                except InputError:
                    continue
                yield ctrl, bc, fi


def _mods(bc: bool, fi: bool) -> str:
    return (" bound_ctrl:1" if bc else "") + (" fi:1" if fi else "")


class Window:
    """The window lanes, the EXEC test, and the goal on them."""

    def __init__(self, spec: str, params: dict[str, Any], wave: int, lanes: list[int], exec_contract: str):
        self.W = wave
        self.lanes = sorted(set(lanes))
        full = (1 << wave) - 1
        # close the lanes under the spec's sources with every lane on, then
        # under the window's own EXEC test
        top = Goal(spec, params, Space(wave, [full]))
        src_of = {top.lanes[k]: self._src(top, k) for k in range(len(top.care))}
        if exec_contract == "full":
            todo = list(self.lanes)
            while todo:
                s = src_of.get(todo.pop())
                if s is not None and s not in self.lanes:
                    self.lanes = sorted(set(self.lanes) | {s})
                    todo.append(s)
        else:
            # the seeds' sources; a source's own source is off under the
            # window's EXEC test, so the spec may leave it undefined there
            self.lanes = sorted(set(self.lanes) | {s for s in (src_of.get(i) for i in self.lanes) if s is not None})
        while True:
            self.exec = full if exec_contract == "full" else sum(1 << i for i in self.lanes)
            goal = Goal(spec, params, Space(wave, [self.exec]))
            grow = sorted({s for k in range(len(goal.care)) if goal.lanes[k] in self.lanes
                           and (s := self._src(goal, k)) is not None and s not in self.lanes})
            if not grow:
                break
            self.lanes = sorted(set(self.lanes) | set(grow))
        self.index = {lane: k for k, lane in enumerate(self.lanes)}
        want: list[int | None] = [None] * len(self.lanes)
        for k in range(len(goal.care)):
            lane, src = goal.lanes[k], self._src(goal, k)
            if lane in self.index:
                want[self.index[lane]] = 0 if src is None else self.index[src] + 1
        self.want = tuple(want)
        self.outside_active = exec_contract == "full"

    @staticmethod
    def _src(goal: Goal, k: int) -> int | None:
        v = goal.vals[k]
        return None if v == 0 else v - TAG_BASE  # x's tags: TAG_BASE * (0 + 1) + lane

    def met(self, v1: tuple[int, ...]) -> bool:
        sym: dict[int, int] = {}
        for got, want in zip(v1, self.want):
            if want is None:
                continue
            if got >= SYM:
                if sym.setdefault(got, want) != want:
                    return False
            elif got != want:
                return False
        return True


def _effect(m_vals: list[int], dst: int, win: Window, names: dict[int, int] | None = None) -> Effect:
    """Decode a destination's lane tags into window codes; `names` maps the
    machine's registers to the codes' (default: v0, v1, v2 as themselves)."""
    names = {r: r for r in VREGS} if names is None else names
    out: list[int] = []
    for lane in win.lanes:
        v = m_vals[lane]
        if v == 0:
            out.append(JUNK)
            continue
        reg = (v // TAG_BASE) - 1
        src = v - TAG_BASE * (reg + 1)
        if reg not in names or not 0 <= src < win.W:
            out.append(FRESH)
            continue
        r2 = names[reg]
        if reg == dst and src == lane:
            out.append(OLD)
        elif src in win.index:
            out.append(r2 * 64 + win.index[src])
        else:
            out.append(OUTSIDE + r2 * 4096 + src)
    return tuple(out)


_CHUNK = 240  # moves per machine run (v8..v247)
_BATCH = 8  # the first destination of a batch of DPP moves (v8, v9, ...): see _dpp_effects


def _dpp_effects(batches: list[list[Instr]], target: Target, wave: int, win: Window, wwm: bool,
                 first: int = _BATCH) -> list[Effect]:
    """The window effect of each DPP16 move of the batches (v0 into a
    register of its own), one machine run per batch: no move reads another's
    destination, so neither order nor hazards matter.  Reads of v0 are coded
    as reads of X, of the move's own destination as register _BATCH."""
    out: list[Effect] = []
    for instrs in batches:
        m = Machine(Concrete(), wave, lambda kind, name, lane: False if kind == "scc" else 0, FeatureLog(target),
                    {}, waits=False)
        for r in [X] + list(range(first, first + len(instrs))):
            m.vregs[r] = [TAG_BASE * (r + 1) + i for i in range(wave)]
        m.set_exec_mask(((1 << wave) - 1) if wwm else win.exec)
        m.run(instrs)
        out += [_effect(m.v(first + i), first + i, win, {X: X, first + i: _BATCH}) for i in range(len(instrs))]
    return out


def _rename(effect: Effect, sigma: dict[int, int]) -> Effect:
    out = []
    for c in effect:
        if c >= OUTSIDE:
            r, lane = divmod(c - OUTSIDE, 4096)
            out.append(OUTSIDE + sigma[r] * 4096 + lane)
        elif c >= 0:
            r, k = divmod(c, 64)
            out.append(sigma[r] * 64 + k)
        else:
            out.append(c)
    return tuple(out)


class Universe:
    """The component instances a bound covers, built once: every DPP16
    control with every bound_ctrl and fi setting the targets accept (the
    masks are applied per window), and the other classes' components, less
    those that alone cost the bound (they cannot be part of a cheaper
    program)."""

    def __init__(self, targets: list[Target], wave: int, classes: list[str], costing: Costing, below: float,
                 comps: list[Component] | None = None, every_select: bool = True):
        self.targets, self.wave, self.classes = targets, wave, classes
        self.counts: dict[str, int] = {}
        self.variants: list[tuple[str, bool, bool]] = []
        self.batches: list[list[Instr]] = []
        if "dpp16" in classes:
            self.variants = list(_dpp_variants(targets, wave))
            # every variant, row_mask and bank_mask (16 x 16), in each of the
            # 6 source/destination pairs
            self.counts["dpp16"] = len(self.variants) * 256 * 6
            for at in range(0, len(self.variants), _CHUNK):
                self.batches.append([_instr(f"v_mov_b32_dpp v{_BATCH + i}, v0 {ctrl} row_mask:0xf bank_mask:0xf"
                                            + _mods(bc, fi))
                                     for i, (ctrl, bc, fi) in enumerate(self.variants[at:at + _CHUNK])])
        # DPP8: every select (8^8) with every fi setting the targets accept;
        # a window lane's read depends only on its own select entry, so one
        # run per entry value and fi derives every select word (moves())
        self.dpp8_fi: list[bool] = []
        self.batches8: list[list[Instr]] = []
        if "dpp8" in classes and all(t.has("dpp8") for t in targets):
            for fi in (False, True):
                ins = _instr("v_mov_b32_dpp v1, v0 dpp8:[0,1,2,3,4,5,6,7]" + (" fi:1" if fi else ""))
                if not any(OPS[ins.base].check(ins, t, wave) for t in distinct(targets)):
                    self.dpp8_fi.append(fi)
            self.counts["dpp8"] = 8 ** 8 * len(self.dpp8_fi) * 6
            self.batches8 = [[_instr(f"v_mov_b32_dpp v{_BATCH + 8 * k + v}, v0 dpp8:[{','.join([str(v)] * 8)}]"
                                     + (" fi:1" if fi else "")) for v in range(8)]
                             for k, fi in enumerate(self.dpp8_fi)]
        other = [c for c in CLASSES if c in classes and c not in ("dpp16", "dpp8" if self.dpp8_fi else "dpp16")]
        if comps is None:
            comps = build(targets, wave, other)
        # permlane16/permlanex16: every select word (16^16) with every
        # op_sel [fi, bound_ctrl] the targets accept, in each spelling and
        # register pair the listed components use; like DPP8, a lane reads
        # by its own select nibble, so sixteen runs per op_sel derive them all
        self._legal_cache: dict[str, bool] = {}
        self.perm: dict[str, tuple[list[tuple[int, int]], list[tuple[tuple[str, ...], int, int]], list[list[Instr]]]] = {}
        for cls in ("permlane16", "permlanex16") if every_select else ():
            mine = [c for c in comps if c.cls == cls]
            if not mine:
                continue
            mn = mine[0].lines[-1].split()[0]
            spellings = sorted({(tuple(t.split()[0] for t in c.lines), c.dst, c.src) for c in mine})
            sels: list[tuple[int, int]] = []
            for ofi, obc in ((0, 0), (1, 0), (0, 1), (1, 1)):
                ins = _instr(f"{mn} v1, v0, 0x0, 0x0 op_sel:[{ofi},{obc}]")
                if not any(OPS[ins.base].check(ins, t, wave) for t in distinct(targets)):
                    sels.append((ofi, obc))
            batches = [[_instr(f"{mn} v{_BATCH + 16 * k + v}, v0, {v * 0x11111111:#x}, {v * 0x11111111:#x} "
                               f"op_sel:[{ofi},{obc}]") for v in range(16)] for k, (ofi, obc) in enumerate(sels)]
            self.perm[cls] = (sels, spellings, batches)
            self.counts[cls] = 16 ** 16 * len(sels) * len(spellings)
            other = [c for c in other if c != cls]
        self.others: list[Component] = []
        alone: dict[Any, int] = {}
        for comp in comps:
            if comp.cls not in other:
                continue
            self.counts[comp.cls] = self.counts.get(comp.cls, 0) + 1
            shape = _shape(comp)
            if shape not in alone:
                alone[shape] = costing.extend((), comp)[1]
            if alone[shape] < below:
                self.others.append(comp)

    def _legal(self, line: str) -> bool:
        """Whether the targets accept a permlane line without warning (the
        select words decide whether a literal spelling is legal)."""
        hit = self._legal_cache.get(line)
        if hit is None:
            try:
                ins = _instr(line)
                hit = not any(OPS[ins.base].check(ins, t, self.wave) for t in distinct(self.targets))
            except InputError:
                hit = False
            self._legal_cache[line] = hit
        return hit

    def moves(self, win: Window, wwm: bool) -> list[Move]:
        """The relaxed moves for one window and mode, merged by window effect
        and hazard shape, less the dominated ones."""
        t0, wave = self.targets[0], self.wave
        out: dict[tuple[Any, ...], Move] = {}
        patterns: dict[tuple[bool, ...], tuple[int, int]] = {}
        for rm in range(15, -1, -1):
            for bm in range(15, -1, -1):
                patterns.setdefault(tuple(masks_enable(rm, bm, lane) for lane in win.lanes), (rm, bm))
        outside = wwm or win.outside_active

        def add(comp: Component | tuple[str, str, int, int], effect: Effect, shape: Any) -> None:
            """(a component, or (text, label, dst, src) of a DPP16 move, made
            a component only when it is kept)"""
            dst = comp.dst if isinstance(comp, Component) else comp[2]
            effect = _normal(effect, outside, dst)
            key = (shape, effect)
            if key not in out:
                if not isinstance(comp, Component):
                    comp = Component(shape[0], comp[1], comp[2], comp[3], (comp[0],), ())
                out[key] = Move(comp, effect, shape)

        effects = _dpp_effects(self.batches, t0, wave, win, wwm)
        for (ctrl, bc, fi), eff in zip(self.variants, effects):
            for d in (OUT, TMP):
                for s in VREGS:
                    # in place (s == d) the move reads the old destination:
                    # the same lanes as from another register  [S:dpp-lane-rule]
                    e = _rename(eff, {X: s, _BATCH: d})
                    shape = ("dpp16", d, s, ("v_mov_b32_dpp",))
                    for pat, (rm, bm) in patterns.items():
                        masks = f"row_mask:{rm:#x} bank_mask:{bm:#x}"
                        add((f"v_mov_b32_dpp v{d}, v{s} {ctrl} {masks}{_mods(bc, fi)}", f"{ctrl}{_mods(bc, fi)} {masks}",
                             d, s), _masked(e, pat), shape)
        if self.dpp8_fi:
            for k, fi in enumerate(self.dpp8_fi):
                per = _dpp_effects([self.batches8[k]], t0, wave, win, wwm, first=_BATCH + 8 * k)
                for sel, eff in dpp8_effects(per, win):
                    text = f"dpp8:[{','.join(map(str, sel))}]" + (" fi:1" if fi else "")
                    for d in (OUT, TMP):
                        for s in VREGS:
                            add((f"v_mov_b32_dpp v{d}, v{s} {text}", text, d, s), _rename(eff, {X: s, _BATCH: d}),
                                ("dpp8", d, s, ("v_mov_b32_dpp",)))
        for cls, (sels, spellings, batches) in self.perm.items():
            for k, (pfi, pbc) in enumerate(sels):
                per = _dpp_effects([batches[k]], t0, wave, win, wwm, first=_BATCH + 16 * k)
                for sel, eff in lane_select_effects(per, win, 16, outside):
                    s0 = sum(v << (4 * p) for p, v in enumerate(sel[:8]))
                    s1 = sum(v << (4 * p) for p, v in enumerate(sel[8:]))
                    for names, d, s in spellings:
                        mn = names[-1]
                        tail = f"op_sel:[{pfi},{pbc}]"
                        if len(names) == 1:
                            lines: tuple[str, ...] = (f"{mn} v{d}, v{s}, {s0:#x}, {s1:#x} {tail}",)
                        elif len(names) == 2:
                            lines = (f"s_mov_b32 s2, {s0:#x}", f"{mn} v{d}, v{s}, s2, {s1:#x} {tail}")
                        else:
                            lines = (f"s_mov_b32 s2, {s0:#x}", f"s_mov_b32 s3, {s1:#x}", f"{mn} v{d}, v{s}, s2, s3 {tail}")
                        if len(names) < 3 and not self._legal(f"{mn} v1, v0, {'s2' if len(names) == 2 else hex(s0)}, "
                                                              f"{s1:#x} {tail}"):
                            continue  # e.g. two different literal selects in one VOP3
                        pshape = (cls, d, s, names)
                        e = _normal(_rename(eff, {X: s, _BATCH: d}), outside, d)
                        if (pshape, e) not in out:
                            out[(pshape, e)] = Move(Component(cls, f"sel {sel} {tail}", d, s, lines, ()), e, pshape)
        for comp in self.others:
            m = run(comp.instrs, t0, wave, win.exec, TAG_BASE, wwm)
            add(comp, _effect(m.v(comp.dst), comp.dst, win), _shape(comp))
        return _undominated(list(out.values()))


def dpp8_effects(per_value: list[Effect], win: Window) -> Iterator[tuple[tuple[int, ...], Effect]]:
    """Every DPP8 select word's effect on the window, as (select, effect),
    one per distinct effect: lane i reads lane (i & ~7) + sel[i % 8], so a
    window lane's code is its code in the run whose every entry is
    sel[i % 8] (`per_value[v]`: the run with every entry v); entries at no
    window lane's position are 0.  [S:dpp8]"""
    pos = sorted({lane % 8 for lane in win.lanes})
    seen: set[Effect] = set()
    for combo in product(range(8), repeat=len(pos)):
        at = dict(zip(pos, combo))
        eff = tuple(per_value[at[lane % 8]][k] for k, lane in enumerate(win.lanes))
        if eff in seen:
            continue
        seen.add(eff)
        yield tuple(at.get(p, 0) for p in range(8)), eff


def lane_select_effects(per_value: list[Effect], win: Window, group: int,
                        outside_active: bool) -> Iterator[tuple[tuple[int, ...], Effect]]:
    """Like dpp8_effects, for a select of `group` entries (permlane16: 16
    nibbles; each lane reads by the entry at its position in the group).
    With 16 values per lane the words are many, so a read outside the window
    is coarsened first: junk where nothing outside can have been written,
    else a read of a lane of its own outside the window (two lanes reading
    one outside lane really share a value; forgetting that only lets the
    relaxation do more, so the bound stays sound).  [S:permlane16]"""
    pos = sorted({lane % group for lane in win.lanes})
    at_lane = [pos.index(lane % group) for lane in win.lanes]

    def coarse(c: int, k: int) -> int:
        # an outside read keeps its register (x there is junk; v1/v2 there
        # are junk or a symbol, as the search decides) but not its lane: a
        # pseudo-lane of the window lane's own, so no two lanes share it
        if c < OUTSIDE:
            return c
        return OUTSIDE + ((c - OUTSIDE) >> 12 << 12) + 4000 + k if outside_active else JUNK

    # per position, one value for each distinct tuple of the codes it gives
    # the window lanes at that position
    choices: list[list[int]] = []
    for p in range(len(pos)):
        ks = [k for k, a in enumerate(at_lane) if a == p]
        seen: dict[tuple[int, ...], int] = {}
        for v in range(group):
            seen.setdefault(tuple(coarse(per_value[v][k], k) for k in ks), v)
        choices.append(sorted(seen.values()))
    done: set[Effect] = set()
    for combo in product(*choices):
        eff = tuple(coarse(per_value[combo[at_lane[k]]][k], k) for k in range(len(win.lanes)))
        if eff in done:
            continue
        done.add(eff)
        sel = [0] * group
        for p, v in zip(pos, combo):
            sel[p] = v
        yield tuple(sel), eff


def _masked(effect: Effect, enabled: tuple[bool, ...]) -> Effect:
    """A DPP16 move's effect under a row/bank mask that enables the window
    lanes flagged: the others keep their value (the masks gate only the
    destination: assumption dpp.mask_scope=dest).  [S:dpp-mask-scope]"""
    return tuple(c if on else OLD for c, on in zip(effect, enabled))


def derived_effect(effect: Effect, d: int, s: int, row_mask: int, bank_mask: int, win: Window) -> Effect:
    """The effect of `v_mov_b32_dpp vD, vS <control> row_mask bank_mask`
    derived from the effect of the same control moving v0 into a batch
    register with full masks (what Universe.moves does, exposed for the
    property test that compares it with a direct run)."""
    e = _rename(effect, {X: s, _BATCH: d})
    return _masked(e, tuple(masks_enable(row_mask, bank_mask, lane) for lane in win.lanes))


def _shape(comp: Component) -> Any:
    """What the hazard rules and the cost model see of a component: its
    class, registers and mnemonics (never a control, mask, lane or offset)."""
    return (comp.cls, comp.dst, comp.src, tuple(t.split()[0] for t in comp.lines))


def _normal(effect: Effect, outside_active: bool, dst: int) -> Effect:
    """Outside reads as the search sees them: junk where nothing outside the
    window can have been written (the EXEC test leaves those lanes off);
    otherwise numbered by first appearance (a read's symbols are fresh, so
    only which window lanes share one matters)."""
    ren: dict[int, int] = {}
    out = []
    for k, c in enumerate(effect):
        if c == dst * 64 + k:
            c = OLD  # reads its own destination lane: keeps it
        elif c >= OUTSIDE:
            if not outside_active:
                c = JUNK
            else:
                r = (c - OUTSIDE) >> 12
                c = ren.setdefault(c, OUTSIDE + r * 4096 + len(ren))
        out.append(c)
    return tuple(out)


def _dominates(a: Effect, b: Effect) -> bool:
    """Does move a leave, on every window lane, what move b leaves, or b
    leave junk there?  (Junk is never wanted, so a program with b replaced
    by a, at the same cost and hazards, meets the goal whenever it did.)"""
    return all(x == y or y == JUNK for x, y in zip(a, b))


def _undominated(mvs: list[Move]) -> list[Move]:
    """The moves no other move of the same hazard shape dominates.  A move b
    with junk on the window lanes J is dominated exactly when another move
    agrees with it off J (it then differs on J, where it leaves something
    that is not junk), so each group is counted by its projections."""
    groups: dict[Any, list[Move]] = {}
    for mv in mvs:
        groups.setdefault(mv.shape, []).append(mv)
    out: list[Move] = []
    for group in groups.values():
        holes = {tuple(k for k, c in enumerate(mv.effect) if c == JUNK) for mv in group}
        counts: dict[tuple[tuple[int, ...], Effect], int] = {}
        for J in holes:
            if not J:
                continue
            for mv in group:
                key = (J, tuple(c for k, c in enumerate(mv.effect) if k not in J))
                counts[key] = counts.get(key, 0) + 1
        for mv in group:
            J = tuple(k for k, c in enumerate(mv.effect) if c == JUNK)
            if J and counts[(J, tuple(c for k, c in enumerate(mv.effect) if k not in J))] > 1:
                continue
            out.append(mv)
    # costs and hazards depend on the shape only (search() prices a shape by
    # its first move), so only that move's text is parsed
    parsed: set[Any] = set()
    for mv in out:
        if mv.shape not in parsed:
            parsed.add(mv.shape)
            if not mv.comp.instrs:
                mv.comp.instrs = tuple(_instr(t) for t in mv.comp.lines)
        mv.prepare(len(mv.effect))
    return out


def _step(state: WState, mv: Move, dst: int, xwin: tuple[int, ...], outside_active: bool) -> WState:
    v1, v2, f1, f2 = state
    regs = (xwin, v1, v2)
    flags = (False, f1, f2)
    cur = regs[dst]
    new: list[int] = []
    syms: dict[int, int] = {}
    nxt = max([v for v in v1 + v2 if v >= SYM], default=SYM - 1) + 1
    for k, c in enumerate(mv.effect):
        if c == OLD:
            new.append(cur[k])
        elif c == JUNK:
            new.append(0)
        elif c == FRESH:
            new.append(nxt)
            nxt += 1
        elif c >= OUTSIDE:
            r = (c - OUTSIDE) >> 12
            if not flags[r]:
                new.append(0)
            else:
                s = syms.get(c)
                if s is None:
                    s = syms[c] = nxt
                    nxt += 1
                new.append(s)
        else:
            new.append(regs[c >> 6][c & 63])
    t = tuple(new)
    if dst == OUT:
        v1, f1 = t, f1 or outside_active
    else:
        v2, f2 = t, f2 or outside_active
    return _canon((v1, v2, f1, f2))


def _canon(state: WState) -> WState:
    v1, v2, f1, f2 = state
    ren: dict[int, int] = {}
    a = tuple(ren.setdefault(v, SYM + len(ren)) if v >= SYM else v for v in v1)
    b = tuple(ren.setdefault(v, SYM + len(ren)) if v >= SYM else v for v in v2)
    return (a, b, f1, f2)


_Node = tuple[int, int, bool, int, WState, tuple[Instr, ...], tuple[Move, ...]]


class _Finals:
    """The moves into v1, indexed by what each reads on each constrained
    window lane, to find the last moves that meet the goal from a state
    without trying every move.  (A state holding a symbol, or whose v1/v2
    may hold moved values outside the window, is tried move by move.)"""

    def __init__(self, win: Window, mvs: list[Move]):
        self.win = win
        self.at = [i for i, mv in enumerate(mvs) if mv.comp.dst == OUT]  # their indices in mvs
        self.moves = [mvs[i] for i in self.at]
        self.lanes = [k for k, w in enumerate(win.want) if w is not None]
        self.index: list[dict[int, int]] = []
        for k in self.lanes:
            d: dict[int, int] = {}
            for i, mv in enumerate(self.moves):
                d[mv.effect[k]] = d.get(mv.effect[k], 0) | (1 << i)
            self.index.append(d)

    def candidates(self, state: WState) -> list[int]:
        v1, v2, f1, f2 = state
        if f1 or f2 or any(v >= SYM for v in v1 + v2):
            return self.at
        n = len(self.win.lanes)
        regs = (tuple(range(1, n + 1)), v1, v2)
        acc = -1
        for k, d in zip(self.lanes, self.index):
            w = self.win.want[k]
            good = 0
            if v1[k] == w:
                good |= d.get(OLD, 0)
            good |= d.get(FRESH, 0)  # an unknown value may be the wanted one
            if w == 0:
                good |= d.get(JUNK, 0) | sum(b for c, b in d.items() if c >= OUTSIDE)
            for r in range(3):
                for k2, v in enumerate(regs[r]):
                    if v == w:
                        good |= d.get(r * 64 + k2, 0)
            acc &= good
            if not acc:
                return []
        return [self.at[i] for i in range(len(self.moves)) if acc >> i & 1]


class _TwoLeft:
    """Which states can still meet the goal with at most two more moves,
    the last into v1: for every such pair (and every single last move),
    what it needs of the state before it, as window slots (v1's lanes, then
    v2's) and the values they must hold, with the pair's cost without
    waits.  A state (no symbols, nothing moved outside the window) that
    holds none of them cannot finish in two moves at any cost below the
    bound.  Built per mode, once."""

    def __init__(self, win: Window, mvs: list[Move], costs: list[int]):
        n = len(win.lanes)
        self.n = n
        need: dict[tuple[int, ...], dict[tuple[int, ...], int]] = {}

        def back(req: dict[int, int], mv: Move) -> dict[int, int] | None:
            """What must hold before `mv` for `req` to hold after it (None:
            nothing can).  Only for a mode where no lane outside the window
            is on, so a read outside the window is junk."""
            out: dict[int, int] = {}
            lo = (mv.comp.dst - 1) * n
            for slot, w in req.items():
                got = slot
                if lo <= slot < lo + n:
                    c = mv.effect[slot - lo]
                    if c == FRESH:
                        continue  # an unknown value: it may be the wanted one
                    if c == JUNK or c >= OUTSIDE:
                        if w != 0:
                            return None
                        continue
                    if c >= 0:
                        r, k2 = c >> 6, c & 63
                        if r == X:
                            if k2 + 1 != w:
                                return None
                            continue
                        got = (r - 1) * n + k2
                if out.setdefault(got, w) != w:
                    return None
            return out

        goal = {k: w for k, w in enumerate(win.want) if w is not None}
        # the first of the two moves matters only through its destination,
        # its effect on the lanes asked of it, and its cost: one of each
        firsts: dict[tuple[int, Effect, int], Move] = {}
        for i1, m1 in enumerate(mvs):
            firsts.setdefault((m1.comp.dst, m1.effect, costs[i1]), m1)
        grouped: dict[tuple[int, tuple[int, ...]], dict[tuple[tuple[int, ...], int], Move]] = {}

        def group(dst: int, ks: tuple[int, ...]) -> dict[tuple[tuple[int, ...], int], Move]:
            g = grouped.get((dst, ks))
            if g is None:
                g = grouped[(dst, ks)] = {}
                for (d, eff, c1), m1 in firsts.items():
                    if d == dst:
                        g.setdefault((tuple(eff[k] for k in ks), c1), m1)
            return g

        seen_r2: set[tuple[tuple[tuple[int, int], ...], int]] = set()
        for i2, m2 in enumerate(mvs):
            if m2.comp.dst != OUT:
                continue
            r2 = back(goal, m2)
            if r2 is None:
                continue
            self._add(need, r2, costs[i2])
            key2 = tuple(sorted(r2.items()))
            if (key2, costs[i2]) in seen_r2:
                continue
            seen_r2.add((key2, costs[i2]))
            for dst in (OUT, TMP):
                lo = (dst - 1) * n
                ks = tuple(sl - lo for sl, _ in key2 if lo <= sl < lo + n)
                for (_, c1), m1 in group(dst, ks).items():
                    r1 = back(r2, m1)
                    if r1 is not None:
                        self._add(need, r1, c1 + costs[i2])
        self.groups = [(itemgetter(*slots) if len(slots) > 1 else (lambda t, s=slots[0]: (t[s],)), vals)
                       for slots, vals in need.items() if slots]
        self.free = min((c for vals in [need.get((), {})] for c in vals.values()), default=None)

    @staticmethod
    def _add(need: dict[tuple[int, ...], dict[tuple[int, ...], int]], req: dict[int, int], cost: int) -> None:
        slots = tuple(sorted(req))
        vals = tuple(req[s] for s in slots)
        d = need.setdefault(slots, {})
        if cost < d.get(vals, 1 << 30):
            d[vals] = cost

    def cheapest(self, v1: tuple[int, ...], v2: tuple[int, ...]) -> int | None:
        """The least cost (without waits) of finishing from this state in at
        most two moves, or None if no two moves can."""
        t = v1 + v2
        best = self.free
        for get, vals in self.groups:
            c = vals.get(get(t))
            if c is not None and (best is None or c < best):
                best = c
        return best


def search(win: Window, mvs: dict[bool, list[Move]], costing: Costing, max_ops: int, below: float,
           max_states: int) -> tuple[list[Move] | None, int | None, int, bool]:
    """Uniform-cost search of the relaxed programs cheaper than `below`:
    (the cheapest one meeting the goal or None, its cost, states, finished?).
    A state whose v1 does not meet the goal needs one more move into v1, so
    the cheapest such move (without waits) is added to its cost before it is
    compared with the bound (an admissible estimate)."""
    n = len(win.lanes)
    xwin = tuple(range(1, n + 1))
    init: WState = ((0,) * n, (0,) * n, False, False)
    enter, leave = costing.wrapper_cost()
    heap: list[_Node] = []
    seq = 0
    finals = {w: _Finals(win, v) for w, v in mvs.items()}
    alone: dict[Any, int] = {}  # a shape's cost alone, priced by its first (parsed) move
    for v in mvs.values():
        for mv in v:
            if mv.shape not in alone:
                alone[mv.shape] = costing.extend((), mv.comp)[1]
    # modes where no lane outside the window is on get the two-move
    # lookahead, built when first asked
    two_modes = {w for w in mvs if not (w or win.outside_active) and max_ops >= 2}
    two: dict[bool, _TwoLeft] = {}
    h_out = {w: min((alone[mv.shape] for mv in f.moves), default=_INF) for w, f in finals.items()}
    for wwm in mvs:
        heap.append((enter if wwm else 0, seq, wwm, 0, init, (), ()))
        seq += 1
    heapq.heapify(heap)
    seen: dict[tuple[bool, WState, Sig], list[tuple[int, int]]] = {}
    rows: dict[tuple[bool, Sig], list[tuple[tuple[Instr, ...], int, Sig]]] = {}
    cheap: dict[tuple[bool, tuple[int, ...], tuple[int, ...]], int | None] = {}  # _TwoLeft.cheapest, per state
    states = 0
    while heap:
        cost, _, wwm, nops, state, body, steps = heapq.heappop(heap)
        sig = costing.signature(body)
        tail = leave if wwm else 0
        if cost + tail >= below:
            return None, None, states, True
        if nops and win.met(state[0]):
            return list(steps), cost + tail, states, True
        if nops >= max_ops:
            continue
        outside = wwm or win.outside_active
        last = nops + 1 == max_ops
        v1, v2, f1, f2 = state
        plain = max(v1 + v2) < SYM
        flat = (0,) + xwin + v1 + v2
        flagged = f1 or f2
        row = rows.get((wwm, sig))
        if row is None:
            # the waits and cost depend on the move's hazard shape only
            by_shape: dict[Any, tuple[tuple[Instr, ...], int, Sig]] = {}
            row = rows[(wwm, sig)] = [by_shape[mv.shape] if mv.shape in by_shape else
                                      by_shape.setdefault(mv.shape, costing.extend_tail(body, sig, mv.comp))
                                      for mv in mvs[wwm]]
        moves = mvs[wwm]
        for i in (finals[wwm].candidates(state) if last else range(len(moves))):
            nbody, add, nsig = row[i]
            c2 = cost + add
            if c2 + tail >= below:
                continue
            mv = moves[i]
            if plain and mv.fast is not None and not (flagged and mv.outside):
                t = mv.fast(flat)
                st2 = (t, v2, f1 or outside, f2) if mv.comp.dst == OUT else (v1, t, f1, f2 or outside)
            else:
                st2 = _step(state, mv, mv.comp.dst, xwin, outside)
            if (last or c2 + tail + h_out[wwm] >= below) and not win.met(st2[0]):
                continue
            if nops + 3 == max_ops and wwm in two_modes and max(st2[0] + st2[1]) < SYM and not win.met(st2[0]):
                ck = (wwm, st2[0], st2[1])
                if ck not in cheap:
                    if wwm not in two:
                        two[wwm] = _TwoLeft(win, mvs[wwm], [alone[mv.shape] for mv in mvs[wwm]])
                    cheap[ck] = two[wwm].cheapest(st2[0], st2[1])
                more = cheap[ck]
                if more is None or c2 + tail + more >= below:
                    continue  # two more moves cannot meet the goal below the bound
            key = (wwm, st2, nsig)
            front = seen.get(key)
            if front is not None and any(c <= c2 and k <= nops + 1 for c, k in front):
                continue
            seen.setdefault(key, []).append((c2, nops + 1))
            states += 1
            if states > max_states:
                return None, None, states, False
            heapq.heappush(heap, (c2, seq, wwm, nops + 1, st2, nbody, steps + (mv,)))
            seq += 1
    return None, None, states, True


# the largest window the relaxed search is run on: its moves and states grow
# quickly with the window (eight lanes: about 5,000 moves per mode)
MAX_WINDOW = 4


def windows(spec: str, params: dict[str, Any], wave: int, exec_contract: str, limit: int = 4) -> Iterator[Window]:
    """Candidate windows, in order, each closed under the spec's sources and
    of at most MAX_WINDOW lanes, at most `limit` of them.  The seeds are
    pairs of lanes of one bank (no row/bank mask tells them apart) whose
    values travel different distances, so no single move serves both; then
    two neighbouring lanes and lanes of two rows."""
    top = Goal(spec, params, Space(wave, [(1 << wave) - 1]))
    src = {top.lanes[k]: Window._src(top, k) for k in range(len(top.care))}
    seeds: list[list[int]] = []
    for a in range(min(wave, 32)):
        for b in range(a + 1, (a | 3) + 1):
            sa, sb = src.get(a), src.get(b)
            if sa is not None and sb is not None and sa - a != sb - b:
                seeds.append([a, b])
    seeds += [[0, 1], [0, 16]]
    out: list[Window] = []
    for s in seeds:
        if max(s) >= wave:
            continue
        try:
            w = Window(spec, params, wave, s, exec_contract)
        except InputError:
            continue  # the spec constrains no lane of it
        if len(w.lanes) <= MAX_WINDOW and all(w.lanes != o.lanes for o in out):
            out.append(w)
            yield w  # made when asked: the first window often settles it
            if len(out) == limit:
                return


def prove_bound(spec: str, params: dict[str, Any], targets: list[Target], wave: int, exec_contract: str,
                model: CostModel, classes: list[str], max_ops: int, below: float,
                max_states: int = 200_000, comps: list[Component] | None = None) -> BoundResult:
    """Is every program of at most `max_ops` components over the classes
    (DPP16 with every mask and modifier) at least `below`?  `comps`: the
    other classes' components, when the caller has built them.  The windows
    share `max_states` between them.  With every permlane select word the
    windows are often too small to refute a select that is right on the
    window only (its other nibbles are free, so a short literal spelling
    fits); then the bound is tried again with the listed select families,
    and the result says which scope held."""
    costing = Costing(targets, wave, model, {})
    uni = Universe(targets, wave, classes, costing, below, comps)
    res = _over_windows(spec, params, wave, exec_contract, classes, max_ops, below, max_states, costing, uni)
    if not res.holds and uni.perm:
        listed = Universe(targets, wave, classes, costing, below, comps, every_select=False)
        again = _over_windows(spec, params, wave, exec_contract, classes, max_ops, below, max_states, costing, listed)
        if again.holds:
            return again
    return res


def _over_windows(spec: str, params: dict[str, Any], wave: int, exec_contract: str, classes: list[str],
                  max_ops: int, below: float, max_states: int, costing: Costing, uni: Universe) -> BoundResult:
    res: BoundResult | None = None
    tried = spent = 0
    for win in windows(spec, params, wave, exec_contract):
        modes = [False] + ([True] if "wwm" in classes and exec_contract == "any" else [])
        mvs = {w: uni.moves(win, w) for w in modes}
        found, cost, states, done = search(win, mvs, costing, max_ops, below, max_states - spent)
        spent += states
        tried += 1
        r = BoundResult(found is None and done, below, max_ops, tuple(win.lanes), win.exec, dict(uni.counts),
                        sum(len(v) for v in mvs.values()), states, fi=any(fi for _, _, fi in uni.variants),
                        dpp8=bool(uni.dpp8_fi), permlanes=tuple(uni.perm))
        if found is not None:
            r.witness = [t for mv in found for t in mv.comp.lines]
            r.witness_cost = cost
        # every window's relaxed optimum is a lower bound; report the highest
        if (res is None or r.holds or (r.witness_cost is not None and
                                       (res.witness_cost is None or r.witness_cost > res.witness_cost))):
            res = r
        if r.holds or spent >= max_states:
            break  # the state limit is shared by the windows: a count, never a time
    if res is None:
        return BoundResult(False, below, max_ops, (), 0, dict(uni.counts), note=f"no window of at most {MAX_WINDOW} "
                           "lanes is closed under the spec's sources")
    res.windows_tried = tried
    return res


__all__ = ["BoundResult", "Universe", "Window", "prove_bound", "search"]
