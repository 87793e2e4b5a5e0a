"""The atomic optimizer's one lane, for `verify tv` (issue 31; docs/tv.md,
"Atomics").

LLVM's atomic optimizer (AMDGPUAtomicOptimizer.cpp, both strategies) folds
the lanes' values of an atomicrmw to a uniform address into one value and
lets one lane, the first active one (mbcnt of EXEC == 0), perform a single
atomic, under `s_and_saveexec` (or `v_cmpx`) and `s_cbranch_execz`.  The
GPU side's `global_atomic_*` then runs with at most one lane enabled, every
enabled lane at the same address with the same value.  When that is PROVED
(the address and value terms are the same, and a Boolean question over the
enables, "at most one holds", is unsat), the instruction is one atomic
step, by whichever lane runs it: memory is `m op value` where one ran, and
the lane gets `m` back; the order of the lanes' updates (any order, ranks)
plays no part.  Otherwise the instruction runs lane by lane as before.
[S:atomic-optimizer]
"""

from __future__ import annotations

from typing import Any

from .. import smt
from . import atomic64

# z3 resource units for the one Boolean question (a count of solver steps,
# never a clock)
ONE_LANE_RLIMIT = 20_000_000


def one_lane(B: Any, addrs: list[tuple[Any, Any]], data: list[Any], ens: list[Any]) -> Any:
    """The enable of the one lane that runs this atomic (the disjunction of
    `ens`) when every enabled lane has the same address and value terms and
    at most one is enabled, proved; else None."""
    live = [i for i, e in enumerate(ens) if e is not False]
    if len(live) < 2:
        return None
    first = live[0]

    same = B.same
    for i in live[1:]:
        if not (same(addrs[i][0], addrs[first][0]) and same(addrs[i][1], addrs[first][1])
                and same(data[i], data[first])):
            return None
    if getattr(B, "session", None) is None:  # concrete (a replay): count them
        return True if sum(1 for i in live if ens[i] is True) == 1 else None
    q = smt.Query(30.0, session=B.session)
    q.add(B.not_b(B.at_most([ens[i] for i in live], 1)))
    if q.check(rlimit=ONE_LANE_RLIMIT) != "unsat":
        return None
    return B.or_b(*(ens[i] for i in live))


def group_pairs(B: Any, ir_mem: Any, gpu_mem: Any, n0: int, n: int) -> list[Any]:
    """The store pairs that stand for the IR's atomicrmw (stores n0..n0+n-1,
    one per lane) and the GPU's one-lane atomic at the same places: every
    lane of each at one address P (else the lane-by-lane pairs), compared
    as one store each of memory at P after it, enabled where some lane
    ran it (the same effect on memory: each writes only P, and reading P
    after it gives that value), then no-ops.  Equal store sequences leave
    equal memory (kernel.memory_verdict); memory at P after each depends
    on the stores before it, which the same question holds equal."""
    ir = ir_mem.stores[n0:n0 + n]
    gpu = gpu_mem.stores[n0:n0 + n]
    noop = (B.const(0), B.const(0), B.const(0), False, False)
    out = [(s, g) for s, g in zip(ir, gpu)]
    if ir_mem.atomics[n0][0].endswith(":64"):  # two stores per lane: verify/tv/atomic64.py
        wide = atomic64.group_pairs(B, ir_mem, gpu_mem, n0, n)
        return out if wide is None else wide

    pi, pg = atomic64.same_place(B, ir), atomic64.same_place(B, gpu)
    if pi is None or pg is None:
        return out
    iv, ip = ir_mem.read(pi[0], pi[1], n0 + n)
    gv, gp = gpu_mem.read(pg[0], pg[1], n0 + n)
    first = [(pi[0], pi[1], iv, ip, B.or_b(*(s[4] for s in ir))), (pg[0], pg[1], gv, gp, B.or_b(*(s[4] for s in gpu)))]
    return [tuple(first)] + [(noop, noop)] * (n - 1)


# z3 resource units for the question "does another order of the IR's atomics
# match this counterexample" (a count of solver steps, never a clock)
ORDER_RLIMIT = 50_000_000


OTHER_ORDER = "not refuted: the IR's atomics in another order"


def descending(B: Any, W: int) -> Any:
    """The IR's returning atomics lane-descending (constant ranks: lane W-1
    first), one order the LangRef admits."""
    ranks = [B.const(W - 1 - i) for i in range(W)]
    return lambda n: ranks


