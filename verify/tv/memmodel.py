"""verify tv's dword memory model and the IR's non-deterministic choices,
shared by verify/tv/sem.py and the modules it imports (verify/tv/private.py
among them: kept apart from sem so that no import cycle runs through it).
The semantics are sem's own: [S:atomic-optimizer], [S:private-per-lane]."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..backend import Backend
from ..diag import Span
from ..identities import OPERATIONS

# atomicrmw operations (IR) -> the fold operation of verify/identities.py
# (`sub` folds the values with add and subtracts the sum)
ATOMIC_OPS = {"add": "add", "sub": "add", "and": "and", "or": "or", "xor": "xor", "min": "smin", "max": "smax",
              "umin": "umin", "umax": "umax"}


def ASCENDING(j: int, i: int) -> bool:
    """Lane-ascending serialisation (Memory.atomic): lane j before lane i."""
    return j < i


class Memory:
    """Dword-granular memory: an initial value per byte address (`initial`,
    an unknown function of the address's halves) and the stores made since,
    in order (the last matching store wins).  Values carry a poison flag."""

    def __init__(self, B: Backend, initial: Callable[[Any, Any], Any],
                 shared: tuple[dict[Any, Any], Callable[[Any], Any]] | None = None) -> None:
        self.B = B
        self.initial = initial
        # address comparisons kept across memories of one session (a table and
        # a term key such as the term's id): verify tv's per-EXEC proofs of a
        # kernel ask the same ones again
        self.shared = shared
        self.stores: list[tuple[Any, Any, Any, Any, Any]] = []  # lo, hi, value, poison, enable
        self.groups: list[list[tuple[Any, Any, Any]]] = []  # per store instruction: (lo, hi, enable) per lane
        self.joins: list[bool] = []  # per group: another dword of the previous group's store (one race group)
        # per atomic instruction, at the index of its first store: its operation and inputs per lane
        self.atomics: dict[int, tuple[str, list[tuple[Any, Any, Any, Any, Any]]]] = {}
        self.one_lane: set[int] = set()  # those of `atomics` that one lane runs (verify/tv/atomics.py)
        self.faults: list[tuple[Any, int]] = []  # (condition, line): the GPU's code faults (verify/tv/atomic64.py)
        self.loop_once: list[tuple[Any, int]] = []  # (condition, line): a loop run once goes round again (verify/tv/casloop.py)

    def read(self, lo: Any, hi: Any, upto: int | None = None) -> tuple[Any, Any]:
        """The value and poison at (lo, hi) after the first `upto` stores
        (None: all)."""
        B = self.B
        stores = self.stores if upto is None else self.stores[:upto]
        # newest first: a store that surely writes this address (enabled,
        # the same address terms) hides every older one, so the read starts
        # there (a uniform address read lane after lane stays linear)
        live: list[tuple[Any, Any, Any]] = []
        v: Any = None
        p: Any = False
        at = self._at(lo, hi)
        hidden: set[tuple[int, int, int]] = set()
        for n in range(len(stores) - 1, -1, -1):
            slo, shi, sv, sp, en = stores[n]
            if en is False:  # a lane that does not store
                continue
            run = self._run(stores, n)
            if run is not None and not (B.same(lo, slo) and B.same(hi, shi)):
                # stores n-k..n all at one other address P (an atomic or a
                # store to a uniform address): memory at (lo, hi) after them
                # is memory at P where the two are equal (memory is a
                # function of the address), else as it was before them
                # [S:atomic-optimizer]
                c = at(slo, shi)
                if c is not False:
                    at_v, at_p = self.read(slo, shi, n + 1)
                    old_v, old_p = self.read(lo, hi, run)
                    v, p = B.ite(c, at_v, old_v), B.or_b(B.and_b(c, at_p), B.and_b(B.not_b(c), old_p))
                else:
                    v, p = self.read(lo, hi, run)
                break
            # an older store with the very same enable and address terms (the
            # lanes of a uniform atomic) is hidden by this one wherever it hits
            key = (id(slo), id(shi), id(en))  # (the stores keep the terms alive)
            if key in hidden:
                continue
            hidden.add(key)
            hit = B.and_b(en, at(slo, shi))
            if hit is True:
                v, p = sv, sp
                break
            if hit is not False:
                live.append((hit, sv, sp))
        if v is None:
            v = self.initial(lo, hi)
        for hit, sv, sp in reversed(live):
            v = B.ite(hit, sv, v)
            if sp is not False or p is not False:  # (both False: p stays False)
                p = B.or_b(B.and_b(hit, sp), B.and_b(B.not_b(hit), p))
        return v, p

    def cell(self, lo: Any, hi: Any) -> tuple[Any, Any]:
        """What memory_verdict compares at a free address: the dword (a
        byte in verify/tv/bytemem.py's ByteMemory)."""
        return self.read(lo, hi)

    def _run(self, stores: list[tuple[Any, Any, Any, Any, Any]], n: int) -> int | None:
        """Where the run of stores ending at n that may happen, all at n's
        address terms, starts (the stores before it: `stores[:start]`), when
        it holds two or more; else None."""
        slo, shi = stores[n][0], stores[n][1]
        k, count = n, 0
        while k >= 0:
            alo, ahi, _, _, en = stores[k]
            if en is not False:
                if not (self.B.same(alo, slo) and self.B.same(ahi, shi)):
                    break
                count += 1
            k -= 1
        return k + 1 if count >= 2 else None

    def write(self, lanes: list[tuple[Any, Any, Any, Any, Any]], more: bool = False) -> None:
        """One store instruction: (lo, hi, value, poison, enable) per lane, in
        lane order.  `more`: another dword of the same store instruction (a
        wide value): its lanes join the same race group, so two lanes whose
        dwords of one store overlap (lane 1's low dword at lane 0's high
        one) race, as they do in the IR."""
        self.stores += lanes
        self.joins.append(more and bool(self.groups))
        self.groups.append([(lo, hi, en) for lo, hi, _, _, en in lanes])

    def atomic(self, op: str, lanes: list[tuple[Any, Any, Any, Any, Any]],
               before: Callable[[int, int], Any] | None) -> list[tuple[Any, Any]]:
        """One atomic read-modify-write instruction (`op` one of ATOMIC_OPS),
        (lo, hi, value, poison, enable) per lane: the lanes' updates are
        serialised, each lane's update `m := m op value` one atomic step.
        Memory afterwards does not depend on the order (every op's updates
        commute), so it is written in lane-ascending order, one store per
        lane reading memory as the earlier lanes left it (one lane's store is
        never a race).  The value each lane gets back is memory before its
        update: under lane-ascending order (`before` is ASCENDING) what the
        store read; under another order `before(j, i)` (lane j's update
        comes before lane i's) memory before the instruction combined with
        the values of the lanes at the same address before it; None: no
        lane's value is read.  Returns (old value, poison) per lane."""
        B = self.B
        W = len(lanes)
        fold = ATOMIC_OPS[op]
        f = getattr(B, OPERATIONS[fold].method)
        ident = OPERATIONS[fold].identity
        assert ident is not None

        def combine(m: Any, acc: Any) -> Any:
            return B.sub(m, acc) if op == "sub" else f(m, acc)

        pre = [self.read(lo, hi) if en is not False else (B.const(0), True)  # a lane that does not run it
               for lo, hi, _, _, en in lanes] if before not in (None, ASCENDING) else []
        self.atomics[len(self.stores)] = (op, list(lanes))
        seq = []
        for lo, hi, v, p, en in lanes:  # lane-ascending
            if en is False:  # a lane that does not run it reads nothing (its store is never read)
                seq.append((B.const(0), True))
                self.write([(lo, hi, B.const(0), True, en)])
                continue
            old, oldp = self.read(lo, hi)
            seq.append((old, oldp))
            self.write([(lo, hi, combine(old, v), B.or_b(oldp, p), en)])
        if before is None:
            return [(B.const(0), False)] * W
        if before is ASCENDING:
            return seq
        out = []
        for i in range(W):
            if lanes[i][4] is False:
                out.append(pre[i])  # no value: poison
                continue
            acc: Any = B.const(ident)
            pois: list[Any] = [pre[i][1]]
            for j in range(W):
                if j == i or lanes[j][4] is False:
                    continue
                c = B.and_b(lanes[j][4], B.eq(lanes[j][0], lanes[i][0]), B.eq(lanes[j][1], lanes[i][1]), before(j, i))
                if c is False:
                    continue
                acc = f(acc, B.ite(c, lanes[j][2], B.const(ident)))
                pois.append(B.and_b(c, lanes[j][3]))
            out.append((combine(pre[i][0], acc), B.or_b(*pois)))
        return out

    def race_at(self, lo: Any, hi: Any, same_value: bool = False) -> Any:
        """Two enabled lanes of one store instruction write address (lo, hi)
        (a wide store's dwords, joined groups, are one instruction: a lane
        hits when any of its dwords does).  `same_value`: only where they
        write different values (or poison): lanes that all write the same
        bits leave those bits whichever lands last  [S:ir-store-race]."""
        B = self.B
        out: list[Any] = []
        at = self._at(lo, hi)
        # per store instruction, per lane: its dwords (lo, hi, enable, value, poison)
        merged: list[list[list[tuple[Any, Any, Any, Any, Any]]]] = []
        n = 0
        for g, join in zip(self.groups, self.joins):
            ds = [(slo, shi, en, self.stores[n + i][2], self.stores[n + i][3]) for i, (slo, shi, en) in enumerate(g)]
            n += len(g)
            if join and merged and len(merged[-1]) == len(ds):
                for lane, d in zip(merged[-1], ds):
                    lane.append(d)
            else:
                merged.append([[d] for d in ds])
        for lanes in merged:
            hit_vals = []  # per lane that may hit: (hit, value, poison) at (lo, hi)
            for es in lanes:
                dh = [(B.and_b(en, at(slo, shi)), v, p) for slo, shi, en, v, p in es if en is not False]
                dh = [d for d in dh if d[0] is not False]
                if not dh:
                    continue
                h, v, p = dh[-1]
                for h2, v2, p2 in reversed(dh[:-1]):  # (a lane's dwords are at distinct addresses: one hits)
                    h, v, p = B.or_b(h2, h), B.ite(h2, v2, v), B.or_b(B.and_b(h2, p2), B.and_b(B.not_b(h2), p))
                hit_vals.append((h, v, p))
            if len(hit_vals) <= 1:  # (one lane's store is never a race)
                continue
            if not same_value:
                out.append(B.not_b(self._at_most_one([h for h, _, _ in hit_vals])))
                continue
            if all(B.same(v, hit_vals[0][1]) for _, v, p in hit_vals):
                # one value term for every lane (a uniform store): a race only
                # where two lanes hit and one of them stores poison
                p0 = hit_vals[0][2]
                pois = p0 if all(B.same(p, p0) for _, _, p in hit_vals) else B.or_b(*[B.and_b(h, p) for h, _, p in hit_vals])
                if pois is not False:
                    out.append(B.and_b(pois, B.not_b(self._at_most_one([h for h, _, _ in hit_vals]))))
                continue
            # the first hitting lane's value; a race: a hitting lane whose value (or poison) is not it
            _, fv, fp = hit_vals[-1]
            for h, v, p in reversed(hit_vals[:-1]):
                fv, fp = B.ite(h, v, fv), B.or_b(B.and_b(h, p), B.and_b(B.not_b(h), fp))
            # (two lanes hit: one lane's poison alone is no race, and a later
            # store of its own may overwrite it)
            out.append(B.and_b(B.not_b(self._at_most_one([h for h, _, _ in hit_vals])),
                               B.or_b(*[B.and_b(h, B.or_b(p, fp, B.ne(v, fv))) for h, v, p in hit_vals])))
        return B.or_b(*out)

    def may_race(self) -> bool:
        """Some store instruction has two lanes that may be enabled (so
        race_at's answer can depend on `same_value`)."""
        return any(sum(en is not False for _, _, en in g) > 1 for g in self.groups)

    def _at(self, lo: Any, hi: Any) -> Callable[[Any, Any], Any]:
        """`(slo, shi) -> lo == slo and hi == shi`, each address asked once
        (the lanes of a uniform store or atomic share their address terms)."""
        B = self.B
        seen: dict[tuple[int, int], Any] = {}
        table, tkey = self.shared if self.shared is not None else (None, None)
        here = None if tkey is None else (tkey(lo), tkey(hi))

        def at(slo: Any, shi: Any) -> Any:
            key = (id(slo), id(shi))  # (the stores keep the terms alive)
            c = seen.get(key)
            if c is None:
                if table is None or tkey is None:
                    c = B.and_b(B.eq(lo, slo), B.eq(hi, shi))
                else:
                    k2 = (here, tkey(slo), tkey(shi))
                    hit = table.get(k2)
                    if hit is None:  # (the entry keeps its terms: their ids stay theirs)
                        hit = table[k2] = ((lo, hi, slo, shi), B.and_b(B.eq(lo, slo), B.eq(hi, shi)))
                    c = hit[1]
                seen[key] = c
            return c
        return at

    def _at_most_one(self, conds: list[Any]) -> Any:
        """At most one of `conds` holds: no c_k holds with one before it.
        With a shared table, the terms for each prefix of `conds` are kept
        (a trie by the conditions' keys): the per-EXEC proofs of a kernel
        ask about the same lanes' addresses, a longer prefix each time."""
        B = self.B
        seen: Any = False
        bad: Any = False  # some c_k held with one before it
        table, tkey = self.shared if self.shared is not None else (None, None)
        node: dict[Any, Any] | None = None if table is None else table.setdefault(("at_most_one",), {})
        for c in conds:
            if type(c) is bool:  # (a decided condition has no term key: the rest without the table)
                node = None
            if node is not None and tkey is not None:
                k = tkey(c)
                nxt = node.get(k)
                if nxt is None:
                    nxt = node[k] = (c, *self._one_more(seen, bad, c), {})  # (keeps c: its key stays its own)
                _, seen, bad, node = nxt
                continue
            seen, bad = self._one_more(seen, bad, c)
        return B.not_b(bad)

    def _one_more(self, seen: Any, bad: Any, c: Any) -> tuple[Any, Any]:
        B = self.B
        return B.or_b(seen, c), B.or_b(bad, B.and_b(seen, c))


@dataclass
class Choice:
    """A non-deterministic choice the IR makes (undef, freeze of poison):
    `used` per lane says when the choice matters."""

    span: Span
    what: str
    used: list[Any]
    natural: list[Any] | None = None  # freeze: its operand's value where it is not poison (per lane)
