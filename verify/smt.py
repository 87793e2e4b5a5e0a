"""The only module that imports z3: the symbolic backend and the solver.

:class:`Z3` implements the backend protocol on z3 bit-vectors, folding every
operation whose operands are constants through the concrete backend, so
lane-index arithmetic, constant controls and a constant EXEC never reach the
solver.  :class:`Query` wraps one solver call with a timeout and a fixed
seed, and answers in plain Python (``"sat"``, ``"unsat"``, ``"unknown"``,
ints and bools); z3 objects never leave this module except as opaque terms.
Each proof makes its terms in a :class:`Session` (a z3 context) of its own,
so that what it answers depends on its input only, never on what ran
before in the process.
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import z3

from .backend import (
    FP_FORMATS,
    FP_QNAN,
    QNAN,
    ashr32,
    bits_value,
    f32_is_nan,
    fadd32,
    feq32,
    fmax32,
    fmin32,
    lshr32,
    shl32,
    sle32,
    slt32,
    smax32,
    smin32,
)
from .identities import F32_NEG_ZERO, FOLDS

SOLVER = f"z3 {z3.get_version_string()}"
z3.set_param("smt.random_seed", 0)
z3.set_param("sat.random_seed", 0)


def _keep_freed_memory() -> None:
    """Making a z3 context touches about 16 MB, which glibc hands back to the
    system when the context is deleted; with a context per proof every proof
    would fault it in again (~15 ms, more than a small proof takes).  Keeping
    64 MB of freed heap in the process makes a context cost ~2 ms.  A no-op
    where the C library has no mallopt."""
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(ctypes.c_int(-2), ctypes.c_int(64 << 20))  # M_TOP_PAD
    except (OSError, AttributeError):
        pass


_keep_freed_memory()


class Session:
    """One z3 context and the constants cached in it: every term of one proof
    (or of one other top-level solver use) is made in its own Session, so
    that term ids, hash-consing and therefore the solver's models depend on
    that proof's input alone, not on what ran before in the process.  No z3
    object may cross into another Session (z3 raises on a sort or context
    mismatch); the backend and the Query of one proof share one.

    Raw-API helpers (`bin`, `cmp`, `W`, `WB`) skip the Python layer's
    argument checks on hot paths; constants are held here so that a
    temporary wrapper is never freed (and its AST released) before the API
    call that uses its pointer."""

    __slots__ = ("bv32", "consts", "ctx", "defs", "f32", "false", "one1", "ref", "rne", "true", "zero1")

    def __init__(self) -> None:
        self.ctx = z3.Context()
        self.ref = self.ctx.ref()
        self.bv32 = z3.BitVecSort(32, self.ctx)
        self.consts: dict[int, z3.BitVecRef] = {}
        # what the unknowns made to stand for terms (Z3's lane arrays) are
        # defined to be: true of every term of the session, and part of
        # every question a Query of the session asks
        self.defs: list[Any] = []
        self.true, self.false = z3.BoolVal(True, self.ctx), z3.BoolVal(False, self.ctx)
        self.f32 = z3.Float32(self.ctx)
        self.rne = z3.RNE(self.ctx)
        self.one1 = z3.BitVecVal(1, 1, self.ctx)
        self.zero1 = z3.BitVecVal(0, 1, self.ctx)

    def bv(self, a: Any) -> Any:
        """A value as a z3 term (constants cached)."""
        if type(a) is int:
            c = self.consts.get(a)
            if c is None:
                c = self.consts[a] = z3.BitVecVal(a, 32, self.ctx)
            return c
        return a

    def boolean(self, c: Any) -> Any:
        if c is True:
            return self.true
        if c is False:
            return self.false
        return c

    def fp(self, a: Any) -> Any:
        return z3.fpBVToFP(self.bv(a), self.f32, self.ctx)

    def W(self, ast: Any) -> Any:
        return z3.BitVecRef(ast, self.ctx)

    def WB(self, ast: Any) -> Any:
        return z3.BoolRef(ast, self.ctx)

    def same(self, a: Any, b: Any) -> bool:
        if a is b:
            return True
        ta, tb = type(a), type(b)
        if ta is int or tb is int or ta is bool or tb is bool:
            return ta is tb and a == b
        return bool(z3.Z3_is_eq_ast(self.ref, a.as_ast(), b.as_ast()))

    def bin(self, mk: Any, a: Any, b: Any) -> Any:
        return z3.BitVecRef(mk(self.ref, self.bv(a).as_ast(), self.bv(b).as_ast()), self.ctx)

    def cmp(self, mk: Any, a: Any, b: Any) -> Any:
        return z3.BoolRef(mk(self.ref, self.bv(a).as_ast(), self.bv(b).as_ast()), self.ctx)

    def owns(self, term: Any) -> bool:
        """`term` is a Python constant or was made in this Session."""
        return type(term) in (int, bool) or term.ctx is self.ctx


def _canon2(a: Any, b: Any) -> tuple[Any, Any]:
    ka = -1 if type(a) is int else a.get_id()
    kb = -1 if type(b) is int else b.get_id()
    return (a, b) if (ka, a if type(a) is int else 0) <= (kb, b if type(b) is int else 0) else (b, a)


def _is_ite(v: Any) -> bool:
    """`v` (a z3 term) is an if-then-else: ``z3.is_app_of(v, Z3_OP_ITE)`` in
    three C calls instead of its Python layers (a hot path: every equality
    asks it of both sides)."""
    ref = v.ctx.ref()
    a = v.as_ast()
    return (z3.Z3_get_ast_kind(ref, a) == z3.Z3_APP_AST
            and z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, a)) == z3.Z3_OP_ITE)


def _arg(v: Any, k: int) -> Any:
    """The AST of argument `k` of application `v` (one C call: ``v.arg(k)``
    wraps it in Python and checks it, a hot path's cost)."""
    return z3.Z3_get_app_arg(v.ctx.ref(), v.as_ast(), k)


def _arg_is(v: Any, k: int, t: Any) -> bool:
    """Argument `k` of application `v` is the term `t`."""
    return bool(z3.Z3_is_eq_ast(v.ctx.ref(), _arg(v, k), t.as_ast()))


def _is_bit_select(v: Any, ite: bool | None = None) -> bool:
    """`v` is an int or ``ite(c, k1, k0)`` with constants that differ in one
    bit (the spec's ``(1 << j) if cond else 0``); `ite`: whether `v` is a
    select, where the caller knows."""
    if type(v) is int:
        return True
    if not (_is_ite(v) if ite is None else ite):
        return False
    ref = v.ctx.ref()
    a = v.as_ast()
    kt, kf = _bv_numeral(ref, z3.Z3_get_app_arg(ref, a, 1)), _bv_numeral(ref, z3.Z3_get_app_arg(ref, a, 2))
    if kt is None or kf is None:
        return False
    d = kt ^ kf
    return d != 0 and d & (d - 1) == 0


def _bv_numeral(ref: Any, a: Any) -> int | None:
    """The value of AST `a` if it is a bit-vector constant (C calls only:
    ``z3.is_bv_value`` and ``as_long`` on a wrapper are a hot path's cost)."""
    if not z3.Z3_is_numeral_ast(ref, a) or z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, a)) != z3.Z3_BV_SORT:
        return None
    return int(z3.Z3_get_numeral_string(ref, a))


def _arr(terms: Sequence[Any]) -> tuple[Any, int]:
    n = len(terms)
    arr = (z3.Ast * n)()
    for k, t in enumerate(terms):
        arr[k] = t.as_ast()
    return arr, n


