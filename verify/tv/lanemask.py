"""Lane-mask intrinsics of the IR for `verify tv` that no one GPU
instruction is: `llvm.amdgcn.inverse.ballot.i32/i64(mask)`, each lane's
bit of a wave-uniform mask  [S:ir-inverse-ballot].

sem.py's INTRINSIC_TABLE holds its row; this module never imports sem.py
(it runs on the IRRun it is given).
"""

from __future__ import annotations

from typing import Any

from .llir import Inst
from .types import Lanes


def inverse_ballot(run: Any, ins: Inst, args: list[Lanes]) -> Lanes:
    """Lane i: bit i of the mask (an i1).  The mask must be uniform
    (IntrinsicsAMDGPU.td); LLVM reads the first active lane's
    (v_readfirstlane), so a lane's result is poison where the mask is
    poison in an active lane or differs between active lanes (the bits
    the wave reads: wave32 reads the low half of an i64 mask only).
    The i32 form needs wave32 (llc-22 cannot select it in wave64)."""
    B, W = run.B, run.wave
    (m,) = args
    width = 64 if ins.operands[0].type == "i64" else 32
    if width == 32 and W != 32:
        raise run._unsupported(f"@{ins.callee} in wave{W} (llc-22 cannot select it: ballot.i32 needs wave32)")
    on = run.lanes_on()
    halves = [m.vals] + ([m.hi] if W == 64 and m.hi is not None else [])
    if all(v is h[0] for h in halves for v in h) and all(p is False for p in m.poison):
        differ: Any = False  # (one term in every lane: a constant mask)
    else:
        differ = B.or_b(*(B.and_b(on[i], on[j], B.or_b(*(B.ne(h[i], h[j]) for h in halves)))
                          for i in range(W) for j in range(i + 1, W)))
    bad = B.or_b(differ, *(B.and_b(on[j], m.poison[j]) for j in range(W)))
    vals = []
    for i in range(W):
        word = m.vals[i] if i < 32 else halves[1][i]
        vals.append(B.bool_value(B.bit(word, i % 32)))
    return Lanes(vals, [bad] * W, 1)
