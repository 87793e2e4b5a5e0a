"""`verify tv` on tests/tv/llvm-shape/agg_*.ll (LLVM's test shape): struct
results built by insertvalue [S:ir-aggregate], i64 multiplies and shifts
with LangRef's nuw/nsw/exact poison [S:ir-mul64] [S:ir-wrap-flags] on the
GPU ops llc-22 selects [S:arith64] [S:xad-u32], inverse.ballot
[S:ir-inverse-ballot], and the closed loop's non-deterministic values
(verify/tv/nondet.py): every instance proved with llc-22's code, and a
one-token mutant of that code refuted."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"
LLC = shutil.which("llc-22")
pytestmark = pytest.mark.skipif(LLC is None, reason="needs llc-22")


def results(*args: str) -> tuple[int, list[dict]]:
    code, out, _ = cli("tv", *args, "--llc", "llc-22", "--json")
    return code, json.loads(out)["results"]


def llc(path: Path, cpu: str, wave: int) -> str:
    assert LLC is not None
    attr = [] if cpu.startswith(("gfx8", "gfx9")) else [f"-mattr=+wavefrontsize{wave}"]
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O2", *attr, str(path), "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


def mutant(tmp_path: Path, name: str, fn: str, cpu: str, wave: int, good: str, bad: str) -> tuple[int, str]:
    """`verify tv` on llc-22's code for `fn` with its one line `good` replaced by `bad`."""
    src = SHAPE / f"{name}.ll"
    text = llc(src, cpu, wave)
    m = re.search(rf"^{fn}:.*?s_setpc_b64", text, re.S | re.M)
    assert m is not None and m.group(0).count(good) == 1, (good, m and m.group(0))
    body = m.group(0).replace(good, bad)
    asm = tmp_path / "m.s"
    asm.write_text(text[:m.start()] + body + text[m.end():])
    code, out, _ = cli("tv", str(src), "--target", cpu, "--wave", str(wave), "--asm", str(asm), "--function", fn)
    return code, out


def verdicts(rs: list[dict]) -> dict[tuple[str, str, int], str]:
    return {(r["function"], r["target"], r["wave"]): r["verdict"] for r in rs}


@pytest.mark.slow  # about 10 s of CPU
def test_aggregates_are_proved():
    code, rs = results(str(SHAPE / "agg_aggregate.ll"))
    assert code == 0
    fns = ("pair_dpp", "wide_member", "short_member", "one_member_written", "member_rewritten",
           "extract_after_insert")
    assert verdicts(rs) == {(f, t, w): "proved" for f in fns
                            for t, w in (("gfx900", 64), ("gfx1030", 32), ("gfx1200", 32))}


@pytest.mark.parametrize("fn,good,bad", [
    ("pair_dpp", "v_mov_b32_e32 v1, s4", "v_mov_b32_e32 v2, s4"),  # the second member not written
    ("wide_member", "v_mov_b32_e32 v1, s5", "v_mov_b32_e32 v1, s4"),  # the i64 member's high half
    ("short_member", "v_add_nc_u16 v0, v0, 3", "v_add_nc_u16 v0, v0, 4"),
    ("one_member_written", "v_xor_b32_e32 v1, 5, v0", "v_xor_b32_e32 v0, 5, v0"),  # into the poison member
])
@pytest.mark.slow
def test_aggregate_mutants_are_refuted(tmp_path, fn, good, bad):
    code, out = mutant(tmp_path, "agg_aggregate", fn, "gfx1030", 32, good, bad)
    assert code == 1, out
    assert out.splitlines()[0].startswith(f"{fn} on gfx1030 wave32 (") and "refuted" in out.splitlines()[0]


@pytest.mark.slow  # about 15 s of wall time
def test_inverse_ballot_is_proved():
    code, rs = results(str(SHAPE / "agg_lanemask.ll"))
    assert code == 0
    assert verdicts(rs) == {(f, t, w): "proved" for f in ("inverse_ballot_const", "inverse_ballot_uniform",
                                                            "inverse_ballot_of_ballot")
                            for t, w in (("gfx900", 64), ("gfx1100", 32))}


