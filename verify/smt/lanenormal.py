"""Lane normal forms for verify tv (:class:`LaneNormal`)."""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .terms import (
    Session,
    _arr,
    _bv_numeral,
    app_arg,
    app_decl,
    app_num_args,
    ast_id,
    ast_kind,
    bv_size,
    decl_kind,
    inc_ref,
    is_numeral,
    sort_kind,
    sort_of,
    z3,
)

# ---------------------------------------------------------------------------
# Lane normal forms (verify tv).  [S:lane-normal]
#
# A lane's value on either side of a tv question is a DAG of lane reads, each
# guarded by EXEC bits: the GPU writes ``ite(exec_j, new, old)`` and reads
# ``ite(exec_j, v_j, 0)``; the IR reads a lane under its own guards.  Asked
# where lane i runs, both often denote the same term once every EXEC bit a
# surrounding select has decided is replaced by its value (the branch of
# ``ite(exec_j, a, b)`` taken knows exec_j), sums are flattened and ordered,
# and operations on constants are folded.  `LaneNormal` does exactly that,
# memoised per node and per the decided EXEC bits the node mentions, so a
# chain of n cross-lane steps costs O(n) nodes per lane, not the solver's
# case splits over 2^n EXEC patterns.  Each rewrite is an identity of the
# values under the assumptions made (ite(c, a, b) is a where c holds, b where
# it does not; + is associative and commutative mod 2^32; folding computes the
# operation), so two lanes' normal forms that are the same term are equal
# values for every input where lane i runs: such a lane needs no query.


LANE_NORMAL_LIMIT = 1_000_000  # memo entries of one proof's normal forms (about 1 GB at most)
# rounds of `given` (each stops the walk once no new fact is found): a chain of
# n nnan operations needs n, one level's facts simplifying the next  [S:lane-normal-mask]
GIVEN_ROUNDS = 32


class _TooBig(Exception):
    pass


