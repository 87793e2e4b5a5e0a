"""`verify tv` on LLVM's DPP combiner folding a DPP move into a VOP3 op with
an inline-constant src1 (tests/tv/llvm-shape/catalog_dpp_combine.ll): the
Triton miscompile (triton#10414/#10452) on gfx1100 is a compiler error at its
line, never a proof; the same code on GFX11.5 and GFX12, where it is valid,
is proved.  [S:vop3-dpp-more] [S:dpp-encoding]"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

FILE = str(Path(__file__).parent / "tv" / "llvm-shape" / "catalog_dpp_combine.ll")
needs_llc = pytest.mark.skipif(shutil.which("llc-22") is None, reason="needs llc-22")

# function -> verdict on gfx1100 (gfx1151 and gfx1200: proved)
GFX1100 = {"xmask8_sext16": "compiler error", "shr1_sext8": "compiler error", "shr1_ubfe_const": "compiler error",
           "shr1_field_var": "proved", "shr1_add": "proved", "xmask1_add_const": "proved"}


def verdicts(*args: str) -> tuple[int, dict[tuple[str, str], dict]]:
    code, out, _ = cli("tv", FILE, *args, "--json")
    return code, {(r["function"], r["target"]): r for r in json.loads(out)["results"]}


@pytest.mark.slow
def test_the_triton_form_is_a_compiler_error_on_gfx1100():
    code, got = verdicts("--function", "xmask8_sext16", "--target", "gfx1100,gfx1151")
    assert code == 1
    assert got[("xmask8_sext16", "gfx1151")]["verdict"] == "proved"
    bad = got[("xmask8_sext16", "gfx1100")]
    assert bad["verdict"] == "compiler error"
    note = next(n for n in bad["notes"] if "not valid" in n)
    assert note.endswith("v_bfe_i32_e64_dpp v0, v0, 0, 16 row_xmask:8 row_mask:0xf bank_mask:0xf bound_ctrl:1: "
                         "src1 of v_bfe_i32_e64_dpp must be a VGPR on gfx1100: a constant as src1 of a VOP3 DPP "
                         "instruction needs GFX11.5+ only"), note


@pytest.mark.slow
@pytest.mark.parametrize("compiler", [pytest.param((), id="llvmlite")])  # llc-22: tests/test_tv_expect.py
def test_every_function_on_every_run_line(compiler):
    code, got = verdicts(*compiler)
    assert code == 1
    want = {(f, t): (v if t == "gfx1100" else "proved") for f, v in GFX1100.items()
            for t in ("gfx1100", "gfx1151", "gfx1200")}
    assert {k: r["verdict"] for k, r in got.items()} == want
