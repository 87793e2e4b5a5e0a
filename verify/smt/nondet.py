"""Helpers for the source's non-deterministic values (verify/tv/nondet.py):
which unknowns a term mentions, residues and substitutions, and the
quantified check asked last."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .query import _BUDGET, NO_TIMEOUT, QUERIES, Query, _rlimit_count
from .terms import z3


def mentions(term: Any, wanted: Sequence[Any], memo: dict[int, frozenset[int]]) -> frozenset[int]:
    """The indexes in `wanted` (uninterpreted constants) of those `term`
    mentions; `memo` (by ast id) is shared between the terms of one proof."""
    if type(term) in (int, bool):
        return frozenset()
    if (hit := memo.get(term.get_id())) is not None:
        return hit
    ids = {c.get_id(): k for k, c in enumerate(wanted)}
    stack = [term]
    while stack:
        t = stack[-1]
        tid = t.get_id()
        if tid in memo:
            stack.pop()
            continue
        kids = t.children()
        todo = [c for c in kids if c.get_id() not in memo]
        if todo:
            stack += todo
            continue
        stack.pop()
        own = frozenset([ids[tid]]) if tid in ids else frozenset()
        memo[tid] = own.union(*(memo[c.get_id()] for c in kids)) if kids else own
    return memo[term.get_id()]


class Mentions:
    """Which of `wanted` (uninterpreted constants) a term mentions where a
    condition holds (of an if-then-else on it, the then branch only: what a
    term is where a lane's EXEC bit is set).  Each term's DAG is read from
    z3 once; the walks under each condition are over its ids."""

    def __init__(self, wanted: Sequence[Any]) -> None:
        self.ids = {c.get_id(): k for k, c in enumerate(wanted)}
        self.kids: dict[int, tuple[int, ...]] = {}
        self.ite: dict[int, int] = {}  # an if-then-else's id -> its condition's id
        self.memo: dict[int, dict[int, frozenset[int]]] = {}  # condition id (-1: none) -> id -> indexes

    def of(self, term: Any, active: Any = None) -> frozenset[int]:
        if type(term) in (int, bool):
            return frozenset()
        root = term.get_id()
        stack = [term]
        while stack:  # the DAG, once
            t = stack.pop()
            tid = t.get_id()
            if tid in self.kids:
                continue
            kids = t.children()
            self.kids[tid] = tuple(c.get_id() for c in kids)
            if len(kids) == 3 and z3.is_app_of(t, z3.Z3_OP_ITE):
                self.ite[tid] = kids[0].get_id()
            stack += [c for c in kids if c.get_id() not in self.kids]
        on = -1 if active is None or type(active) is bool else active.get_id()
        memo = self.memo.setdefault(on, {})
        todo = [root]
        while todo:
            tid = todo[-1]
            if tid in memo:
                todo.pop()
                continue
            kids = self.kids[tid]
            if on >= 0 and self.ite.get(tid) == on:
                kids = kids[1:2]
            left = [c for c in kids if c not in memo]
            if left:
                todo += left
                continue
            todo.pop()
            own = frozenset([self.ids[tid]]) if tid in self.ids else frozenset()
            memo[tid] = own.union(*(memo[c] for c in kids)) if kids else own
        return memo[root]


def residue(q: Query, consts: Sequence[Any]) -> Any:
    """The assertions of `q` under its model, except the constants `consts`
    (renamed apart, left unknown): a condition on `consts` alone (and on
    constants the model left open, which stay unknown too)."""
    fresh = [z3.FreshConst(c.sort(), "choice") for c in consts]
    pairs = list(zip(consts, fresh))
    body = z3.And(*q._terms()) if q.assertions else z3.BoolVal(True, q.ctx)
    return q.model.eval(z3.substitute(body, *pairs) if pairs else body, model_completion=False)


def check_forall(q: Query, consts: Sequence[Any], rlimit: int) -> str:
    """sat / unsat / unknown of: for every value of `consts`, all of `q`'s
    assertions hold (z3's quantifier engine, on a resource limit).  A sat
    leaves the model (without `consts`) on `q`."""
    body = z3.And(*q._terms()) if q.assertions else z3.BoolVal(True, q.ctx)
    s = z3.Solver(ctx=q.ctx)
    b = _BUDGET.get()
    if b is not None:
        if b.spent:
            q.model, q.reason = None, b.reason()
            return "unknown"
        rlimit = min(rlimit, b.left)
    s.set("timeout", int(NO_TIMEOUT * 1000))
    s.set("rlimit", rlimit)
    s.set("random_seed", q.seed)
    s.add(z3.ForAll(list(consts), body) if consts else body)
    QUERIES[0] += 1
    before = _rlimit_count(s) if b is not None else 0
    r = s.check()
    if b is not None:
        b.used += _rlimit_count(s) - before
    if r == z3.sat:
        q.model = s.model()
        return "sat"
    q.model = None
    if r == z3.unsat:
        return "unsat"
    q.reason = s.reason_unknown()
    return "unknown"


def substituted(q: Query, pairs: Sequence[tuple[Any, Any]]) -> Any:
    """The conjunction of `q`'s assertions with each constant of `pairs`
    replaced by its term (the Session's definitions included, replaced too)."""
    body = z3.And(*q._terms()) if q.assertions else z3.BoolVal(True, q.ctx)
    return z3.substitute(body, *[(c, q.session.bv(t) if q.session is not None else t) for c, t in pairs])


def replaced(term: Any, pairs: Sequence[tuple[Any, Any]]) -> Any:
    """`term` with each constant of `pairs` replaced by its term (a Python
    int stands for a 32-bit constant)."""
    if type(term) in (int, bool) or not pairs:
        return term
    ctx = term.ctx
    return z3.substitute(term, *[(c, z3.BitVecVal(t, 32, ctx) if type(t) is int else t) for c, t in pairs])


def numeral(term: Any) -> int | None:
    """`term`'s value where z3's simplifier makes it a 32-bit numeral (an
    int stays itself); None otherwise."""
    if type(term) is int:
        return term & 0xFFFFFFFF
    if type(term) is bool:
        return None
    r = z3.simplify(term)
    return r.as_long() if z3.is_bv_value(r) else None


def _renamed_apart(q: Query, groups: Sequence[Sequence[Any]], skip: Sequence[Any]) -> tuple[list[Any], list[Any], Any]:
    """`q`'s assertions less `skip` (by identity) with the constants in
    `groups` and the Session's arrays whose definitions mention them
    (directly or not) renamed to fresh constants, their definitions renamed
    with them: (the renamed constants, the fresh ones, the conjunction)."""
    wanted = [c for g in groups for c in g]
    defs = q.session.defs if q.session is not None else []
    while True:  # the arrays defined, directly or not, by the constants
        memo: dict[int, frozenset[int]] = {}
        more = [d.arg(0).arg(0) for d in defs if mentions(d.arg(1), wanted, memo)
                and not any(d.arg(0).arg(0).eq(w) for w in wanted)]
        more = [a for k, a in enumerate(more) if not any(a.eq(b) for b in more[:k])]
        if not more:
            break
        wanted += more
    fresh = [z3.FreshConst(c.sort(), "order") for c in wanted]
    skipped = {s.get_id() for s in skip if type(s) is not bool}
    body = [z3.BoolVal(False, q.ctx) if c is False else c for c in q.assertions
            if c is False or c.get_id() not in skipped] + list(defs)
    return wanted, fresh, z3.substitute(z3.And(*body), *zip(wanted, fresh))


def under_choice(q: Query, groups: Sequence[Sequence[Any]], skip: Sequence[Any], values: Sequence[Sequence[int]]) -> Any:
    """`q`'s question (its assertions less `skip`) asked again with the
    constants of `groups` set to `values` (a list per group: another
    serialisation order), over the same other unknowns: a Boolean term to
    add to `q`, so that a model of `q` is a counterexample under that
    choice too (the refinement step of the search for one that every
    choice fails, verify/tv/atomics.py).  The arrays that the constants
    define are renamed apart with their definitions, as in other_choice."""
    _, fresh, body = _renamed_apart(q, groups, skip)
    pins, k = [], 0
    for g, vs in zip(groups, values):
        for c, v in zip(fresh[k:k + len(g)], vs):
            pins.append(c == z3.BitVecVal(v, c.sort()) if z3.is_bv(c) else c == v)
        k += len(g)
    return z3.And(body, *pins)


def other_choice(q: Query, groups: Sequence[Sequence[Any]], skip: Sequence[Any], rlimit: int) -> Any:
    """Whether some other value of the constants in `groups` (each group's
    constants pairwise distinct: one serialisation order of an atomic, a
    rank per lane) makes `q`'s assertions false under its model: "sat" with
    the values found (a list per group), "unsat" (the model is a
    counterexample for every such value), or "unknown".  The assertions in
    `skip` (by identity: the pins that chose the model's values) are left
    out; the Session's arrays whose definitions mention the constants are
    renamed apart with them, so each keeps its definition."""
    _, fresh, body = _renamed_apart(q, groups, skip)
    res = q.model.eval(body, model_completion=False)
    s = z3.Solver(ctx=q.ctx)
    s.set("timeout", int(NO_TIMEOUT * 1000))
    s.set("rlimit", rlimit)
    s.set("random_seed", q.seed)
    s.add(z3.Not(res))
    k = 0
    for g in groups:
        s.add(z3.Distinct(*fresh[k:k + len(g)]) if len(g) > 1 else z3.BoolVal(True, q.ctx))
        k += len(g)
    QUERIES[0] += 1
    r = s.check()
    if r == z3.unsat:
        return "unsat", None
    if r != z3.sat:
        return "unknown", None
    m = s.model()
    out, k = [], 0
    for g in groups:
        out.append([m.eval(f, model_completion=True).as_long() for f in fresh[k:k + len(g)]])
        k += len(g)
    return "sat", out
