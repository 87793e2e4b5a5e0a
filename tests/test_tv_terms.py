"""The term-level shortcuts that keep verify tv's kernels fast build the
same values as the general path: a known lowest-set-bit, a bpermute's
address taken where its lane runs, a memory read's address comparisons."""

from __future__ import annotations

import pytest

from verify import smt
from verify.backend import Concrete
from verify.diag import Span
from verify.lowering_file import parse_instr
from verify.machine import Machine
from verify.ops.salu import _ff1
from verify.target import FeatureLog, get
from verify.tv.sem import Memory


def test_ff1_of_known_bits_is_the_symbolic_answer():
    B = smt.Z3()
    lo, hi = B.fresh("lo"), B.fresh("hi")
    sym = _ff1(B, lo, hi)
    sym32 = _ff1(B, lo)
    for x in (0, 1, 6, 0x80000000, 1 << 32, 1 << 63, 0xFFFF0000_00000000, (1 << 64) - 1):
        ev = smt.Evaluator({"lo": x & 0xFFFFFFFF, "hi": x >> 32})
        assert _ff1(B, x & 0xFFFFFFFF, x >> 32) == ev(sym) == _ff1(Concrete(), x & 0xFFFFFFFF, x >> 32)
        assert _ff1(B, x & 0xFFFFFFFF) == ev(sym32)
    assert _ff1(B, 0, 0) == 0xFFFFFFFF
    assert _ff1(B, 0, 1 << 31) == 63


def _machine(B, wave):
    def initial(kind, name, lane):
        if kind == "scc":
            return B.fresh_bool("scc")
        return B.fresh(f"{name}[{lane}]" if kind == "v" else name)
    m = Machine(B, wave, initial, FeatureLog(get("gfx942")), {}, waits=False)
    lo, hi = m.from_lane_bits(B.fresh_lanes("exec", wave, cond=True))
    m.set_s("exec_lo", lo)
    m.set_s("exec_hi", hi)
    return m


def test_bpermute_of_a_uniform_address_is_one_term_in_every_lane():
    """v2 = s0 << 2 written under a symbolic EXEC is ite(exec_i, s0 << 2,
    old) per lane; where lane i runs (the only place its read is written)
    that is s0 << 2, so every lane reads the same lane of v1: one term, one
    solver question instead of 64 (kernel_wave_shuffle_uniform)."""
    B = smt.Z3()
    m = _machine(B, 64)
    prog = ["s_lshl_b32 s1, s0, 2", "v_mov_b32 v2, s1", "ds_bpermute_b32 v3, v2, v1"]
    m.run([parse_instr(t, Span("t", k + 1)) for k, t in enumerate(prog)])
    out = m.v(3)
    ex = B.fresh_lanes("exec", 64, cond=True)
    # lane i's value is ite(exec_i, R, old_i) with one R for every lane
    reads = {smt.under(v, ex[i]).get_id() for i, v in enumerate(out)}
    assert len(reads) == 1
    # (that the values are right, concretely and symbolically alike, is
    # tests/test_semantics_agree.py's property test of every op)


def test_memory_read_asks_each_store_address_once_and_agrees():
    B = smt.Z3()
    calls = []
    eq = B.eq
    B.eq = lambda a, b: (calls.append((a, b)), eq(a, b))[1]
    mem = Memory(B, lambda lo, hi: B.uf("mem", lo, hi))
    p = (B.fresh("p.lo"), B.fresh("p.hi"))
    en = [B.fresh_bool(f"en{i}") for i in range(8)]
    for i in range(8):  # eight lanes' stores to one address (an atomic's steps)
        mem.write([(p[0], p[1], B.const(i), False, en[i])])
    a = (B.fresh("A.lo"), B.fresh("A.hi"))
    v, _ = mem.read(*a)
    # lo and hi once, not once per store: A against P, and (the stores all at P: memory at A is memory
    # at P where A == P, else as before them) P against itself, once
    assert calls == [(a[0], p[0]), (a[1], p[1]), (p[0], p[0]), (p[1], p[1])]
    assert mem.race_at(*a) is False  # single-lane stores never race
    # the value: the last enabled store's, else memory's initial value
    ev = smt.Evaluator({"p.lo": 4, "p.hi": 0, "A.lo": 4, "A.hi": 0} | {f"en{i}": i in (2, 5) for i in range(8)})
    assert ev(v) == 5


KERNEL = """declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %g = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %v = load i32, ptr addrspace(1) %g, align 4
  %w = add i32 %v, 1
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %w, ptr addrspace(1) %o, align 4
  ret void
}
"""


