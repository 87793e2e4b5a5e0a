"""Loops in the IR side of `verify tv` (docs/tv.md, "Control flow"; issue 31).

One shape is accepted: a single-block loop (the block branches back to its
own start) that clears the lowest set bit of one integer phi, its mask M,
per iteration and branches back while the cleared mask is not 0 -- the
loop over the active lanes that a hand-written iterative reduction is
(ballot, cttz, readlane, M & (M - 1)), and the Iterative strategy LLVM's
own wave.reduce and atomic optimizer emit for the GPU.

The bound is proved, not assumed, by the same one-iteration argument the
GPU side's `cfg.lane_loop` makes: from ANY values of the block's phis (fresh
unknowns, every lane), one run of the body gives M' = M & (M - 1) and
branches back exactly when M' != 0.  A lane that enters with M = M0 then
runs its body once when M0 = 0, else once per set bit of M0, lowest first
(at most the mask's width: 32 or 64 iterations), the iteration for bit j
starting with M = M0 minus its bits below j.  That is how the loop runs
here: one guarded iteration per bit, every value the body defines merged
lane by lane with its earlier iterations' (a lane leaves with its last
iteration's values), the loop-carried phis likewise.

Cross-lane operations in the body run with EXEC = the lanes of that
iteration.  Matching iteration j of every lane is LLVM's convergence (the
n-th dynamic instance of each lane together) only when every lane's mask is
the same, so a body with a cross-lane call also needs a proof that M0 is
the same in every lane that enters (true of a ballot); without it the loop
is unsupported.

Any other loop is unsupported, named by its branch line and header label.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .. import smt
from .llir import Function, Inst
from .types import Lanes, Unsupported

if TYPE_CHECKING:
    from .sem import IRRun

# z3 resource units for each one-iteration question (a count of solver
# steps, never a clock: a busy machine does not change the answer)
LOOP_RLIMIT = 50_000_000

# the mask phi found for each loop block (function, block), for a run on a
# backend with no unknowns (a counterexample's replay): (its key or None)
_FOUND: dict[tuple[str, str, int], str | None] = {}


def self_loops(fn: Function, by_block: dict[int, list[Inst]]) -> set[int]:
    """The blocks whose terminator branches back to the block itself."""
    out: set[int] = set()
    for b, insts in by_block.items():
        t = insts[-1] if insts else None
        if t is not None and t.opcode == "br" and b in t.targets:
            out.add(b)
    return out


def _unsupported(t: Inst, fn: Function, b: int, why: str) -> Exception:
    return Unsupported(t.span, f"loop at %{fn.block_names[b]}: {why} (accepted: a one-block loop that clears the "
                               "lowest set bit of an integer phi and branches back while it is not 0)")


def _fresh_like(B: Any, ty: str, name: str, W: int) -> Lanes | None:
    if ty == "i32":
        return Lanes([B.fresh(f"{name}.{i}") for i in range(W)], [False] * W, 32)
    if ty == "i64":
        return Lanes([B.fresh(f"{name}.{i}") for i in range(W)], [False] * W, 64,
                     hi=[B.fresh(f"{name}.hi.{i}") for i in range(W)])
    return None


def _words(x: Lanes, i: int) -> list[Any]:
    return [x.vals[i]] if x.hi is None else [x.vals[i], x.hi[i]]


def _find_mask(run: IRRun, fn: Function, b: int, phis: list[Inst], body: list[Inst], term: Inst,
               back_on_true: bool, timeout: float) -> str | None:
    """The key of the phi the loop counts down (see the module's doc), or
    None when no phi has the shape."""
    B: Any = run.B
    W = run.wave
    key = (fn.name, fn.block_names[b], W)
    if getattr(B, "session", None) is None:  # no unknowns: the symbolic run's answer
        return _FOUND.get(key)
    # (any EXEC: a mask computed through a cross-lane call must shrink so
    # under every EXEC, not only the one the run has)
    lo = B.fresh(f"irloop.{fn.name}.{b}.exec_lo")
    hi = B.fresh(f"irloop.{fn.name}.{b}.exec_hi") if W == 64 else B.const(0)
    act = [B.bit(lo if i < 32 else hi, i % 32) for i in range(W)]
    probe = type(run)(B, W, run.target, lo, hi, act, dict(run.assume), fresh=run.fresh)
    probe.env = dict(run.env)
    probe.workitem_x = run.workitem_x
    probe._fn_insts = fn.insts
    cands: list[tuple[Inst, Lanes]] = []
    for p in phis:
        x = _fresh_like(B, p.type, f"irloop.{fn.name}.{b}.{p.key}", W)
        if x is None:
            x = run.env.get(p.key)
            if x is None:
                return None
        else:
            cands.append((p, x))
        probe.env[p.key] = x
    try:
        for ins in body:
            probe.cur = ins
            probe.env[ins.key] = probe.step(ins)
        probe.cur = term
        cond = probe.operand(term.operands[0])
    except Unsupported:
        return None
    back = [B.ne(cond.vals[i], 0) if back_on_true else B.eq(cond.vals[i], 0) for i in range(W)]
    for p, m in cands:
        latch = next((o for o, t in zip(p.operands, p.targets) if t == b), None)
        if latch is None:
            continue
        try:
            nxt = probe.operand(latch)
        except Unsupported:
            continue
        conds = []
        for i in range(W):
            old, new = _words(m, i), _words(nxt, i)
            if len(old) != len(new):
                break
            if len(old) == 1:
                want = [B.and_(old[0], B.sub(old[0], B.const(1)))]
            else:
                borrow = B.bool_value(B.eq(old[0], B.const(0)))
                want = [B.and_(old[0], B.sub(old[0], B.const(1))), B.and_(old[1], B.sub(old[1], borrow))]
            cleared = B.and_b(*(B.eq(x, y) for x, y in zip(new, want)))
            nonzero = B.or_b(*(B.ne(x, B.const(0)) for x in new))
            conds.append(B.and_b(B.not_b(nxt.poison[i]), cleared,
                                 B.or_b(B.and_b(back[i], nonzero), B.and_b(B.not_b(back[i]), B.not_b(nonzero)))))
        if len(conds) != W:
            continue
        q = smt.Query(timeout, session=B.session)
        q.add(B.not_b(B.and_b(*conds)))
        if q.check(rlimit=LOOP_RLIMIT) == "unsat":
            _FOUND[key] = p.key
            return p.key
    _FOUND[key] = None
    return None


def _same_everywhere(run: IRRun, here: list[Any], m0: Lanes, timeout: float) -> bool:
    """Whether every lane that enters has the same mask (proved)."""
    B: Any = run.B
    W = run.wave
    if getattr(B, "session", None) is None:
        firsts = [i for i in range(W) if here[i]]
        return all(_words(m0, i) == _words(m0, firsts[0]) for i in firsts) if firsts else True
    ref = _words(m0, W - 1)
    for i in range(W - 2, -1, -1):  # the first entering lane's mask
        ref = [B.ite(here[i], a, r) for a, r in zip(_words(m0, i), ref)]
    bad = [B.and_b(here[i], B.or_b(*(B.ne(a, r) for a, r in zip(_words(m0, i), ref)))) for i in range(W)]
    q = smt.Query(timeout, session=B.session)
    q.add(B.or_b(*bad))
    return q.check(rlimit=LOOP_RLIMIT) == "unsat"


def _merge(B: Any, lanes: list[Any], new: Lanes, old: Lanes | None) -> Lanes:
    """`new` in `lanes`, `old` elsewhere (piece by piece for a wide value)."""
    W = len(lanes)
    if old is None:
        return replace(new, poison=[B.or_b(new.poison[i], B.not_b(lanes[i])) for i in range(W)])
    vals = [B.ite(lanes[i], new.vals[i], old.vals[i]) for i in range(W)]
    pois = [B.ite(lanes[i], new.poison[i], old.poison[i]) for i in range(W)]
    hi = None
    if new.hi is not None and old.hi is not None:
        hi = [B.ite(lanes[i], new.hi[i], old.hi[i]) for i in range(W)]
    parts = None
    if new.parts is not None and old.parts is not None and len(new.parts) == len(old.parts):
        parts = [_merge(B, lanes, a, o) for a, o in zip(new.parts, old.parts)]
    elif new.parts is not None:
        raise TypeError("a value of several parts with no earlier value to merge with")
    return replace(new, vals=vals, poison=pois, hi=hi if new.hi is not None else None, parts=parts, words=None)


def run_loop(run: IRRun, fn: Function, b: int, insts: list[Inst], here: list[Any],
             go: Callable[[int, int, list[Any]], None], edge_of: dict[tuple[int, int], list[Any]],
             timeout: float = 30.0) -> None:
    """Run loop block `b` of `fn` in `run` (see the module's doc), from the
    lanes `here` that enter it; then send them all along the exit edge."""
    B, W = run.B, run.wave
    term = insts[-1]
    phis = [i for i in insts if i.opcode == "phi"]
    if insts[:len(phis)] != phis:
        raise _unsupported(term, fn, b, "a phi after the block's first instructions")
    body = insts[len(phis):-1]
    if len(term.targets) != 2 or term.targets[0] == term.targets[1]:
        raise _unsupported(term, fn, b, "a branch back on both edges (it never leaves)")
    back_on_true = term.targets[0] == b
    exit_blk = term.targets[1] if back_on_true else term.targets[0]
    if any(i.opcode in ("store", "load", "atomicrmw", "cmpxchg", "fence") for i in body):
        raise _unsupported(term, fn, b, "a loop that accesses memory")
    if any(i.key in run.wwm_keys for i in insts):
        raise _unsupported(term, fn, b, "a loop with whole-wave-mode values")
    # each phi's value on entry: the incoming edges from outside the loop
    entry: dict[str, Lanes] = {}
    for p in phis:
        keep = [(o, t) for o, t in zip(p.operands, p.targets) if t != b]
        if not keep:
            raise _unsupported(term, fn, b, f"phi {p.name or p.key} with no value on entry")
        run.cur = p
        entry[p.key] = run.phi(replace(p, operands=[o for o, _ in keep], targets=[t for _, t in keep]), b, edge_of,
                               here)
    mask = _find_mask(run, fn, b, phis, body, term, back_on_true, timeout)
    if mask is None:
        raise _unsupported(term, fn, b, "its trip count is not bounded by the lanes")
    m0 = entry[mask]
    cross = any(i.opcode == "call" and i.callee.startswith("llvm.amdgcn.") for i in body)
    if cross and not _same_everywhere(run, [B.and_b(a, h) for a, h in zip(run.act, here)], m0, timeout):
        raise _unsupported(term, fn, b, "its mask is not proved the same in every lane, and its body runs a "
                                        "cross-lane operation")
    width = 32 if m0.hi is None else 64
    bits = [[B.bit(_words(m0, i)[j // 32], j % 32) for j in range(width)] for i in range(W)]
    run.ub += [B.and_b(here[i], m0.poison[i]) for i in range(W)]  # (its first branch is on poison)
    zero = [B.and_b(here[i], B.not_b(B.or_b(*bits[i]))) for i in range(W)]

    def mask_at(j: int | None) -> Lanes:
        """M at the iteration for bit j (None: the mask is 0)."""
        if j is None:
            return Lanes([B.const(0)] * W, [False] * W, width, hi=None if width == 32 else [B.const(0)] * W)
        now = [[False] * j + [True] + bits[i][j + 1:] for i in range(W)]
        lo = [B.from_bits(now[i][:32]) for i in range(W)]
        hi = [B.from_bits(now[i][32:]) for i in range(W)] if width == 64 else None
        return Lanes(lo, [False] * W, width, hi=hi)

    carried = dict(entry)
    defined: dict[str, Lanes] = {}
    iterations: list[tuple[list[Any], int | None]] = [(zero, None)]
    iterations += [([B.and_b(here[i], bits[i][j]) for i in range(W)], j) for j in range(width)]
    latch_ops = {p.key: next(o for o, t in zip(p.operands, p.targets) if t == b) for p in phis}
    for lanes, j in iterations:
        if all(x is False for x in lanes):
            continue
        run.here = lanes
        run._sync_exec()
        m = mask_at(j)
        for p in phis:
            run.env[p.key] = _merge(B, lanes, m, None) if p.key == mask else carried[p.key]
            defined[p.key] = run.env[p.key] if p.key not in defined else _merge(B, lanes, run.env[p.key],
                                                                                   defined[p.key])
        for ins in body:
            run.cur = ins
            run.whole = ins.key in run.wwm_keys
            out = run.step(ins)
            out = run._map_pieces(ins.type, [out], run._off_path(lanes))
            run.env[ins.key] = out
            defined[ins.key] = out if ins.key not in defined else _merge(B, lanes, out, defined[ins.key])
        run.whole = False
        run.cur = term
        cond = run.operand(term.operands[0])
        run.ub += [B.and_b(lanes[i], cond.poison[i]) for i in range(W)]  # a branch on poison
        for p in phis:
            carried[p.key] = _merge(B, lanes, run.operand(latch_ops[p.key]), carried[p.key])
    # after the loop: in each lane, the values of its last iteration (a phi's: at that iteration's start)
    run.here = here
    run._sync_exec()
    for k, v in defined.items():
        run.env[k] = v
    for ins in insts[:-1]:
        run.cur = ins
        run._ran(ins)
    go(b, exit_blk, here)


def cttz(run: IRRun, ins: Inst) -> Lanes:
    """llvm.cttz.i32(x, is_zero_poison): the number of trailing zero bits of
    x, 32 for 0 (poison there when the flag is true); llvm.ctlz.i32 the
    leading zero bits.  [S:ir-cttz]"""
    B, W = run.B, run.wave
    x = run.operand(ins.operands[0])
    flag = ins.operands[1]
    lead = ins.callee == "llvm.ctlz.i32"
    if x.width != 32 or x.hi is not None or flag.kind != "const":
        raise run._unsupported(f"@{ins.callee} (only llvm.cttz.i32/ctlz.i32 with a constant flag)")
    vals, pois = [], []
    for i in range(W):
        v: Any = B.const(32)
        for k in (range(32) if lead else range(31, -1, -1)):  # the bit that wins comes last
            v = B.ite(B.bit(x.vals[i], k), B.const(31 - k if lead else k), v)
        vals.append(v)
        zero = B.eq(x.vals[i], B.const(0))
        pois.append(B.or_b(x.poison[i], zero) if flag.value else x.poison[i])
    return Lanes(vals, pois, 32)