class Z3:
    """The backend protocol (verify/backend.py, :class:`~verify.backend.Symbolic`)
    on z3 terms; constant operands fold to Python ints.  Its terms live in
    `session` (a fresh one if none is given)."""

    symbolic = True

    def __init__(self, session: Session | None = None, abstract_fadd: str = "", aci: bool = False,
                 canon_eq: bool = True, lane_arrays: bool = False) -> None:
        self.s = session if session is not None else Session()
        # lane_arrays: a list read at a symbolic lane is an unknown array
        # defined lane by lane (see _select_planned; verify.tv's kernel proofs)
        self.lane_arrays = lane_arrays
        # canon_eq: x == y and y == x one term (the lane-mask votes need it;
        # verify.tv's kernel proofs turn it off: the atomic optimizer's
        # questions ran out of time with it)
        self.canon_eq = canon_eq
        # aci: umin/umax/smin/smax terms kept in a canonical form (see _aci)
        self.aci = aci
        # a canonical min/max nest by ast id: (term, kind, leaves, constant, leaf
        # ids in chain order, the chain over the first k+1 leaves at k)
        self._mm: dict[int, tuple[Any, str, dict[int, Any], int | None, list[int], list[Any]]] = {}
        # _aci's answers by (kind, operand ids), the operands kept so their ids stay theirs
        self._aci_memo: dict[tuple[str, Any, Any], tuple[Any, Any, Any]] = {}
        # abstract_fadd "as-is" / "canonical" (operands in canonical order):
        # fadd is an unknown commutative function except where its exact value
        # is plain (see _fadd_abstract); refine uses it to PROVE only
        self.abstract_fadd = abstract_fadd
        self._sums: set[int] = set()  # ast ids of abstract fadd results (see _fadd_abstract)
        self.axioms: list[Any] = []  # what the abstract fadd's unknown function is known to satisfy
        self._bits: dict[int, tuple[Any, ...]] = {}
        self._masks: dict[tuple[Any, ...], tuple[Any, tuple[Any, ...]]] = {}  # from_bits by its conditions' ids
        self._arrays: dict[int, tuple[Any, ...]] = {}
        self._plans: dict[int, tuple[Any, ...]] = {}  # id(list) -> (list, kind, data): see _select_planned
        self._n_arrays = 0
        self._lane_of: dict[int, tuple[Any, ...]] = {}  # ast id -> (term, register array, lane)
        self._fresh_lanes: dict[tuple[str, int, bool], tuple[Any, ...]] = {}

    @property
    def session(self) -> Session:
        return self.s

    def fresh_lanes(self, name: str, n: int, cond: bool = False) -> list[Any]:
        """A register's entry lanes (or EXEC's bits, cond=True) as reads of
        one unknown array, so that a read at a symbolic lane is a read of
        that array (see select).  The same name gives the same terms (made
        once: verify tv asks for a kernel's entry lanes once per EXEC)."""
        hit = self._fresh_lanes.get((name, n, cond))
        if hit is not None:
            return list(hit)
        arr = z3.Array(name, self.s.bv32, z3.BoolSort(self.s.ctx) if cond else self.s.bv32)
        wrap = self.s.WB if cond else self.s.W
        lanes = []
        for k in range(n):
            t = wrap(z3.Z3_mk_select(self.s.ref, arr.as_ast(), self.s.bv(k).as_ast()))
            self._lane_of[t.get_id()] = (t, arr, k)
            lanes.append(t)
        self._fresh_lanes[(name, n, cond)] = tuple(lanes)
        return lanes

    # ---- fresh unknowns -------------------------------------------------
    def fresh(self, name: str) -> Any:
        return z3.BitVec(name, 32, self.s.ctx)

    def uf(self, name: str, *args: Any) -> Any:
        """name(args...): an uninterpreted function of 32-bit values, the
        same function for the same name in this Session (verify tv's initial
        memory: one unknown value per address)."""
        f = z3.Function(name, *([self.s.bv32] * (len(args) + 1)))
        return f(*[self.s.bv(a) for a in args])

    def canonical(self, t: Any) -> Any:
        """`t` rewritten by z3's simplifier into its normal form (sums and
        products flattened and ordered, shifts by constants as
        concatenations): two differently built terms of one value often
        become the same term.  A Python int is returned as it is."""
        if type(t) is int:
            return t
        r = z3.simplify(t)
        return r.as_long() if z3.is_bv_value(r) else r

    def fresh_bool(self, name: str) -> Any:
        return z3.Bool(name, self.s.ctx)

    # ---- values -----------------------------------------------------------
    def const(self, n: int) -> int:
        return n & 0xFFFFFFFF

    def add(self, a: Any, b: Any) -> Any:
        if type(a) is int:
            if type(b) is int:
                return (a + b) & 0xFFFFFFFF
            if a == 0:
                return b
        elif type(b) is int and b == 0:
            return a
        return self.s.bin(z3.Z3_mk_bvadd, a, b)

    def sub(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return (a - b) & 0xFFFFFFFF
        if type(b) is int and b == 0:
            return a
        return self.s.bin(z3.Z3_mk_bvsub, a, b)

    def mul(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return (a * b) & 0xFFFFFFFF
        return self.s.bin(z3.Z3_mk_bvmul, a, b)

    def and_(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return a & b
        if type(a) is int:
            a, b = b, a
        if type(b) is int:
            if b == 0:
                return 0
            if b == 0xFFFFFFFF:
                return a
        m = self._mask_op(a, b, lambda x, y: self.and_b(x, y))
        return m if m is not None else self.s.bin(z3.Z3_mk_bvand, a, b)

    def or_(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return a | b
        if type(a) is int:
            a, b = b, a
        if type(b) is int:
            if b == 0:
                return a
            if b == 0xFFFFFFFF:
                return b
        m = self._mask_op(a, b, lambda x, y: self.or_b(x, y))
        return m if m is not None else self.s.bin(z3.Z3_mk_bvor, a, b)

    def xor(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return a ^ b
        if type(b) is int and b == 0:
            return a
        if type(a) is int and a == 0:
            return b
        return self.s.bin(z3.Z3_mk_bvxor, a, b)

    def not_(self, a: Any) -> Any:
        if type(a) is int:
            return ~a & 0xFFFFFFFF
        return self.s.W(z3.Z3_mk_bvnot(self.s.ref, a.as_ast()))

    def shl(self, a: Any, n: Any) -> Any:
        if type(a) is int and type(n) is int:
            return shl32(a, n)
        if type(n) is int and n == 0:
            return a
        return self.s.bin(z3.Z3_mk_bvshl, a, n)

    def lshr(self, a: Any, n: Any) -> Any:
        if type(a) is int and type(n) is int:
            return lshr32(a, n)
        if type(n) is int and n == 0:
            return a
        return self.s.bin(z3.Z3_mk_bvlshr, a, n)

    def ashr(self, a: Any, n: Any) -> Any:
        if type(a) is int and type(n) is int:
            return ashr32(a, n)
        return self.s.bin(z3.Z3_mk_bvashr, a, n)

    def umin(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return min(a, b)
        return self._aci("umin", a, b) if self.aci else self.ite(self.ule(a, b), a, b)

    def umax(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return max(a, b)
        return self._aci("umax", a, b) if self.aci else self.ite(self.ule(b, a), a, b)

    def smin(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return smin32(a, b)
        return self._aci("smin", a, b) if self.aci else self.ite(self.sle(a, b), a, b)

    def smax(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return smax32(a, b)
        return self._aci("smax", a, b) if self.aci else self.ite(self.sle(b, a), a, b)

    # identity and absorbing element of each of min/max on 32 bits
    _MINMAX = {"umin": (0xFFFFFFFF, 0), "umax": (0, 0xFFFFFFFF), "smin": (0x7FFFFFFF, 0x80000000),
               "smax": (0x80000000, 0x7FFFFFFF)}

    def _aci(self, kind: str, a: Any, b: Any) -> Any:
        """min/max of `a` and `b` in a canonical form: each of the four is
        associative, commutative and idempotent, so a nest of one of them is
        the same function of the set of its operands (its leaves) and of the
        fold of its constants, whatever the nesting and order.  The term is
        built as a chain over the leaves in ast-id order (then the constant,
        dropped when it is the identity; the absorbing element is the
        result), so two nests over the same leaves are the same term and the
        solver meets no question at all: LLVM's atomic optimizer folds a
        scan tree where the IR folds lane by lane.  Equal as functions to
        the plain form (the ite of one compare), which tests hold together."""
        ka = ("i", a) if type(a) is int else a.get_id()
        kb = ("i", b) if type(b) is int else b.get_id()
        memo = self._aci_memo.get((kind, ka, kb))
        if memo is not None and self.s.same(memo[0], a) and self.s.same(memo[1], b):
            return memo[2]  # the same question again (a kernel proved once per EXEC asks it per EXEC)
        out = self._aci_build(kind, a, b)
        self._aci_memo[(kind, ka, kb)] = (a, b, out)
        return out

    def _aci_build(self, kind: str, a: Any, b: Any) -> Any:
        ident, absorb = self._MINMAX[kind]
        pick = {"umin": min, "umax": max}.get(kind)
        leaves: dict[int, Any] = {}
        consts: list[int] = []
        nests: list[tuple[list[int], list[Any]]] = []  # the operands' chains, to reuse
        for t in (a, b):
            if type(t) is int:
                consts.append(t)
                continue
            hit = self._mm.get(t.get_id())
            if hit is not None and hit[1] == kind and self.s.same(hit[0], t):
                leaves.update(hit[2])
                if hit[3] is not None:
                    consts.append(hit[3])
                nests.append((hit[4], hit[5]))
            else:
                leaves[t.get_id()] = t
        const: int | None = None
        for c in consts:
            const = c if const is None else (pick(const, c) if pick is not None else
                                             (smin32 if kind == "smin" else smax32)(const, c))
        if const == absorb:
            return const
        if const == ident:
            const = None
        if not leaves:
            return const if const is not None else ident
        order = sorted(leaves)
        # the chain over the first k leaves is the same term whoever built
        # it: start from the longest such prefix an operand already has (a
        # scan adding one leaf at a time then costs a step or two, not a
        # whole chain)
        chain: list[Any] = [leaves[order[0]]]
        for n_order, n_chain in nests:
            k = 0
            for x, y in zip(n_order, order):
                if x != y:
                    break
                k += 1
            if k > len(chain):
                chain = n_chain[:k]
        le = self.ule if kind[0] == "u" else self.sle
        mn = kind.endswith("min")
        acc = chain[-1]
        for k in order[len(chain):]:
            y = leaves[k]
            acc = self.ite(le(acc, y), acc, y) if mn else self.ite(le(y, acc), acc, y)
            chain.append(acc)
        if const is not None:
            acc = self.ite(le(acc, const), acc, const) if mn else self.ite(le(const, acc), acc, const)
        if len(leaves) > 1 or const is not None:
            self._mm[acc.get_id()] = (acc, kind, leaves, const, order, chain)
        return acc

    # ---- comparisons ------------------------------------------------------
    def eq(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return a == b
        if self.s.same(a, b):
            return True
        if type(a) is bool or type(b) is bool or (type(a) is not int and z3.is_bool(a)):
            if type(a) is bool and type(b) is bool:
                return a == b
            return self.s.WB(z3.Z3_mk_eq(self.s.ref, self.s.boolean(a).as_ast(), self.s.boolean(b).as_ast()))
        if (type(b) is int and b == 0) or (type(a) is int and a == 0):
            bits = self._lane_bits(b if type(b) is not int else a)
            if bits is not None:  # a lane mask is 0 iff none of its lanes' conditions holds
                return self.not_b(self.or_b(*bits))
        pair = self._mask_pair(a, b)
        if pair is not None:  # two lane masks are equal iff every lane's conditions agree
            return self.and_b(*(self._iff(x, y) for x, y in zip(*pair)))
        if self.canon_eq:
            a, b = _canon2(a, b)  # one term for x == y and y == x
        return self.s.cmp(z3.Z3_mk_eq, a, b)

    def _lane_bits(self, v: Any) -> tuple[Any, ...] | None:
        """The 32 conditions `v` was built from by :meth:`from_bits`, if it was."""
        hit = self._bits.get(v.get_id())
        return hit[1] if hit is not None and self.s.same(hit[0], v) else None

    # ---- lane masks ---------------------------------------------------------
    # A value built by from_bits (EXEC, a compare's result) is a lane mask: 32
    # conditions, bit k set iff the k-th holds.  An operation between two lane
    # masks, or a lane mask and a constant or a select between constants (the
    # spec's `(1 << j) if active(j) else 0`), is done bit by bit on the
    # conditions and gives a lane mask: the same value as the bit-vector
    # operation, as terms both sides of a vote question share (the lane mask a
    # v_cmp writes against EXEC, the spec's all(...) over the same compares),
    # so the question is Boolean over shared atoms.

    def _maskish(self, v: Any, strict: bool) -> tuple[Any, ...] | None:
        """`v`'s 32 bit conditions: a lane mask's own; with `strict` off also a
        constant's or a select between two constants'."""
        if type(v) is int:
            return None if strict else tuple(bool((v >> k) & 1) for k in range(32))
        bits = self._lane_bits(v)
        if bits is not None or strict:
            return bits
        if _is_ite(v):
            c, t, f = v.children()
            if z3.is_bv_value(t) and z3.is_bv_value(f) and t.size() == 32:
                kt, kf = t.as_long(), f.as_long()
                out = []
                for k in range(32):
                    bt, bf = (kt >> k) & 1, (kf >> k) & 1
                    out.append(bool(bt) if bt == bf else c if bt else self.not_b(c))
                return tuple(out)
        return None

    def _mask_pair(self, a: Any, b: Any, ia: bool | None = None,
                   ib: bool | None = None) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
        """Both operands' bit conditions when one is a lane mask and the other
        a lane mask, a constant or a select between constants; else None.
        `ia`/`ib`: whether `a`/`b` is a select, where the caller knows."""
        if type(a) is int and type(b) is int:
            return None
        sa, sb = self._maskish(a, True), self._maskish(b, True)
        if sa is None and sb is None and not (_is_bit_select(a, ia) and _is_bit_select(b, ib)):
            return None
        ba = sa if sa is not None else self._maskish(a, False)
        bb = sb if sb is not None else self._maskish(b, False)
        if ba is None or bb is None:
            return None
        return ba, bb

    def _mask_op(self, a: Any, b: Any, op: Any) -> Any:
        pair = self._mask_pair(a, b)
        if pair is None:
            return None
        return self.from_bits([op(x, y) for x, y in zip(*pair)])

    def _iff(self, x: Any, y: Any) -> Any:
        if type(x) is bool:
            return y if x else self.not_b(y)
        if type(y) is bool:
            return x if y else self.not_b(x)
        return self.eq(x, y)

    def ne(self, a: Any, b: Any) -> Any:
        return self.not_b(self.eq(a, b))

    def ult(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return a < b
        return self.s.cmp(z3.Z3_mk_bvult, a, b)

    def ule(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return a <= b
        return self.s.cmp(z3.Z3_mk_bvule, a, b)

    def slt(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return slt32(a, b)
        return self.s.cmp(z3.Z3_mk_bvslt, a, b)

    def sle(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return sle32(a, b)
        return self.s.cmp(z3.Z3_mk_bvsle, a, b)

    # ---- conditions -------------------------------------------------------
    def ite(self, c: Any, a: Any, b: Any) -> Any:
        if c is True:
            return a
        if c is False:
            return b
        if self.s.same(a, b):
            return a
        if type(a) is bool or type(b) is bool or (type(a) is not int and z3.is_bool(a)):
            return self.s.WB(z3.Z3_mk_ite(self.s.ref, c.as_ast(), self.s.boolean(a).as_ast(), self.s.boolean(b).as_ast()))
        # ite(c, ite(c, x, _), y) is ite(c, x, y), and ite(c, x, ite(c, _, y)) too: a
        # v_cndmask on EXEC's bits of a value written under EXEC then meets the IR's select
        ia = type(a) is not int and _is_ite(a)
        if ia and _arg_is(a, 0, c):
            return self.ite(c, self.s.W(_arg(a, 1)), b)
        ib = type(b) is not int and _is_ite(b)
        if ib and _arg_is(b, 0, c):
            return self.ite(c, a, self.s.W(_arg(b, 2)))
        pair = self._mask_pair(a, b, ia, ib) if (type(a) is not int or type(b) is not int) else None
        if pair is not None:  # a select between lane masks: lane by lane
            return self.from_bits([x if self.s.same(x, y) else self.or_b(self.and_b(c, x), self.and_b(self.not_b(c), y))
                                   for x, y in zip(*pair)])
        return self.s.W(z3.Z3_mk_ite(self.s.ref, c.as_ast(), self.s.bv(a).as_ast(), self.s.bv(b).as_ast()))

    def and_b(self, *cs: Any) -> Any:
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
        return self.s.WB(z3.Z3_mk_and(self.s.ref, n, arr))

    def or_b(self, *cs: Any) -> Any:
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
        return self.s.WB(z3.Z3_mk_or(self.s.ref, n, arr))

    def not_b(self, c: Any) -> Any:
        if type(c) is bool:
            return not c
        return self.s.WB(z3.Z3_mk_not(self.s.ref, c.as_ast()))

    def bit(self, a: Any, k: int) -> Any:
        if type(a) is int:
            return (a >> k) & 1 == 1
        hit = self._bits.get(a.get_id())
        if hit is not None and self.s.same(hit[0], a):
            return hit[1][k]
        ext = self.s.W(z3.Z3_mk_extract(self.s.ref, k, k, a.as_ast()))
        return self.s.WB(z3.Z3_mk_eq(self.s.ref, ext.as_ast(), self.s.one1.as_ast()))

    def from_bits(self, bits: Sequence[Any]) -> Any:
        bits = list(bits) + [False] * (32 - len(bits))
        if all(type(b) is bool for b in bits):
            return bits_value(bits)
        key = tuple(b if type(b) is bool else b.get_id() for b in bits)
        hit = self._masks.get(key)
        if hit is not None:
            return hit[0]
        S = self.s
        one, zero = S.one1, S.zero1
        parts = [(one if b else zero) if type(b) is bool else S.W(z3.Z3_mk_ite(S.ref, b.as_ast(), one.as_ast(), zero.as_ast()))
                 for b in reversed(bits)]
        v = parts[0]
        for p in parts[1:]:  # left-nested, as z3.Concat builds it
            v = S.W(z3.Z3_mk_concat(S.ref, v.as_ast(), p.as_ast()))
        self._bits[v.get_id()] = (v, tuple(bits))
        self._masks[key] = (v, tuple(bits))  # the conditions kept so their ids stay theirs
        return v

    def bool_value(self, c: Any) -> Any:
        return self.ite(c, 1, 0)

    def popcount(self, conds: Sequence[Any]) -> Any:
        """Counted in 8 bits (at most 64 conditions), then widened: a 32-bit
        adder chain per lane is far harder for the solver."""
        fixed = sum(1 for c in conds if c is True)
        rest = [c for c in conds if type(c) is not bool]
        if not rest:
            return fixed
        one8, zero8 = z3.BitVecVal(1, 8, self.s.ctx), z3.BitVecVal(0, 8, self.s.ctx)
        total = z3.Sum([z3.If(c, one8, zero8) for c in rest] + [z3.BitVecVal(fixed, 8, self.s.ctx)])
        return z3.ZeroExt(24, total)

    # ---- binary32 ---------------------------------------------------------
    # fadd is commutative bit for bit when no input is NaN, so its operands
    # are put in a canonical order: trees that differ only by commutation
    # become the same term.
    def fadd(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return fadd32(a, b)
        if self.abstract_fadd:
            return self._fadd_abstract(a, b)
        a, b = _canon2(a, b)
        ctx = self.s.ctx  # the fp functions default to z3's main context: name ours
        r = z3.fpAdd(self.s.rne, self.s.fp(a), self.s.fp(b), ctx)
        return self.ite(self.s.WB(z3.Z3_mk_fpa_is_nan(self.s.ref, r.as_ast())), QNAN, z3.fpToIEEEBV(r, ctx))

    def _fadd_abstract(self, a: Any, b: Any) -> Any:
        """fadd as g(a, b), g an unknown function, except where its value is
        plain: x + -0.0 is x for every x that is not NaN (+0.0 and subnormals
        included, round to nearest even) and QNAN for a NaN x.  The exact
        fadd is one such g (it is commutative bit for bit, NaN results being
        QNAN: `axioms` says so of every pair it is applied to), so a
        refinement that holds for every g holds for fadd: an abstraction to
        prove with, never to refute with.  What fadd guarantees of its
        results is kept structurally, so that trees do not case-split at
        every node: a sum of operands that are not -0.0 is not -0.0 (a sum
        is -0.0 only as (-0.0) + (-0.0): an exact zero of opposite signs is
        +0.0 and a non-zero sum never rounds to zero), and a NaN sum is QNAN."""
        def known(x: Any) -> bool:  # a result of g: never -0.0, NaN only as QNAN
            return type(x) is not int and x.get_id() in self._sums

        def nan_fixed(x: Any) -> Any:  # x + -0.0
            if type(x) is int:
                return QNAN if f32_is_nan(x) else x
            return x if known(x) else self.ite(self.fis_nan(x), QNAN, x)

        def is_neg_zero(x: Any) -> Any:
            if type(x) is int:
                return x == F32_NEG_ZERO
            return False if known(x) else self.eq(x, F32_NEG_ZERO)

        if self.abstract_fadd == "canonical":
            a, b = _canon2(a, b)  # fadd(x, y) and fadd(y, x): one term
        za, zb = is_neg_zero(a), is_neg_zero(b)
        if za is True:
            return nan_fixed(b)
        if zb is True:
            return nan_fixed(a)
        g = self.uf("fadd.abstract", a, b)
        if g.get_id() not in self._sums:
            self._sums.add(g.get_id())
            self.axioms.append(g == self.uf("fadd.abstract", b, a))  # fadd commutes: ground instances, no quantifier
        return self.ite(za, nan_fixed(b), self.ite(zb, nan_fixed(a), g))

    def _fle(self, a: Any, b: Any) -> Any:
        fa, fb = self.s.fp(a), self.s.fp(b)
        ctx = self.s.ctx
        return z3.Or(z3.fpLT(fa, fb, ctx), z3.And(z3.fpEQ(fa, fb, ctx),
                                                 z3.Or(z3.fpIsNegative(fa, ctx), z3.Not(z3.fpIsNegative(fb, ctx)))))

    def fmin(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return fmin32(a, b)
        return self.ite(self.fis_nan(a), b, self.ite(self.fis_nan(b), a, self.ite(self._fle(a, b), a, b)))

    def fmax(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return fmax32(a, b)
        return self.ite(self.fis_nan(a), b, self.ite(self.fis_nan(b), a, self.ite(self._fle(b, a), a, b)))

    def fis_nan(self, a: Any) -> Any:
        if type(a) is int:
            return f32_is_nan(a)
        return z3.fpIsNaN(self.s.fp(a), self.s.ctx)

    def feq(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return feq32(a, b)
        return self.or_b(self.eq(a, b), self.and_b(self.fis_nan(a), self.fis_nan(b)))

    def under(self, t: Any, c: Any) -> Any:
        return under(t, c)

    def decide(self, c: Any) -> Any:
        if type(c) is bool:
            return c
        r = z3.simplify(c)
        if z3.is_true(r):
            return True
        if z3.is_false(r):
            return False
        return c

    def select(self, vals: Sequence[Any], idx: Any) -> Any:
        """vals[idx]; a symbolic index reads a z3 array built once per list."""
        if type(idx) is int:
            return vals[idx]
        if self.lane_arrays:
            return self._select_planned(vals, idx)
        first = vals[0]
        if all(self.s.same(v, first) for v in vals):
            return first
        read = self._as_read(vals, idx)
        if read is not None:
            return read
        hit = self._arrays.get(id(vals))
        if hit is None or hit[0] is not vals:
            is_b = type(first) is bool or (type(first) is not int and z3.is_bool(first))
            conv = self.s.boolean if is_b else self.s.bv
            arr = z3.K(self.s.bv32, conv(vals[-1]))
            for k, v in enumerate(vals[:-1]):
                arr = z3.Store(arr, self.s.bv(k), conv(v))
            hit = self._arrays[id(vals)] = (vals, arr, is_b)
        ast = z3.Z3_mk_select(self.s.ref, hit[1].as_ast(), self.s.bv(idx).as_ast())
        return self.s.WB(ast) if hit[2] else self.s.W(ast)

    def _select_planned(self, vals: Sequence[Any], idx: Any) -> Any:
        """select under `lane_arrays`: how a list is read is decided once per
        list (its plan, kept with the list so that its id stays its own):
        - every lane the same term: that term;
        - every lane a lane of one array (_lane_of): that array at the lane
          index mapped (identity, xor with a constant, or a select chain);
        - every lane an if-then-else: the three lists read at idx, as one
          if-then-else (lane by lane the same value);
        - else an unknown array `lanes#N` defined at lanes 0..W-1 in the
          session's `defs` (which every Query of the session includes),
          whose lanes are registered so that a permutation of the list reads
          it.  Unlike a chain of stores, reading an unknown array at a
          symbolic lane costs the solver nothing until two reads' lanes
          may be equal: a shuffle's lane is then compared only as a lane
          index, never through 64 stores."""
        hit = self._plans.get(id(vals))
        if hit is None or hit[0] is not vals:
            hit = self._plans[id(vals)] = (vals, *self._plan(vals))
        _, kind, data = hit
        if kind == "same":
            return data
        if kind == "split":
            c, a, b = data
            return self.ite(self.select(c, idx), self.select(a, idx), self.select(b, idx))
        if kind == "read":
            src, lanes, is_b = data
            at = self._lane_index(lanes, idx)
        else:
            src, is_b = data
            at = idx
        ast = z3.Z3_mk_select(self.s.ref, src.as_ast(), self.s.bv(at).as_ast())
        return self.s.WB(ast) if is_b else self.s.W(ast)

    def _plan(self, vals: Sequence[Any]) -> tuple[str, Any]:
        first = vals[0]
        if all(self.s.same(v, first) for v in vals):
            return "same", first
        is_b = type(first) is bool or (type(first) is not int and z3.is_bool(first))
        lanes = self._lanes_of(vals)
        if lanes is not None:
            return "read", (lanes[0], lanes[1], is_b)
        if all(type(v) not in (int, bool) and _is_ite(v) for v in vals):
            return "split", tuple([v.arg(n) for v in vals] for n in range(3))
        conv = self.s.boolean if is_b else self.s.bv
        self._n_arrays += 1  # (a name of its own: the same name would be the same array)
        arr = z3.Array(f"lanes#{self._n_arrays}", self.s.bv32, z3.BoolSort(self.s.ctx) if is_b else self.s.bv32)
        for k, v in enumerate(vals):
            self.s.defs.append(z3.Select(arr, self.s.bv(k)) == conv(v))
            if type(v) not in (int, bool) and v.get_id() not in self._lane_of:
                self._lane_of[v.get_id()] = (v, arr, k)
        return "array", (arr, is_b)

    def _lanes_of(self, vals: Sequence[Any]) -> tuple[Any, list[int]] | None:
        """(array, c_k) when every vals[k] is lane c_k of one array."""
        src: Any = None
        lanes = []
        for v in vals:
            if type(v) is int or type(v) is bool:
                return None
            hit = self._lane_of.get(v.get_id())
            if hit is None or not self.s.same(hit[0], v):
                return None
            if src is None:
                src = hit[1]
            elif not self.s.same(hit[1], src):
                return None
            lanes.append(hit[2])
        return src, lanes

    def _lane_index(self, lanes: list[int], idx: Any) -> Any:
        """c(idx) for the lane map k -> c_k."""
        if all(c == k for k, c in enumerate(lanes)):
            return idx
        if all(c == k ^ lanes[0] for k, c in enumerate(lanes)):
            return self.xor(idx, lanes[0])
        at = lanes[-1]
        for k in range(len(lanes) - 2, -1, -1):
            at = self.ite(self.eq(idx, k), lanes[k], at)
        return at

    def _as_read(self, vals: Sequence[Any], idx: Any) -> Any:
        """If every vals[k] is entry lane c_k of one register, vals[idx] is
        that register's array read at c(idx): lane data never has to be
        compared bit by bit, only lane indices."""
        got = self._lanes_of(vals)
        if got is None:
            return None
        src, lanes = got
        ast = z3.Z3_mk_select(self.s.ref, src.as_ast(), self.s.bv(self._lane_index(lanes, idx)).as_ast())
        return self.s.WB(ast) if z3.is_bool(vals[0]) else self.s.W(ast)

    def at_most(self, conds: Sequence[Any], k: int) -> Any:
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
    and symbolic backends together.  The model is made in the Session of
    the terms asked about (or in `session`, when given)."""

    def __init__(self, env: dict, session: Session | None = None):
        self.env = dict(env)
        self.ctx: Any = None
        self.model: Any = None
        if session is not None:
            self._solve(session.ctx)

    def _solve(self, ctx: Any) -> None:
        # the model written down directly (no solver call: a constant per unknown)
        model = z3.Model(ctx)
        for name, val in self.env.items():
            if type(val) is bool:
                model.update_value(z3.Bool(name, ctx), z3.BoolVal(val, ctx))
            else:
                model.update_value(z3.BitVec(name, 32, ctx), z3.BitVecVal(val, 32, ctx))
        self.ctx, self.model = ctx, model

    def __call__(self, term):
        if type(term) in (int, bool):
            return term
        if term.ctx is not self.ctx:
            self._solve(term.ctx)
        r = self.model.eval(term, model_completion=True)
        if z3.is_bool(r):
            return z3.is_true(r)
        return r.as_long()


def _tactic(ctx: Any) -> Any:
    # Contextual simplification first: a lane's value is an ite tree over EXEC
    # bits, and under the mismatch's own guard (lane active, source active)
    # it collapses; bit-blasting the raw trees is ~500x slower.
    return z3.Then("simplify", "ctx-simplify", "smt", ctx=ctx)


def _context_of(terms: Sequence[Any]) -> Any:
    """The z3 context of the first term that is not a Python constant (a
    fresh one if there is none)."""
    for t in terms:
        if type(t) not in (int, bool):
            return t.ctx
    return z3.Context()


# the wall-clock bound of a check whose answer steers what is asked next:
# such a check is bounded by its resource limit (rlimit) alone, so the answer
# is the same under any load; this only stops a runaway after an hour
NO_TIMEOUT = 3600.0

# z3 resource units (rlimit) per second of `--timeout`: the rate at which z3
# spends them on verify tv's questions on the development machine (docs/tv.md,
# "Timeouts": 9.3e6 per solver-second measured over heavy tv proofs there)
RLIMIT_PER_SECOND = 10_000_000


class Budget:
    """The solver resources of one proof: `seconds` of `--timeout` as
    ``seconds * RLIMIT_PER_SECOND`` z3 resource units, which every check
    made while it is active (:func:`budget`) draws from.  A check gets at
    most what is left as its rlimit and no clock, so a proof stops after
    the same questions under any load: its verdict is deterministic."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.total = max(1, int(seconds * RLIMIT_PER_SECOND))
        self.used = 0

    @property
    def left(self) -> int:
        return max(0, self.total - self.used)

    @property
    def spent(self) -> bool:
        return self.used >= self.total

    def reason(self) -> str:
        return (f"the --timeout {self.seconds:g} s budget of {self.total} z3 resource units is spent "
                f"({RLIMIT_PER_SECOND} per second)")


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("verify_smt_budget", default=None)


@contextlib.contextmanager
def budget(seconds: float) -> Iterator[Budget]:
    """Every Query check inside draws from one :class:`Budget` of `seconds`."""
    b = Budget(seconds)
    token = _BUDGET.set(b)
    try:
        yield b
    finally:
        _BUDGET.reset(token)


def _rlimit_count(s: Any) -> int:
    try:
        return int(s.statistics().get_key_value("rlimit count"))
    except z3.Z3Exception:  # (no such statistic)
        return 0


class Query:
    """Solver questions over a stack of assertions, each check a fresh
    solver with a timeout and a fixed seed.  Its assertions live in
    `session` (when none is given, in the Session of the first term added);
    a term from another Session is refused.

    A check may also get a resource limit (z3's ``rlimit``: a count of the
    solver's elementary steps, the same on every run and under any load) where
    giving up decides what is asked next; such a check has no wall-clock
    bound but :data:`NO_TIMEOUT`, so its answer is the same under any load.
    A timeout only bounds how long a final question may take (its "unknown"
    is a verdict, never a step toward another question)."""

    def __init__(self, timeout_s: float, seed: int = 0, session: Session | None = None):
        self.timeout_ms = max(1, int(timeout_s * 1000))
        self.seed = seed
        self.ctx: Any = session.ctx if session is not None else None
        self.session = session
        self.assertions: list = []
        self.marks: list[int] = []
        self.model: Any = None  # a z3 model after a sat check (z3 is untyped)
        self.reason = ""
        self.last = None

    def add(self, cond) -> None:
        if cond is True:
            return
        if cond is not False:
            if self.ctx is None:
                self.ctx = cond.ctx
            elif cond.ctx is not self.ctx:
                raise ValueError("a term from another smt.Session added to a Query")
        self.assertions.append(cond)

    def _terms(self) -> list[Any]:
        if self.ctx is None:
            self.ctx = z3.Context()
        defs = self.session.defs if self.session is not None else []
        return [z3.BoolVal(False, self.ctx) if c is False else c for c in self.assertions] + defs

    def push(self) -> None:
        self.marks.append(len(self.assertions))

    def pop(self) -> None:
        del self.assertions[self.marks.pop():]

    def check(self, timeout_s: float | None = None, rlimit: int | None = None, plain: bool = False) -> str:
        """sat / unsat / unknown.  `plain`: z3's own solver for the logic
        (for bit-vectors: simplify, then bit-blast to SAT) instead of the
        contextual simplification of :func:`_tactic`; it settles in
        milliseconds some queries the tactic needs minutes for (a vote that
        compares a whole lane mask with EXEC), and the reverse on symbolic
        lane indices (docs/ci.md, "Solvers"), so it is asked on a resource
        limit where the tactic gave up."""
        terms = self._terms()
        b = _BUDGET.get()
        if b is not None:  # a proof's budget: its rlimit bounds every check, no clock  [docs/tv.md, Timeouts]
            if b.spent:
                self.model = None
                self.reason = b.reason()
                return "unknown"
            rlimit = b.left if rlimit is None else min(rlimit, b.left)
            timeout_s = NO_TIMEOUT
        s = z3.Solver(ctx=self.ctx) if plain else _tactic(self.ctx).solver()
        QUERIES[0] += 1
        if timeout_s is None and rlimit is not None:
            timeout_s = NO_TIMEOUT  # a check with a resource limit is bounded by it alone: no clock
        s.set("timeout", self.timeout_ms if timeout_s is None else max(1, int(timeout_s * 1000)))
        if rlimit is not None:
            s.set("rlimit", rlimit)
        s.set("random_seed", self.seed)
        s.add(*terms)
        self.last = s
        before = _rlimit_count(s) if b is not None else 0
        r = s.check()
        if b is not None:
            b.used += _rlimit_count(s) - before
        if r == z3.sat:
            self.model = s.model()
            return "sat"
        self.model = None
        if r == z3.unsat:
            return "unsat"
        self.reason = b.reason() if b is not None and b.spent else s.reason_unknown()
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
        terms = self._terms()
        s = z3.Solver(ctx=self.ctx)
        s.add(*terms)
        return s.to_smt2()


_CONNECTIVE = {z3.Z3_OP_AND: "and", z3.Z3_OP_OR: "or", z3.Z3_OP_NOT: "not", z3.Z3_OP_IMPLIES: "implies",
               z3.Z3_OP_XOR: "xor"}


def _bit_parts(e: Any, memo: dict[Any, Any] | None = None) -> list[Any] | None:
    """The 1-bit parts of a concatenation of 1-bit terms (a lane mask from
    Z3.from_bits), or of a bit-vector constant, highest first; else None.
    `memo` (one question's): the parts of each term by id, and the two 1-bit
    constants, made once (a wave64 mask is asked for again at every select
    the comparison splits on: issue #35.4)."""
    memo = {} if memo is None else memo
    k = e.get_id()
    out: list[Any] | None
    if k in memo:
        out = memo[k]
        return out
    if z3.is_bv_value(e):
        v = e.as_long()
        if "bits" not in memo:
            memo["bits"] = (z3.BitVecVal(0, 1, e.ctx), z3.BitVecVal(1, 1, e.ctx))
        bits = memo["bits"]
        out = [bits[(v >> j) & 1] for j in reversed(range(e.size()))]
    elif not z3.is_app_of(e, z3.Z3_OP_CONCAT):
        out = None
    else:
        out = []
        for c in e.children():
            if c.size() == 1:
                out.append(c)
                continue
            sub = _bit_parts(c, memo)
            if sub is None:
                out = None
                break
            out += sub
    memo[k] = out
    return out


def skeleton_unsat(cond: Any, rlimit: int) -> bool:
    """Is `cond` unsatisfiable already as a Boolean formula over its atoms?

    Every maximal subterm that is not a Boolean connective (a bit-vector
    equality or comparison, an EXEC bit) becomes a fresh Boolean variable, one
    per distinct term (z3 shares equal terms, so the same atom on both sides
    of a refinement question is one variable); a bit-vector (dis)equality of
    two select trees is first split on the trees' conditions, a few levels
    deep.  Every model of `cond` gives a model of the skeleton (each variable
    takes its atom's value), so "unsat" is sound; "sat" says nothing, and the
    caller asks the full question.  When both sides of a question are built
    from the same atoms (a vote's lane mask and the spec's any(...)), this
    is a small SAT problem where the full one bit-blasts every atom.  On a
    resource limit: the same answer under any load."""
    if type(cond) is bool:
        return not cond
    ctx = cond.ctx
    atoms: dict[int, Any] = {}
    memo: dict[int, Any] = {}
    parts: dict[Any, Any] = {}  # _bit_parts' memo
    eqs: dict[tuple[int, int, int], Any] = {}  # eq's: a mask is compared again under each select split

    def atom(e: Any) -> Any:
        k = e.get_id()
        if k not in atoms:
            atoms[k] = z3.Bool(f"atom!{len(atoms)}", ctx)
        return atoms[k]

    def eq(a: Any, b: Any, depth: int) -> Any:
        key = (a.get_id(), b.get_id(), depth)
        hit = eqs.get(key)
        if hit is None:
            eqs[key] = hit = _eq(a, b, depth)
        return hit

    def _eq(a: Any, b: Any, depth: int) -> Any:
        if a.eq(b):
            return z3.BoolVal(True, ctx)
        if z3.is_bv_value(a) and z3.is_bv_value(b):
            return z3.BoolVal(a.as_long() == b.as_long(), ctx)
        for x, y, flip in ((a, b, False), (b, a, True)):
            if depth > 0 and z3.is_app_of(x, z3.Z3_OP_EXTRACT) and z3.is_app_of(x.arg(0), z3.Z3_OP_ITE):
                hi, lo = x.params()
                c, t, f = x.arg(0).children()
                x = z3.If(c, z3.simplify(z3.Extract(hi, lo, t)), z3.simplify(z3.Extract(hi, lo, f)))
            if depth > 0 and z3.is_app_of(x, z3.Z3_OP_ITE):
                c, t, f = x.children()
                return z3.If(sk(c), eq(t, y, depth - 1) if not flip else eq(y, t, depth - 1),
                             eq(f, y, depth - 1) if not flip else eq(y, f, depth - 1))
        pa, pb = _bit_parts(a, parts), _bit_parts(b, parts)
        if pa is not None and pb is not None and len(pa) == len(pb):  # lane masks: bit by bit
            return z3.And(*[eq(x, y, depth) for x, y in zip(pa, pb)])
        a, b = _canon2(a, b)
        return atom(a == b)

    def sk(e: Any) -> Any:
        k = e.get_id()
        hit = memo.get(k)
        if hit is not None:
            return hit
        kind = e.decl().kind() if z3.is_app(e) else None
        kids = e.children() if z3.is_app(e) else []
        if z3.is_true(e) or z3.is_false(e):
            r = e
        elif kind in _CONNECTIVE:
            parts = [sk(c) for c in kids]
            r = {"and": lambda: z3.And(*parts), "or": lambda: z3.Or(*parts), "not": lambda: z3.Not(parts[0]),
                 "implies": lambda: z3.Implies(*parts), "xor": lambda: z3.Xor(*parts)}[_CONNECTIVE[kind]]()
        elif kind == z3.Z3_OP_ITE and z3.is_bool(e):
            r = z3.If(sk(kids[0]), sk(kids[1]), sk(kids[2]))
        elif kind == z3.Z3_OP_EQ and len(kids) == 2:
            r = (sk(kids[0]) == sk(kids[1])) if z3.is_bool(kids[0]) else eq(kids[0], kids[1], 4)
        elif kind == z3.Z3_OP_DISTINCT and len(kids) == 2 and not z3.is_bool(kids[0]):
            r = z3.Not(eq(kids[0], kids[1], 4))
        else:
            r = atom(e)
        memo[k] = r
        return r

    s = z3.Solver(ctx=ctx)
    s.set("rlimit", rlimit)
    s.set("random_seed", 0)
    s.add(sk(cond))
    return s.check() == z3.unsat


def smt2_benchmark(cond, context: Sequence = (), comments: Sequence[str] = ()) -> str:
    """`cond` as a stand-alone SMT-LIB 2 benchmark: ``; comments``, the
    declarations, the `context` assertions (e.g. inputs that are not NaN),
    the condition and ``(check-sat)``.  ``sat`` means the condition can hold
    in the context.  Registers and EXEC are arrays (bit-vector indices,
    bit-vector or Boolean elements), so the logic is declared as ``ALL``;
    the text is deterministic for a given term."""
    ctx = _context_of([cond, *context])
    s = z3.Solver(ctx=ctx)
    for c in context:
        s.add(z3.BoolVal(False, ctx) if c is False else c)
    if cond is not True:
        s.add(z3.BoolVal(False, ctx) if cond is False else cond)
    body = s.to_smt2()
    # z3 opens with "; benchmark generated from python API" and a status line
    lines = [ln for ln in body.splitlines() if not ln.startswith("; benchmark generated")]
    head = [f"; {c}" for c in comments] + ["(set-logic ALL)"]
    return "\n".join(head + lines) + "\n"


def check_smt2(text: str, timeout_s: float = 30.0) -> str:
    """z3's answer ("sat", "unsat", "unknown") to an SMT-LIB benchmark, such
    as one written by --smt2, asked the way Query asks (in a context of its
    own)."""
    ctx = z3.Context()
    s = _tactic(ctx).solver()
    s.set("timeout", max(1, int(timeout_s * 1000)))
    s.add(z3.parse_smt2_string(text, ctx=ctx))
    return str(s.check())


def is_false(cond) -> bool:
    return cond is False


def check_plain(cond: Any, timeout_s: float, seed: int = 0) -> str:
    """Is `cond` satisfiable, asked to z3's default solver without the
    contextual simplification of Query (verify.sortnet's 0-1 network, a
    pure Boolean question: 3 s here against minutes through the tactic)."""
    if type(cond) is bool:
        return "sat" if cond else "unsat"
    s = z3.Solver(ctx=cond.ctx)
    s.set("timeout", max(1, int(timeout_s * 1000)))
    s.set("random_seed", seed)
    s.add(cond)
    r = s.check()
    return "sat" if r == z3.sat else "unsat" if r == z3.unsat else "unknown"


def renamed(cond: Any, pairs: Sequence[tuple[Any, str]]) -> tuple[str, Any]:
    """`cond` with each term of `pairs` replaced by a fresh constant of its sort
    named by the string, then simplified, and its SMT-LIB text: the same text
    is the same question (verify.sortnet asks one per distinct lane)."""
    if type(cond) is bool:
        return repr(cond), cond
    subs = [(t, z3.Const(name, t.sort())) for t, name in pairs if type(t) not in (int, bool)]
    c = z3.simplify(z3.substitute(cond, *subs) if subs else cond)
    return c.sexpr(), c


def under(t: Any, c: Any) -> Any:
    """`t` where condition `c` holds: a select on `c` at the top (a register
    a VALU wrote in the lanes EXEC enables: ``ite(exec_i, new, old)``) is
    its first branch; anything else is `t`.  verify.tv uses it for a lane's
    memory access, whose address and data matter only where the lane is
    enabled: the IR's address and value, never selected on EXEC, are then
    often the very same terms."""
    if type(t) in (int, bool) or type(c) is bool:
        return t
    while _is_ite(t) and same(t.arg(0), c):
        t = t.arg(1)
    return t


def under_all(t: Any, c: Any) -> Any:
    """`t` where condition `c` holds: every occurrence of `c` in `t` is
    true (z3 folds the selects on it), not only a select at the top as in
    :func:`under`.  verify.tv takes a GPU lane's load and store address so:
    a register a VALU wrote under EXEC and then shifted or added to is
    ``f(ite(exec_i, new, old))``, which is ``f(new)`` where the lane runs,
    the IR's very address term."""
    if type(t) in (int, bool) or type(c) is bool:
        return t
    return z3.substitute(t, (c, z3.BoolVal(True, c.ctx)))


def same(a, b) -> bool:
    if a is b:
        return True
    if type(a) in (int, bool) or type(b) in (int, bool):
        return type(a) is type(b) and a == b
    return a.ctx is b.ctx and bool(z3.Z3_is_eq_ast(a.ctx_ref(), a.as_ast(), b.as_ast()))


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


class _TooBig(Exception):
    pass


class LaneNormal:
    """Normal forms of one Session's terms under decided EXEC bits, as
    hash-consed nodes (ints: two terms have the same normal form iff they get
    the same node); `term` builds a node's z3 term when the solver needs it.
    `lits`: the EXEC bit conditions (exec[0..W-1]) that may be decided."""

    def __init__(self, session: Session, lits: Sequence[Any], limit: int = LANE_NORMAL_LIMIT) -> None:
        self.s = session
        self.ref = session.ref
        self.limit = limit
        self.over = False
        self.index = {t.get_id(): k for k, t in enumerate(lits) if type(t) is not bool}
        self._uses: dict[int, int] = {}  # ast id -> the EXEC bits it mentions (bit k: exec[k])
        self._memo: dict[tuple[int, int, int], int] = {}  # (ast id, decided true, decided false) -> node
        self._ids: dict[tuple[Any, ...], int] = {}  # a node's key -> the node
        self._keys: list[tuple[Any, ...]] = []  # node -> its key
        self._asts: dict[int, Any] = {}  # ast id -> the term (kept alive: the memo's keys are ids)
        self._terms: dict[int, Any] = {}  # node -> its z3 term, once built
        self.TRUE = self._node(("c", True))
        self.FALSE = self._node(("c", False))

    # ---- the API ------------------------------------------------------------
    def normal(self, t: Any, lane: int) -> int | None:
        """The node of `t` (an int, a bool or a term) where exec[lane] holds;
        None once the normal forms made so far exceed `limit` nodes (a count,
        the same on every run: the caller asks the solver about `t` as it is)."""
        if self.over:
            return None
        if type(t) is bool:
            return self.TRUE if t else self.FALSE
        if type(t) is int:
            return self._node(("c", t & 0xFFFFFFFF, z3.Z3_BV_SORT, 32))
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 50000))
        try:
            return self._n(t.as_ast(), 1 << lane, 0)
        except _TooBig:
            self.over = True
            return None
        finally:
            sys.setrecursionlimit(old)

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
        t = self._keep(a)
        ref = self.ref
        if z3.Z3_is_numeral_ast(ref, a) and z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, a)) == z3.Z3_BV_SORT:
            return self._node(("c", int(z3.Z3_get_numeral_string(ref, a)), z3.Z3_BV_SORT,
                               z3.Z3_get_bv_sort_size(ref, z3.Z3_get_sort(ref, a))))
        if z3.is_true(t):
            return self.TRUE
        if z3.is_false(t):
            return self.FALSE
        return self._node(("t", t.get_id()))

    def _keep(self, a: Any) -> Any:
        i = z3.Z3_get_ast_id(self.ref, a)
        t = self._asts.get(i)
        if t is None:
            t = self._asts[i] = z3.z3._to_expr_ref(a, self.s.ctx)
        return t

    def _uses_of(self, a: Any) -> int:
        ref = self.ref
        i = z3.Z3_get_ast_id(ref, a)
        hit = self._uses.get(i)
        if hit is not None:
            return hit
        u = 0
        if i in self.index:
            u = 1 << self.index[i]
        elif z3.Z3_get_ast_kind(ref, a) == z3.Z3_APP_AST:
            for k in range(z3.Z3_get_app_num_args(ref, a)):
                u |= self._uses_of(z3.Z3_get_app_arg(ref, a, k))
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
        u = self._uses_of(a)
        key = (z3.Z3_get_ast_id(self.ref, a), pos & u, neg & u)
        hit = self._memo.get(key)
        if hit is None:
            if len(self._memo) >= self.limit:
                raise _TooBig
            hit = self._memo[key] = self._n1(a, pos & u, neg & u)
        return hit

    def _n1(self, a: Any, pos: int, neg: int) -> int:
        ref = self.ref
        i = z3.Z3_get_ast_id(ref, a)
        if i in self.index:
            b = 1 << self.index[i]
            return self.TRUE if pos & b else self.FALSE if neg & b else self._leaf(a)
        if z3.Z3_get_ast_kind(ref, a) != z3.Z3_APP_AST or z3.Z3_get_app_num_args(ref, a) == 0:
            return self._leaf(a)
        n = z3.Z3_get_app_num_args(ref, a)
        dk = z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, a))
        arg = z3.Z3_get_app_arg
        if dk == z3.Z3_OP_ITE:
            c = self._n(arg(ref, a, 0), pos, neg)
            if c == self.TRUE:
                return self._n(arg(ref, a, 1), pos, neg)
            if c == self.FALSE:
                return self._n(arg(ref, a, 2), pos, neg)
            t1, f1, t0, f0 = self._decided(c)
            x = self._n(arg(ref, a, 1), pos | t1, neg | f1)
            y = self._n(arg(ref, a, 2), pos | t0, neg | f0)
            return x if x == y else self._node(("ite", c, x, y))
        if dk in (z3.Z3_OP_AND, z3.Z3_OP_OR):
            unit, zero = (self.TRUE, self.FALSE) if dk == z3.Z3_OP_AND else (self.FALSE, self.TRUE)
            kept: set[int] = set()
            for k in range(n):
                x = self._n(arg(ref, a, k), pos, neg)
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
            x = self._n(arg(ref, a, 0), pos, neg)
            if x == self.TRUE:
                return self.FALSE
            if x == self.FALSE:
                return self.TRUE
            kx = self._keys[x]
            return kx[1] if kx[0] == "not" else self._node(("not", x))
        if dk == z3.Z3_OP_BADD and z3.Z3_get_bv_sort_size(ref, z3.Z3_get_sort(ref, a)) == 32:
            # a sum: its constant, and each term with its multiplicity mod 2^32
            const = 0
            terms: dict[int, int] = {}
            for k in range(n):
                x = self._n(arg(ref, a, k), pos, neg)
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
            at = self._n(arg(ref, a, 1), pos, neg)
            if self._keys[at][0] == "c":
                hit = self._stored(self._keep(arg(ref, a, 0)), self._keys[at][1])
                if hit is not None:
                    return self._n(hit, pos, neg)
                src = self._n(arg(ref, a, 0), 0, 0)
                if self._keys[src][0] == "t":  # a register's lane at entry, or an EXEC bit
                    one = self._keep(z3.Z3_mk_select(ref, self._asts[self._keys[src][1]].as_ast(),
                                                     self._const_term(at).as_ast()))
                    lit = self.index.get(one.get_id())
                    if lit is not None:
                        return (self.TRUE if pos >> lit & 1 else self.FALSE if neg >> lit & 1
                                else self._leaf(one.as_ast()))
                    return self._leaf(one.as_ast())
            args: tuple[int, ...] = (self._n(arg(ref, a, 0), 0, 0), at)
        else:
            args = tuple(self._n(arg(ref, a, k), pos, neg) for k in range(n))
        if dk == z3.Z3_OP_EQ and args[0] == args[1]:
            return self.TRUE
        if all(self._keys[x][0] == "c" for x in args):  # an operation on constants: its value
            consts = [self._const_term(x) for x in args]  # (alive until z3 has used them)
            arr, m = _arr(consts)
            r = self._keep(z3.Z3_simplify(ref, self._keep(z3.Z3_update_term(ref, a, m, arr)).as_ast()))
            if z3.is_bv_value(r) or z3.is_true(r) or z3.is_false(r):
                return self._leaf(r.as_ast())
        return self._node(("app", z3.Z3_get_ast_id(ref, z3.Z3_func_decl_to_ast(ref, z3.Z3_get_app_decl(ref, a))),
                           args, i))

    def _const_term(self, node: int) -> Any:
        key = self._keys[node]
        if key[1] is True or key[1] is False:
            return self.s.true if key[1] else self.s.false
        if key[3] == 32:
            return self.s.bv(key[1])  # (cached in the Session)
        v = z3.BitVecVal(key[1], key[3], self.s.ctx)
        return self._keep(v.as_ast())

    def _stored(self, arr: Any, k: int) -> Any:
        """What `arr` (a chain of stores at constant lanes over a constant
        array) holds at lane k, as an AST; None if that is not known."""
        ref = self.ref
        a = arr.as_ast()
        while z3.Z3_get_ast_kind(ref, a) == z3.Z3_APP_AST:
            dk = z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, a))
            if dk == z3.Z3_OP_STORE:
                at = _bv_numeral(ref, z3.Z3_get_app_arg(ref, a, 1))
                if at is None:
                    return None
                if at == k:
                    return z3.Z3_get_app_arg(ref, a, 2)
                a = z3.Z3_get_app_arg(ref, a, 0)
            elif dk == z3.Z3_OP_CONST_ARRAY:
                return z3.Z3_get_app_arg(ref, a, 0)
            else:
                return None
        return None

    def _build(self, node: int) -> Any:
        key = self._keys[node]
        s, ref = self.s, self.ref
        kind = key[0]
        if kind == "c":
            return self._const_term(node)
        if kind == "t":
            return self._asts[key[1]]
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
        orig = self._asts[key[3]]  # "app": the original application, its arguments normal
        arr, n = _arr([self._z(x) for x in key[2]])
        return z3.z3._to_expr_ref(z3.Z3_update_term(ref, orig.as_ast(), n, arr), s.ctx)

    def _z(self, node: int) -> Any:
        """The node's z3 term, constants included."""
        key = self._keys[node]
        return self._const_term(node) if key[0] == "c" else self.term(node)

# ---- source non-determinism (verify/tv/nondet.py) ---------------------------
QUERIES = [0]  # solver checks asked in this process (Query.check, check_forall): `verify tv --json`


def query_count() -> int:
    return QUERIES[0]


def mentions(term: Any, wanted: Sequence[Any], memo: dict[int, frozenset[int]]) -> frozenset[int]:
    """The indexes in `wanted` (uninterpreted constants) of those `term`
    mentions; `memo` (by ast id) is shared between the terms of one proof."""
    if type(term) in (int, bool):
        return frozenset()
    ids = {c.get_id(): k for k, c in enumerate(wanted)}
    stack = [term]
    while stack:
        t = stack[-1]
        tid = t.get_id()
        if tid in memo:
            stack.pop()
            continue
        kids = t.children()
        todo = [c for c in kids if c.get_id() not in memo]
        if todo:
            stack += todo
            continue
        stack.pop()
        own = frozenset([ids[tid]]) if tid in ids else frozenset()
        memo[tid] = own.union(*(memo[c.get_id()] for c in kids)) if kids else own
    return memo[term.get_id()]


def residue(q: Query, consts: Sequence[Any]) -> Any:
    """The assertions of `q` under its model, except the constants `consts`
    (renamed apart, left unknown): a condition on `consts` alone (and on
    constants the model left open, which stay unknown too)."""
    fresh = [z3.FreshConst(c.sort(), "choice") for c in consts]
    pairs = list(zip(consts, fresh))
    body = z3.And(*q._terms()) if q.assertions else z3.BoolVal(True, q.ctx)
    return q.model.eval(z3.substitute(body, *pairs) if pairs else body, model_completion=False)


def check_forall(q: Query, consts: Sequence[Any], rlimit: int) -> str:
    """sat / unsat / unknown of: for every value of `consts`, all of `q`'s
    assertions hold (z3's quantifier engine, on a resource limit).  A sat
    leaves the model (without `consts`) on `q`."""
    body = z3.And(*q._terms()) if q.assertions else z3.BoolVal(True, q.ctx)
    s = z3.Solver(ctx=q.ctx)
    b = _BUDGET.get()
    if b is not None:
        if b.spent:
            q.model, q.reason = None, b.reason()
            return "unknown"
        rlimit = min(rlimit, b.left)
    s.set("timeout", int(NO_TIMEOUT * 1000))
    s.set("rlimit", rlimit)
    s.set("random_seed", q.seed)
    s.add(z3.ForAll(list(consts), body) if consts else body)
    QUERIES[0] += 1
    before = _rlimit_count(s) if b is not None else 0
    r = s.check()
    if b is not None:
        b.used += _rlimit_count(s) - before
    if r == z3.sat:
        q.model = s.model()
        return "sat"
    q.model = None
    if r == z3.unsat:
        return "unsat"
    q.reason = s.reason_unknown()
    return "unknown"


def substituted(q: Query, pairs: Sequence[tuple[Any, Any]]) -> Any:
    """The conjunction of `q`'s assertions with each constant of `pairs`
    replaced by its term (the Session's definitions included, replaced too)."""
    body = z3.And(*q._terms()) if q.assertions else z3.BoolVal(True, q.ctx)
    return z3.substitute(body, *[(c, q.session.bv(t) if q.session is not None else t) for c, t in pairs])


def replaced(term: Any, pairs: Sequence[tuple[Any, Any]]) -> Any:
    """`term` with each constant of `pairs` replaced by its term (a Python
    int stands for a 32-bit constant)."""
    if type(term) in (int, bool) or not pairs:
        return term
    ctx = term.ctx
    return z3.substitute(term, *[(c, z3.BitVecVal(t, 32, ctx) if type(t) is int else t) for c, t in pairs])


# --- half ---
# binary16 / bfloat16 / binary32 operations rounded once (add, mul, fma, the
# conversions) on z3's floating-point sorts; the concrete meaning is
# verify.backend.fp_exact, and tests/test_half_sem.py holds the two
# together.  Lane values are 32-bit bit-vectors holding the format's bits
# zero-extended.  A NaN result is the format's quiet NaN.  [S:half-arith]

def _fp_sort(s: Session, fmt: str) -> Any:
    e, f = FP_FORMATS[fmt]
    return z3.FPSort(e, f + 1, s.ctx)


def _fp_of(s: Session, x: Any, fmt: str) -> Any:
    width = sum(FP_FORMATS[fmt]) + 1
    bv = s.bv(x)
    if width < 32:
        bv = z3.Extract(width - 1, 0, bv)
    return z3.fpBVToFP(bv, _fp_sort(s, fmt), s.ctx)


def _z3_fparith(self: Z3, op: str, fmt: str, *xs: Any) -> Any:
    s = self.s
    ctx = s.ctx
    if op.startswith("cvt:"):
        r = z3.fpFPToFP(s.rne, _fp_of(s, xs[0], op[4:]), _fp_sort(s, fmt), ctx)
    else:
        a, b = _fp_of(s, xs[0], fmt), _fp_of(s, xs[1], fmt)
        if op == "add":
            r = z3.fpAdd(s.rne, a, b, ctx)
        elif op == "mul":
            r = z3.fpMul(s.rne, a, b, ctx)
        elif op == "fma":
            r = z3.fpFMA(s.rne, a, b, _fp_of(s, xs[2], fmt), ctx)
        else:
            raise ValueError(op)
    bits = z3.fpToIEEEBV(r, ctx)
    width = sum(FP_FORMATS[fmt]) + 1
    if width < 32:
        bits = z3.ZeroExt(32 - width, bits)
    return self.ite(z3.fpIsNaN(r, ctx), FP_QNAN[fmt], bits)


Z3.fparith = _z3_fparith  # type: ignore[attr-defined]
