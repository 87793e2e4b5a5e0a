"""A divergent i64 atomicrmw (LLVM's atomic_optimizations_global_pointer.ll,
add_i64_varying / sub_i64_varying; issue 31): llc-22's atomic optimizer
code, Iterative and DPP, with one lane's 64-bit atomic whose effect is
compared whole (verify/tv/atomic64.py [S:atomic64]).  The corpus file
tests/tv/llvm-shape/atomics7_i64_varying.ll holds the proofs (slow tier);
here the mutants, each refuted at the first EXEC that shows it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")

KERNEL = """declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @{op}_i64_varying(ptr addrspace(1) %out, ptr addrspace(1) %inout) {{
entry:
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %zext = zext i32 %lane to i64
  %old = atomicrmw {op} ptr addrspace(1) %inout, i64 %zext syncscope("agent") acq_rel
  store i64 %old, ptr addrspace(1) %out
  ret void
}}
"""


def _run(tmp_path: Path, op: str, strategy: str, old: str, new: str, ir_op: str | None = None) -> tuple[int, dict]:
    """llc-22's gfx1100 wave32 code for KERNEL with `old` replaced by `new`,
    checked against KERNEL with `ir_op` (default: `op`)."""
    assert LLC is not None
    src = tmp_path / "k.ll"
    src.write_text(KERNEL.format(op=op))
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32",
                          "-mattr=-flat-for-global", f"-amdgpu-atomic-optimizer-strategy={strategy}", str(src), "-o",
                          "-"], capture_output=True, text=True, check=True).stdout
    assert asm.count(old) == 1, asm
    out = tmp_path / "k.s"
    out.write_text(asm.replace(old, new))
    if ir_op is not None:
        src.write_text(KERNEL.format(op=ir_op).replace(f"@{ir_op}_i64", f"@{op}_i64"))
    code, text, _ = cli("tv", str(src), "--target", "gfx1100", "--wave", "32", "--asm", str(out), "--timeout", "10",
                        "--json")
    (r,) = json.loads(text)["results"]
    return code, r


@needs_llc
@pytest.mark.parametrize("strategy, old, new", [
    ("Iterative", "v_readfirstlane_b32 s3, v3", "v_readfirstlane_b32 s3, v2"),
    ("DPP", "v_readfirstlane_b32 s3, v9", "v_readfirstlane_b32 s3, v8")])
@pytest.mark.slow
def test_the_result_s_high_half_read_from_the_low_one_is_refuted_at_exec_lane_0(tmp_path: Path, strategy: str,
                                                                               old: str, new: str) -> None:
    code, r = _run(tmp_path, "add", strategy, old, new)
    assert (code, r["verdict"]) == (1, "refuted"), r
    assert any(n.startswith("counterexample: EXEC = 0x1;") for n in r["notes"]), r["notes"]


@needs_llc
@pytest.mark.slow
def test_the_ir_s_sub_against_llvm_s_code_for_add_is_refuted_at_exec_lane_0(tmp_path: Path) -> None:
    code, r = _run(tmp_path, "add", "Iterative", "s_endpgm", "s_endpgm", ir_op="sub")
    assert (code, r["verdict"]) == (1, "refuted"), r
    assert any(n.startswith("counterexample: EXEC = 0x1;") for n in r["notes"]), r["notes"]