def _ir_run(B, fn, memo, args, tid, n, wave=32):
    from verify.tv.sem import IRRun
    act = [i < n for i in range(wave)]
    mem = Memory(B, lambda lo, hi: B.uf("mem", lo, hi))
    run = IRRun(B, wave, get("gfx1100"), (1 << n) - 1, 0, act, memory=mem, workitem_x=tid, memo=memo)
    run.run(fn, args)
    return run, mem


def test_ir_runs_share_lane_wise_results_only_for_the_same_operands():
    """verify tv runs a looping kernel's IR once per dispatch EXEC: the
    getelementptrs, the index's zext and workitem.id.x are built once and
    reused while their operands are the same objects; loads and stores,
    which depend on EXEC, are run each time; other operands: rebuilt."""
    from verify.tv.llir import read_module
    from verify.tv.sem import Lanes
    fn = read_module("k.ll", KERNEL).functions[0]
    B = smt.Z3()
    W = 32
    tid = [B.and_(v, B.const(0x3FF)) for v in B.fresh_lanes("v0", W)]
    args = {}
    for a in fn.args:
        lo, hi = B.fresh(f"{a.name}.lo"), B.fresh(f"{a.name}.hi")
        args[a.key] = Lanes([lo] * W, [False] * W, 64, False, [hi] * W)
    memo: dict = {}
    r1, m1 = _ir_run(B, fn, memo, args, tid, 3)
    r2, m2 = _ir_run(B, fn, memo, args, tid, 5)
    k = {i.text.split(" =")[0]: i.key for i in fn.insts}
    for name in ("%g", "%o", "%idx", "%id"):
        assert r1.env[k[name]] is r2.env[k[name]], name
    assert r1.env[k["%v"]] is not r2.env[k["%v"]]  # (a load: EXEC-dependent, never shared)
    # the stores follow each run's EXEC: 3 lanes, then 5
    assert [en for *_, en in m1.stores][:6] == [True] * 3 + [False] * 3
    assert [en for *_, en in m2.stores][:6] == [True] * 5 + [False]
    # the UB conditions: one per lane that runs the access (load and store)
    assert len(r1.ub) == 2 * 3 and len(r2.ub) == 2 * 5
    # other inputs: nothing reused
    args2 = {k: Lanes(list(v.vals), list(v.poison), 64, False, list(v.hi)) for k, v in args.items()}
    r3, _ = _ir_run(B, fn, memo, args2, tid, 5)
    assert r3.env[k["%g"]] is not r2.env[k["%g"]] and r3.env[k["%id"]] is r2.env[k["%id"]]


def test_memories_of_one_session_share_their_address_comparisons():
    B = smt.Z3()
    table: dict = {}

    def key(t):
        return ("i", t) if type(t) is int else t.get_id()
    calls = []
    eq = B.eq
    B.eq = lambda a, b: (calls.append(1), eq(a, b))[1]
    a = (B.fresh("A.lo"), B.fresh("A.hi"))
    vals = []
    for _ in range(2):  # two proofs' memories, with stores at the same (rebuilt) addresses
        mem = Memory(B, lambda lo, hi: B.uf("mem", lo, hi), (table, key))
        for i in range(4):
            mem.write([(B.add(B.fresh("p"), B.const(4 * i)), B.fresh("q"), B.const(i), False, True)])
        vals.append(mem.read(*a)[0])
    assert len(calls) == 8  # 4 stores x (lo, hi), asked by the first memory only
    assert vals[0].eq(vals[1])


def test_bit_select_is_recognised_from_the_raw_terms():
    """smt._is_bit_select reads an ite's constant branches through C calls:
    the same answer as z3's Python layer (one bit apart, 32-bit constants)."""
    B = smt.Z3()
    c = B.fresh_bool("c")
    x = B.fresh("x")
    cases = [(B.ite(c, B.const(8), B.const(0)), True), (B.ite(c, B.const(0), B.const(1 << 31)), True),
             (B.ite(c, B.const(3), B.const(0)), False), (B.ite(c, B.const(5), B.const(5 | 16)), True),
             (B.ite(c, x, B.const(0)), False), (B.add(x, B.const(1)), False), (7, True)]
    for term, want in cases:
        assert smt._is_bit_select(term) is want, term


