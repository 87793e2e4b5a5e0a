"""Branch causes where the condition is not one compare away (issue #34):
a kernel's replay records the branches its path met and what set their
SCC or VCC, so a kernel with a wrong compare names it (with a lane table,
or without one where both paths share the store); and a VCC computed by
an `s_and` of two compares is traced to the one compare in error."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytestmark = pytest.mark.skipif(shutil.which("llc-22") is None, reason="llc-22 not installed")

KERNEL = """\
define amdgpu_kernel void @kpick(ptr addrspace(1) %out, i32 %c, i32 %a, i32 %b) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %cc = icmp eq i32 %c, 0
  br i1 %cc, label %t, label %f
t:
  %x = add i32 %a, %tid
  store i32 %x, ptr addrspace(1) %p
  ret void
f:
  %y = add i32 %b, 2
  store i32 %y, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"""


def compile_mutant(tmp_path: Path, ir: str, triple: str, old: str, new: str) -> tuple[Path, Path, list[str]]:
    """`ir` by llc-22 for gfx1100 wave32, the one line `old` made `new`:
    (the .ll, the mutant .s, its lines)."""
    ll = tmp_path / "k.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", f"-mtriple={triple}", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    assert asm.count(f"\t{old}\n") == 1, asm
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace(f"\t{old}\n", f"\t{new}\n"))
    return ll, bad, bad.read_text().splitlines()


@pytest.mark.slow
def test_a_kernels_wrong_compare_is_named_and_drawn(tmp_path):
    """A kernel that stores %a + tid or %b + 2 on a uniform branch (llc-22:
    `s_cmp_lg_u32 s0, 0`, `s_cbranch_scc0`), its compare made `s_cmp_eq`:
    the replay with the branch going the other way stores the IR's word, so
    the compare that set SCC is the cause, with the SCC a correct program
    holds; the picture has the branch's column."""
    ll, bad, lines = compile_mutant(tmp_path, KERNEL, "amdgcn-amd-amdhsa", "s_cmp_lg_u32 s0, 0", "s_cmp_eq_u32 s0, 0")
    at = lines.index("\ts_cmp_eq_u32 s0, 0") + 1
    assert lines[at] == "\ts_cbranch_scc0 .LBB0_2"
    pic = tmp_path / "p.svg"
    code, out, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad), "--svg", str(pic))
    assert code == 1, out
    word = re.search(r"memory at 0x[0-9a-f]+ after the kernel: IR (0x[0-9a-f]+), GPU", out)
    assert word is not None, out
    # (the solver picks the counterexample's %b: zero, the mutant's compare
    # then sets SCC and the branch falls through, or not; either way the
    # compare is the cause, with the SCC a correct program holds)
    scc = re.search(rf"cause: line {at} s_cmp_eq_u32: SCC = ([01]),", out)
    assert scc is not None, out
    got, want = int(scc.group(1)), 1 - int(scc.group(1))
    way = "taken" if got == 0 else "not taken"
    assert (f"    cause: line {at} s_cmp_eq_u32: SCC = {got}, a correct program would hold {want} -> line {at + 1} "
            f"s_cbranch_scc0 {way}, the path to the GPU value; the other way it gives the value wanted, "
            f"{word.group(1)}") in out.splitlines(), out
    assert (f"      line {at} (s_cmp_eq_u32 s0, 0): SCC = {got} (a correct program would hold {want}) -> line {at + 1} "
            f"(s_cbranch_scc0 .LBB0_2): {way}; the other way the code gives the value wanted") in out.splitlines()
    svg = pic.read_text()
    cols = re.findall(r'<g class="column( responsible)?( branch)?" data-column="(\d+)" data-line="(\d+)">', svg)
    assert [int(line) for _, b, _, line in cols if b] == [at + 1], cols
    assert f">SCC = {got}</text>" in svg and f">branch {way}</text>" in svg, svg


