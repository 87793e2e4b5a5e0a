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
                 shared: tuple[dict[Any, Any], Callable[[Any], Any]] | None = None, ordered: bool = True) -> None:
        self.B = B
        # which stores of different lanes race  [S:ir-store-race]: `ordered`
        # (the GPU's memory, one wave's instructions in order): only lanes of
        # one store instruction; else (the IR's, LangRef's threads) lanes of
        # any two store instructions of one epoch, the stores between two
        # workgroup barriers with their fences (`sync`)
        self.ordered = ordered
        # the GPU's memory (constructed ordered): a race a read saw stands
        # however a later store hid it (race_at)
        self.gpu = ordered
        self.epoch = 0
        # per group: its epoch, each entry's lane, and whether an atomic wrote it
        self.meta: list[tuple[int, list[int], bool]] = []
        # the number of groups written when the program read memory (a load,
        # an atomic's read): a GPU race read before a later store hid it
        # still counts (the read got one lane's data, which lane unstated)
        self.reads: list[int] = []
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
        (None: all, a read the program makes, recorded in `reads`)."""
        B = self.B
        if upto is None:
            self.reads.append(len(self.groups))
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
        return self.read(lo, hi, len(self.stores))  # (after the program: not one of its reads)

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

    def write(self, lanes: list[tuple[Any, Any, Any, Any, Any]], more: bool = False, lane: int | None = None,
              atomic: bool = False) -> None:
        """One store instruction: (lo, hi, value, poison, enable) per lane, in
        lane order.  `more`: another dword of the same store instruction (a
        wide value): its lanes join the same race group, so two lanes whose
        dwords of one store overlap (lane 1's low dword at lane 0's high
        one) race, as they do in the IR.  `lane`: the one entry is that
        lane's (an atomic's update, one lane at a time); `atomic`: an
        atomic's update (atomics of two lanes do not race)."""
        self.stores += lanes
        self.joins.append(more and bool(self.groups))
        self.groups.append([(lo, hi, en) for lo, hi, _, _, en in lanes])
        self.meta.append((self.epoch, [lane] if lane is not None else list(range(len(lanes))), atomic))

    def sync(self) -> None:
        """A workgroup barrier between a release fence and an acquire fence
        (the IR's): every store before it happens before every store after
        it, whichever lanes make them  [S:ir-store-race]."""
        self.epoch += 1

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
        for i, (lo, hi, v, p, en) in enumerate(lanes):  # lane-ascending
            if en is False:  # a lane that does not run it reads nothing (its store is never read)
                seq.append((B.const(0), True))
                self.write([(lo, hi, B.const(0), True, en)], lane=i, atomic=True)
                continue
            old, oldp = self.read(lo, hi)
            seq.append((old, oldp))
            self.write([(lo, hi, combine(old, v), B.or_b(oldp, p), en)], lane=i, atomic=True)
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

    def race_at(self, lo: Any, hi: Any, same_value: bool = False, ordered: bool | None = None) -> Any:
        return self._races(lo, hi, same_value, ordered)[0]

    def read_race_at(self, lo: Any, hi: Any) -> Any:
        """The GPU's: lanes of a store instruction the code read memory
        after wrote (lo, hi) different values (whatever a later store
        wrote there: the read got one racing lane's data, which lane the
        guides do not say, and it may have gone anywhere)  [S:ir-store-race]."""
        return self.gpu_races_at(lo, hi)[1]

    def gpu_races_at(self, lo: Any, hi: Any) -> tuple[Any, Any]:
        """(race_at(lo, hi, same_value=True), read_race_at(lo, hi)), the
        race terms built once."""
        race, read = self._races(lo, hi, True, None)
        return race, (read if self.gpu else False)

    def _races(self, lo: Any, hi: Any, same_value: bool, ordered: bool | None) -> tuple[Any, Any]:
        """Address (lo, hi) is left to a race: after the last epoch whose
        stores write there, two lanes' last writes of that epoch there (the
        writes no later write hides) are not ordered, and one of them is not
        an atomic's.  An epoch: one store instruction on the GPU
        (`ordered`: a wave's instructions write in order), the stores
        between two workgroup barriers with their fences in the IR (LangRef:
        only a thread's own program order and synchronisation order them).
        A wide store's dwords (joined groups) are one instruction: a lane
        hits when any of its dwords does.  `same_value`: only where they
        write different values (or poison): lanes that all write the same
        bits leave those bits whichever lands last  [S:ir-store-race].
        `ordered` (given): read the stores as ordered or not whatever the
        memory is (on the IR's memory, ordered gives fewer races: only the
        lanes of the last store instruction at (lo, hi), which race by
        LangRef too)."""
        B = self.B
        ordered = self.ordered if ordered is None else ordered
        at = self._at(lo, hi)
        # per epoch: its lanes' last writes at (lo, hi): lane -> (hit, value, poison, atomic)
        epochs: list[dict[int, tuple[Any, Any, Any, Any]]] = []
        ends: list[int] = []  # per epoch: the index after its last group
        n, key, prev = 0, None, -1
        for g, (grp, join, (ep, ids, atom)) in enumerate(zip(self.groups, self.joins, self.meta)):
            if ordered:  # (a wide store's groups: one instruction, one epoch)
                k = prev = prev if join and prev >= 0 and len(grp) == len(self.groups[prev]) else g
            else:
                k = ep
            if k != key or not epochs:
                epochs.append({})
                ends.append(g + 1)
                key = k
            ends[-1] = g + 1
            last = epochs[-1]
            for j, (slo, shi, en) in enumerate(grp):
                st = self.stores[n + j]
                if en is False:
                    continue
                h = B.and_b(en, at(slo, shi))
                if h is False:
                    continue
                old = last.get(ids[j])
                if old is None or h is True:
                    last[ids[j]] = (h, st[2], st[3], atom)
                else:  # (a later write of the lane's own hides its earlier one)
                    oh, ov, op, oa = old
                    last[ids[j]] = (B.or_b(h, oh), B.ite(h, st[2], ov), B.or_b(B.and_b(h, st[3]), B.and_b(B.not_b(h), op)),
                                    oa if oa is atom else B.or_b(B.and_b(h, atom), B.and_b(B.not_b(h), oa)))
            n += len(grp)
        out: list[Any] = []
        later: Any = False  # a later epoch writes (lo, hi): it hides this one's writes
        last_read = max(self.reads, default=-1)
        read: list[Any] = []  # the GPU's races a read came after
        for lanes, end in zip(reversed(epochs), reversed(ends)):
            vis = list(lanes.values())
            if len(vis) > 1:
                race = self._race(vis, same_value)
                if race is not False:
                    # on the GPU, a race the program read after it stands
                    # however it was hidden: the read got one lane's data
                    # (which, the guides do not say; verify read the last
                    # lane's), and it may have gone anywhere since.  (The
                    # IR's loads read the last lane's too: stricter than
                    # LangRef's undef, never a false proof.)
                    if self.gpu and last_read >= end:
                        out.append(race)
                        read.append(race)
                    else:
                        out.append(B.and_b(B.not_b(later), race))
            if vis:
                later = B.or_b(later, *[h for h, _, _, _ in vis])
            if later is True and not (self.gpu and last_read >= 0):
                break
        return B.or_b(*out), B.or_b(*read)

    def _race(self, vis: list[tuple[Any, Any, Any, Any]], same_value: bool) -> Any:
        """Two of the lanes' writes `vis` (hit, value, poison, atomic) hit,
        one of them not an atomic's (`same_value`: and they write different
        values, or poison)."""
        B = self.B
        two = B.not_b(self._at_most_one([h for h, _, _, _ in vis]))
        if all(a is True for _, _, _, a in vis):
            return False  # (atomics of two lanes do not race)
        plain = True if all(a is False for _, _, _, a in vis) else B.or_b(*[B.and_b(h, B.not_b(a)) for h, _, _, a in vis])
        if not same_value:
            return B.and_b(two, plain)
        if all(B.same(v, vis[0][1]) for _, v, _, _ in vis):
            # one value term for every lane (a uniform store): a race only
            # where two lanes hit and one of them stores poison
            p0 = vis[0][2]
            pois = p0 if all(B.same(p, p0) for _, _, p, _ in vis) else B.or_b(*[B.and_b(h, p) for h, _, p, _ in vis])
            return False if pois is False else B.and_b(pois, two, plain)
        # the first hitting lane's value; a race: a hitting lane whose value (or poison) is not it
        _, fv, fp, _ = vis[-1]
        for h, v, p, _ in reversed(vis[:-1]):
            fv, fp = B.ite(h, v, fv), B.or_b(B.and_b(h, p), B.and_b(B.not_b(h), fp))
        # (two lanes hit: one lane's poison alone is no race)
        return B.and_b(two, plain, B.or_b(*[B.and_b(h, B.or_b(p, fp, B.ne(v, fv))) for h, v, p, _ in vis]))

    def may_read_race(self) -> bool:
        """The GPU's: the code read memory after a store instruction two of
        whose lanes may be enabled (read_race_at may hold)."""
        if not self.gpu or not self.reads:
            return False
        last = max(self.reads)
        return any(sum(en is not False for _, _, en in g) > 1 for g in self.groups[:last])

    def may_race(self) -> bool:
        """Two lanes' stores may race, one of them not an atomic's (so
        race_at's answer can depend on `same_value`): two lanes of one
        store instruction that may be enabled, or (unordered: the IR) of two
        store instructions of one epoch."""
        if self.ordered:
            return any(sum(en is not False for _, _, en in g) > 1 for g, (_, _, a) in zip(self.groups, self.meta)
                       if not a)
        lanes: dict[int, tuple[set[int], bool]] = {}  # per epoch: the lanes that may store, and whether a plain store
        for g, (ep, ids, a) in zip(self.groups, self.meta):
            seen, plain = lanes.setdefault(ep, (set(), False))
            seen.update(ids[j] for j, (_, _, en) in enumerate(g) if en is not False)
            lanes[ep] = (seen, plain or (not a and any(en is not False for _, _, en in g)))
        return any(len(seen) > 1 and plain for seen, plain in lanes.values())

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
