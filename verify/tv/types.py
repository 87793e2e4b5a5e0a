"""IR types as `verify tv` holds them: every value is made of 32-bit lane
words, as LLVM's AMDGPU legalisation splits it (i64, double and 64-bit
pointers into a low and a high dword, a vector into its elements, 16-bit
elements packed two to a register in the calling convention).

A value of a scalar type of at most 32 bits is one `Lanes` (zero-extended
in the 32-bit lane value); a 64-bit scalar is one `Lanes` with `hi`; a
vector is a `Lanes` whose `parts` are its elements (`ty` names the vector).
Its *pieces* are the 32-bit words of its elements in order (a 64-bit
element: low then high), each with its element's poison; a cross-lane
intrinsic of a wide type moves each piece as the i32 intrinsic would (the
moves are lane movements, blind to the bits they move: what LLVM's
legalisation emits, one 32-bit move per dword).  Its *slots* say where
each piece sits in the calling convention's registers: (register,
bit offset, width).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..diag import Span, VerifyError


class Unsupported(VerifyError):
    """An IR construct verify tv does not model (the function is "unsupported")."""

    def __init__(self, span: Span | None, msg: str) -> None:
        super().__init__(msg)
        self.span = span
        self.msg = msg

    def line(self) -> str:
        where = f"{self.span.path}:{self.span.line}:{self.span.col}: " if self.span is not None else ""
        return f"{where}unsupported: {self.msg}"


@dataclass
class Lanes:
    """A wave of lane values with a poison condition per lane."""

    vals: list[Any]
    poison: list[Any]
    width: int = 32
    is_float: bool = False
    hi: list[Any] | None = None  # a 64-bit value (i64, double, a 64-bit pointer): the high halves
    parts: list[Lanes] | None = None  # a pair ({ i32, i32 }, the permlane swaps) or a vector: its elements
    ty: str = ""  # a vector: its type (vals and poison are then its first element's)
    # a vector of 16-bit elements: the dword (per lane) that holds the
    # elements of register r, where it is known as one term (an argument's
    # register, a cross-lane move's result): moved as it is, not re-packed
    words: dict[int, list[Any]] | None = None
    # a float result LangRef lets be either of two values (llvm.minnum of
    # +0.0 and -0.0): the other one per lane, where `alt_when` holds  [S:ir-minnum]
    alt: list[Any] | None = None
    alt_when: list[Any] | None = None


@dataclass(frozen=True)
class TType:
    text: str
    bits: int  # a scalar's width, or a vector element's
    kind: str  # "int", "fp" (half, bfloat, float, double), "ptr"
    n: int | None = None  # vector length (None: a scalar)
    members: tuple[TType, ...] | None = None  # a struct ({ i32, i32 }): its members (kind "struct")

    @property
    def is_f32(self) -> bool:
        """float: compared as a float (equal, or both NaN)."""
        return self.kind == "fp" and self.bits == 32 and self.n is None

    @property
    def elem(self) -> TType:
        if self.n is None:
            return self
        return scalar(self.text.split(" x ", 1)[1].rstrip(">").strip())  # type: ignore[return-value]

    @property
    def wide(self) -> bool:
        """More than one 32-bit piece, or a vector (or a struct)."""
        return self.n is not None or self.bits > 32 or self.members is not None

    def pieces(self) -> list[int]:
        """Each piece's width in bits (a 64-bit element: two 32-bit pieces)."""
        if self.members is not None:
            return [w for m in self.members for w in m.pieces()]
        e = self.elem
        per = [32, 32] if e.bits == 64 else [e.bits]
        return per * (self.n or 1)

    def slots(self) -> list[tuple[int, int, int]]:
        """(register, bit offset, width) of each piece in the calling
        convention: 16-bit vector elements two to a register, 32- and
        64-bit ones one dword each; a struct's members one after another,
        each from a register of its own (LLVM splits a returned struct into
        its members: `{ i16, i32 }` in v0 and v1)  [S:ir-aggregate]."""
        if self.members is not None:
            out: list[tuple[int, int, int]] = []
            for m in self.members:
                base = out[-1][0] + 1 if out else 0
                out += [(base + r, off, w) for r, off, w in m.slots()]
            return out
        e = self.elem
        if self.n is None:
            return [(0, 0, self.bits)] if self.bits <= 32 else [(0, 0, 32), (1, 0, 32)]
        if e.bits == 16:
            return [(k // 2, 16 * (k % 2), 16) for k in range(self.n)]
        if e.bits == 32:
            return [(k, 0, 32) for k in range(self.n)]
        return [(k, 0, 32) for k in range(2 * self.n)]

    @property
    def registers(self) -> int:
        return max(r for r, _, _ in self.slots()) + 1


_FP = {"half": 16, "bfloat": 16, "float": 32, "double": 64}
# address spaces verify gives values to: flat (0), global (1), constant (4)
# are 64-bit; local (3) and private (5) 32-bit (the AMDGPU data layout)
# pointer widths by address space (AMDGPU's data layout: p2 region/GDS and p6
# 32-bit constant are 32 bits; only p0/p1/p4 and p3 are accessed as memory)
_PTR = {0: 64, 1: 64, 2: 32, 3: 32, 4: 64, 5: 32, 6: 32}


def scalar(ty: str) -> TType | None:
    t = ty.strip()
    m = re.fullmatch(r"i(\d+)", t)
    if m and int(m.group(1)) in (1, 8, 16, 32, 64):
        return TType(t, int(m.group(1)), "int")
    if t in _FP:
        return TType(t, _FP[t], "fp")
    m = re.fullmatch(r"ptr(?:\s+addrspace\((\d+)\))?", t)
    if m:
        a = int(m.group(1) or 0)
        return TType(t, _PTR[a], "ptr") if a in _PTR else None
    return None


def ttype(ty: str) -> TType | None:
    """The type verify tv models for `ty`, or None."""
    t = ty.strip()
    m = re.fullmatch(r"<\s*(\d+)\s+x\s+(.+?)\s*>", t)
    if m:
        e = scalar(m.group(2))
        n = int(m.group(1))
        if e is None or e.bits < 16 or n < 1 or n > 32:  # (i1 and i8 vectors: not yet)
            return None
        return TType(t, e.bits, e.kind, n)
    return scalar(t)


def struct_type(ty: str) -> TType | None:
    """A literal struct type `{ T, ... }` of types verify models (i1
    members included; no nesting, no packed `<{ }>`), or None  [S:ir-aggregate]."""
    t = ty.strip()
    if not (t.startswith("{") and t.endswith("}")) or "{" in t[1:-1] or "}" in t[1:-1]:
        return None
    ms = [ttype(m) for m in t[1:-1].split(",")] if t[1:-1].strip() else []
    if not ms or any(m is None for m in ms):
        return None
    return TType(t, 0, "struct", None, tuple(m for m in ms if m is not None))


def rtype(ty: str) -> TType | None:
    """`ttype`, or a literal struct (`struct_type`): the types a function
    may return, and a value insertvalue/extractvalue reach."""
    return ttype(ty) or struct_type(ty)


def pieces_of(lv: Lanes, tt: TType) -> list[Lanes]:
    """The 32-bit pieces of value `lv` of type `tt`, each with its element's poison."""
    if tt.members is not None:
        assert lv.parts is not None and len(lv.parts) == len(tt.members)
        return [p for m, e in zip(tt.members, lv.parts) for p in pieces_of(e, m)]
    if tt.n is None:
        if tt.bits == 64:
            assert lv.hi is not None
            return [Lanes(lv.vals, lv.poison, 32), Lanes(lv.hi, lv.poison, 32)]
        return [lv]
    assert lv.parts is not None and len(lv.parts) == tt.n
    out: list[Lanes] = []
    for e in lv.parts:
        out += pieces_of(e, tt.elem)
    return out


def assemble(B: Any, tt: TType, pieces: list[Lanes]) -> Lanes:
    """The value of type `tt` made of `pieces` (`pieces_of`'s inverse; a
    64-bit element is poison where either of its pieces is)."""
    if tt.members is not None:
        parts, k = [], 0
        for m in tt.members:
            c = len(m.pieces())
            parts.append(assemble(B, m, pieces[k:k + c]))
            k += c
        return Lanes(parts[0].vals, parts[0].poison, 0, False, None, parts, tt.text)
    if tt.n is None:
        if tt.bits == 64:
            lo, hi = pieces
            return Lanes(lo.vals, [B.or_b(a, b) for a, b in zip(lo.poison, hi.poison)], 64, False, hi.vals)
        (p,) = pieces
        return Lanes(p.vals, p.poison, tt.bits, tt.is_f32)
    e = tt.elem
    k = 2 if e.bits == 64 else 1
    elems = [assemble(B, e, pieces[j:j + k]) for j in range(0, len(pieces), k)]
    return Lanes(elems[0].vals, elems[0].poison, tt.bits * (tt.n or 1), False, None, elems, tt.text)


def from_registers(B: Any, tt: TType, regs: list[list[Any]]) -> Lanes:
    """A well-defined value of type `tt` held in the calling convention's
    registers `regs` (lane values per 32-bit register)."""
    pieces = []
    W = len(regs[0])
    for r, off, w in tt.slots():
        vals = regs[r] if off == 0 and w == 32 else [
            B.and_(B.lshr(x, B.const(off)) if off else x, B.const((1 << w) - 1)) for x in regs[r]]
        pieces.append(Lanes(vals, [False] * W, w))
    out = assemble(B, tt, pieces)
    if tt.n is not None and tt.elem.bits == 16:
        out.words = {r: regs[r] for r in range(tt.registers)}
    return out


def register_image(tt: TType, pieces: list[int | None]) -> int | None:
    """The registers' bits (register k at bit 32k) a value's concrete pieces
    make (a counterexample's table); None if every piece is poison."""
    if all(p is None for p in pieces):
        return None
    return sum((p or 0) << (32 * r + off) for (r, off, _), p in zip(tt.slots(), pieces))


def ret_pieces(B: Any, tt: TType, regs: list[list[Any]]) -> list[list[Any]]:
    """Each piece of a value of type `tt` as the registers `regs` hold it
    (per lane), its bits above the piece's width cleared."""
    out = []
    for r, off, w in tt.slots():
        out.append(regs[r] if off == 0 and w == 32 else [
            B.and_(B.lshr(x, B.const(off)) if off else x, B.const((1 << w) - 1)) for x in regs[r]])
    return out


def kernarg_layout(ty: str) -> tuple[int, int, str] | None:
    """(size, alignment, .value_kind) of a kernel argument of type `ty` in
    the kernarg segment (the HSA ABI as LLVM's .amdgpu_metadata lists it:
    natural alignment, a 3-element vector padded to 4; a global or flat
    pointer `global_buffer`, an LDS pointer `dynamic_shared_pointer`), for
    the types verify models: whole dwords, and scalars of 8 or 16 bits
    (i8, i16, half, bfloat) in the bytes of the dword they share with their
    neighbours; a vector of pointers by value, as any vector (llc-22's
    metadata); None for the others (i1, vectors of 8-bit elements)."""
    tt = ttype(ty)
    if tt is None:
        return None
    if tt.kind == "ptr" and tt.n is None:
        a = re.fullmatch(r"ptr(?:\s+addrspace\((\d+)\))?", tt.text)
        space = int(a.group(1) or 0) if a else -1
        if space in (0, 1, 4):  # (constant: .address_space constant, still global_buffer)
            return 8, 8, "global_buffer"
        if space == 3:
            return 4, 4, "dynamic_shared_pointer"
        if space in (2, 5, 6):  # (.address_space region / private; p6, a 32-bit constant pointer: none)
            return 4, 4, "global_buffer"
        return None
    size = sum(tt.pieces()) // 8
    if tt.n is None and tt.bits in (8, 16):  # a sub-dword scalar (i8, i16, half, bfloat): its natural alignment
        return size, size, "by_value"
    if size % 4 or size == 0:  # (i1: not a whole byte of its own here)
        return None
    padded = size if tt.n != 3 else size // 3 * 4
    return padded, padded if padded & (padded - 1) == 0 else 4, "by_value"


def dword_address(B: Any, lo: Any, hi: Any, k: int) -> tuple[Any, Any]:
    """The 64-bit address (lo, hi) plus 4k bytes (the k-th dword of a wide
    access), written the same way for the IR and the GPU code."""
    if k == 0:
        return lo, hi
    c = B.const(4 * k)
    lo2 = B.add(lo, c)
    return lo2, B.add(hi, B.bool_value(B.ult(lo2, c)))
