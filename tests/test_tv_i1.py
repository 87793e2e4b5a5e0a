"""i1 in verify tv (issue 31): a callable function's i1 argument is bit 0
of its VGPR (SGPR inreg), the bits above unknown, as both of llc-22's
selectors read it (they mask it first); `readfirstlane.i1` and the other
split intrinsics run on the zero-extended bit; an i1 store writes the byte 0
or 1.  LLVM's code proves; code that reads a bit above bit 0 is refuted."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import LLC, llc_asm, mutate, tv_on_asm

pytestmark = pytest.mark.skipif(LLC is None, reason="needs llc-22")

IR = """define void @store_i1(ptr addrspace(1) %out, i1 %src) {
  %r = call i1 @llvm.amdgcn.readfirstlane.i1(i1 %src)
  store i1 %r, ptr addrspace(1) %out, align 4
  ret void
}

define void @select_i1(ptr addrspace(1) %out, i1 inreg %src, i32 %x) {
  %s = select i1 %src, i32 %x, i32 7
  store i32 %s, ptr addrspace(1) %out
  ret void
}
"""

CASES = [  # (function, llc-22's gfx900 line, its mutant)
    (None, None, None),
    ("store_i1", "s_and_b32 s4, s4, 1", "s_and_b32 s4, s4, 3"),  # the unknown bit 1 stored too
    ("store_i1", "v_readfirstlane_b32 s4, v2", "v_readlane_b32 s4, v2, 1"),  # lane 1, not the first active
    ("select_i1", "s_bitcmp1_b32 s16, 0", "s_bitcmp1_b32 s16, 1"),  # bit 1 of the argument's SGPR: unknown
]


@pytest.mark.parametrize(("fn", "old", "new"), CASES)
def test_i1_arguments_and_stores(tmp_path: Path, fn: str | None, old: str | None, new: str | None) -> None:
    src = tmp_path / "i1.ll"
    src.write_text(IR)
    asm = llc_asm(src, "gfx900")
    if fn is None:
        for f in ("store_i1", "select_i1"):
            code, r = tv_on_asm(tmp_path, src, asm, "gfx900", "--function", f)
            assert (code, r["verdict"]) == (0, "proved"), r
        return
    assert old is not None and new is not None
    code, r = tv_on_asm(tmp_path, src, mutate(asm, old, new), "gfx900", "--function", fn)
    assert (code, r["verdict"]) == (1, "refuted"), r
