"""Compare-and-swap atomics and their retry loops, for `verify tv` (issue 31).

LLVM expands an `atomicrmw` the target has no instruction for (or one it
may not use on fine-grained memory) into a loop (AtomicExpandPass,
`atomicrmw.start`): read memory, compute the new value, `cmpxchg` it
(`global_atomic_cmpswap`, `buffer_atomic_cmpswap`, `_x2`/`_b32`/`_b64`),
and go round again in each lane whose compare failed (another agent wrote
memory in between).  The instruction: in each lane that runs it, memory at
P is compared with the compare operand and replaced by the source operand
where equal, one atomic step; the returning form gives the value before
(the ISA guides' CMPSWAP: "tmp = MEM[ADDR]; src = DATA[0]; cmp = DATA[1];
MEM[ADDR] = (tmp == cmp) ? src : tmp; RETURN_DATA[0] = tmp").  verify
models it where at most one lane runs it (a concrete EXEC, or the atomic
optimizer's one lane, proved), as the 64-bit atomics (verify/tv/atomic64.py).

The loop: verify runs its body once and asks, with the rest of the proof,
that it then leaves (its back branch not taken) wherever the IR is defined
(`Kernel.loop_once`): in one wave's model nothing but the wave writes
memory, so the compare of the first try succeeds when it compares with
what the wave read.  A loop that may go round again is unsupported, named
by its branch line, never proved.  [S:cas-loop]
"""

from __future__ import annotations

import re
import time
from typing import Any

from .. import smt
from .types import dword_address

CMPSWAP = re.compile(r"^(global|buffer)_atomic_cmpswap(_x2|_b32|_b64)?$")


def is_cmpswap(mnemonic: str) -> bool:
    return CMPSWAP.match(mnemonic) is not None


def gpu_cmpswap(k: Any, ins: Any, ops: list[str], mods: dict[str, str], regs: Any, addresses: Any,
                resolve: Any, one_lane: Any) -> str | None:
    """Run a cmpswap on Kernel `k` (`regs`: operand text -> VGPR numbers;
    `addresses`: Kernel._addresses; `resolve`: buffer.resolve)."""
    m, B = k.m, k.m.B
    a = CMPSWAP.match(ins.mnemonic)
    assert a is not None
    wide = a.group(2) in ("_x2", "_b64")
    nd = 2 if wide else 1
    where = f"line {ins.line}: {ins.mnemonic}"
    if a.group(1) == "buffer":
        got = resolve(k, ins, ops, mods, 4 * nd, True)
        if isinstance(got, str):
            return got
        addrs, act, data, _ = got
        ret = "glc" in mods or "sc0" in mods or mods.get("th") == "TH_ATOMIC_RETURN"
        dst = data[:nd] if ret else None
    else:
        ret = len(ops) == 4
        if set(mods) - {"offset", "glc", "sc0", "sc1", "nt", "th", "scope", "slc", "dlc"} or len(ops) not in (3, 4):
            return f"{where} {', '.join(ops)}"
        if ret != ("glc" in mods or "sc0" in mods or mods.get("th") == "TH_ATOMIC_RETURN"):
            return f"{where}: a result register without a return flag, or the reverse"
        act = m.actives()
        try:
            off = int(mods.get("offset", "0"), 0)
        except ValueError:
            return where
        addrs = addresses(ops[-3], ops[-1], off, act)
        data = regs(ops[-2])
        dst = regs(ops[0]) if ret else None
        if addrs is None or (dst is not None and len(dst) != nd):
            return f"{where} {', '.join(ops)}"
    if len(data) != 2 * nd:
        return f"{where}: {len(data)} data registers"
    vals = [[smt.under_conjuncts(x, act[i]) for i, x in enumerate(m.v(r))] for r in data]
    src = [tuple(vals[h][i] for h in range(nd)) for i in range(m.W)]
    cmp = [tuple(vals[nd + h][i] for h in range(nd)) for i in range(m.W)]
    ens = [B.and_b(k.pc, act[i]) for i in range(m.W)]
    live = [i for i, e in enumerate(ens) if e is not False]
    one: Any
    if len(live) <= 1:
        one = ens[live[0]] if live else False
    else:
        one = one_lane(B, addrs, [s[0] for s in src], ens)
        same = all(B.same(src[i][h], src[live[0]][h]) and B.same(cmp[i][h], cmp[live[0]][h])
                   for i in live[1:] for h in range(nd))
        if one is not None and not same:
            one = None
    if one is None:
        return f"{where}: a compare-and-swap that several lanes may run (verify models one lane's)"
    first = live[0] if live else 0
    lo, hi = addrs[first]
    places = [dword_address(B, lo, hi, h) for h in range(nd)]
    olds = [k.mem.read(*p) for p in places]
    old = [v for v, _ in olds]
    pois = B.or_b(*(p for _, p in olds))
    hit = B.and_b(*(B.eq(o, c) for o, c in zip(old, cmp[first])))
    for h, p in enumerate(places):
        k.mem.write([(p[0], p[1], B.ite(hit, src[first][h], old[h]), pois, one)])
    if nd == 2:  # (misaligned: a fault, as the 64-bit atomics  [S:atomic64])
        k.mem.faults.append((B.and_b(one, B.ne(B.and_(lo, B.const(7)), B.const(0))), ins.line))
    if ret:
        assert dst is not None
        for h, d in enumerate(dst):
            m.write_v(d, [old[h]] * m.W, act)
            k.pending_v.add(d)
            if k.vm_order is not None:
                k.vm_order.append(d)
    return None


def once(blocks: list[Any], k: int, extra: Any) -> bool:
    """Loop block k is run once, its leaving after it an obligation
    (extra.loop_once): a compare-and-swap retry loop (a cmpswap in its
    body) on a state that takes such obligations  [S:cas-loop]."""
    return getattr(extra, "loop_once", None) is not None and any(is_cmpswap(i.mnemonic) for i in blocks[k].instrs)


def once_verdict(res: Any, t0: float, q: Any, B: Any, no_ub: Any, obligations: list[tuple[Any, int]]) -> Any:
    """Where a loop run once (`obligations`: (its back branch taken after
    the first run, the branch line)) may go round again while the IR is
    defined: unsupported, naming the loop; unknown where the solver gives
    up; None: every such loop leaves after one run  [S:cas-loop]."""
    q.push()
    q.add(B.and_b(no_ub, B.or_b(*(c for c, _ in obligations))))
    r = q.check()
    out = None
    if r != "unsat":
        res.seconds = time.monotonic() - t0
        line = next((ln for c, ln in obligations if r == "sat" and q.truth(c)), obligations[0][1])
        res.verdict = "unsupported" if r == "sat" else "unknown"
        res.notes = [f"unsupported: the compare-and-swap retry loop branching back at line {line} may run more "
                     "than once (verify bounds it by one run)" if r == "sat" else
                     f"the solver gave up ({q.reason}) on whether the compare-and-swap retry loop branching back "
                     f"at line {line} runs once"]
        out = res
    q.pop()
    return out


def obligation(extra: Any, cond: Any, line: int) -> None:
    """Record that the loop branching back at `line` goes round again where
    `cond` holds (extra.loop_once)."""
    extra.loop_once.append((cond, line))
