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
z3.set_param("smt.random_seed", 0)
z3.set_param("sat.random_seed", 0)


CTX = z3.main_ctx()
_REF = CTX.ref()
_BV32 = z3.BitVecSort(32, CTX)
_CONSTS: dict[int, z3.BitVecRef] = {}


def _bv(a):
    """A value as a z3 term (constants cached)."""
    if type(a) is int:
        c = _CONSTS.get(a)
        if c is None:
            c = _CONSTS[a] = z3.BitVecVal(a, 32, CTX)
        return c
    return a


_TRUE, _FALSE = z3.BoolVal(True, CTX), z3.BoolVal(False, CTX)
_ONE1 = z3.BitVecVal(1, 1, CTX)


def _bool(c):
    # constants are module-level objects: a temporary wrapper could be freed
    # (and its AST released) before the API call that uses its pointer
    if c is True:
        return _TRUE
    if c is False:
        return _FALSE
    return c


def _W(ast):
    return z3.BitVecRef(ast, CTX)


def _WB(ast):
    return z3.BoolRef(ast, CTX)


def _arr(terms):
    n = len(terms)
    arr = (z3.Ast * n)()
    for k, t in enumerate(terms):
        arr[k] = t.as_ast()
    return arr, n


def _same(a, b) -> bool:
    if a is b:
        return True
    ta, tb = type(a), type(b)
    if ta is int or tb is int or ta is bool or tb is bool:
        return ta is tb and a == b
    return z3.Z3_is_eq_ast(_REF, a.as_ast(), b.as_ast())


def _bin(mk, a, b):
    return _W(mk(_REF, _bv(a).as_ast(), _bv(b).as_ast()))


def _cmp(mk, a, b):
    return _WB(mk(_REF, _bv(a).as_ast(), _bv(b).as_ast()))