class FreeOrder:
    """The IR's serialisation of each returning atomicrmw as unknowns of
    its own: a rank per lane (`ir_order#n.i`), the IR's to choose, as
    Alive2 treats the source's non-determinism.  A proof pins them (the
    `pins`, asserted as a contract) to one order: lane-ascending, or the
    GPU's own ranks (`gpu`); a counterexample found so is then checked for
    every order (:func:`another_order`): the LangRef lets the lanes'
    updates run in any order, so a difference under the pinned order that
    another order removes refutes nothing.  [S:atomic-order]"""

    def __init__(self, B: Any, W: int, gpu: Any = None) -> None:
        self.B, self.W, self.gpu = B, W, gpu
        self.ranks: dict[int, list[Any]] = {}
        self.pins: list[Any] = []

    def __call__(self, n: int) -> list[Any]:
        if n not in self.ranks:
            B = self.B
            rs = [B.fresh(f"ir_order#{n}.{i}") for i in range(self.W)]
            self.ranks[n] = rs
            to = self.gpu(n) if self.gpu is not None else [B.const(i) for i in range(self.W)]
            self.pins += [B.eq(r, t) for r, t in zip(rs, to)]
        return self.ranks[n]


def distinct_ranks(B: Any, ranks: list[Any]) -> list[Any]:
    """The GPU's ranks of one atomic pairwise distinct: a real serialisation
    (ties admit behaviours no hardware has; a refutation must not rest on
    one)."""
    return [B.ne(ranks[i], ranks[j]) for i in range(len(ranks)) for j in range(i + 1, len(ranks))]


# how many other orders the search for a counterexample that every order
# fails adds before it stops (a count, never a clock)  [S:atomic-order-cegar]
ORDER_ROUNDS = 6


def another_order(q: Any, run: Any, exec_bits: list[Any], narrow: Any = None) -> str | None:
    """After a counterexample (a model on `q`) found with the IR's atomics
    in a pinned order (`run.atomic_order` a FreeOrder): None when no order
    of them matches it (a refutation for every order), else the note that
    makes it no refutation.  When another order matches, that order's own
    question is added to `q` (smt.under_choice: the same inputs and GPU
    ranks must be a counterexample under it too) and `q` asked again, up to
    ORDER_ROUNDS orders (counterexample-guided: each order the solver
    finds rules out the inputs it matched); a model so found that no order
    matches is left on `q` (narrowed by `narrow()`, e.g. to fewest lanes,
    and checked again); the questions added are popped again in any case
    (the caller's push/pop stays balanced).  Otherwise `q` is as it was,
    the first model on it.
    [S:atomic-order] [S:atomic-order-cegar]"""
    fo = getattr(run, "atomic_order", None)
    if not isinstance(fo, FreeOrder) or not fo.ranks:
        return None
    groups = [fo.ranks[n] for n in sorted(fo.ranks)]
    skip: list[Any] = list(fo.pins)
    first = q.model
    active = [i for i, e in enumerate(exec_bits) if e is True or (e is not False and q.truth(e))]
    pushed = False
    note = None
    for _ in range(ORDER_ROUNDS + 1):
        r, vals = smt.other_choice(q, groups, skip, ORDER_RLIMIT)
        if r == "unsat":
            if pushed:
                q.pop()  # (the orders' questions; the model, one every order fails, kept)
            return None
        if r == "unknown":
            note = note or ("not refuted: whether another order of the IR's atomics (the LangRef allows any) matches "
                            "this counterexample is undecided")
            break
        if note is None:
            order = sorted(active, key=lambda i: vals[0][i])  # (the active lanes': the others' ranks mean nothing)
            note = (f"{OTHER_ORDER} (the LangRef allows any) match this counterexample "
                    f"(the first returning atomicrmw's lanes in the order {', '.join(map(str, order[:8]))}"
                    f"{', ...' if len(order) > 8 else ''})")
        if not pushed:
            q.push()
            pushed = True
        again = smt.under_choice(q, groups, skip, vals)
        skip.append(again)  # (the copies are asked of no later copy: each is over the original question)
        q.add(again)
        if q.check(rlimit=ORDER_RLIMIT) != "sat":
            break
        if narrow is not None:
            narrow()
    if pushed:
        q.pop()
    q.model = first
    return note
