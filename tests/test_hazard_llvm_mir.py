"""benchmarks/bench_hazard_llvm_mir.py on one lowering (docs/semantics.md
[S:trust-hazards-recheck]): the lowering and its mutant with the `s_nop 1`
before its DPP moves deleted go through llc-22's hazard recognizer as MIR;
LLVM inserts one wait (in the mutant), verify flags it, and verify finds
nothing on the code with LLVM's waits in place."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

pytestmark = pytest.mark.skipif(shutil.which("llc-22") is None or shutil.which("llvm-mc-22") is None,
                                reason="needs llc-22 and llvm-mc-22")


@pytest.mark.slow
def test_a_deleted_dpp_wait_is_one_llvm_inserts_and_verify_flags(tmp_path, monkeypatch, capsys):
    import bench_hazard_llvm_mir as bench

    monkeypatch.setattr(bench, "CACHE", tmp_path / "opcodes.json")
    monkeypatch.setattr(sys, "argv", ["bench", "--targets", "gfx90a:64", "lowerings/wide64/pair_umax_u64_gfx9.s"])
    assert bench.main() == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == ("gfx90a w64: instances: 1  llvm waits already there: 0  programs: 3  "
                                   "llvm waits: 1  flagged at or after: 1"), out
    # the MIR the mutant became: llc's own DPP rule asks for the wait verify flags
    got = bench.mc([["v_mov_b32_dpp v4, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"]], "gfx90a", 64)[0]
    assert not isinstance(got, str) and got[0][0] == "V_MOV_B32_dpp_vi"
