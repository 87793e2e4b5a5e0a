"""Sorting lowerings proved by the network argument (docs/bitonic.md).

A spec with a ``sorts KEY, VALUE`` line (quadrants.bitonic_sort_kv) says its
outputs are each tile's (key, value) pairs sorted ascending by the pair.
One solver query over the whole sort is hopeless at 64 lanes, so a lowering
of such a spec is proved in two parts:

(a) per stage, by the solver: the lowering is cut into stages (a stage ends
    at the instruction after which it has written both the key and the value
    register); stage t, run from an arbitrary state (every register, SCC and
    the key and value lanes unknown; EXEC full; nothing in flight), leaves
    in the key and value registers exactly the t-th compare-exchange layer
    of Batcher's bitonic sorter on the pairs, with EXEC full and no LDS
    result in flight;
(b) once per tile size n, by the solver: that layer sequence sorts every
    0-1 input (symbolic booleans: a 0-1 comparator network).

By the 0-1 principle (Knuth, TAOCP 5.3.4, exercise 36) a comparator network
that sorts every 0-1 sequence sorts every sequence over a total order; the
lexicographic order on (key, value) is total, and each layer exchanges whole
pairs, so the result is the sorted permutation of the tile's pairs: the
spec's definition.  A concrete run compares the lowering with the spec
itself on one input (the spec stays the reference); when (a) fails a
concrete search looks for an input the lowering sorts wrongly, which is
then the counterexample.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from . import catalog
from .cex import Counterexample, concrete_counterexample
from .diag import InputError
from .encode import mismatches, replay, symbolic_initial
from .ir import Lowering, VReg
from .machine import Machine
from .ops.base import op_of
from .spec import SpecDef, _with_wave
from .target import FeatureLog, Target


def bitonic_layers(n: int) -> list[tuple[int, int]]:
    """(stride, block) of each compare-exchange layer of Batcher's bitonic
    sorter of n = 2**k lanes, in order: blocks 2, 4, .., n, strides b/2 .. 1."""
    out = []
    b = 2
    while b <= n:
        s = b // 2
        while s >= 1:
            out.append((s, b))
            s //= 2
        b *= 2
    return out


def keeps_min(i: int, s: int, b: int, n: int) -> bool:
    """Lane i keeps the smaller pair of itself and lane i ^ s in layer (s, b):
    a block of b lanes sorts ascending when i & b == 0 or it is the tile."""
    return (i & s == 0) == (b == n or i & b == 0)


@dataclass
class SortProof:
    """What the network argument found, for refine to make a Result."""

    obligations: list[tuple[str, str, str]] = field(default_factory=list)  # (name, verdict, detail)
    verdict: str = "proved"
    method: str = ""
    cex: Counterexample | None = None
    assumptions: dict[str, str] = field(default_factory=dict)
    ops: set[str] = field(default_factory=set)


def stages(low: Lowering, key: int, value: int) -> list[tuple[int, int]]:
    """[start, stop) instruction ranges: a stage ends after the instruction by
    which it has written both the key and the value register; what follows
    the last such instruction joins the last stage."""
    out: list[tuple[int, int]] = []
    start, wrote = 0, set()
    for k, ins in enumerate(low.program):
        wrote |= set(op_of(ins.base).defs(ins))
        if {f"v{key}", f"v{value}"} <= wrote:
            out.append((start, k + 1))
            start, wrote = k + 1, set()
    if start < len(low.program):
        if out:
            out[-1] = (out[-1][0], len(low.program))
        else:
            out.append((start, len(low.program)))
    return out


_SORTS: dict[int, str] = {}  # tile size -> the 0-1 check's answer (the network is fixed by n)


def network_sorts(n: int, timeout: float) -> str:
    """(b): the bitonic layers of n lanes sort every 0-1 input ("unsat": no
    0-1 input whose output has a 1 before a 0)."""
    from .smt import Z3, Session, check_plain  # z3 is imported by the commands that prove (test_imports)

    if n in _SORTS:
        return _SORTS[n]
    B = Z3(Session())
    x = [B.fresh_bool(f"bit{i}") for i in range(n)]
    for s, b in bitonic_layers(n):
        x = [B.and_b(x[i], x[i ^ s]) if keeps_min(i, s, b, n) else B.or_b(x[i], x[i ^ s]) for i in range(n)]
    r = check_plain(B.or_b(*[B.and_b(x[i], B.not_b(x[i + 1])) for i in range(n - 1)]), timeout)
    if r != "unknown":
        _SORTS[n] = r
    return r


def _lex_lt(B: Any, K: list[Any], V: list[Any], a: int, c: int, signed: bool) -> Any:
    """Pair a before pair c: key first, then value (i32 or u32)."""
    less = B.slt if signed else B.ult
    return B.or_b(less(K[a], K[c]), B.and_b(B.eq(K[a], K[c]), less(V[a], V[c])))


def _sort_inputs(wave: int, n: int, trial: int) -> tuple[list[int], list[int]]:
    """Concrete (keys, values): distinct keys, 0-1 keys, all keys equal,
    random 32-bit pairs with ties, by turns (a fixed seed)."""
    rnd = random.Random(trial)
    kind = trial % 4
    keys: list[int] = []
    vals: list[int] = []
    for _ in range(0, wave, n):
        if kind == 0:
            ks = rnd.sample(range(-n, n), n)
            vs = [rnd.randrange(100) for _ in range(n)]
        elif kind == 1:
            ks = [rnd.randrange(2) for _ in range(n)]
            vs = rnd.sample(range(n), n)
        elif kind == 2:
            ks = [7] * n
            vs = rnd.sample(range(-n, n), n)
        else:
            ks = [rnd.choice([0, -1, 1 << 31, rnd.getrandbits(32)]) for _ in range(n)]
            vs = [rnd.choice([0, -1, rnd.getrandbits(32)]) for _ in range(n)]
        keys += [k & 0xFFFFFFFF for k in ks]
        vals += [v & 0xFFFFFFFF for v in vs]
    return keys, vals


def _concrete(low: Lowering, target: Target, wave: int, assume: dict[str, str], key: int, value: int, n: int,
              trials: range) -> dict[str, Any] | None:
    """The register values of the first trial whose result differs from the spec's, if any."""
    for t in trials:
        ks, vs = _sort_inputs(wave, n, t)
        regs: dict[str, Any] = {f"v{key}": ks, f"v{value}": vs}
        if mismatches(replay(low, target, wave, assume, (1 << wave) - 1, regs)):
            return regs
    return None


