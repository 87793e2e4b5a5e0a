"""VCCZ before GFX10 ([S:vccz-partial]): a write of vcc_lo or vcc_hi alone
does not update VCCZ there, so an `s_cbranch_vccz/vccnz` that follows only
half-writes is not modelled (unsupported, never proved), while LLVM's own
shape (a whole-VCC `s_and_b64` before the branch, as SIInsertWaitcnts
ensures) is proved.  On GFX10+ the half-writes update VCCZ and the same
code is decided."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import LLC, llc_asm, mutate, tv_on_asm

IR = """define amdgpu_cs float @fpick(float inreg %c, float inreg %a, float inreg %b) {
entry:
  %cc = fcmp olt float %c, 1.0
  br i1 %cc, label %t, label %f
t:
  %x = fadd float %a, 1.0
  ret float %x
f:
  %y = fadd float %b, 2.0
  ret float %y
}
"""
WHOLE = "\ts_and_b64 vcc, exec, s[4:5]\n"
HALVES = "\ts_and_b32 vcc_lo, exec_lo, s4\n\ts_and_b32 vcc_hi, exec_hi, s5\n"


def _asm(tmp_path: Path, cpu: str, *flags: str) -> tuple[Path, str]:
    src = tmp_path / "f.ll"
    src.write_text(IR)
    return src, llc_asm(src, cpu, *flags, triple="amdgcn")


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_a_vcc_branch_after_half_writes_is_not_modelled_before_gfx10(tmp_path: Path) -> None:
    src, asm = _asm(tmp_path, "gfx900")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx900")
    assert (code, r["verdict"]) == (0, "proved"), r
    code, r = tv_on_asm(tmp_path, src, mutate(asm, WHOLE, HALVES), "gfx900")
    assert (code, r["verdict"]) == (4, "unsupported"), r
    assert any("s_cbranch_vccnz with no write of the whole VCC before it in its block" in n for n in r["notes"])


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_the_same_half_writes_update_vccz_on_gfx10(tmp_path: Path) -> None:
    src, asm = _asm(tmp_path, "gfx1030", "-mattr=+wavefrontsize64")
    code, r = tv_on_asm(tmp_path, src, mutate(asm, WHOLE, HALVES), "gfx1030", "--wave", "64")
    assert (code, r["verdict"]) == (0, "proved"), r


# SI/CI: the VCCZ bug ([S:vccz-bug], assumption vccz.sici): LLVM's Iterative
# atomic-optimizer loop branches on vccnz after a whole-VCC write made while no
# scalar load is outstanding
LOOP = """declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @add_i32_varying(ptr addrspace(1) %out, ptr addrspace(1) %inout) {
entry:
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %old = atomicrmw add ptr addrspace(1) %inout, i32 %lane syncscope("agent") acq_rel
  store i32 %old, ptr addrspace(1) %out
  ret void
}
"""
LOAD = "\ts_load_dwordx4 s[0:3], s[8:9], 0x0\n"
ENTRY = "\ts_mov_b64 s[0:1], exec\n"


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
@pytest.mark.parametrize("cpu", ["gfx600", "gfx701"])
def test_a_vcc_loop_on_si_ci_under_the_vccz_bug(tmp_path: Path, cpu: str) -> None:
    """LLVM's loop: proved under vccz.sici=llvm, unsupported under =never.
    A scalar load issued before the loop (outstanding at the loop's VCC
    write): unsupported, naming the branch; with a wait for lgkmcnt(0) before
    that write: proved again."""
    src = tmp_path / "k.ll"
    src.write_text(LOOP)
    asm = llc_asm(src, cpu, "-amdgpu-atomic-optimizer-strategy=Iterative")
    assert asm.count("s_cbranch_vccnz") == 1 and asm.count(LOAD) == 1, asm
    code, r = tv_on_asm(tmp_path, src, asm, cpu, "--timeout", "10")
    assert (code, r["verdict"]) == (0, "proved"), r
    assert r["assumptions"]["vccz.sici"] == "llvm" and "vccz.sici=llvm" in r["scope"], r
    code, r = tv_on_asm(tmp_path, src, asm, cpu, "--assume", "vccz.sici=never")
    assert (code, r["verdict"]) == (4, "unsupported"), r
    assert any("(vccz.sici=never)" in n for n in r["notes"]), r["notes"]
    early = mutate(asm, ENTRY, "\ts_load_dword s20, s[8:9], 0x0\n" + ENTRY)  # (a scalar load never waited for)
    code, r = tv_on_asm(tmp_path, src, early, cpu, "--timeout", "10")
    assert (code, r["verdict"]) == (4, "unsupported"), r
    assert any("s_cbranch_vccnz on a target with the VCCZ bug" in n for n in r["notes"]), r["notes"]
    waited = mutate(early, "\ts_and_b64 vcc, exec, s[2:3]\n", "\ts_waitcnt lgkmcnt(0)\n\ts_and_b64 vcc, exec, s[2:3]\n")
    code, r = tv_on_asm(tmp_path, src, waited, cpu, "--timeout", "10")
    assert (code, r["verdict"]) == (0, "proved"), r


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_si_s_vcc_loop_test_needs_exec_not_0_at_its_entry(tmp_path: Path) -> None:
    """The loop's VCC = EXEC & (R != 0) is its register's test only while
    EXEC is not 0 ([S:vccz-bug], cfg.lane_loop's premise): EXEC ANDed with
    the kernarg pointer's low words before the loop may be 0 there, so the
    loop is unsupported at its branch, never proved."""
    src = tmp_path / "k.ll"
    src.write_text(LOOP)
    asm = mutate(llc_asm(src, "gfx600", "-amdgpu-atomic-optimizer-strategy=Iterative"), ENTRY,
                 "\ts_and_b64 exec, exec, s[8:9]\n" + ENTRY)
    code, r = tv_on_asm(tmp_path, src, asm, "gfx600", "--timeout", "10")
    assert (code, r["verdict"]) == (4, "unsupported"), r
    assert any("a loop whose test of its register is ANDed with EXEC, where verify could not show EXEC is not 0"
               in n for n in r["notes"]), r["notes"]
