"""Pruning by concrete execution: lane-tagged runs of ``verify.machine``.

A test is an EXEC mask; every register starts lane-tagged (lane i of vR
holds a value naming (R, i)), so after running a component through the
ordinary machine on the concrete backend, each destination lane names the
register and lane it came from, or holds 0.  That lane map is all the
search needs: components are data-movement only, which is checked, not
assumed (every map is derived twice, from two different tag sets, and the
two must agree; otherwise the component is rejected).  The spec is
evaluated on the same tags through ``catalog.speclib()``.

Maps are flattened over a *space*: position 0 holds 0, then v0, v1, v2 for
each test in turn (register-major), so a state is one tuple and applying a
component is one ``operator.itemgetter`` call.

>>> from verify import target as T
>>> sp = Space(8, [0xFF, 0x0F])
>>> sp.pos(1, 1, 3), sp.size
(28, 49)
>>> sp.decode(sp.tag(2, 5), 1) == sp.pos(2, 1, 5)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Any

from .. import catalog
from ..backend import Concrete
from ..diag import InputError, Span
from ..ir import Instr
from ..machine import Machine
from ..target import FeatureLog, Target
from ..wide import join
from .components import OUT, VREGS, Component

TAG_BASE = 0x1000
TAG_ALT = 0x80000  # the second tag set of the data-independence guard

# a state: every register's lanes under every test, flattened over a Space
State = tuple[int, ...]
# a component's effect on a state: the new values of its destination region
# (an operator.itemgetter over the state)
Getter = Callable[[State], tuple[int, ...]]


class NotMovement(Exception):
    """A component computed a value that is not a tagged lane or 0."""


class Space:
    def __init__(self, wave: int, masks: list[int]):
        self.W = wave
        self.masks = list(masks)
        self.K = len(masks)
        self.size = 1 + len(VREGS) * self.K * wave

    def pos(self, reg: int, block: int, lane: int) -> int:
        return 1 + (reg * self.K + block) * self.W + lane

    def region(self, reg: int) -> tuple[int, int]:
        a = 1 + reg * self.K * self.W
        return a, a + self.K * self.W

    def tag(self, reg: int, lane: int, base: int = TAG_BASE) -> int:
        return base * (reg + 1) + lane

    def decode(self, val: int, block: int, base: int = TAG_BASE) -> int:
        if val == 0:
            return 0
        reg = (val // base) - 1
        lane = val - base * (reg + 1)
        if reg in VREGS and 0 <= lane < self.W:
            return self.pos(reg, block, lane)
        raise NotMovement(val)

    def initial(self) -> State:
        st = [0] * self.size
        for r in VREGS:
            for b in range(self.K):
                for i in range(self.W):
                    st[self.pos(r, b, i)] = self.tag(r, i)
        return tuple(st)


def run(instrs: Iterable[Instr], target: Target, wave: int, mask: int, base: int = TAG_BASE, wwm: bool = False,
        assume: dict[str, str] | None = None) -> Machine:
    """Run instructions on lane-tagged registers under EXEC = mask."""
    def initial(kind: str, name: str, lane: int | None) -> int | bool:
        return False if kind == "scc" else 0

    # waits=False: components run alone, without the wait their wrapper adds
    m = Machine(Concrete(), wave, initial, FeatureLog(target), assume or {}, waits=False)
    for r in VREGS:
        m.vregs[r] = [base * (r + 1) + i for i in range(wave)]
    m.set_exec_mask(((1 << wave) - 1) if wwm else mask)
    m.run(list(instrs))
    return m


def _decoder(space: Space, block: int, base: int) -> dict[int, int]:
    d = {0: 0}
    for r in VREGS:
        for i in range(space.W):
            d[base * (r + 1) + i] = space.pos(r, block, i)
    return d


def component_map(comp: Component, space: Space, target: Target, wwm: bool,
                  blocks: set[int] | None = None) -> tuple[int, ...]:
    """For every test block, the source position of each lane of comp.dst.
    Under the first test (all lanes) the map is derived twice, from two
    tag sets, which must agree (data independence)."""
    W = space.W
    out: list[int] = []
    dec: dict[tuple[int, int], dict[int, int]] = space.__dict__.setdefault("_dec", {})
    for b, mask in enumerate(space.masks):
        if blocks is not None and b not in blocks:
            continue
        key = (b, TAG_BASE)
        if key not in dec:
            dec[key] = _decoder(space, b, TAG_BASE)
        m1 = run(comp.instrs, target, W, mask, TAG_BASE, wwm)
        try:
            d1 = [dec[key][v] for v in m1.v(comp.dst)]
        except KeyError:
            raise NotMovement(comp.text()) from None
        if b == 0:
            k2 = (b, TAG_ALT)
            if k2 not in dec:
                dec[k2] = _decoder(space, b, TAG_ALT)
            m2 = run(comp.instrs, target, W, mask, TAG_ALT, wwm)
            try:
                d2 = [dec[k2][v] for v in m2.v(comp.dst)]
            except KeyError:
                raise NotMovement(comp.text()) from None
            if d1 != d2:
                raise NotMovement(comp.text())
            for r in VREGS:
                if r != comp.dst and m1.vregs[r] != [TAG_BASE * (r + 1) + i for i in range(W)]:
                    raise NotMovement(f"{comp.text()} writes v{r}")
        out += d1
    return tuple(out)


def getter(positions: list[int]) -> Getter:
    """The values at `positions`, as a tuple (also for one position)."""
    if len(positions) > 1:
        return itemgetter(*positions)
    p = positions[0]
    return lambda s: (s[p],)


def apply(state: State, dst: int, getter: Getter, space: Space) -> State:
    a, e = space.region(dst)
    return state[:a] + getter(state) + state[e:]


# ---------------------------------------------------------------------------
# tests and goals


def default_masks(wave: int, n_random: int = 2, seed: int = 0) -> list[int]:
    """All lanes, then structured and seeded random partial masks."""
    full = (1 << wave) - 1
    rnd = random.Random(seed)
    masks = [full]
    alt = int("01" * (wave // 2), 2)
    masks += [alt, full ^ alt]
    while len(masks) < 3 + n_random:
        m = rnd.getrandbits(wave)
        if m and m != full and m not in masks:
            masks.append(m)
    return masks


class Goal:
    """The spec's expected output on the tagged input under each test."""

    def __init__(self, spec: str, params: dict[str, Any], space: Space, spans: dict[str, Span] | None = None):
        lib = catalog.speclib()
        sdef = lib.get(spec)
        if sdef.inputs != ["x"] or any(isinstance(v, str) for v in params.values()):
            bad = [f"{k}={v}" for k, v in params.items() if isinstance(v, str)]
            raise InputError(None, "synthesis needs a spec with the one input x and integer parameters; "
                                   + (f"got {', '.join(bad)}" if bad else f"{spec} reads {', '.join(sdef.inputs)}"))
        if len(sdef.outputs) != 1:
            raise InputError(None, f"synthesis needs a spec with one output; {spec} has {', '.join(sdef.outputs)}")
        self.output = sdef.outputs[0]
        W = space.W
        self.space = space
        self.care: list[int] = []  # positions of v1 that must hold a value
        vals: list[int] = []
        self.lanes: list[int] = []
        self.full_map: list[int | None] = []
        for b, mask in enumerate(space.masks):
            x = [space.tag(0, i) for i in range(W)]
            act = [bool(mask >> i & 1) for i in range(W)]
            res = lib.evaluate(spec, params, Concrete(), W, {"x": x}, act)
            v, d = res[self.output]
            v = [join(y) for y in v]  # 64-bit lanes: the tags sit in the low halves  [S:wide64]
            for i in range(W):
                if act[i] and d[i]:
                    if v[i] != 0 and not (TAG_BASE <= v[i] < 2 * TAG_BASE):
                        raise InputError(None, f"{spec} is not a data movement of x (lane {i} computes {v[i]:#x}); "
                                               "synthesis handles shuffles and broadcasts")
                    self.care.append(space.pos(OUT, b, i))
                    vals.append(space.decode(v[i], b) if v[i] else 0)
                    self.lanes.append(i)
                if b == 0:
                    self.full_map.append((v[i] - TAG_BASE) if act[i] and d[i] and v[i] else None)
        # values expected at the care positions: the initial state's value at
        # the decoded source position (a tag of x, never 0 for a shuffle)
        init = space.initial()
        self.vals = tuple(init[p] for p in vals)
        self.getter = getter(self.care)
        if not self.care:
            raise InputError(None, f"{spec} is undefined in every lane under every test: nothing to synthesise")

    def met(self, state: State) -> bool:
        return self.getter(state) == self.vals