@pytest.mark.parametrize("fn,good,bad", [
    # lane 1 keeps its own value where the mask says the DPP value (bit 0 is
    # harmless: row_shr:1 writes nothing to lane 0, which keeps its copy)
    ("inverse_ballot_const", "s_mov_b32 vcc_lo, 0xfffefffe", "s_mov_b32 vcc_lo, 0xfffefffc"),
    ("inverse_ballot_uniform", "v_cndmask_b32_e64 v0, 7, v0, s0", "v_cndmask_b32_e64 v0, 7, v0, s1"),
])
def test_inverse_ballot_mutants_are_refuted(tmp_path, fn, good, bad):
    code, out = mutant(tmp_path, "agg_lanemask", fn, "gfx1100", 32, good, bad)
    assert code == 1, out
    assert "refuted" in out.splitlines()[0]


@pytest.mark.slow
def test_inverse_ballot_of_a_lane_varying_mask_is_not_trusted(tmp_path):
    # a mask that differs between lanes: LLVM takes the first active lane's
    # (v_readfirstlane); the IR's result is poison there, so any code refines
    # it, but a uniform mask's lanes must still match
    p = tmp_path / "v.ll"
    p.write_text("define i32 @f(i32 %m, i32 %x) {\n"
                 "  %w = call i1 @llvm.amdgcn.inverse.ballot.i32(i32 %m)\n"
                 "  %r = select i1 %w, i32 %x, i32 7\n  ret i32 %r\n}\n"
                 "declare i1 @llvm.amdgcn.inverse.ballot.i32(i32)\n")
    code, out, _ = cli("tv", str(p), "--target", "gfx1100", "--wave", "32", "--llc", "llc-22")
    assert code == 0, out
    asm = tmp_path / "m.s"
    text = llc(p, "gfx1100", 32)
    assert text.count("v_cndmask_b32_e64 v0, 7, v1, s0") == 1
    asm.write_text(text.replace("v_cndmask_b32_e64 v0, 7, v1, s0", "v_cndmask_b32_e64 v0, v1, 7, s0"))
    code, out, _ = cli("tv", str(p), "--target", "gfx1100", "--wave", "32", "--asm", str(asm))
    assert code == 1 and "refuted" in out.splitlines()[0], out


# about 27 s of CPU both targets (was 66): bpermute_of_freeze lane by lane
# under one witness (the SGPR); gfx1030 in the corpus tier (CI's time)
@pytest.mark.parametrize("t", [pytest.param("gfx1100", marks=pytest.mark.slow),
                               pytest.param("gfx1030", marks=[pytest.mark.slow, pytest.mark.corpus])])
def test_closed_loop_nondeterminism(t):
    code, rs = results(str(SHAPE / "agg_nondet.ll"), "--target", t, "--wave", "32")
    got = {(r["function"], r["target"]): (r["verdict"], r["notes"][-1] if r["notes"] else "") for r in rs}
    assert {r["target"] for r in rs} == {t}
    assert got[("dpp_chain_freeze_old", t)] == ("proved", "proved with the IR's non-deterministic values chosen "
                                               "from the target's (the GPU's registers they stand for, lane normal forms)")
    assert got[("freeze_times_three", t)][0] == "proved"
    # the freeze llc-22 keeps in an unwritten SGPR, read through ds_bpermute:
    # every lane's choice that SGPR (verify/tv/nondet.py, witness (f))
    assert got[("bpermute_of_freeze", t)] == ("proved", "proved with the IR's non-deterministic values chosen "
                                             "from the target's (a witness for 32 lane values)")
    assert code == 0