def test_a_select_on_its_own_condition_inside_is_that_branch():
    """ite(c, ite(c, x, y), z) is ite(c, x, z) (a v_cndmask on EXEC's bits
    of a value written under EXEC), built as that very term, and equal to
    the nested one as a function."""
    import z3
    B = smt.Z3()
    c = B.fresh_bool("c")
    x, y, z = B.fresh("x"), B.fresh("y"), B.fresh("z")
    assert B.ite(c, B.ite(c, x, y), z).get_id() == B.ite(c, x, z).get_id()
    assert B.ite(c, x, B.ite(c, y, z)).get_id() == B.ite(c, x, z).get_id()
    assert B.ite(c, B.ite(c, x, y), B.ite(c, y, z)).get_id() == B.ite(c, x, z).get_id()
    other = B.fresh_bool("d")
    assert B.ite(c, B.ite(other, x, y), z).get_id() != B.ite(c, x, z).get_id()  # another condition: kept
    q = smt.Query(10)
    q.add(B.ne(z3.If(c, z3.If(c, x, y), z3.If(c, y, z)), B.ite(c, B.ite(c, x, y), B.ite(c, y, z))))
    assert q.check() == "unsat"


SELECT = """define i32 @f(i32 %x, i32 %y) {{
  %c = icmp {pred} i32 %x, %y
  %r = select i1 %c, i32 {a}, i32 {b}
  ret i32 %r
}}
"""


def _select_run(B, pred, a, b, xs, ys, xp=(False, False)):
    from verify.tv.llir import read_module
    from verify.tv.sem import IRRun, Lanes
    fn = read_module("s.ll", SELECT.format(pred=pred, a=a, b=b)).functions[0]
    args = {fn.args[0].key: Lanes(list(xs), list(xp)), fn.args[1].key: Lanes(list(ys), [False, False])}
    run = IRRun(B, 2, get("gfx1100"), 3, 0, [True, True])
    return run.run(fn, args)


def test_a_select_of_its_compares_operands_is_their_min_or_max():
    """select (icmp ugt x, y), x, y is umax(x, y) (either order, every
    ordered predicate) where the backend keeps min/max canonical (aci):
    the very term B.umax builds (so a nest meets the GPU's v_max chain in
    any order), whose values are the select's, with poison where an
    operand is.  The concrete backend runs the select as written: the same
    values."""
    preds = {"ugt": lambda x, y: x > y, "uge": lambda x, y: x >= y, "ult": lambda x, y: x < y,
             "ule": lambda x, y: x <= y,
             "sgt": lambda x, y: _s(x) > _s(y), "sge": lambda x, y: _s(x) >= _s(y),
             "slt": lambda x, y: _s(x) < _s(y), "sle": lambda x, y: _s(x) <= _s(y)}
    xs, ys = (3, 0xFFFFFFFE), (0x80000000, 7)
    for pred, holds in preds.items():
        for a, b in (("%x", "%y"), ("%y", "%x")):
            got = _select_run(Concrete(), pred, a, b, xs, ys)
            want = [(x if a == "%x" else y) if holds(x, y) else (y if a == "%x" else x) for x, y in zip(xs, ys)]
            assert got.vals == want, (pred, a)
            assert _select_run(Concrete(), pred, a, b, xs, ys, (True, False)).poison[0] is True
            B = smt.Z3(aci=True)
            sx, sy = B.fresh("x"), B.fresh("y")
            r = _select_run(B, pred, a, b, [sx, sx], [sy, sy])
            kind = {"g": "max", "l": "min"}[pred[1]] if a == "%x" else {"g": "min", "l": "max"}[pred[1]]
            ref = getattr(B, pred[0] + kind)(sx, sy)
            assert r.vals[0].get_id() == ref.get_id(), (pred, a)
            for lane, (x, y) in enumerate(zip(xs, ys)):  # the shortcut's values are the select's
                assert smt.Evaluator({"x": x, "y": y})(r.vals[0]) == want[lane], (pred, a, lane)
            rp = _select_run(B, pred, a, b, [sx, sx], [sy, sy], (True, False))
            assert rp.vals[0].get_id() == ref.get_id() and rp.poison[0] is True and rp.poison[1] is False


def _s(v: int) -> int:
    return v - (1 << 32) if v & 0x80000000 else v


def test_at_most_one_shared_across_calls_is_the_pairwise_formula():
    """Memory._at_most_one keeps each prefix's terms in the shared table (a
    kernel's per-EXEC proofs ask longer prefixes of the same lanes): every
    call, first or reusing the table, and with decided conditions among
    them, is "no two hold"."""
    B = smt.Z3()
    table: dict = {}
    key = lambda t: ("i", t) if type(t) is int else t.get_id()  # noqa: E731
    mem = Memory(B, lambda lo, hi: B.uf("mem", lo, hi), (table, key))
    a, b, c = B.fresh_bool("a"), B.fresh_bool("b"), B.fresh_bool("c")
    for conds in ([a, b], [a, b, c], [a, b], [a, True, b], [False, a, c]):
        got = mem._at_most_one(conds)
        pairwise = B.not_b(B.or_b(*[B.and_b(x, y) for k, x in enumerate(conds) for y in conds[k + 1:]]))
        q = smt.Query(10, session=B.session)
        q.add(B.not_b(B.eq(got, pairwise)))
        assert q.check() == "unsat", conds
    assert ("at_most_one",) in table  # the prefixes were kept
    # two holding at once is a race; one alone is not
    ev = smt.Evaluator({"a": True, "b": True, "c": False})
    assert ev(mem._at_most_one([a, b, c])) is False
    ev = smt.Evaluator({"a": False, "b": True, "c": False})
    assert ev(mem._at_most_one([a, b, c])) is True


