"""`verify tv` on half, bfloat, <2 x half> and fused f32 IR in LLVM's test
shape (tests/tv/llvm-shape/half_*.ll): llc-22's output proved, one-token
mutants of it refuted (v_max_f16 -> v_min_f16, op_sel flipped, a true16
half swapped, v_fma_f32 -> v_mad_f32 where f32 denormals are kept, a
compare predicate), the denormal mode read from the function's
attributes, and what stays unsupported, named.  [S:half-arith]"""

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
FILES = sorted(SHAPE.glob("half_*.ll"))
LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")


def llc(path: Path, cpu: str, wave: int) -> str:
    assert LLC is not None
    attr = [] if cpu.startswith(("gfx8", "gfx9")) else [f"-mattr=+wavefrontsize{wave}"]
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O2", *attr, str(path), "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


def results(*args: str) -> tuple[int, list[dict]]:
    code, out, _ = cli("tv", *args, "--json")
    return code, json.loads(out)["results"]


def verdicts(tmp_path: Path, src: Path, fn: str, cpu: str, wave: int, good: str, bad: str,
             *extra: str) -> tuple[dict, dict]:
    """The verdicts on llc-22's output and on it with `good` replaced by
    `bad` (once, inside `fn`)."""
    text = llc(src, cpu, wave)
    m = re.search(rf"\n{fn}:.*?s_setpc_b64", text, re.S)
    assert m is not None and good in m.group(0), (fn, good, m.group(0) if m else text[:400])
    mutant = text[:m.start()] + m.group(0).replace(good, bad, 1) + text[m.end():]
    (tmp_path / "o.s").write_text(text)
    (tmp_path / "m.s").write_text(mutant)
    base = [str(src), "--target", cpu, "--wave", str(wave), "--function", fn, *extra]
    _, (ro,) = results(*base, "--asm", str(tmp_path / "o.s"))
    _, (rm,) = results(*base, "--asm", str(tmp_path / "m.s"))
    return ro, rm


def test_half_files_have_the_llvm_test_shape():
    assert len(FILES) >= 5
    for p in FILES:
        text = p.read_text()
        assert len(run_line_instances(str(p), run_lines(text))) >= 2, p
        assert text.count("define ") >= 4, p


# ---- proved on llc-22's output ---------------------------------------------------

@pytest.mark.slow
@needs_llc
@pytest.mark.parametrize("fn,cpu,wave", [
    ("fadd_f16", "gfx1100", 32),     # true16: v_add_f16_e32 v0.l, v0.l, v1.l
    ("fadd_dpp_f16", "gfx900", 64),  # v_mov_b32_dpp then v_add_f16
    ("fmul_readlane_f16", "gfx1030", 32),
    ("fneg_bf16", "gfx1030", 32),    # the sign bit of a bfloat
])
def test_half_arith_is_proved(fn, cpu, wave):
    _, rs = results(str(SHAPE / "half_arith.ll"), "--llc", "llc-22", "--target", cpu, "--wave", str(wave),
                    "--function", fn)
    assert [r["verdict"] for r in rs] == ["proved"], rs


@pytest.mark.slow
@needs_llc
@pytest.mark.parametrize("fn,cpu,wave", [
    ("maxnum_f16", "gfx900", 64), ("minimumnum_f16", "gfx1100", 32), ("fcmp_ueq_f16", "gfx1030", 32),
    ("max_dpp_f16", "gfx1200", 32), ("canonicalize_f16", "gfx900", 64),
])
def test_half_min_max_and_compares_are_proved(fn, cpu, wave):
    _, rs = results(str(SHAPE / "half_minmax.ll"), "--llc", "llc-22", "--target", cpu, "--wave", str(wave),
                    "--function", fn)
    assert [r["verdict"] for r in rs] == ["proved"], rs


@pytest.mark.slow
@needs_llc
@pytest.mark.parametrize("fn,cpu,wave", [
    ("fma_f32", "gfx900", 64), ("fmuladd_f32", "gfx803", 64), ("fma_dpp_f32", "gfx1030", 32),
    ("fmul_readfirstlane_f32", "gfx1100", 64), ("fma_f16", "gfx1100", 64),
])
def test_fma_family_is_proved(fn, cpu, wave):
    _, rs = results(str(SHAPE / "half_fma.ll"), "--llc", "llc-22", "--target", cpu, "--wave", str(wave),
                    "--function", fn)
    assert [r["verdict"] for r in rs] == ["proved"], rs


@pytest.mark.slow
@needs_llc
@pytest.mark.parametrize("fn,cpu,wave", [
    ("pk_fadd", "gfx900", 64), ("pk_fmul", "gfx1030", 32), ("pk_fadd_dpp", "gfx1100", 32), ("pk_fneg", "gfx900", 64),
])
def test_packed_half_is_proved(fn, cpu, wave):
    _, rs = results(str(SHAPE / "half_packed.ll"), "--llc", "llc-22", "--target", cpu, "--wave", str(wave),
                    "--function", fn)
    assert [r["verdict"] for r in rs] == ["proved"], rs


