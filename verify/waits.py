"""Outstanding LDS results and the waits that cover them.  [S:waitcnt]

A DS instruction (ds_swizzle, ds_bpermute, ds_permute, ...) writes its
destination VGPR some time after it issues.  Before the program reads or
overwrites that VGPR it must wait: on GFX8-GFX11 with ``s_waitcnt
lgkmcnt(N)`` (or ``s_waitcnt_lgkmcnt null, N`` on GFX10/GFX11), on GFX12
with ``s_wait_dscnt N`` (or a combined ``s_wait_*_dscnt``).  A wait for
count N returns once at most N of the counted operations are outstanding.
LDS operations return in the order they issued, so ``N`` covers all but the
N newest DS operations; scalar memory loads, also counted by LGKM_CNT before
GFX12, may return out of order, so while one is outstanding only a wait for
0 covers anything.  The same queue serves the machine (a read before the
wait gets an unknown value) and the static warning (``check``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .diag import Warning_
from .ir import Instr, VReg
from .ops.base import op_of

_NAMED = re.compile(r"lgkmcnt(?:_sat)?\(\s*(0x[0-9a-fA-F]+|\d+)\s*\)")


def lgkm_kind(ins: Instr) -> str | None:
    """"ds" for an LDS operation, "other" for another LGKM-counted operation
    (scalar memory), None for the rest: the op's declared ``wait_counter``."""
    return op_of(ins.base).wait_counter


def ds_dests(ins: Instr) -> tuple[int, ...]:
    """The VGPRs a DS operation's result lands in (all of a v[a:b] range), for
    an op that declares ``lds_return``."""
    d = ins.operands[0] if ins.operands else None
    if isinstance(d, VReg) and op_of(ins.base).lds_return:
        return tuple(range(d.index, d.index + d.count))
    return ()


def _count(text: str) -> int | None:
    """The wait's count, when the operand is exactly one integer literal."""
    try:
        return int(text.strip(), 0)
    except ValueError:
        return None


def wait_of(ins: Instr) -> tuple[str, int] | None:
    """("lgkm", N) or ("ds", N) for a wait instruction; None otherwise (read as
    no wait for LDS, never as a wait that is not there).  A raw s_waitcnt
    immediate, and the count of a combined s_wait_*_dscnt, are understood
    only when 0 (every counter); s_waitcnt_lgkmcnt only with `null` (an SGPR
    there adds its value to the count)."""
    m, text = ins.mnemonic, ins.text.split(";")[0].strip()
    rest = text[len(m):].strip()
    if m == "s_waitcnt":
        hits = _NAMED.findall(rest)
        if hits:
            return ("lgkm", int(hits[0], 0))
        return ("lgkm", 0) if _count(rest) == 0 else None
    if m == "s_waitcnt_lgkmcnt":
        parts = [p.strip() for p in rest.split(",")]
        if len(parts) == 2 and parts[0] == "null" and (c := _count(parts[1])) is not None:
            return ("lgkm", c)
        return None
    n = _count(rest)
    if n is None:
        return None
    if m == "s_wait_dscnt":
        return ("ds", n)
    if m in ("s_wait_loadcnt_dscnt", "s_wait_storecnt_dscnt"):
        return ("ds", 0) if n == 0 else None
    return None


@dataclass
class Outstanding:
    """LGKM-counted operations in issue order: (kind, destination VGPRs, line)."""

    queue: list[tuple[str, tuple[int, ...], int]] = field(default_factory=list)

    def pending(self, vgpr: int) -> int | None:
        """The line of the DS operation whose result v{vgpr} still awaits."""
        for kind, regs, line in self.queue:
            if kind == "ds" and vgpr in regs:
                return line
        return None

    def forget(self, vgpr: int) -> None:
        self.queue = [(k, tuple(r for r in regs if r != vgpr), ln) for k, regs, ln in self.queue]

    def issue(self, ins: Instr) -> None:
        kind = lgkm_kind(ins)
        if kind is None:
            return
        regs = ds_dests(ins) if kind == "ds" else ()
        for r in regs:
            self.forget(r)  # LDS results land in order: the newer one wins
        self.queue.append((kind, regs, ins.line))

    def wait(self, counter: str, n: int) -> None:
        q = self.queue
        if counter == "ds":
            ds = [e for e in q if e[0] == "ds"]
            done = ds[:max(0, len(ds) - n)]
        elif n == 0:
            done = list(q)
        elif any(e[0] != "ds" for e in q):
            done = []
        else:
            done = q[:max(0, len(q) - n)]
        self.queue = [e for e in q if e not in done]

    def step(self, ins: Instr) -> None:
        w = wait_of(ins)
        if w is not None:
            self.wait(*w)
        self.issue(ins)


def check(program: list[Instr], uses: Callable[[Instr], list[str]], defs: Callable[[Instr], list[str]],
          final_reads: Sequence[int] = ()) -> list[Warning_]:
    """A warning for each read or overwrite of a DS result before a wait
    covers it (and for an output still outstanding at the end)."""
    out: list[Warning_] = []
    q = Outstanding()
    for ins in program:
        for r in sorted(set(uses(ins)) | set(defs(ins))):
            if r.startswith("v") and r[1:].isdigit():
                line = q.pending(int(r[1:]))
                if line is not None and not (lgkm_kind(ins) == "ds" and int(r[1:]) in ds_dests(ins) and r not in uses(ins)):
                    verb = "reads" if r in uses(ins) else "overwrites"
                    out.append(Warning_(ins.span, f"{ins.mnemonic} {verb} {r} before the DS result from line {line} "
                                                  f"has returned (no s_waitcnt lgkmcnt / s_wait_dscnt covers it): "
                                                  f"its value there is unknown"))
                    q.forget(int(r[1:]))
        q.step(ins)
    for v in final_reads:
        line = q.pending(v)
        if line is not None:
            out.append(Warning_(program[-1].span, f"v{v}, an output, is the DS result from line {line}, still "
                                                  f"outstanding at the end: wait for it (s_waitcnt lgkmcnt(0) / "
                                                  f"s_wait_dscnt 0); its value is unknown"))
    return out
