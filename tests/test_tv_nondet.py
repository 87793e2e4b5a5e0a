"""Refinement with non-determinism in the source, as Alive2 defines it
(verify/tv/nondet.py): the source's undef, freeze of poison and mov.dpp's
unwritten lanes are the source's to choose, the target's range over every
choice.  Both sides, IR-to-IR and IR-to-GPU."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

LLC = shutil.which("llc-22")


def pair(tmp_path: Path, src: str, tgt: str) -> tuple[int, list[str]]:
    p = tmp_path / "pair.ll"
    p.write_text(f"define i32 @src(i32 %x) {{\n{src}}}\ndefine i32 @tgt(i32 %x) {{\n{tgt}}}\n")
    code, out, _ = cli("tv", str(p), "--target", "gfx1100", "--wave", "32")
    return code, out.splitlines()


def test_a_source_freeze_of_poison_makes_a_correct_target_provable(tmp_path):
    code, lines = pair(tmp_path, "  %f = freeze i32 poison\n  ret i32 %f\n", "  ret i32 7\n")
    assert code == 0, lines
    assert lines[0] == "src -> tgt on gfx1100 wave32 (IR): proved"
    assert lines[2] == "  proved with @src's non-deterministic values chosen from the target's (a witness for 32 lane values)"


def test_a_target_freeze_of_poison_is_not_trusted(tmp_path):
    code, lines = pair(tmp_path, "  ret i32 7\n", "  %f = freeze i32 poison\n  ret i32 %f\n")
    assert code == 1, lines
    assert lines[0] == "src -> tgt on gfx1100 wave32 (IR): refuted"
    assert lines[3:5] == ["    lane   %x  src  tgt", "       0  0x0  0x7  0x0  <- differs"]


def test_undef_is_a_fresh_value_at_each_use(tmp_path):
    # undef + undef is any value (two choices); freeze of poison added to
    # itself is one choice, always even: the odd target is refuted for every choice
    code, lines = pair(tmp_path, "  %g = add i32 undef, undef\n  ret i32 %g\n", "  %o = or i32 %x, 1\n  ret i32 %o\n")
    assert code == 0 and lines[0] == "src -> tgt on gfx1100 wave32 (IR): proved", lines
    code, lines = pair(tmp_path, "  %f = freeze i32 poison\n  %g = add i32 %f, %f\n  ret i32 %g\n",
                       "  %o = or i32 %x, 1\n  ret i32 %o\n")
    assert code == 1, lines
    assert lines[0] == "src -> tgt on gfx1100 wave32 (IR): refuted"
    assert lines[2] == "  a counterexample for every choice of @src's non-deterministic values"
    assert lines[5].endswith("<- differs") and int(lines[5].split()[3], 16) & 1 == 1  # tgt's value odd


def test_a_choice_added_to_a_value_is_found_by_the_witness(tmp_path):
    # the target's value minus the source's with the choice 0: f = x - 1
    code, lines = pair(tmp_path, "  %f = freeze i32 poison\n  %g = add i32 %f, 1\n  ret i32 %g\n", "  ret i32 %x\n")
    assert code == 0, lines
    assert lines[2] == "  proved with @src's non-deterministic values chosen from the target's (a witness for 32 lane values)"


@pytest.mark.slow  # about 20 s: 32 quantified questions
def test_a_choice_no_witness_finds_is_found_lane_by_lane(tmp_path):
    # f + f = 2x: f = x, which no witness of the target's value gives; each
    # lane's choice its own, z3's quantifiers find it lane by lane
    code, lines = pair(tmp_path, "  %f = freeze i32 poison\n  %g = add i32 %f, %f\n  ret i32 %g\n",
                       "  %t = shl i32 %x, 1\n  ret i32 %t\n")
    assert code == 0, lines
    assert lines[2] == "  proved for some choice of @src's non-deterministic values (quantified query, lane by lane)"


def test_a_choice_scaled_by_an_odd_constant_is_found_by_the_witness(tmp_path):
    # 3 * f = x: f = x * 3^-1 mod 2^32 (0xaaaaaaab), the scaled witness
    code, lines = pair(tmp_path, "  %f = freeze i32 poison\n  %g = mul i32 %f, 3\n  ret i32 %g\n", "  ret i32 %x\n")
    assert code == 0, lines
    assert lines[2] == "  proved with @src's non-deterministic values chosen from the target's (a witness for 32 lane values)"


@pytest.mark.slow  # about 12 s: every witness and the quantified questions are asked first
def test_an_undecided_choice_is_unknown_and_named(tmp_path):
    # 6 * f = 2x has a solution (f = x * 3^-1) but 6 has no inverse: neither a
    # witness nor the quantifier engine on its resource limit finds it: unknown, naming the value
    code, lines = pair(tmp_path, "  %f = freeze i32 poison\n  %g = mul i32 %f, 6\n  ret i32 %g\n",
                       "  %t = shl i32 %x, 1\n  ret i32 %t\n")
    assert code == 3, lines
    assert lines[0] == "src -> tgt on gfx1100 wave32 (IR): unknown"
    assert "(freeze of poison at " in lines[1] and ":2:3): verify found no choice of it that matches" in lines[1]


DPP = """define i32 @f(i32 %x) #0 {
  %o = freeze i32 poison
  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %o, i32 %x, i32 273, i32 15, i32 15, i1 false)
  ret i32 %r
}
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32 immarg, i32 immarg, i32 immarg, i1 immarg)
attributes #0 = { convergent "target-features"="+wavefrontsize32" }
"""


def test_the_dpp_old_value_as_freeze_of_poison(tmp_path):
    # verify emit's own spelling of a DPP move's unwritten lanes: llvmlite's
    # code keeps the source register there, one of the IR's choices
    p = tmp_path / "d.ll"
    p.write_text(DPP)
    code, out, _ = cli("tv", str(p), "--target", "gfx1100", "--wave", "32")
    assert code == 0, out
    assert out.splitlines()[0].startswith("f on gfx1100 wave32 (llvmlite): proved")


@pytest.mark.skipif(LLC is None, reason="llc-22 not installed")
def test_wrong_gpu_code_is_refuted_for_every_choice(tmp_path):
    # row_shl:1 for row_shr:1: the lanes that read a lane are wrong whatever
    # the IR chooses for the others
    p = tmp_path / "d.ll"
    p.write_text(DPP)
    assert LLC is not None
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32", "-O2",
                          str(p), "-o", "-"], capture_output=True, text=True, check=True).stdout
    assert "row_shr:1" in asm
    s = tmp_path / "d.s"
    s.write_text(asm.replace("row_shr:1", "row_shl:1"))
    code, out, _ = cli("tv", str(p), "--target", "gfx1100", "--wave", "32", "--asm", str(s))
    lines = out.splitlines()
    assert code == 1, out
    assert lines[0] == f"f on gfx1100 wave32 ({s}): refuted (2 GPU instructions)"
    assert "  a counterexample for every choice of the IR's non-deterministic values" in lines


# ---- the small items of issue #37 ------------------------------------------

def test_a_functions_wave_size_limits_the_waves_and_contradicting_it_is_an_error(tmp_path):
    p = tmp_path / "d.ll"
    p.write_text(DPP)  # "target-features"="+wavefrontsize32"
    code, out, _ = cli("tv", str(p), "--target", "gfx1100")
    assert code == 0, out
    assert [ln.split(" (")[0] for ln in out.splitlines() if " on " in ln] == ["f on gfx1100 wave32"]
    code, out, err = cli("tv", str(p), "--target", "gfx1100", "--wave", "64")
    assert (code, out) == (2, "")
    assert err.strip() == f'{p}:1:1: error: --wave 64 contradicts @f\'s "target-features" (+wavefrontsize32)'


def test_ir_to_ir_honours_function(tmp_path):
    a, b = tmp_path / "a.ll", tmp_path / "b.ll"
    a.write_text("define i32 @f(i32 %x) {\n  ret i32 %x\n}\ndefine i32 @g(i32 %x) {\n  ret i32 1\n}\n")
    b.write_text("define i32 @f(i32 %x) {\n  ret i32 %x\n}\ndefine i32 @g(i32 %x) {\n  ret i32 2\n}\n")
    code, out, _ = cli("tv", str(a), str(b), "--target", "gfx1100", "--wave", "32", "--function", "f")
    assert code == 0, out
    assert [ln for ln in out.splitlines() if " on " in ln] == ["f -> f on gfx1100 wave32 (IR): proved"]
    code, out, _ = cli("tv", str(a), str(b), "--target", "gfx1100", "--wave", "32")
    assert code == 1 and "g -> g on gfx1100 wave32 (IR): refuted" in out.splitlines()
    code, _, err = cli("tv", str(a), str(b), "--target", "gfx1100", "--function", "h")
    assert code == 2 and err.strip() == f"error: {a} and {b} have no function 'h' in both"


def test_json_has_each_instances_cpu_time_and_solver_queries(tmp_path):
    p = tmp_path / "d.ll"
    p.write_text(DPP)
    code, out, _ = cli("tv", str(p), "--target", "gfx1100", "--json")
    (r,) = json.loads(out)["results"]
    assert code == 0 and r["verdict"] == "proved"
    # every lane decided by lane normal forms with the choice matched to the
    # GPU's register [S:lane-normal-witness]; EXEC's question alone is asked
    assert r["solver_queries"] == 1
    assert 0 < r["cpu_seconds"] < 60


def test_src_and_tgt_of_one_name_keep_their_choices_apart(tmp_path):
    # two files, one function name: tgt's freeze (any value) must not be
    # taken for src's (0 or 1), whatever the names; refuted
    a, b = tmp_path / "a.ll", tmp_path / "b.ll"
    a.write_text("define i32 @f(i32 %x) {\n  %c = freeze i32 poison\n  %g = and i32 %c, 1\n  ret i32 %g\n}\n")
    b.write_text("define i32 @f(i32 %x) {\n  %c = freeze i32 poison\n  ret i32 %c\n}\n")
    code, out, _ = cli("tv", str(a), str(b), "--target", "gfx1100", "--wave", "32")
    assert code == 1, out
    assert out.splitlines()[0] == "f -> f on gfx1100 wave32 (IR): refuted"
    assert "  a counterexample for every choice of @f's non-deterministic values" in out.splitlines()


MINMAX = """define i32 @f(i32 %x, i32 %y) {
  %a = call i32 @llvm.umax.i32(i32 %x, i32 %y)
  %b = call i32 @llvm.smin.i32(i32 %a, i32 %y)
  ret i32 %b
}
declare i32 @llvm.umax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
"""


@pytest.mark.skipif(LLC is None, reason="llc-22 not installed")
def test_llvm_integer_min_max_as_verify_emit_spells_them(tmp_path):
    # (the closed loop's syn_red_reduce_all_umax_gfx1030_w64 was unsupported without them)
    p = tmp_path / "m.ll"
    p.write_text(MINMAX)
    code, out, _ = cli("tv", str(p), "--target", "gfx1100", "--wave", "32", "--llc", "llc-22")
    assert code == 0 and out.splitlines()[0].startswith("f on gfx1100 wave32 (llc-22): proved"), out
    # smax's code for smin's IR is refuted
    q = tmp_path / "x.ll"
    q.write_text(MINMAX.replace("smin", "smax"))
    assert LLC is not None
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32", str(q),
                          "-o", "-"], capture_output=True, text=True, check=True).stdout
    s = tmp_path / "x.s"
    s.write_text(asm)
    code, out, _ = cli("tv", str(p), "--target", "gfx1100", "--wave", "32", "--asm", str(s))
    assert code == 1 and out.splitlines()[0] == f"f on gfx1100 wave32 ({s}): refuted (4 GPU instructions)", out
