"""`verify tv` on float IR and clang's HIP intrinsics in LLVM's test shape
(tests/tv/llvm-shape/float_*.ll): fcmp, the min/max families, rounding,
conversions, llvm.amdgcn.icmp/fcmp, ballot of a float compare,
read_register of EXEC, empty inline asm; one-token mutants of LLVM's
output refuted; LLVM 22's `fcmp one` as a lane mask (V_CMP_NEQ) refuted
on NaN; the minnum assumption; what stays unsupported, named."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify.backend import Concrete, f32_bits, f32_value
from verify.ops import vfloat as V
from verify.tv.compile import run_line_instances
from verify.tv.llir import run_lines

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"
FILES = sorted(SHAPE.glob("float_*.ll"))
LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")


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


def mutant(tmp_path: Path, src: Path, fn: str, cpu: str, wave: int, good: str, bad: str) -> tuple[str, str]:
    """(the original asm, the asm with `good` replaced by `bad` inside `fn`)."""
    text = llc(str(src), cpu, wave)
    m = re.search(rf"\n{fn}:.*?s_setpc_b64", text, re.S)
    assert m is not None and good in m.group(0), (fn, good)
    bad_text = text[:m.start()] + m.group(0).replace(good, bad, 1) + text[m.end():]
    return write(tmp_path, "o.s", text), write(tmp_path, "m.s", bad_text)


def verdict_pair(tmp_path: Path, src: Path, fn: str, cpu: str, wave: int, good: str, bad: str,
                 *extra: str) -> tuple[dict, dict]:
    orig, mut = mutant(tmp_path, src, fn, cpu, wave, good, bad)
    base = [str(src), "--target", cpu, "--wave", str(wave), "--function", fn, *extra]
    _, (ro,) = results(*base, "--asm", orig)
    _, (rm,) = results(*base, "--asm", mut)
    return ro, rm


def test_float_files_have_the_llvm_test_shape():
    assert len(FILES) >= 7
    for p in FILES:
        text = p.read_text()
        assert len(run_line_instances(str(p), run_lines(text))) >= 2, p
        assert text.count("define ") >= 4, p


# ---- the bit-level functions against Python's IEEE arithmetic ----------------------

def test_rounding_and_compares_match_ieee_on_edge_values():
    C = Concrete()
    vals = [0.0, -0.0, 0.25, -0.25, 0.5, -0.5, 0.75, 1.5, -1.5, 2.5, -2.5, 8388607.5, -8388607.5, 1e-40, -1e-40,
            3.0e38, float("inf"), float("-inf")]
    for v in vals:
        b = f32_bits(v)
        x = f32_value(b)
        for mode, want in (("floor", math.floor), ("ceil", math.ceil), ("trunc", math.trunc), ("rne", round)):
            if math.isinf(x):
                assert V.round_integral(C, b, mode) == b
                continue
            w = math.copysign(float(want(x)), x)  # the sign is kept (ceil(-0.25) is -0.0)
            assert V.round_integral(C, b, mode) == f32_bits(w), (x, mode)
    nan, snan = 0x7FC00000, 0x7F800001
    assert not V.FCMP["olt"](C, nan, f32_bits(1.0)) and V.FCMP["ult"](C, nan, f32_bits(1.0))
    assert V.FCMP["oeq"](C, 0x80000000, 0) and not V.FCMP["olt"](C, 0x80000000, 0)
    assert V.is_snan(C, snan) and not V.is_snan(C, nan)
    assert V.fmin_num(C, snan, f32_bits(2.0), True) == 0x7FC00000
    assert V.fmin_num(C, snan, f32_bits(2.0), False) == f32_bits(2.0)
    assert V.f32_to_i32(C, f32_bits(-2.5)) == 0xFFFFFFFE and not V.f32_fits_i32(C, f32_bits(2.0 ** 31))
    assert V.u32_to_f32(C, 16777217) == f32_bits(16777216.0) and V.i32_to_f32(C, 0x80000000) == 0xCF000000


# ---- the corpus, proved ----------------------------------------------------------

@pytest.mark.slow
def test_fcmp_every_predicate_is_proved_on_gfx1200():
    """All sixteen fcmp predicates (and a constant operand, nnan, a float
    select) with llvmlite's LLVM on gfx1200, both waves."""
    code, rs = results(str(SHAPE / "float_fcmp.ll"), "--target", "gfx1200", "--wave", "32")
    assert code == 0
    assert len(rs) == 19 and {r["verdict"] for r in rs} == {"proved"}


@needs_llc
@pytest.mark.slow
def test_dpp_combined_ceil_and_amdgcn_icmp_are_proved():
    _, rs = results(str(SHAPE / "float_dpp_combine.ll"), "--llc", "llc-22", "--target", "gfx1100",
                    "--function", "dpp_ceil")
    assert [r["verdict"] for r in rs] == ["proved", "proved"]  # wave32 and wave64
    _, rs = results(str(SHAPE / "float_amdgcn_cmp.ll"), "--llc", "llc-22", "--target", "gfx900",
                    "--function", "icmp_sgt_3")
    assert [r["verdict"] for r in rs] == ["proved"]


