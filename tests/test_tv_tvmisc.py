"""verify tv on inline asm with instructions ([S:ir-asm-exec]), the i16
wave.reduce LLVM 22 cannot compile ([S:compile-failure]) and the GFX8
variants gfx801/gfx802 ([S:gfx8-variants]).  The corpus files
tests/tv/llvm-shape/tvmisc_*.ll carry their verdicts as EXPECT lines
(tests/test_tv_expect.py); here: a one-token mutant of LLVM's code is
refuted, and the small facts each change rests on."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify.target import TARGETS
from verify.tv.inlineasm import mark
from verify.tv.runlines import PROCESSORS, _target_of
from verify.tv.spaces import known

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"
LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")


def _llc(path: Path, cpu: str) -> str:
    assert LLC is not None
    return subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", str(path), "-o", "-"],
                          capture_output=True, text=True, check=True).stdout


def _verdict(src: Path, cpu: str, wave: int, asm: Path, fn: str) -> tuple[str, list[str]]:
    code, out, _ = cli("tv", str(src), "--target", cpu, "--wave", str(wave), "--asm", str(asm), "--function", fn,
                       "--json")
    (r,) = json.loads(out)["results"]
    return str(r["verdict"]), list(r["notes"])


def test_tonga_and_carrizo_are_gfx8_with_gfx803s_features() -> None:
    assert _target_of(PROCESSORS["tonga"]) is TARGETS["gfx802"]
    assert _target_of(PROCESSORS["carrizo"]) is TARGETS["gfx801"]
    assert TARGETS["gfx802"].features == TARGETS["gfx803"].features == TARGETS["gfx801"].features
    assert _target_of(PROCESSORS["tahiti"]) is TARGETS["gfx600"] and _target_of(PROCESSORS["kaveri"]) is TARGETS["gfx700"]  # [S:sici]
    assert _target_of(PROCESSORS["stoney"]) is None  # gfx810: not modelled


def test_gfx10_flat_scratch_setreg_is_setup_and_other_setregs_are_not() -> None:
    """[S:flat-scratch-setup]: llvmlite's LLVM sets GFX10's flat scratch base
    with s_setreg_b32 of HW_REG_FLAT_SCR_LO/HI; a setreg of MODE is not setup."""
    assert known("s_setreg_b32", "s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s12")
    assert known("s_setreg_b32", "s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s13")
    assert not known("s_setreg_b32", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s2")


def test_a_block_with_instructions_stays_code_and_a_comment_block_becomes_a_placeholder() -> None:
    asm = "f:\n\t;;#ASMSTART\n\ts_mov_b32 m0, -1\n\t;;#ASMEND\n\t;;#ASMSTART\n\t; use s0\n\t;;#ASMEND\n"
    text, bodies, problems = mark(asm)
    assert problems == [] and list(bodies) == [0] and bodies[0] == ["\t; use s0"]
    assert "\ts_mov_b32 m0, -1" in text.splitlines() and "tv_asm_block 0" in text


@needs_llc
def test_storing_the_address_for_the_asm_result_is_refuted(tmp_path: Path) -> None:
    """LLVM's code for asm_valu_xor is proved; storing the address register
    instead of the asm's `v_xor_b32 $0, 7, $1` result is refuted (lane i's
    value is i ^ 7, run with verify's semantics on the IR side)."""
    src = SHAPE / "tvmisc_asm_exec.ll"
    text = _llc(src, "gfx1100")
    good = tmp_path / "o.s"
    good.write_text(text)
    assert _verdict(src, "gfx1100", 32, good, "asm_valu_xor")[0] == "proved"
    m = re.search(r"^asm_valu_xor:.*?s_endpgm", text, re.S | re.M)
    assert m is not None
    body = re.sub(r"global_store_b32 (v\d+), v\d+,", r"global_store_b32 \1, \1,", m.group(0), count=1)
    assert body != m.group(0)
    bad = tmp_path / "m.s"
    bad.write_text(text[:m.start()] + body + text[m.end():])
    v, notes = _verdict(src, "gfx1100", 32, bad, "asm_valu_xor")
    assert v == "refuted", notes


