"""Cheapest-first search over sequences of components.

The search space (the *sketch*) is: at most N components in sequence,
optionally all inside one whole-wave wrapper (``s_or_saveexec -1`` ...
``s_mov exec``); every DPP16 move has full row/bank masks except the last
instruction, which may take any mask (the search derives the smallest mask
that could work, which works iff any mask does); the hazard waits the
target needs (``s_nop``, ``s_wait_alu``) are inserted and paid for.

It is a uniform-cost search: states are the lane-tagged register contents
under every test EXEC mask (plus the hazard-relevant tail of the program),
two programs reaching the same state are the same for every continuation,
so the cheaper is kept.  A program that reaches the goal on the tests is
run whole through the machine, then written as a lowering and proved by
``verify.refine``; if the proof finds a counterexample, its EXEC mask
becomes a new test and the search starts again (counterexample-guided), so
the first proved program is the cheapest in the sketch.
"""

from __future__ import annotations

import heapq
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from ..diag import InputError, Span
from ..hazards import alu_wait_mnemonic, needed
from ..ir import Instr
from ..lowering_file import parse_instr
from ..ops import OPS
from ..ops.dpp import masks_enable
from ..target import Target
from .components import OUT, TMP, VREGS, Component, X
from .concrete import Getter, Goal, NotMovement, Space, State, apply, component_map, getter, run
from .cost import CostModel

_INF = float("inf")

# what the hazard rules can see of a program's end (Searcher.signature)
Sig = tuple[tuple[str, str, str, tuple[str, ...]], ...]
# the probes of the final-step lookup (Searcher._final_index): per probe lane,
# the wanted value and (position read, components reading it) pairs
Probes = list[tuple[int, list[tuple[int, list[int]]]]]
# what _mask_info knows about the state before the last move: (None,), or
# (wrong-lane getter, their wanted values, covered-lane getter, their wanted
# values, (row_mask, bank_mask), wrong lanes)
MaskInfo = tuple[Any, ...]


def _instr(text: str) -> Instr:
    return parse_instr(text, Span("<synth>", 1))


@dataclass
class Step:
    comp: Component
    mask: tuple[int, int] | None = None  # (row_mask, bank_mask) when not full

    def lines(self) -> list[str]:
        if self.mask is None:
            return list(self.comp.lines)
        rm, bm = self.mask
        return [self.comp.lines[0].replace("row_mask:0xf bank_mask:0xf", f"row_mask:{rm:#x} bank_mask:{bm:#x}")]


@dataclass
class Candidate:
    wwm: bool
    steps: list[Step]
    body: list[Instr]  # instructions of the steps with the hazard waits, without the wrapper
    cost: int
    leave_wait: str = ""  # the wait the wrapper's EXEC restore needs (GFX12: its SGPR an SALU wrote)

    def program(self, wave: int) -> list[Instr]:
        if not self.wwm:
            return list(self.body)
        enter, leave = wrapper(wave, self.leave_wait)
        return [_instr(t) for t in enter] + list(self.body) + [_instr(t) for t in leave]

    def describe(self) -> str:
        parts = [s.comp.cls + ("" if s.mask is None else "+mask") for s in self.steps]
        return (" in whole-wave mode: " if self.wwm else ": ") + ", ".join(parts)


def wrapper(wave: int, leave_wait: str = "") -> tuple[list[str], list[str]]:
    """The whole-wave entry and exit; `leave_wait`: a wait before the exit's
    read of the saved mask (GFX12: an SALU read of an SGPR an SALU wrote,
    LLVM's AMDGPUWaitSGPRHazards)  [S:hazards]."""
    wait = [leave_wait] if leave_wait else []
    if wave == 64:
        return ["s_or_saveexec_b64 s[0:1], -1"], wait + ["s_mov_b64 exec, s[0:1]"]
    return ["s_or_saveexec_b32 s0, -1"], wait + ["s_mov_b32 exec_lo, s0"]


