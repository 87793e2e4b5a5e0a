"""Outstanding memory results and the waits that cover them.  [S:waitcnt]

A DS instruction (ds_swizzle, ds_bpermute, ds_permute, ...) writes its
destination VGPR some time after it issues.  Before the program reads or
overwrites that VGPR it must wait: on GFX8-GFX11 with ``s_waitcnt
lgkmcnt(N)`` (or ``s_waitcnt_lgkmcnt null, N`` on GFX10/GFX11), on GFX12
with ``s_wait_dscnt N`` (or a combined ``s_wait_*_dscnt``).  A wait for
count N returns once at most N of the counted operations are outstanding.
LDS operations return in the order they issued, so ``N`` covers all but the
N newest DS operations; scalar memory loads, also counted by LGKM_CNT before
GFX12, may return out of order, so while one is outstanding only a wait for
0 covers anything.  Vector memory loads (global, buffer, scratch, flat,
image, returning atomics; never modelled, see verify/asmcheck.py) land late
the same way and are covered by ``s_waitcnt vmcnt(N)`` (``s_waitcnt_vmcnt
null, N``) before GFX12 and by ``s_wait_loadcnt`` / ``s_wait_samplecnt`` /
``s_wait_bvhcnt`` on GFX12; a FLAT load is counted by both VM_CNT and
LGKM_CNT (LOADcnt and DScnt on GFX12) and is covered once both are.  The
same queue serves the machine (a read before the wait gets an unknown value)
and the static warning (``check``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .diag import Warning_
from .ir import Instr, VReg
from .ops.base import op_of

_NAMED = re.compile(r"(vmcnt|lgkmcnt)(?:_sat)?\(\s*(0x[0-9a-fA-F]+|\d+)\s*\)")

# the queue entries each wait counter counts  [S:waitcnt]
#   ds: an LDS operation; other: scalar memory (LGKM); flat: the LGKM (GFX12:
#   DScnt) side of a FLAT load; vm: a vector memory load or returning atomic
#   (VM_CNT; GFX12 LOADcnt), the VM side of a FLAT load too; sample: an image
#   sample/gather/load (GFX12 SAMPLEcnt); bvh: a BVH intersection (GFX12 BVHcnt)
COUNTS: dict[str, frozenset[str]] = {
    "lgkm": frozenset({"ds", "other", "flat"}),
    "ds": frozenset({"ds", "flat"}),
    "km": frozenset({"other"}),
    "vm": frozenset({"vm", "sample", "bvh"}),
    "load": frozenset({"vm"}),
    "sample": frozenset({"sample"}),
    "bvh": frozenset({"bvh"}),
}
# the entry kinds that return in issue order among themselves (a wait for N
# > 0 covers the oldest when every counted entry is of one of these kinds and
# all of one kind)
IN_ORDER = frozenset({"ds", "vm", "sample", "bvh"})
# vector memory kinds (an op's wait_counter): their destinations are what it writes
VMEM = frozenset({"vm", "sample", "bvh", "flat"})
# what each wait counter is called in a message
_WAIT_TEXT = {"ds": ("DS", "s_waitcnt lgkmcnt / s_wait_dscnt"),
              "vm": ("memory", "s_waitcnt vmcnt / s_wait_loadcnt / s_wait_samplecnt")}


def counter_kind(ins: Instr) -> str | None:
    """The op's declared ``wait_counter``: "ds", "other" (scalar memory),
    "vm", "sample", "bvh", "flat" (vector memory), or None."""
    return op_of(ins.base).wait_counter


def lgkm_kind(ins: Instr) -> str | None:
    """"ds" for an LDS operation, "other" for another LGKM-counted operation
    (scalar memory), None for the rest (vector memory included: see
    ``counter_kind``)."""
    k = counter_kind(ins)
    return k if k in ("ds", "other") else None


def ds_dests(ins: Instr) -> tuple[int, ...]:
    """The VGPRs a DS operation's result lands in (all of a v[a:b] range), for
    an op that declares ``lds_return``."""
    d = ins.operands[0] if ins.operands else None
    if isinstance(d, VReg) and op_of(ins.base).lds_return:
        return tuple(range(d.index, d.index + d.count))
    return ()


def result_dests(ins: Instr) -> tuple[int, ...]:
    """The VGPRs whose values land late: a DS result, or every VGPR a vector
    memory instruction may write."""
    kind, op = counter_kind(ins), op_of(ins.base)
    if kind in VMEM or (kind == "ds" and op.lds_return):
        return tuple(sorted({int(r[1:]) for r in op.defs(ins) if re.fullmatch(r"v\d+", r)} | set(ds_dests(ins))))
    return ()


def _count(text: str) -> int | None:
    """The wait's count, when the operand is exactly one integer literal."""
    try:
        return int(text.strip(), 0)
    except ValueError:
        return None


