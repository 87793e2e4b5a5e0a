"""`verify emit` spellings that closed catalogue gaps: bit reversal and
population count through LLVM's intrinsics, f32 compares as fcmp with the
VOPC predicate's name, EXEC copied to SGPRs (s_mov sX, exec) as a ballot and
`s_mov exec, -1` after it as whole-wave mode, SGPR pairs moved half by half,
s_add_f32 (GFX11.5+), and the VOP3 DPP compare.  The slow tier compiles every
catalogue lowering and proves LLVM's code again (tests/test_emit.py)."""

import pytest

from verify import catalog, emit
from verify import target as T
from verify.lowering_file import load_lowering

pytest.importorskip("llvmlite")


def ir_of(name, target, wave):
    low = load_lowering(next(p for p in catalog.lowering_files() if p.stem == name))
    return low, emit.llvm_ir(low, T.TARGETS[target], wave, [])


@pytest.mark.parametrize("name, target, wave, needles", [
    ("wave_reduce_fsub_gfx9", "gfx900", 64, ["call i32 @llvm.bitreverse.i32(i32 "]),
    ("coalesced_size_w32", "gfx1100", 32, ["@llvm.amdgcn.ballot.i32(i1 true)", "call i32 @llvm.ctpop.i32(i32 %"]),
    ("coalesced_size_w64", "gfx900", 64, ["@llvm.amdgcn.ballot.i64(i1 true)", "lshr i64", "@llvm.ctpop.i32"]),
    ("all_equal_f32_w32", "gfx1100", 32, ["fcmp une float %"]),
    # s_mov_b32 s8, exec_lo; s_mov_b32 exec_lo, -1: whole-wave mode, s8 the saved EXEC
    ("labeled_reduce_add_w32", "gfx1100", 32, ["@llvm.amdgcn.set.inactive.i32(", "@llvm.amdgcn.strict.wwm.i32("]),
    # the saved EXEC read as a value inside the region: the ballot taken when it was copied
    ("coalesced_shfl_w32", "gfx1030", 32, ["@llvm.amdgcn.ballot.i32(i1 true)", "@llvm.amdgcn.mbcnt.lo(i32 %"]),
])
def test_spelled(name, target, wave, needles):
    _, ir = ir_of(name, target, wave)
    for n in needles:
        assert n in ir, (n, ir)


@pytest.mark.parametrize("name, target, wave", [("coalesced_size_w64", "gfx900", 64),
                                                ("all_equal_f32_w32", "gfx1030", 32)])
@pytest.mark.slow
def test_llvms_code_proves(name, target, wave):
    low, ir = ir_of(name, target, wave)
    r = emit.reverify(ir, low, T.TARGETS[target], wave)
    assert r.verdict == "proved", r.detail


def test_exec_all_ones_without_a_copy_is_refused(tmp_path):
    f = tmp_path / "x.s"
    f.write_text("; @spec cuda.activemask warp=32\n; @targets gfx1100\n; @waves 32\n; @exec any\n"
                 "; @input x = v0\n; @output out = v1\n; @clobbers s4\n"
                 "s_mov_b32 s4, exec_lo\ns_mov_b32 s4, 0\ns_mov_b32 exec_lo, -1\nv_mov_b32_e32 v1, s4\n")
    with pytest.raises(emit.Unsupported) as e:
        emit.llvm_ir(load_lowering(f), T.TARGETS["gfx1100"], 32, [])
    assert str(e.value) == (f"{f}:10:1: error: cannot emit s_mov_b32 as LLVM IR: EXEC is written outside the "
                            "whole-wave-mode pattern")
