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

    def place(stores: list[Any]) -> tuple[Any, Any] | None:
        live = [s for s in stores if s[4] is not False]
        if not live:
            return None
        for s in live[1:]:
            if B.eq(s[0], live[0][0]) is not True or B.eq(s[1], live[0][1]) is not True:
                return None
        return live[0][0], live[0][1]

    pi, pg = place(ir), place(gpu)
    if pi is None or pg is None:
        return out
    iv, ip = ir_mem.read(pi[0], pi[1], n0 + n)
    gv, gp = gpu_mem.read(pg[0], pg[1], n0 + n)
    first = [(pi[0], pi[1], iv, ip, B.or_b(*(s[4] for s in ir))), (pg[0], pg[1], gv, gp, B.or_b(*(s[4] for s in gpu)))]
    return [tuple(first)] + [(noop, noop)] * (n - 1)
