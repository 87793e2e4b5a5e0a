"""The term-level shortcuts that keep verify tv's kernels fast build the
same values as the general path: a known lowest-set-bit, a bpermute's
address taken where its lane runs, a memory read's address comparisons."""

from __future__ import annotations

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
    assert len(calls) == 2  # lo and hi once, not once per store
    assert mem.race_at(*a) is False  # single-lane stores never race
    # the value: the last enabled store's, else memory's initial value
    ev = smt.Evaluator({"p.lo": 4, "p.hi": 0, "A.lo": 4, "A.hi": 0} | {f"en{i}": i in (2, 5) for i in range(8)})
    assert ev(v) == 5
