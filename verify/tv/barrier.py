"""verify tv: `llvm.amdgcn.s.barrier` and the GPU's `s_barrier`
(`s_barrier_signal` / `s_barrier_wait` on GFX12), for one wave: an ordering
point, no effect on registers or memory.  [S:one-wave-barrier]

A workgroup barrier holds each wave until every wave of its workgroup has
arrived; it reads and writes no register and no memory.  verify tv models
one wave, whose memory only it writes (the fences' rule,
[S:one-wave-fence]): what other waves may store between the arrival and the
departure is not modelled, so the barrier changes nothing it can observe.
Modelled in straight-line IR only (a barrier in divergent control flow is
undefined for LLVM, IntrinsicsAMDGPU.td: `IntrConvergent`); elsewhere it is
unsupported, named.
"""

from __future__ import annotations

import re
from typing import Any

from .types import Lanes

IR_NAMES = frozenset({"llvm.amdgcn.s.barrier"})
# the GPU's barrier instructions: GFX6-11 s_barrier, GFX12 s_barrier_signal -1 / s_barrier_wait -1
GPU = re.compile(r"^s_barrier(_signal|_wait)?$")


def ir_call(run: Any, ins: Any) -> Lanes:
    """The IR's `call void @llvm.amdgcn.s.barrier()`: no value, no effect.
    [S:one-wave-barrier]"""
    if run.fn is not None and run.fn.blocks != 1:
        raise run._unsupported(f"@{ins.callee} in a function with branches (modelled in straight-line code)")
    return Lanes([run.B.const(0)] * run.wave, [False] * run.wave)
