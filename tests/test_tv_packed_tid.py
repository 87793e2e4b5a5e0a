"""A kernel's work-item IDs in v0 on packed-TID targets [S:packed-tid]: LLVM's
reading of the attributes, the bits of v0 verify leaves unknown, and clang-22's
HIP kernels (tests/tv/clang22_warp_shfl_*.ll, from tests/tv/hip/warp_shfl.hip)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify.target import TARGETS, get
from verify.tv.kernel import WorkItems, descriptor_workitems, entry_v0_mask, workitems
from verify.tv.llir import read_module

CORPUS = Path(__file__).parent / "tv"


def kernel(attrs: str, md: str = "") -> WorkItems:
    text = (f"define amdgpu_kernel void @k(ptr addrspace(1) %o) #0 {'!reqd_work_group_size !0' if md else ''} {{\n"
            f"  ret void\n}}\nattributes #0 = {{ {attrs} }}\n" + (f"!0 = !{{{md}}}\n" if md else ""))
    return workitems(read_module("k.ll", text).functions[0])


def test_packed_tid_targets_are_llvms():
    """FeaturePackedTID: gfx90a, the gfx940 family, GFX11, GFX12; not GFX9 before gfx90a, not GFX10."""
    assert sorted(n for n, t in TARGETS.items() if t.has("packed_tid")) == [
        "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153", "gfx1200",
        "gfx1201", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"]


@pytest.mark.parametrize("attrs, md, want", [
    ('"amdgpu-flat-work-group-size"="1,1024"', "", WorkItems((1023, 1023, 1023), True, True)),
    ('"amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z"', "", WorkItems((1023, 1023, 1023), False, False)),
    ('"amdgpu-no-workitem-id-y"', "", WorkItems((1023, 1023, 1023), True, True)),  # z implies y
    ('"amdgpu-no-workitem-id-z"', "", WorkItems((1023, 1023, 1023), True, False)),
    ('"amdgpu-flat-work-group-size"="1,256"', "i32 64, i32 1, i32 1", WorkItems((63, 0, 0), False, False)),
    ('"amdgpu-flat-work-group-size"="1,256"', "i32 8, i32 8, i32 1", WorkItems((7, 7, 0), True, False)),
    ('"amdgpu-flat-work-group-size"="1,1"', "", WorkItems((0, 0, 0), False, False)),
    ('"amdgpu-flat-work-group-size"="128,64"', "", WorkItems((1023, 1023, 1023), True, True)),  # invalid: default
])
def test_llvm_reading_of_the_attributes(attrs, md, want):
    got = kernel(attrs, md)
    assert got == want
    assert got.enabled == (2 if want.has_z else 1 if want.has_y else 0)


def test_entry_v0_mask():
    wide, one_d = WorkItems((1023, 1023, 1023), True, True), WorkItems((1023, 1023, 1023), False, False)
    asked: list[str] = []

    def variant(v: str):
        return lambda: asked.append(v) or v

    assert entry_v0_mask(get("gfx1030"), one_d, 0, variant("zero")) == 0x3FF  # v0 is x alone
    assert entry_v0_mask(get("gfx1100"), wide, 2, variant("any")) == 0xFFFFFFFF and asked == []
    assert entry_v0_mask(get("gfx1100"), one_d, 0, variant("zero")) == 0x3FF and asked == ["zero"]
    assert entry_v0_mask(get("gfx90a"), one_d, 0, variant("any")) == 0xFFFFFFFF
    assert entry_v0_mask(get("gfx942"), one_d, 1, variant("zero")) == 0xFFFFF
    # y and z of size 1 (reqd_work_group_size 64,1,1): zero by the dispatch, bits 30-31 by the assumption
    assert entry_v0_mask(get("gfx1200"), WorkItems((63, 0, 0), False, False), 0, variant("any")) == 0xC00003FF


def test_descriptor_read():
    asm = ".amdhsa_kernel k\n  .amdhsa_system_vgpr_workitem_id 1\n.end_amdhsa_kernel\n"
    assert descriptor_workitems(asm, "k") == 1 and descriptor_workitems(asm, "j") is None


CLANG = sorted(CORPUS.glob("clang22_warp_shfl_*.ll"))


def test_clang22_corpus_is_there():
    assert [p.stem.rsplit("_", 1)[1] for p in CLANG] == ["gfx1030", "gfx1100", "gfx1200", "gfx90a", "gfx942"]
    for p in CLANG:  # the attributes that matter survived the cleaning
        t = p.read_text()
        assert '"amdgpu-no-workitem-id-y"' in t and '"amdgpu-flat-work-group-size"="1,1024"' in t, p
        assert t.count("define protected amdgpu_kernel") == 8


@pytest.mark.parametrize("target", ["gfx1100", "gfx90a"])
def test_clang22_shfl_xor_proved_packed(target):
    """The false alarm of issue #30: proved under the default (v0[31:10] zero with x alone enabled)."""
    code, out, _ = cli("tv", str(CORPUS / f"clang22_warp_shfl_{target}.ll"), "--function", "shfl_xor_int")
    first, scope = out.splitlines()[:2]
    assert code == 0 and first.startswith(f"shfl_xor_int on {target} wave") and ": proved" in first, out
    assert "kernel.packed_tid=zero" in scope, out


