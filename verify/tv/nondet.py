"""Refinement with non-determinism in the source, as Alive2 defines it.

The source's non-deterministic values (``undef``, a fresh value at each use;
``freeze`` of poison or undef, one arbitrary but fixed value per lane; the
lanes ``llvm.amdgcn.mov.dpp`` leaves unwritten) are the source's to choose;
the target's are universal.  The target refines the source when

    for every input and every choice of the target,
    some choice of the source's values makes every active lane match,

so the negation a solver is asked, "some input and target choice where
every source choice mismatches", has a universal quantifier.  It is
settled without one where it can be:

1. The plain question (every choice free, as the target's are) asked
   first by the checker: unsat proves refinement for every source choice,
   hence for some; a model that no source choice reaches (`Choice.used`
   false in every lane) is a real counterexample.
2. A witness: each source choice is set to the target's value in the
   output it reaches (the lane's own output first).  This is a Skolem
   function of the inputs and the target's values, never of the source's
   choices, so unsat proves refinement outright.  Other witnesses of the
   same kind: the target's value less the source's with the choices 0 (a
   choice added), or times the inverse of an odd constant factor (`mul %f,
   3`); the GPU's own unknown in the choice's lane, a register the code
   reads before writing it (a DPP `old` of `freeze poison` kept in a lane
   whose source is off; an SGPR llc-22 leaves for a uniform freeze), the
   one the target's values mention where the choice's lane runs (of
   ite(exec[j], a, b), a: a VGPR's lane kept where lane j is off is not
   what lane j's choice stands for), tried second; also compared by lane
   normal forms (smt.LaneNormal) where the joint question gives up, and
   lane by lane under one witness (found once, on the first lane).
3. A model of (2) is checked for every source choice: its inputs and
   target values fixed, the source's choices left free, "some choice
   matches" unsat makes it a counterexample for every choice (refuted).
4. Otherwise z3's quantifier engine on the exists-forall question, on a
   resource limit: unsat proves, a model is checked as in (3).
5. What is left is unknown, naming the choice that blocked it.

Each step is sound on its own; none depends on the shape of the IR.  The
unknowns a kernel's lane arrays are defined by (smt.Session.defs) are not
renamed with the choices, so where a session has any, steps 3 and 4 are
skipped (unknown).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import smt
from ..refine import JOINT_RLIMIT
from .sem import Choice


@dataclass
class Choices:
    """The `fresh` callback of one IR run: every non-deterministic value is
    W plain unknowns (one per lane), remembered by its choice number."""

    B: Any
    wave: int
    prefix: str = "src"
    vals: dict[int, list[Any]] = field(default_factory=dict)
    make: Callable[[str], list[Any]] | None = None  # the W unknowns made otherwise (a kernel's lane arrays)

    def __call__(self, name: str) -> list[Any]:
        vs = (self.make(name) if self.make is not None
              else [self.B.fresh(f"{self.prefix}.{name}.{j}") for j in range(self.wave)])
        self.vals[int(name.rsplit("#", 1)[1])] = vs
        return vs

    def consts(self) -> list[Any]:
        return [v for k in sorted(self.vals) for v in self.vals[k]]


@dataclass
class Settled:
    verdict: str  # proved, refuted, unknown
    note: str
    model: Any = None  # refuted: a model that mismatches for every source choice


def depends(q: smt.Query, choices: list[Choice]) -> Choice | None:
    """The first source choice the model on `q` uses (None: the model is a
    counterexample whatever the source chooses)."""
    return next((c for c in choices if any(q.truth(u) for u in c.used)), None)


def genuine(q: smt.Query, rec: Choices) -> bool:
    """The model on `q` mismatches for every choice of the source's values."""
    if q.session is not None and q.session.defs:
        return False
    r = smt.Query(30.0, session=q.session)
    r.add(rec.B.not_b(smt.residue(q, rec.consts())))  # some choice escapes the mismatch?
    return r.check(rlimit=JOINT_RLIMIT) == "unsat"


