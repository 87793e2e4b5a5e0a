"""`verify tv` on tests/tv/llvm-shape/nondet_*.ll: freeze of poison, undef
and poison where LLVM's passes leave them (DPP old operands, a freeze of
a value that may be poison, select and vector elements left undef, the
old operand of writelane and permlane16): proved, because the IR's
non-deterministic values are its to choose (verify/tv/nondet.py); the
same code with one token changed is refuted for every choice."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"
LLC = shutil.which("llc-22")
WITNESS = "proved with the IR's non-deterministic values chosen from the target's"


def results(*args: str) -> tuple[int, list[dict]]:
    code, out, _ = cli("tv", *args, "--json")
    return code, json.loads(out)["results"]


def llc(path: Path, cpu: str, wave: int) -> str:
    assert LLC is not None
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O2", f"-mattr=+wavefrontsize{wave}",
                        str(path), "-o", "-"], capture_output=True, text=True, check=True)
    return r.stdout


@pytest.mark.slow
def test_dpp_old_operands_are_proved():
    code, rs = results(str(SHAPE / "nondet_dpp_old.ll"), "--target", "gfx1100", "--wave", "32")
    assert code == 0
    assert [(r["function"], r["verdict"]) for r in rs] == [
        (f, "proved") for f in ("dpp_old_poison", "dpp_old_undef", "dpp_old_freeze", "dpp_old_freeze_row_masked",
                                "dpp_old_freeze_bank_masked", "dpp_old_freeze_f32", "dpp_old_freeze_i64",
                                "dpp_old_freeze_v2i16", "mov_dpp_unwritten", "dpp_old_freeze_then_add")]
    # poison needs no choice; undef, freeze of poison and mov.dpp's unwritten lanes take the GPU's value
    assert rs[0]["notes"] == []
    assert all(r["notes"][0].startswith(WITNESS) for r in rs[1:]), [r["notes"] for r in rs]


@pytest.mark.slow  # about 15 s of CPU
def test_middle_end_shapes_are_proved():
    code, rs = results(str(SHAPE / "nondet_instcombine.ll"), "--target", "gfx942")
    assert code == 0
    assert {r["verdict"] for r in rs} == {"proved"} and len(rs) == 9


@pytest.mark.slow
def test_old_operands_of_lane_intrinsics_are_proved():
    code, rs = results(str(SHAPE / "nondet_lanes.ll"), "--target", "gfx1030", "--wave", "32")
    assert code == 0
    assert [(r["function"], r["verdict"]) for r in rs] == [
        (f, "proved") for f in ("writelane_old_undef", "writelane_old_freeze", "permlane16_old_poison",
                                "permlanex16_old_freeze", "permlane16_old_undef_fi")]


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_dpp_freeze_mutant_reading_another_lane_is_refuted_for_every_choice(tmp_path):
    src = SHAPE / "nondet_dpp_old.ll"
    text = llc(src, "gfx1100", 32)
    start = text.index("dpp_old_freeze:")
    good = "v_mov_b32_dpp v0, v0 row_shr:1 row_mask:0xf bank_mask:0xf"
    at = text.index(good, start)
    asm = tmp_path / "m.s"
    asm.write_text(text[:at] + good.replace("row_shr:1", "row_shr:2") + text[at + len(good):])
    code, out, _ = cli("tv", str(src), "--target", "gfx1100", "--wave", "32", "--asm", str(asm),
                       "--function", "dpp_old_freeze")
    assert code == 1, out
    assert "  a counterexample for every choice of the IR's non-deterministic values" in out.splitlines()


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_writelane_mutant_writing_the_old_value_is_refuted(tmp_path):
    # the written lane must carry the value (s16): the IR's choice covers only the others
    src = SHAPE / "nondet_lanes.ll"
    text = llc(src, "gfx1030", 32)
    start = text.index("writelane_old_freeze:")
    end = text.index("s_setpc_b64", start)
    good = "v_writelane_b32 v0, s16, s17"
    assert good in text[start:end]
    asm = tmp_path / "m.s"
    asm.write_text(text[:start] + text[start:end].replace(good, "v_writelane_b32 v0, s17, s17") + text[end:])
    code, out, _ = cli("tv", str(src), "--target", "gfx1030", "--wave", "32", "--asm", str(asm),
                       "--function", "writelane_old_freeze")
    assert code == 1, out
    assert out.splitlines()[0].endswith("refuted (2 GPU instructions)")
