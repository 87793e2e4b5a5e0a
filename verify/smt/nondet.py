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
