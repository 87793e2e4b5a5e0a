"""Branch conditions traced to the mask computation that went wrong (issue
#34): in llc-22's divergent if/else (`v_cmp`, `s_and_saveexec`, `s_xor`,
`s_cbranch_execnz`, then `s_and_not1_saveexec` and `s_cbranch_execnz` for
the other path) a mutated `s_xor` or `s_and_saveexec` sends a lane down
the wrong path, or down none.  The trace used to stop at the value's last
computation or at the EXEC write that left the lane off; now the code is
replayed with one lane-mask result's bit of the lane flipped, the earliest
first, and the first whose replay returns the IR's value is named, with
the branch that replay took the other way and the condition it read in
each run (the reference run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import LLC, llc_asm, mutate, tv_on_asm

pytestmark = pytest.mark.skipif(LLC is None, reason="llc-22 not installed")

IR = """\
define float @dv(i32 %c, float %a, float %b) {
entry:
  %cc = icmp eq i32 %c, 7
  br i1 %cc, label %t, label %f
t:
  %x = fadd float %a, 1.0
  br label %j
f:
  %y = fmul float %b, 3.0
  br label %j
j:
  %r = phi float [ %x, %t ], [ %y, %f ]
  ret float %r
}
"""


def _run(tmp_path: Path, old: str, new: str, *args: str) -> tuple[list[str], dict]:
    """The function by llc-22 for gfx1100 wave32, its `old` made `new`:
    (the mutant's lines, the refutation's counterexample)."""
    src = tmp_path / "dv.ll"
    src.write_text(IR)
    asm = mutate(llc_asm(src, "gfx1100", "-mattr=+wavefrontsize32"), f"\t{old}\n", f"\t{new}\n")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "32", *args)
    assert code == 1 and r["verdict"] == "refuted", r
    return asm.splitlines(), r["counterexample"]


def _line(lines: list[str], text: str, after: int = 0) -> int:
    return lines.index(f"\t{text}", after) + 1


def _row(c: dict) -> dict:
    return next(r for r in c["lanes"] if r.get("differs"))


def test_an_s_xor_made_s_and_is_named_before_the_branch_it_misleads(tmp_path):
    """`s_xor_b32 s0, exec_lo, s0` (the else path's lanes) made `s_and`:
    the lane that takes %t gets s0's bit 0, so the else block's
    `s_and_not1_saveexec` leaves EXEC 0 and `s_cbranch_execnz` skips the
    fadd: no instruction writes v0 there.  Flipping the v_cmp's or the
    s_and_saveexec's bit of the lane gives no value wanted, the s_and's
    does: it is named, then the branch, with EXEC in each run (it used to
    name the closing `s_or_b32 exec_lo` that left the lane off)."""
    pic = tmp_path / "p.svg"
    lines, c = _run(tmp_path, "s_xor_b32 s0, exec_lo, s0", "s_and_b32 s0, exec_lo, s0", "--svg", str(pic))
    at = _line(lines, "s_and_b32 s0, exec_lo, s0")
    br = _line(lines, "s_cbranch_execnz .LBB0_4")
    row = _row(c)
    i = row["lane"]
    assert c["exec"] == f"{1 << i:#x}", c
    assert c["cause"] == (f"line {at} s_and_b32: s0 bit {i} = 0, a correct program would hold 1 -> line {br} "
                          f"s_cbranch_execnz not taken (exec_lo = 0x0; in the run with the bit flipped, exec_lo = "
                          f"{1 << i:#x}, taken), the path to the GPU value; flipped, the GPU returns the value "
                          f"wanted, {row['ir']}"), c["cause"]
    assert (f"line {br} (s_cbranch_execnz .LBB0_4): not taken (exec_lo = 0x0); in the run with line {at}'s bit "
            f"flipped it reads exec_lo = {1 << i:#x} and goes the other way") in row["trace"], row["trace"]
    # the picture frames the same line as the cause
    cols = re.findall(r'<g class="column( responsible)?( branch)?" data-column="\d+" data-line="(\d+)">',
                      pic.read_text())
    assert [int(line) for resp, _, line in cols if resp] == [at], cols


@pytest.mark.slow
def test_an_s_and_saveexec_made_s_or_saveexec_is_named(tmp_path):
    """`s_and_saveexec_b32 s0, vcc_lo` made `s_or_saveexec`: a lane whose
    compare is 0 (it takes %t) stays in EXEC, `s_cbranch_execnz` goes to
    the fmul and the lane returns %b * 3.  The s_or_saveexec's EXEC bit of
    the lane, flipped, gives the value wanted (the compare's does not):
    it is named, then the branch (the trace used to stop at the fmul)."""
    lines, c = _run(tmp_path, "s_and_saveexec_b32 s0, vcc_lo", "s_or_saveexec_b32 s0, vcc_lo")
    at = _line(lines, "s_or_saveexec_b32 s0, vcc_lo")
    br = _line(lines, "s_cbranch_execnz .LBB0_3")
    row = _row(c)
    i = row["lane"]
    assert c["cause"].startswith(f"line {at} s_or_saveexec_b32: exec_lo bit {i} = 1, a correct program would hold 0 "
                                 f"-> line {br} s_cbranch_execnz taken (exec_lo = "), c["cause"]
    assert c["cause"].endswith(f"the path to the GPU value; flipped, the GPU returns the value wanted, {row['ir']}")


@pytest.mark.slow
def test_a_branch_whose_condition_is_right_is_named_itself(tmp_path):
    """`s_cbranch_execnz .LBB0_3` made `s_cbranch_execz`: the lane that
    takes %f goes to the flow block, whose s_and_not1_saveexec leaves it
    off, so nothing writes v0.  Flipping the branch gives the value
    wanted, flipping the compare's or a mask's bit of the lane does not:
    the branch itself is named (it used to name the s_and_not1_saveexec
    that left the lane off)."""
    lines, c = _run(tmp_path, "s_cbranch_execnz .LBB0_3", "s_cbranch_execz .LBB0_3")
    br = _line(lines, "s_cbranch_execz .LBB0_3")
    row = _row(c)
    assert c["cause"] == (f"line {br} s_cbranch_execz: not taken (exec_lo = {1 << row['lane']:#x}), the path to the GPU "
                          f"value; the other way it gives the value wanted, {row['ir']}; its condition's computations, "
                          f"each flipped for lane {row['lane']}, do not"), c["cause"]


KERNEL = """\
define amdgpu_kernel void @kd(ptr addrspace(1) %out, i32 %a, i32 %b) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %cc = icmp ult i32 %tid, %a
  br i1 %cc, label %t, label %f
t:
  %x = add i32 %b, 5
  store i32 %x, ptr addrspace(1) %p
  br label %j
f:
  %y = mul i32 %b, 3
  store i32 %y, ptr addrspace(1) %p
  br label %j
j:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"""


@pytest.mark.slow  # (the kernel's refutation: ~10 s of CPU before any explanation)
def test_a_kernels_s_xor_made_s_and_is_named(tmp_path):
    """The kernel form (llc-22: `s_mov_b32 s0, exec_lo`, `v_cmpx_le_u32`,
    `s_xor_b32 s0, exec_lo, s0`, `s_cbranch_execnz`), the s_xor made
    `s_and`: the lane that takes %t stores nothing.  Replayed with the
    s_and's bit of the lane flipped, the GPU stores the IR's word (with the
    v_cmpx's, the s_mov's, not): the s_and is named, then the branch (the
    row used to name the store alone: "the GPU's lane 0 stores nothing")."""
    src = tmp_path / "kd.ll"
    src.write_text(KERNEL)
    asm = mutate(llc_asm(src, "gfx1100", "-mattr=+wavefrontsize32"), "\ts_xor_b32 s0, exec_lo, s0\n",
                 "\ts_and_b32 s0, exec_lo, s0\n")
    lines = asm.splitlines()
    at = _line(lines, "s_and_b32 s0, exec_lo, s0")
    br = _line(lines, "s_cbranch_execnz .LBB0_4")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "32")
    assert code == 1 and r["verdict"] == "refuted", r
    c = r["counterexample"]
    row = next(x for x in c["lanes"] if x.get("differs"))
    i = row["lane"]
    assert row["expected_from"] == "" and row["actual_from"] == "no store", row
    assert c["cause"] == (f"line {at} s_and_b32: s0 bit {i} = 0, a correct program would hold 1 -> line {br} "
                          f"s_cbranch_execnz not taken (exec_lo = 0x0; in the run with the bit flipped, exec_lo = "
                          f"{1 << i:#x}, taken); flipped, the GPU stores the value wanted, {c['memory']['ir']}"), c


PF = """\
define void @pf(ptr addrspace(1) %p, ptr addrspace(1) %q, i32 %c, i32 %a, i32 %b) {
entry:
  %cc = icmp eq i32 %c, 7
  br i1 %cc, label %t, label %f
t:
  %x = add i32 %a, 5
  store i32 %x, ptr addrspace(1) %p
  br label %j
f:
  %y = add i32 %b, 2
  store i32 %y, ptr addrspace(1) %q
  br label %j
j:
  ret void
}
"""


def test_exec_left_off_at_a_pointer_functions_return_names_the_mask_op(tmp_path):
    """The if/else with a store on each path, as a function taking
    pointers (llc-22: `s_mov_b32 s0, exec_lo`, `v_cmpx_ne_u32`, `s_xor_b32
    s0, exec_lo, s0`, `s_cbranch_execnz`), the s_xor made `s_and`: the
    refutation is EXEC at the return (0 where the lane was on), which had
    no cause at all.  Replayed with the s_and's bit of the lane flipped,
    EXEC comes back and every word the IR stores holds the IR's value
    (flipping the v_cmpx restores EXEC too, but stores at the other
    pointer): the s_and is named, then the branch."""
    src = tmp_path / "pf.ll"
    src.write_text(PF)
    asm = mutate(llc_asm(src, "gfx1100", "-mattr=+wavefrontsize32"), "\ts_xor_b32 s0, exec_lo, s0\n",
                 "\ts_and_b32 s0, exec_lo, s0\n")
    lines = asm.splitlines()
    at = _line(lines, "s_and_b32 s0, exec_lo, s0")
    br = _line(lines, "s_cbranch_execnz .LBB0_4")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "32")
    assert code == 1 and r["verdict"] == "refuted", r
    assert r["notes"][0] == "counterexample: EXEC = 0x1 at entry, 0x0 at the return", r["notes"]
    assert r["notes"][1] == (f"  cause: line {at} s_and_b32: s0 bit 0 = 0, a correct program would hold 1 -> line {br} "
                             "s_cbranch_execnz not taken (exec_lo = 0x0; in the run with the bit flipped, exec_lo = "
                             "0x1, taken); flipped, EXEC at the return is EXEC at entry and the IR's stores are the "
                             "GPU's"), r["notes"]
