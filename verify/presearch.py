"""Concrete pre-search: the states that break reductions and scans, run on
the concrete backend before the solver is asked anything (verify.refine).

A wrong identity (an umax filled with 1, an umin with -2, a product with 2),
an operator changed inside the combine (an add turned into a sub) or an f32
tree filled with +0.0 shows in one run with one active lane holding the
right value, while the solver may look for minutes for that state in a
64-lane question.  The search runs a fixed list of cases in a fixed order,
with no clock and a fixed random seed, so the same input gives the same
answer on every run:

* EXEC masks.  A fixed contract (``full``, ``0x...``) is its one mask.  Under
  ``@exec any``, before any solver call (:func:`first_cases`): every fill
  under the lowest lane alone, the quick fills (:data:`QUICK`) under the
  highest lane alone, the two lowest lanes, the lowest and the highest, the
  lowest with the first lane of each other row (a wrong cross-row combine,
  e.g. in a readlane tail, shows only with one active lane in each of two
  rows: a whole-wave mask saturates an or/max), and every lane.  When the solver's all-lanes question gives up on a spec that
  folds lanes (:func:`more_cases`): the other fills under those masks, the
  quick fills under every other single lane and adjacent pair, and a batch
  of random (mask, values) cases (random values under a fixed contract's mask).
* Values (:func:`patterns`), every register read before written filled the
  same way: 0, INT_MIN (0x80000000, also -0.0), 1, all ones, INT_MAX, 2, 3,
  the fold operator's identity, absorbing element and witness; for f32
  claims +-1.0, 2.0, +-inf; lane tags (register k's lane i holds
  ``k << 8 | i``), lane numbers + 1, signs (odd lanes negative), and a
  fixed-seed random batch.  The f32
  claims are stated for inputs that are not NaN, so no input is one; the
  reassociation claim (``fadd`` under the monoid encoding) gets only values
  whose sums are exact in every order (small integers, signed zeros,
  infinities), so a difference is never a rounding the claim allows.

A case fails when an active lane where the spec is defined differs from it
(as f32 results for an f32 claim); to keep a wide mask cheap only a sample
of its active lanes is compared (:func:`check_lanes`): a missed lane costs
nothing but time, the solver still asks about every lane.

The failing state is then made canonical the way verify.cex makes a solver
model canonical, within what the search can see: active lanes dropped while
the failure persists, then among the masks it knows (every single lane and
adjacent pair, the first masks) the fewest active lanes and then the
smallest mask, tried with the values found and with lane tags; then lane
tags if they
still fail, else the monoid witness, else the values found with each
register set to lane tags or zero where the failure survives it.  The state
is replayed with tracing into a :class:`verify.cex.Counterexample`; a state
reported here fails concretely, so the verdict is refuted whatever the
solver would answer.  This module never calls the solver.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .backend import Concrete, f32_bits, f32_is_nan
from .encode import Encoding, binding_labels, encode, mismatches, replay
from .identities import F32_NEG_INF, F32_NEG_ZERO, F32_POS_INF, FOLDS
from .ir import Lowering, reg_key
from .target import Target

if TYPE_CHECKING:
    from .cex import Counterexample

M32 = 0xFFFFFFFF
SEED = 0
RANDOM_STATES = 6  # random value batches tried under each first mask
RANDOM_MASKS = 16  # random (mask, values) cases in the second stage

# the value that makes one lane's presence or multiplicity visible, per fold operator
_WITNESS = {"add": 1, "xor": 1, "mul": 3, "umax": M32, "umin": 0, "smax": 0x7FFFFFFF, "smin": 0x80000000,
            "and": 0, "or": M32, "fadd": 0x3F800000, "fmin": F32_NEG_INF, "fmax": F32_POS_INF}

# lane value from (register number k >= 1, lane i)
Fill = Callable[[int, int], int]


@dataclass(frozen=True)
class Mode:
    """How a claim compares: `f32` (as f32 results, no NaN input) and
    `exact_sums` (only values whose f32 sums do not depend on the order)."""

    op: str | None  # the fold operator, if the spec combines lanes with one
    f32: bool = False
    exact_sums: bool = False
    monoid: bool = False  # the monoid encoding: its witness names the counterexample's values


@dataclass(frozen=True)
class Found:
    output: str
    mask: int
    vals: dict[str, Any]
    case: str  # the pattern that failed, for people and tests


def _float(x: float) -> int:
    return f32_bits(x)


def patterns(mode: Mode, wave: int) -> list[tuple[str, Fill]]:
    """The value fills, in the order they are tried."""
    consts: list[int]
    if mode.exact_sums:
        consts = [F32_NEG_ZERO, 0, _float(1.0), _float(-1.0), _float(2.0), F32_POS_INF, F32_NEG_INF]
    else:
        consts = [0, 0x80000000, 1, M32, 0x7FFFFFFF, 2, 3]
        if mode.op in FOLDS:
            fold = FOLDS[mode.op]
            consts += [x for x in (fold.identity, fold.absorbing, _WITNESS.get(mode.op)) if x is not None]
        if mode.f32:
            consts += [_float(1.0), _float(-1.0), _float(2.0), F32_POS_INF, F32_NEG_INF]
            consts = [c for c in consts if not f32_is_nan(c)]
    out: list[tuple[str, Fill]] = []
    for c in dict.fromkeys(consts):
        out.append((f"all {c:#x}", _uniform(c)))
    if mode.f32:
        out.append(("lane tags", lambda k, i: _float(float((k << 8) + i))))
        out.append(("lane + 1", lambda k, i: _float(float(i + 1))))
    else:
        out.append(("lane tags", lambda k, i: (k << 8) + i))
        out.append(("lane + 1", lambda k, i: i + 1))
    # signs: even lanes small and positive, odd lanes negative (signed and unsigned orders disagree)
    if mode.exact_sums:
        out.append(("signs", lambda k, i: _float(float(-(i + 1) if i & 1 else i + 1))))
    elif mode.f32:
        out.append(("signs", lambda k, i: _float(float(-(k << 8) - i if i & 1 else (k << 8) + i))))
    else:
        out.append(("signs", lambda k, i: 0x80000000 | (k << 8) | i if i & 1 else (k << 8) | i))
    rnd = random.Random(SEED)
    for r in range(RANDOM_STATES):
        table = [[random_value(rnd, mode) for _ in range(wave)] for _ in range(8)]
        out.append((f"random {r}", _table(table)))
    return out


def _uniform(c: int) -> Fill:
    return lambda k, i: c


def _table(t: list[list[int]]) -> Fill:
    return lambda k, i: t[(k - 1) % len(t)][i]


def random_value(rnd: random.Random, mode: Mode) -> int:
    """One random lane value for `mode` (never a NaN for an f32 claim)."""
    if mode.exact_sums:
        return _float(float(rnd.randint(-1000, 1000)))
    if mode.f32:
        k = rnd.random()
        if k < 0.1:
            return rnd.choice([0, F32_NEG_ZERO, _float(1.0), F32_POS_INF, F32_NEG_INF])
        return _float(rnd.uniform(-1, 1) * 10.0 ** rnd.randint(-8, 8))
    k = rnd.random()
    if k < 0.2:
        return rnd.choice([0, 1, M32, 0x80000000, 0x7FFFFFFF])
    return rnd.getrandbits(32)


QUICK = ("lane tags", "lane + 1", "signs", "random 0", "random 1")  # the fills tried under every mask

# a stage of the search: (mask, which fills: "all", "quick" (QUICK) or "rest" (the others))
Cases = list[tuple[int, str]]


def _first_masks(contract: str, wave: int) -> list[int]:
    full = (1 << wave) - 1
    if contract == "full":
        return [full]
    if contract.startswith("0x"):
        return [int(contract, 16)]
    top = 1 << (wave - 1)
    rows = [1 | 1 << r for r in range(16, wave, 16)]  # the lowest lane with the first lane of another row
    return list(dict.fromkeys([1, top, 3, 1 | top, *rows, full]))


def first_cases(contract: str, wave: int) -> Cases:
    """Before any solver call: every fill under the first mask (the lowest
    lane alone, or the contract's one mask), the quick fills under the
    highest lane alone, the two lowest lanes, the lowest and the highest,
    the lowest with the first lane of each other row, and every lane."""
    ms = _first_masks(contract, wave)
    return [(ms[0], "all")] + [(m, "quick") for m in ms[1:]]


def more_cases(contract: str, wave: int) -> Cases:
    """The second stage, when the solver's all-lanes question gives up: the
    other fills under the first masks, then the quick fills under every
    other single lane and every adjacent pair (`@exec any`)."""
    ms = _first_masks(contract, wave)
    cases: Cases = [(m, "rest") for m in ms[1:]]
    if contract == "any":
        seen = set(ms)
        singles = [1 << i for i in range(wave)]
        pairs = [3 << i for i in range(wave - 1)]
        cases += [(m, "quick") for m in singles + pairs if m not in seen]
    return cases


def check_lanes(mask: int, wave: int) -> set[int]:
    """The active lanes a case compares: all of them up to 8, else the two
    lowest and highest and those at the edges of rows, halves and quads."""
    act = [i for i in range(wave) if (mask >> i) & 1]
    if len(act) <= 8:
        return set(act)
    edges = {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, wave - 2, wave - 1}
    return {i for i in act if i in edges} | set(act[:2]) | set(act[-2:])


class Search:
    """The cases for one encoding: `enc_sym` names the registers read before
    written (its `fresh`) and the inputs (never NaN for an f32 claim)."""

    def __init__(self, low: Lowering, target: Target, wave: int, assume: dict[str, str], enc_sym: Encoding,
                 mode: Mode):
        self.low, self.target, self.wave, self.assume, self.mode = low, target, wave, assume, mode
        self.enc_sym = enc_sym
        inputs = [reg_key(b.reg) for b in low.inputs if reg_key(b.reg) in enc_sym.fresh]
        self.order = inputs + [n for n in enc_sym.fresh if n not in inputs]
        self.fills = patterns(mode, wave)
        self.runs = 0

    def values(self, fill: Fill) -> dict[str, Any]:
        vals: dict[str, Any] = {"scc": False}
        for k, name in enumerate(self.order, 1):
            t = self.enc_sym.fresh[name]
            vals[name] = [fill(k, i) & M32 for i in range(len(t))] if isinstance(t, list) else fill(k, 0) & M32
        return vals

    def fails(self, mask: int, vals: dict[str, Any], lanes: set[int] | None = None) -> str | None:
        """The first output that differs in a compared lane, or None."""
        self.runs += 1

        def initial(kind: str, name: str, lane: int | None) -> Any:
            if kind == "scc":
                return False
            v = vals.get(name, 0)
            if isinstance(v, list):
                assert lane is not None
                return v[lane] & M32
            return v & M32

        enc = encode(self.low, self.target, self.wave, Concrete(), self.assume, initial, _fixed(mask),
                     spec_lanes=check_lanes(mask, self.wave) if lanes is None else lanes)
        bad = mismatches(enc, feq=self.mode.f32)
        return bad[0][0] if bad else None

    def run(self, cases: Cases, random_cases: int = 0) -> Found | None:
        """The fills of `cases` under their masks, then `random_cases` random
        (mask, values) cases: the first failure, made canonical."""
        for mask, which in cases:
            for name, fill in self.fills:
                if which != "all" and (name in QUICK) != (which == "quick"):
                    continue
                vals = self.values(fill)
                out = self.fails(mask, vals)
                if out is not None:
                    return self.canonical(Found(out, mask, vals, name))
        rnd = random.Random(SEED + 1)
        fixed = _first_masks(self.low.exec_contract, self.wave)[0] if self.low.exec_contract != "any" else None
        for r in range(random_cases):
            mask = rnd.getrandbits(self.wave) | (1 << rnd.randrange(self.wave)) if fixed is None else fixed
            vals = {"scc": False}
            for name in self.order:
                t = self.enc_sym.fresh[name]
                vals[name] = ([random_value(rnd, self.mode) for _ in t] if isinstance(t, list)
                              else random_value(rnd, self.mode))
            out = self.fails(mask, vals)
            if out is not None:
                return self.canonical(Found(out, mask, vals, f"random mask {r}"))
        return None

    def canonical(self, f: Found) -> Found:
        """Fewer lanes, then a smaller mask: active lanes dropped from the
        highest down while the failure persists with the values found (as
        verify.cex.concrete_counterexample does), then the masks the search
        knows (every single lane and adjacent pair, the first masks) that
        come before, with the values found, then with lane tags."""
        if self.low.exec_contract != "any":
            return f
        for i in reversed(range(self.wave)):
            less = f.mask & ~(1 << i)
            if less != f.mask and less and (out := self.fails(less, f.vals)) is not None:
                f = Found(out, less, f.vals, f.case)
        key = (bin(f.mask).count("1"), f.mask)
        known = [m for m, _ in first_cases("any", self.wave) + more_cases("any", self.wave)]
        cands = sorted({m for m in known
                        if (bin(m).count("1"), m) < key}, key=lambda m: (bin(m).count("1"), m))
        tags = self.values(self.fills[[n for n, _ in self.fills].index("lane tags")][1])
        for m in cands:
            for name, vals in ((f.case, f.vals), ("lane tags", tags)):
                out = self.fails(m, vals)
                if out is not None:
                    return Found(out, m, vals, name)
        return f


def _fixed(mask: int) -> Callable[[Any], list[Any]]:
    def exec_init(m: Any) -> list[Any]:
        m.set_exec_mask(mask)
        return []

    return exec_init


def counterexample(search: Search, f: Found, solver_free: bool = False) -> Counterexample | None:
    """The counterexample for a failing state, shown as the solver's are
    (verify.cex.find_counterexample): EXEC as found, then lane tags if the
    failure survives them, else the monoid witness, else the values found
    with each register set to its tags or to zero where the failure survives.
    `solver_free`: only if tags or the witness fail (None otherwise): where
    EXEC is the solver's too (the lowest lane alone, or a fixed contract),
    the counterexample is then the one the solver path prints."""
    # (the counterexample modules load with one: start-up, issue #35)
    from .cex import Counterexample, _monoid_witness, _rows, _tags, lane_pattern, shown_registers, value_reader

    low, mask, feq = search.low, f.mask, search.mode.f32

    def fails(v: dict[str, Any]) -> bool:
        return bool(mismatches(replay(low, search.target, search.wave, search.assume, mask, v), feq=feq))

    tag_vals, _ = _tags(low, search.enc_sym)
    if search.mode.f32:  # raw tags are denormals: fine, but not what the search compared
        tag_vals = search.values(search.fills[[n for n, _ in search.fills].index("lane tags")][1])
    vals, tagged = f.vals, False
    if fails(tag_vals):
        vals, tagged = tag_vals, not search.mode.f32
    elif (search.mode.op is not None and search.mode.monoid
          and (hit := _monoid_witness(low, search.enc_sym, search.mode.op, mask, fails))):
        vals = hit
    elif solver_free:
        return None
    else:
        for name in list(vals):
            if name != "scc" and vals[name] != tag_vals[name]:
                trial = {**vals, name: tag_vals[name]}
                if fails(trial):
                    vals = trial
        for name in list(vals):
            if name != "scc" and vals[name] != tag_vals[name]:
                zero = [0] * len(vals[name]) if isinstance(vals[name], list) else 0
                trial = {**vals, name: zero}
                if vals[name] != zero and fails(trial):
                    vals = trial
    enc = replay(low, search.target, search.wave, search.assume, mask, vals)
    if not mismatches(enc, feq):
        raise AssertionError(f"internal: the pre-search state for {low.name} did not replay concretely")
    # the state fails: what follows explains it (verify.explain), deciding nothing
    rows = _rows(low, enc, vals, tagged, feq=feq,
                 value=value_reader(low, search.target, search.wave, search.assume, mask, vals))
    labels = binding_labels(low.inputs)
    shown = shown_registers(vals, labels, rows)
    tagged_regs = {k for k, v in shown.items() if tagged and v == tag_vals.get(k)}
    pattern = [] if search.mode.f32 else lane_pattern(low, search.target, search.wave, search.assume, tag_vals)
    return Counterexample(f"value({rows[0].output})", search.wave, mask, shown, labels, tagged, rows, None,
                          tagged_regs, dict(vals), pattern)


class Bounded:
    """A solver query (verify.smt.Query) whose every check runs on a resource
    limit (a count of solver steps: the same answer under any load) and
    remembers whether one gave up; after that every check gives up at once
    (the caller throws its answer away).  Everything else is the query's."""

    def __init__(self, q: Any, rlimit: int):
        self.q, self.rlimit, self.gave_up = q, rlimit, False

    def check(self, timeout_s: float | None = None, rlimit: int | None = None) -> str:
        if self.gave_up:
            return "unknown"
        r: str = self.q.check(timeout_s, min(rlimit, self.rlimit) if rlimit else self.rlimit)
        self.gave_up = self.gave_up or r == "unknown"
        return r

    def __getattr__(self, name: str) -> Any:
        return getattr(self.q, name)
