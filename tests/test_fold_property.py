"""Folding never hides a failing lane, on the commands' real output (issue
#34, item 2): for `verify lowering`, `verify asm` and `verify tv`, every lane
the JSON lists as differing is a printed row of the text, or inside the exact
range a fold line names (tests/test_cex_folding.py checks the same of the
table renderer on drawn rows).  Hypothesis draws ds_bpermute lowerings whose
address xor differs from the spec's (lane i reads i ^ C where the spec wants
i ^ M), under a full or partial EXEC."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cex_folding import assert_no_lane_hidden

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow  # each example runs a command (~0.5-2 s)

MASKS = st.integers(1, 31)
BODY = ("v_mbcnt_lo_u32_b32 v2, -1, 0\nv_xor_b32_e32 v2, {c}, v2\nv_lshlrev_b32_e32 v2, 2, v2\n"
        "ds_bpermute_b32 v1, v2, v0\ns_waitcnt lgkmcnt(0)\n")
SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def differing(cex: dict) -> set[int]:
    return {r["lane"] for r in cex["lanes"] if r.get("differs", True)}


@SETTINGS
@given(MASKS, MASKS, st.sampled_from(["full", "any"]))
def test_lowering(tmp_path: Path, m: int, c: int, exec_contract: str) -> None:
    p = tmp_path / f"x{m}_{c}.s"
    p.write_text(f"; @spec cuda.shfl_xor mask={m} width=32\n; @targets gfx1100\n; @waves 32\n"
                 f"; @exec {exec_contract}\n; @input x = v0\n; @output out = v1\n; @clobbers v2\n" + BODY.format(c=c))
    code, out, _ = cli("lowering", str(p))
    jcode, js, _ = cli("lowering", str(p), "--json")
    assert code == jcode == (0 if c == m else 1)
    for r in json.loads(js)["results"]:
        if r["counterexample"] is not None:
            assert_no_lane_hidden(out.splitlines(), differing(r["counterexample"]))


@SETTINGS
@given(MASKS, MASKS)
def test_asm(tmp_path: Path, m: int, c: int) -> None:
    p = tmp_path / f"a{m}_{c}.s"
    p.write_text('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\nf:\n'
                 + "".join(f"\t{ln}\n" for ln in BODY.format(c=c).splitlines()) + "\ts_setpc_b64 s[30:31]\n")
    claim = f"v1 == cuda.shfl_xor(v0, mask={m}, width=32)"
    code, out, _ = cli("asm", str(p), "--exec", "0xffffffff", "--assert", claim)
    jcode, js, _ = cli("asm", str(p), "--exec", "0xffffffff", "--assert", claim, "--json")
    assert code == jcode == (0 if c == m else 1)
    cex = json.loads(js)["assertions"][0]["counterexample"]
    if c != m:
        assert_no_lane_hidden(out.splitlines(), differing(cex))


@pytest.fixture(scope="module")
def shfl_asm() -> str:
    if shutil.which("llc-22") is None:
        pytest.skip("llc-22 not installed")
    return subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                          input=(ROOT / "tests/tv/hip_shfl_xor_1_w64.ll").read_text(), capture_output=True, text=True,
                          check=True).stdout


@SETTINGS
@given(st.integers(2, 31))
def test_tv(tmp_path: Path, shfl_asm: str, c: int) -> None:
    assert "\tv_xor_b32_e32 v2, 1, v1\n" in shfl_asm
    bad = tmp_path / f"t{c}.s"
    bad.write_text(shfl_asm.replace("\tv_xor_b32_e32 v2, 1, v1\n", f"\tv_xor_b32_e32 v2, {c}, v1\n"))
    args = ("tv", str(ROOT / "tests/tv/hip_shfl_xor_1_w64.ll"), "--target", "gfx1100", "--wave", "32", "--asm", str(bad))
    code, out, _ = cli(*args)
    jcode, js, _ = cli(*args, "--json")
    assert code == jcode == 1
    cex = json.loads(js)["results"][0]["counterexample"]
    assert differing(cex)
    assert_no_lane_hidden(out.splitlines(), differing(cex))
