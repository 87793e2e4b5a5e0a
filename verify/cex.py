"""Counterexamples: minimise, replay concretely (explained by verify.explain).

A refutation from the solver is made small and readable before anyone sees
it: first the fewest active lanes (the solver is asked again with "at most k
lanes active" for k = 1, 2, ...) and among those masks the numerically
smallest, so that EXEC is a function of the question, not of the model the
solver returns; then lane-tagged inputs (register r's lane i holds a value
naming it, e.g. 0x105 = x[5]) if the failure survives them, else small
values (and zero for a register that allows it).  The chosen state is
replayed on the concrete backend with tracing; a replay that does not fail
is an internal error, never a printed counterexample (its rows: `mismatches`
of the replay, never the explanation).  The explanation (the cause traced
back, the lane pattern, the folded table) is verify.explain, which decides
no verdict and is outside the proof records' core hash; its names are
re-exported here for the callers that import them from verify.cex.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .backend import Concrete, Cond, Symbolic, f32_bits
from .encode import Encoding, binding_labels, encode, fixed_exec, mismatches, replay
from .explain import M32 as M32
from .explain import Blame as Blame
from .explain import Counterexample as Counterexample
from .explain import Fold as Fold
from .explain import Reader as Reader
from .explain import Row as Row
from .explain import ValueAt as ValueAt
from .explain import _lane_local_source as _lane_local_source
from .explain import _rows as _rows
from .explain import _scalar_chain as _scalar_chain
from .explain import _through_scalar as _through_scalar
from .explain import _value_names as _value_names
from .explain import alternatives as alternatives
from .explain import blame as blame
from .explain import deciding_first as deciding_first
from .explain import exec_bar as exec_bar
from .explain import fold_lanes as fold_lanes
from .explain import fold_runs as fold_runs
from .explain import folded_rows as folded_rows
from .explain import lane_pattern as lane_pattern
from .explain import render as render
from .explain import shifted as shifted
from .explain import shown_registers as shown_registers
from .explain import trace_lane as trace_lane
from .explain import value_reader as value_reader
from .ir import Lowering, reg_key
from .spec import OPS
from .target import Target

# z3 resource units for each step of the counterexample search (the fewest
# active lanes, the smallest mask, small values): a count of solver steps, so
# the counterexample printed is the same under any load
STEP_RLIMIT = 100_000_000

if TYPE_CHECKING:  # annotations only: z3 is loaded by the commands that prove
    from .smt import Query


def _model_values(q: Query, enc: Encoding) -> tuple[int, dict[str, Any]]:
    vals: dict[str, Any] = {}
    for name, t in enc.fresh.items():
        if isinstance(t, list):
            vals[name] = [q.value(x) if x is not None else 0 for x in t]
        else:
            vals[name] = q.value(t)
    vals["scc"] = False
    if enc.exec_bits:
        mask = sum(1 << i for i, b in enumerate(enc.exec_bits) if q.truth(b))
    else:  # a fixed contract: all lanes, or the mask `verify asm --exec` gives
        lo, hi = enc.exec0
        mask = (lo | (hi << 32)) if isinstance(lo, int) and isinstance(hi, int) else (1 << enc.machine.W) - 1
    return mask, vals


def _tags(low: Lowering, enc: Encoding) -> tuple[dict[str, Any], dict[str, Any]]:
    order = [reg_key(b.reg) for b in low.inputs if reg_key(b.reg) in enc.fresh]
    order += [n for n in enc.fresh if n not in order]
    vals: dict[str, Any] = {"scc": False}
    for k, name in enumerate(order, 1):
        t = enc.fresh[name]
        vals[name] = [(k << 8) + i for i in range(len(t))] if isinstance(t, list) else (k << 8) + 0x80
    return vals, {}


def f32_search(low: Lowering, target: Target, wave: int, assume: dict[str, str], enc: Encoding,
               trials: int = 300, seed: int = 0) -> tuple[str, int, dict[str, Any]] | None:
    """Random non-NaN f32 inputs under random EXEC masks: (output, mask,
    register values) of the first state where an active lane differs.  The
    solver is hopeless at finding a rounding difference between two 32-leaf
    float trees; any concrete mismatch is a refutation that replays."""
    rnd = random.Random(seed)
    full = (1 << wave) - 1

    def value() -> int:
        k = rnd.random()
        if k < 0.05:
            return rnd.choice([0, 0x80000000, 0x3F800000, 0x7F800000, 0xFF800000])
        return f32_bits(rnd.uniform(-1, 1) * 10.0 ** rnd.randint(-8, 8))

    regs: dict[str, Any] = {n: t for n, t in enc.fresh.items()}
    for k in range(trials):
        mask = full if low.exec_contract == "full" or k % 3 == 0 else rnd.getrandbits(wave) | 1
        vals = {n: ([value() for _ in range(wave)] if isinstance(t, list) else rnd.getrandbits(32))
                for n, t in regs.items()}
        out = f32_fails(low, target, wave, assume, mask, vals)
        if out is not None:
            return out, mask, vals
    return None


def f32_fails(low: Lowering, target: Target, wave: int, assume: dict[str, str], mask: int,
              vals: dict[str, Any]) -> str | None:
    """The first output of `mismatches(replay(...), feq=True)`, without what
    only a counterexample needs: no trace, and the spec run in the lanes
    active at entry alone (mismatches compares no other)."""
    def initial(kind: str, name: str, lane: int | None) -> Any:
        if kind == "scc":
            return False
        v = vals.get(name, 0)
        if isinstance(v, list):
            assert lane is not None
            return v[lane] & 0xFFFFFFFF
        return v & 0xFFFFFFFF

    lanes = {i for i in range(wave) if (mask >> i) & 1}
    e = encode(low, target, wave, Concrete(), assume, initial, fixed_exec(mask), spec_lanes=lanes)
    bad = mismatches(e, feq=True)
    return bad[0][0] if bad else None


def concrete_counterexample(low: Lowering, target: Target, wave: int, assume: dict[str, str], mask: int,
                            vals: dict[str, Any]) -> Counterexample:
    """A counterexample from a concrete failing state, with active lanes
    dropped greedily while the failure persists."""
    def fails(m: int) -> bool:
        return bool(mismatches(replay(low, target, wave, assume, m, vals), feq=True))

    if low.exec_contract != "full":
        for i in reversed(range(wave)):
            if (mask >> i) & 1 and mask & ~(1 << i) and fails(mask & ~(1 << i)):
                mask &= ~(1 << i)
    enc = replay(low, target, wave, assume, mask, vals)
    rows = _rows(low, enc, vals, False, feq=True, value=value_reader(low, target, wave, assume, mask, vals))
    labels = binding_labels(low.inputs)
    shown = shown_registers(vals, labels, rows)
    return Counterexample(f"value({rows[0].output})", wave, mask, shown, labels, False, rows, state=dict(vals))


def _exec_changed(enc: Encoding) -> bool:
    return bool(enc.machine.exec_pair() != enc.exec0)


# the value that makes one lane's presence or multiplicity visible, per operator
_WITNESS = {"add": 1, "xor": 1, "mul": 3, "umax": 0xFFFFFFFF, "umin": 0, "smax": 0x7FFFFFFF,
            "smin": 0x80000000, "and": 0, "or": 0xFFFFFFFF, "fadd": 0x3F800000, "fmin": 0xFF800000,
            "fmax": 0x7F800000}


def _monoid_witness(low: Lowering, enc_sym: Encoding, op: str, mask: int,
                    fails: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
    """Inputs at the identity except one SGPR read before written, or else
    one lane, at the witness value."""
    ident = OPS[op][1]
    base: dict[str, Any] = {"scc": False}
    for name, t in enc_sym.fresh.items():
        base[name] = [ident] * len(t) if isinstance(t, list) else ident
    if fails(base):
        return base
    inputs = [reg_key(b.reg) for b in low.inputs if reg_key(b.reg) in base]
    lanes = sorted(range(enc_sym.machine.W), key=lambda i: (not (mask >> i) & 1, i))
    names = inputs + [n for n in base if n not in inputs and n != "scc"]
    for name in names:  # an SGPR read before written at the witness: one run each
        if not isinstance(base[name], list):
            trial = {**base, name: _WITNESS[op]}
            if fails(trial):
                return trial
    for name in names:
        if not isinstance(base[name], list):
            continue
        for i in lanes:
            trial = dict(base)
            trial[name] = list(base[name])
            trial[name][i] = _WITNESS[op]
            if fails(trial):
                return trial
    return None


def _smallest_exec(q: Any, B: Any, bits: list[Any], enc_sym: Any) -> tuple[int, dict[str, Any]] | None:
    """The EXEC mask of a counterexample as a function of the question alone,
    not of the model the solver happens to return: among the masks q admits
    with an active lane (when one does), those with the fewest active lanes,
    and among these the numerically smallest.  Returns it with a model's
    register values under it (None if the solver gives no answer); q is left
    as it was.

    The lanes are fixed from the highest down: with k lanes active, the
    highest lies in [k-1, the model's highest]; a binary search (all lanes
    above `mid` off: satisfiable?) finds the lowest it can be, which is fixed
    on and every lane above it off; then the next highest, below it."""
    q.push()
    # a wave with an active lane, when there is one: EXEC = 0 shows no lane
    q.add(B.or_b(*bits))
    some = q.check(rlimit=STEP_RLIMIT) == "sat"
    if not some:
        q.pop()
        q.push()
    fewest = None
    for k in range(1 if some else 0, len(bits) + 1):
        q.push()
        q.add(B.at_most(bits, k))
        if q.check(rlimit=STEP_RLIMIT) == "sat":
            fewest = k
            break
        q.pop()
    if fewest is None:
        q.pop()
        return None
    mask, vals = _model_values(q, enc_sym)
    top = len(bits)  # the lanes from `top` up are fixed
    for left in range(fewest, 0, -1):  # `left` active lanes still to place, below `top`
        below = mask & ((1 << top) - 1)
        if not below:  # (only when a solver timeout hid a smaller count)
            break
        hi = below.bit_length() - 1
        lo = min(left - 1, hi)
        while lo < hi:
            mid = (lo + hi) // 2
            q.push()
            for b in bits[mid + 1:top]:
                q.add(B.not_b(b))
            if q.check(rlimit=STEP_RLIMIT) == "sat":
                mask, vals = _model_values(q, enc_sym)
                hi = (mask & ((1 << top) - 1)).bit_length() - 1
            else:
                lo = mid + 1
            q.pop()
        # `mask` (the model of the last satisfiable check) has lane hi on and none in (hi, top)
        for b in bits[hi + 1:top]:
            q.add(B.not_b(b))
        q.add(bits[hi])
        top = hi
    q.pop()
    q.pop()
    return mask, vals


def find_counterexample(low: Lowering, target: Target, wave: int, enc_sym: Encoding, B: Symbolic, q: Query,
                        bad: list[tuple[str, Cond]], assume: dict[str, str]) -> Counterexample:
    oname, cond = next(((n, c) for n, c in bad if n.startswith("value")), bad[0])
    q.push()
    q.add(cond)
    chosen = _smallest_exec(q, B, enc_sym.exec_bits, enc_sym) if enc_sym.exec_bits else None
    if chosen is not None:
        mask, vals = chosen
    else:
        if q.check() != "sat":
            q.pop()
            raise AssertionError("internal: the refuting query is no longer satisfiable")
        mask, vals = _model_values(q, enc_sym)
    # fix EXEC, then prefer lane tags, then small values
    for i, b in enumerate(enc_sym.exec_bits):
        q.add(b if (mask >> i) & 1 else B.not_b(b))
    is_value = oname.startswith("value")

    def fails(v: dict[str, Any]) -> bool:
        e = replay(low, target, wave, assume, mask, v)
        return bool(mismatches(e)) if is_value else _exec_changed(e)

    tag_vals, _ = _tags(low, enc_sym)
    monoid = getattr(B, "op", None)
    if fails(tag_vals):
        vals, tagged = tag_vals, True
    elif monoid is not None and is_value and (hit := _monoid_witness(low, enc_sym, monoid, mask, fails)):
        # the monoid encoding compares multiplicities, so its model says nothing
        # about values: build the witness its exactness argument names
        vals, tagged = hit, False
    else:
        q.push()  # small values, then lane tags for every register that allows it
        for t in enc_sym.fresh.values():
            for x in (t if isinstance(t, list) else [t]):
                if x is not None:
                    q.add(B.ule(x, 0xFF))
        if q.check(rlimit=STEP_RLIMIT) == "sat":
            mask, vals = _model_values(q, enc_sym)
        q.pop()
        tagged = False
        for name in list(vals):
            if name != "scc" and vals[name] != tag_vals[name]:
                trial = {**vals, name: tag_vals[name]}
                if fails(trial):
                    vals = trial
                    tagged = True
        # then zero for every other register where the failure survives it.  The
        # values still taken from the model are a function of the input too: each
        # proof builds its terms in a z3 context of its own (smt.Session), in an
        # order fixed by the input, and asks the same questions with a fixed seed,
        # so the solver returns the same model on every run (a timeout aside).
        for name in list(vals):
            if name != "scc" and vals[name] != tag_vals[name]:
                zero = [0] * len(vals[name]) if isinstance(vals[name], list) else 0
                trial = {**vals, name: zero}
                if vals[name] != zero and fails(trial):
                    vals = trial
    enc = replay(low, target, wave, assume, mask, vals)
    q.pop()
    if (is_value and not mismatches(enc)) or (not is_value and not _exec_changed(enc)):
        raise AssertionError(f"internal: the counterexample for {low.name} did not replay concretely")
    # the state fails: what follows explains it (verify.explain), deciding nothing
    rows = _rows(low, enc, vals, tagged, value=value_reader(low, target, wave, assume, mask, vals))
    labels = binding_labels(low.inputs)
    lo, hi = enc.machine.exec_pair()
    exec_final = (lo | (hi << 32)) if not is_value else None
    # show the bound inputs and any register whose entry value reaches a bad lane
    shown = shown_registers(vals, labels, rows)
    tagged_regs = {k for k, v in shown.items() if v == tag_vals.get(k)}
    pattern = lane_pattern(low, target, wave, assume, tag_vals) if is_value else []
    return Counterexample(oname, wave, mask, shown, labels, tagged, rows, exec_final, tagged_regs, dict(vals), pattern)