def with_hazard_waits(prog: list[Instr], targets: list[Target], wave: int) -> list[Instr]:
    """`prog` with the waits each instruction needs on every one of
    `targets` inserted before it (hazards.needed), as the search's `extend`
    inserts them: for a program written from a template (the ds_bpermute
    baseline)."""
    out: list[Instr] = []
    for ins in prog:
        out.append(ins)
        waits, fields = 0, set[str]()
        for t in targets:
            w, a = needed(out, len(out) - 1, t, wave)
            waits, fields = max(waits, w), fields | set(a.split())
        out.pop()
        if fields:
            out.append(_instr(f"{alu_wait_mnemonic(targets)} {' '.join(sorted(fields))}"))
        if waits:
            out.append(_instr(f"s_nop {waits - 1}"))
        out.append(ins)
    return out


def leave_wait_for(targets: list[Target]) -> str:
    """The wait the whole-wave exit needs on `targets`: the saved mask is an
    SGPR an SALU wrote (the entry), read by an SALU (the exit), which the
    GFX12 SGPR hazard rules separate by an s_wait_alu depctr_sa_sdst(0)
    (hazards.needed decides it on the smallest such program)."""
    prog = [_instr("s_or_saveexec_b32 s0, -1"), _instr("s_mov_b32 exec_lo, s0")]
    fields = {a for t in targets if t.has("hazard_gfx12_sgpr") for a in [needed(prog, 1, t)[1]] if a}
    return f"{alu_wait_mnemonic(targets)} {' '.join(sorted(fields))}" if fields else ""


@dataclass
class Stats:
    candidates: int = 0  # programs whose output was compared with the goal
    states: int = 0
    expanded: int = 0
    verified: int = 0  # programs proved or refuted by the checker
    restarts: int = 0
    masks: int = 0
    seconds: float = 0.0
    by_ops: dict[int, int] = field(default_factory=dict)  # ops -> candidates compared
    state_limit: bool = False  # the search stopped at Searcher.max_states


class Restart(Exception):
    def __init__(self, mask: int):
        self.mask = mask


class Context:
    """Components with their lane maps on one space (one wrapper mode).
    In whole-wave mode every lane is on, so one test (all lanes) says
    everything; its maps are the first test's maps of the plain context."""

    def __init__(self, comps: list[Component], targets: list[Target], wave: int, masks: list[int], wwm: bool,
                 plain: Context | None = None, keep_all: bool = False):
        self.targets = targets
        self.wave = wave
        self.wwm = wwm
        self.space = Space(wave, masks)
        self.comps: list[Component] = []
        self.maps: list[tuple[int, ...]] = []
        self.getters: list[Getter] = []
        seen: dict[tuple[int, tuple[int, ...]], Component] = {}
        t0 = targets[0]
        W, K = wave, len(masks)
        if plain is not None:
            pK = plain.space.K
            source: list[tuple[Component, tuple[int, ...] | None]] = []
            for c, mp in zip(plain.comps, plain.maps):
                row: list[int] = []
                for p in mp[:W]:
                    if p == 0:
                        row.append(0)
                    else:
                        r, rest = divmod(p - 1, pK * W)
                        row.append(1 + r * W + rest)
                source.append((c, tuple(row)))
        else:
            source = [(c, None) for c in comps]
        maps = _MapCache(self.space, t0, wwm)
        for c, m0 in source:
            try:
                if m0 is None:
                    m0 = maps.get(c, first=True)
            except NotMovement:
                continue
            a, _ = self.space.region(c.dst)
            if m0 == tuple(range(a, a + W)) and not keep_all:
                continue  # changes nothing
            try:
                mp = m0 + (maps.get(c, first=False) if K > 1 else ())
            except NotMovement:
                continue
            key = (c.dst, mp)
            # `keep_all` (--robust): maps are the default variants' effect, so
            # two components with one map may differ under another variant
            if key in seen and not keep_all:
                continue  # the same effect as an earlier (no dearer: classes are in cost order) component
            seen[key] = c
            self.comps.append(c)
            self.maps.append(mp)
            self.getters.append(itemgetter(*mp))
        self.init = self.space.initial()


_VREG = re.compile(r"\bv([012])\b")


