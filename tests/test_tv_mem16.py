"""8- and 16-bit global memory in `verify tv` (issue 31, mem16): byte-granular
memory (verify/tv/bytemem.py), the sub-dword loads and stores
(verify/ops/mem16.py), their legality against llvm-mc-22; the corpus file
is tests/tv/llvm-shape/mem16_subdword.ll (tests/test_tv_expect.py)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

from verify import target
from verify.backend import Concrete
from verify.ops import mem16

LLC = shutil.which("llc-22")
MC = shutil.which("llvm-mc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")

STORE_BY_LANE = """; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %v = add i32 %id, %x
  %t = trunc i32 %v to i16
  %p = getelementptr i16, ptr addrspace(1) %out, i32 %id
  store i16 %t, ptr addrspace(1) %p ALIGN
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def results(*args: str) -> tuple[int, list[dict]]:
    code, out, _ = cli("tv", *args, "--json")
    return code, json.loads(out)["results"]


def llc(path: str, cpu: str) -> str:
    assert LLC is not None
    return subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", path, "-o", "-"],
                          capture_output=True, text=True, check=True).stdout


@needs_llc
@pytest.mark.slow
def test_an_i16_store_to_lane_dependent_addresses_is_proved_and_the_wrong_half_refuted(tmp_path):
    """Adjacent lanes' i16 stores share a dword (no race: bytes differ);
    LLVM's global_store_short is proved; the same code storing bits 31:16
    (global_store_short_d16_hi) is refuted, a lane named."""
    ir = write(tmp_path, "k.ll", STORE_BY_LANE.replace(" ALIGN", ""))
    asm = llc(ir, "gfx900")
    assert "global_store_short " in asm
    code, rs = results(ir, "--asm", write(tmp_path, "ok.s", asm), "--target", "gfx900", "--wave", "64")
    assert code == 0 and [r["verdict"] for r in rs] == ["proved"], rs
    bad = asm.replace("global_store_short ", "global_store_short_d16_hi ")
    code, rs = results(ir, "--asm", write(tmp_path, "bad.s", bad), "--target", "gfx900", "--wave", "64")
    assert code == 1 and rs[0]["verdict"] == "refuted", rs
    notes = "\n".join(rs[0]["notes"])
    assert "counterexample: EXEC = 0x1; memory at" in notes and re.search(r"lane 0: workitem\.id\.x = ", notes), notes


@needs_llc
def test_an_under_aligned_i16_store_is_unsupported_with_its_note(tmp_path):
    ir = write(tmp_path, "k.ll", STORE_BY_LANE.replace(" ALIGN", ", align 1"))
    code, rs = results(ir, "--llc", "llc-22")
    assert [r["verdict"] for r in rs] == ["unsupported"], rs
    assert rs[0]["notes"] == [f"{ir}:7:3: unsupported: store of i16 with align 1 (modelled: align >= 2, the type's size)"]


def test_lane_functions_concretely():
    B = Concrete()
    assert mem16.store_bytes(B, 0x11223344, mem16.parse("global_store_b8")) == [0x44]
    assert mem16.store_bytes(B, 0x11223344, mem16.parse("flat_store_short")) == [0x44, 0x33]
    assert mem16.store_bytes(B, 0x11223344, mem16.parse("buffer_store_byte_d16_hi")) == [0x22]
    assert mem16.load_value(B, 0xFF, 0, mem16.parse("global_load_sbyte")) == 0xFFFFFFFF
    assert mem16.load_value(B, 0xFF, 0, mem16.parse("global_load_u8")) == 0xFF
    assert mem16.load_value(B, 0x8000, 0, mem16.parse("global_load_sshort")) == 0xFFFF8000
    assert mem16.load_value(B, 0xBEEF, 0x12345678, mem16.parse("global_load_short_d16")) == 0x1234BEEF
    assert mem16.load_value(B, 0xBEEF, 0x12345678, mem16.parse("global_load_d16_hi_b16")) == 0xBEEF5678
    assert mem16.load_value(B, 0x80, 0x12345678, mem16.parse("flat_load_d16_i8")) == 0x1234FF80
    assert mem16.parse("global_store_dword") is None and mem16.parse("global_load_b32") is None


