"""The closed loop's f32 lowerings (issue #37, TV_GAPS): f32 add commutes in
lane normal forms and never reassociates [S:lane-normal-fadd]; the source's
choices matched to the GPU's terms [S:lane-normal-witness]; the emitted IR of
cg_exclusive_scan_fadd_t16_gfx9 proved through llvmlite, a mutant of its
code refuted."""

from __future__ import annotations

from pathlib import Path

import pytest

from verify import emit, smt
from verify import target as T
from verify.lowering_file import load_lowering
from verify.tv.check import check_file
from verify.tv.compile import by_llvmlite

pytest.importorskip("llvmlite")

ROOT = Path(__file__).resolve().parent.parent


def test_fadd_commutes_in_normal_forms_but_does_not_reassociate():
    B = smt.Z3()
    x, w, z, y = (B.fresh(n) for n in "xwzy")
    e = [B.fresh_bool("e0"), B.fresh_bool("e1")]
    norm = smt.LaneNormal(B.session, e)
    gpu = B.fadd(x, z)  # operands ordered (x, z) by term id
    ir = B.fadd(B.ite(e[0], x, w), z)  # (z, ite): x where lane 0 runs
    assert norm.normal(gpu, 0) == norm.normal(ir, 0)
    assert norm.normal(gpu, 1) != norm.normal(ir, 1)  # lane 1: exec[0] undecided
    assert norm.normal(B.fadd(B.fadd(x, y), z), 0) != norm.normal(B.fadd(x, B.fadd(y, z)), 0)
    # the normal form is the sum it came from, on concrete floats (1.0, 2^-24, 3.0, -0.0)
    node = norm.normal(ir, 0)
    assert node is not None
    for xv, wv, zv in ((0x3F800000, 0x33800000, 0x40400000), (0x80000000, 0x7FC00001, 0x80000000)):
        ev = smt.Evaluator({"x": xv, "w": wv, "z": zv, "e0": True, "e1": False}, B.session)
        assert ev(norm.term(node)) == ev(ir)


def test_match_binds_a_choice_once():
    B = smt.Z3()
    x, y, c = B.fresh("x"), B.fresh("y"), B.fresh("c")
    norm = smt.LaneNormal(B.session, [True])
    holes = {c.get_id()}
    pat, one, two = (norm.normal(t, 0) for t in (B.add(B.xor(c, x), c), B.add(B.xor(y, x), y), B.add(B.xor(y, x), x)))
    assert pat is not None and one is not None and two is not None
    bound: dict[int, int] = {}
    assert norm.match(pat, one, holes, bound) and bound == {c.get_id(): norm.normal(y, 0)}
    assert not norm.match(pat, two, holes, {})  # c would be y in one place and x in the other


def _emitted(name: str) -> tuple[str, str]:
    low = load_lowering(str(ROOT / "lowerings" / "cg" / f"{name}.s"))
    ir = emit.llvm_ir(low, T.get("gfx900"), 64, [])
    return ir, by_llvmlite(ir, T.get("gfx900"), 64)


@pytest.mark.slow
def test_emitted_reduce_proved_with_the_old_values_matched(tmp_path):
    ir, asm = _emitted("cg_reduce_fadd_t16_gfx9")
    p = tmp_path / "r.ll"
    p.write_text(ir)
    (r,) = check_file(str(p), ir, ["gfx900"], 64, [], asm=("llvmlite", asm))
    assert r.verdict == "proved"
    assert r.notes == ["proved with the IR's non-deterministic values chosen from the target's "
                       "(the target's terms where they stand, lane normal forms)"]


@pytest.mark.slow
def test_emitted_exclusive_scan_proved_and_its_mutant_refuted(tmp_path):
    ir, asm = _emitted("cg_exclusive_scan_fadd_t16_gfx9")
    p = tmp_path / "s.ll"
    p.write_text(ir)
    (r,) = check_file(str(p), ir, ["gfx900"], 64, [], asm=("llvmlite", asm))
    assert r.verdict == "proved"
    assert "v_mov_b32_dpp v0, v0 row_shr:1 " in asm
    bad = asm.replace("v_mov_b32_dpp v0, v0 row_shr:1 ", "v_mov_b32_dpp v0, v0 row_shr:2 ", 1)
    (m,) = check_file(str(p), ir, ["gfx900"], 64, [], asm=("llvmlite", bad))
    assert m.verdict == "refuted"
    assert m.notes == ["a counterexample for every choice of the IR's non-deterministic values"]
    assert m.cex is not None and "row_shr:2" in (m.cex.gpu_at or "")
    assert m.cex.ir_at is not None and m.cex.ir_at.endswith("i32 273, i32 15, i32 15, i1 false)")
