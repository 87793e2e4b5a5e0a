"""Branch causes for a kernel's other stores (issue #34): a uniform branch
on `icmp eq %c, 0` (llc-22: `s_cmp_lg_u32 sN, 0`, `s_cbranch_scc0`) made
`s_cmp_eq_u32` names the compare whatever the store is: a MUBUF
`buffer_store_dword` (-flat-for-global), an LDS `ds_store_b32` and a 16-bit
`global_store_b16`.  The replays record their stores by running the kernel
model's own store instructions on the replay's registers (they used to
read global and flat stores of whole dwords only, and the LDS had no
explanation at all)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytestmark = pytest.mark.skipif(shutil.which("llc-22") is None, reason="llc-22 not installed")

KERNEL = """\
define amdgpu_kernel void @k({ptr} %out, i32 %c, {ty} %a, {ty} %b) {{
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr {ty}, {ptr} %out, i32 {index}
  %cc = icmp eq i32 %c, 0
  br i1 %cc, label %t, label %f
t:
  %x = add {ty} %a, 5
  store {ty} %x, {ptr} %p
  ret void
f:
  %y = add {ty} %b, 2
  store {ty} %y, {ptr} %p
  ret void
}}
declare i32 @llvm.amdgcn.workitem.id.x()
"""


def check(tmp_path: Path, ptr: str, ty: str, index: str, cpu: list[str], wave: str, store: str) -> None:
    ir = KERNEL.format(ptr=ptr, ty=ty, index=index)
    ll = tmp_path / "k.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", *cpu], input=ir, capture_output=True, text=True,
                         check=True).stdout
    lines = asm.splitlines()
    at = next(n for n, t in enumerate(lines) if re.fullmatch(r"\ts_cmp_lg_u32 s\d+, 0", t))
    lines[at] = lines[at].replace("s_cmp_lg_u32", "s_cmp_eq_u32")
    at += 1
    assert lines[at].startswith("\ts_cbranch_scc0 "), asm
    assert sum(t.startswith(f"\t{store} ") for t in lines) >= 1, asm
    bad = tmp_path / "m.s"
    bad.write_text("\n".join(lines) + "\n")
    code, out, _ = cli("tv", str(ll), "--target", cpu[0].split("=")[1], "--wave", wave, "--asm", str(bad))
    assert code == 1, out
    word = re.search(r"(?:memory|LDS) at 0x[0-9a-f]+ after the kernel: IR (0x[0-9a-f]+), GPU", out)
    assert word is not None, out
    cause = next(t for t in out.splitlines() if t.startswith("    cause: "))
    assert re.fullmatch(rf"    cause: line {at} s_cmp_eq_u32: SCC = [01], a correct program would hold [01] -> line "
                        rf"{at + 1} s_cbranch_scc0 (not )?taken, the path to the GPU value; the other way it gives "
                        rf"the value wanted, {word.group(1)}", cause), out


def test_a_buffer_store_s_branch_is_named(tmp_path):
    check(tmp_path, "ptr addrspace(1)", "i32", "0", ["-mcpu=gfx900", "-mattr=-flat-for-global"], "64",
          "buffer_store_dword")


def test_an_lds_store_s_branch_is_named(tmp_path):
    check(tmp_path, "ptr addrspace(3)", "i32", "%tid", ["-mcpu=gfx1100", "-mattr=+wavefrontsize32"], "32",
          "ds_store_b32")


@pytest.mark.slow
def test_a_16_bit_store_s_branch_is_named(tmp_path):
    check(tmp_path, "ptr addrspace(1)", "i16", "0", ["-mcpu=gfx1100", "-mattr=+wavefrontsize32"], "32",
          "global_store_b16")


@pytest.mark.slow
def test_a_16_bit_store_s_wrong_value_names_its_computation(tmp_path):
    """The 16-bit kernel with `%a + 5` computed as `s_add_i32 sN, sM, 6`:
    the differing byte is traced from the stored register's low byte
    (a byte memory's store group is one byte of it) back to the s_add
    (it used to stop at the store: "the GPU's store differs")."""
    ir = KERNEL.format(ptr="ptr addrspace(1)", ty="i16", index="0")
    ll = tmp_path / "k.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    lines = asm.splitlines()
    at = next(n for n, t in enumerate(lines) if re.fullmatch(r"\ts_add_i32 s\d+, s\d+, 5", t))
    lines[at] = lines[at][:-1] + "6"
    dst = lines[at].split()[1].rstrip(",")
    bad = tmp_path / "m.s"
    bad.write_text("\n".join(lines) + "\n")
    code, out, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad))
    assert code == 1, out
    got = out.splitlines()
    assert f"    cause: line {at + 1} s_add_i32: writes {dst}" in got, out
    assert any(t.startswith("      line ") and "global_store_b16" in t and re.search(r"\(bits (0-7|8-15): 0x", t)
               for t in got), out
