"""verify tv: the IR semantics issue 12 added (wave.reduce, ballot.i64,
the permlane swaps, atomicrmw) run concretely, and a few proofs against
LLVM's code (fast tier: one target each)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify.backend import Concrete
from verify.target import get
from verify.tv.compile import by_llvmlite_isolated
from verify.tv.llir import read_module
from verify.tv.sem import ASCENDING, IRRun, Lanes, Memory, Unsupported

CORPUS = Path(__file__).parent / "tv"


def run_ir(body: str, decls: str, xs: list[int], exec_mask: int, wave: int = 32, target: str = "gfx1100",
           args: str = "i32 %x") -> list[int]:
    """Run a one-argument function concretely; returns the result per lane (active lanes)."""
    text = f"{decls}\ndefine i32 @f({args}) {{\n{body}\n}}\n"
    fn = read_module("t.ll", text).functions[0]
    B = Concrete()
    act = [bool(exec_mask >> i & 1) for i in range(wave)]
    run = IRRun(B, wave, get(target), exec_mask & 0xFFFFFFFF, exec_mask >> 32, act)
    out = run.run(fn, {fn.args[0].key: Lanes(list(xs), [False] * wave)})
    assert out is not None
    return [v for v, a in zip(out.vals, act) if a]


RED = "declare i32 @llvm.amdgcn.wave.reduce.{op}.i32(i32, i32)"


@pytest.mark.parametrize("op, want", [("add", (1 + 4 + 0xFFFFFFFB) & 0xFFFFFFFF), ("sub", -(1 + 4 + 0xFFFFFFFB) & 0xFFFFFFFF),
                                      ("xor", 1 ^ 4 ^ 0xFFFFFFFB),
                                      ("umin", 1), ("umax", 0xFFFFFFFB), ("min", 0xFFFFFFFB), ("max", 4),
                                      ("and", 1 & 4 & 0xFFFFFFFB), ("or", 1 | 4 | 0xFFFFFFFB)])
def test_wave_reduce_folds_the_active_lanes(op, want):
    xs = [1, 99, 4, 0xFFFFFFFB] + [7] * 28  # lanes 0, 2, 3 active
    got = run_ir(f"  %r = call i32 @llvm.amdgcn.wave.reduce.{op}.i32(i32 %x, i32 1)\n  ret i32 %r",
                 RED.format(op=op), xs, 0b1101)
    assert got == [want] * 3


def test_wave_reduce_uniform_closed_form_agrees_with_the_fold():
    for op, want in (("add", 5 * 3), ("sub", -15 & 0xFFFFFFFF), ("xor", 5), ("umax", 5)):
        got = run_ir(f"  %r = call i32 @llvm.amdgcn.wave.reduce.{op}.i32(i32 %x, i32 2)\n  ret i32 %r",
                     RED.format(op=op), [5] * 32, 0b10101)  # (one Python int: the uniform path)
        assert got == [want] * 3, op


def test_ballot_i64_in_wave64_and_its_high_half():
    decls = "declare i64 @llvm.amdgcn.ballot.i64(i1)\ndeclare i64 @llvm.ctpop.i64(i64)"
    xs = [i % 3 for i in range(64)]
    mask = (1 << 64) - 1 - (1 << 40)
    body = ("  %c = icmp ne i32 %x, 0\n  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %c)\n  %h = lshr i64 %b, 32\n"
            "  %t = trunc i64 %h to i32\n  ret i32 %t")
    want = sum(1 << i for i in range(64) if xs[i] and mask >> i & 1) >> 32
    assert set(run_ir(body, decls, xs, mask, wave=64)) == {want}
    body = ("  %c = icmp ne i32 %x, 0\n  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %c)\n"
            "  %n = call i64 @llvm.ctpop.i64(i64 %b)\n  %t = trunc i64 %n to i32\n  ret i32 %t")
    assert set(run_ir(body, decls, xs, mask, wave=64)) == {sum(1 for i in range(64) if xs[i] and mask >> i & 1)}


def test_ballot_i32_in_wave64_is_unsupported():
    with pytest.raises(Unsupported, match=r"ballot\.i32 needs wave32"):
        run_ir("  %c = icmp ne i32 %x, 0\n  %b = call i32 @llvm.amdgcn.ballot.i32(i1 %c)\n  ret i32 %b",
               "declare i32 @llvm.amdgcn.ballot.i32(i1)", [0] * 64, 1, wave=64)


def test_permlane_swaps_on_gfx950():
    xs = list(range(100, 164))
    for w, partner in ((16, lambda i: i ^ 16), (32, lambda i: i ^ 32)):
        body = (f"  %p = call {{ i32, i32 }} @llvm.amdgcn.permlane{w}.swap(i32 %x, i32 %x, i1 false, i1 false)\n"
                "  %a = extractvalue { i32, i32 } %p, 0\n  %b = extractvalue { i32, i32 } %p, 1\n"
                "  %s = shl i32 %a, 16\n  %r = or i32 %s, %b\n  ret i32 %r")
        got = run_ir(body, f"declare {{ i32, i32 }} @llvm.amdgcn.permlane{w}.swap(i32, i32, i1, i1)", xs,
                     (1 << 64) - 1, wave=64, target="gfx950")
        for i, v in enumerate(got):
            # vD (old) takes vS's lane in the other row/half of a pair, vS takes vD's: with old = src
            # both results are the same value at each lane: the lane's partner or itself
            a, b = v >> 16, v & 0xFFFF
            assert {a, b} <= {xs[i], xs[partner(i)]}, (w, i, a, b)
            assert a != b, (w, i)


def test_permlane_swap_is_unsupported_before_gfx950():
    with pytest.raises(Unsupported, match="gfx942"):
        run_ir("  %p = call { i32, i32 } @llvm.amdgcn.permlane32.swap(i32 %x, i32 %x, i1 false, i1 false)\n"
               "  %a = extractvalue { i32, i32 } %p, 0\n  ret i32 %a",
               "declare { i32, i32 } @llvm.amdgcn.permlane32.swap(i32, i32, i1, i1)", [0] * 64, 1, wave=64,
               target="gfx942")


def test_atomic_serialisation_same_address():
    """Lanes at one address: lane-ascending, each lane gets memory before it
    plus the earlier lanes' values; memory afterwards holds all of them."""
    B = Concrete()
    mem = Memory(B, lambda lo, hi: 1000)
    lanes = [(8, 0, 1, False, True), (8, 0, 2, False, False), (8, 0, 4, False, True), (12, 0, 8, False, True)]
    olds = mem.atomic("add", lanes, ASCENDING)
    assert [v for v, _ in olds] == [1000, 0, 1001, 1000]
    assert [p for _, p in olds] == [False, True, False, False]  # lane 1 is inactive: it reads nothing (poison)
    assert mem.read(8, 0)[0] == 1005 and mem.read(12, 0)[0] == 1008
    # another order: lane 2 first
    mem = Memory(B, lambda lo, hi: 1000)
    olds = mem.atomic("sub", lanes, lambda j, i: j > i)
    assert [v for v, _ in olds][::2] == [996, 1000] and mem.read(8, 0)[0] == 995