@pytest.mark.slow
def test_icmp_ne_of_an_i64_mask_reads_its_high_half():
    """wfany: `icmp ne i64 %mask, 0` of a mask whose only set bit is in
    the high half is true (the IR compared only the low halves before)."""
    code, rs = results(str(SHAPE / "float_inline_asm.ll"), "--target", "gfx942", "--function", "wfany")
    assert code == 0 and rs[0]["verdict"] == "proved"


# ---- one-token mutants of LLVM's output, refuted -----------------------------------

@needs_llc
@pytest.mark.slow
def test_minnum_mutant_with_max_is_refuted(tmp_path):
    ro, rm = verdict_pair(tmp_path, SHAPE / "float_dpp_combine.ll", "dpp_minnum", "gfx942", 64,
                          "v_min_f32_e32 v0, v0, v1", "v_max_f32_e32 v0, v0, v1")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@needs_llc
def test_fcmp_olt_mutant_with_le_is_refuted(tmp_path):
    ro, rm = verdict_pair(tmp_path, SHAPE / "float_fcmp.ll", "fcmp_olt", "gfx1030", 32,
                          "v_cmp_lt_f32_e32", "v_cmp_le_f32_e32")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@needs_llc
def test_fcmp_ult_mutant_with_the_ordered_compare_is_refuted_on_nan(tmp_path):
    ro, rm = verdict_pair(tmp_path, SHAPE / "float_fcmp.ll", "fcmp_ult", "gfx1030", 32,
                          "v_cmp_nge_f32_e32", "v_cmp_lt_f32_e32")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"
    rows = [r for r in rm["counterexample"]["lanes"] if r["differs"]]
    assert rows  # the differing lane has a NaN operand: the two compares differ only there
    for r in rows:
        assert any((int(v, 16) & 0x7FFFFFFF) > 0x7F800000 for v in r["inputs"].values()), r


@needs_llc
def test_rint_mutant_with_floor_is_refuted(tmp_path):
    ro, rm = verdict_pair(tmp_path, SHAPE / "float_round_cvt.ll", "rint", "gfx1100", 32,
                          "v_rndne_f32_e32", "v_floor_f32_e32")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@needs_llc
@pytest.mark.slow
def test_sitofp_mutant_with_the_unsigned_convert_is_refuted(tmp_path):
    ro, rm = verdict_pair(tmp_path, SHAPE / "float_round_cvt.ll", "sitofp", "gfx1100", 32,
                          "v_cvt_f32_i32_e32", "v_cvt_f32_u32_e32")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@needs_llc
@pytest.mark.slow
def test_amdgcn_icmp_sgt_mutant_unsigned_is_refuted(tmp_path):
    ro, rm = verdict_pair(tmp_path, SHAPE / "float_amdgcn_cmp.ll", "icmp_sgt_3", "gfx900", 64,
                          "v_cmp_lt_i32_e32", "v_cmp_lt_u32_e32")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


@needs_llc
@pytest.mark.slow
def test_gfx12_minimumnum_without_quieting_is_refuted_on_a_signaling_nan(tmp_path):
    """GFX12 in IEEE mode: v_min_num_f32 of a signaling NaN gives a quiet
    NaN, so LLVM quiets both operands first (v_max_num_f32 x, x); without
    that, minimumnum(sNaN, y) = y is not met."""
    ro, rm = verdict_pair(tmp_path, SHAPE / "float_min_max.ll", "minimumnum", "gfx1200", 32,
                          "v_dual_max_num_f32 v1, v1, v1 :: v_dual_max_num_f32 v0, v0, v0", "s_nop 0")
    assert ro["verdict"] == "proved" and rm["verdict"] == "refuted"


# ---- LLVM 22: fcmp one as a lane mask --------------------------------------------

ONE = """; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s
define i64 @ballot_one(float %a, float %b) {
  %c = fcmp one float %a, %b
  %r = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  ret i64 %r
}
define i64 @fcmp_intr_one(float %a, float %b) {
  %r = call i64 @llvm.amdgcn.fcmp.i64.f32(float %a, float %b, i32 6)
  ret i64 %r
}
define i32 @select_one(float %a, float %b) {
  %c = fcmp one float %a, %b
  %r = select i1 %c, i32 7, i32 3
  ret i32 %r
}
"""


