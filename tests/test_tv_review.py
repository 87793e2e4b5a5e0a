"""Four soundness findings of this round's review, each held by the code
that exposed it (hand-written GPU code in LLVM's shape, gfx1100 wave32):

* a GFX10+ atomic that returns no data is counted by vscnt, not vmcnt, so
  `s_waitcnt vmcnt(1)` after a reload and such an atomic leaves the reload
  in flight (LLVM's getVmemWaitEventType) [S:scratch-address];
* scratch stores 1-3 bytes apart overlap: the dword one of them covers in
  part is unknown, never the older store's value [S:scratch-address];
* an access outside the alloca its pointer comes from is UB, and an
  inbounds getelementptr whose index times the element size wraps in a
  signed sense is poison (LangRef) [S:private-per-lane];
* a write to a VGPR whose reload is in flight races the load even where it
  puts back the very value the VGPR held."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli_json

ATOMIC_IR = """define void @f(ptr addrspace(1) %p, i32 %x, ptr addrspace(1) %q) {
entry:
  %o = atomicrmw add ptr addrspace(1) %p, i32 1 syncscope("agent") monotonic, align 4
  store i32 %x, ptr addrspace(1) %q, align 4
  ret void
}
"""
# x spilled and reloaded around the atomic; the store reads the reload
ATOMIC_ASM = """\t.text
f:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
\tv_mov_b32_e32 v5, 1
\tscratch_store_b32 off, v2, s32
\tv_mov_b32_e32 v2, 0
\tscratch_load_b32 v2, off, s32
\tATOMIC
\ts_waitcnt vmcnt(WAIT)
\tglobal_store_b32 v[3:4], v2, off
\ts_setpc_b64 s[30:31]
"""

OVERLAP_IR = """define i32 @pb(i32 %i, i32 %a, i32 %b) {
entry:
  %buf = alloca [64 x i32], align 4, addrspace(5)
  %pi = getelementptr inbounds [64 x i32], ptr addrspace(5) %buf, i32 0, i32 %i
  store i32 %a, ptr addrspace(5) %pi, align 4
  %i1 = add i32 %i, 1
  %pj = getelementptr inbounds [64 x i32], ptr addrspace(5) %buf, i32 0, i32 %i1
  store i32 %b, ptr addrspace(5) %pj, align 4
  %r = load i32, ptr addrspace(5) %pi, align 4
  ret i32 %r
}
"""
OVERLAP_ASM = """\t.text
pb:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
\tv_lshl_add_u32 v0, v0, 2, s32
\tscratch_store_b32 v0, v1, off
\tscratch_store_b32 v0, v2, off offset:OFF
\tscratch_load_b32 v0, v0, off
\ts_waitcnt vmcnt(0)
\ts_setpc_b64 s[30:31]
"""

BOUNDS_IR = """define i32 @pz(i32 %i, i32 %a, i32 %b) {
entry:
  %buf = alloca [4 x i32], align 4, addrspace(5)
  store i32 %a, ptr addrspace(5) %buf, align 4
  %pi = getelementptr inbounds [4 x i32], ptr addrspace(5) %buf, i32 0, i32 %i
  store i32 5, ptr addrspace(5) %pi, align 4
  %r = load i32, ptr addrspace(5) %buf, align 4
  ret i32 %r
}
"""
# LLVM's promoted form: element 0 is 5 where %i == 0, else %a
BOUNDS_ASM = """\t.text
pz:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
\tv_cmp_ne_u32_e32 vcc_lo, 0, v0
\tv_cndmask_b32_e32 v0, 5, v1, vcc_lo
\ts_setpc_b64 s[30:31]
"""


def _tv(tmp_path: Path, ir: str, asm: str) -> tuple[int, dict]:
    (tmp_path / "f.ll").write_text(ir)
    (tmp_path / "f.s").write_text(asm)
    code, out, _ = cli_json("tv", str(tmp_path / "f.ll"), "--target", "gfx1100", "--wave", "32", "--asm",
                            str(tmp_path / "f.s"))
    (r,) = out["results"]
    return code, r


@pytest.mark.slow
def test_a_no_return_atomic_is_not_counted_by_vmcnt(tmp_path: Path) -> None:
    noret = "global_atomic_add_u32 v[0:1], v5, off"
    code, r = _tv(tmp_path, ATOMIC_IR, ATOMIC_ASM.replace("ATOMIC", noret).replace("WAIT", "1"))
    assert (code, r["verdict"]) == (1, "refuted"), r  # (vmcnt(1) leaves the reload in flight)
    code, r = _tv(tmp_path, ATOMIC_IR, ATOMIC_ASM.replace("ATOMIC", noret).replace("WAIT", "0"))
    assert (code, r["verdict"]) == (0, "proved"), r
    ret = "global_atomic_add_u32 v6, v[0:1], v5, off glc"  # (a returning atomic is counted after the reload)
    code, r = _tv(tmp_path, ATOMIC_IR, ATOMIC_ASM.replace("ATOMIC", ret).replace("WAIT", "1"))
    assert (code, r["verdict"]) == (0, "proved"), r


@pytest.mark.slow
def test_a_scratch_store_two_bytes_on_overlaps_the_dword_before(tmp_path: Path) -> None:
    code, r = _tv(tmp_path, OVERLAP_IR, OVERLAP_ASM.replace("OFF", "4"))
    assert (code, r["verdict"]) == (0, "proved"), r
    code, r = _tv(tmp_path, OVERLAP_IR, OVERLAP_ASM.replace("OFF", "2"))
    assert (code, r["verdict"]) == (1, "refuted"), r


def test_an_index_past_the_alloca_is_ub_not_a_wrapped_address(tmp_path: Path) -> None:
    """%i = 0x40000000 (4 * i wraps to 0) would store 5 in element 0 were
    the address taken mod 2^32; it is poison (inbounds), and any %i past
    element 3 is UB: LLVM's code is proved."""
    code, r = _tv(tmp_path, BOUNDS_IR, BOUNDS_ASM)
    assert (code, r["verdict"]) == (0, "proved"), r
    code, r = _tv(tmp_path, BOUNDS_IR, BOUNDS_ASM.replace("v_cndmask_b32_e32 v0, 5, v1", "v_cndmask_b32_e32 v0, 6, v1"))
    assert (code, r["verdict"]) == (1, "refuted"), r


RACE_IR = """define void @f(ptr addrspace(1) %p, i32 %x, ptr addrspace(1) %q) {
  store i32 %x, ptr addrspace(1) %q, align 4
  ret void
}
"""
RACE_ASM = """\t.text
f:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
\tscratch_store_b32 off, v2, s32
\tscratch_load_b32 v2, off, s32
MOVES\ts_waitcnt vmcnt(0)
\tglobal_store_b32 v[3:4], v2, off
\ts_setpc_b64 s[30:31]
"""


def test_a_write_that_puts_back_the_vgpr_s_value_still_races_the_load(tmp_path: Path) -> None:
    """v2 copied out and back while its reload is in flight: the write
    races the load's return however the value looks (refuted), where no
    write is proved."""
    code, r = _tv(tmp_path, RACE_IR, RACE_ASM.replace("MOVES", ""))
    assert (code, r["verdict"]) == (0, "proved"), r
    moves = "\tv_mov_b32_e32 v7, v2\n\tv_mov_b32_e32 v2, v7\n"
    code, r = _tv(tmp_path, RACE_IR, RACE_ASM.replace("MOVES", moves))
    assert (code, r["verdict"]) == (1, "refuted"), r