class Z3(Concrete):
    symbolic = True

    def __init__(self):
        self._bits: dict[int, tuple] = {}
        self._arrays: dict[int, tuple] = {}
        self._lane_of: dict[int, tuple] = {}  # ast id -> (term, register array, lane)

    def fresh_lanes(self, name: str, n: int, cond: bool = False) -> list:
        """A register's entry lanes (or EXEC's bits, cond=True) as reads of
        one unknown array, so that a read at a symbolic lane is a read of
        that array (see select)."""
        arr = z3.Array(name, _BV32, z3.BoolSort(CTX) if cond else _BV32)
        wrap = _WB if cond else _W
        lanes = []
        for k in range(n):
            t = wrap(z3.Z3_mk_select(_REF, arr.as_ast(), _bv(k).as_ast()))
            self._lane_of[t.get_id()] = (t, arr, k)
            lanes.append(t)
        return lanes

    # ---- fresh unknowns -------------------------------------------------
    def fresh(self, name: str):
        return z3.BitVec(name, 32, CTX)

    def fresh_bool(self, name: str):
        return z3.Bool(name, CTX)

    @staticmethod
    def is_const(v) -> bool:
        return type(v) is int or type(v) is bool

    # ---- values -----------------------------------------------------------
    def add(self, a, b):
        if type(a) is int:
            if type(b) is int:
                return (a + b) & 0xFFFFFFFF
            if a == 0:
                return b
        elif type(b) is int and b == 0:
            return a
        return _bin(z3.Z3_mk_bvadd, a, b)

    def sub(self, a, b):
        if type(a) is int and type(b) is int:
            return (a - b) & 0xFFFFFFFF
        if type(b) is int and b == 0:
            return a
        return _bin(z3.Z3_mk_bvsub, a, b)

    def mul(self, a, b):
        if type(a) is int and type(b) is int:
            return (a * b) & 0xFFFFFFFF
        return _bin(z3.Z3_mk_bvmul, a, b)

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
        return _bin(z3.Z3_mk_bvand, a, b)

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
        return _bin(z3.Z3_mk_bvor, a, b)

    def xor(self, a, b):
        if type(a) is int and type(b) is int:
            return a ^ b
        if type(b) is int and b == 0:
            return a
        if type(a) is int and a == 0:
            return b
        return _bin(z3.Z3_mk_bvxor, a, b)

    def not_(self, a):
        if type(a) is int:
            return ~a & 0xFFFFFFFF
        return _W(z3.Z3_mk_bvnot(_REF, a.as_ast()))

    def shl(self, a, n):
        if type(a) is int and type(n) is int:
            return super().shl(a, n)
        if type(n) is int and n == 0:
            return a
        return _bin(z3.Z3_mk_bvshl, a, n)

    def lshr(self, a, n):
        if type(a) is int and type(n) is int:
            return super().lshr(a, n)
        if type(n) is int and n == 0:
            return a
        return _bin(z3.Z3_mk_bvlshr, a, n)

    def ashr(self, a, n):
        if type(a) is int and type(n) is int:
            return super().ashr(a, n)
        return _bin(z3.Z3_mk_bvashr, a, n)

    def umin(self, a, b):
        if type(a) is int and type(b) is int:
            return min(a, b)
        return self.ite(self.ule(a, b), a, b)

    def umax(self, a, b):
        if type(a) is int and type(b) is int:
            return max(a, b)
        return self.ite(self.ule(b, a), a, b)

    def smin(self, a, b):
        if type(a) is int and type(b) is int:
            return super().smin(a, b)
        return self.ite(self.sle(a, b), a, b)

    def smax(self, a, b):
        if type(a) is int and type(b) is int:
            return super().smax(a, b)
        return self.ite(self.sle(b, a), a, b)

    # ---- comparisons ------------------------------------------------------
    def eq(self, a, b):
        if type(a) is int and type(b) is int:
            return a == b
        if _same(a, b):
            return True
        return _cmp(z3.Z3_mk_eq, a, b)

    def ne(self, a, b):
        return self.not_b(self.eq(a, b))

    def ult(self, a, b):
        if type(a) is int and type(b) is int:
            return a < b
        return _cmp(z3.Z3_mk_bvult, a, b)

    def ule(self, a, b):
        if type(a) is int and type(b) is int:
            return a <= b
        return _cmp(z3.Z3_mk_bvule, a, b)

    def slt(self, a, b):
        if type(a) is int and type(b) is int:
            return super().slt(a, b)
        return _cmp(z3.Z3_mk_bvslt, a, b)

    def sle(self, a, b):
        if type(a) is int and type(b) is int:
            return super().sle(a, b)
        return _cmp(z3.Z3_mk_bvsle, a, b)

    # ---- conditions -------------------------------------------------------
    def ite(self, c, a, b):
        if c is True:
            return a
        if c is False:
            return b
        if _same(a, b):
            return a
        if type(a) is bool or type(b) is bool or (type(a) is not int and z3.is_bool(a)):
            return _WB(z3.Z3_mk_ite(_REF, c.as_ast(), _bool(a).as_ast(), _bool(b).as_ast()))
        return _W(z3.Z3_mk_ite(_REF, c.as_ast(), _bv(a).as_ast(), _bv(b).as_ast()))

    def and_b(self, *cs):
        rest = []
        for c in cs:
            if c is False:
                return False
            if c is not True:
                rest.append(c)
        if not rest:
            return True
        if len(rest) == 1:
            return rest[0]
        arr, n = _arr(rest)
        return _WB(z3.Z3_mk_and(_REF, n, arr))

    def or_b(self, *cs):
        rest = []
        for c in cs:
            if c is True:
                return True
            if c is not False:
                rest.append(c)
        if not rest:
            return False
        if len(rest) == 1:
            return rest[0]
        arr, n = _arr(rest)
        return _WB(z3.Z3_mk_or(_REF, n, arr))

    def not_b(self, c):
        if type(c) is bool:
            return not c
        return _WB(z3.Z3_mk_not(_REF, c.as_ast()))

    def bit(self, a, k: int):
        if type(a) is int:
            return (a >> k) & 1 == 1
        hit = self._bits.get(a.get_id())
        if hit is not None and _same(hit[0], a):
            return hit[1][k]
        ext = _W(z3.Z3_mk_extract(_REF, k, k, a.as_ast()))
        return _WB(z3.Z3_mk_eq(_REF, ext.as_ast(), _ONE1.as_ast()))

    def from_bits(self, bits):
        bits = list(bits) + [False] * (32 - len(bits))
        if all(type(b) is bool for b in bits):
            return super().from_bits(bits)
        one, zero = z3.BitVecVal(1, 1, CTX), z3.BitVecVal(0, 1, CTX)
        parts = [z3.If(b, one, zero) if type(b) is not bool else (one if b else zero) for b in reversed(bits)]
        v = z3.Concat(*parts)
        self._bits[v.get_id()] = (v, tuple(bits))
        return v

    def bool_value(self, c):
        return self.ite(c, 1, 0)

    def decide(self, c):
        if type(c) is bool:
            return c
        r = z3.simplify(c)
        if z3.is_true(r):
            return True
        if z3.is_false(r):
            return False
        return c

    def select(self, vals, idx):
        """vals[idx]; a symbolic index reads a z3 array built once per list."""
        if type(idx) is int:
            return vals[idx]
        first = vals[0]
        if all(_same(v, first) for v in vals):
            return first
        read = self._as_read(vals, idx)
        if read is not None:
            return read
        hit = self._arrays.get(id(vals))
        if hit is None or hit[0] is not vals:
            is_b = type(first) is bool or (type(first) is not int and z3.is_bool(first))
            conv = _bool if is_b else _bv
            arr = z3.K(_BV32, conv(vals[-1]))
            for k, v in enumerate(vals[:-1]):
                arr = z3.Store(arr, _bv(k), conv(v))
            hit = self._arrays[id(vals)] = (vals, arr, is_b)
        ast = z3.Z3_mk_select(_REF, hit[1].as_ast(), _bv(idx).as_ast())
        return _WB(ast) if hit[2] else _W(ast)

    def _as_read(self, vals, idx):
        """If every vals[k] is entry lane c_k of one register, vals[idx] is
        that register's array read at c(idx): lane data never has to be
        compared bit by bit, only lane indices."""
        src = None
        lanes = []
        for v in vals:
            if type(v) is int or type(v) is bool:
                return None
            hit = self._lane_of.get(v.get_id())
            if hit is None or not _same(hit[0], v):
                return None
            if src is None:
                src = hit[1]
            elif not _same(hit[1], src):
                return None
            lanes.append(hit[2])
        if all(c == k for k, c in enumerate(lanes)):
            at = idx
        elif all(c == k ^ lanes[0] for k, c in enumerate(lanes)):
            at = self.xor(idx, lanes[0])
        else:
            at = lanes[-1]
            for k in range(len(lanes) - 2, -1, -1):
                at = self.ite(self.eq(idx, k), lanes[k], at)
        ast = z3.Z3_mk_select(_REF, src.as_ast(), _bv(at).as_ast())
        return _WB(ast) if z3.is_bool(vals[0]) else _W(ast)

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