def waits_of(ins: Instr) -> list[tuple[str, int]]:
    """The (counter, N) pairs a wait instruction waits for (a COUNTS key);
    [] for anything else (read as no wait, never as a wait that is not
    there).  A raw s_waitcnt immediate, and the count of a combined
    s_wait_*_dscnt, are understood only when 0 (every counter);
    s_waitcnt_lgkmcnt / s_waitcnt_vmcnt only with `null` (an SGPR there adds
    its value to the count)."""
    m = ins.mnemonic
    if not m.startswith("s_wait"):
        return []
    text = ins.text.split(";")[0].strip()
    rest = text[len(m):].strip()
    if m == "s_waitcnt":
        hits = _NAMED.findall(rest)
        if hits:
            return [(c[:-3], int(n, 0)) for c, n in hits]
        return [("lgkm", 0), ("vm", 0)] if _count(rest) == 0 else []
    if m in ("s_waitcnt_lgkmcnt", "s_waitcnt_vmcnt"):
        parts = [p.strip() for p in rest.split(",")]
        if len(parts) == 2 and parts[0] == "null" and (c := _count(parts[1])) is not None:
            return [(m[len("s_waitcnt_"):-3], c)]
        return []
    n = _count(rest)
    if n is None:
        return []
    single = {"s_wait_dscnt": "ds", "s_wait_kmcnt": "km", "s_wait_loadcnt": "load", "s_wait_samplecnt": "sample",
              "s_wait_bvhcnt": "bvh"}
    if m in single:
        return [(single[m], n)]
    if m == "s_wait_loadcnt_dscnt":
        return [("ds", 0), ("load", 0)] if n == 0 else []
    if m == "s_wait_storecnt_dscnt":
        return [("ds", 0)] if n == 0 else []
    return []


def wait_of(ins: Instr) -> tuple[str, int] | None:
    """The LDS wait of `ins` ("lgkm" or "ds", N), or None."""
    return next(((c, n) for c, n in waits_of(ins) if c in ("lgkm", "ds")), None)


@dataclass
class Outstanding:
    """Counted operations in issue order: (kind, destination VGPRs, line)."""

    queue: list[tuple[str, tuple[int, ...], int]] = field(default_factory=list)

    def pending_entry(self, vgpr: int) -> tuple[str, int] | None:
        """("ds" or "vm", line) of the operation whose result v{vgpr} still awaits."""
        for kind, regs, line in self.queue:
            if vgpr in regs:
                return ("ds" if kind == "ds" else "vm"), line
        return None

    def pending(self, vgpr: int) -> int | None:
        """The line of the operation whose result v{vgpr} still awaits."""
        e = self.pending_entry(vgpr)
        return None if e is None else e[1]

    def forget(self, vgpr: int, kinds: frozenset[str] = frozenset({"ds"})) -> None:
        """v{vgpr} no longer awaits the entries of `kinds` (by default the LDS
        results, which land in order: a newer one, or the race the machine
        makes unknown, replaces them; a vector memory result may still land)."""
        self.queue = [(k, tuple(r for r in regs if r != vgpr) if k in kinds else regs, ln)
                      for k, regs, ln in self.queue]

    def issue(self, ins: Instr) -> None:
        kind = counter_kind(ins)
        if kind is None:
            return
        regs = result_dests(ins)
        kinds = ["vm", "flat"] if kind == "flat" else [kind]
        for k in kinds:
            if k in IN_ORDER:
                for r in regs:
                    self.forget(r, frozenset({k}))  # results of one kind land in order: the newer one wins
            self.queue.append((k, regs, ins.line))

    def wait(self, counter: str, n: int) -> None:
        q = self.queue
        counted = [e for e in q if e[0] in COUNTS.get(counter, frozenset())]
        if n == 0:
            done = counted
        elif len({e[0] for e in counted}) <= 1 and all(e[0] in IN_ORDER for e in counted):
            done = counted[:max(0, len(counted) - n)]
        else:
            done = []  # out of order: only a wait for 0 covers anything
        self.queue = [e for e in q if e not in done]

    def step(self, ins: Instr) -> None:
        for w in waits_of(ins):
            self.wait(*w)
        self.issue(ins)


