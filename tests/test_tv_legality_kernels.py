"""An instruction the target cannot encode makes a kernel's or a pointer
function's instance a compiler error, as a plain function's
([S:tv-legality-everywhere]): before, only functions without memory had
their instructions checked, and a kernel's illegal DPP control was modelled
(here refuted; in other code it could have been proved)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import mutate, tv_on_asm

pytest.importorskip("llvmlite")

from verify import target as T
from verify.tv.compile import by_llvmlite

KERNEL = """define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %v = add i32 %id, %x
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 273, i32 15, i32 15, i1 false)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %d, ptr addrspace(1) %p
  ret void
}
"""
SHR = "v_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf"


def test_a_kernel_s_illegal_dpp_control_is_a_compiler_error(tmp_path: Path) -> None:
    src = tmp_path / "k.ll"
    src.write_text(KERNEL)
    asm = by_llvmlite(KERNEL, T.get("gfx1030"), 32)
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1030", "--wave", "32")
    assert (code, r["verdict"]) == (0, "proved"), r
    code, r = tv_on_asm(tmp_path, src, mutate(asm, SHR, SHR.replace("row_shr", "wave_shr")), "gfx1030", "--wave", "32")
    assert (code, r["verdict"]) == (1, "compiler error"), r
    assert r["notes"][0].endswith("wave_shr:1 is not available on gfx1030: GFX8/9 family only"), r["notes"]


def test_a_pointer_function_s_illegal_instruction_is_a_compiler_error(tmp_path: Path) -> None:
    src = Path(__file__).parent / "tv" / "llvm-shape" / "wide_store_order.ll"
    asm = by_llvmlite(src.read_text(), T.get("gfx1100"), 32)
    store = "global_store_b96 v[0:1], v[6:8], off offset:16"
    bad = mutate(asm, store, "v_mov_b32_dpp v6, v6 wave_shr:1 row_mask:0xf bank_mask:0xf\n\t" + store, "store_v7i32")
    code, r = tv_on_asm(tmp_path, src, bad, "gfx1100", "--wave", "32", "--function", "store_v7i32")
    assert (code, r["verdict"]) == (1, "compiler error"), r
    assert "wave_shr:1 is not available on gfx1100" in r["notes"][0], r["notes"]