@pytest.mark.slow  # about 10 s of CPU
def test_dpp_chain_freeze_mutant_is_refuted(tmp_path):
    # the second move's source is the first move's result, not the first
    # maximum: a lane's maximum misses the opposite pair's value, whatever the
    # IR's freeze chooses
    code, out = mutant(tmp_path, "agg_nondet", "dpp_chain_freeze_old", "gfx1030", 32,
                       "v_mov_b32_e32 v1, v0\n", "v_mov_b32_e32 v1, v1\n")
    assert code == 1, out
    assert "refuted" in out.splitlines()[0]
    assert "  a counterexample for every choice of the IR's non-deterministic values" in out.splitlines()


@pytest.mark.parametrize("fn,good,bad", [
    ("mul_i64_const", "v_mad_co_u64_u32 v[1:2], null, v2, 3, v[1:2]", "v_mad_co_u64_u32 v[1:2], null, v2, 3, v[0:1]"),
    ("ashr_i64_var", "v_ashrrev_i64 v[0:1], v2, v[0:1]", "v_lshrrev_b64 v[0:1], v2, v[0:1]"),
    ("mul_u32_wide", "v_mad_co_u64_u32 v[0:1], null, v0, v1, 0", "v_mad_co_u64_u32 v[0:1], null, v0, v1, 1"),
    ("xad", "v_xad_u32 v0, v0, v1, v2", "v_add3_u32 v0, v0, v1, v2"),
])
@pytest.mark.slow
def test_arith64_mutants_are_refuted(tmp_path, fn, good, bad):
    code, out = mutant(tmp_path, "agg_arith64", fn, "gfx1200", 32, good, bad)
    assert code == 1, out
    assert "refuted" in out.splitlines()[0]


def test_mul_nuw_is_poison_only_where_the_product_overflows(tmp_path):
    # `mul nuw i32` returned where it does not overflow: the low product; a
    # GPU result of 0 where it does is allowed (poison), elsewhere refuted
    p = tmp_path / "m.ll"
    p.write_text("define i32 @f(i32 %x, i32 %y) {\n  %r = mul nuw i32 %x, %y\n  ret i32 %r\n}\n")
    text = llc(p, "gfx1100", 32)
    good = "v_mul_lo_u32 v0, v0, v1"
    assert text.count(good) == 1
    asm = tmp_path / "m.s"
    asm.write_text(text.replace(good, "v_mul_hi_u32 v0, v0, v1"))  # 0 where no overflow
    code, out, _ = cli("tv", str(p), "--target", "gfx1100", "--wave", "32", "--asm", str(asm))
    assert code == 1 and "refuted" in out.splitlines()[0], out


ARITH64 = ("mul_i64_readlane", "mul_i64_const", "mul_u32_wide", "mul_i64_nsw", "mul_i32_nuw_nsw", "shl_i64_var",
           "lshr_i64_exact", "ashr_i64_var", "ashr_i64_const", "shl_i64_nuw_nsw", "add_sub_i64_flags", "xad")


@pytest.mark.slow  # about 2 minutes of CPU: 48 instances, 128-bit products for mul nsw
@pytest.mark.corpus
def test_i64_multiplies_and_shifts_are_proved():
    fns = [a for f in ARITH64 for a in ("--function", f)]
    code, rs = results(str(SHAPE / "agg_arith64.ll"), "--target", "gfx1100,gfx1200", *fns)
    assert code == 0
    assert verdicts(rs) == {(f, t, w): "proved" for f in ARITH64 for t in ("gfx1100", "gfx1200") for w in (32, 64)}


@pytest.mark.slow
def test_v2i16_flags_are_proved():
    fns = [a for f in ("v2i16_add_nuw", "v2i16_shl_nuw_nsw", "v2i16_mul_nsw") for a in ("--function", f)]
    code, rs = results(str(SHAPE / "agg_arith64.ll"), "--target", "gfx1200", "--wave", "32", *fns)
    assert code == 0
    assert {r["verdict"] for r in rs} == {"proved"} and len(rs) == 3