@pytest.mark.slow
def test_clang22_shfl_xor_refuted_upper_bits_any():
    """With v0's upper bits arbitrary (the model before issue #30) the same code is refuted."""
    code, out, _ = cli("tv", str(CORPUS / "clang22_warp_shfl_gfx1100.ll"), "--function", "shfl_xor_int",
                       "--assume", "kernel.packed_tid=any")
    assert code == 1 and ": refuted" in out.splitlines()[0] and "kernel.packed_tid=any" in out.splitlines()[1], out


def test_clang22_gfx1030_consults_nothing():
    code, out, _ = cli("tv", str(CORPUS / "clang22_warp_shfl_gfx1030.ll"), "--function", "shfl_down_float")
    assert code == 0 and out.splitlines()[1] == "  for gfx1030 wave32 under exec=dispatch, assumptions: kernel.entry_exec=prefix", out


FLAT = """define amdgpu_kernel void @k(ptr addrspace(1) %out) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %v = lshr i32 %id, 6
  %idx = zext i32 %id to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
attributes #0 = { "amdgpu-flat-work-group-size"="1,SIZE" }
"""


def test_flat_work_group_size_bounds_x(tmp_path):
    """LLVM folds x >> 6 to 0 for a kernel of at most 64 work-items (the
    dispatch contract it reads from the attribute): proved; the same code
    checked against IR that admits 1024 work-items is refuted."""
    from verify.tv.compile import by_llvmlite_isolated

    small = tmp_path / "small.ll"
    small.write_text(FLAT.replace("SIZE", "64"))
    asm = tmp_path / "small.s"
    asm.write_text(by_llvmlite_isolated(small.read_text(), get("gfx1100"), 32))
    assert "v_mov_b32" in asm.read_text() or "v_dual_mov_b32 v1, 0" in asm.read_text()
    code, out, _ = cli("tv", str(small), "--target", "gfx1100", "--wave", "32", "--asm", str(asm))
    assert code == 0 and ": proved" in out.splitlines()[0], out
    big = tmp_path / "big.ll"
    big.write_text(FLAT.replace("SIZE", "1024"))
    code, out, _ = cli("tv", str(big), "--target", "gfx1100", "--wave", "32", "--asm", str(asm))
    assert code == 1 and ": refuted" in out.splitlines()[0], out
    assert any(ln.startswith("    lane ") and "workitem.id.x = " in ln and int(ln.split("= ")[1], 16) >= 64
               for ln in out.splitlines()), out