@needs_llc
@pytest.mark.slow
def test_a_wrong_dpp_lane_before_the_barrier_is_refuted(tmp_path: Path) -> None:
    """LLVM's code for barrier_dpp on gfx900 (an s_barrier: no effect on
    values) is proved; quad_perm:[0,1,3,2] for [1,0,3,2] is refuted."""
    src = SHAPE / "tvmisc_barrier.ll"
    text = _llc(src, "gfx900")
    good = tmp_path / "o.s"
    good.write_text(text)
    assert _verdict(src, "gfx900", 64, good, "barrier_dpp")[0] == "proved"
    m = re.search(r"^barrier_dpp:.*?s_endpgm", text, re.S | re.M)
    assert m is not None and "s_barrier" in m.group(0)
    body = m.group(0).replace("quad_perm:[1,0,3,2]", "quad_perm:[0,1,3,2]", 1)
    assert body != m.group(0)
    bad = tmp_path / "m.s"
    bad.write_text(text[:m.start()] + body + text[m.end():])
    v, notes = _verdict(src, "gfx900", 64, bad, "barrier_dpp")
    assert v == "refuted", notes


def test_show_mc_encoding_is_left_out_of_a_run_line(tmp_path: Path) -> None:
    """LLVM's llvm.amdgcn.mov.dpp.ll gives llc -show-mc-encoding, which only
    adds comments to the printed assembly: llvmlite compiles the RUN line
    without it (before, every instance was unsupported)."""
    src = tmp_path / "enc.ll"
    src.write_text("; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -show-mc-encoding < %s | FileCheck %s\n"
                   "define i32 @f(i32 %x) {\n  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)\n"
                   "  ret i32 %r\n}\ndeclare i32 @llvm.amdgcn.readfirstlane.i32(i32)\n")
    code, out, _ = cli("tv", str(src), "--json")
    (r,) = json.loads(out)["results"]
    assert (code, r["verdict"]) == (0, "proved"), r


def test_llvm_tests_run_line_options_reach_llvmlite() -> None:
    """permlane64.ll's GlobalISel RUN line gives -new-reg-bank-select (an
    LLVM 22.1 option: `llc-22 --help-list-hidden`), mov.dpp.ll's
    -show-mc-encoding (left out): llvmlite compiles both lines."""
    from verify.tv.compile import run_line_instances

    text = ("; RUN: llc -global-isel -new-reg-bank-select -global-isel-abort=2 -mtriple=amdgcn -mcpu=gfx1100 < %s\n"
            "; RUN: llc -mtriple=amdgcn -mcpu=tonga -show-mc-encoding < %s\n")
    runs = [(1, text.splitlines()[0].split("RUN:")[1]), (2, text.splitlines()[1].split("RUN:")[1])]
    a, b = run_line_instances("f.ll", runs, text)
    assert (a.llvmlite_problem(), b.llvmlite_problem()) == ("", "")
    assert "-new-reg-bank-select" in a.options and b.options == () and b.target.name == "gfx802"


@pytest.mark.parametrize("sig", ["i32 @f(<808551 x i32> %x)", "<2000000 x float> @f()",
                                 "amdgpu_kernel void @f(<16777216 x i8> %x)"])
def test_a_vector_too_long_for_any_register_file_is_unsupported_without_compiling(tmp_path: Path, sig: str) -> None:
    """The malformed-input tier's `<808551 x i32>` argument kept llvmlite's
    LLVM legalising for minutes (the compile that looks for a compiler error
    behind an unsupported function): such a signature is unsupported at once,
    and the note says the function was not compiled."""
    ret = "ret i32 0" if sig.startswith("i32") else ("ret void" if "void" in sig else
                                                     "ret <2000000 x float> zeroinitializer")
    src = tmp_path / "huge.ll"
    src.write_text(f"define {sig} {{\n  {ret}\n}}\n")
    code, out, _ = cli("tv", str(src), "--target", "gfx1100", "--wave", "32", "--json")
    (r,) = json.loads(out)["results"]
    assert (code, r["verdict"]) == (4, "unsupported"), r
    assert any("(not compiled: a vector of more than 1024 elements)" in n for n in r["notes"]), r["notes"]
