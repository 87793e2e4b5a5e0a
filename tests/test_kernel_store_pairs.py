"""A kernel's lane table pairs each lane's stores by address (issue #34):
where the GPU's lane stores and the IR's stores nothing there, the IR
column says "no store" (never a value the IR does not store), and the
lane's EXEC bit is traced back to the compare that let the lane in."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from helpers import cli

pytestmark = pytest.mark.skipif(shutil.which("llc-22") is None, reason="llc-22 not installed")

KERNEL = """\
define amdgpu_kernel void @kns(ptr addrspace(1) %out, i32 %n, i32 %x) !reqd_work_group_size !0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %c = icmp ult i32 %tid, %n
  br i1 %c, label %s, label %e
s:
  store i32 %x, ptr addrspace(1) %p
  ret void
e:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
!0 = !{i32 4, i32 1, i32 1}
"""


@pytest.mark.slow
def test_a_lane_that_stores_where_the_ir_does_not_names_its_compare(tmp_path):
    """`if (tid < n) out[tid] = x`: llc-22's `v_cmp_gt_u32_e32 vcc_lo, s0,
    v0` made `v_cmp_ge`: the lane with tid = n stores where the IR's stores
    nothing.  Its row says so ("no store" in the IR column), and the cause
    is the compare, through `s_and_saveexec_b32` (EXEC's bit of the lane)."""
    ll = tmp_path / "k.ll"
    ll.write_text(KERNEL)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=KERNEL, capture_output=True, text=True, check=True).stdout
    lines = asm.splitlines()
    at = lines.index("\tv_cmp_gt_u32_e32 vcc_lo, s0, v0") + 1
    assert lines[at] == "\ts_and_saveexec_b32 s0, vcc_lo", asm
    lines[at - 1] = "\tv_cmp_ge_u32_e32 vcc_lo, s0, v0"
    store = next(n for n, t in enumerate(lines, 1) if t.startswith("\tglobal_store_b32"))
    bad = tmp_path / "m.s"
    bad.write_text("\n".join(lines) + "\n")
    code, js, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad), "--json")
    assert code == 1, js
    res = json.loads(js)["results"][0]
    got = res["notes"]  # (the text's lines)
    word = got[0].split("memory at ")[1].split()[0]
    lane = int(next(t for t in got if t.startswith("  lane ") and "workitem" in t).split()[1].rstrip(":"))
    want = (f"line {at} v_cmp_ge_u32_e32: vcc_lo = {1 << lane:#x} -> line {at + 1} s_and_saveexec_b32: EXEC bit "
            f"{lane} = 1, a correct program would hold 0 -> line {store} global_store_b32: lane {lane} stores at "
            f"{word}, where the IR's stores nothing")
    assert f"  cause: {want}" in got and res["counterexample"]["cause"] == want, got
    head = got.index(f"  the lanes' stores at line {store} global_store_b32:")
    assert got[head + 2].split()[:3] == [str(lane), "no", "store"], got
    assert not any("(no store)" in t for t in got)
    row = next(r for r in res["counterexample"]["lanes"] if r["differs"])
    assert (row["lane"], row["expected"], row["expected_from"]) == (lane, None, "no store"), row
    assert isinstance(row["actual"], int) and row["actual_from"] == f"at {word}", row


def test_a_divergent_compare_that_sends_a_lane_down_the_other_path_is_named(tmp_path):
    """A function taking a pointer stores %a + 5 if %c == 7, else %b + 2
    (llc-22: `v_cmpx_ne_u32_e32 7, v2`, the two paths' stores under EXEC,
    no branch a replay can flip for one lane); the compare made `6, v2`
    sends the lane with c = 6 down the t path.  Replayed with the lane's
    compare result the other way, the GPU stores the IR's word: the v_cmpx
    is named (the trace used to stop at the t path's v_add)."""
    ir = ("define void @pf(ptr addrspace(1) %p, i32 %c, i32 %a, i32 %b) {\nentry:\n  %cc = icmp eq i32 %c, 7\n"
          "  br i1 %cc, label %t, label %f\nt:\n  %x = add i32 %a, 5\n  store i32 %x, ptr addrspace(1) %p\n"
          "  ret void\nf:\n  %y = add i32 %b, 2\n  store i32 %y, ptr addrspace(1) %p\n  ret void\n}\n")
    ll = tmp_path / "f.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    lines = asm.splitlines()
    at = lines.index("\tv_cmpx_ne_u32_e32 7, v2") + 1
    lines[at - 1] = "\tv_cmpx_ne_u32_e32 6, v2"
    bad = tmp_path / "m.s"
    bad.write_text("\n".join(lines) + "\n")
    code, js, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad), "--json")
    assert code == 1, js
    c = json.loads(js)["results"][0]["counterexample"]
    ir_word = c["memory"]["ir"]
    assert c["cause"] == (f"line {at} v_cmpx_ne_u32_e32: lane 0's result in error (EXEC): the other way the GPU "
                          f"stores the value wanted, {ir_word}"), c
