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
