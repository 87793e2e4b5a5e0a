"""`verify tv` on LLVM's test shapes (issue #31, helper breadth): the IR's
non-deterministic lanes of an i64 `mov.dpp` chosen from the GPU's stores
(verify/tv/nondet.py settle_stores, [S:tv-nondet-stores]); a GPU mutant
that no choice can match is not proved."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

LLC = shutil.which("llc-22")
SHAPE = Path(__file__).parent / "tv" / "llvm-shape"


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_mov_dpp64_func_witness_and_a_half_swapping_mutant(tmp_path):
    src = SHAPE / "breadth_movdpp64.ll"
    assert LLC is not None
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1010", "-mattr=+wavefrontsize32", str(src),
                          "-o", "-"], capture_output=True, text=True, check=True).stdout
    good = "v_mov_b32_dpp v3, v3 row_shr:1 row_mask:0x3 bank_mask:0x5"
    assert good in asm
    args = ("tv", str(src), "--function", "mov_dpp64_func", "--target", "gfx1010", "--wave", "32", "--json")
    ok = tmp_path / "ok.s"
    ok.write_text(asm)
    code, js, _ = cli(*args, "--asm", str(ok))
    r = json.loads(js)["results"][0]
    assert (code, r["verdict"]) == (0, "proved")
    assert any("chosen from the target's" in n for n in r["notes"])
    # the high half moved from the low half's register: the written lanes
    # differ whatever the unwritten ones are, so no witness proves it
    bad = tmp_path / "bad.s"
    bad.write_text(asm.replace(good, good.replace("v3, v3", "v3, v2")))
    code, js, _ = cli(*args, "--asm", str(bad))
    r = json.loads(js)["results"][0]
    assert r["verdict"] == "unknown" and code == 3
    assert any("unwritten lanes of mov.dpp" in n for n in r["notes"])
