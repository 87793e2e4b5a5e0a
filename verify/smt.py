"""The only module that imports z3: the symbolic backend and the solver.

:class:`Z3` implements the backend protocol on z3 bit-vectors, folding every
operation whose operands are constants through the concrete backend, so
lane-index arithmetic, constant controls and a constant EXEC never reach the
solver.  :class:`Query` wraps one solver call with a timeout and a fixed
seed, and answers in plain Python (``"sat"``, ``"unsat"``, ``"unknown"``,
ints and bools); z3 objects never leave this module except as opaque terms.
"""

from __future__ import annotations

import z3

from .backend import Concrete

SOLVER = f"z3 {z3.get_version_string()}"


def _bv(a):
    return z3.BitVecVal(a, 32) if type(a) is int else a


def _same(a, b) -> bool:
    if a is b:
        return True
    if type(a) is int or type(b) is int or type(a) is bool or type(b) is bool:
        return a == b and type(a) is type(b)
    return a.eq(b)


class Z3(Concrete):
    symbolic = True

    def __init__(self):
        self._bits: dict[int, tuple] = {}

    # ---- fresh unknowns -------------------------------------------------
    def fresh(self, name: str):
        return z3.BitVec(name, 32)

    def fresh_bool(self, name: str):
        return z3.Bool(name)

    @staticmethod
    def is_const(v) -> bool:
        return type(v) is int or type(v) is bool

    @staticmethod
    def is_bool(v) -> bool:
        return type(v) is bool or z3.is_bool(v)

    # ---- values -----------------------------------------------------------
    def add(self, a, b):
        if type(a) is int:
            if type(b) is int:
                return (a + b) & 0xFFFFFFFF
            if a == 0:
                return b
        elif type(b) is int and b == 0:
            return a
        return _bv(a) + _bv(b)

    def sub(self, a, b):
        if type(a) is int and type(b) is int:
            return (a - b) & 0xFFFFFFFF
        if type(b) is int and b == 0:
            return a
        return _bv(a) - _bv(b)

    def mul(self, a, b):
        if type(a) is int and type(b) is int:
            return (a * b) & 0xFFFFFFFF
        return _bv(a) * _bv(b)

    def and_(self, a, b):
        if type(a) is int and type(b) is int:
            return a & b
        if type(a) is int:
            a, b = b, a
        if type(b) is int:
            if b == 0:
                return 0
            if b == 0xFFFFFFFF:
                return a
        return _bv(a) & _bv(b)

    def or_(self, a, b):
        if type(a) is int and type(b) is int:
            return a | b
        if type(a) is int:
            a, b = b, a
        if type(b) is int:
            if b == 0:
                return a
            if b == 0xFFFFFFFF:
                return b
        return _bv(a) | _bv(b)

    def xor(self, a, b):
        if type(a) is int and type(b) is int:
            return a ^ b
        if type(b) is int and b == 0:
            return a
        if type(a) is int and a == 0:
            return b
        return _bv(a) ^ _bv(b)

    def not_(self, a):
        return ~a & 0xFFFFFFFF if type(a) is int else ~a

    def shl(self, a, n):
        if type(a) is int and type(n) is int:
            return super().shl(a, n)
        if type(n) is int and n == 0:
            return a
        return _bv(a) << _bv(n)

    def lshr(self, a, n):
        if type(a) is int and type(n) is int:
            return super().lshr(a, n)
        if type(n) is int and n == 0:
            return a
        return z3.LShR(_bv(a), _bv(n))

    def ashr(self, a, n):
        if type(a) is int and type(n) is int:
            return super().ashr(a, n)
        return _bv(a) >> _bv(n)

    def umin(self, a, b):
        if type(a) is int and type(b) is int:
            return min(a, b)
        return z3.If(z3.ULE(_bv(a), _bv(b)), _bv(a), _bv(b))

    def umax(self, a, b):
        if type(a) is int and type(b) is int:
            return max(a, b)
        return z3.If(z3.UGE(_bv(a), _bv(b)), _bv(a), _bv(b))

    def smin(self, a, b):
        if type(a) is int and type(b) is int:
            return super().smin(a, b)
        return z3.If(_bv(a) <= _bv(b), _bv(a), _bv(b))

    def smax(self, a, b):
        if type(a) is int and type(b) is int:
            return super().smax(a, b)
        return z3.If(_bv(a) >= _bv(b), _bv(a), _bv(b))

    # ---- comparisons ------------------------------------------------------
    def eq(self, a, b):
        if type(a) is int and type(b) is int:
            return a == b
        if _same(a, b):
            return True
        return _bv(a) == _bv(b)

    def ne(self, a, b):
        return self.not_b(self.eq(a, b))

    def ult(self, a, b):
        if type(a) is int and type(b) is int:
            return a < b
        return z3.ULT(_bv(a), _bv(b))

    def ule(self, a, b):
        if type(a) is int and type(b) is int:
            return a <= b
        return z3.ULE(_bv(a), _bv(b))

    def slt(self, a, b):
        if type(a) is int and type(b) is int:
            return super().slt(a, b)
        return _bv(a) < _bv(b)

    def sle(self, a, b):
        if type(a) is int and type(b) is int:
            return super().sle(a, b)
        return _bv(a) <= _bv(b)

    # ---- conditions -------------------------------------------------------
    def ite(self, c, a, b):
        if c is True:
            return a
        if c is False:
            return b
        if _same(a, b):
            return a
        if type(a) is bool or type(b) is bool or (not type(a) is int and z3.is_bool(a)):
            return z3.If(c, z3.BoolVal(a) if type(a) is bool else a, z3.BoolVal(b) if type(b) is bool else b)
        return z3.If(c, _bv(a), _bv(b))

    def and_b(self, *cs):
        rest = []
        for c in cs:
            if c is False:
                return False
            if c is not True:
                rest.append(c)
        if not rest:
            return True
        return rest[0] if len(rest) == 1 else z3.And(*rest)

    def or_b(self, *cs):
        rest = []
        for c in cs:
            if c is True:
                return True
            if c is not False:
                rest.append(c)
        if not rest:
            return False
        return rest[0] if len(rest) == 1 else z3.Or(*rest)

    def not_b(self, c):
        if type(c) is bool:
            return not c
        return z3.Not(c)

    def bit(self, a, k: int):
        if type(a) is int:
            return (a >> k) & 1 == 1
        hit = self._bits.get(a.get_id())
        if hit is not None and hit[0].eq(a):
            return hit[1][k]
        return z3.Extract(k, k, a) == 1

    def from_bits(self, bits):
        bits = list(bits) + [False] * (32 - len(bits))
        if all(type(b) is bool for b in bits):
            return super().from_bits(bits)
        one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
        parts = [z3.If(b, one, zero) if type(b) is not bool else (one if b else zero) for b in reversed(bits)]
        v = z3.Concat(*parts)
        self._bits[v.get_id()] = (v, tuple(bits))
        return v

    def bool_value(self, c):
        return self.ite(c, 1, 0)

    def select(self, vals, idx):
        if type(idx) is int:
            return vals[idx]
        r = vals[-1]
        for k in range(len(vals) - 2, -1, -1):
            r = self.ite(self.eq(idx, k), vals[k], r)
        return r

    def at_most(self, conds, k: int):
        conds = [c for c in conds if c is not False]
        if any(c is True for c in conds):
            k -= sum(1 for c in conds if c is True)
            conds = [c for c in conds if c is not True]
            if k < 0:
                return False
        if not conds:
            return True
        return z3.AtMost(*conds, k)


class Query:
    """One solver question with a timeout and a fixed seed."""

    def __init__(self, timeout_s: float, seed: int = 0):
        self.s = z3.SolverFor("QF_BV")
        self.s.set("timeout", max(1, int(timeout_s * 1000)))
        self.s.set("random_seed", seed)
        self.model = None
        self.reason = ""

    def add(self, cond) -> None:
        if cond is True:
            return
        self.s.add(z3.BoolVal(False) if cond is False else cond)

    def push(self) -> None:
        self.s.push()

    def pop(self) -> None:
        self.s.pop()

    def check(self) -> str:
        r = self.s.check()
        if r == z3.sat:
            self.model = self.s.model()
            return "sat"
        self.model = None
        if r == z3.unsat:
            return "unsat"
        self.reason = self.s.reason_unknown()
        return "unknown"

    def value(self, term) -> int:
        if type(term) is int:
            return term
        return self.model.eval(term, model_completion=True).as_long()

    def truth(self, cond) -> bool:
        if type(cond) is bool:
            return cond
        return z3.is_true(self.model.eval(cond, model_completion=True))

    def smt2(self) -> str:
        return self.s.to_smt2()


def is_false(cond) -> bool:
    return cond is False


def same(a, b) -> bool:
    return _same(a, b)