@needs_llc
@pytest.mark.slow
def test_llvm_lowers_fcmp_one_as_a_lane_mask_to_v_cmp_neq_refuted_on_nan(tmp_path):
    """LLVM 22 selects `fcmp one` (ordered, not equal: false on a NaN) to
    V_CMP_NEQ_F32 (unordered or not equal: true on a NaN) where the compare
    becomes a lane mask: ballot(fcmp one) and llvm.amdgcn.fcmp(..., 6)
    (VOPCInstructions.td: FCMP_Pattern <COND_ONE, V_CMP_NEQ_F32_e64>; the
    select form uses v_cmp_lg_f32 and is proved).  Every counterexample
    has a NaN operand in the differing lane."""
    src = write(tmp_path, "one.ll", ONE)
    asm = llc(src, "gfx942", 64)
    assert asm.count("v_cmp_neq_f32") == 2 and "v_cmp_lg_f32" in asm
    code, out, _ = cli("tv", src, "--llc", "llc-22")
    assert code == 1
    verdicts = dict(re.findall(r"^(\w+) on gfx942 wave64 \(llc-22\): (\w+)", out, re.M))
    assert verdicts == {"ballot_one": "refuted", "fcmp_intr_one": "refuted", "select_one": "proved"}
    for row in re.findall(r"^\s+\d+\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+.*<- differs", out, re.M):
        assert any((int(v, 16) & 0x7FFFFFFF) > 0x7F800000 for v in row), row


# ---- the minnum assumption -------------------------------------------------------

MINNUM = """; RUN: llc -mtriple=amdgcn -mcpu=gfx942 < %s
define float @minnum(float %a, float %b) {
  %r = call float @llvm.minnum.f32(float %a, float %b)
  ret float %r
}
"""


@pytest.mark.slow
def test_minnum_either_reading_proves_and_the_strict_one_refutes_on_snan(tmp_path):
    """LLVM quiets a signaling NaN operand and returns the other operand:
    allowed by LangRef's reading after PR 168838 (ir.minnum=either, the
    default), not by PR 112852's (strict: an sNaN operand gives a qNaN)."""
    src = write(tmp_path, "mn.ll", MINNUM)
    _, (r,) = results(src, "--target", "gfx942")
    assert r["verdict"] == "proved"
    _, (r,) = results(src, "--target", "gfx942", "--assume", "ir.minnum=strict")
    assert r["verdict"] == "refuted"


# ---- what stays unsupported, named -----------------------------------------------

@pytest.mark.parametrize("body, message", [
    ('%r = call i32 asm sideeffect "s_cselect_b32 $0, 1, 0", "=s"()\n  ret i32 %r',
     "unsupported: inline asm 's_cselect_b32 $0, 1, 0'"),  # (reads SCC no operand sets  [S:ir-asm-exec])
    ("%r = call i32 @llvm.read_register.i32(metadata !0)\n  ret i32 %r", "of 'm0' in wave64"),
    ("%r = fcmp olt double 1.0, 2.0\n  %z = zext i1 %r to i32\n  ret i32 %z", "fcmp of type double"),
])
def test_unmodelled_float_and_asm_is_unsupported_with_its_name(tmp_path, body, message):
    text = f"define i32 @f() {{\n  {body}\n}}\n!0 = !{{!\"m0\"}}\n"
    code, out, _ = cli("tv", write(tmp_path, "u.ll", text), "--target", "gfx942")
    assert code == 4 and message in out, out


def test_a_flushing_denormal_mode_is_unsupported(tmp_path):
    text = ('define float @f(float %a) #0 {\n  %r = call float @llvm.floor.f32(float %a)\n  ret float %r\n}\n'
            'attributes #0 = { "denormal-fp-math-f32"="preserve-sign,preserve-sign" }\n')
    code, out, _ = cli("tv", write(tmp_path, "d.ll", text), "--target", "gfx942")
    assert code == 4 and "f32 denormal mode 'preserve-sign,preserve-sign'" in out, out


# ---- clang-22's HIP kernels (tests/tv/hip/vote.hip, regen_vote.sh) ------------------

HIP = Path(__file__).parent / "tv" / "hip"


@pytest.mark.slow
@pytest.mark.parametrize("target, wave", [  # (gfx942 wave64: 75 s in CI, the corpus tier's)
    pytest.param("gfx942", 64, marks=pytest.mark.corpus), ("gfx1100", 32)])
def test_hip_ballot_and_float_kernels_from_clang22(target, wave):
    """__ballot (llvm.amdgcn.icmp/fcmp.i64), fminf of a __shfl_xor
    (llvm.minnum with `contract`), (int)ceilf (llvm.ceil, fptosi) as
    clang-22 compiles them: proved; __popcll(__ballot(...)) (ctpop, `trunc
    nuw i64`) is never refuted (the solver may give up within its budget)."""
    path = HIP / f"clang22_vote_{target}.ll"
    _, rs = results(str(path), "--target", target, "--wave", str(wave))
    got = {r["function"]: r["verdict"] for r in rs}
    assert got.pop("ballot_popc") in ("proved", "unknown")
    assert got == {"ballot_int": "proved", "ballot_float": "proved", "fmin_shfl_xor": "proved",
                   "ceil_to_int": "proved"}