class Evaluator:
    """Values of terms when their unknowns take the values in `env` (name ->
    int, or bool for condition unknowns).  Tests use it to hold the concrete
    and symbolic backends together."""

    def __init__(self, env: dict):
        s = z3.SimpleSolver(ctx=CTX)
        for name, val in env.items():
            if type(val) is bool:
                s.add(z3.Bool(name, CTX) == val)
            else:
                s.add(z3.BitVec(name, 32, CTX) == val)
        assert s.check() == z3.sat
        self.model = s.model()

    def __call__(self, term):
        if type(term) in (int, bool):
            return term
        r = self.model.eval(term, model_completion=True)
        if z3.is_bool(r):
            return z3.is_true(r)
        return r.as_long()


def _tactic():
    # Contextual simplification first: a lane's value is an ite tree over EXEC
    # bits, and under the mismatch's own guard (lane active, source active)
    # it collapses; bit-blasting the raw trees is ~500x slower.
    return z3.Then("simplify", "ctx-simplify", "smt")


class Query:
    """Solver questions over a stack of assertions, each check a fresh
    solver with a timeout and a fixed seed."""

    def __init__(self, timeout_s: float, seed: int = 0):
        self.timeout_ms = max(1, int(timeout_s * 1000))
        self.seed = seed
        self.assertions: list = []
        self.marks: list[int] = []
        self.model = None
        self.reason = ""
        self.last = None

    def add(self, cond) -> None:
        if cond is True:
            return
        self.assertions.append(z3.BoolVal(False) if cond is False else cond)

    def push(self) -> None:
        self.marks.append(len(self.assertions))

    def pop(self) -> None:
        del self.assertions[self.marks.pop():]

    def check(self, timeout_s: float | None = None) -> str:
        s = _tactic().solver()
        s.set("timeout", self.timeout_ms if timeout_s is None else max(1, int(timeout_s * 1000)))
        s.set("random_seed", self.seed)
        s.add(*self.assertions)
        self.last = s
        r = s.check()
        if r == z3.sat:
            self.model = s.model()
            return "sat"
        self.model = None
        if r == z3.unsat:
            return "unsat"
        self.reason = s.reason_unknown()
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
        s = z3.Solver()
        s.add(*self.assertions)
        return s.to_smt2()


def is_false(cond) -> bool:
    return cond is False


def same(a, b) -> bool:
    return _same(a, b)