def prove_sort(low: Lowering, target: Target, wave: int, timeout: float, assume: dict[str, str],
               spec_def: SpecDef, flog: FeatureLog) -> SortProof:
    """The network argument for `low` (module docstring)."""
    from .smt import SOLVER, Z3, Query, Session, renamed  # z3 is imported by the commands that prove (test_imports)

    lib = catalog.speclib()
    if low.exec_contract != "full":
        raise InputError(low.spans.get("exec"), f"{low.name}: a sort ({low.spec}) is proved under '@exec full' only "
                                                f"(Quadrants' contract: every lane active)")
    regs: dict[str, int] = {}
    for bind in [*low.inputs, *low.outputs]:
        if isinstance(bind.reg, VReg):
            regs[bind.name] = bind.reg.index
    kname, vname = spec_def.sorts
    okey, oval = spec_def.outputs
    if not (kname in regs and vname in regs and regs.get(okey) == regs[kname] and regs.get(oval) == regs[vname]):
        raise InputError(low.spans.get("output"), f"{low.name}: the network argument needs the sort in place: "
                                                  f"{okey} in the register of {kname}, {oval} in that of {vname}")
    key, value = regs[kname], regs[vname]
    bound = _with_wave(lib.bind(spec_def, low.params), wave)
    n = lib.group_size(spec_def, bound, wave)
    signed = bound.get("signed", 1) != 0
    proof = SortProof(method=f"{SOLVER}, network argument (docs/bitonic.md): per-stage compare-exchange, "
                             f"0-1 principle, exec=full")
    proof.obligations.append(("contract", "proved", "the contract admits an EXEC mask with an active lane"))
    proof.obligations.append(("defined", "proved", "under a full EXEC the spec is defined in every lane"))
    full = (1 << wave) - 1
    layers = bitonic_layers(n)
    cuts = stages(low, key, value)
    failed = ""
    if len(cuts) != len(layers):
        failed = (f"the lowering has {len(cuts)} stages (a stage ends where both v{key} and v{value} are written); "
                  f"the bitonic sorter of {n} lanes has {len(layers)}")
        proof.obligations.append(("stages", "refuted", failed))
    for t, ((start, stop), (s, b)) in enumerate(zip(cuts, layers) if not failed else []):
        B = Z3(Session())
        fresh: dict[str, Any] = {}
        initial = symbolic_initial(B, wave, fresh)
        m = Machine(B, wave, initial, flog, assume)
        m.hazard_entry = low.hazard_entry
        m.set_exec_mask(full)
        m.scc = initial("scc", "scc", None)
        K, V = list(m.v(key)), list(m.v(value))
        m.run(low.program, start, stop)
        K1, V1 = m.v(key), m.v(value)
        proof.assumptions.update(m.assumptions_used)
        proof.ops |= m.ops_run

        # one question per lane, each with the lane's own four values renamed
        # (k_self, k_partner, v_self, v_partner) and simplified: lanes whose
        # questions read the same (one per direction, when the stage is right)
        # share one solver call.  Asking all lanes at once is far slower.
        questions: dict[str, Any] = {}
        for i in range(wave):
            p = i ^ s
            take = _lex_lt(B, K, V, p, i, signed) if keeps_min(i % n, s, b, n) else _lex_lt(B, K, V, i, p, signed)
            lane_bad = B.or_b(B.ne(K1[i], B.ite(take, K[p], K[i])), B.ne(V1[i], B.ite(take, V[p], V[i])))
            text, c = renamed(lane_bad, [(K[i], "k_self"), (K[p], "k_partner"), (V[i], "v_self"), (V[p], "v_partner")])
            questions.setdefault(text, c)
        lo, hi = m.exec_pair()
        exec_bad = B.ne(lo, B.const(full & 0xFFFFFFFF))
        if wave == 64:
            exec_bad = B.or_b(exec_bad, B.ne(hi, B.const(full >> 32)))
        name = f"stage({t + 1}: stride {s}, block {b})"
        lines = f"lines {low.program[start].line}-{low.program[stop - 1].line}"
        if m.waits is not None and m.waits.queue:
            failed = f"{name}, {lines}: an LDS result is still in flight at its end"
            proof.obligations.append((name, "refuted", failed))
            break
        r = "unsat"
        for c in [exec_bad, *questions.values()]:
            q = Query(timeout, session=B.session)
            q.add(c)
            r = q.check()
            if r != "unsat":
                break
        if r == "unsat":
            proof.obligations.append((name, "proved", f"{lines} are the bitonic compare-exchange layer on (key, value) "
                                                      f"({len(questions)} distinct lane questions)"))
            continue
        failed = f"{name}, {lines}: " + ("not the bitonic compare-exchange layer" if r == "sat" else f"solver: {q.reason or 'gave up'}")
        proof.obligations.append((name, "refuted" if r == "sat" else "unknown", failed))
        break
    if not failed:
        r = network_sorts(n, timeout)
        if r == "unsat":
            proof.obligations.append(("network", "proved", f"the {len(layers)} layers sort every 0-1 input of {n} lanes"))
        else:
            failed = f"the 0-1 check of the {n}-lane network: {r}"
            proof.obligations.append(("network", "unknown", failed))
    # the spec is the reference: one concrete run when proved, a search when not
    bad_regs = _concrete(low, target, wave, assume, key, value, n, range(1) if not failed else range(16))
    if bad_regs is not None:
        proof.cex = concrete_counterexample(low, target, wave, assume, full, bad_regs)
        proof.obligations.append((proof.cex.obligation, "refuted",
                                  "an active lane differs from the spec (found by concrete search)"))
        proof.verdict = "refuted"
        proof.method += ", concrete search"
    elif failed:
        proof.verdict = "unknown"
        proof.obligations.append(("value", "unknown", "the network argument does not apply and no concrete input "
                                                      "in 16 sorts wrongly"))
    else:
        for o in spec_def.outputs:
            proof.obligations.append((f"value({o})", "proved",
                                      f"every lane equals {low.spec}, by the network argument (docs/bitonic.md)"))
        proof.obligations.append(("exec", "proved", "EXEC is restored (full after every stage)"))
    return proof