class LaneNormal:
    """Normal forms of one Session's terms under decided EXEC bits, as
    hash-consed nodes (ints: two terms have the same normal form iff they get
    the same node); `term` builds a node's z3 term when the solver needs it.
    `lits`: the EXEC bit conditions (exec[0..W-1]) that may be decided."""

    def __init__(self, session: Session, lits: Sequence[Any], limit: int = LANE_NORMAL_LIMIT,
                 local: bool = False, lane_local: bool = False, lift: bool = False,
                 share: LaneNormal | None = None) -> None:
        self.s = session
        # `local` [S:lane-normal-local] (chains): a select that decides EXEC
        # bits passes its branches those bits and the ones its condition
        # consulted.  `lane_local` [S:lane-normal-lane-local] (struct results): a
        # select on an EXEC bit the context leaves open starts its branches
        # afresh, knowing the asked lane's bit and its own alone
        self.local = local
        self.lane_local = lane_local
        # `lift` [S:lane-normal-mask]: an operation on a select of an EXEC bit, its other
        # operands constants, pushed into both branches (off by default: it moves the
        # terms a witness is matched at, [S:lane-normal-witness])
        self.lift = lift
        self._lane = 0  # the asked lane's EXEC bit (`lane_local`)
        self.ref = session.ref
        self.limit = limit
        self.over = False
        # (the same EXEC bits as `share`'s, the very objects, kept by it: its index and arrays)
        self._lits = list(lits)
        self.index: dict[int, int]
        self._exec_arrays: set[int]
        if share is not None and share.s is session and len(share._lits) == len(lits) and all(
                map(operator.is_, share._lits, lits)):
            self.index, self._exec_arrays = share.index, share._exec_arrays
        else:
            self.index = {t.get_id(): k for k, t in enumerate(lits) if type(t) is not bool}
            # the arrays the EXEC bits are lanes of: a read of one at a lane that is
            # not a numeral may be any EXEC bit once its index is normal
            self._exec_arrays = {t.arg(0).get_id() for t in lits if type(t) is not bool and z3.is_select(t)}
        self._lanes = len(lits)
        self._all = (1 << len(lits)) - 1
        self._uses: dict[int, int] = {}  # ast id -> the EXEC bits it mentions (bit k: exec[k])
        # ast id -> [(the EXEC bits its normal form consulted, their decided true, decided false, the node)]:
        # a node is a function of the bits it consulted, so a context that
        # agrees on those gets it (a chain of lane reads consults each lane's
        # own guards, not every bit an enclosing select decided)
        self._memo: dict[int, list[tuple[int, int, int, int]]] = {}
        # (ast id, bit k) -> the same entries for bit k of a bit-vector term (`_b`)
        self._bmemo: dict[tuple[int, int], list[tuple[int, int, int, int]]] = {}
        self._entries = 0
        self._acc = 0  # the bits consulted by the normal form being made
        self._ids: dict[tuple[Any, ...], int] = {}  # a node's key -> the node
        self._keys: list[tuple[Any, ...]] = []  # node -> its key
        # ast id -> the AST, referenced once more (kept alive while the context
        # lives: the memo's keys are ids; no wrapper object per node)
        self._asts: dict[int, Any] = {}
        self._terms: dict[int, Any] = {}  # node -> its z3 term, once built
        self._orig: dict[int, int] = {}  # an "app" node -> the ast id of the first application it came from
        # node -> [(EXEC bits set, bits clear, its value there)]: what `given` assumes
        self._facts: dict[int, list[tuple[int, int, bool]]] = {}
        # the lane `given` assumed facts for (no other lane may be asked then; None: facts of no lane)
        self._given_lane: int | None = -1
        self._ground: set[int] = set()  # "app" nodes of constants that did not fold to one (fpToFP(k))
        self._store_maps: dict[int, tuple[dict[int, Any], Any]] = {}  # array ast id -> _store_map
        self._shapes: dict[int, tuple[int, int, tuple[Any, ...]] | None] = {}  # ast id -> _shape
        self._leaves: dict[int, tuple[Any, ...] | bool] = {}  # ast id -> its leaf's key (or its truth) (_leaf)
        # (declaration ast id, argument ast ids) -> the AST z3's simplifier folds
        # that ground application to where it is a constant, else None (_n1)
        self._folds: dict[tuple[int, tuple[int, ...]], Any] = {}
        self._raw = False  # the next `_n` gives its node without the node's own fact (`_learn`)
        self._walked: set[tuple[int, int, int, bool]] = set()  # what `given`'s round has walked
        self._ones_memo: dict[int, int] = {}  # node -> the bits it may have set (_ones)
        if (share is not None and share.s is session and share.index == self.index
                and share._exec_arrays == self._exec_arrays and share._lanes == self._lanes):
            # `share`'s caches of what depends on the ASTs alone (the EXEC bits each
            # mentions, the ASTs kept, the store chains' lanes): the same for both
            self._uses, self._asts, self._store_maps = share._uses, share._asts, share._store_maps
            self._shapes, self._leaves, self._folds = share._shapes, share._leaves, share._folds
        self.TRUE = self._node(("c", True))
        self.FALSE = self._node(("c", False))

    # ---- the API ------------------------------------------------------------
    def normal(self, t: Any, lane: int | None) -> int | None:
        """The node of `t` (an int, a bool or a term) where exec[lane] holds
        (lane None: nothing decided); None once the normal forms made so far
        exceed `limit` nodes (a count, the same on every run: the caller asks
        the solver about `t` as it is)."""
        if self.over:
            return None
        if self._facts and self._given_lane is not None and lane != self._given_lane:
            raise ValueError(f"normal forms given lane {self._given_lane}'s facts asked for lane {lane}")
        if type(t) is bool:
            return self.TRUE if t else self.FALSE
        if type(t) is int:
            return self._node(("c", t & 0xFFFFFFFF, z3.Z3_BV_SORT, 32))
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 50000))
        self._acc = 0
        self._lane = 0 if lane is None else 1 << lane
        try:
            return self._n(t.as_ast(), 0 if lane is None else 1 << lane, 0)
        except _TooBig:
            self.over = True
            return None
        finally:
            sys.setrecursionlimit(old)

    def given(self, cond: Any, lane: int | None, rounds: int = GIVEN_ROUNDS) -> bool:
        """From now on normal forms are made only for inputs where exec[lane]
        holds and `cond` does not (the IR's poison where the lane runs: a
        lane is asked only where it is not poison).  `cond`'s normal form is
        false there, so: each disjunct of a false `or` is false, the operand
        of a false `not` true, each conjunct of a true `and` true, and of
        `ite(e, x, y)` with e an EXEC bit (or its negation) x has the value
        where e is set and y where it is clear.  Each such node, wherever it
        recurs where the EXEC bits its fact needs are decided so, is replaced
        by its value (the bits are then consulted: the memo keys on them).
        Facts found after a round are sought again in `cond` normalised with
        them (`rounds`).  The memo starts afresh (the forms made so far knew
        nothing); nodes are kept, so earlier nodes stay comparable.  False
        when `cond` holds wherever exec[lane] does (nothing to assume) or
        the limit was reached.  Lane None: `cond` is normalised with no EXEC
        bit decided and its facts hold wherever it is false, so any lane may
        be asked then (each where it runs and `cond` does not): the lanes
        whose poison is one condition share one set of normal forms.
        [S:lane-normal-given]"""
        if self._facts and lane != self._given_lane:
            raise ValueError(f"normal forms given lane {self._given_lane}'s facts asked for lane {lane}")
        self._given_lane = lane
        c = self.normal(cond, lane)
        if c is None or c == self.TRUE:
            return False
        # each round walks the first form again (normalised again, a node found false would be
        # false and its parts unwalked); each node walked is normalised with the facts so far
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 50000))
        try:
            for _ in range(rounds):
                before = sum(len(v) for v in self._facts.values())
                self._walked = set()
                self._learn(c, False, 0 if lane is None else 1 << lane, 0)
                self._memo = {}
                self._bmemo = {}
                if sum(len(v) for v in self._facts.values()) == before:
                    break
        except _TooBig:  # (the walk's forms past the limit: nothing assumed, as `normal` gives None)
            self.over = True
            return False
        finally:
            sys.setrecursionlimit(old)
        return True

    def match(self, pat: int, tgt: int, holes: set[int], bound: dict[int, int]) -> bool:
        """Whether node `pat` becomes node `tgt` once each hole in it (an
        unknown's ast id: the source's non-deterministic values) is a node;
        `bound` collects hole -> node and must agree wherever a hole recurs
        (one value: False where it would not).  A syntactic match of two
        normal forms, no identity assumed: it only proposes a witness, which
        the caller puts in place and checks (the normal forms made again
        with it).  [S:lane-normal-witness]"""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 50000))
        try:
            return self._match(pat, tgt, holes, bound, set())
        finally:
            sys.setrecursionlimit(old)

    def _match(self, pat: int, tgt: int, holes: set[int], bound: dict[int, int], seen: set[tuple[int, int]]) -> bool:
        if pat == tgt or (pat, tgt) in seen:
            return True
        seen.add((pat, tgt))
        kp, kt = self._keys[pat], self._keys[tgt]
        if kp[0] == "t" and kp[1] in holes:
            return bound.setdefault(kp[1], tgt) == tgt
        if kp[0] != kt[0] or kp[0] in ("c", "t"):
            return False
        if kp[0] == "sum":
            return (kp[1] == kt[1] and len(kp[2]) == len(kt[2]) and all(
                m == n and self._match(x, y, holes, bound, seen) for (x, m), (y, n) in zip(kp[2], kt[2])))
        if kp[0] == "app":
            return (kp[1] == kt[1] and len(kp[2]) == len(kt[2])
                    and all(self._match(x, y, holes, bound, seen) for x, y in zip(kp[2], kt[2])))
        a = kp[1] if kp[0] in ("and", "or") else kp[1:]
        b = kt[1] if kt[0] in ("and", "or") else kt[1:]
        return len(a) == len(b) and all(self._match(x, y, holes, bound, seen) for x, y in zip(a, b))

    def _learn(self, d: int, value: bool, pm: int, nm: int) -> None:
        """Node d has `value` where the EXEC bits pm are set and nm clear."""
        if d in (self.TRUE, self.FALSE):
            return
        facts = self._facts.setdefault(d, [])
        if (d, pm, nm, value) in self._walked:  # (a fact known before is walked again each round:
            return  # its node under those bits may normalise further with the newer facts)
        self._walked.add((d, pm, nm, value))
        if (pm, nm, value) not in facts:
            facts.append((pm, nm, value))
        if self._keys[d][0] != "t":  # the node where those bits are decided: the same fact
            outer = self._acc
            self._raw = True  # (its own fact, or one found for its form, would hide its parts)
            d2 = self._n(self.term(d).as_ast(), pm, nm)
            self._acc = outer
            if d2 != d:
                self._learn(d2, value, pm, nm)
        kd = self._keys[d]
        if kd[0] == ("or" if not value else "and"):
            for x in kd[1]:
                self._learn(x, value, pm, nm)
        elif kd[0] in ("and", "or"):  # a false `and` of EXEC literals and one more: that one false where they hold
            rest = []
            p1, n1 = pm, nm
            for x in kd[1]:
                lit = self._literal(x)
                if lit is None:
                    rest.append(x)
                elif lit[1] == (kd[0] == "and"):
                    p1 |= lit[0]
                else:
                    n1 |= lit[0]
            if len(rest) == 1 and not p1 & n1:
                self._learn(rest[0], value, p1, n1)
        elif kd[0] == "not":
            self._learn(kd[1], not value, pm, nm)
        elif kd[0] == "ite":
            lit = self._literal(kd[1])
            if lit is not None:
                b, pol = lit
                on, off = (kd[2], kd[3]) if pol else (kd[3], kd[2])
                if not nm & b:
                    self._learn(on, value, pm | b, nm)
                if not pm & b:
                    self._learn(off, value, pm, nm | b)

    def _literal(self, x: int) -> tuple[int, bool] | None:
        """(the bit, True) for an EXEC bit, (the bit, False) for its negation."""
        kx = self._keys[x]
        pol = True
        if kx[0] == "not":
            kx, pol = self._keys[kx[1]], False
        if kx[0] == "t" and kx[1] in self.index:
            return 1 << self.index[kx[1]], pol
        return None

    def _fact(self, node: int, pos: int, neg: int) -> int:
        """The node where the facts say its value (bits consulted either way)."""
        for pm, nm, value in self._facts.get(node, ()):
            self._acc |= pm | nm
            if pos & pm == pm and neg & nm == nm:
                return self.TRUE if value else self.FALSE
        return node

    def term(self, node: int) -> Any:
        """The node's value as an int, a bool or a z3 term of the Session."""
        key = self._keys[node]
        if key[0] == "c":
            return key[1]
        hit = self._terms.get(node)
        if hit is None:
            hit = self._terms[node] = self._build(node)
        return hit

    # ---- nodes --------------------------------------------------------------
    def _node(self, key: tuple[Any, ...]) -> int:
        n = self._ids.get(key)
        if n is None:
            n = self._ids[key] = len(self._keys)
            self._keys.append(key)
        return n

    def _leaf(self, a: Any) -> int:
        ref = self.ref
        i = ast_id(ref, a)
        key = self._leaves.get(i)
        if key is None:
            self._keep(a)
            if is_numeral(ref, a) and sort_kind(ref, sort_of(ref, a)) == z3.Z3_BV_SORT:
                key = ("c", int(z3.Z3_get_numeral_string(ref, a)), z3.Z3_BV_SORT, bv_size(ref, sort_of(ref, a)))
            else:
                tf = self._bool_const(a)
                key = tf if tf is not None else ("t", i)
            self._leaves[i] = key
        if key is True:
            return self.TRUE
        if key is False:
            return self.FALSE
        return self._node(key)

    def _bool_const(self, a: Any) -> bool | None:
        """True or False for the AST of z3's true or false, else None
        (z3.is_true/is_false on the AST, without a wrapper)."""
        ref = self.ref
        if ast_kind(ref, a) != z3.Z3_APP_AST:
            return None
        dk = decl_kind(ref, app_decl(ref, a))
        return True if dk == z3.Z3_OP_TRUE else False if dk == z3.Z3_OP_FALSE else None

    def _keep(self, a: Any) -> Any:
        """`a` (an AST), referenced while the context lives (its id stays its own)."""
        i = ast_id(self.ref, a)
        t = self._asts.get(i)
        if t is None:
            inc_ref(self.ref, a)  # (never released: the context's deletion frees it)
            t = self._asts[i] = a
        return t

    def _uses_of(self, a: Any) -> int:
        ref = self.ref
        i = ast_id(ref, a)
        hit = self._uses.get(i)
        if hit is not None:
            return hit
        u = 0
        if i in self.index:
            u = 1 << self.index[i]
        elif ast_kind(ref, a) == z3.Z3_APP_AST:
            uses = self._uses
            for k in range(app_num_args(ref, a)):
                x = app_arg(ref, a, k)
                hit = uses.get(ast_id(ref, x))
                u |= hit if hit is not None else self._uses_of(x)
            if (decl_kind(ref, app_decl(ref, a)) == z3.Z3_OP_SELECT
                    and ast_id(ref, app_arg(ref, a, 0)) in self._exec_arrays
                    and not is_numeral(ref, app_arg(ref, a, 1))):
                u = self._all  # exec[index]: whichever bit the index comes to (the memo key must say)
        self._uses[i] = u
        self._keep(a)
        return u

    def _decided(self, c: int) -> tuple[int, int, int, int]:
        """The EXEC bits node `c` decides (true, false) where it holds, and
        (true, false) where it does not."""
        key = self._keys[c]
        if key[0] == "t" and key[1] in self.index:
            b = 1 << self.index[key[1]]
            return b, 0, 0, b
        if key[0] == "not":
            t1, f1, t0, f0 = self._decided(key[1])
            return t0, f0, t1, f1
        if key[0] == "and":  # where it holds every conjunct does
            tt = ff = 0
            for x in key[1]:
                t1, f1, _, _ = self._decided(x)
                tt, ff = tt | t1, ff | f1
            return tt, ff, 0, 0
        if key[0] == "or":  # where it does not hold no disjunct does
            tt = ff = 0
            for x in key[1]:
                _, _, t0, f0 = self._decided(x)
                tt, ff = tt | t0, ff | f0
            return 0, 0, tt, ff
        return 0, 0, 0, 0

    def _n(self, a: Any, pos: int, neg: int) -> int:
        if self._raw:  # `a`'s node without its own fact (not memoised)
            self._raw = False
            outer, self._acc = self._acc, 0
            node = self._n1(a, pos, neg)
            self._acc = outer
            return node
        # (`_memoised` on `_memo`, inline: the hot path)
        i = ast_id(self.ref, a)
        u = self._uses.get(i)
        if u is None:
            u = self._uses_of(a)
        facts = self._facts
        if not facts:
            pos, neg = pos & u, neg & u
        memo = self._memo
        entries = memo.get(i)
        if entries is None:
            entries = memo[i] = []
        else:
            for m, p, q, node in entries:
                if pos & m == p and neg & m == q:
                    self._acc |= m
                    return node
        if self._entries >= self.limit:
            raise _TooBig
        outer, self._acc = self._acc, 0
        node = self._n1(a, pos, neg)
        if facts:
            node = self._fact(node, pos, neg)
        m = self._acc
        entries.append((m, pos & m, neg & m, node))
        self._entries += 1
        self._acc = outer | m
        return node

    def _memoised(self, memo: dict[Any, list[tuple[int, int, int, int]]], key: Any, i: int, a: Any,
                  pos: int, neg: int, build: Callable[[int, int], int]) -> int:
        """The node `build(pos, neg)` makes of the AST `a` (ast id `i`), looked
        up in `memo` under `key` first: the context is cut to the EXEC bits
        `a` mentions (no facts), an entry agrees with it on the bits that
        entry's node consulted; a new entry past `limit` raises _TooBig.  The
        bits consulted join the caller's (`_acc`)."""
        u = self._uses.get(i)
        if u is None:
            u = self._uses_of(a)
        if not self._facts:  # (a fact may consult bits the term does not mention)
            pos, neg = pos & u, neg & u
        entries = memo.get(key)
        if entries is None:
            entries = memo[key] = []
        for m, p, q, node in entries:
            if pos & m == p and neg & m == q:
                self._acc |= m
                return node
        if self._entries >= self.limit:
            raise _TooBig
        outer, self._acc = self._acc, 0
        node = build(pos, neg)
        if self._facts:
            node = self._fact(node, pos, neg)
        m = self._acc
        entries.append((m, pos & m, neg & m, node))
        self._entries += 1
        self._acc = outer | m
        return node

    def _n0(self, a: Any) -> int:
        """The node of `a` with nothing decided (what it consults is not the caller's)."""
        outer = self._acc
        try:
            return self._n(a, 0, 0)
        finally:
            self._acc = outer

    def _shape(self, a: Any, i: int) -> tuple[int, int, tuple[Any, ...]] | None:
        """(its argument count, its declaration kind, its arguments) of an
        application with arguments (ast id `i`), else None; cached per AST
        (shared like `_uses`: the AST is kept, so are its arguments)."""
        ref = self.ref
        n = app_num_args(ref, a) if ast_kind(ref, a) == z3.Z3_APP_AST else 0
        if n == 0:
            sh = None
        else:
            kids = ((app_arg(ref, a, 0),) if n == 1 else (app_arg(ref, a, 0), app_arg(ref, a, 1)) if n == 2
                    else tuple([app_arg(ref, a, k) for k in range(n)]))
            sh = (n, decl_kind(ref, app_decl(ref, a)), kids)
        if i not in self._asts:  # (`_keep`: the AST is kept, so are its arguments)
            inc_ref(ref, a)
            self._asts[i] = a
        self._shapes[i] = sh
        return sh

    def _n1(self, a: Any, pos: int, neg: int) -> int:
        ref = self.ref
        i = ast_id(ref, a)
        if i in self.index:
            return self._exec_bit(a, self.index[i], pos, neg)
        sh = self._shapes[i] if i in self._shapes else self._shape(a, i)
        if sh is None:
            return self._leaf(a)
        n, dk, kids = sh
        if dk == z3.Z3_OP_ITE:
            outer, self._acc = self._acc, 0
            c = self._n(kids[0], pos, neg)
            asked, self._acc = self._acc, outer | self._acc  # (the bits the condition consulted)
            if c == self.TRUE:
                return self._n(kids[1], pos, neg)
            if c == self.FALSE:
                return self._n(kids[2], pos, neg)
            t1, f1, t0, f0 = self._decided(c)
            if self.local and t1 | f1 | t0 | f0:
                # [S:lane-normal-local] each branch knows the bits this select
                # decides and those its condition consulted, not the bits the
                # selects around it decided: a lane read under its own lane's
                # EXEC bit is one node, however it is reached
                own = t1 | f1 | t0 | f0
                keep = own | asked
                outer, self._acc = self._acc, 0
                x = self._n(kids[1], (pos & keep) | t1, (neg & keep) | f1)
                y = self._n(kids[2], (pos & keep) | t0, (neg & keep) | f0)
                self._acc = outer | (self._acc & keep & ~own)
                return x if x == y else self._node(("ite", c, x, y))
            keep = self._keep_mask(c)
            outer, self._acc = self._acc, 0
            x = self._n(kids[1], (pos & keep) | t1, (neg & keep) | f1)
            cx, self._acc = self._acc, 0
            y = self._n(kids[2], (pos & keep) | t0, (neg & keep) | f0)
            # (the bits this select decides are its own, whatever the context)
            self._acc = outer | (cx & ~(t1 | f1) & keep) | (self._acc & ~(t0 | f0) & keep)
            return x if x == y else self._node(("ite", c, x, y))
        if dk in (z3.Z3_OP_AND, z3.Z3_OP_OR):
            unit, zero = (self.TRUE, self.FALSE) if dk == z3.Z3_OP_AND else (self.FALSE, self.TRUE)
            kept: set[int] = set()
            for k in range(n):
                x = self._n(kids[k], pos, neg)
                if x == zero:
                    return zero
                if x != unit:
                    kept.add(x)
            if not kept:
                return unit
            if len(kept) == 1:
                return kept.pop()
            return self._node(("and" if dk == z3.Z3_OP_AND else "or", tuple(sorted(kept))))
        if dk == z3.Z3_OP_NOT:
            x = self._n(kids[0], pos, neg)
            if x == self.TRUE:
                return self.FALSE
            if x == self.FALSE:
                return self.TRUE
            kx = self._keys[x]
            return kx[1] if kx[0] == "not" else self._node(("not", x))
        if dk == z3.Z3_OP_BADD and bv_size(ref, sort_of(ref, a)) == 32:
            # a sum: its constant, and each term with its multiplicity mod 2^32
            const = 0
            terms: dict[int, int] = {}
            for k in range(n):
                x = self._n(kids[k], pos, neg)
                kx = self._keys[x]
                if kx[0] == "c":
                    const += kx[1]
                elif kx[0] == "sum":
                    const += kx[1]
                    for t, m in kx[2]:
                        terms[t] = terms.get(t, 0) + m
                else:
                    terms[x] = terms.get(x, 0) + 1
            const &= 0xFFFFFFFF
            items = tuple(sorted((t, m & 0xFFFFFFFF) for t, m in terms.items() if m & 0xFFFFFFFF))
            if not items:
                return self._node(("c", const, z3.Z3_BV_SORT, 32))
            if not const and len(items) == 1 and items[0][1] == 1:
                return items[0][0]
            return self._node(("sum", const, items))
        if dk == z3.Z3_OP_SELECT:
            # a lane read: at a constant lane, what the lane holds; else the
            # array is normalised with nothing decided (once, however many
            # contexts read it)
            at = self._n(kids[1], pos, neg)
            if self._keys[at][0] == "c":
                hit = self._stored(self._keep(kids[0]), self._keys[at][1])
                if hit is not None:
                    if not self.local:
                        return self._n(hit, pos, neg)
                    # [S:lane-normal-local] lane k's value with its own EXEC bit
                    # as the context knows it, nothing else: one node wherever lane k is read
                    kb = 1 << k if (k := self._keys[at][1]) < self._lanes else 0
                    outer, self._acc = self._acc, 0
                    node = self._n(hit, pos & kb, neg & kb)
                    self._acc = outer | (self._acc & kb)
                    return node
                src = self._n0(kids[0])
                if self._keys[src][0] == "t":  # a register's lane at entry, or an EXEC bit
                    one = self._keep(z3.Z3_mk_select(ref, self._asts[self._keys[src][1]],
                                                     self._const_term(at).as_ast()))
                    lit = self.index.get(ast_id(ref, one))
                    if lit is not None:
                        return self._exec_bit(one, lit, pos, neg)
                    return self._leaf(one)
            args: tuple[int, ...] = (self._n0(kids[0]), at)
        elif dk == z3.Z3_OP_BAND and n == 2 and (low := self._and_one(a, pos, neg)) is not None:
            return low  # (a bit tested: (m >> k) & 1, one lane's bit of a ballot)  [S:lane-normal-bits]
        elif dk == z3.Z3_OP_EXTRACT and (kb := self._one_bit(a)) is not None:
            return self._bit_value(self._b(kids[0], kb, pos, neg), 1)  # [S:lane-normal-bits]
        else:
            args = tuple(self._n(kids[k], pos, neg) for k in range(n))
            if dk == z3.Z3_OP_BAND and n == 2 and (masked := self._mask(a, args)) is not None:
                return masked  # [S:lane-normal-mask]
            if dk in (z3.Z3_OP_FPA_ADD, z3.Z3_OP_FPA_MUL) and n == 3:  # x + y is y + x  [S:lane-normal-fadd]
                args = (args[0], *sorted(args[1:]))
        if dk == z3.Z3_OP_EQ and args[0] == args[1]:
            return self.TRUE
        if dk == z3.Z3_OP_EQ:
            eq = self._eq(args[0], args[1], sort_kind(ref, sort_of(ref, kids[0])))
            if eq is not None:
                return eq
        if self.lift and dk != z3.Z3_OP_SELECT and (lifted := self._lift(a, args, pos, neg)) is not None:
            return lifted  # [S:lane-normal-mask]
        ground = all(self._keys[x][0] == "c" or x in self._ground for x in args)
        if ground:  # an operation on constants: its value
            # (a ground argument that is no bit-vector or Boolean constant, the
            # float fpToFP(0x7f800000) a float predicate reads, folds with it:
            # z3's simplifier evaluates a term without variables exactly)
            consts = [self._z(x) for x in args]  # (alive until z3 has used them)
            fkey = (ast_id(ref, z3.Z3_func_decl_to_ast(ref, app_decl(ref, a))),
                    tuple(ast_id(ref, self._keep(t.as_ast())) for t in consts))  # (kept: the ids stay theirs)
            r = self._folds.get(fkey, False)
            if r is False:  # (the same declaration on the same ASTs: the same fold)
                arr, m = _arr(consts)
                r = self._keep(z3.Z3_simplify(ref, self._keep(z3.Z3_update_term(ref, a, m, arr))))
                if _bv_numeral(ref, r) is None and self._bool_const(r) is None:
                    r = None
                self._folds[fkey] = r
            if r is not None:
                return self._leaf(r)
        # (keyed by the declaration and the arguments' nodes alone: two applications
        # of one declaration to equal normal forms are equal; the first seen rebuilds it)
        node = self._node(("app", ast_id(ref, z3.Z3_func_decl_to_ast(ref, app_decl(ref, a))),
                           args))
        self._orig.setdefault(node, i)
        if ground:
            self._ground.add(node)
        return node

    def _exec_bit(self, a: Any, k: int, pos: int, neg: int) -> int:
        """The node of exec[k] (`a`): true or false where the context decides
        it (the bit consulted), else its leaf; a fact that holds wherever the
        hypothesis does (given with no lane: no EXEC bit needed) decides it
        in every context, so no bit is consulted and the terms above it are
        one memo entry for every lane.  [S:lane-normal-given]"""
        if self._facts:
            leaf = self._leaf(a)
            for pm, nm, value in self._facts.get(leaf, ()):
                if not pm and not nm:
                    return self.TRUE if value else self.FALSE
        b = 1 << k
        self._acc |= b
        return self.TRUE if pos & b else self.FALSE if neg & b else self._leaf(a)

    def _keep_mask(self, c: int) -> int:
        """The context's bits a select on `c` passes to its branches: all
        of them, but with `lane_local` a select on one EXEC bit the context left
        open passes the asked lane's bit alone (knowing less is no less
        true; the forms of a chain of lane reads then depend on each read's
        own bit, not on every lane the path through the chain decided).
        [S:lane-normal-lane-local]"""
        if not self.lane_local or self._facts or self._literal(c) is None:
            return self._all
        return self._lane

    # ---- bits  [S:lane-normal-bits] ------------------------------------------
    def _one_bit(self, a: Any) -> int | None:
        """k for `extract(k, k, x)`, else None."""
        ref = self.ref
        d = app_decl(ref, a)
        hi, lo = z3.Z3_get_decl_int_parameter(ref, d, 0), z3.Z3_get_decl_int_parameter(ref, d, 1)
        return int(lo) if hi == lo else None

    def _bit_value(self, b: int, width: int) -> int:
        """The bit-vector of `width` bits that is 1 where node `b` holds, else 0."""
        one, zero = self._node(("c", 1, z3.Z3_BV_SORT, width)), self._node(("c", 0, z3.Z3_BV_SORT, width))
        return one if b == self.TRUE else zero if b == self.FALSE else self._node(("ite", b, one, zero))

    def _and_one(self, a: Any, pos: int, neg: int) -> int | None:
        """`x & 1` (either operand the 1): bit 0 of x, zero-extended (an
        identity), made by `_b` (bit 0 of x, not x whole); None otherwise."""
        ref = self.ref
        w = bv_size(ref, sort_of(ref, a))
        for k in (1, 0):
            m = app_arg(ref, a, k)
            if k == 0 and _bv_numeral(ref, m) != 1:
                continue
            mn = self._n(m, pos, neg)
            if self._keys[mn][:2] == ("c", 1):
                return self._bit_value(self._b(app_arg(ref, a, 1 - k), 0, pos, neg), w)
        return None

    def _b(self, a: Any, k: int, pos: int, neg: int) -> int:
        """The Boolean node of bit k of the bit-vector AST `a` (memoised as `_n`)."""
        i = ast_id(self.ref, a)
        return self._memoised(self._bmemo, (i, k), i, a, pos, neg, lambda p, q: self._b1(a, k, p, q))

    def _b1(self, a: Any, k: int, pos: int, neg: int) -> int:
        """Bit k through the operations that move bits without mixing them
        (each an identity of bit k): a select (either branch's bit k), and,
        or, xor with constants, not, a concatenation (the part holding it),
        an extract, a zero extension, a shift by a constant; a constant's
        bit.  Anything else: `extract(k, k, x) == 1` over x's normal form."""
        ref = self.ref
        v = _bv_numeral(ref, a)
        if v is not None:
            return self.TRUE if v >> k & 1 else self.FALSE
        if ast_kind(ref, a) != z3.Z3_APP_AST or app_num_args(ref, a) == 0:
            return self._b_whole(a, k, pos, neg)
        n = app_num_args(ref, a)
        dk = decl_kind(ref, app_decl(ref, a))
        arg = app_arg
        if dk == z3.Z3_OP_ITE:
            c = self._n(arg(ref, a, 0), pos, neg)
            if c == self.TRUE:
                return self._b(arg(ref, a, 1), k, pos, neg)
            if c == self.FALSE:
                return self._b(arg(ref, a, 2), k, pos, neg)
            t1, f1, t0, f0 = self._decided(c)
            keep = self._keep_mask(c)
            outer, self._acc = self._acc, 0
            x = self._b(arg(ref, a, 1), k, (pos & keep) | t1, (neg & keep) | f1)
            cx, self._acc = self._acc, 0
            y = self._b(arg(ref, a, 2), k, (pos & keep) | t0, (neg & keep) | f0)
            self._acc = outer | (cx & ~(t1 | f1) & keep) | (self._acc & ~(t0 | f0) & keep)
            if x == y:
                return x
            if (x, y) == (self.TRUE, self.FALSE):
                return c
            if (x, y) == (self.FALSE, self.TRUE):
                return self._not(c)
            return self._node(("ite", c, x, y))
        if dk in (z3.Z3_OP_BAND, z3.Z3_OP_BOR):
            unit, zero = (self.TRUE, self.FALSE) if dk == z3.Z3_OP_BAND else (self.FALSE, self.TRUE)
            kept: set[int] = set()
            for j in range(n):
                x = self._b(arg(ref, a, j), k, pos, neg)
                if x == zero:
                    return zero
                if x != unit:
                    kept.add(x)
            if not kept:
                return unit
            if len(kept) == 1:
                return kept.pop()
            return self._node(("and" if dk == z3.Z3_OP_BAND else "or", tuple(sorted(kept))))
        if dk == z3.Z3_OP_BXOR:
            flip = False
            rest = []
            for j in range(n):
                x = self._b(arg(ref, a, j), k, pos, neg)
                if x in (self.TRUE, self.FALSE):
                    flip ^= x == self.TRUE
                else:
                    rest.append(x)
            if len(rest) > 1:
                return self._b_whole(a, k, pos, neg)
            if not rest:
                return self.TRUE if flip else self.FALSE
            return self._not(rest[0]) if flip else rest[0]
        if dk == z3.Z3_OP_BNOT:
            return self._not(self._b(arg(ref, a, 0), k, pos, neg))
        if dk == z3.Z3_OP_CONCAT:  # (the last part the lowest bits)
            for j in reversed(range(n)):
                w = bv_size(ref, sort_of(ref, arg(ref, a, j)))
                if k < w:
                    return self._b(arg(ref, a, j), k, pos, neg)
                k -= w
            return self.FALSE
        if dk == z3.Z3_OP_EXTRACT:
            lo = int(z3.Z3_get_decl_int_parameter(ref, app_decl(ref, a), 1))
            return self._b(arg(ref, a, 0), lo + k, pos, neg)
        if dk == z3.Z3_OP_ZERO_EXT:
            w = bv_size(ref, sort_of(ref, arg(ref, a, 0)))
            return self._b(arg(ref, a, 0), k, pos, neg) if k < w else self.FALSE
        if dk in (z3.Z3_OP_BLSHR, z3.Z3_OP_BSHL):
            sh = self._n(arg(ref, a, 1), pos, neg)
            ks = self._keys[sh]
            if ks[0] == "c":
                w = bv_size(ref, sort_of(ref, a))
                j = k + ks[1] if dk == z3.Z3_OP_BLSHR else k - ks[1]
                return self._b(arg(ref, a, 0), j, pos, neg) if 0 <= j < w else self.FALSE
        return self._b_whole(a, k, pos, neg)

    def _b_whole(self, a: Any, k: int, pos: int, neg: int) -> int:
        """Bit k of `a` as `extract(k, k, x) == 1`, x the normal form of `a`
        (keyed by the extract's declaration and x's node)."""
        ref = self.ref
        x = self._n(a, pos, neg)
        kx = self._keys[x]
        if kx[0] == "c" and len(kx) > 3:
            return self.TRUE if kx[1] >> k & 1 else self.FALSE
        ext = self._keep(z3.Z3_mk_extract(ref, k, k, a))
        e = self._node(("app", ast_id(ref, z3.Z3_func_decl_to_ast(ref, app_decl(ref, ext))), (x,)))
        self._orig.setdefault(e, ast_id(ref, ext))
        eq = self._keep(z3.Z3_mk_eq(ref, ext, self.s.one1.as_ast()))
        one = self._node(("c", 1, z3.Z3_BV_SORT, 1))
        node = self._node(("app", ast_id(ref, z3.Z3_func_decl_to_ast(ref, app_decl(ref, eq))), (e, one)))
        self._orig.setdefault(node, ast_id(ref, eq))
        return node

    def _mask(self, a: Any, args: tuple[int, ...]) -> int | None:
        """[S:lane-normal-mask] `x & c` (c a constant): `x` where no bit
        outside c can be set in x (`_ones`), `x & (c & d)` where x is
        `x & d` with d a constant; None otherwise (the caller goes on)."""
        x, c = args
        if self._keys[x][0] == "c":
            x, c = c, x
        kc = self._keys[c]
        if kc[0] != "c" or self._keys[x][0] == "c" or len(kc) < 4:
            return None
        if self._ones(x) & ~kc[1] == 0:
            return x
        if self._kind(x) == z3.Z3_OP_BOR and len(self._keys[x][2]) == 2:  # an operand with no bit in c: gone
            kept = [y for y in self._keys[x][2] if self._ones(y) & kc[1]]
            if len(kept) == 1:
                y = kept[0]
                if self._ones(y) & ~kc[1] == 0:
                    return y
                node = self._node(("app", self._band_decl(a), (y, c)))
                self._orig.setdefault(node, ast_id(self.ref, a))
                self._keep(a)
                return node
        if self._kind(x) == z3.Z3_OP_BAND and len(self._keys[x][2]) == 2:
            y, d = self._keys[x][2]
            if self._keys[y][0] == "c":
                y, d = d, y
            kd = self._keys[d]
            if kd[0] == "c" and self._keys[y][0] != "c":
                cd = self._node(("c", kc[1] & kd[1], kc[2], kc[3]))
                node = self._node(("app", self._keys[x][1], (y, cd)))
                self._orig.setdefault(node, ast_id(self.ref, a))
                self._keep(a)
                return node
        return None

    def _lift(self, a: Any, args: tuple[int, ...], pos: int, neg: int) -> int | None:
        """[S:lane-normal-mask] `f(.., ite(e, x, y), ..)`, e an EXEC bit (or
        its negation) and every other operand a constant: `ite(e, f(.., x,
        ..), f(.., y, ..))`, each side normalised with e decided (a lane read
        of an inactive lane's old value tested by a NaN check, so a fact
        about the active side is found by `given`); None otherwise."""
        at = -1
        for k, x in enumerate(args):
            kx = self._keys[x]
            if kx[0] == "c" or x in self._ground:
                continue
            if at >= 0 or kx[0] != "ite" or self._literal(kx[1]) is None:
                return None
            at = k
        if at < 0:
            return None
        ref = self.ref
        key = self._keys[args[at]]
        bit, pol = self._literal(key[1])  # type: ignore[misc]
        self._acc |= bit
        sides = []
        on, off = ((pos | bit, neg), (pos, neg | bit)) if pol else ((pos, neg | bit), (pos | bit, neg))
        for branch, (p, q) in ((key[2], on), (key[3], off)):
            if self._keys[branch][0] == "c" and len(self._keys[branch]) < 4:
                return None  # (a Boolean constant: not this rewrite's)
            terms = [self._z(x) for x in args]
            terms[at] = self._z(branch)
            arr, n = _arr(terms)
            t = self._keep(z3.Z3_update_term(ref, a, n, arr))
            sides.append(self._n(t, p, q))
        x, y = sides
        return x if x == y else self._node(("ite", key[1], x, y))

    def _band_decl(self, a: Any) -> int:
        """The ast id of `a`'s declaration (a bvand: the node key's)."""
        return int(ast_id(self.ref, z3.Z3_func_decl_to_ast(self.ref, app_decl(self.ref, a))))

    def _ones(self, node: int) -> int:
        """The bits of a bit-vector node that may be set (a superset):
        a constant's own, the union of a select's two values', the
        intersection of an `&`'s operands', the union of an `|`'s; every bit
        of its width otherwise."""
        hit = self._ones_memo.get(node)
        if hit is not None:
            return hit
        key = self._keys[node]
        w = self._width(node)
        full = (1 << w) - 1 if w else -1
        if key[0] == "c":
            out = key[1] if len(key) > 3 else full
        elif key[0] == "ite":
            out = self._ones(key[2]) | self._ones(key[3])
        elif self._kind(node) == z3.Z3_OP_BAND:
            out = full
            for x in key[2]:
                out &= self._ones(x)
        elif self._kind(node) == z3.Z3_OP_BOR:
            out = 0
            for x in key[2]:
                out |= self._ones(x)
        elif self._kind(node) in (z3.Z3_OP_BSHL, z3.Z3_OP_BLSHR) and self._keys[key[2][1]][0] == "c" and w:
            k = self._keys[key[2][1]][1]
            out = full if k >= w else (self._ones(key[2][0]) << k if self._kind(node) == z3.Z3_OP_BSHL
                                       else self._ones(key[2][0]) >> k) & full
        else:
            out = full
        self._ones_memo[node] = out
        return out

    def _kind(self, node: int) -> int | None:
        """The declaration kind of an "app" node (None for the others)."""
        if self._keys[node][0] != "app":
            return None
        return int(decl_kind(self.ref, app_decl(self.ref, self._asts[self._orig[node]])))

    def _width(self, node: int) -> int:
        """The bit width of a bit-vector node (0: not known)."""
        key = self._keys[node]
        if key[0] == "c":
            return int(key[3]) if len(key) > 3 else 0
        if key[0] == "ite":
            return self._width(key[2])
        if key[0] == "sum":
            return 32
        if key[0] in ("t", "app"):
            t = self._asts[key[1] if key[0] == "t" else self._orig[node]]
            srt = sort_of(self.ref, t)
            return int(bv_size(self.ref, srt)) if sort_kind(self.ref, srt) == z3.Z3_BV_SORT else 0
        return 0

    def _not(self, x: int) -> int:
        if x == self.TRUE:
            return self.FALSE
        if x == self.FALSE:
            return self.TRUE
        kx = self._keys[x]
        return kx[1] if kx[0] == "not" else self._node(("not", x))

    def _eq(self, x: int, y: int, sort: int) -> int | None:
        """The normal form of x == y where a select of two different
        constants decides it (ite(c, k1, k2) == ite(d, k1, k2) is c == d,
        ite(c, k1, k2) == k1 is c, == k2 is not c, == any other constant is
        false: LLVM's `select i1 %c, i32 1, i32 0` compared with another,
        GPU code's v_cndmask 0, 1 compared), or of two conditions (an "iff",
        its operands ordered); None: the application as it is."""
        if sort == z3.Z3_BOOL_SORT:
            for a, b in ((x, y), (y, x)):
                if a == self.TRUE:
                    return b
                if a == self.FALSE:
                    return self._not(b)
            return self._node(("iff", min(x, y), max(x, y)))
        kx, ky = self._keys[x], self._keys[y]

        def two(k: tuple[Any, ...]) -> bool:
            return k[0] == "ite" and self._keys[k[2]][0] == "c" and self._keys[k[3]][0] == "c" and k[2] != k[3]
        if two(kx) and two(ky) and kx[2:] == ky[2:]:
            return self._eq(kx[1], ky[1], z3.Z3_BOOL_SORT)
        for k, c in ((kx, y), (ky, x)):
            if two(k) and self._keys[c][0] == "c":
                return k[1] if c == k[2] else self._not(k[1]) if c == k[3] else self.FALSE
        return None

    def _const_term(self, node: int) -> Any:
        key = self._keys[node]
        if key[1] is True or key[1] is False:
            return self.s.true if key[1] else self.s.false
        if key[3] == 32:
            return self.s.bv(key[1])  # (cached in the Session)
        v = z3.BitVecVal(key[1], key[3], self.s.ctx)
        self._keep(v.as_ast())
        return v

    def _stored(self, arr: Any, k: int) -> Any:
        """What `arr` (a chain of stores at constant lanes over a constant
        array) holds at lane k, as an AST; None if that is not known.  The
        chain is walked once per array (a lane read of each of W lanes
        would walk it W times)."""
        i = ast_id(self.ref, arr)
        got = self._store_maps.get(i)
        if got is None:
            got = self._store_maps[i] = self._store_map(arr)
        lanes, rest = got
        hit = lanes.get(k)
        return hit if hit is not None else rest

    def _store_map(self, arr: Any) -> tuple[dict[int, Any], Any]:
        """`arr`'s stores at constant lanes, newest first, down to the first
        that is not one: (lane -> the AST stored there, what every other lane
        holds: the constant array's value, or None where a store at a lane
        that is not a numeral, or no constant array, ends the chain)."""
        ref = self.ref
        a = arr
        lanes: dict[int, Any] = {}
        while ast_kind(ref, a) == z3.Z3_APP_AST:
            dk = decl_kind(ref, app_decl(ref, a))
            if dk == z3.Z3_OP_STORE:
                at = _bv_numeral(ref, app_arg(ref, a, 1))
                if at is None:
                    return lanes, None
                lanes.setdefault(at, app_arg(ref, a, 2))
                a = app_arg(ref, a, 0)
            elif dk == z3.Z3_OP_CONST_ARRAY:
                return lanes, app_arg(ref, a, 0)
            else:
                return lanes, None
        return lanes, None

    def _build(self, node: int) -> Any:
        key = self._keys[node]
        s, ref = self.s, self.ref
        kind = key[0]
        if kind == "c":
            return self._const_term(node)
        if kind == "t":
            return z3.z3._to_expr_ref(self._asts[key[1]], s.ctx)
        if kind == "sum":
            out = s.bv(key[1]) if key[1] else None
            for x, m in key[2]:
                t = s.bv(self.term(x))
                if m != 1:
                    t = s.W(z3.Z3_mk_bvmul(ref, s.bv(m).as_ast(), t.as_ast()))
                out = t if out is None else s.W(z3.Z3_mk_bvadd(ref, out.as_ast(), t.as_ast()))
            return out
        if kind == "ite":
            c, x, y = (self._z(k) for k in key[1:])
            return z3.z3._to_expr_ref(z3.Z3_mk_ite(ref, c.as_ast(), x.as_ast(), y.as_ast()), s.ctx)
        if kind in ("and", "or"):
            arr, n = _arr([self._z(x) for x in key[1]])
            return s.WB((z3.Z3_mk_and if kind == "and" else z3.Z3_mk_or)(ref, n, arr))
        if kind == "not":
            return s.WB(z3.Z3_mk_not(ref, self._z(key[1]).as_ast()))
        if kind == "iff":
            return s.WB(z3.Z3_mk_eq(ref, self._z(key[1]).as_ast(), self._z(key[2]).as_ast()))
        orig = self._asts[self._orig[node]]  # "app": the original application, its arguments normal
        arr, n = _arr([self._z(x) for x in key[2]])
        return z3.z3._to_expr_ref(z3.Z3_update_term(ref, orig, n, arr), s.ctx)

    def _z(self, node: int) -> Any:
        """The node's z3 term, constants included."""
        key = self._keys[node]
        return self._const_term(node) if key[0] == "c" else self.term(node)
