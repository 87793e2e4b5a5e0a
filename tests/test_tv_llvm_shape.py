"""`verify tv` on files in the shape of LLVM's own AMDGPU tests
(tests/tv/llvm-shape/: many functions per file, several RUN lines, the
64-bit, vector, 16-bit and pointer overloads of the cross-lane intrinsics,
pointer and vector arguments and results), and one-token mutants of LLVM's
code for them, refuted."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify.tv.compile import run_line_instances
from verify.tv.llir import run_lines

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"
FILES = sorted(SHAPE.glob("*.ll"))
LLC = shutil.which("llc-22")



def llc(path: str, cpu: str, wave: int) -> str:
    assert LLC is not None
    attr = [] if cpu.startswith("gfx9") else [f"-mattr=+wavefrontsize{wave}"]
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O2", *attr, path, "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def results(*args: str) -> tuple[int, list[dict]]:
    code, out, _ = cli("tv", *args, "--json")
    return code, json.loads(out)["results"]


def test_files_have_the_llvm_test_shape():
    assert len(FILES) >= 5
    for p in FILES:
        text = p.read_text()
        assert len(run_line_instances(str(p), run_lines(text))) >= 2, p
        assert text.count("define ") >= 2, p


@pytest.mark.slow
def test_update_dpp_overloads_are_proved_on_one_target():
    """Every overload of update.dpp (i64, double, <2 x i32>, <2 x float>,
    ptr, ptr addrspace(3), <2 x i16>, <2 x half>, half, i16, bfloat,
    <4 x i32>) with llvmlite's LLVM on gfx942."""
    code, rs = results(str(SHAPE / "update_dpp_overloads.ll"), "--target", "gfx942")
    assert code == 0
    assert len(rs) == 13
    assert {r["verdict"] for r in rs} == {"proved"}


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_i64_dpp_mutant_moving_the_low_half_twice_is_refuted(tmp_path):
    src = SHAPE / "update_dpp_overloads.ll"
    text = llc(str(src), "gfx1100", 32)
    good = "v_mov_b32_dpp v1, v3 row_shr:1 row_mask:0xf bank_mask:0xf"
    assert good in text
    asm = write(tmp_path, "m.s", text.replace(good, good.replace("v3", "v2")))
    code, rs = results(str(src), "--target", "gfx1100", "--wave", "32", "--asm", asm, "--function", "update_dpp_i64")
    assert code == 1
    (r,) = rs
    assert r["verdict"] == "refuted"
    # the original code is proved
    code, rs = results(str(src), "--target", "gfx1100", "--wave", "32", "--asm", write(tmp_path, "o.s", text),
                       "--function", "update_dpp_i64")
    assert code == 0 and rs[0]["verdict"] == "proved"


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_v2i16_readlane_mutant_clearing_the_high_element_is_refuted(tmp_path):
    src = SHAPE / "readlane_overloads.ll"
    text = llc(str(src), "gfx1100", 32)
    m = re.search(r"readlane_v2i16:.*?\n(\tv_mov_b32_e32 v0, s0\n)", text, re.S)
    assert m is not None
    at = m.end(1)
    asm = write(tmp_path, "m.s", text[:at] + "\tv_and_b32_e32 v0, 0xffff, v0\n" + text[at:])
    code, out, _ = cli("tv", str(src), "--target", "gfx1100", "--wave", "32", "--asm", asm,
                       "--function", "readlane_v2i16")
    assert code == 1, out
    assert "readlane_v2i16 on gfx1100 wave32" in out and "refuted" in out.splitlines()[0]
    # the table shows the high element (ret.0.h, lane 0): the IR's value, the GPU's 0, traced to the and
    rows = [ln.split() for ln in out.splitlines() if ln.strip().startswith("ret.0.h[0]")]
    assert len(rows) == 1
    ir, gpu = int(rows[0][1], 16), int(rows[0][2], 16)
    assert ir != 0 and gpu == 0
    assert "cause: line 78 v_and_b32_e32: v0[0] computed by v_and_b32_e32" in out


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_pointer_readfirstlane_mutant_swapping_halves_is_refuted(tmp_path):
    src = SHAPE / "readlane_overloads.ll"
    text = llc(str(src), "gfx1100", 32)
    good = "v_dual_mov_b32 v0, s0 :: v_dual_mov_b32 v1, s1"
    assert good in text
    asm = write(tmp_path, "m.s", text.replace(good, "v_dual_mov_b32 v0, s1 :: v_dual_mov_b32 v1, s0"))
    code, rs = results(str(src), "--target", "gfx1100", "--wave", "32", "--asm", asm, "--function", "readfirstlane_p1")
    assert code == 1 and rs[0]["verdict"] == "refuted"


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_half_dpp_mutant_with_another_row_shift_is_refuted(tmp_path):
    src = SHAPE / "update_dpp_overloads.ll"
    text = llc(str(src), "gfx942", 64)
    m = re.search(r"update_dpp_f16:.*?s_setpc_b64", text, re.S)
    assert m is not None and "row_shr:1" in m.group(0)
    asm = write(tmp_path, "m.s", text[:m.start()] + m.group(0).replace("row_shr:1", "row_shr:2") + text[m.end():])
    code, rs = results(str(src), "--target", "gfx942", "--asm", asm, "--function", "update_dpp_f16")
    assert code == 1 and rs[0]["verdict"] == "refuted"


