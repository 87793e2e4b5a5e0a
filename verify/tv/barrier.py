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

What it orders in the IR (`note_*`, LangRef's memory model with LLVM's
AMDGPU execution-synchronization rules): two lanes are threads, so their
stores race unless happens-before orders them.  A release fence, the
barrier, then an acquire fence (`__syncthreads()`'s IR) orders every store
before it before every store after it: the IR's memories start a new epoch
(Memory.sync).  With atomics that order more (an ordering other than
monotonic, or any atomic with a fence) verify does not follow the
synchronisation they make: the IR's memories then order every store
instruction across lanes, as the GPU's do (stricter than LangRef: a false
alarm is possible there, never a false proof).  [S:ir-store-race]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .types import Lanes

_SCOPE = re.compile(r'syncscope\("([^"]*)"\)')
RELEASE = ("release", "acq_rel", "seq_cst")
ACQUIRE = ("acquire", "acq_rel", "seq_cst")

IR_NAMES = frozenset({"llvm.amdgcn.s.barrier"})
# the GPU's barrier instructions: GFX6-11 s_barrier, GFX12 s_barrier_signal -1 / s_barrier_wait -1
GPU = re.compile(r"^s_barrier(_signal|_wait)?$")


def ir_call(run: Any, ins: Any) -> Lanes:
    """The IR's `call void @llvm.amdgcn.s.barrier()`: no value, no effect.
    [S:one-wave-barrier]"""
    if run.fn is not None and run.fn.blocks != 1:
        raise run._unsupported(f"@{ins.callee} in a function with branches (modelled in straight-line code)")
    note_barrier(run)
    return Lanes([run.B.const(0)] * run.wave, [False] * run.wave)


@dataclass
class Sync:
    """The IR run's synchronisation so far (note_fence, note_barrier,
    note_atomic)."""

    released: int | None = None  # the IR's store count at the latest release fence
    arrived: int | None = None  # ... at the release fence before a barrier since
    fences: bool = False
    atomics: bool = False


def _memories(run: Any) -> list[Any]:
    return [m for m in (run.memory, run.lds) if m is not None]


def _stores(run: Any) -> int:
    return sum(len(m.groups) for m in _memories(run))


def _ordered(run: Any) -> None:
    for m in _memories(run):
        m.ordered = True


def _ordering(ins: Any) -> str:
    words = ins.text.replace(",", " ").split()
    for w in ("seq_cst", "acq_rel", "acquire", "release", "monotonic", "unordered"):
        if w in words:
            return w
    return ""


def note_fence(run: Any, ins: Any) -> None:
    """The IR's `fence`: a release fence, then a barrier, then an acquire
    fence start a new epoch of the IR's stores.  A fence of
    syncscope("singlethread") orders no other lane."""
    m = _SCOPE.search(ins.text)
    if m is not None and m.group(1) == "singlethread":
        return
    st = run.sync = run.sync or Sync()
    st.fences = True
    if st.atomics:
        _ordered(run)
    order = _ordering(ins)
    if order in ACQUIRE and st.arrived is not None:
        if _stores(run) != st.arrived:
            raise run._unsupported("a store between the release fence and the acquire fence of a workgroup barrier "
                                   "(which stores it orders is not modelled)")
        for mem in _memories(run):
            mem.sync()
        st.arrived = None
    if order in RELEASE:
        st.released = _stores(run)


def note_barrier(run: Any) -> None:
    st = run.sync = run.sync or Sync()
    if st.released is not None:
        st.arrived, st.released = st.released, None


def note_atomic(run: Any, ins: Any) -> None:
    """The IR's atomicrmw: one ordered more than monotonic, or any with a
    fence, makes the IR's memories ordered (see the module's text)."""
    st = run.sync = run.sync or Sync()
    st.atomics = True
    if st.fences or _ordering(ins) != "monotonic":
        _ordered(run)
