"""Sums in one normal form (Z3Sums): the atomic optimizer's scans, its
Iterative loop and the IR's serialised atomics build the same terms
(verify/tv/atomics.py, [S:atomic-optimizer])."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .terms import Z3, _is_ite, z3


class Z3Sums(Z3):
    """`Z3` (verify tv's memory proofs: `aci` on) with sums in a normal form:
    a tree of 32-bit adds, subtractions and multiplications by a constant
    is the linear combination of its leaves (each leaf's coefficient mod
    2^32, and a constant), built as one chain over the leaves in ast-id
    order, so two trees of one combination are the same term; xor is
    likewise the set of leaves of odd count.  And a select between such a
    combination and a smaller one is the smaller one plus a select of the
    difference: ite(c, A + x, A) = A + ite(c, x, 0) (and ite(c, A ^ x, A) =
    A ^ ite(c, x, 0); for umin/umax/smin/smax, with the operation's
    identity, on `_aci`'s nests).  Each rewrite is an identity of
    bit-vector arithmetic, so every term equals, as a function, the plain
    one it stands for.  The atomic optimizer's DPP scan (a tree over the
    lanes' values), its Iterative loop (one guarded step per lane) and the
    IR's serialised atomicrmw (one guarded update per lane) then build the
    very same sums, whatever EXEC is, and the solver meets no arithmetic
    to reorder: only which lane did what  [S:atomic-optimizer]."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        # ast id -> (term, kind, {leaf id: coefficient}, constant)
        self._lin: dict[int, tuple[Any, str, dict[int, int], int]] = {}
        self._leaf: dict[int, Any] = {}  # leaf id -> leaf (kept, so ids stay theirs)
        # (kind, prefix term id or -1, leaf id, coefficient) -> the chain term
        self._chain: dict[tuple[str, int, int, int], Any] = {}
        self._counts = {}  # ast id -> (a popcount's term, its conditions, one of them True)

    def _parts(self, kind: str, t: Any) -> tuple[dict[int, int], int]:
        if type(t) is int:
            return {}, t
        hit = self._lin.get(t.get_id())
        if hit is not None and hit[1] == kind and self.s.same(hit[0], t):
            return dict(hit[2]), hit[3]
        self._leaf.setdefault(t.get_id(), t)
        return {t.get_id(): 1}, 0 if kind != "and" else 0xFFFFFFFF

    def _build(self, kind: str, lin: dict[int, int], const: int) -> Any:
        mod = 2 if kind == "xor" else 1 << 32
        items = [(k, 1 if kind == "or" else c % mod) for k, c in sorted(lin.items()) if c % mod]
        const &= 0xFFFFFFFF
        ident = 0xFFFFFFFF if kind == "and" else 0
        if not items:
            return const
        if len(items) == 1 and items[0][1] == 1 and const == ident:
            return self._leaf[items[0][0]]
        if kind == "or" and const == 0xFFFFFFFF:
            return const
        mk = {"add": z3.Z3_mk_bvadd, "xor": z3.Z3_mk_bvxor, "or": z3.Z3_mk_bvor}[kind]
        acc: Any = None
        for k, c in items:
            key = (kind, -1 if acc is None else acc.get_id(), k, c)
            nxt = self._chain.get(key)
            if nxt is None:
                leaf = self._leaf[k]
                term = leaf if c == 1 else self.s.bin(z3.Z3_mk_bvmul, c, leaf)
                nxt = term if acc is None else self.s.bin(mk, acc, term)
                self._chain[key] = nxt
            acc = nxt
        if const != ident:
            acc = self.s.bin(mk, acc, const)
        if acc.get_id() not in self._lin:
            self._lin[acc.get_id()] = (acc, kind, {k: c for k, c in items}, const)
        return acc

    def _combine(self, kind: str, a: Any, b: Any, sign: int = 1) -> Any:
        la, ca = self._parts(kind, a)
        lb, cb = self._parts(kind, b)
        for k, c in lb.items():
            la[k] = la.get(k, 0) + sign * c
        const = (ca + sign * cb) if kind == "add" else ca | cb if kind == "or" else ca ^ cb
        return self._build(kind, la, const)

    def add(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return (a + b) & 0xFFFFFFFF
        return self._combine("add", a, b)

    def sub(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return (a - b) & 0xFFFFFFFF
        return self._combine("add", a, b, -1)

    def mul(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is not int:
            a, b = b, a
        if type(b) is int and type(a) is not int:
            lin, const = self._parts("add", a)
            return self._build("add", {k: c * b for k, c in lin.items()}, const * b)
        return super().mul(a, b)

    def xor(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return a ^ b
        if self._maskish(a, True) is not None or self._maskish(b, True) is not None:
            return super().xor(a, b)
        return self._combine("xor", a, b)

    def or_(self, a: Any, b: Any) -> Any:
        # (or is idempotent: a leaf's count is its presence)
        if type(a) is int and type(b) is int:
            return a | b
        if self._maskish(a, True) is not None or self._maskish(b, True) is not None:
            return super().or_(a, b)
        return self._combine("or", a, b)

    def ite(self, c: Any, a: Any, b: Any) -> Any:
        if c is True or c is False or type(a) is bool or type(b) is bool or (
                type(a) is not int and z3.is_bool(a)) or self.s.same(a, b):
            return super().ite(c, a, b)
        for kind in ("add", "xor", "or"):
            lifted = self._lift(kind, c, a, b)
            if lifted is not None:
                return lifted
        if self.aci:
            lifted = self._lift_minmax(c, a, b)
            if lifted is not None:
                return lifted
        return super().ite(c, a, b)

    def _lift(self, kind: str, c: Any, a: Any, b: Any) -> Any:
        """ite(c, B + D, B) as B + ite(c, D, 0) (and the mirror image),
        where B has a leaf; None when neither side contains the other."""
        hit_a = type(a) is not int and a.get_id() in self._lin and self._lin[a.get_id()][1] == kind
        hit_b = type(b) is not int and b.get_id() in self._lin and self._lin[b.get_id()][1] == kind
        if not (hit_a or hit_b):
            return None
        la, ca = self._parts(kind, a)
        lb, cb = self._parts(kind, b)
        for big, small, cbig, csmall, cond in ((la, lb, ca, cb, c), (lb, la, cb, ca, None)):
            if not small or any(big.get(k) != v for k, v in small.items()):
                continue
            diff = {k: v for k, v in big.items() if k not in small}
            if kind == "or" and cbig != csmall:
                continue
            dconst = (cbig - csmall) if kind == "add" else cbig ^ csmall
            g = cond if cond is not None else self.not_b(c)
            base = b if cond is not None else a
            if len(diff) == 1 and not dconst & 0xFFFFFFFF:  # k * ite(g, x, 0): the leaf itself
                (k, coef), = diff.items()
                leaf = Z3.ite(self, g, self._leaf[k], 0)
                lin, const = self._parts(kind, base)
                lin[leaf.get_id()] = lin.get(leaf.get_id(), 0) + coef
                self._leaf.setdefault(leaf.get_id(), leaf)
                return self._build(kind, lin, const)
            if not diff and dconst & 0xFFFFFFFF:  # ite(g, k, 0): a constant's step
                return self._combine(kind, base, Z3.ite(self, g, dconst & 0xFFFFFFFF, 0))
            if not diff:
                return base
            return None  # (several leaves: kept a select of two sums, each the other side's very term)
        return None

    _ACI_KINDS = ("umin", "umax", "smin", "smax")

    def _lift_minmax(self, c: Any, a: Any, b: Any) -> Any:
        """ite(c, op(B, x...), B) as op(B, ite(c, op(x...), identity)) for
        a min/max nest `a` whose leaves contain B's (B a leaf or a nest)."""
        ha = None if type(a) is int else self._mm.get(a.get_id())
        hb = None if type(b) is int else self._mm.get(b.get_id())
        for nest, other, cond in ((ha, b, c), (hb, a, None)):
            if nest is None or not self.s.same(nest[0], a if cond is not None else b):
                continue
            kind = nest[1]
            if type(other) is int:
                continue
            ho = self._mm.get(other.get_id())
            if ho is not None and ho[1] == kind and self.s.same(ho[0], other):
                small, sconst = ho[2], ho[3]
            else:
                small, sconst = {other.get_id(): other}, None
            if not set(small) <= set(nest[2]) or (sconst is not None and sconst != nest[3]):
                continue
            rest = [t for k, t in nest[2].items() if k not in small]
            if nest[3] is not None and sconst is None:
                rest.append(nest[3])
            if not rest:
                return other
            if len(rest) > 1:
                return None  # (several leaves: kept a select of two nests)
            ident = self._MINMAX[kind][0]
            d = rest[0]
            for t in rest[1:]:
                d = getattr(self, kind)(d, t)
            g = cond if cond is not None else self.not_b(c)
            return getattr(self, kind)(other, Z3.ite(self, g, d, ident))
        return None

    # a lane count compared with 0 is "none of its lanes": v_mbcnt of EXEC
    # == 0 (the atomic optimizer's one lane) is then "no active lane below",
    # Boolean over EXEC's bits
    def popcount(self, conds: Sequence[Any]) -> Any:
        out = super().popcount(conds)
        if type(out) is not int:
            self._counts[out.get_id()] = (out, [c for c in conds if type(c) is not bool], any(
                c is True for c in conds))
        return out

    _counts: dict[int, tuple[Any, list[Any], bool]]

    def ult(self, a: Any, b: Any) -> Any:
        if type(b) is int and b == 0:
            return False  # (no value is below 0: an address's carry out of x + 0)
        return super().ult(a, b)

    def eq(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is not int:
            a, b = b, a
        if type(b) is int and b == 0 and type(a) is not int:
            z = self._none_of(a)
            if z is not None:
                return z
        for kind in ("add", "xor"):  # two sums: what they do not share (a - b == 0 iff a == b)
            if any(type(t) is not int and t.get_id() in self._lin and self._lin[t.get_id()][1] == kind
                   and self.s.same(self._lin[t.get_id()][0], t) for t in (a, b)):
                la, ca = self._parts(kind, a)
                lb, cb = self._parts(kind, b)
                mod = 2 if kind == "xor" else 1 << 32
                if kind == "xor":
                    keys = set(la) ^ set(lb)
                    pos, neg = {k: 1 for k in keys if la.get(k, 0) % 2 != lb.get(k, 0) % 2}, {}
                    cpos, cneg = ca ^ cb, 0
                else:
                    d = {k: (la.get(k, 0) - lb.get(k, 0)) % mod for k in set(la) | set(lb)}
                    pos = {k: c for k, c in d.items() if c and c < 1 << 31}
                    neg = {k: mod - c for k, c in d.items() if c >= 1 << 31}
                    cpos, cneg = (ca - cb) & 0xFFFFFFFF, 0
                if len(pos) + len(neg) < len(la) + len(lb):
                    return super().eq(self._build(kind, pos, cpos), self._build(kind, neg, cneg))
                break
        return super().eq(a, b)

    def _none_of(self, a: Any, memo: dict[int, tuple[Any, Any]] | None = None) -> Any:
        """a == 0 as a condition over the counts `a` is built from, or None.
        (`memo`: the answers per subterm of one call: a chain of selects
        shares its subterms, and walking it as a tree is exponential.)"""
        if memo is None:
            memo = {}
        seen = memo.get(a.get_id())
        if seen is not None:
            return seen[1]
        out = self._none_of_walk(a, memo)
        memo[a.get_id()] = (a, out)
        return out

    def _none_of_walk(self, a: Any, memo: dict[int, tuple[Any, Any]]) -> Any:
        hit = self._counts.get(a.get_id())
        if hit is not None and self.s.same(hit[0], a):
            return False if hit[2] else self.not_b(self.or_b(*hit[1]))
        lin = self._lin.get(a.get_id())
        if lin is not None and lin[1] == "add" and self.s.same(lin[0], a) and lin[3] == 0 and all(
                c > 0 for c in lin[2].values()) and sum(lin[2].values()) * 255 < 1 << 32:
            # [S:atomic-count-sum] counts added with positive coefficients (v_mbcnt_hi over v_mbcnt_lo:
            # the lanes below in both halves): each count is at most 255, so the
            # sum does not wrap and is 0 iff every count is
            parts = []
            for k in lin[2]:
                z = self._none_of(self._leaf[k], memo)
                if z is None:
                    return None
                parts.append(z)
            return self.and_b(*parts)
        if _is_ite(a):
            c, t, f = a.children()
            zt = self._none_of(t, memo) if not z3.is_bv_value(t) else t.as_long() == 0
            zf = self._none_of(f, memo) if not z3.is_bv_value(f) else f.as_long() == 0
            if zt is not None or zf is not None:
                zt = zt if zt is not None else super().eq(t, 0)
                zf = zf if zf is not None else super().eq(f, 0)
                return self.or_b(self.and_b(c, zt), self.and_b(self.not_b(c), zf))
        return None


def under_conjuncts(t: Any, c: Any) -> Any:
    """`t` where condition `c` holds: a select at the top on `c` or on one
    of its conjuncts is its first branch (:func:`under` asks for `c`
    whole): a lane's operand where an instruction runs under a narrowed
    EXEC (EXEC's bit and a compare: the atomic optimizer's one lane) is
    ``ite(exec_i, new, old)``, ``new`` there."""
    if type(t) in (int, bool) or type(c) is bool:
        return t
    parts, todo = set(), [c]
    while todo:
        x = todo.pop()
        if z3.is_and(x):
            todo += x.children()
        parts.add(x.get_id())
    while _is_ite(t) and t.arg(0).get_id() in parts:
        t = t.arg(1)
    return t.as_long() if z3.is_bv_value(t) else t
