"""`verify tv`: the IR value of a lane that did not run it, read across lanes
(docs/semantics.md [S:ir-inactive], the assumption ir.inactive_lane).

One rule for arithmetic, loads, atomics and arguments: under the default
`poison` a cross-lane read of such a lane is poison; under `computed` a
lane-wise value is what its operands give there (loads and atomics stay
poison).  Each test holds both sides: the verdict under the default, under
the other variant, and with the lane active and the GPU code wrong."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

LLC = shutil.which("llc-22")

READLANE_SUM = """declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
define i32 @f(i32 %x, i32 %y) {
  %a = add i32 %x, %y
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %a, i32 1)
  ret i32 %r
}
"""

# the shape of LLVM's llvm/test/CodeGen/AMDGPU/llvm.amdgcn.permlane16.var.ll
# (and the permlanex16.var one): a uniform kernel argument, moved into a VGPR
# in the EXEC lanes only, read with fi (op_sel:[1,0]) on gfx1200 wave32
PERMLANE_VAR = """; RUN: llc -mtriple=amdgcn -mcpu=gfx1200 < %s
declare i32 @llvm.amdgcn.permlane16.var(i32, i32, i32, i1, i1)
declare i32 @llvm.amdgcn.permlanex16.var(i32, i32, i32, i1, i1)