def check(program: list[Instr], uses: Callable[[Instr], list[str]], defs: Callable[[Instr], list[str]],
          final_reads: Sequence[int] = ()) -> list[Warning_]:
    """A warning for each read or overwrite of a DS or memory result before a
    wait covers it (and for an output still outstanding at the end)."""
    out: list[Warning_] = []
    hits, q = _scan(program, uses, defs)
    for ins, r, kind, line in hits:
        what, wait = _WAIT_TEXT[kind]
        verb = "reads" if r in uses(ins) else "overwrites"
        out.append(Warning_(ins.span, f"{ins.mnemonic} {verb} {r} before the {what} result from line {line} "
                                      f"has returned (no {wait} covers it): its value there is unknown"))
    for v in final_reads:
        e = q.pending_entry(v)
        if e is not None:
            what, _ = _WAIT_TEXT[e[0]]
            wait = "s_waitcnt lgkmcnt(0) / s_wait_dscnt 0" if e[0] == "ds" else "s_waitcnt vmcnt(0) / s_wait_loadcnt 0"
            out.append(Warning_(program[-1].span, f"v{v}, an output, is the {what} result from line {e[1]}, still "
                                                  f"outstanding at the end: wait for it ({wait}); its value is unknown"))
    return out


def early(program: list[Instr], uses: Callable[[Instr], list[str]],
          defs: Callable[[Instr], list[str]]) -> list[tuple[Instr, str, str, int]]:
    """(instruction, register, "ds" or "vm", line of the result) for each read
    or overwrite of a late result before a wait covers it, in program order."""
    return _scan(program, uses, defs)[0]


def _scan(program: list[Instr], uses: Callable[[Instr], list[str]],
          defs: Callable[[Instr], list[str]]) -> tuple[list[tuple[Instr, str, str, int]], Outstanding]:
    out: list[tuple[Instr, str, str, int]] = []
    q = Outstanding()
    every = frozenset(k for ks in COUNTS.values() for k in ks)
    for ins in program:
        mine = result_dests(ins)
        for r in sorted(set(uses(ins)) | set(defs(ins))):
            if r.startswith("v") and r[1:].isdigit():
                e = q.pending_entry(int(r[1:]))
                # a newer result of the same kind into the same VGPR lands after the older one
                same = counter_kind(ins) == "ds" and e is not None and e[0] == "ds"
                if e is not None and not (same and int(r[1:]) in mine and r not in uses(ins)):
                    out.append((ins, r, e[0], e[1]))
                    q.forget(int(r[1:]), every)
        q.step(ins)
    return out, q


def scalar_early(program: list[Instr], uses: Callable[[Instr], list[str]],
                 defs: Callable[[Instr], list[str]]) -> list[tuple[Instr, str, int]]:
    """(instruction, SGPR, line of the scalar load) for each read or overwrite
    of a scalar memory result before a wait covers it.  Scalar loads return
    out of order, so only ``s_waitcnt lgkmcnt(0)`` (GFX12: ``s_wait_kmcnt
    0``) covers one.  The machine does not model an SGPR that lands late:
    `verify asm` refuses such a region."""
    out: list[tuple[Instr, str, int]] = []
    pending: dict[str, int] = {}
    for ins in program:
        for r in sorted(set(uses(ins)) | set(defs(ins))):
            if r in pending:
                out.append((ins, r, pending.pop(r)))
        if any(c in ("lgkm", "km") and n == 0 for c, n in waits_of(ins)):
            pending = {}
        if counter_kind(ins) == "other":
            pending.update({r: ins.line for r in defs(ins) if not re.fullmatch(r"v\d+", r)})
    return out