_OLD = ["store_byte", "store_short", "store_byte_d16_hi", "store_short_d16_hi", "load_ubyte", "load_sbyte",
        "load_ushort", "load_sshort", "load_ubyte_d16", "load_ubyte_d16_hi", "load_sbyte_d16", "load_sbyte_d16_hi",
        "load_short_d16", "load_short_d16_hi"]
_NEW = ["store_b8", "store_b16", "store_d16_hi_b8", "store_d16_hi_b16", "load_u8", "load_i8", "load_u16", "load_i16",
        "load_d16_u8", "load_d16_hi_u8", "load_d16_i8", "load_d16_hi_i8", "load_d16_b16", "load_d16_hi_b16"]


@pytest.mark.skipif(MC is None, reason="needs llvm-mc-22")
@pytest.mark.parametrize("cpu", ["gfx803", "gfx900", "gfx90a", "gfx1030", "gfx1100", "gfx1200"])
def test_legality_is_llvm_mc_22s(cpu):
    """Every sub-dword spelling, in each space, legal exactly where llvm-mc-22 takes it."""
    assert MC is not None
    lines = []
    for space in ("global", "flat", "buffer"):
        for rest in _OLD + _NEW:
            mn = f"{space}_{rest}"
            st = rest.startswith("store")
            if space == "global":
                text = f"{mn} v[0:1], v2, off" if st else f"{mn} v2, v[0:1], off"
            elif space == "flat":
                text = f"{mn} v[0:1], v2" if st else f"{mn} v2, v[0:1]"
            else:
                text = f"{mn} v2, off, s[0:3], {'null' if cpu == 'gfx1200' else '0'}"
            lines.append((mn, text))
    r = subprocess.run([MC, "-arch=amdgcn", f"-mcpu={cpu}"], input="\n".join(t for _, t in lines) + "\n",
                       capture_output=True, text=True)
    rejected = {int(n) for n in re.findall(r"<stdin>:(\d+):\d+: error", r.stderr)}
    t = target.get(cpu)
    for k, (mn, _) in enumerate(lines, 1):
        acc = mem16.parse(mn)
        assert acc is not None, mn
        assert (mem16.legal(acc, t) is None) == (k not in rejected), (cpu, mn, mem16.legal(acc, t))


LDS_GLOBAL = """; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
@lds = internal unnamed_addr addrspace(3) global [64 x i32] undef, align 4
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr inbounds [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %id
  %v = load i32, ptr addrspace(3) %q, align 4
  %p = getelementptr inbounds [64 x i32], ptr addrspace(1) %out, i64 0, i32 %id
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"""


@needs_llc
def test_an_lds_global_at_llvms_address_proves_and_a_wrong_offset_is_unknown_not_refuted(tmp_path):
    """The IR's LDS global placed where LLVM places it (0): LLVM's code is
    proved; the same code reading 4 bytes further is a counterexample under
    that placement only, so unknown, naming the choice."""
    ir = write(tmp_path, "k.ll", LDS_GLOBAL)
    asm = llc(ir, "gfx900")
    code, rs = results(ir, "--asm", write(tmp_path, "ok.s", asm), "--target", "gfx900", "--wave", "64")
    assert code == 0 and [r["verdict"] for r in rs] == ["proved"], rs
    line = next(x for x in asm.splitlines() if x.strip().startswith("ds_read_b32"))
    assert "offset" not in line
    bad = asm.replace(line, line + " offset:4")
    code, rs = results(ir, "--asm", write(tmp_path, "bad.s", bad), "--target", "gfx900", "--wave", "64")
    assert rs[0]["verdict"] == "unknown", rs
    assert any("the address of LDS global @lds" in n for n in rs[0]["notes"]), rs
