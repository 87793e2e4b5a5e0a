"""A wide IR store that LLVM splits into store instructions issued high part
first (tests/tv/llvm-shape/wide_store_order.ll; LLVM's
llvm.amdgcn.permlane64.ll `test_v7i32`, `test_v4f64`, `test_v8f64`): proved
through the reordered store comparison (verify/tv/storeorder.py,
[S:tv-store-order]), and the reordering hides no wrong dword."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import mutate, tv_on_asm

pytest.importorskip("llvmlite")

from verify import smt
from verify import target as T
from verify.tv import storeorder
from verify.tv.compile import by_llvmlite
from verify.tv.memmodel import Memory

SRC = Path(__file__).parent / "tv" / "llvm-shape" / "wide_store_order.ll"
FN = "store_v7i32"
HIGH_FIRST = "global_store_b96 v[0:1], v[6:8], off offset:16\n\tglobal_store_b128 v[0:1], v[2:5], off"


def _asm() -> str:
    asm = by_llvmlite(SRC.read_text(), T.get("gfx1100"), 32)
    assert HIGH_FIRST in asm  # LLVM's order: the test's premise
    return asm


@pytest.mark.slow
def test_the_high_part_stored_first_is_proved(tmp_path: Path) -> None:
    code, r = tv_on_asm(tmp_path, SRC, _asm(), "gfx1100", "--wave", "32", "--function", FN)
    assert (code, r["verdict"]) == (0, "proved"), r


def test_the_low_part_stored_first_is_proved_too(tmp_path: Path) -> None:
    asm = mutate(_asm(), HIGH_FIRST, "global_store_b128 v[0:1], v[2:5], off\n\tglobal_store_b96 v[0:1], v[6:8], off "
                 "offset:16", FN)
    code, r = tv_on_asm(tmp_path, SRC, asm, "gfx1100", "--wave", "32", "--function", FN)
    assert (code, r["verdict"]) == (0, "proved"), r


@pytest.mark.parametrize("old, new", [
    ("v[6:8], off offset:16", "v[6:8], off offset:12"),  # a lane's dword 3 twice, dword 6 never
    ("v[6:8], off offset:16", "v[5:7], off offset:16"),  # dwords 4-6 from the wrong registers
    ("v[2:5], off\n", "v[2:5], off offset:4\n"),  # the low part one dword up (dword 4 twice, dword 0 never)
])
def test_a_wrong_dword_is_refuted(tmp_path: Path, old: str, new: str) -> None:
    code, r = tv_on_asm(tmp_path, SRC, mutate(_asm(), old, new, FN), "gfx1100", "--wave", "32", "--function", FN)
    assert (code, r["verdict"]) == (1, "refuted"), r
    assert any(n.startswith("counterexample: EXEC = 0x1") for n in r["notes"]), r["notes"]


@pytest.mark.parametrize("fn, old, new", [
    ("store_v3i64", "v[6:7], off offset:16", "v[6:7], off offset:8"),  # <3 x i64>: dwords 2-3 twice, 4-5 never
    ("copy_v3f64", "global_load_b128 v[2:5], v[2:3], off\n", "global_load_b128 v[2:5], v[2:3], off offset:8\n"),
])
@pytest.mark.slow
def test_a_wrong_part_of_a_three_element_vector_is_refuted(tmp_path: Path, fn: str, old: str, new: str) -> None:
    asm = _asm()
    code, r = tv_on_asm(tmp_path, SRC, asm, "gfx1100", "--wave", "32", "--function", fn)
    assert (code, r["verdict"]) == (0, "proved"), r
    code, r = tv_on_asm(tmp_path, SRC, mutate(asm, old, new, fn), "gfx1100", "--wave", "32", "--function", fn)
    assert (code, r["verdict"]) == (1, "refuted"), r


def _memory(B, groups: list[list[tuple[int, int]]], joined: bool) -> Memory:
    """One lane's stores, a group each: (address, value) per group."""
    mem = Memory(B, lambda lo, hi: B.const(0))
    for k, g in enumerate(groups):
        mem.write([(B.const(a), B.const(0), B.const(v), False, True) for a, v in g], more=joined and k > 0)
    return mem


def test_the_order_is_found_only_inside_one_ir_store() -> None:
    B = smt.Z3Sums()
    q = smt.Query(5.0, session=B.session)
    ir = _memory(B, [[(0, 1)], [(4, 2)], [(8, 3)]], joined=True)  # one store of three dwords
    gpu = _memory(B, [[(8, 3)], [(0, 1)], [(4, 2)]], joined=False)  # three stores, the last dword first
    perm = storeorder.unit_order(q, ir, gpu, 10**8)
    assert perm == [1, 2, 0]
    assert storeorder.reorder(gpu, perm) == [gpu.stores[1], gpu.stores[2], gpu.stores[0]]
    # three IR stores of a dword each: no window, no reordering (their order is the IR's)
    assert storeorder.unit_order(q, _memory(B, [[(0, 1)], [(4, 2)], [(8, 3)]], joined=False), gpu, 10**8) is None
    # the same addresses in the same order: nothing to reorder
    assert storeorder.unit_order(q, ir, _memory(B, [[(0, 1)], [(4, 2)], [(8, 3)]], joined=False), 10**8) is None


BIG = """define void @big(ptr addrspace(1) %p, i32 %a, i32 %b) {
  %q = getelementptr i8, ptr addrspace(1) %p, i64 4294967292
  store i32 %a, ptr addrspace(1) %q
  store i32 %b, ptr addrspace(1) %p
  ret void
}
"""


def test_an_offset_past_32_bits_keeps_its_carry(tmp_path: Path) -> None:
    """A wide access's dword k is one sum base + (offset + 4k) only while that
    stays below 2^32.  No target encodes such an offset (llvm-mc-22 refuses
    it), and --asm text has its offsets checked against the target's range
    [S:mem-offset], so the instance is a compiler error naming the range; the
    model's own guard (the carry of dword 1 into p + 2^32) stays behind it:
    with the check off, this was refuted, the IR's store of %b to p missing."""
    src = tmp_path / "big.ll"
    src.write_text(BIG)
    asm = by_llvmlite(BIG, T.get("gfx1100"), 32)
    start = asm.index("\tv_add_co_u32", asm.index("\nbig:"))  # LLVM's two stores, and the sum before them
    body = asm[start:asm.index("\ts_setpc_b64", start)]
    asm = asm.replace(body, "\tglobal_store_b64 v[0:1], v[2:3], off offset:0xfffffffc\n", 1)
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "32", "--function", "big")
    assert (code, r["verdict"]) == (1, "compiler error"), r
    assert r["notes"][0].endswith("offset 4294967292 is outside -4096..4095, the range global_store_b64 encodes on "
                                  "gfx1100 (GFX11)"), r["notes"]
