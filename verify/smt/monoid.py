"""The monoid encoding of reductions and scans (:class:`Z3Monoid`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..identities import FOLDS
from .terms import Z3, Session, z3

# ---------------------------------------------------------------------------
# The monoid encoding for reductions and scans.  [S:monoid-encoding]
#
# When a spec combines lanes with one associative, commutative operator OP,
# every value the lowering computes by moves and OP from lane values is an
# OP-combination of entry lane values (leaves) plus a constant.  A Bag keeps
# exactly that: for each leaf its multiplicity (add: mod 2**32, fadd, mul:
# exact count; xor: parity; and, or, min, max, fmin, fmax: presence) as a
# term over the EXEC bits, and the constant part.  Two bags over distinct
# entry lanes denote the same value for every input exactly when their
# multiplicities and constants agree (docs/semantics.md proves each case), so
# the solver compares small counters instead of 64 bit-blasted 32-bit
# min/max trees.  Anything else that touches a bag gets its ordinary value
# (lowered), so the encoding never changes the meaning of a program.

_COUNT_LIMIT = 1 << 29  # exact counts beyond this could alias: fall back


class Bag:
    __slots__ = ("bound", "const", "items")

    def __init__(self, items: dict[int, tuple[Any, Any]], const: Any, bound: int):
        self.items = items  # ast id -> (leaf term, multiplicity)
        self.const = const  # int or z3 term
        self.bound = bound  # upper bound of any multiplicity (Python int)


class Z3Monoid:
    """The backend protocol with OP-combinations of lane values kept as Bags.

    Every operation is written out: OP combines bags; anything else gets the
    ordinary values (lowered) and is asked of a plain :class:`Z3` backend,
    which also holds the register arrays, the caches and the Session."""

    symbolic = True

    def __init__(self, op: str, session: Session | None = None):
        self.z = Z3(session)
        self.op = op
        row = FOLDS[op]
        assert row.identity is not None and row.count is not None
        self.meth: str = row.method
        self.ident: int = row.identity
        self.absorb: int | None = row.absorbing
        self.kind: str = row.count
        self._to_bag: dict[int, tuple[Any, Bag]] = {}
        self._base_op = getattr(self.z, self.meth)

    @property
    def session(self) -> Session:
        return self.z.s

    # -- multiplicities -------------------------------------------------------
    def _zero(self) -> Any:
        return 0 if self.kind in ("count32", "countexact") else False

    def _one(self) -> Any:
        return 1 if self.kind in ("count32", "countexact") else True

    def _cadd(self, a: Any, b: Any) -> Any:
        if self.kind in ("count32", "countexact"):
            return self.z.add(a, b)
        if self.kind == "parity":
            if type(a) is bool and type(b) is bool:
                return a != b
            return z3.Xor(self.z.s.boolean(a), self.z.s.boolean(b))
        return self.z.or_b(a, b)

    # -- bags -----------------------------------------------------------------
    def bag(self, v: Any) -> Bag | None:
        if isinstance(v, Bag):
            return v
        if type(v) is bool:
            return None
        if type(v) is int:
            return Bag({}, v, 0)
        hit = self._to_bag.get(v.get_id())
        if hit is not None and self.z.s.same(hit[0], v):
            return hit[1]
        if z3.is_bool(v) or v.sort() != self.z.s.bv32:
            return None
        if z3.is_bv_value(v):
            return Bag({}, v.as_long(), 0)
        if z3.is_app_of(v, z3.Z3_OP_ITE):
            c, a, b = v.children()
            ba, bb = self.bag(a), self.bag(b)
            out = self._ite_bag(c, ba, bb) if ba is not None and bb is not None else Bag({v.get_id(): (v, 1 if self.kind in ("count32", "countexact") else True)}, self.ident, 1)
        else:
            out = Bag({v.get_id(): (v, self._one())}, self.ident, 1)
        self._to_bag[v.get_id()] = (v, out)
        return out

    def _norm(self, b: Bag) -> Any:
        if b.bound >= _COUNT_LIMIT and self.kind == "countexact":
            return self.lower(b)
        if self.absorb is not None and type(b.const) is int and b.const == self.absorb:
            return self.absorb
        if not b.items:
            return b.const
        return b

    def _ite_bag(self, c: Any, a: Bag, b: Bag) -> Bag:
        items = {}
        zero = self._zero()
        for k in set(a.items) | set(b.items):
            ta, ca = a.items.get(k, (None, zero))
            tb, cb = b.items.get(k, (None, zero))
            items[k] = (ta if ta is not None else tb, self.z.ite(c, ca, cb))
        return Bag(items, self.z.ite(c, a.const, b.const), max(a.bound, b.bound))

    def combine(self, a: Any, b: Any) -> Any:
        ba, bb = self.bag(a), self.bag(b)
        if ba is None or bb is None:
            return self._base_op(self.lower(a), self.lower(b))
        items = dict(ba.items)
        for k, (t, cnt) in bb.items.items():
            items[k] = (t, self._cadd(items[k][1], cnt)) if k in items else (t, cnt)
        const = self._base_op(ba.const, bb.const)
        bound = ba.bound + bb.bound if self.kind == "countexact" else 1
        return self._norm(Bag(items, const, bound))

    def lower(self, v: Any) -> Any:
        """The ordinary value of a bag: its leaves combined with OP."""
        if not isinstance(v, Bag):
            return v
        acc = v.const
        for _, (t, cnt) in sorted(v.items.items()):
            if self.kind in ("presence", "parity"):
                acc = self._base_op(acc, self.z.ite(cnt, t, self.ident))
            elif self.op == "add":
                acc = self.z.add(acc, self.z.mul(t, cnt))
            elif self.op == "fadd":  # a multiset of f32 summands has no single value
                raise NotMonoid("an f32 sum is used other than by adding it up; the reassociation "
                                "claim does not apply (use the exact-tree spec)")
            else:  # mul: count small and bounded
                for k in range(1, v.bound + 1):
                    acc = self._base_op(acc, self.z.ite(self.z.ule(k, cnt), t, self.ident))
        return acc

    def _canonical(self, b: Bag) -> bool:
        lane_of = self.z._lane_of
        same = self.z.s.same
        return all(lane_of.get(k) is not None and same(lane_of[k][0], t) for k, (t, _) in b.items.items())

    def bag_ne(self, a: Bag, b: Bag) -> Any:
        """a and b denote different values for some inputs."""
        zero = self._zero()
        diffs = []
        for k in set(a.items) | set(b.items):
            ca = a.items.get(k, (None, zero))[1]
            cb = b.items.get(k, (None, zero))[1]
            diffs.append(self.z.ne(ca, cb) if self.kind in ("count32", "countexact") else self.z.not_b(_xnor(self.z.s, ca, cb)))
        leaves_differ = self.z.or_b(*diffs)
        const_differ = self.z.ne(a.const, b.const)
        if self.absorb is not None:
            leaves_differ = self.z.and_b(leaves_differ, self.z.ne(a.const, self.absorb))
        return self.z.or_b(const_differ, leaves_differ)

    # -- the backend protocol ---------------------------------------------------
    # unknowns and conditions: as on Z3 (conditions are never bags)
    def fresh(self, name: str) -> Any:
        return self.z.fresh(name)

    def fresh_bool(self, name: str) -> Any:
        return self.z.fresh_bool(name)

    def fresh_lanes(self, name: str, n: int, cond: bool = False) -> list[Any]:
        return self.z.fresh_lanes(name, n, cond)

    def at_most(self, conds: Sequence[Any], k: int) -> Any:
        return self.z.at_most(conds, k)

    def const(self, n: int) -> int:
        return n & 0xFFFFFFFF

    def and_b(self, *cs: Any) -> Any:
        return self.z.and_b(*cs)

    def or_b(self, *cs: Any) -> Any:
        return self.z.or_b(*cs)

    def any_bit(self, *ws: Any) -> Any:
        return self.z.any_bit(*(self.lower(w) for w in ws))

    def not_b(self, c: Any) -> Any:
        return self.z.not_b(c)

    def from_bits(self, bits: Sequence[Any]) -> Any:
        return self.z.from_bits(bits)

    def popcount(self, conds: Sequence[Any]) -> Any:
        return self.z.popcount(conds)

    def decide(self, c: Any) -> Any:
        return self.z.decide(self.lower(c))

    def under(self, t: Any, c: Any) -> Any:
        return t  # (a bag stays as it is: `t` is always right)

    def lane_twins(self, conds: Sequence[Any]) -> list[int | None]:
        return [None] * len(conds)  # (not looked for: a bag's lanes are not plain terms)

    def same(self, a: Any, b: Any) -> bool:
        return self.z.same(self.lower(a), self.lower(b))

    def bool_value(self, c: Any) -> Any:
        return self.z.bool_value(self.lower(c))

    # the operations OP may be: combine when it is OP, else lower
    def add(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "add" else self.z.add(self.lower(a), self.lower(b))

    def mul(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "mul" else self.z.mul(self.lower(a), self.lower(b))

    def and_(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "and_" else self.z.and_(self.lower(a), self.lower(b))

    def or_(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "or_" else self.z.or_(self.lower(a), self.lower(b))

    def xor(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "xor" else self.z.xor(self.lower(a), self.lower(b))

    def umin(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "umin" else self.z.umin(self.lower(a), self.lower(b))

    def umax(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "umax" else self.z.umax(self.lower(a), self.lower(b))

    def smin(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "smin" else self.z.smin(self.lower(a), self.lower(b))

    def smax(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "smax" else self.z.smax(self.lower(a), self.lower(b))

    def fadd(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "fadd" else self.z.fadd(self.lower(a), self.lower(b))

    def fmin(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "fmin" else self.z.fmin(self.lower(a), self.lower(b))

    def fmax(self, a: Any, b: Any) -> Any:
        return self.combine(a, b) if self.meth == "fmax" else self.z.fmax(self.lower(a), self.lower(b))

    # everything else sees ordinary values
    def sub(self, a: Any, b: Any) -> Any:
        return self.z.sub(self.lower(a), self.lower(b))

    def not_(self, a: Any) -> Any:
        return self.z.not_(self.lower(a))

    def shl(self, a: Any, n: Any) -> Any:
        return self.z.shl(self.lower(a), self.lower(n))

    def lshr(self, a: Any, n: Any) -> Any:
        return self.z.lshr(self.lower(a), self.lower(n))

    def ashr(self, a: Any, n: Any) -> Any:
        return self.z.ashr(self.lower(a), self.lower(n))

    def ult(self, a: Any, b: Any) -> Any:
        return self.z.ult(self.lower(a), self.lower(b))

    def ule(self, a: Any, b: Any) -> Any:
        return self.z.ule(self.lower(a), self.lower(b))

    def slt(self, a: Any, b: Any) -> Any:
        return self.z.slt(self.lower(a), self.lower(b))

    def sle(self, a: Any, b: Any) -> Any:
        return self.z.sle(self.lower(a), self.lower(b))

    def fis_nan(self, a: Any) -> Any:
        return self.z.fis_nan(self.lower(a))

    def bit(self, a: Any, k: int) -> Any:
        return self.z.bit(self.lower(a), k)

    # bag-aware
    def ite(self, c: Any, a: Any, b: Any) -> Any:
        if c is True:
            return a
        if c is False:
            return b
        if isinstance(a, Bag) or isinstance(b, Bag):
            ba, bb = self.bag(a), self.bag(b)
            if ba is not None and bb is not None:
                return self._norm(self._ite_bag(c, ba, bb))
            return self.z.ite(c, self.lower(a), self.lower(b))
        return self.z.ite(c, a, b)

    def eq(self, a: Any, b: Any) -> Any:
        if isinstance(a, Bag) or isinstance(b, Bag):
            ba, bb = self.bag(a), self.bag(b)
            if ba is not None and bb is not None and self._canonical(ba) and self._canonical(bb):
                return self.z.not_b(self.bag_ne(ba, bb))
            return self.z.eq(self.lower(a), self.lower(b))
        return self.z.eq(a, b)

    def ne(self, a: Any, b: Any) -> Any:
        return self.not_b(self.eq(a, b))

    def feq(self, a: Any, b: Any) -> Any:
        if isinstance(a, Bag) or isinstance(b, Bag):
            return self.eq(a, b)  # same multiset of summands: the reassociation claim
        return self.z.feq(a, b)

    def select(self, vals: Sequence[Any], idx: Any) -> Any:
        if any(isinstance(v, Bag) for v in vals):
            if type(idx) is int:
                return vals[idx]
            vals = [self.lower(v) for v in vals]
        return self.z.select(vals, idx)


class NotMonoid(Exception):
    pass


def _xnor(s: Session, a: Any, b: Any) -> Any:
    if type(a) is bool and type(b) is bool:
        return a == b
    return s.boolean(a) == s.boolean(b)


def monoid_backend(op: str, session: Session | None = None) -> Z3Monoid:
    return Z3Monoid(op, session)
