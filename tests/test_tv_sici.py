"""Southern and Sea Islands (GFX6 gfx600-gfx602, GFX7 gfx700-gfx705):
their legality against llvm-mc-22's, the SMRD dword offsets, the SI SMRD
hazard, and one-token mutants of llc-22's code for them, refuted.
docs/semantics.md [S:sici]."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

from verify.asmcheck import parse_line
from verify.diag import InputError, Span
from verify.hazards import check
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.target import TARGETS, resolve

SHAPE = Path(__file__).parent / "tv" / "llvm-shape" / "sici_crosslane.ll"
LLC = shutil.which("llc-22")


def legal(text: str, target: str) -> bool:
    ins = parse_instr(text, Span("t", 1))
    try:
        OPS[ins.base].check(ins, TARGETS[target], 64)
    except InputError:
        return False
    return True


@pytest.mark.parametrize("text, gfx600, gfx701, gfx803", [
    ("v_add_i32_e32 v0, vcc, s4, v0", True, True, False),
    ("v_add_i32_e64 v0, s[0:1], v1, v2", True, True, False),
    ("v_add_u32_e32 v0, vcc, s4, v0", False, False, True),
    ("v_addc_u32_e32 v1, vcc, 0, v1, vcc", True, True, True),
    ("v_sub_i32_e64 v0, s[0:1], v1, v2 clamp", False, False, False),
    ("v_mbcnt_hi_u32_b32_e32 v0, -1, v0", True, True, False),
    ("v_mbcnt_hi_u32_b32_e64 v0, -1, v0", True, True, True),
    ("ds_swizzle_b32 v1, v0 offset:swizzle(QUAD_PERM,1,0,3,2)", True, True, True),
    ("ds_swizzle_b32 v1, v0 offset:swizzle(FFT,1)", False, False, False),
    ("ds_bpermute_b32 v1, v2, v0", False, False, True),
    ("v_mov_b32_dpp v1, v0 row_shr:1", False, False, True),
    ("v_mad_u64_u32 v[0:1], s[0:1], v1, v2, 0", False, True, True),
    ("v_perm_b32 v0, v1, v2, v3", False, False, True),
    ("v_lshlrev_b64 v[0:1], 1, v[0:1]", False, False, True),
    ("s_cmp_lg_u64 s[0:1], 0", False, False, True),
    ("v_add_f16 v0, v1, v2", False, False, True),
    ("s_andn2_b64 s[0:1], s[0:1], s[2:3]", True, True, True),
    ("v_and_b32_e64 v0, 0.15915494, v2", False, False, True),  # 1/(2pi) is GFX8's inline constant
    ("v_readlane_b32 s0, v1, 0x3e22f983", False, False, True),
])
def test_legality_agrees_with_llvm_mc(text, gfx600, gfx701, gfx803):
    """Each row as llvm-mc-22 -mcpu=tahiti / hawaii / tonga answers it."""
    assert (legal(text, "gfx600"), legal(text, "gfx701"), legal(text, "gfx803")) == (gfx600, gfx701, gfx803)


def test_families_and_default_wave():
    assert [t.name for t in resolve("gfx6")] == ["gfx600", "gfx601", "gfx602"]
    assert [t.name for t in resolve("ci")] == ["gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705"]
    assert all(t.waves == (64,) and t.default_wave == 64 for t in resolve("gfx6,gfx7"))


def test_smrd_hazard_is_si_only():
    """GCNHazardRecognizer::checkSMRDHazards: SI needs 4 wait states between a
    VALU write of an SGPR and an SMRD read of it; CI and GFX8 none."""
    prog = [parse_line(t, Span("t", k + 1)) for k, t in enumerate(
        ["v_readfirstlane_b32 s4, v0", "s_nop 1", "s_load_dword s6, s[4:5], 0x0"])]
    (w,) = check(prog, TARGETS["gfx600"], wave=64)
    assert "line 1 (v_readfirstlane_b32) writes s4" in w.message and "needs 4: insert s_nop 1" in w.message
    assert check(prog, TARGETS["gfx701"], wave=64) == []
    prog[1] = parse_line("s_nop 3", Span("t", 2))
    assert check(prog, TARGETS["gfx600"], wave=64) == []


def llc(cpu: str) -> str:
    assert LLC is not None
    return subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O2", str(SHAPE), "-o", "-"],
                          capture_output=True, text=True, check=True).stdout


def verdict(tmp_path: Path, asm: str, function: str, target: str = "gfx600") -> str:
    p = tmp_path / "m.s"
    p.write_text(asm)
    code, out, _ = cli("tv", str(SHAPE), "--target", target, "--asm", str(p), "--function", function, "--json")
    (r,) = json.loads(out)["results"]
    return str(r["verdict"])


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_smrd_offset_counts_dwords(tmp_path):
    """llc-22 reads the argument at byte 8 as `s_load_dword s4, s[8:9], 0x2`
    on SI: proved; 0x8 (GFX8's byte offset) reads byte 32: refuted."""
    text = llc("gfx600")
    good = "s_load_dword s4, s[8:9], 0x2"
    assert good in text
    assert verdict(tmp_path, text, "mbcnt_lane") == "proved"
    assert verdict(tmp_path, text.replace(good, "s_load_dword s4, s[8:9], 0x8"), "mbcnt_lane") == "refuted"


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_carry_spelling_and_mbcnt_mutants_are_refuted(tmp_path):
    """SI's v_add_i32 turned into v_subrev_i32, and the v_mbcnt_lo base 0 into
    1: each changes what lane 0 stores."""
    text = llc("gfx600")
    add = "v_add_i32_e32 v0, vcc, s4, v0"
    lo = "v_mbcnt_lo_u32_b32_e64 v0, -1, 0"
    assert add in text and lo in text
    assert verdict(tmp_path, text.replace(add, "v_subrev_i32_e32 v0, vcc, s4, v0"), "mbcnt_lane") == "refuted"
    assert verdict(tmp_path, text.replace(lo, "v_mbcnt_lo_u32_b32_e64 v0, -1, 1"), "mbcnt_lane") == "refuted"


@pytest.mark.slow
@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_ci_swizzle_mutants_are_refuted(tmp_path):
    """hawaii's code for swizzle_quad is proved; its ds_swizzle_b32 QUAD_PERM
    reversed [3,2,1,0] changed to [2,3,0,1] (lane 5 reads lane 7 instead of
    lane 6) is refuted, and so is its readlane of lane 5 turned into lane 6.
    Every lane stores the readlane's value to one address, so the refutation
    needs lanes 0..7 running: under LangRef's letter (ir.store_race=undef)
    their equal stores race and nothing was refuted (these were unknown
    after 30 s; [S:ir-store-race])."""
    text = llc("hawaii")
    good = "offset:swizzle(QUAD_PERM,3,2,1,0)"
    rl = "v_readlane_b32 s2, v0, 5"
    assert good in text and rl in text
    assert verdict(tmp_path, text, "swizzle_quad", "gfx701") == "proved"
    bad = text.replace(good, "offset:swizzle(QUAD_PERM,2,3,0,1)")
    assert verdict(tmp_path, bad, "swizzle_quad", "gfx701") == "refuted"
    assert verdict(tmp_path, text.replace(rl, "v_readlane_b32 s2, v0, 6"), "swizzle_quad", "gfx701") == "refuted"