define amdgpu_kernel void @v_permlane16var_b32_vv_fi(ptr addrspace(1) %out, i32 %src0, i32 %src1) {
  %v = call i32 @llvm.amdgcn.permlane16.var(i32 %src0, i32 %src0, i32 %src1, i1 true, i1 false)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @v_permlanex16var_b32_vv_fi(ptr addrspace(1) %out, i32 %src0, i32 %src1) {
  %v = call i32 @llvm.amdgcn.permlanex16.var(i32 %src0, i32 %src0, i32 %src1, i1 true, i1 false)
  store i32 %v, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @v_permlane16var_b32_vv(ptr addrspace(1) %out, i32 %src0, i32 %src1) {
  %v = call i32 @llvm.amdgcn.permlane16.var(i32 %src0, i32 %src0, i32 %src1, i1 false, i1 false)
  store i32 %v, ptr addrspace(1) %out
  ret void
}
"""

LOADS = """; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @load_direct(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %v = load i32, ptr addrspace(1) %p, align 4
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %v, i32 1)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @load_add(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %v = load i32, ptr addrspace(1) %p, align 4
  %a = add i32 %v, 7
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %a, i32 1)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def exec_mask(out: str) -> int:
    m = re.search(r"counterexample: EXEC = (0x[0-9a-f]+)", out)
    assert m is not None, out
    return int(m.group(1), 16)


def test_readlane_of_a_sum_in_a_lane_that_did_not_run(tmp_path):
    p = write(tmp_path, "rl.ll", READLANE_SUM)
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32")
    assert code == 0, out
    assert out.splitlines()[:2] == ["f on gfx1100 wave32 (llvmlite): proved (5 GPU instructions)",
                                    "  for gfx1100 wave32 under exec=any, assumptions: ir.inactive_lane=poison"]
    # the other reading: lane 1's sum as if it had run; the GPU register holds
    # what it held, so a wave with lane 1 inactive refutes
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32", "--assume", "ir.inactive_lane=computed")
    assert code == 1, out
    lines = out.splitlines()
    assert lines[0] == "f on gfx1100 wave32 (llvmlite): refuted (5 GPU instructions)"
    assert lines[1] == "  for gfx1100 wave32 under exec=any, assumptions: ir.inactive_lane=computed"
    assert exec_mask(out) & 2 == 0
    assert lines[-3].endswith("%r = call i32 @llvm.amdgcn.readlane.i32(i32 %a, i32 1)")
    # --robust: the worst variant's verdict, each variant listed
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32", "--robust")
    assert code == 1, out
    assert "  proved   under ir.inactive_lane=poison (the defaults)" in out.splitlines()
    assert "  refuted  under ir.inactive_lane=computed" in out.splitlines()


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_a_wrong_sum_in_a_lane_that_runs_is_refuted(tmp_path):
    p = write(tmp_path, "rl.ll", READLANE_SUM)
    asm = subprocess.run([str(LLC), "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32", "-O2",
                          p, "-o", "-"], capture_output=True, text=True, check=True).stdout
    assert "v_add_nc_u32_e32 v0, v0, v1" in asm
    good = write(tmp_path, "good.s", asm)
    bad = write(tmp_path, "bad.s", asm.replace("v_add_nc_u32_e32 v0, v0, v1", "v_sub_nc_u32_e32 v0, v0, v1"))
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32", "--asm", good)
    assert code == 0, out
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32", "--asm", bad)
    assert code == 1, out
    assert "refuted" in out.splitlines()[0]
    assert out.splitlines()[1] == "  for gfx1100 wave32 under exec=any, assumptions: ir.inactive_lane=poison"
    assert exec_mask(out) & 2  # lane 1 runs: its sum is defined, and the GPU's differs
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32", "--asm", bad, "--assume",
                       "ir.inactive_lane=computed")
    assert code == 1 and "refuted" in out.splitlines()[0], out


@pytest.mark.slow
def test_permlane_var_fi_reads_lanes_llvm_never_wrote(tmp_path):
    """LLVM's permlane16.var/permlanex16.var fi tests on gfx1200 wave32: the
    uniform %src0 is read from lanes outside EXEC, which LLVM's v_mov_b32
    never wrote.  Proved under the documented reading (those lanes have no
    %src0: poison), refuted under `computed` with one lane active; without
    fi the inactive lanes are not read and it is proved under both."""
    p = write(tmp_path, "pl.ll", PERMLANE_VAR)
    code, out, _ = cli("tv", p, "--wave", "32")
    assert code == 0, out
    lines = out.splitlines()
    for fn in ("v_permlane16var_b32_vv_fi", "v_permlanex16var_b32_vv_fi"):
        i = lines.index(f"{fn} on gfx1200 wave32 (llvmlite): proved (8 GPU instructions)")
        assert lines[i + 1] == ("  for gfx1200 wave32 under exec=dispatch, assumptions: ir.inactive_lane=poison, "
                                "kernel.entry_exec=prefix")
    assert lines[-1] == "Summary: 3 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported"
    code, out, _ = cli("tv", p, "--wave", "32", "--assume", "ir.inactive_lane=computed")
    assert code == 1, out
    lines = out.splitlines()
    for fn in ("v_permlane16var_b32_vv_fi", "v_permlanex16var_b32_vv_fi"):
        i = lines.index(f"{fn} on gfx1200 wave32 (llvmlite): refuted (8 GPU instructions)")
        assert lines[i + 2].startswith("  counterexample: EXEC = 0x1; memory at ")
    assert "v_permlane16var_b32_vv on gfx1200 wave32 (llvmlite): proved (8 GPU instructions)" in lines
    assert lines[-1] == "Summary: 1 correct, 2 incorrect, 0 failed-to-prove, 0 unsupported"


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_permlane_var_fi_with_globalisel(tmp_path):
    # LLVM's test also runs GlobalISel: the same code shape, the same verdict
    p = write(tmp_path, "pl.ll", PERMLANE_VAR)
    code, out, _ = cli("tv", p, "--wave", "32", "--llc", f"{LLC} -global-isel", "--function",
                       "v_permlanex16var_b32_vv_fi")
    assert code == 0, out
    code, out, _ = cli("tv", p, "--wave", "32", "--llc", f"{LLC} -global-isel", "--function",
                       "v_permlanex16var_b32_vv_fi", "--assume", "ir.inactive_lane=computed")
    assert code == 1, out


def test_loads_and_arithmetic_follow_one_rule(tmp_path):
    """A load has no value in a lane that does not run it under either
    variant (the assumption is not asked), and a sum of it has none either:
    both proved under both variants, while a sum of arguments differs
    between them (test_readlane_of_a_sum_in_a_lane_that_did_not_run)."""
    p = write(tmp_path, "ld.ll", LOADS)
    for variant in ("poison", "computed"):
        code, out, _ = cli("tv", p, "--assume", f"ir.inactive_lane={variant}")
        assert code == 0, out
        lines = out.splitlines()
        i = lines.index("load_direct on gfx1100 wave32 (llvmlite): proved (11 GPU instructions)")
        assert lines[i + 1] == "  for gfx1100 wave32 under exec=dispatch, assumptions: kernel.entry_exec=prefix"
        i = lines.index("load_add on gfx1100 wave32 (llvmlite): proved (13 GPU instructions)")
        assert lines[i + 1] == (f"  for gfx1100 wave32 under exec=dispatch, assumptions: ir.inactive_lane={variant}, "
                                "kernel.entry_exec=prefix")


WWM = """declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.set.inactive.i32(i32, i32)
declare i32 @llvm.amdgcn.strict.wwm.i32(i32)
define i32 @plain(i32 %x) {
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 273, i32 15, i32 15, i1 true)
  %w = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %d)
  ret i32 %w
}
define i32 @zeroed(i32 %x) {
  %s = call i32 @llvm.amdgcn.set.inactive.i32(i32 %x, i32 0)
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %s, i32 273, i32 15, i32 15, i1 true)
  %w = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %d)
  ret i32 %w
}
"""


def test_whole_wave_mode_reads_lanes_that_did_not_run(tmp_path):
    """In whole-wave mode row_shr:1 reads lane i-1 even where it is inactive:
    an argument there has no value (default), unless set.inactive gives it
    one.  So the set.inactive form refines the plain one, not the reverse;
    under `computed` the plain one reads the inactive lane's %x and the two
    differ both ways."""
    def pair(src: str, tgt: str) -> str:
        return write(tmp_path, f"{src}_{tgt}.ll", WWM.replace(f"@{src}(", "@src(").replace(f"@{tgt}(", "@tgt("))
    code, out, _ = cli("tv", pair("plain", "zeroed"), "--target", "gfx1100", "--wave", "32")
    assert (code, out.splitlines()[:2]) == (0, ["src -> tgt on gfx1100 wave32 (IR): proved",
                                                "  for gfx1100 wave32 under exec=any, assumptions: "
                                                "ir.inactive_lane=poison"]), out
    code, out, _ = cli("tv", pair("zeroed", "plain"), "--target", "gfx1100", "--wave", "32")
    assert code == 1 and out.splitlines()[0] == "src -> tgt on gfx1100 wave32 (IR): refuted", out
    assert exec_mask(out) != 0xFFFFFFFF  # some lane reads an inactive one
    code, out, _ = cli("tv", pair("plain", "zeroed"), "--target", "gfx1100", "--wave", "32", "--assume",
                       "ir.inactive_lane=computed")
    assert code == 1 and out.splitlines()[0] == "src -> tgt on gfx1100 wave32 (IR): refuted", out