def test_vector_poison_element_stays_in_its_element(tmp_path):
    """An IR-to-IR pair: a readlane of <2 x i16> whose low element is
    poison keeps the high element defined, so a tgt that changes the high
    element is refuted, and one that changes only the low element is not."""
    head = "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100\n"
    src = ("define <2 x i16> @f(<2 x i16> %v, i32 inreg %l) {\n"
           "  %p = insertelement <2 x i16> %v, i16 poison, i32 0\n"
           "  %r = call <2 x i16> @llvm.amdgcn.readlane.v2i16(<2 x i16> %p, i32 %l)\n"
           "  ret <2 x i16> %r\n}\n")
    lo = src.replace("define <2 x i16> @f", "define <2 x i16> @g").replace(
        "  ret <2 x i16> %r", "  %q = insertelement <2 x i16> %r, i16 7, i32 0\n  ret <2 x i16> %q")
    hi = lo.replace("i16 7, i32 0", "i16 7, i32 1")
    a = write(tmp_path, "a.ll", head + src)
    code, out, _ = cli("tv", a, write(tmp_path, "lo.ll", head + lo.replace("@g", "@f")), "--wave", "32")
    assert code == 0, out
    code, out, _ = cli("tv", a, write(tmp_path, "hi.ll", head + hi.replace("@g", "@f")), "--wave", "32")
    assert code == 1, out


@pytest.mark.slow
def test_kernels_with_wide_arguments_are_proved_with_llvmlite():
    """Kernel arguments of i64, double, <2 x half>, flat and LDS pointers
    (kernarg offsets from the ABI rule, checked against the metadata), and
    per-lane i64 and <2 x i16> loads and stores through a global pointer."""
    code, rs = results(str(SHAPE / "kernels_wide_args.ll"), "--target", "gfx1100", "--wave", "32")
    assert code == 0
    assert [r["function"] for r in rs] == ["dpp_i64_kernarg", "dpp_i64_load", "readlane_f64_kernarg",
                                           "readfirstlane_v2i16_load", "writelane_v2f16_kernarg",
                                           "readfirstlane_p0_kernarg", "readfirstlane_p3_kernarg"]
    assert {r["verdict"] for r in rs} == {"proved"}


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_kernel_i64_dpp_mutant_on_the_high_half_is_refuted(tmp_path):
    src = SHAPE / "kernels_wide_args.ll"
    text = llc(str(src), "gfx942", 64)
    good = "v_mov_b32_dpp v3, v1 quad_perm:[1,0,0,0] row_mask:0x1 bank_mask:0x1"
    m = re.search(r"dpp_i64_load:.*?s_endpgm", text, re.S)
    assert m is not None and good in m.group(0)
    asm = write(tmp_path, "m.s", text[:m.start()] + m.group(0).replace(good, good.replace("[1,0,0,0]", "[2,0,0,0]"))
                + text[m.end():])
    code, rs = results(str(src), "--target", "gfx942", "--asm", asm, "--function", "dpp_i64_load")
    assert code == 1
    (r,) = rs
    assert r["verdict"] == "refuted"


def test_sub_dword_kernel_argument_is_unsupported_with_its_name(tmp_path):
    """(i16 and i8 kernel arguments are modelled since tests/test_tv_shape_mem.py; i1 is not.)"""
    p = write(tmp_path, "k.ll", "; RUN: llc -mtriple=amdgcn -mcpu=gfx942\n"
              "define amdgpu_kernel void @k(ptr addrspace(1) %out, i1 %h) {\n"
              "  %z = zext i1 %h to i32\n  store i32 %z, ptr addrspace(1) %out\n  ret void\n}\n")
    code, out, _ = cli("tv", p)
    assert code == 4
    assert f"{p}:2:1: unsupported: kernel argument %h of type i1 (modelled: whole dwords, 8- and 16-bit scalars)" in out


@pytest.mark.slow
def test_i64_wave_reduce_of_a_uniform_value_is_proved_on_gfx942():
    """umax, xor and add of a uniform i64 (closed forms: v, v times n's
    parity, n*v); gfx942 copies the result with v_mov_b64 [S:mov-b64]."""
    code, rs = results(str(SHAPE / "wave_reduce_i64.ll"), "--target", "gfx942")
    assert code == 0
    assert [(r["function"], r["verdict"]) for r in rs] == [
        ("umax_i64_uniform", "proved"), ("xor_i64_uniform", "proved"), ("add_i64_uniform", "proved")]


def test_v_mov_b64_is_cdna3_only():
    """llvm-mc-22 accepts v_mov_b64 on gfx942/gfx950 only [S:mov-b64]."""
    from verify.asmcheck import parse_line
    from verify.diag import InputError, Span
    from verify.ops.base import op_of
    from verify.target import get
    ins = parse_line("v_mov_b64_e32 v[0:1], s[2:3]", Span("t.s", 1, 1))
    op_of(ins.base).check(ins, get("gfx942"), 64)
    op_of(ins.base).check(ins, get("gfx950"), 64)
    for t in ("gfx90a", "gfx1100", "gfx1200"):
        with pytest.raises(InputError, match=f"v_mov_b64_e32 is not available on {t}"):
            op_of(ins.base).check(ins, get(t), 64)
