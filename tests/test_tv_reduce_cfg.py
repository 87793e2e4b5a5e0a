"""wave.reduce inside a branch on the work-item ID (issue 31: LLVM's
llvm.amdgcn.reduce.umax.ll `divergent_cfg`, unknown at the solver's budget
before): the Iterative loop runs over the lanes that took the branch, a
mask that stays symbolic under each dispatch EXEC.  Proved once the
branch's mask and the IR's condition are one term per lane (an unsigned
compare with a constant is always `x < k` or its negation; not not c is c;
XOR of a lane mask is one) and each lane's value question is asked as a
Boolean skeleton whose shared fold is a leaf.  One-token mutants refuted."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import llc_asm, mutate, tv_on_asm

pytest.importorskip("llvmlite")

SHAPE = Path(__file__).parent / "tv" / "llvm-shape" / "reduce_divergent_cfg.ll"
needs_llc = pytest.mark.skipif(shutil.which("llc-22") is None, reason="needs llc-22")


@pytest.mark.slow
@needs_llc
def test_llvm_divergent_cfg_reduce_is_proved_and_its_mutants_refuted(tmp_path):
    fn, cpu = "umax_cfg", "gfx900"
    asm = llc_asm(SHAPE, cpu)
    code, r = tv_on_asm(tmp_path, SHAPE, asm, cpu, "--function", fn, "--wave", "64")
    assert (code, r["verdict"]) == (0, "proved"), r
    fold = next(x.strip() for x in asm.splitlines() if x.strip().startswith("s_max_u32"))
    for old, new in (("v_cmp_lt_u32_e32 vcc, 15, v0", "v_cmp_lt_u32_e32 vcc, 16, v0"),  # the branch's bound
                     (fold, fold.replace("s_max_u32", "s_min_u32"))):  # the fold's operation
        assert old in asm, (old, asm)
        code, r = tv_on_asm(tmp_path, SHAPE, mutate(asm, old, new), cpu, "--function", fn, "--wave", "64")
        assert (code, r["verdict"]) == (1, "refuted"), (old, r)
