"""z3 itself (the one module of verify that imports it: the other parts of
verify.smt take it from here), the sessions that own terms, and the
symbolic backend.

:class:`Z3` implements the backend protocol on z3 bit-vectors, folding every
operation whose operands are constants through the concrete backend, so
lane-index arithmetic, constant controls and a constant EXEC never reach the
solver.  Each proof makes its terms in a :class:`Session` (a z3 context) of
its own, so that what it answers depends on its input only, never on what
ran before in the process.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

import z3 as z3  # re-exported: the other parts of verify.smt take z3 from here

from ..backend import (
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
from ..identities import F32_NEG_ZERO

SOLVER = f"z3 {z3.get_version_string()}"
z3.set_param("smt.random_seed", 0)
z3.set_param("sat.random_seed", 0)


def _keep_freed_memory() -> None:
    """Making a z3 context touches about 16 MB, which glibc hands back to the
    system when the context is deleted; with a context per proof every proof
    would fault it in again (~15 ms, more than a small proof takes).  Keeping
    64 MB of freed heap in the process makes a context cost ~2 ms.  Blocks
    up to 32 MB come from that heap rather than each from its own mapping
    (M_MMAP_THRESHOLD, which also stops glibc raising it as it goes), and
    freed heap is trimmed only past 1 GB: a context's large tables are then
    reused, not faulted in again (half the page faults of a tv run, issue
    #35).  A no-op where the C library has no mallopt."""
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(ctypes.c_int(-2), ctypes.c_int(64 << 20))  # M_TOP_PAD
        libc.mallopt(ctypes.c_int(-3), ctypes.c_int(32 << 20))  # M_MMAP_THRESHOLD
        libc.mallopt(ctypes.c_int(-1), ctypes.c_int(1 << 30))  # M_TRIM_THRESHOLD
    except (OSError, AttributeError):
        pass


_keep_freed_memory()


def _unchecked(fn: Any) -> Any:
    """The C function under one of z3core's wrappers, without the error
    check the wrapper makes after every call (a second C call and two Python
    frames: a third of a lane-normal walk's time, issue #35).  Only for the
    accessors below, which cannot fail on a live AST of the context they are
    given; a z3 whose wrappers have another shape gets the checked ones."""
    d = getattr(fn, "__defaults__", None)
    f = getattr(d[0], "f", None) if d else None
    return f if callable(f) else fn


# unchecked accessors for hot walks over terms (verify.smt.lanenormal)
ast_id = _unchecked(z3.Z3_get_ast_id)
ast_kind = _unchecked(z3.Z3_get_ast_kind)
app_num_args = _unchecked(z3.Z3_get_app_num_args)
app_arg = _unchecked(z3.Z3_get_app_arg)
app_decl = _unchecked(z3.Z3_get_app_decl)
decl_kind = _unchecked(z3.Z3_get_decl_kind)
is_numeral = _unchecked(z3.Z3_is_numeral_ast)
sort_of = _unchecked(z3.Z3_get_sort)
sort_kind = _unchecked(z3.Z3_get_sort_kind)
bv_size = _unchecked(z3.Z3_get_bv_sort_size)
inc_ref = _unchecked(z3.Z3_inc_ref)
is_eq = _unchecked(z3.Z3_is_eq_ast)


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
        return bool(is_eq(self.ref, a.as_ast(), b.as_ast()))

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
    return ast_kind(ref, a) == z3.Z3_APP_AST and decl_kind(ref, app_decl(ref, a)) == z3.Z3_OP_ITE


def _arg(v: Any, k: int) -> Any:
    """The AST of argument `k` of application `v` (one C call: ``v.arg(k)``
    wraps it in Python and checks it, a hot path's cost)."""
    return app_arg(v.ctx.ref(), v.as_ast(), k)


def _is_const(v: Any, k: int, n: int) -> bool:
    """Argument `k` of application `v` is the 32-bit constant `n`."""
    a = z3.BitVecNumRef(_arg(v, k), v.ctx)
    return bool(z3.is_bv_value(a) and a.size() == 32 and a.as_long() == n)


def _arg_is(v: Any, k: int, t: Any) -> bool:
    """Argument `k` of application `v` is the term `t`."""
    return bool(is_eq(v.ctx.ref(), _arg(v, k), t.as_ast()))


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


def _plain_reads(ref: Any, terms: Sequence[Any], arrays: set[int],
                 known: tuple[set[int], list[Any]] | None = None) -> bool:
    """Every read of an array of `arrays` (ast ids) in `terms` is at a
    numeral index, no such array is used otherwise (a store, an equality),
    and no quantifier or bound variable occurs: lane_twins' `plain`, on the
    C API (a walk over every node of a lane question is a hot path).
    `known`: ast ids whose terms are known plain for these `arrays` (not
    walked again) and the terms that keep them alive (an id is reused once
    its term is freed); where the answer is yes, every node walked joins
    them."""
    seen: set[int] = set()
    stack = [t.as_ast() for t in terms]
    app, sel = z3.Z3_APP_AST, z3.Z3_OP_SELECT
    done = known[0] if known is not None else set()
    while stack:
        a = stack.pop()
        k = ast_id(ref, a)
        if k in seen or k in done:
            continue
        seen.add(k)
        kind = ast_kind(ref, a)
        if kind != app:
            if kind == z3.Z3_NUMERAL_AST:
                continue
            return False  # (a quantifier or a bound variable: not ours)
        n = app_num_args(ref, a)
        if n == 0:
            continue
        kids = [app_arg(ref, a, j) for j in range(n)]
        if decl_kind(ref, app_decl(ref, a)) == sel and \
                ast_id(ref, kids[0]) in arrays:
            if not is_numeral(ref, kids[1]):
                return False
            continue
        for c in kids:
            if ast_id(ref, c) in arrays:
                return False
        stack.extend(kids)
    if known is not None:
        known[0].update(seen)
        known[1].extend(terms)  # (every node walked is a subterm of one)
    return True


def _arr(terms: Sequence[Any]) -> tuple[Any, int]:
    n = len(terms)
    arr = (z3.Ast * n)()
    for k, t in enumerate(terms):
        arr[k] = t.as_ast()
    return arr, n


def upper_bound(t: Any, budget: int = 400) -> int | None:
    """A number the bit-vector term `t` never exceeds (unsigned), read off
    its shape, or None: a numeral is itself; `zero_extend` keeps the bound
    of what it takes; `bvadd`/`bvmul` add or multiply the bounds where that
    does not wrap; `ite` the larger of its two; `bvand` the smaller.  So a
    lane count (popcount: a sum of `ite(c, 1, 0)`, counted in 8 bits) plus a
    constant, the value of `v_mbcnt_lo_u32_b32 vD, x, 15`, is known to be at
    most 32 + 15, as LLVM's known-bits analysis knows it
    (llvm.amdgcn.mbcnt.ll `mbcnt_lo_known_bits_4`).  Each node is read once
    (a DAG's shared parts too), at most `budget` of them: past that, None.
    [S:tv-known-bits] [S:mbcnt]"""
    if type(t) is int:
        return t
    if not z3.is_bv(t):
        return None
    ref = t.ctx.ref()
    # (on the C API: a walk through Python's wrappers cost 170 us a node, and
    # `and_` asks this of every masked term; the nodes live as long as `t`)
    memo: dict[int, int | None] = {}
    left = [budget]
    app = z3.Z3_APP_AST
    zext, badd, bmul, ite, band = (z3.Z3_OP_ZERO_EXT, z3.Z3_OP_BADD, z3.Z3_OP_BMUL,
                                   z3.Z3_OP_ITE, z3.Z3_OP_BAND)

    def ub(x: Any) -> int | None:
        n = _bv_numeral(ref, x)
        if n is not None:
            return n
        key = ast_id(ref, x)
        if key in memo:
            return memo[key]
        left[0] -= 1
        if left[0] < 0 or ast_kind(ref, x) != app:
            return None
        k = decl_kind(ref, app_decl(ref, x))
        out: int | None = None
        if k == zext:
            out = ub(app_arg(ref, x, 0))
        elif k in (badd, bmul):
            acc: int | None = 0 if k == badd else 1
            top = (1 << bv_size(ref, sort_of(ref, x))) - 1
            for j in range(app_num_args(ref, x)):
                u = ub(app_arg(ref, x, j))
                if u is None or acc is None:
                    acc = None
                    break
                acc = acc + u if k == badd else acc * u
                if acc > top:
                    acc = None
                    break
            out = acc
        elif k == ite:
            a = ub(app_arg(ref, x, 1))
            b = ub(app_arg(ref, x, 2)) if a is not None else None
            out = None if a is None or b is None else max(a, b)
        elif k == band:
            known = [u for u in (ub(app_arg(ref, x, j)) for j in range(app_num_args(ref, x)))
                     if u is not None]
            out = min(known) if known else None
        memo[key] = out
        return out

    return ub(t.as_ast())


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
        # id(list) -> (list, all lanes one term, _lanes_of, len(_lane_of) then): select
        self._reads: dict[int, tuple[Any, bool, Any, int]] = {}
        self._index_kind: dict[int, tuple[list[int], str]] = {}  # id(lane map) -> (it, its shape): _lane_index
        self._decided: dict[int, tuple[Any, Any]] = {}  # ast id -> (the term, kept alive; decide's answer)
        self._plans: dict[int, tuple[Any, ...]] = {}  # id(list) -> (list, kind, data): see _select_planned
        self._n_arrays = 0
        self._lane_of: dict[int, tuple[Any, ...]] = {}  # ast id -> (term, register array, lane)
        self._lane_arrs: tuple[int, dict[int, Any]] = (0, {})  # (len(_lane_of), its arrays): _lane_arrays
        self._plain: tuple[frozenset[int], set[int], list[Any]] = (frozenset(), set(), [])  # _plain_known
        # id(list) -> (the list, its length, len(_lane_of) then, _lanes_of's answer): a list read at
        # a symbolic lane in every lane (a ds_bpermute's EXEC bits) is matched once, not once a lane
        self._lanes_memo: dict[int, tuple[Any, int, int, Any]] = {}
        self._fresh_lanes: dict[tuple[str, int, bool], tuple[Any, ...]] = {}
        # (hi, lo) ast ids -> (hi, lo, the 64-bit sum whose halves they are): see _carried
        self._wide: dict[tuple[int, int], tuple[Any, Any, Any]] = {}

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

    def _lane_arrays(self) -> dict[int, Any]:
        """Every register array of _lane_of by ast id (remade only when
        _lane_of has grown: it only grows, and lane_local asks W times)."""
        if self._lane_arrs[0] != len(self._lane_of):
            self._lane_arrs = (len(self._lane_of), {t[1].get_id(): t[1] for t in self._lane_of.values()})
        return self._lane_arrs[1]

    def _plain_known(self) -> tuple[set[int], list[Any]]:
        """The ast ids _plain_reads found plain for the lane arrays as they
        are now, and the terms keeping them alive (lane_twins and lane_local
        walk the same lane questions)."""
        key = frozenset(self._lane_arrays())
        if self._plain[0] != key:
            self._plain = (key, set(), [])
        return self._plain[1], self._plain[2]

    def _swap_pairs(self, i: int, r: int) -> list[tuple[Any, Any]]:
        """The substitution that swaps lanes i and r of every register array."""
        ref = self.s.ref
        pairs = []
        for arr in self._lane_arrays().values():
            a = z3.ExprRef(z3.Z3_mk_select(ref, arr.as_ast(), self.s.bv(i).as_ast()), self.s.ctx)
            b = z3.ExprRef(z3.Z3_mk_select(ref, arr.as_ast(), self.s.bv(r).as_ast()), self.s.ctx)
            pairs += [(a, b), (b, a)]
        return pairs

    def lane_local(self, conds: Sequence[Any], fixed: Sequence[Any] = ()) -> bool:
        """Is every lane question conds[i] a twin of conds[0] (lane_twins:
        the same term once lanes i and 0 are swapped in every register
        array), with every assertion of `fixed` (the rest of the query)
        unchanged by each such swap, up to the order of an and/or's
        operands, and every read of a register array at a constant lane?
        Then conds[0] unsatisfiable beside `fixed` makes every conds[i] so
        (a swap maps a model of one to a model of the other): a lane-local
        program (each lane's value made by the same code from its own
        lanes' unknowns) asks one question instead of W.  Lane 1 is looked
        at first: a program that moves values across lanes pays one
        substitution."""
        if self.s.defs or len(conds) < 2 or any(type(c) is bool for c in conds) or not self._lane_of:
            return False
        ref = self.s.ref
        swaps: dict[int, tuple[Any, Any, int]] = {}

        def swapped(t: Any, i: int) -> Any:  # t with lanes i and 0 swapped (the C API: a hot path)
            if i not in swaps:
                pairs = self._swap_pairs(i, 0)
                frm, n = _arr([p[0] for p in pairs])
                to, _ = _arr([p[1] for p in pairs])
                swaps[i] = (frm, to, n)
            frm, to, n = swaps[i]
            return self.s.W(z3.Z3_substitute(ref, t.as_ast(), n, frm, to))  # (kept alive while compared)

        first = conds[0].as_ast()
        if not z3.Z3_is_eq_ast(ref, swapped(conds[1], 1).as_ast(), first):
            return False
        live = [a for a in fixed if type(a) is not bool]
        if not _plain_reads(ref, [*conds, *live], set(self._lane_arrays()), self._plain_known()):
            return False
        andor = (z3.Z3_OP_AND, z3.Z3_OP_OR)

        def kids_of(a: Any) -> list[int]:
            return sorted(ast_id(ref, app_arg(ref, a, k)) for k in range(app_num_args(ref, a)))

        kinds = [decl_kind(ref, app_decl(ref, a.as_ast())) if ast_kind(ref, a.as_ast()) == z3.Z3_APP_AST else None
                 for a in live]
        kids = [kids_of(a.as_ast()) if k in andor else None for a, k in zip(live, kinds)]
        for i in range(2, len(conds)):
            if not z3.Z3_is_eq_ast(ref, swapped(conds[i], i).as_ast(), first):
                return False
        for i in range(1, len(conds)):
            for a, ka, kd in zip(live, kids, kinds):
                bw = swapped(a, i)
                b = bw.as_ast()
                if z3.Z3_is_eq_ast(ref, b, a.as_ast()):
                    continue
                if ka is None or ast_kind(ref, b) != z3.Z3_APP_AST or decl_kind(ref, app_decl(ref, b)) != kd \
                        or ka != kids_of(b):
                    return False
        return True

    def lane_twins(self, conds: Sequence[Any]) -> list[int | None]:
        """For each lane question conds[i], a lane r < i whose question is
        the same one up to a swap of lanes i and r in every register array
        (fresh_lanes), or None: ask it.  Swapping two entries of every array
        maps each model of conds[i] to a model of the swapped formula, so
        when that formula is conds[r] (the very same term) the two are
        satisfiable alike, provided nothing else the query holds tells the
        lanes apart.  The caller guarantees that (no assertion beside the
        question); here: no session definitions (`defs`), and every read of
        a register array at a constant lane (a read at a computed lane would
        not follow the swap).  A lane-local program's questions, made by the
        same code on each lane's own unknowns, are all twins of the first
        lane's: one question instead of W."""
        out: list[int | None] = [None] * len(conds)
        if self.s.defs or len(conds) < 2:
            return out
        arrays = self._lane_arrays()
        if not arrays:
            return out
        ref = self.s.ref
        live = [i for i, c in enumerate(conds) if type(c) is not bool]
        # every lane array read at a numeral lane (on the C API: a walk over every node)
        if not _plain_reads(ref, [conds[i] for i in live], set(arrays), self._plain_known()):
            return out
        reps: list[int] = []  # the lanes asked
        for i in live:
            for r in reps:
                pairs = []
                for arr in arrays.values():
                    a = z3.ExprRef(z3.Z3_mk_select(ref, arr.as_ast(), self.s.bv(i).as_ast()), self.s.ctx)
                    b = z3.ExprRef(z3.Z3_mk_select(ref, arr.as_ast(), self.s.bv(r).as_ast()), self.s.ctx)
                    pairs += [(a, b), (b, a)]
                # (z3.substitute without its Python checks: the pairs are selects of one array, one sort)
                frm, n = _arr([p[0] for p in pairs])
                to, _ = _arr([p[1] for p in pairs])
                swapped = self.s.W(z3.Z3_substitute(ref, conds[i].as_ast(), n, frm, to))
                if z3.Z3_is_eq_ast(ref, swapped.as_ast(), conds[r].as_ast()):
                    out[i] = r
                    break
            else:
                if len(reps) < 2:  # (a lane-local program's twins are all the first lane's)
                    reps.append(i)
        return out

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
        if type(a) is int and type(b) is int:
            return (a + b) & 0xFFFFFFFF
        hi = self._carried(a, b, True)
        if hi is None:
            hi = self._carried(b, a, True)
        if hi is None:
            hi = self._widened(a, b)
        if hi is None:
            hi = self._widened(b, a)
        if hi is not None:
            return hi
        if type(a) is int and a == 0:
            return b
        if type(b) is int and b == 0:
            return a
        return self.s.bin(z3.Z3_mk_bvadd, a, b)

    # A 64-bit add or subtract written on halves (`s_add_u32`/`s_addc_u32`,
    # `v_add_co_u32`/`v_add_co_ci_u32`, the IR's i64 on pairs): the high half
    # x + carry(p + q) (x - borrow(p - q)) is made the high half of one 64-bit
    # term, P(c, p) + P(d, q) (x = c + d), where P(h, l) is the 64-bit sum
    # whose halves h and l are, if one was made so, else their concatenation.
    # A chain of such adds then is one flat 64-bit sum that z3's rewriting
    # sorts, so two orders of the same adds (the atomic optimizer's prefix
    # sum added to the old value, the IR's lane-by-lane atomic) are one term,
    # where on halves they are carry chains the solver cannot meet.  Each
    # result equals, as a function, the half it stands for.
    def _carried(self, x: Any, y: Any, add: bool) -> Any:
        """The high half `x + y` (add) or `x - y` where y is the carry of a
        32-bit add (the borrow of a subtract), as described above; else None."""
        if type(y) is int or not _is_ite(y) or not (_is_const(y, 1, 1) and _is_const(y, 2, 0)):
            return None
        cond = self.s.WB(_arg(y, 0))
        if not z3.is_app_of(cond, z3.Z3_OP_ULT):
            return None
        u, v = cond.arg(0), cond.arg(1)
        if u.size() != 32:  # (a carry out of 32 bits only: a 16- or 64-bit compare is another thing)
            return None
        if add:  # carry(p + q) is (p + q) <u p
            if not (z3.is_app_of(u, z3.Z3_OP_BADD) and u.num_args() == 2):
                return None
            p, q = u.arg(0), u.arg(1)
            if not p.eq(v):
                if not q.eq(v):
                    return None
                p, q = q, p
            lo = u
        else:  # borrow(p - q) is p <u q
            p, q = u, v
            lo = self.sub(p, q)
        op = z3.Z3_OP_BADD if add else z3.Z3_OP_BSUB
        c, d = (x.arg(0), x.arg(1)) if type(x) is not int and z3.is_app_of(x, op) and x.num_args() == 2 else (x, 0)
        if add and self._wide_of(c, p) is None and self._wide_of(d, q) is None and (
                self._wide_of(c, q) is not None or self._wide_of(d, p) is not None):
            p, q = q, p  # (which high half goes with which low half: a sum's pairs where made)
        a64, b64 = self.pair64(c, p), self.pair64(d, q)
        s64 = z3.simplify(a64 + b64 if add else a64 - b64)
        hi = z3.simplify(z3.Extract(63, 32, s64))
        if z3.is_bv_value(hi):
            return hi.as_long()
        self._wide[(hi.get_id(), lo.get_id() if type(lo) is not int else -1 - lo)] = (hi, lo, s64)
        return hi

    def _wide_of(self, hi: Any, lo: Any) -> Any:
        if type(hi) is int or type(lo) is int:
            return None
        got = self._wide.get((hi.get_id(), lo.get_id()))
        return got[2] if got is not None else None

    def pair64(self, hi: Any, lo: Any) -> Any:
        """The 64-bit term of halves (hi, lo): a sum made by _carried, a
        product's halves made one product (_product64), or their
        concatenation (adjacent extracts of one term merged by z3's rewriting)."""
        w = self._wide_of(hi, lo)
        if w is not None:
            return w
        w = self._product64(hi, lo)
        if w is not None:
            return w
        if type(hi) is int and type(lo) is int:
            return z3.BitVecVal((hi & 0xFFFFFFFF) << 32 | (lo & 0xFFFFFFFF), 64, self.s.ctx)
        return z3.simplify(z3.Concat(self.s.bv(hi), self.s.bv(lo)))

    def _product64(self, hi: Any, lo: Any) -> Any:
        """Halves of a 64-bit product (the atomic optimizer's value times a
        lane count, v_mad_u64_u32 or s_mul_i32/s_mul_hi_u32): lo = a * b and
        hi = r + mul_hi(a, b) are the 64-bit term zext(a) * zext(b) + (r << 32),
        which is (c:a) * zext(b) where r = c * b; else None."""
        if type(lo) is int or type(hi) is int or not z3.is_app_of(lo, z3.Z3_OP_BMUL):
            return None
        lo, hi = z3.simplify(lo), z3.simplify(hi)  # (sums flattened, a carry of 0 folded)
        if z3.is_app_of(hi, z3.Z3_OP_EXTRACT) and hi.params() == [63, 32] and hi.arg(0).size() == 64:
            w = hi.arg(0)  # (a product _widened made: its low half is lo)
            if z3.simplify(z3.Extract(31, 0, w)).eq(lo):
                return w
        if not z3.is_app_of(lo, z3.Z3_OP_BMUL) or lo.num_args() != 2:
            return None
        a, b = lo.arg(0), lo.arg(1)
        mh = self.mul_hi(a, b)
        if type(mh) is int:
            return None
        adds = list(hi.children()) if z3.is_app_of(hi, z3.Z3_OP_BADD) else [hi]
        at = next((j for j, t in enumerate(adds) if t.eq(mh)), None)
        if at is None:
            return None
        rest = adds[:at] + adds[at + 1:]
        if not rest:
            return z3.simplify(z3.ZeroExt(32, a) * z3.ZeroExt(32, b))
        r = rest[0] if len(rest) == 1 else z3.simplify(z3.Sum(*rest))
        if z3.is_app_of(r, z3.Z3_OP_BMUL) and r.num_args() == 2:
            for x, y in ((a, b), (b, a)):
                for c, f in ((r.arg(0), r.arg(1)), (r.arg(1), r.arg(0))):
                    if f.eq(y):  # (r = c * y, lo = x * y)
                        return z3.simplify(z3.Concat(c, x) * z3.ZeroExt(32, y))
        return z3.simplify(z3.ZeroExt(32, a) * z3.ZeroExt(32, b) + z3.Concat(r, z3.BitVecVal(0, 32, self.s.ctx)))

    def _widened(self, r: Any, e: Any) -> Any:
        """`r + e` where e is the high half Extract(63, 32, Z) of a 64-bit
        term Z with an addend zext(y) * zext(k) (a product made one by
        _product64) and r = c * k: the high half of Z with that addend made
        (c:y) * zext(k), which is Z + (r << 32) (v_mad_u64_u32's second step,
        the value's high word times k added to the high half: the GPU's
        old + value * k meets the IR's 64-bit sum); else None."""
        if type(r) is int or type(e) is int or not z3.is_app_of(r, z3.Z3_OP_BMUL):
            return None
        if not z3.is_app_of(e, z3.Z3_OP_EXTRACT) or e.params() != [63, 32] or e.arg(0).size() != 64:
            return None
        r = z3.simplify(r)
        if not z3.is_app_of(r, z3.Z3_OP_BMUL) or r.num_args() != 2:
            return None
        z = e.arg(0)
        adds = list(z.children()) if z3.is_app_of(z, z3.Z3_OP_BADD) else [z]
        for j, t in enumerate(adds):
            if not (z3.is_app_of(t, z3.Z3_OP_BMUL) and t.num_args() == 2):
                continue
            for k64, wy in ((t.arg(0), t.arg(1)), (t.arg(1), t.arg(0))):
                if not (z3.is_app_of(wy, z3.Z3_OP_CONCAT) and wy.num_args() == 2 and z3.is_bv_value(wy.arg(0))
                        and wy.arg(0).as_long() == 0 and wy.arg(0).size() == 32):
                    continue
                k = z3.simplify(z3.Extract(31, 0, k64))
                if not z3.simplify(z3.ZeroExt(32, k)).eq(k64):
                    continue
                for c, f in ((r.arg(0), r.arg(1)), (r.arg(1), r.arg(0))):
                    if f.eq(k):  # (r = c * k: the addend zext(y) * zext(k) becomes (c:y) * zext(k))
                        adds2 = adds[:j] + [z3.Concat(c, wy.arg(1)) * k64] + adds[j + 1:]
                        hi = z3.simplify(z3.Extract(63, 32, z3.Sum(*adds2) if len(adds2) > 1 else adds2[0]))
                        return hi.as_long() if z3.is_bv_value(hi) else hi
        return None

    def mul_hi(self, a: Any, b: Any) -> Any:
        """The high 32 bits of the unsigned 64-bit product a * b, as one
        64-bit product term (ops/addr.py's mul_hi_u32 builds it from 16-bit
        halves on other backends; the same value): so halves a product was
        computed in are one product again (_product64)."""
        if type(a) is int and type(b) is int:
            return (a * b) >> 32
        if (type(a) is int and a == 0) or (type(b) is int and b == 0):
            return 0
        t = z3.simplify(z3.Extract(63, 32, z3.ZeroExt(32, self.s.bv(a)) * z3.ZeroExt(32, self.s.bv(b))))
        return t.as_long() if z3.is_bv_value(t) else t

    def sub(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return (a - b) & 0xFFFFFFFF
        if type(b) is int and b == 0:
            return a
        hi = self._carried(a, b, False)
        return hi if hi is not None else self.s.bin(z3.Z3_mk_bvsub, a, b)

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
        if type(b) is int and not b & (b + 1):
            kept = self._low_mask(a, b, 0)
            if kept is not None:
                return kept
        m = self._mask_op(a, b, lambda x, y: self.and_b(x, y))
        return m if m is not None else self.s.bin(z3.Z3_mk_bvand, a, b)

    def _low_mask(self, a: Any, b: int, depth: int) -> Any:
        """`a & b` (b = 2^k - 1) where the mask clears nothing in `a`, or in
        a branch of `a`'s ite (a register's lane: the new value where the
        lane is active, the old one elsewhere): that branch as it is, the
        other masked; None where no branch gains.  A constant branch gains
        nothing (`and` folds it anyway), and rewriting around one only moved
        the mask: `ite(exec[i], 0, v & 0x7fffffff)` for a DPP lane with
        bound_ctrl, an f32 |x| that the IR's freeze choices no longer met
        (cg_exclusive_scan_greater_f32_t16_gfx9 went from proved to unknown).
        [S:tv-known-bits]"""
        if depth and z3.is_bv_value(a):
            return None
        u = upper_bound(a)
        if u is not None and u <= b:
            return a
        if depth > 2 or not z3.is_app(a) or a.decl().kind() != z3.Z3_OP_ITE:
            return None
        c, x, y = a.children()
        kx, ky = self._low_mask(x, b, depth + 1), self._low_mask(y, b, depth + 1)
        if kx is None and ky is None:
            return None
        return self.ite(c, kx if kx is not None else self.s.bin(z3.Z3_mk_bvand, x, b),
                        ky if ky is not None else self.s.bin(z3.Z3_mk_bvand, y, b))

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
        m = self._mask_op(a, b, lambda x, y: self.not_b(self._iff(x, y)))
        return m if m is not None else self.s.bin(z3.Z3_mk_bvxor, a, b)

    def not_(self, a: Any) -> Any:
        if type(a) is int:
            return ~a & 0xFFFFFFFF
        bits = self._lane_bits(a)
        if bits is not None:  # a lane mask's complement is one too (s_not_b64 exec, s_andn2 against it)
            return self.from_bits([self.not_b(x) for x in bits])
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
        if type(a) is int and a == 0:  # umax's identity (a scan's inactive lanes): the term kept small
            return b
        if type(b) is int and b == 0:
            return a
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
            if type(a) is bool or type(b) is bool:  # (x == True) is x
                c, k = (b, a) if type(a) is bool else (a, b)
                return c if k else self.not_b(c)
            return self.s.WB(z3.Z3_mk_eq(self.s.ref, self.s.boolean(a).as_ast(), self.s.boolean(b).as_ast()))
        if (type(b) is int and b == 0) or (type(a) is int and a == 0):
            bits = self._lane_bits(b if type(b) is not int else a)
            if bits is not None:  # a lane mask is 0 iff none of its lanes' conditions holds
                return self.not_b(self.or_b(*_absorbed(bits)))
        pair = self._mask_pair(a, b)
        if pair is not None:  # two lane masks are equal iff every lane's conditions agree
            return self.and_b(*(self._iff(x, y) for x, y in zip(*pair)))
        if self.canon_eq:
            a, b = _canon2(a, b)  # one term for x == y and y == x
        return self.s.cmp(z3.Z3_mk_eq, a, b)

    def _lane_bits(self, v: Any) -> tuple[Any, ...] | None:
        """The 32 conditions `v` was built from by :meth:`from_bits`, if it was."""
        if not self._bits:  # (no lane mask made yet: every select asks)
            return None
        hit = self._bits.get(ast_id(self.s.ref, v.as_ast()))
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

    # An unsigned compare with a constant is always `x < k` or its negation
    # (c < x is not x < c + 1; x <= c is x < c + 1; c <= x is not x < c), so
    # that LLVM's `v_cmp_lt_u32 15, v` and the IR's `icmp ult %v, 16` are one
    # atom: a branch's mask and the IR's condition then share their terms.
    def ult(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return a < b
        if type(a) is int:
            return False if a == 0xFFFFFFFF else self.not_b(self.s.cmp(z3.Z3_mk_bvult, b, a + 1))
        if type(b) is int and b == 0:  # (nothing is below 0: the carry of an add of 0)
            return False
        return self.s.cmp(z3.Z3_mk_bvult, a, b)

    def ule(self, a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            return a <= b
        if type(b) is int:
            return True if b == 0xFFFFFFFF else self.s.cmp(z3.Z3_mk_bvult, a, b + 1)
        if type(a) is int:
            return True if a == 0 else self.not_b(self.s.cmp(z3.Z3_mk_bvult, b, a))
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
        if len(rest) == 2 and _complements(*rest):  # x and not x
            return False
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
        if len(rest) == 2 and _complements(*rest):  # x or not x (a branch's mask joined with its other's)
            return True
        arr, n = _arr(rest)
        return self.s.WB(z3.Z3_mk_or(self.s.ref, n, arr))

    def not_b(self, c: Any) -> Any:
        if type(c) is bool:
            return not c
        if z3.is_not(c):  # not not c is c: a branch's and its join's masks then share terms
            return c.arg(0)
        return self.s.WB(z3.Z3_mk_not(self.s.ref, c.as_ast()))

    def any_bit(self, *ws: Any) -> Any:
        """Some bit of the words is set (a 64-bit result's SCC).  Where every
        word is a lane mask, the OR of all their lanes' conditions, a lane's
        dropped where another lane's condition is one of its conjuncts
        (x or (x and y) is x): the SCC of `s_and_b64 s, vcc, R` in LLVM's
        lane loops, each lane's bit the one compare of a uniform value
        under that lane's EXEC bit, is then that compare."""
        bits: list[Any] = []
        for w in ws:
            lb = self._lane_bits(w) if type(w) is not int else tuple(bool((w >> k) & 1) for k in range(32))
            if lb is None:
                return self.or_b(*(self.ne(x, 0) for x in ws))
            bits.extend(lb)
        return self.or_b(*_absorbed(bits))

    def bit(self, a: Any, k: int) -> Any:
        if type(a) is int:
            return (a >> k) & 1 == 1
        hit = self._bits.get(ast_id(self.s.ref, a.as_ast()))
        if hit is not None and self.s.same(hit[0], a):
            return hit[1][k]
        ext = self.s.W(z3.Z3_mk_extract(self.s.ref, k, k, a.as_ast()))
        return self.s.WB(z3.Z3_mk_eq(self.s.ref, ext.as_ast(), self.s.one1.as_ast()))

    def from_bits(self, bits: Sequence[Any]) -> Any:
        bits = list(bits) + [False] * (32 - len(bits))
        if all(type(b) is bool for b in bits):
            return bits_value(bits)
        ref = self.s.ref
        key = tuple(b if type(b) is bool else ast_id(ref, b.as_ast()) for b in bits)
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

    def same(self, a: Any, b: Any) -> bool:
        """The very same term (z3's structural identity; asks no question)."""
        return same(a, b)

    def decide(self, c: Any) -> Any:
        if type(c) is bool:
            return c
        hit = self._decided.get(c.get_id())  # (one simplification per term: a chain asks each lane's again)
        if hit is not None:
            return hit[1]
        r = z3.simplify(c)
        out = True if z3.is_true(r) else False if z3.is_false(r) else c
        self._decided[c.get_id()] = (c, out)
        return out

    def select(self, vals: Sequence[Any], idx: Any) -> Any:
        """vals[idx]; a symbolic index reads a z3 array built once per list."""
        if type(idx) is int:
            return vals[idx]
        if self.lane_arrays:
            return self._select_planned(vals, idx)
        first = vals[0]
        # (a list is read at W symbolic lanes in a row, a shuffle's: what it
        # is decided once, kept with the list so that its id stays its own)
        seen = self._reads.get(id(vals))
        if seen is None or seen[0] is not vals or seen[3] != len(self._lane_of):
            same = all(self.s.same(v, first) for v in vals)
            seen = self._reads[id(vals)] = (vals, same, None if same else self._lanes_of(vals), len(self._lane_of))
        if seen[1]:
            return first
        read = self._as_read(vals, idx, seen[2])
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
        """(array, c_k) when every vals[k] is lane c_k of one array (asked
        again of the same list, the answer given before unless a lane was
        registered since)."""
        hit = self._lanes_memo.get(id(vals))
        if hit is not None and hit[0] is vals and hit[1] == len(vals) and hit[2] == len(self._lane_of):
            return hit[3]
        got = self._lanes_of1(vals)
        self._lanes_memo[id(vals)] = (vals, len(vals), len(self._lane_of), got)
        return got

    def _lanes_of1(self, vals: Sequence[Any]) -> tuple[Any, list[int]] | None:
        src: Any = None
        lanes = []
        ref = self.s.ref
        for v in vals:
            if type(v) is int or type(v) is bool:
                return None
            hit = self._lane_of.get(ast_id(ref, v.as_ast()))
            if hit is None or not self.s.same(hit[0], v):
                return None
            if src is None:
                src = hit[1]
            elif not self.s.same(hit[1], src):
                return None
            lanes.append(hit[2])
        return src, lanes

    def _lane_index(self, lanes: list[int], idx: Any) -> Any:
        """c(idx) for the lane map k -> c_k (its shape found once per list:
        a shuffle asks W times)."""
        hit = self._index_kind.get(id(lanes))
        if hit is None or hit[0] is not lanes:
            kind = "id" if all(c == k for k, c in enumerate(lanes)) else \
                "xor" if all(c == k ^ lanes[0] for k, c in enumerate(lanes)) else "chain"
            hit = self._index_kind[id(lanes)] = (lanes, kind)
        if hit[1] == "id":
            return idx
        if hit[1] == "xor":
            return self.xor(idx, lanes[0])
        at = lanes[-1]
        for k in range(len(lanes) - 2, -1, -1):
            at = self.ite(self.eq(idx, k), lanes[k], at)
        return at

    def _as_read(self, vals: Sequence[Any], idx: Any, got: tuple[Any, list[int]] | None) -> Any:
        """If every vals[k] is entry lane c_k of one register (`got`:
        _lanes_of(vals)), vals[idx] is that register's array read at c(idx):
        lane data never has to be compared bit by bit, only lane indices."""
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


def is_false(cond) -> bool:
    return cond is False


def renamed(cond: Any, pairs: Sequence[tuple[Any, str]]) -> tuple[str, Any]:
    """`cond` with each term of `pairs` replaced by a fresh constant of its sort
    named by the string, then simplified, and its SMT-LIB text: the same text
    is the same question (verify.sortnet asks one per distinct lane)."""
    if type(cond) is bool:
        return repr(cond), cond
    subs = [(t, z3.Const(name, t.sort())) for t, name in pairs if type(t) not in (int, bool)]
    c = z3.simplify(z3.substitute(cond, *subs) if subs else cond)
    return c.sexpr(), c


def _complements(x: Any, y: Any) -> bool:
    """Is one of the two conditions the other's negation?"""
    return (z3.is_not(x) and x.arg(0).eq(y)) or (z3.is_not(y) and y.arg(0).eq(x))


def _conjuncts(c: Any, out: set[int]) -> set[int]:
    """The ids of `c`'s conjuncts (nested ANDs flattened), `c`'s own too."""
    out.add(c.get_id())
    if z3.is_and(c):
        for x in c.children():
            _conjuncts(x, out)
    return out


def _absorbed(bits: Sequence[Any]) -> list[Any]:
    """The conditions whose OR is that of `bits`, each one that has another
    of them as a conjunct dropped (absorption: x or (x and y) is x), with
    repeats and False dropped; [True] if one is True."""
    seen: dict[int, Any] = {}
    for b in bits:
        if b is True:
            return [True]
        if b is not False:
            seen.setdefault(b.get_id(), b)
    if len(seen) < 2:
        return list(seen.values())
    keep = []
    for k, b in seen.items():
        if z3.is_and(b):
            conj = _conjuncts(b, set())
            conj.discard(k)
            if any(o in conj for o in seen if o != k):
                continue
        keep.append(b)
    return keep


def ite_parts(t: Any) -> tuple[Any, Any, Any] | None:
    """(c, a, b) where `t` is the select ite(c, a, b), else None."""
    if type(t) in (int, bool) or not _is_ite(t):
        return None
    c, a, b = t.children()
    return c, (a.as_long() if z3.is_bv_value(a) else a), (b.as_long() if z3.is_bv_value(b) else b)


def under(t: Any, c: Any) -> Any:
    """`t` where condition `c` holds: a select on `c` at the top (a register
    a VALU wrote in the lanes EXEC enables: ``ite(exec_i, new, old)``) is
    its first branch; anything else is `t`.  verify.tv uses it for a lane's
    memory access, whose address and data matter only where the lane is
    enabled: the IR's address and value, never selected on EXEC, are then
    often the very same terms."""
    if type(t) in (int, bool) or type(c) is bool:
        return t
    if not (_is_ite(t) and same(t.arg(0), c)):
        return t
    while _is_ite(t) and same(t.arg(0), c):
        t = t.arg(1)
    # (a constant as the backend makes one, a Python int: the terms built
    # from it are those built from the register's constant elsewhere)
    return t.as_long() if z3.is_bv_value(t) else t


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
    return a.ctx is b.ctx and bool(is_eq(a.ctx_ref(), a.as_ast(), b.as_ast()))
