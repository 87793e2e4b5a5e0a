"""Intrinsic immediates as LLVM takes them (docs/tv.md, "Immediates").

LLVM accepts a DPP `row_mask`/`bank_mask` above 15 and keeps its low 4 bits
when it encodes the instruction ([S:dpp-mask-truncate]): llc prints the
value whole and llvm-mc encodes the low bits.  verify follows LLVM, on both
sides, and says so in a note: the IR's mask (verify/tv/sem.py masks it) and
the printed code's (:func:`dpp_masks`, before the code is read).
"""

from __future__ import annotations

import re

from .llir import Function

_DPP = {"llvm.amdgcn.update.dpp": 3, "llvm.amdgcn.mov.dpp": 2}  # intrinsic -> index of row_mask
_MASK = re.compile(r"\b(row_mask|bank_mask):(0x[0-9a-fA-F]+|-?\d+)")


def _kept(m: re.Match[str]) -> str:
    return f"{m.group(1)}:{int(m.group(2), 0) & 0xF:#x}"


def dpp_masks(asm: str) -> tuple[str, list[str]]:
    """The code with every DPP mask wider than 4 bits cut to its low 4 bits
    (as llvm-mc encodes it), and a note per distinct mask cut."""
    notes: list[str] = []

    def cut(m: re.Match[str]) -> str:
        v = int(m.group(2), 0)
        if 0 <= v <= 0xF:
            return m.group(0)
        note = (f"GPU code: {m.group(0)} is encoded as {_kept(m)} (the field is 4 bits; llvm-mc keeps the low "
                f"bits) [S:dpp-mask-truncate]")
        if note not in notes:
            notes.append(note)
        return _kept(m)
    return _MASK.sub(cut, asm), notes


def immediate_notes(fn: Function, asm: object = None) -> list[str]:
    """A note per IR DPP mask above 15 (LLVM keeps its low 4 bits) and per
    mask the compiled code `asm` (when it is text) prints wider."""
    out: list[str] = []
    for ins in fn.insts:
        callee = ins.callee
        base = next((k for k in _DPP if callee.startswith(k + ".")), None)
        if base is None:
            continue
        first = _DPP[base]
        for k, name in ((first, "row_mask"), (first + 1, "bank_mask")):
            if k < len(ins.operands) and ins.operands[k].kind == "const":
                v = ins.operands[k].value
                if v > 0xF:
                    out.append(f"{ins.span}: note: {name} {v} ({v:#x}) is taken as {v & 0xF:#x}: LLVM accepts it "
                               f"and encodes the low 4 bits [S:dpp-mask-truncate]")
    if isinstance(asm, str):
        out += dpp_masks(_function_code(asm, fn.name))[1]
    return out


def _function_code(asm: str, name: str) -> str:
    """The part of the printed module that is the function `name` (its label
    to its .Lfunc_end), or all of it when it cannot be told."""
    m = re.search(rf"^\"?{re.escape(name)}\"?:.*?(?=^\.Lfunc_end|\Z)", asm, re.M | re.S)
    return m.group(0) if m else asm
