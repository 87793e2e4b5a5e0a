"""The dwords of one wide IR store, written by the GPU in another order
(verify/tv/kernel.py, memory_verdict)  [S:tv-store-order].

LLVM splits a wide store (`store <7 x i32>`: 28 bytes) into several store
instructions (`global_store_b96 ... offset:16` then `global_store_b128`) and
may issue them in any order.  memory_verdict's easy question compares the
two store sequences element by element, which fails when the order differs,
and the question at a free address is then left to reason through every
lane's possible overlaps (LLVM's llvm.amdgcn.permlane64.ll `test_v7i32`,
`test_v4f64`, `test_v8f64`: the solver's budget spent).

`unit_order` finds, for each IR store of several dwords (a run of joined
store groups: one race group), which of the GPU's store groups at the same
places in the sequence writes each of its dwords, and `reorder` puts the
GPU's groups in that order.  Comparing the reordered sequences element by
element (enable, address, value per lane) is then a proof that memory is the
same wherever the IR does not leave it free:

* outside the IR store's window the two sequences are the same, store for
  store;
* inside it the GPU writes exactly the IR store's dwords, lane for lane,
  only in another order; the order changes memory only at an address
  written twice inside the window.  One lane writes distinct addresses (its
  dwords are consecutive, `dword_address`), so such an address is written
  by two lanes of the one IR store: a race, where the IR's memory is free
  (Memory.race_at over the joined groups);
* a load the GPU makes inside the window reads memory as the GPU's order
  left it, and what it reads reaches memory only through later stores,
  which are compared as they are.

The permutation is only a guess (addresses in one model of the entry
contract where the IR is defined); the element-wise question decides.  Not
used with the atomics that Memory.atomic records on either side (their order
is the atomics module's question); an IR sub-word atomicrmw
(verify/tv/subword.py) writes joined one-lane byte groups, which may be
reordered like any store's (one lane, distinct bytes)."""

from __future__ import annotations

from typing import Any

from .. import smt


def _units(mem: Any) -> list[tuple[int, int]]:
    """The runs [s, e) of two or more groups joined into one store: one race
    group each, as Memory.race_at merges them (a joined group of another
    lane count starts a run of its own there too)."""
    joins, groups = mem.joins, mem.groups
    out: list[tuple[int, int]] = []
    s = 0
    for g in range(1, len(joins) + 1):
        if g == len(joins) or not joins[g] or len(groups[g]) != len(groups[s]):
            if g - s >= 2:
                out.append((s, g))
            s = g
    return out


def unit_order(q: smt.Query, ir_mem: Any, gpu_mem: Any, rlimit: int, defined: Any = True) -> list[int] | None:
    """perm[g]: the GPU's store group that writes the IR's group g's dwords
    (a permutation inside each wide IR store's window), or None when there
    is none other than the identity to try.  The guess is read from a model
    where `defined` holds (the IR has no undefined behaviour there)."""
    n = len(ir_mem.groups)
    if n != len(gpu_mem.groups) or ir_mem.atomics or gpu_mem.atomics:
        return None
    if any(len(a) != len(b) for a, b in zip(ir_mem.groups, gpu_mem.groups)):
        return None
    units = _units(ir_mem)
    if not units:
        return None
    q.push()
    try:
        if defined is not True:
            q.add(defined)
        if q.check(rlimit=rlimit) != "sat":
            return None
        perm = list(range(n))
        for s, e in units:
            lane = next((i for i, (_, _, en) in enumerate(ir_mem.groups[s]) if en is not False and q.truth(en)),
                        None)
            if lane is None:
                continue

            def where(group: list[tuple[Any, Any, Any]]) -> tuple[int, int]:
                lo, hi, _ = group[lane]  # noqa: B023 (used at once, in this iteration)
                return q.value(lo), q.value(hi)
            ir_at = {where(ir_mem.groups[g]): g for g in range(s, e)}
            got: dict[int, int] = {}
            for h in range(s, e):
                g = ir_at.get(where(gpu_mem.groups[h]))
                if g is None or g in got:
                    break
                got[g] = h
            else:
                for g, h in got.items():
                    perm[g] = h
        return None if perm == list(range(n)) else perm
    finally:
        q.pop()


def reorder(gpu_mem: Any, perm: list[int]) -> list[Any]:
    """The GPU's stores, its groups in the order `perm` gives."""
    starts = [0]
    for g in gpu_mem.groups:
        starts.append(starts[-1] + len(g))
    out: list[Any] = []
    for h in perm:
        out += gpu_mem.stores[starts[h]:starts[h + 1]]
    return out
