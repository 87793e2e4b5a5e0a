"""Issue #37, the closed loop: set.inactive chains in whole-wave regions as
LLVM's SIWholeQuadMode computes them [S:wwm-region]."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

LLC = shutil.which("llc-22")

HEAD = "declare i32 @llvm.amdgcn.readlane.i32(i32, i32)\ndeclare i32 @llvm.amdgcn.set.inactive.i32(i32, i32)\n" \
       "declare i32 @llvm.amdgcn.strict.wwm.i32(i32)\ndeclare i32 @llvm.bitreverse.i32(i32)\n" \
       'attributes #0 = { "target-features"="+wavefrontsize64" }\n'

# verify emit's spelling of wave_reduce_fsub_gfx9's start (a set.inactive,
# then a lane-wise op on it, then the set.inactive the whole-wave reads use)
CHAIN = """define i32 @chain(i32 %x) #0 {
entry:
  %a = call i32 @llvm.amdgcn.set.inactive.i32(i32 %x, i32 0)
  %b = xor i32 -2147483648, %a
  %c = call i32 @llvm.bitreverse.i32(i32 1)
  %d = call i32 @llvm.amdgcn.set.inactive.i32(i32 %b, i32 %c)
  %r0 = call i32 @llvm.amdgcn.readlane.i32(i32 %d, i32 0)
  %r1 = call i32 @llvm.amdgcn.readlane.i32(i32 %d, i32 1)
  %r2 = call i32 @llvm.amdgcn.readlane.i32(i32 %d, i32 2)
  %s0 = add i32 %r0, %r1
  %s1 = add i32 %s0, %r2
  %w = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %s1)
  ret i32 %w
}
"""


def test_the_region_is_llvms():
    from verify.tv.llir import read_module
    from verify.tv.sem import wwm_region
    fn = read_module("c.ll", CHAIN + HEAD).functions[0]
    names = {i.key: i.name for i in fn.insts}
    assert sorted(names[k] for k in wwm_region(fn)) == ["%c", "%d", "%r0", "%r1", "%r2", "%s0", "%s1"]


def test_a_set_inactive_chain_is_proved(tmp_path):
    p = tmp_path / "c.ll"
    p.write_text(CHAIN + HEAD)
    code, out, _ = cli("tv", str(p), "--target", "gfx900", "--wave", "64")
    assert code == 0, out
    assert out.splitlines()[0] == "chain on gfx900 wave64 (llvmlite): proved (19 GPU instructions)"


@pytest.mark.skipif(LLC is None, reason="llc-22 not installed")
def test_a_value_from_outside_the_region_read_in_whole_wave_mode_is_refuted(tmp_path):
    # LLVM computes the xor in exact mode and selects the inactive lanes'
    # value in whole-wave mode; reading the xor's register there instead
    # reads the input's inactive lanes, not -0.0
    p = tmp_path / "c.ll"
    p.write_text(CHAIN + HEAD)
    assert LLC is not None
    asm = subprocess.run([LLC, "-mtriple=amdgcn", "-mcpu=gfx900", str(p), "-o", "-"],
                         capture_output=True, text=True, check=True).stdout
    sel = "v_cndmask_b32_e64 v1, v1, v0, s[4:5]"
    assert asm.index("v_xor_b32_e32 v0") < asm.index("s_or_saveexec_b64") < asm.index(sel)
    s = tmp_path / "m.s"
    s.write_text(asm.replace(sel, "v_mov_b32_e32 v1, v0"))
    code, out, _ = cli("tv", str(p), "--target", "gfx900", "--wave", "64", "--asm", str(s))
    lines = out.splitlines()
    assert code == 1, out
    assert lines[0] == f"chain on gfx900 wave64 ({s}): refuted (19 GPU instructions)"
    assert "  counterexample: EXEC = 0x1" in lines


def test_a_read_across_lanes_of_a_set_inactive_outside_whole_wave_mode_is_unsupported(tmp_path):
    # IntrinsicsAMDGPU.td gives lane 1 the value 7; LLVM 22 copies %x (its
    # v_readlane reads v0): not decided either way
    p = tmp_path / "r.ll"
    p.write_text("define i32 @rl(i32 %x) #0 {\nentry:\n"
                 "  %a = call i32 @llvm.amdgcn.set.inactive.i32(i32 %x, i32 7)\n"
                 "  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %a, i32 1)\n  %n = add i32 %a, 1\n"
                 "  %s = add i32 %r, %n\n  ret i32 %s\n}\n" + HEAD)
    code, out, _ = cli("tv", str(p), "--target", "gfx900", "--wave", "64")
    assert code == 4, out
    assert out.splitlines()[1] == (
        f"  {p}:4:3: unsupported: a read across lanes of the inactive lanes of %a, a set.inactive outside a "
        "strict.wwm/wwm computation (LLVM copies its first operand there)")


# ---- lane normal forms: a compare of two selects of the same two constants ----

def test_a_compare_of_two_selects_of_constants_is_the_compare_of_their_conditions():
    """LLVM's `icmp eq (select %c, 1, 0), (select %d, 1, 0)` as the IR run
    builds it (z3 folds it to c == d) and the GPU's v_cndmask 0, 1 compared
    by v_cmp_eq: one node ([S:lane-normal]); and each normal form is its
    term's value (random inputs, the lane's EXEC bit set).  The terms are
    built with z3 itself (the backend would fold some)."""
    import random

    import z3

    from verify import smt
    B = smt.Z3()
    ctx = B.session.ctx
    x, y = B.fresh("x"), B.fresh("y")
    e = [B.fresh_bool("e0"), B.fresh_bool("e1")]
    c, d = x != 0, z3.ULT(y, x)

    def k(v: int):
        return z3.BitVecVal(v, 32, ctx)

    def sel(cond, a: int, b: int):
        return z3.If(cond, k(a), k(b))
    gpu = sel(c, 1, 0) == sel(d, 1, 0)
    ir = c == d
    norm = smt.LaneNormal(B.session, e)
    assert norm.normal(gpu, 0) == norm.normal(ir, 0) == norm.normal(d == c, 0)
    assert norm.normal(sel(c, 7, 3) == k(7), 0) == norm.normal(c, 0)
    assert norm.normal(k(3) == sel(c, 7, 3), 0) == norm.normal(z3.Not(c), 0)
    assert norm.normal(sel(c, 7, 3) == k(5), 0) == norm.FALSE
    assert norm.normal(sel(c, 1, 0) == sel(d, 0, 1), 0) != norm.normal(ir, 0)  # (not the same pair)
    rnd = random.Random(7)
    terms = [gpu, sel(c, 7, 3) == sel(d, 7, 3), k(3) == sel(e[1], 7, 3), sel(c, 7, 3) == k(7),
             sel(c, 7, 3) == k(5), sel(c, 1, 0) == sel(d, 0, 1), c == (y != 0), z3.BoolVal(True, ctx) == c,
             z3.BoolVal(False, ctx) == d]
    for t in terms:
        nt = norm.term(norm.normal(t, 0))
        for _ in range(20):
            env: dict[str, int | bool] = {"x": rnd.choice([0, 1, rnd.randrange(1 << 32)]),
                                          "y": rnd.choice([0, 1, rnd.randrange(1 << 32)]),
                                          "e0": True, "e1": rnd.random() < 0.5}
            ev = smt.Evaluator(env, B.session)
            assert ev(nt) == ev(t), (t, env)