@pytest.mark.slow
def test_a_kernels_branch_is_named_where_both_paths_share_the_store(tmp_path):
    """The kernel with %a + 5 on the taken path: llc-22 computes either
    value in s0 and both paths share one `global_store_b32`; the IR's
    stores (one per path) are paired with it by address (they used to be
    paired by index, which left no lane table), so the lane's row holds
    the IR's value and the GPU's, and the branch is named, from the
    replayed stores of the memory word."""
    ir = KERNEL.replace("%x = add i32 %a, %tid", "%x = add i32 %a, 5")
    ll, bad, lines = compile_mutant(tmp_path, ir, "amdgcn-amd-amdhsa", "s_cmp_lg_u32 s0, 0", "s_cmp_eq_u32 s0, 0")
    at = lines.index("\ts_cmp_eq_u32 s0, 0") + 1
    assert lines[at] == "\ts_cbranch_scc0 .LBB0_2" and sum(t.startswith("\tglobal_store") for t in lines) == 1
    code, out, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad))
    assert code == 1, out
    word = re.search(r"memory at 0x[0-9a-f]+ after the kernel: IR (0x[0-9a-f]+), GPU (0x[0-9a-f]+)", out)
    assert word is not None, out
    got = out.splitlines()
    # either way round: the mutant inverts SCC for every %c (the model picks which path the GPU took)
    scc = re.search(rf"    cause: line {at} s_cmp_eq_u32: SCC = ([01]), a correct program", out)
    assert scc is not None, out
    s, way = int(scc.group(1)), "taken" if scc.group(1) == "0" else "not taken"
    assert (f"    cause: line {at} s_cmp_eq_u32: SCC = {s}, a correct program would hold {1 - s} -> line {at + 1} "
            f"s_cbranch_scc0 {way}, the path to the GPU value; the other way it gives the value wanted, "
            f"{word.group(1)}") in got, out
    store = next(n for n, t in enumerate(lines, 1) if t.startswith("\tglobal_store_b32"))
    head = got.index(f"    the lanes' stores at line {store} global_store_b32:")
    row = got[head + 2].split()
    assert row[:3] == ["0", word.group(1), word.group(2)] and "(no store)" not in out, out
    assert (f"      line {at} (s_cmp_eq_u32 s0, 0): SCC = {s} (a correct program would hold {1 - s}) -> line "
            f"{at + 1} (s_cbranch_scc0 .LBB0_2): {way}; the other way the code gives the value wanted") in got, out


@pytest.mark.slow
def test_a_vcc_from_an_and_of_two_compares_names_the_wrong_one(tmp_path):
    """A compute shader that picks on `fcmp olt %c, 1.0 or fcmp ogt %d, 2.0`
    (llc-22: `v_cmp_nlt_f32_e64 s0`, `v_cmp_ngt_f32_e64 s1`, `s_and_b32 s0,
    s0, s1`, `s_and_b32 vcc_lo, exec_lo, s0`, `s_cbranch_vccnz`), its
    second compare's constant made 1.0: the two differ only where
    1 < %d <= 2, where the mutant's s1 is 0 and a correct program's is not,
    so every counterexample has VCC 0 where a correct program's is not 0;
    s0 is not 0 there (else the mutant agrees), so s1 alone stands in the
    way, and its compare is named first (the trace used to stop at the
    s_and).  (A mutant wrong both ways, `v_cmp_gt` for `v_cmp_ngt`, may get
    a counterexample where both s0 and s1 are 1 and either could be the
    wrong one: the trace then stops at the s_and.)"""
    ir = ("define amdgpu_cs float @opick(float inreg %c, float inreg %d, float inreg %a, float inreg %b) {\nentry:\n"
          "  %c1 = fcmp olt float %c, 1.0\n  %c2 = fcmp ogt float %d, 2.0\n  %cc = or i1 %c1, %c2\n"
          "  br i1 %cc, label %t, label %f\nt:\n  %x = fadd float %a, 1.0\n  ret float %x\n"
          "f:\n  %y = fadd float %b, 2.0\n  ret float %y\n}\n")
    ll, bad, lines = compile_mutant(tmp_path, ir, "amdgcn", "v_cmp_ngt_f32_e64 s1, s1, 2.0",
                                    "v_cmp_ngt_f32_e64 s1, s1, 1.0")
    at = lines.index("\tv_cmp_ngt_f32_e64 s1, s1, 1.0") + 1
    assert lines[at:at + 4] == ["\ts_and_b32 s0, s0, s1", "\ts_delay_alu instid0(SALU_CYCLE_1)",
                                "\ts_and_b32 vcc_lo, exec_lo, s0", "\ts_cbranch_vccnz .LBB0_2"]
    code, out, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad), "--json")
    assert code == 1, out
    c = json.loads(out)["results"][0]["counterexample"]
    assert c["cause"] == (f"line {at} v_cmp_ngt_f32_e64: s1 = 0x0 -> line {at + 1} s_and_b32: s0 = 0x0 -> line "
                          f"{at + 3} s_and_b32: vcc_lo = 0x0, a correct program would hold VCC != 0 -> line {at + 4} "
                          "s_cbranch_vccnz not taken, the path to the GPU value; the other way it gives the value "
                          f"wanted, {c['lanes'][0]['ir']}")  # the IR's value of the lane (the solver's inputs)
    assert c["lanes"][0]["differs"] and c["lanes"][0]["ir"] != c["lanes"][0]["gpu"]