def _valid(B, cond) -> bool:
    """`cond` holds for every value of its unknowns (with the session's defs)."""
    q = smt.Query(30, session=B.session)
    q.add(B.not_b(cond))
    return q.check() == "unsat"


def _lane_lists(B, W):
    xs = [B.add(B.fresh(f"x{k}"), B.const(k)) for k in range(W)]  # no lane of any array
    cs = B.fresh_lanes("c", W, cond=True)
    ys = [B.ite(cs[k], xs[k], B.fresh(f"y{k}")) for k in range(W)]
    return xs, cs, ys


@pytest.mark.slow
def test_lane_arrays_read_the_list_at_every_lane():
    """Under lane_arrays a list read at a symbolic lane is an unknown array
    defined lane by lane (Session.defs, in every question): each lane reads
    its own element, a permuted list reads the first list's array at the
    permuted lane, a list of selects reads the three lists."""
    W = 64
    B = smt.Z3(lane_arrays=True)
    xs, cs, ys = _lane_lists(B, W)
    j = B.fresh("j")
    at = B.and_(j, B.const(W - 1))
    r = B.select(xs, at)
    assert B.session.defs, "an array defined lane by lane"
    perm = [xs[k ^ 32] for k in range(W)]
    assert "bvxor" in B.select(perm, at).sexpr(), "the permuted list reads the first list's array"
    for k in (0, 5, 32, 63):
        assert _valid(B, B.or_b(B.ne(at, B.const(k)), B.eq(r, xs[k])))
        assert _valid(B, B.or_b(B.ne(at, B.const(k)), B.eq(B.select(perm, at), xs[k ^ 32])))
        assert _valid(B, B.or_b(B.ne(at, B.const(k)), B.eq(B.select(ys, at), ys[k])))
    # not vacuous: lane 5 of the list is not lane 6's element
    assert not _valid(B, B.or_b(B.ne(at, B.const(5)), B.eq(r, xs[6])))
    # another list gets an array of its own (never the first's by name)
    zs = [B.add(x, B.const(1)) for x in xs]
    assert not _valid(B, B.eq(B.select(zs, at), r))
    assert _valid(B, B.eq(B.select(zs, at), B.add(r, B.const(1))))


def test_lane_arrays_agree_with_the_store_chain():
    """The same reads as the default encoding (a chain of stores), lane by lane."""
    W = 32
    for B in (smt.Z3(), smt.Z3(lane_arrays=True)):
        xs, _, ys = _lane_lists(B, W)
        at = B.and_(B.fresh("j"), B.const(W - 1))
        for k in (0, 7, 31):
            q = smt.Query(30, session=B.session)
            q.add(B.eq(B.fresh("j"), B.const(k)))
            for n in range(W):
                q.add(B.eq(B.fresh(f"x{n}"), B.const(3 * n + 1)))
            q.add(B.ne(B.select(xs, at), B.const(3 * k + 1 + k)))
            assert q.check() == "unsat", (B.lane_arrays, k)
            q2 = smt.Query(30, session=B.session)
            q2.add(B.eq(B.fresh("j"), B.const(k)))
            q2.add(B.ne(B.select(ys, at), ys[k]))
            assert q2.check() == "unsat", (B.lane_arrays, k)


def test_under_all_takes_every_select_on_the_condition():
    B = smt.Z3()
    c, d = B.fresh_bool("cond_c"), B.fresh_bool("cond_d")
    a, b, e = B.fresh("a"), B.fresh("b"), B.fresh("e")
    t = B.add(B.ite(c, a, b), B.ite(d, B.ite(c, e, b), a))
    u = smt.under_all(t, c)
    assert "cond_c" in t.sexpr() and "cond_c" not in u.sexpr()
    assert _valid(B, B.or_b(B.not_b(c), B.eq(t, u)))
    assert not _valid(B, B.eq(t, u))  # only where c holds
    assert smt.under_all(t, True) is t
