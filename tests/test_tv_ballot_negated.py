"""The "simulated negated ballot" refutations of llvm.amdgcn.ballot.i32.ll
(tests/tv/llvm-shape/ballot_negated.ll; docs/tv.md, Findings): LLVM 22's
branch is refuted with %c true in one active lane and false in another, and
the same code with the branch asking the IR's question (some active lane has
%c false: EXEC and not the mask of %c) is proved, so the refutation is the
branch's sense, not verify's reading of llvm.amdgcn.icmp on i1."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

SRC = Path(__file__).parent / "tv" / "llvm-shape" / "ballot_negated.ll"
LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")
FN = "branch_divergent_simulated_negated_ballot_ne_zero_and"


def _llc() -> str:
    assert LLC is not None
    r = subprocess.run([LLC, "-mtriple=amdgcn", "-mcpu=gfx1010", "-mattr=+wavefrontsize32", str(SRC), "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


def _verdict(tmp_path: Path, asm: str) -> tuple[int, dict]:
    p = tmp_path / "f.s"
    p.write_text(asm)
    code, out, _ = cli("tv", str(SRC), "--target", "gfx1010", "--wave", "32", "--asm", str(p), "--function", FN,
                       "--json")
    (r,) = json.loads(out)["results"]
    return code, r


@needs_llc
def test_llvm_negated_ballot_branch_refuted_and_the_corrected_branch_proved(tmp_path: Path) -> None:
    asm = _llc()
    start = asm.index(f"\n{FN}:")
    end = asm.index(".Lfunc_end", start)
    body = asm[start:end]
    # LLVM 22: vcc = the mask of %c (v1 < 12 and v2 > 34); vccnz -> %false (33)
    branch = "s_and_b32 vcc_lo, vcc_lo, s0\n\ts_cbranch_vccnz "
    assert body.count(branch) == 1, body
    code, r = _verdict(tmp_path, asm)
    assert (code, r["verdict"]) == (1, "refuted")
    cex = r["counterexample"]
    lanes = cex["active_lanes"]
    v1, v2 = cex["inputs"]["%v1"], cex["inputs"]["%v2"]
    c = [v1[k] < 12 and v2[k] > 34 for k in lanes]
    assert True in c and False in c  # %c divergent: the IR's 42, LLVM's 33
    assert {(ln["expected"], ln["actual"]) for ln in cex["lanes"]} == {(42, 33)}
    # the IR's question: EXEC & ~mask(%c) == 0 -> %false
    fixed = "s_and_b32 vcc_lo, vcc_lo, s0\n\ts_andn2_b32 vcc_lo, exec_lo, vcc_lo\n\ts_cbranch_vccz "
    code, r = _verdict(tmp_path, asm[:start] + body.replace(branch, fixed) + asm[end:])
    assert (code, r["verdict"]) == (0, "proved")
    # and the corrected branch with `and` in place of `andn2`: refuted
    code, r = _verdict(tmp_path, asm[:start] + body.replace(branch, fixed.replace("andn2", "and")) + asm[end:])
    assert (code, r["verdict"]) == (1, "refuted")