@pytest.mark.slow
@needs_llc
@pytest.mark.parametrize("fn,cpu,wave", [
    ("fpext_f16", "gfx1100", 32), ("fptrunc_f16", "gfx900", 64), ("fpext_bf16", "gfx1030", 32),
    ("fpext_permlane_f16", "gfx900", 64), ("bitcast_v2f16", "gfx1030", 32),
])
def test_conversions_are_proved(fn, cpu, wave):
    _, rs = results(str(SHAPE / "half_convert.ll"), "--llc", "llc-22", "--target", cpu, "--wave", str(wave),
                    "--function", fn)
    assert [r["verdict"] for r in rs] == ["proved"], rs


# ---- the denormal mode from the function's attributes -----------------------------

@needs_llc
def test_fmuladd_under_preserve_sign_is_v_mad_and_needs_the_flush_assumption():
    """"denormal-fp-math-f32"="preserve-sign": llc-22 selects v_mad_f32 on
    gfx900.  Under f32.denormals=ieee (the default) the IR's mode is not the
    hardware's: unsupported, naming the mode; under flush it is proved."""
    base = [str(SHAPE / "half_fma.ll"), "--llc", "llc-22", "--target", "gfx900", "--function", "fmuladd_flush"]
    _, (r,) = results(*base)
    assert r["verdict"] == "unsupported" and "preserve-sign" in json.dumps(r), r
    _, (r,) = results(*base, "--assume", "f32.denormals=flush")
    assert r["verdict"] == "proved", r


# ---- one-token mutants refuted ---------------------------------------------------------

@pytest.mark.slow
@needs_llc
def test_maxnum_f16_mutant_with_min_is_refuted(tmp_path):
    ro, rm = verdicts(tmp_path, SHAPE / "half_minmax.ll", "maxnum_f16", "gfx900", 64,
                      "v_max_f16_e32 v0, v0, v1", "v_min_f16_e32 v0, v0, v1")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@pytest.mark.slow
@needs_llc
def test_maxnum_f16_without_quieting_is_refuted_on_a_signaling_nan(tmp_path):
    """IEEE mode: v_max_f16 of a signaling NaN gives a quiet NaN, so LLVM
    quiets the operands of maximumnum first; dropped, sNaN vs y gives a NaN
    where maximumnum requires y."""
    ro, rm = verdicts(tmp_path, SHAPE / "half_minmax.ll", "maximumnum_f16", "gfx900", 64,
                      "v_max_f16_e32 v1, v1, v1", "v_mov_b32_e32 v1, v1")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@pytest.mark.slow
@needs_llc
def test_packed_add_with_op_sel_flipped_is_refuted(tmp_path):
    ro, rm = verdicts(tmp_path, SHAPE / "half_packed.ll", "pk_fadd", "gfx900", 64,
                      "v_pk_add_f16 v0, v0, v1", "v_pk_add_f16 v0, v0, v1 op_sel:[1,0]")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@pytest.mark.slow
@needs_llc
def test_true16_half_swapped_is_refuted(tmp_path):
    ro, rm = verdicts(tmp_path, SHAPE / "half_arith.ll", "fadd_f16", "gfx1100", 32,
                      "v0.l, v0.l, v1.l", "v0.l, v0.l, v1.h")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@pytest.mark.slow
@needs_llc
def test_fma_to_mad_is_refuted_where_denormals_are_kept(tmp_path):
    """v_mad_f32 flushes a subnormal addend (and rounds the product): with
    f32 denormals kept, fmuladd's two allowed results both differ."""
    ro, rm = verdicts(tmp_path, SHAPE / "half_fma.ll", "fmuladd_f32", "gfx900", 64, "v_fma_f32", "v_mad_f32")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@needs_llc
def test_fcmp_olt_f16_mutant_with_le_is_refuted(tmp_path):
    ro, rm = verdicts(tmp_path, SHAPE / "half_minmax.ll", "fcmp_olt_f16", "gfx1030", 32,
                      "v_cmp_lt_f16_e32", "v_cmp_le_f16_e32")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@pytest.mark.slow
@needs_llc
def test_fmul_f16_mutant_with_add_is_refuted(tmp_path):
    ro, rm = verdicts(tmp_path, SHAPE / "half_arith.ll", "fmul_f16", "gfx803", 64, "v_mul_f16", "v_add_f16")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


# ---- what stays unsupported, named -----------------------------------------------------

def test_contract_flag_and_preserve_sign_half_are_unsupported(tmp_path):
    p = tmp_path / "u.ll"
    p.write_text("; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s\n; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 < %s\n"
                 "define half @c(half %a, half %b) {\n  %r = fadd contract half %a, %b\n  ret half %r\n}\n"
                 "define half @d(half %a, half %b) #0 {\n  %r = fmul half %a, %b\n  ret half %r\n}\n"
                 "attributes #0 = { \"denormal-fp-math\"=\"preserve-sign,preserve-sign\" }\n")
    _, rs = results(str(p), "--target", "gfx900")
    by = {r["function"]: r for r in rs}
    assert by["c"]["verdict"] == "unsupported" and "contract" in json.dumps(by["c"])
    assert by["d"]["verdict"] == "unsupported" and "preserve-sign" in json.dumps(by["d"])


# v_pk_add_f16 neg_lo/neg_hi (pk_fsub) and GFX12's v_minimum_f16, unsupported before half2, are proved:
# half_packed.ll's and half_minmax.ll's EXPECT lines (corpus tier) hold them; tests/test_tv_half2.py refutes mutants.
