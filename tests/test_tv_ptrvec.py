"""Vectors of pointers in verify tv (issue 31): as a kernel argument (by
value, a vector's layout: llc-22's metadata), loaded, stored and
dereferenced after an extractelement; LLVM's code proves, and a one-token
mutant of it is refuted."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import LLC, llc_asm, mutate, tv_on_asm

pytestmark = pytest.mark.skipif(LLC is None, reason="needs llc-22")

IR = """define amdgpu_kernel void @vp_arg(ptr addrspace(1) %out, <2 x ptr addrspace(1)> %ps, i32 %k) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = extractelement <2 x ptr addrspace(1)> %ps, i32 1
  %g = getelementptr i32, ptr addrspace(1) %p, i32 %id
  %x = load i32, ptr addrspace(1) %g
  %y = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 2)
  %go = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %y, ptr addrspace(1) %go
  ret void
}

define amdgpu_kernel void @vp_mem(ptr addrspace(1) %out, ptr addrspace(1) %src) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gs = getelementptr <2 x ptr addrspace(1)>, ptr addrspace(1) %src, i32 %id
  %v = load <2 x ptr addrspace(1)>, ptr addrspace(1) %gs
  %p = extractelement <2 x ptr addrspace(1)> %v, i32 1
  %x = load i32, ptr addrspace(1) %p
  %y = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  %g = getelementptr <2 x ptr addrspace(1)>, ptr addrspace(1) %out, i32 %id
  store <2 x ptr addrspace(1)> %v, ptr addrspace(1) %g
  store i32 %y, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @vp_lds(ptr addrspace(1) %out, ptr addrspace(1) %src) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gs = getelementptr [4 x i32], ptr addrspace(1) %src, i32 %id
  %v = load <3 x ptr addrspace(3)>, ptr addrspace(1) %gs
  %r = call <3 x ptr addrspace(3)> @llvm.amdgcn.mov.dpp8.v3p3(<3 x ptr addrspace(3)> %v, i32 1)
  %g = getelementptr [4 x i32], ptr addrspace(1) %out, i32 %id
  store <3 x ptr addrspace(3)> %r, ptr addrspace(1) %g
  ret void
}
"""

# (function, a line of llc-22's gfx1100 code, its mutant)
MUTANTS = [
    ("vp_arg", "s_load_b128 s[0:3], s[4:5], 0x10", "s_load_b128 s[0:3], s[4:5], 0x0"),  # the other argument
    ("vp_mem", "global_load_b32 v5, v[2:3], off", "global_load_b32 v5, v[0:1], off"),  # element 0, not 1
    ("vp_lds", "dpp8:[1,0,0,0,0,0,0,0]", "dpp8:[1,1,0,0,0,0,0,0]"),
]


@pytest.mark.parametrize(("fn", "old", "new"), MUTANTS)
def test_vector_of_pointers_proved_and_its_mutant_refuted(tmp_path: Path, fn: str, old: str, new: str) -> None:
    src = tmp_path / "ptrvec.ll"
    src.write_text(IR)
    asm = llc_asm(src, "gfx1100")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "32", "--function", fn)
    assert code == 0 and r["verdict"] == "proved", r
    start = asm.index(f"\n{fn}:")
    end = asm.index("s_endpgm", start)
    body = asm[start:end]
    assert body.count(old) >= 1, (old, body)
    bad = asm[:start] + body.replace(old, new, 1) + asm[end:]
    code, r = tv_on_asm(tmp_path, src, bad, "gfx1100", "--wave", "32", "--function", fn)
    assert code == 1 and r["verdict"] == "refuted", r


def test_gfx9_vmcnt_counts_a_store_issued_after_the_load(tmp_path: Path) -> None:
    """gfx900: `global_load v5; global_store; s_waitcnt vmcnt(1)` then a read
    of v5: before GFX10 vmcnt counts stores too, in issue order, so the load
    is back (LLVM's own code, proved); `vmcnt(2)` leaves it outstanding, and
    the read is refused, never proved."""
    src = tmp_path / "ptrvec.ll"
    src.write_text(IR[IR.index("define amdgpu_kernel void @vp_mem"):IR.index("define amdgpu_kernel void @vp_lds")])
    asm = llc_asm(src, "gfx900")
    start = asm.index("\nvp_mem:")
    body = asm[start:asm.index("s_endpgm", start)]
    assert body.index("global_load_dword v5") < body.index("global_store_dwordx4") < body.index("s_waitcnt vmcnt(1)")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx900", "--function", "vp_mem")
    assert code == 0 and r["verdict"] == "proved", r
    bad = mutate(asm, "s_waitcnt vmcnt(1)", "s_waitcnt vmcnt(2)", None)
    code, r = tv_on_asm(tmp_path, src, bad, "gfx900", "--function", "vp_mem")
    assert code == 4 and r["verdict"] == "unsupported", r
    assert any("reads a load result before its wait" in n for n in r["notes"]), r


NULLS = """define amdgpu_kernel void @null_lds(ptr addrspace(1) %out, ptr addrspace(3) %p) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp eq ptr addrspace(3) %p, null
  %s = select i1 %c, i32 %id, i32 5
  %g = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %s, ptr addrspace(1) %g
  ret void
}

define amdgpu_kernel void @p6_arg(ptr addrspace(1) %out, ptr addrspace(6) %in) {
  %a = call ptr addrspace(6) @llvm.amdgcn.set.inactive.p6(ptr addrspace(6) %in, ptr addrspace(6) null)
  %r = call ptr addrspace(6) @llvm.amdgcn.strict.wwm.p6(ptr addrspace(6) %a)
  store ptr addrspace(6) %r, ptr addrspace(1) %out
  ret void
}
"""


@pytest.mark.parametrize(("fn", "old", "new"), [("null_lds", None, None), ("p6_arg", None, None),
                                                ("null_lds", "s_cmp_eq_u32 s2, 0", "s_cmp_eq_u32 s2, -1"),
                                                ("p6_arg", "s_load_dword s2, s[8:9], 0x8", "s_load_dword s2, s[8:9], 0xc")])
def test_null_is_zero_in_every_address_space_and_32_bit_pointer_arguments(tmp_path: Path, fn: str, old: str | None,
                                                                           new: str | None) -> None:
    """The IR's `ptr addrspace(3) null` is the bits 0 (llc-22 compares with
    0; AMDGPU's -1 is an addrspacecast's null), and a p6 (32-bit constant)
    kernel argument is one dword (llc-22's metadata: offset 8, size 4)."""
    src = tmp_path / "nulls.ll"
    src.write_text(NULLS)
    asm = llc_asm(src, "gfx900")
    if old is not None and new is not None:
        start = asm.index(f"\n{fn}:")
        end = asm.index("s_endpgm", start)
        assert asm[start:end].count(old) == 1, asm[start:end]
        asm = asm[:start] + asm[start:end].replace(old, new) + asm[end:]
    code, r = tv_on_asm(tmp_path, src, asm, "gfx900", "--function", fn)
    assert (code, r["verdict"]) == ((0, "proved") if old is None else (1, "refuted")), r
