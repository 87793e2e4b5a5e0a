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
   choices, so unsat proves refinement outright.
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

    def __call__(self, name: str) -> list[Any]:
        vs = [self.B.fresh(f"{self.prefix}.{name}.{j}") for j in range(self.wave)]
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
           what: str = "the IR", joint: bool = True) -> Settled | None:
    """After `q` (every assertion, the mismatch among them) came back sat:
    decide with the source's choices existential (module docstring).  None:
    the model does not depend on a source choice (a counterexample as it
    is).  `outputs`: (lane, source value, target value) per lane and piece
    of the result, the same list for every question of one proof (the
    witness is then one function for every lane).  `joint` False: `q` asks
    about one lane, so the quantified question (whose choice would be that
    lane's alone) is not asked."""
    used = depends(q, choices)
    if used is None:
        return None
    blocked = f"{used.what} at {used.span}"
    consts = rec.consts()
    # 2. the witness: each choice equal to the target's value where it shows
    memo: dict[int, frozenset[int]] = {}
    reach: dict[int, list[tuple[int, Any]]] = {}
    for lane, s, t in outputs:
        for k in smt.mentions(s, consts, memo):
            reach.setdefault(k, []).append((lane, t))
    per_lane = {id(v): j for vs in rec.vals.values() for j, v in enumerate(vs)}
    # (a) every choice the target's value in the output it reaches (its own
    # lane's first); (b) where several reach one output, the first that
    # output's value and the others 0 (undef + undef)
    a, b = [], []
    taken: set[int] = set()
    for k, hits in sorted(reach.items()):
        own = per_lane[id(consts[k])]
        lane, t = min(hits, key=lambda h: (h[0] != own, h[0]))
        a.append((consts[k], t))
        b.append((consts[k], 0 if id(t) in taken else t))
        taken.add(id(t))
    r = "sat"
    for eqs in (a, b) if any(x[1] is not y[1] for x, y in zip(a, b)) else (a,):
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
        if r == "sat":
            q.model = w.model
        if r == "unsat":
            return Settled("proved", f"proved with {what}'s non-deterministic values chosen from the target's "
                                     f"(a witness for {len(eqs)} lane value{'s' if len(eqs) != 1 else ''})")
    # 3. the witness's model, checked for every source choice
    if r == "sat" and genuine(q, rec):
        return Settled("refuted", "", q.model)
    if q.session is not None and q.session.defs:
        return Settled("unknown", f"the counterexample depends on a non-deterministic value of {what} ({blocked}): "
                                  "no choice of it was found to match, and verify cannot ask for every choice here")
    # 4. the quantifier engine
    r = smt.check_forall(q, consts, JOINT_RLIMIT) if joint else "unknown"
    if r == "unsat":
        return Settled("proved", f"proved for some choice of {what}'s non-deterministic values (quantified query)")
    if r == "sat" and genuine(q, rec):
        return Settled("refuted", "", q.model)
    return Settled("unknown", f"the counterexample depends on a non-deterministic value of {what} ({blocked}): "
                              "verify found no choice of it that matches and no counterexample for every choice")