def settle(q: smt.Query, B: Any, choices: list[Choice], rec: Choices, outputs: list[tuple[int, Any, Any]],
           what: str = "the IR", joint: bool = True,
           split: tuple[list[Any], list[Any]] | None = None, variant: list[Any] | None = None,
           target_free: list[list[Any]] | None = None, exec_bits: list[Any] | None = None,
           no_model: bool = False) -> Settled | None:
    """After `q` (every assertion, the mismatch among them) came back sat:
    decide with the source's choices existential (module docstring).  None:
    the model does not depend on a source choice (a counterexample as it
    is).  `outputs`: (lane, source value, target value) per lane and piece
    of the result, the same list for every question of one proof (the
    witness is then one function for every lane).  `joint` False: `q` asks
    about one lane, so the quantified question (whose choice would be that
    lane's alone) is not asked.  `split`: (the assertions but the
    mismatch, the mismatch lane by lane): where the choices each lane's
    mismatch reads are its own (no two lanes share one, the rest reads
    none), some choice for all lanes is some choice for each, and the
    quantified question is asked lane by lane, one lane's choices at a
    time.  `variant`: one holder for every question of a proof asked lane
    by lane: the witness that proved the first lane is the only one tried
    for the others (one choice for all lanes, not one per lane).
    `exec_bits`: the lanes' EXEC bits, for witness (f): the registers a
    choice's target values mention where the choice's lane runs.
    `no_model`: `q` gave up rather than came back sat: only the
    witnesses are tried (each proves on its own), never a refutation."""
    used = depends(q, choices) if not no_model else choices[0]  # (no_model: `q` gave up; the witnesses only)
    if used is None:
        return None
    blocked = f"{used.what} at {used.span}"
    consts = rec.consts()
    memo: dict[int, frozenset[int]] = {}

    def witnesses() -> list[Any]:
        """(a) to (g) and each (f) after the first: the witnesses, in the order tried."""
        # 2. the witness: each choice equal to the target's value where it shows
        reach: dict[int, list[tuple[int, int, Any, Any]]] = {}  # choice -> (lane, output #, source, target)
        for n, (lane, s, t) in enumerate(outputs):
            for k in smt.mentions(s, consts, memo):
                reach.setdefault(k, []).append((lane, n, s, t))
        per_lane = {id(v): j for vs in rec.vals.values() for j, v in enumerate(vs)}
        zero = [(c, 0) for c in consts]
        # each choice gets an output it reaches (its own lane's first, one not
        # given to another choice where there is one): (a) the target's value
        # there; (b) 0 where the output was given already (undef + undef);
        # (c) the target's value minus the source's with every choice 0 (a
        # choice added to a value); (d) the same with xor; (e) for a freeze of
        # a value that may be poison, that value as computed (what a compiler
        # does with it)
        a, b, c_, d, e, g = [], [], [], [], [], []
        natural: dict[int, Any] = {}  # (e) a freeze's operand's value, as a compiler computes it
        for n, ch in enumerate(choices):
            if ch.natural is not None and n in rec.vals:
                natural.update({id(v): x for v, x in zip(rec.vals[n], ch.natural)})
        taken: set[int] = set()
        for k, hits in sorted(reach.items()):
            own = per_lane[id(consts[k])]
            hits = sorted(hits, key=lambda h: (h[0] != own, h[0], h[1]))
            free = [h for h in hits if h[1] not in taken]
            lane, n, s, t = (free or hits)[0]
            a.append((consts[k], t))
            b.append((consts[k], t if free else 0))
            s0 = smt.replaced(s, zero)
            c_.append((consts[k], B.sub(t, s0)))
            # (c) scaled: s = k * choice + s0 with k an odd constant (mul %f, 3):
            # the choice (t - s0) * k^-1 mod 2^32
            one = smt.replaced(s, [(c, 1 if j == k else 0) for j, c in enumerate(consts)])
            kk = smt.numeral(B.sub(one, s0)) if type(s) not in (int, bool) else None
            g.append((consts[k], B.mul(B.sub(t, s0), B.const(pow(kk, -1, 1 << 32))) if kk is not None and kk & 1
                      else B.sub(t, s0)))
            d.append((consts[k], B.xor(t, s0)))
            e.append((consts[k], natural.get(id(consts[k]), t)))
            taken.add(n)
        # (f) the target's own unknown in the choice's lane: a register the GPU
        # code reads before writing it (`target_free`: its lanes), mentioned by
        # the target's values the choice reaches (a DPP `old` kept in a lane
        # whose source is off: the GPU keeps that lane's register)
        # (f) again from each other register the target's values mention (a
        # freeze kept in an SGPR read through ds_bpermute where the lanes it
        # reads run, and a VGPR's unwritten lanes where they do not).  (f)
        # second: where the GPU code reads a register it never wrote, the choice
        # most often stands for it (a failed witness costs two queries); each
        # (f) made only when tried (a walk of the target's values per lane)
        def regs(first: int | None) -> Any:
            return lambda: _registers_witness(consts, reach, per_lane, target_free or [], a, first, exec_bits)
        more = [regs(r) for r in _registers_mentioned(reach, target_free)[1:]] if target_free else []
        order = [a, regs(None) if target_free else a, b, c_, d, e, g, *more]
        return order

    # (the witness that proved the first lane, kept: the same for every lane)
    order = witnesses() if variant is None or len(variant) < 2 else [None] * variant[0] + [variant[1]]
    found = None  # a model where a witness fails
    tried: list[list[tuple[Any, Any]]] = []
    for idx, made in enumerate(order):
        if variant is not None and variant[0] >= 0 and idx != variant[0]:
            continue
        eqs = made() if callable(made) else made
        if any(all(x[1] is y[1] for x, y in zip(eqs, e)) for e in tried):
            continue
        tried.append(eqs)
        w = smt.Query(30.0, session=q.session)
        # the witness put in place (its terms simplify with it), or asserted
        # equal where a Session's definitions would keep the choice
        if q.session is not None and not q.session.defs:
            w.add(smt.substituted(q, eqs))
        else:
            for c in q.assertions:
                w.add(c)
            for c, t in eqs:
                w.add(B.eq(c, t))
        r = w.check(rlimit=JOINT_RLIMIT, plain=True)  # (bit-blasting first: the choice is gone)
        if r == "unknown":
            r = w.check(rlimit=JOINT_RLIMIT)
        if r == "unknown" and (idx in (0, 1) or idx > 6) and split is not None and (q.session is None or not q.session.defs) \
                and _witness_per_lane(B, q, eqs, *split):
            r = "unsat"  # (one witness, every lane's mismatch gone under it)
        if r == "sat":
            found = w.model
        if r == "unsat":
            if variant is not None:
                variant[:] = [idx, eqs]
            return Settled("proved", f"proved with {what}'s non-deterministic values chosen from the target's "
                                     f"(a witness for {len(eqs)} lane value{'s' if len(eqs) != 1 else ''})")
    if no_model:
        return Settled("unknown", f"no witness for {what}'s non-deterministic values ({blocked})")
    # 3. the witness's model, checked for every source choice
    if found is not None:
        q.model = found
        if genuine(q, rec):
            return Settled("refuted", "", q.model)
    if q.session is not None and q.session.defs:
        return Settled("unknown", f"the counterexample depends on a non-deterministic value of {what} ({blocked}): "
                                  "no choice of it was found to match, and verify cannot ask for every choice here")
    # 4. the quantifier engine
    r = smt.check_forall(q, consts, JOINT_RLIMIT) if joint else "unknown"
    if r == "unsat":
        return Settled("proved", f"proved for some choice of {what}'s non-deterministic values (quantified query)")
    if r != "sat" and joint and split is not None and _per_lane(q, consts, memo, *split):
        return Settled("proved", f"proved for some choice of {what}'s non-deterministic values (quantified "
                                 "query, lane by lane)")
    if r == "sat" and genuine(q, rec):
        return Settled("refuted", "", q.model)
    return Settled("unknown", f"the counterexample depends on a non-deterministic value of {what} ({blocked}): "
                              "verify found no choice of it that matches and no counterexample for every choice")


