"""The closed loop (issue #37): what `verify emit` writes for a catalogue
lowering, `verify tv` proves, on every (target, wave) the lowering
declares.  Used by tests/test_closed_loop.py."""

from __future__ import annotations

import os
import tempfile

from verify import emit
from verify import target as T
from verify.diag import InputError
from verify.lowering_file import load_lowering
from verify.proofs import instantiations
from verify.tv.check import TVResult, check_file
from verify.tv.compile import by_llc, by_llvmlite


def closed_loop(path: str, llc: str | None = None, only: set[tuple[str, int]] | None = None,
                timeout: float = 30.0) -> tuple[list[TVResult], list[str]]:
    """`verify tv` on the IR `verify emit` writes (emit.llvm_ir, its header
    aside) for every (target, wave) the lowering at `path` declares (or those
    in `only`), compiled by llvmlite's LLVM in this process (as `verify tv`'s
    child does: tv.compile.by_llvmlite) or by the `llc` command: the results,
    and the instantiations emit refuses ('NAME TARGET waveW: why')."""
    low = load_lowering(path)
    results: list[TVResult] = []
    gaps: list[str] = []
    with tempfile.TemporaryDirectory() as d:
        for t, w in instantiations(low):
            if only is not None and (t, w) not in only:
                continue
            tgt = T.get(t)
            try:
                ir = emit.llvm_ir(low, tgt, w, [])
            except InputError as e:
                gaps.append(f"{low.name} {t} wave{w}: {e.message}")
                continue
            p = os.path.join(d, f"{low.name}.{t}.w{w}.ll")
            with open(p, "w") as f:
                f.write(ir)
            try:
                asm = by_llvmlite(ir, tgt, w) if llc is None else by_llc(llc, p, ir, tgt, w)
            except InputError as e:
                gaps.append(f"{low.name} {t} wave{w}: the compiler failed: {e.message}")
                continue
            for r in check_file(p, ir, [t], w, [], timeout=timeout, asm=(llc or "llvmlite", asm)):
                results.append(r)
    return results, gaps