class _MapCache:
    """Lane maps of components, derived once per instruction text up to the
    names of its registers.  A component's effect does not depend on which
    of v0/v1/v2 it reads and writes, only on whether it reads the register
    it writes, so a map is run through the machine for the first component
    of each shape and renamed for the others (the machine's semantics are
    the same for every VGPR number)."""

    def __init__(self, space: Space, target: Target, wwm: bool):
        self.space, self.target, self.wwm = space, target, wwm
        self.refs: dict[Any, tuple[Component, dict[bool, tuple[int, ...] | None]]] = {}
        self._renames: dict[tuple[tuple[int, int], ...], list[int]] = {}  # register renaming -> position table

    def _shape(self, c: Component) -> Any:
        role = {c.dst: "D", c.src: "S"}
        if any(int(m) not in role for m in _VREG.findall(" ".join(c.lines))):
            return None  # names a register that is neither its source nor its destination
        return (c.cls, tuple(_VREG.sub(lambda m: role[int(m.group(1))], t) for t in c.lines), c.dst == c.src)

    def get(self, c: Component, first: bool) -> tuple[int, ...]:
        blocks = {0} if first else set(range(1, self.space.K))
        shape = self._shape(c)
        if shape is None:
            return component_map(c, self.space, self.target, self.wwm, blocks=blocks)
        ref, done = self.refs.setdefault(shape, (c, {}))
        if first not in done:
            try:
                done[first] = component_map(ref, self.space, self.target, self.wwm, blocks=blocks)
            except NotMovement:
                done[first] = None
        mp = done[first]
        if mp is None:
            raise NotMovement(c.text())
        if ref is c:
            return mp
        rest = [r for r in VREGS if r not in (ref.dst, ref.src)]
        to = [r for r in VREGS if r not in (c.dst, c.src)]
        sigma = {ref.dst: c.dst, ref.src: c.src, **dict(zip(rest, to))}
        KW = self.space.K * self.space.W
        key = tuple(sorted(sigma.items()))
        tr = self._renames.get(key)
        if tr is None:
            tr = self._renames[key] = [0] + [1 + sigma[(p - 1) // KW] * KW + (p - 1) % KW
                                             for p in range(1, self.space.size)]
        return tuple(map(tr.__getitem__, mp))


# a node of the search: (cost, tie-break sequence number, whole-wave mode?,
# components so far, state, body, steps)
_Node = tuple[int, int, bool, int, State, tuple[Instr, ...], tuple[Step, ...]]


class Costing:
    """Costs and hazard waits of programs built one component at a time:
    the synthesis search and the optimality bound (``bound.py``) share it,
    so both price a program the same way."""

    def __init__(self, targets: list[Target], wave: int, model: CostModel, shared: dict[Any, Any]):
        self.targets = targets
        self.wave = wave
        self.model = model
        self.hazardous = any(f.startswith("hazard_") for t in targets for f in t.features)
        self.leave_wait = leave_wait_for(list(targets)) if self.hazardous else ""
        self._nop_cache: dict[str, Instr] = {}
        self._ext_cache: dict[tuple[Sig, tuple[str, ...]], tuple[tuple[Instr, ...], int]] = (
            shared.setdefault("ext", {}))
        self._sig_cache: dict[int, tuple[str, str, str, tuple[str, ...], Instr]] = shared.setdefault("sig", {})
        self._tail_cache: dict[tuple[Sig, tuple[str, ...]], tuple[tuple[Instr, ...], int, Sig]] = (
            shared.setdefault("tail", {}))

    def wrapper_cost(self) -> tuple[int, int]:
        enter, leave = wrapper(self.wave, self.leave_wait)
        return (sum(self.model.of(_instr(t).base, 0, self.wave) for t in enter),
                sum(self.model.of(_instr(t).base, 0, self.wave) for t in leave))

    def extend(self, body: tuple[Instr, ...], comp: Component,
               lines: list[str] | None = None) -> tuple[tuple[Instr, ...], int]:
        """The body with comp appended, hazard waits inserted; and the cost
        added.  Hazards look back a few instructions only, so the result is
        cached on the body's tail."""
        # keyed by text, not identity: the bound makes and drops components
        key = (self.signature(body), comp.lines if lines is None else tuple(lines))
        hit = self._ext_cache.get(key)
        if hit is not None:
            return body + hit[0], hit[1]
        prog = list(body)
        add = 0
        instrs = comp.instrs if lines is None else [_instr(t) for t in lines]
        for ins in instrs:
            if self.hazardous:
                prog.append(ins)
                k = len(prog) - 1
                waits, alu = 0, ""
                for t in self.targets:
                    w, a = needed(prog, k, t, self.wave)
                    waits, alu = max(waits, w), alu or a
                prog.pop()
                if alu:
                    prog.append(self._wait(f"{alu_wait_mnemonic(self.targets)} {alu}"))
                    add += self.model.of("s_wait_alu", 0, self.wave)
                if waits:
                    prog.append(self._wait(f"s_nop {waits - 1}"))
                    add += self.model.of("s_nop", waits - 1, self.wave)
            prog.append(ins)
            key2 = ins.base + ("_dpp" if ins.enc == "dpp" else "")
            add += self.model.of(key2, 0, self.wave)
        self._ext_cache[key] = (tuple(prog[len(body):]), add)
        return tuple(prog), add

    def extend_tail(self, tail: tuple[Instr, ...], sig: Sig, comp: Component) -> tuple[tuple[Instr, ...], int, Sig]:
        """extend() for a search that keeps only the end of a body (what the
        hazard rules can see, `sig` its signature): the new end, the cost
        added and the new end's signature."""
        key = (sig, comp.lines)
        hit = self._tail_cache.get(key)
        if hit is None:
            nbody, add = self.extend(tail, comp)
            end = nbody[-5:]
            hit = self._tail_cache[key] = (end, add, self.signature(end))
        return hit

    def _wait(self, text: str) -> Instr:
        ins = self._nop_cache.get(text)
        if ins is None:
            ins = self._nop_cache[text] = _instr(text)
        return ins

    def signature(self, body: tuple[Instr, ...]) -> Sig:
        """What the hazard rules can see of the program's end: the last five
        instructions' names, encodings, texts (s_nop N) and registers written."""
        if not self.hazardous:
            return ()
        out: list[tuple[str, str, str, tuple[str, ...]]] = []
        for i in body[-5:]:
            h = self._sig_cache.get(id(i))
            if h is None:
                h = self._sig_cache[id(i)] = (i.base, i.enc, i.text if i.base == "s_nop" else "",
                                              tuple(OPS[i.base].defs(i)), i)
            out.append(h[:4])
        return tuple(out)


class Searcher(Costing):
    def __init__(self, comps: list[Component], targets: list[Target], wave: int, exec_contract: str,
                 model: CostModel, masks: list[int], max_ops: int, allow_wwm: bool, goal_spec: str,
                 params: dict[str, Any], verify_cb: Callable[[Searcher, Candidate], bool],
                 deadline: float | None = None, shared: dict[Any, Any] | None = None, robust: bool = False,
                 max_states: int | None = None):
        # contexts and the root's children depend on the components and the
        # tests, not on the goal: a table shares them between its entries
        self.shared: dict[Any, Any] = {} if shared is None else shared
        Costing.__init__(self, targets, wave, model, self.shared)
        self.comps_all = comps
        self.exec_contract = exec_contract
        self.max_ops = max_ops
        self.allow_wwm = allow_wwm and exec_contract == "any"
        self.spec, self.params = goal_spec, params
        self.verify_cb = verify_cb
        self.deadline = deadline
        # a deterministic memory bound: the search stops ('best found') after
        # this many states, whatever the machine's speed
        self.max_states = max_states
        # --robust: the lane maps and states here are the default variants'
        # effect, so nothing is merged for having the same one (a program the
        # merge would drop may be the one that holds under every variant)
        self.robust = robust
        self.stats = Stats()
        full = (1 << wave) - 1
        self.masks = [full] if exec_contract == "full" else list(masks)
        self._mask_index: dict[tuple[bool, int], dict[int, list[int]]] = {}
        self._index: dict[bool, Probes] = {}
        self._care: dict[tuple[bool, int], Getter] = {}
        self._build()

    def _build(self) -> None:
        key = ("ctx", tuple(self.masks), self.allow_wwm, self.robust)
        if key not in self.shared:
            ctx = {False: Context(self.comps_all, self.targets, self.wave, self.masks, False, keep_all=self.robust)}
            if self.allow_wwm:
                full = (1 << self.wave) - 1
                ctx[True] = Context(self.comps_all, self.targets, self.wave, [full], True, ctx[False],
                                    keep_all=self.robust)
            self.shared[key] = ctx
        self.ctx: dict[bool, Context] = self.shared[key]
        self.goal = {w: Goal(self.spec, self.params, c.space) for w, c in self.ctx.items()}
        self.stats.masks = len(self.masks)

    # ---- the search --------------------------------------------------------
    def run(self, incumbent: float = _INF) -> tuple[Candidate | None, bool]:
        """Search; returns (best candidate or None, exhaustive?)."""
        while True:
            try:
                return self._ucs(incumbent)
            except Restart as r:
                self.stats.restarts += 1
                if r.mask in self.masks or self.stats.restarts > 8:
                    # the tagged tests do not pin the spec down: its lanes
                    # depend on the values (a min, a max), not on positions
                    raise InputError(None, f"synthesis of {self.spec} does not converge: a counterexample repeats, as when "
                                           "what it computes depends on the lane values (synthesis handles "
                                           "shuffles and broadcasts, whose lanes depend on positions only)") from None
                self.masks.append(r.mask)
                self._mask_index = {}
                self._build()

    def _final_index(self, wwm: bool) -> Probes:
        """Final-step lookup: the components writing v1, by the positions
        their probe lanes read.  The probes are two lanes the goal
        constrains in the first test whose values travel farthest, so a
        component can be the last step only if both its probe lanes read
        positions holding the wanted values."""
        hit = self._index.get(wwm)
        if hit is not None:
            return hit
        ctx, goal = self.ctx[wwm], self.goal[wwm]
        a, _ = ctx.space.region(OUT)
        W = ctx.space.W
        first = [k for k, p in enumerate(goal.care) if p - a < W]
        src = {k: goal.vals[k] - ctx.init[ctx.space.pos(X, 0, 0)] for k in first}

        def dist(k: int) -> int:
            return abs(src[k] - goal.lanes[k])

        k0 = max(first, key=lambda k: (dist(k), -k))
        rest = [k for k in first if goal.lanes[k] >> 4 != goal.lanes[k0] >> 4] or [k for k in first if k != k0] or [k0]
        k1 = max(rest, key=lambda k: (dist(k), -k))
        probes: Probes = []
        for k in (k0, k1):
            off = goal.care[k] - a
            idx: dict[int, list[int]] = {}
            for ci, c in enumerate(ctx.comps):
                if c.dst == OUT:
                    idx.setdefault(ctx.maps[ci][off], []).append(ci)
            probes.append((goal.vals[k], list(idx.items())))
        hit = self._index[wwm] = probes
        return hit

    def _care_getter(self, wwm: bool, ci: int) -> Getter:
        g = self._care.get((wwm, ci))
        if g is None:
            ctx, goal = self.ctx[wwm], self.goal[wwm]
            a, _ = ctx.space.region(OUT)
            mp = ctx.maps[ci]
            sel = [mp[p - a] for p in goal.care]
            g = self._care[(wwm, ci)] = getter(sel)
        return g

    def _ucs(self, incumbent: float) -> tuple[Candidate | None, bool]:
        t0 = time.perf_counter()
        best: Candidate | None = None
        best_cost = incumbent
        enter, leave = self.wrapper_cost() if self.allow_wwm else (0, 0)
        heap: list[_Node] = []
        seq = 0
        self._index, self._care = {}, {}
        base: dict[bool, list[int]] = {}
        order: dict[bool, list[int]] = {}
        for wwm in ([False, True] if self.allow_wwm else [False]):
            ctx = self.ctx[wwm]
            heap.append((enter if wwm else 0, seq, wwm, 0, ctx.init, (), ()))
            seq += 1
            base[wwm] = [self.extend((), c)[1] for c in ctx.comps]
            order[wwm] = sorted(range(len(ctx.comps)), key=lambda ci: base[wwm][ci])
        heapq.heapify(heap)
        visited: dict[tuple[bool, State, Sig], list[tuple[int, int]]] = {}
        exhaustive = True
        mask_cache: dict[State, MaskInfo] = {}
        while heap:
            cost, _, wwm, nops, state, body, steps = heapq.heappop(heap)
            tail = leave if wwm else 0
            if cost + tail >= best_cost:
                break
            if self.deadline is not None and time.perf_counter() > self.deadline:
                exhaustive = False
                break
            if self.max_states is not None and self.stats.states > self.max_states:
                exhaustive = False
                self.stats.state_limit = True
                break
            self.stats.expanded += 1
            ctx, goal = self.ctx[wwm], self.goal[wwm]
            last = nops + 1 >= self.max_ops
            if nops == 0 and not last:
                best, best_cost, seq = self._expand_root(wwm, heap, seq, best, best_cost, tail)
                continue
            if last:
                (w0, i0), (w1, i1) = self._final_index(wwm)
                c1 = {ci for q, cis in i1 if state[q] == w1 for ci in cis}
                cands = [ci for q, cis in i0 if state[q] == w0 for ci in cis if ci in c1]
                if nops > 0:
                    cands += self._mask_candidates(wwm, state, mask_cache)
            else:
                cands = order[wwm]
            done = set()
            for ci in cands:
                if ci in done:
                    continue
                done.add(ci)
                comp = ctx.comps[ci]
                if cost + base[wwm][ci] + tail >= best_cost:
                    if last:
                        continue
                    break  # `order` is by cost
                nbody, add = self.extend(body, comp)
                c2 = cost + add
                if c2 + tail >= best_cost:
                    continue
                if comp.dst == OUT:
                    self.stats.candidates += 1
                    self.stats.by_ops[nops + 1] = self.stats.by_ops.get(nops + 1, 0) + 1
                    cand: Candidate | None = None
                    new = self._care_getter(wwm, ci)(state)
                    if new == goal.vals:
                        cand = Candidate(wwm, list(steps) + [Step(comp)], list(nbody), c2 + tail, self.leave_wait)
                    elif comp.maskable and nops > 0:
                        m = self._infer_mask(goal, state, new, mask_cache)
                        if m is not None:
                            step = Step(comp, m)
                            nb2, add2 = self.extend(body, comp, step.lines())
                            cand = Candidate(wwm, list(steps) + [step], list(nb2), cost + add2 + tail, self.leave_wait)
                    if cand is not None and cand.cost < best_cost and self.verify_cb(self, cand):
                        best, best_cost = cand, cand.cost
                        if c2 + tail >= best_cost:
                            continue
                if last:
                    continue
                st2 = apply(state, comp.dst, ctx.getters[ci], ctx.space)
                key = (wwm, st2, self.signature(nbody))
                # a state reached before no dearer and in no more ops has
                # every continuation this one has (the op limit counts too)
                front = visited.get(key)
                if front is not None and not self.robust and any(c <= c2 and k <= nops + 1 for c, k in front):
                    continue
                visited.setdefault(key, []).append((c2, nops + 1))
                self.stats.states += 1
                heapq.heappush(heap, (c2, seq, wwm, nops + 1, st2, nbody, tuple(steps) + (Step(comp),)))
                seq += 1
        self.stats.seconds += time.perf_counter() - t0
        return best, exhaustive

    def _root_children(self, wwm: bool) -> list[tuple[int, int, State, tuple[Instr, ...]]]:
        """The one-component programs (cost, component, state, body), once
        per set of components and tests."""
        key = ("root", tuple(self.masks), wwm, self.robust)
        hit = self.shared.get(key)
        if hit is None:
            ctx = self.ctx[wwm]
            enter = self.wrapper_cost()[0] if wwm else 0
            seen: dict[Any, tuple[int, int, State, tuple[Instr, ...]]] = {}
            for ci, comp in enumerate(ctx.comps):
                nbody, add = self.extend((), comp)
                st2 = apply(ctx.init, comp.dst, ctx.getters[ci], ctx.space)
                # --robust: nothing merged (see __init__), so the component is part of the key
                k: Any = (st2, self.signature(nbody), ci if self.robust else None)
                if k in seen and seen[k][0] <= enter + add:
                    continue
                seen[k] = (enter + add, ci, st2, nbody)
            hit = self.shared[key] = sorted(seen.values(), key=lambda t: (t[0], t[1]))
        return hit

    def _expand_root(self, wwm: bool, heap: list[_Node], seq: int, best: Candidate | None, best_cost: float,
                     tail: int) -> tuple[Candidate | None, float, int]:
        ctx, goal = self.ctx[wwm], self.goal[wwm]
        self.stats.expanded += 1
        for c2, ci, st2, nbody in self._root_children(wwm):
            if c2 + tail >= best_cost:
                break
            comp = ctx.comps[ci]
            if comp.dst == OUT:
                self.stats.candidates += 1
                self.stats.by_ops[1] = self.stats.by_ops.get(1, 0) + 1
                if self._care_getter(wwm, ci)(ctx.init) == goal.vals:
                    cand = Candidate(wwm, [Step(comp)], list(nbody), c2 + tail, self.leave_wait)
                    if self.verify_cb(self, cand):
                        best, best_cost = cand, cand.cost
                        continue
            self.stats.states += 1
            heapq.heappush(heap, (c2, seq, wwm, 1, st2, nbody, (Step(comp),)))
            seq += 1
        return best, best_cost, seq

    def _mask_candidates(self, wwm: bool, state: State, cache: dict[State, MaskInfo]) -> list[int]:
        """DPP16 moves into v1 that could fix, under a mask, the lanes of v1
        that are wrong before them: those whose reads at the first and the
        last such lane give the wanted values.  None when the lanes wrong
        before cover every row and bank (the mask would be full)."""
        ctx, goal = self.ctx[wwm], self.goal[wwm]
        hit = self._mask_info(goal, state, cache)
        if hit[0] is None:
            return []
        bad = hit[5]
        a, _ = ctx.space.region(OUT)
        out: set[int] | None = None
        for k in (bad[0], bad[-1]):
            off = goal.care[k] - a
            idx = self._mask_index.get((wwm, off))
            if idx is None:
                idx = self._mask_index[(wwm, off)] = {}
                for ci, c in enumerate(ctx.comps):
                    if c.dst == OUT and c.maskable:
                        idx.setdefault(ctx.maps[ci][off], []).append(ci)
            want = goal.vals[k]
            got = {ci for q, cis in idx.items() if state[q] == want for ci in cis}
            out = got if out is None else out & got
            if not out:
                return []
        assert out is not None  # the loop ran
        return sorted(out)

    def _mask_info(self, goal: Goal, before: State, cache: dict[State, MaskInfo]) -> MaskInfo:
        hit: MaskInfo | None = cache.get(before)
        if hit is None:
            old = goal.getter(before)
            bad = [k for k, (a, b) in enumerate(zip(old, goal.vals)) if a != b]
            hit = (None,)
            if bad and len(bad) < len(old):
                lanes = {goal.lanes[k] for k in bad}
                rm = sum({1 << (i >> 4) for i in lanes})
                bm = sum({1 << ((i >> 2) & 3) for i in lanes})
                cover = [k for k, i in enumerate(goal.lanes) if masks_enable(rm, bm, i)]
                if len(cover) < len(old):
                    sel, csel = getter(bad), getter(cover)
                    hit = (sel, sel(goal.vals), csel, csel(goal.vals), (rm, bm), bad)
            cache[before] = hit
        return hit

    def _infer_mask(self, goal: Goal, before: State, new: tuple[int, ...],
                    cache: dict[State, MaskInfo]) -> tuple[int, int] | None:
        """The smallest row/bank mask under which the last DPP move, merged
        with the old output, meets the goal on every test; None if no mask
        does.  A lane wrong before must be right after, so the mask covers
        the rows and banks of the lanes wrong before; every lane it covers
        must be right after (the masks gate only the destination,
        assumption dpp.mask_scope=dest); so if any mask works this one does.
        `new` is the move's output at the goal's lanes."""
        hit = self._mask_info(goal, before, cache)
        if hit[0] is None:
            return None
        m: tuple[int, int]
        sel, want, csel, cwant, m, _ = hit
        if sel(new) != want or csel(new) != cwant:
            return None
        return m


def check_on_tests(cand: Candidate, searcher: Searcher) -> bool:
    """Run the whole program (wrapper and waits included) through the
    machine under every test EXEC mask and compare with the spec."""
    space = searcher.ctx[False].space
    goal = searcher.goal[False]
    prog = cand.program(searcher.wave)
    st = list(space.initial())
    for t in searcher.targets:
        for b, mask in enumerate(space.masks):
            m = run(prog, t, searcher.wave, mask)
            for i, v in enumerate(m.v(OUT)):
                space.decode(v, b)  # a tagged lane or 0, nothing else
                st[space.pos(OUT, b, i)] = v
        if not goal.met(tuple(st)):
            return False
    return True


__all__ = ["Searcher", "Candidate", "Step", "check_on_tests", "wrapper", "X", "TMP"]