def test_atomic_min_is_signed_umin_unsigned():
    B = Concrete()
    for op, want in (("min", 0xFFFFFFFF), ("umin", 5)):
        mem = Memory(B, lambda lo, hi: 5)
        mem.atomic(op, [(0, 0, 0xFFFFFFFF, False, True)], None)
        assert mem.read(0, 0)[0] == want


@pytest.mark.slow
@pytest.mark.parametrize("fn", ["red_add", "ballot_cnt"])
def test_proved_against_llvm(tmp_path, fn):
    p = tmp_path / "f.ll"
    p.write_text(F_RED)
    code, out, err = cli("tv", str(p), "--target", "gfx942", "--function", fn)
    assert (code, err) == (0, ""), out
    assert out.splitlines()[0].startswith(f"{fn} on gfx942 wave64 (llvmlite): proved")


F_RED = """declare i32 @llvm.amdgcn.wave.reduce.add.i32(i32, i32)
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i64 @llvm.ctpop.i64(i64)
define i32 @red_add(i32 inreg %v) {
  %r = call i32 @llvm.amdgcn.wave.reduce.add.i32(i32 %v, i32 2)
  ret i32 %r
}
define i32 @ballot_cnt(i32 %v) {
  %c = icmp ne i32 %v, 0
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  %n = call i64 @llvm.ctpop.i64(i64 %b)
  %t = trunc i64 %n to i32
  ret i32 %t
}
"""


@pytest.mark.slow
def test_reduce_mutant_refuted(tmp_path):
    """wave.reduce.add against the code LLVM makes for wave.reduce.xor."""
    xor = tmp_path / "xor.ll"
    xor.write_text(F_RED.replace("wave.reduce.add", "wave.reduce.xor"))
    asm = tmp_path / "x.s"
    asm.write_text(by_llvmlite_isolated(xor.read_text(), get("gfx942"), 64))
    p = tmp_path / "f.ll"
    p.write_text(F_RED)
    code, out, _ = cli("tv", str(p), "--target", "gfx942", "--function", "red_add", "--asm", str(asm))
    assert code == 1, out
    assert "red_add on gfx942 wave64" in out and ": refuted" in out
