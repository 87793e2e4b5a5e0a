"""NEG/ABS source modifiers on 16-bit float sources (``-|v0.l|``, ``|v1|``,
``neg(v2)``) in the VOP3 (_e64) forms of the f16 ops (verify/ops/vhalf.py,
vhalf2.py): parsed off the operand, kept as the ``neg``/``abs`` bit tuples
per source (as verify/ops/valu.py's ValuF32 keeps them for f32), applied to
the 16 bits the op reads: ABS clears bit 15, NEG then flips it (bit 31 for
an f32 source); and the packed f16 ops' op_sel/op_sel_hi/neg_lo/neg_hi.
[S:half2-srcmods] [S:packed16]"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..backend import Backend, Value
from ..diag import InputError, Span
from ..ir import Imm, Instr
from ..syntax import Line, operand_text
from .base import LaneFn, Mod, Modifiers, OpDef
from .packed16 import const_half
from .valu import split_srcmods
from .wide16 import half_of

if TYPE_CHECKING:
    from ..machine import Machine
    from ..target import Target


def strip_mods(line: Line, enc: str, slots: Sequence[int]) -> tuple[Line, tuple[int, ...], tuple[int, ...]]:
    """The line with the NEG/ABS spellings taken off operands `slots`, and
    the (neg, abs) bits per slot.  Only the VOP3 form (enc "e64") has the
    modifier bits; elsewhere the line is left as written (a modifier then is
    an operand verify does not know: the instruction is not modelled).
    [S:half2-srcmods]"""
    neg, ab = [0] * len(slots), [0] * len(slots)
    if enc != "e64":
        return line, tuple(neg), tuple(ab)
    ops = list(line.operands)
    for j, k in enumerate(slots):
        if k < len(ops):
            text, span = ops[k]
            t, n, a, shift = split_srcmods(text)
            ops[k] = (t, span.shifted(shift))
            neg[j], ab[j] = n, a
    return dataclasses.replace(line, operands=ops), tuple(neg), tuple(ab)


def with_mods(ins: Instr, neg: tuple[int, ...], ab: tuple[int, ...]) -> Instr:
    extra = [(name, v) for name, v in (("abs", ab), ("neg", neg)) if any(v)]
    return dataclasses.replace(ins, mods=tuple(sorted(ins.mods + tuple(extra)))) if extra else ins


def srcmod(B: Backend, x: Value, neg: int, ab: int, sign: int = 0x8000) -> Value:
    """ABS clears the sign bit, then NEG flips it (``-|x|``).  [S:half2-srcmods]"""
    if ab:
        x = B.and_(x, B.const(sign - 1))
    return B.xor(x, B.const(sign)) if neg else x


def mods_of(ins: Instr, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return ins.mod("neg", (0,) * n), ins.mod("abs", (0,) * n)


def modified(fn: LaneFn, ins: Instr, n: int) -> LaneFn:
    """`fn` of `n` f16 sources, each first under its NEG/ABS bits."""
    neg, ab = mods_of(ins, n)
    if not (any(neg) or any(ab)):
        return fn

    def g(B: Any, *xs: Value) -> Value:
        return fn(B, *(srcmod(B, x, neg[k], ab[k]) for k, x in enumerate(xs)))
    return g


def print_mods(op: OpDef, ins: Instr, target: Target | None, slots: Sequence[int]) -> str:
    """The instruction as LLVM writes it, NEG/ABS on the sources `slots`."""
    neg, ab = mods_of(ins, len(slots))
    texts = [operand_text(o) for o in ins.operands]
    for j, k in enumerate(slots):
        if ab[j]:
            texts[k] = f"|{texts[k]}|"
        if neg[j]:
            texts[k] = f"-{texts[k]}"
    plain = dataclasses.replace(ins, mods=tuple((n, v) for n, v in ins.mods if n not in ("neg", "abs")))
    mods = op.modifiers(ins.enc).print(plain, target)
    return " ".join(x for x in (ins.mnemonic, ", ".join(texts), mods) if x)




# ---- packed (VOP3P) f16 ops: op_sel, op_sel_hi, neg_lo, neg_hi ---------------------

def _bits(what: str, n: int) -> Callable[[str | None, Span], tuple[int, ...]]:
    def parse(value: str | None, span: Span) -> tuple[int, ...]:
        m = re.fullmatch(r"\[\s*" + r"\s*,\s*".join([r"([01])"] * n) + r"\s*\]", value or "")
        if m is None:
            raise InputError(span, f"{what} takes {n} bits: [{','.join(f'src{k}' for k in range(n))}]")
        return tuple(int(g) for g in m.groups())
    return parse


def _mod(name: str, n: int, default: int) -> Mod:
    return Mod(name, _bits(name, n), list(itertools.product((0, 1), repeat=n)), (default,) * n,
               lambda v, t: "[" + ",".join(str(b) for b in v) + "]")


def pk_mods(n: int) -> Modifiers:
    """op_sel, op_sel_hi (default all ones), neg_lo, neg_hi of an `n`-source
    packed f16 op.  [S:packed16] [S:half2-srcmods]"""
    return Modifiers(_mod("op_sel", n, 0), _mod("op_sel_hi", n, 1), _mod("neg_lo", n, 0), _mod("neg_hi", n, 0))


def pk_run(m: Machine, ins: Instr, fn: LaneFn, n: int) -> None:
    """vD = fn on the low halves op_sel picks | fn on the halves op_sel_hi
    picks << 16, a source's half negated (bit 15 flipped) where neg_lo /
    neg_hi says, for the low / high result.  A constant's half verify does
    not pin makes the result unknown.  [S:packed16] [S:half2-srcmods]"""
    B, W = m.B, m.W
    dst, *srcs = ins.operands
    sel, selhi = ins.mod("op_sel", (0,) * n), ins.mod("op_sel_hi", (1,) * n)
    neg = (ins.mod("neg_lo", (0,) * n), ins.mod("neg_hi", (0,) * n))
    en = m.actives()
    m.note_lanes(en, f"computed by {ins.mnemonic}")
    halves: list[list[list[Any]]] = []  # [operand][lo/hi] -> lane values
    for k, op in enumerate(srcs):
        hs = []
        for j, hi in enumerate((sel[k], selhi[k])):
            if isinstance(op, Imm):
                c = const_half(op, bool(hi))
                if c is None:
                    m.write_v(dst.index, m.unknown_lanes(f"{operand_text(dst)}@{m.line}(a constant's unpinned half)"), en)
                    return
                xs = [B.const(c)] * W
            else:
                xs = [half_of(B, x, bool(hi)) for x in m.read(op)]
            hs.append([srcmod(B, x, neg[j][k], 0) for x in xs])
        halves.append(hs)
    res = [B.or_(fn(B, *(h[0][i] for h in halves)), B.shl(fn(B, *(h[1][i] for h in halves)), B.const(16)))
           if en[i] is not False else 0 for i in range(W)]
    m.write_v(dst.index, res, en)