def _per_lane(q: smt.Query, consts: list[Any], memo: dict[int, frozenset[int]], base: list[Any],
              lanes: list[Any]) -> bool:
    """Every lane's mismatch unsatisfiable for some choice of that lane's
    own values (settle's `split`); False where the lanes share a choice,
    the other assertions read one, or a lane is not settled."""
    if any(smt.mentions(c, consts, memo) for c in base):
        return False
    own = [smt.mentions(c, consts, memo) for c in lanes]
    seen: set[int] = set()
    for o in own:
        if o & seen:
            return False
        seen |= o
    for cond, o in zip(lanes, own):
        one = smt.Query(30.0, session=q.session)
        for c in base:
            one.add(c)
        one.add(cond)
        if smt.check_forall(one, [consts[k] for k in sorted(o)], JOINT_RLIMIT // 8) != "unsat":
            return False
    return True


def _registers_witness(consts: list[Any], reach: dict[int, list[tuple[int, int, Any, Any]]],
                       per_lane: dict[int, int], target_free: list[list[Any]],
                       fallback: list[tuple[Any, Any]], first: int | None = None,
                       exec_bits: list[Any] | None = None) -> list[tuple[Any, Any]]:
    """settle's witness (f): each source choice (lane j) set to lane j's
    value of the first of the target's free registers (register `first`
    tried before the others) that a target value it reaches mentions (else
    as witness (a)); with `exec_bits`, mentions where lane j runs (of an
    if-then-else on exec[j], the then branch: a register kept in the lanes
    that are off is not what an active lane's choice stands for).  A
    function of the target's values alone: a Skolem function, as the
    others."""
    free = [x for regs in target_free for x in regs]
    order = list(target_free) if first is None else [target_free[first]] + [
        r for k, r in enumerate(target_free) if k != first]
    where = smt.Mentions(free)
    out = []
    for (k, hits), (_, dflt) in zip(sorted(reach.items()), fallback):
        lane = per_lane[id(consts[k])]
        on = exec_bits[lane] if exec_bits is not None else None
        seen: frozenset[int] = frozenset().union(*(where.of(t, on) for _, _, _, t in hits))
        # (by term: an SGPR is one term in every lane, and a term's index in
        # `free` is its last; a ds_bpermute's target values mention every lane)
        named = {free[x].get_id() for x in seen}
        pick = next((regs[lane] for regs in order if regs[lane].get_id() in named), None)
        out.append((consts[k], pick if pick is not None else dflt))
    return out


def _registers_mentioned(reach: dict[int, list[tuple[int, int, Any, Any]]], target_free: list[list[Any]]) -> list[int]:
    """The target's free registers (their indexes) some target value a
    choice reaches mentions: the registers witness (f) may start from."""
    free = [x for regs in target_free for x in regs]
    memo: dict[int, frozenset[int]] = {}
    seen: frozenset[int] = frozenset().union(*(smt.mentions(t, free, memo)
                                               for hits in reach.values() for _, _, _, t in hits))
    named = {free[x].get_id() for x in seen}
    return [k for k, regs in enumerate(target_free) if any(x.get_id() in named for x in regs)]


def _witness_per_lane(B: Any, q: smt.Query, eqs: list[tuple[Any, Any]], base: list[Any], lanes: list[Any]) -> bool:
    """The witness `eqs` (one for every lane) leaves no lane's mismatch
    satisfiable, asked lane by lane (settle's `split`), each question on a
    fixed resource limit."""
    fixed = [smt.replaced(c, eqs) for c in base]
    for cond in lanes:
        one = smt.Query(30.0, session=q.session)
        for c in fixed:
            one.add(c)
        one.add(smt.replaced(cond, eqs))
        if one.check(rlimit=JOINT_RLIMIT) != "unsat":
            return False
    return True


def register_witness(rec: Choices, outputs: list[tuple[int, Any, Any]],
                     target_free: list[list[Any]], exec_bits: list[Any] | None = None) -> list[tuple[Any, Any]]:
    """Witness (f) of `settle` on its own (for the checker's lane normal
    forms): each source choice that reaches an output, set to its lane's
    value of the target's free register the target's values there mention."""
    consts = rec.consts()
    memo: dict[int, frozenset[int]] = {}
    reach: dict[int, list[tuple[int, int, Any, Any]]] = {}
    for n, (lane, s, t) in enumerate(outputs):
        for k in smt.mentions(s, consts, memo):
            reach.setdefault(k, []).append((lane, n, s, t))
    per_lane = {id(v): j for vs in rec.vals.values() for j, v in enumerate(vs)}
    fallback = [(consts[k], hits[0][3]) for k, hits in sorted(reach.items())]
    return _registers_witness(consts, reach, per_lane, target_free, fallback, exec_bits=exec_bits)


def settle_stores(q: smt.Query, B: Any, choices: list[Choice], rec: Choices, mismatch: Any,
                  stores: list[tuple[int, Any, Any]]) -> Settled | None:
    """A kernel's (or a pointer-taking function's) stores, lane by lane:
    after the question "some store pair differs" (`mismatch`) is not unsat with
    the source's choices free, the witnesses of `settle` with the outputs
    the stores' values, (lane, IR value, GPU value) per lane and dword.  A
    witness is a function of the inputs and the GPU's values alone (a
    Skolem function), so unsat under it proves the store sequences equal
    for some choice of the IR's values: the memories equal.  None: not
    settled here (the caller goes on as without choices).  [S:tv-nondet-stores]"""
    q.push()
    q.add(mismatch)
    try:
        r = q.check(rlimit=JOINT_RLIMIT)
        if r == "unsat":
            return None
        out = settle(q, B, choices, rec, stores, joint=False, no_model=r != "sat")
        return out if out is not None and out.verdict == "proved" else None
    finally:
        q.pop()


def normal_witness(B: Any, rec: Choices, exec_bits: list[Any], got: list[Any], want: list[Any]) -> list[tuple[Any, Any]]:
    """Witness (h), for the checker's lane normal forms: each source choice
    set to the target's term found where the choice stands in the source's
    normal form (LaneNormal.match of every lane's two normal forms: a DPP
    `old` of `freeze poison` kept where the source lane is off stands where
    the GPU's register holds what an earlier instruction left there, a term
    of the target's inputs).  One term per choice for every lane, mentioning
    no source choice: a Skolem function of the target's values.  [] where
    the forms do not match so; the caller makes the normal forms again with
    the witness in place (the proof).  [S:lane-normal-witness]"""
    consts = rec.consts()
    holes = {c.get_id() for c in consts}
    norm = smt.LaneNormal(B.session, exec_bits)
    bound: dict[int, int] = {}
    for i, (g, w) in enumerate(zip(got, want)):
        n, m = norm.normal(g, i), norm.normal(w, i)
        if n is None or m is None or not norm.match(m, n, holes, bound):
            return []
    by_id = {c.get_id(): c for c in consts}
    eqs = [(by_id[h], norm.term(node)) for h, node in sorted(bound.items())]
    memo: dict[int, frozenset[int]] = {}
    if any(type(t) is bool or smt.mentions(t, consts, memo) for _, t in eqs):
        return []
    return eqs
