"""Sub-dword vector memory accesses: the 8- and 16-bit global, flat and
buffer loads and stores, as data and lane functions  [S:mem16-access].

verify/tv/bytemem.py runs them on `verify tv`'s byte-granular memory; what
one instruction does to one lane is written here once, against the backend
protocol (concrete and symbolic alike):

* a store writes the low `size` bytes of its data register (``_d16_hi``:
  of bits 31:16), lowest address first (little-endian)  [S:mem16-access];
* a load zero- (``ubyte``/``ushort``, GFX11+ ``u8``/``u16``) or
  sign-extends (``sbyte``/``sshort``, ``i8``/``i16``) the bytes read to 32
  bits; a D16 load (``_d16``, ``_d16_hi``) writes only bits 15:0 (31:16) of
  its destination with the 16-bit value (a byte zero- or sign-extended to 16
  bits) and leaves the other half as it was where the target preserves it
  (LLVM's `d16PreservesUnusedBits`: GFX9 without SRAM ECC, GFX10+), else the
  other half is unknown  [S:mem16-d16].

Legality, as llvm-mc-22 takes them (tests/test_tv_mem16.py compares): the
GFX9/10 spellings (``global_store_short``, ``flat_load_ubyte_d16_hi``,
``buffer_load_sshort`` ...) on every generation that has the space
(global: GFX9+; flat and buffer: GFX8+; the D16 forms GFX9+), the GFX11
spellings (``global_store_b16``, ``flat_load_d16_hi_u8``,
``buffer_load_i16`` ...) on GFX11+ only  [S:mem16-legal].

>>> a = parse("global_store_short_d16_hi"); (a.store, a.size, a.hi)
(True, 2, True)
>>> from verify.backend import Concrete
>>> store_bytes(Concrete(), 0xAABBCCDD, a)
[187, 170]
>>> l = parse("global_load_sbyte_d16_hi"); hex(load_value(Concrete(), 0x80, 0x12345678, l))
'0xff805678'
>>> hex(load_value(Concrete(), 0x8001, 0, parse("global_load_i16")))
'0xffff8001'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..target import FEATURES, Target, needs_text

# GFX9/10 spellings (GFX11+ keeps them as aliases) -> (store, bytes, d16, hi, signed)
_OLD = {
    "store_byte": (True, 1, False, False, False), "store_short": (True, 2, False, False, False),
    "store_byte_d16_hi": (True, 1, False, True, False), "store_short_d16_hi": (True, 2, False, True, False),
    "load_ubyte": (False, 1, False, False, False), "load_sbyte": (False, 1, False, False, True),
    "load_ushort": (False, 2, False, False, False), "load_sshort": (False, 2, False, False, True),
    "load_ubyte_d16": (False, 1, True, False, False), "load_ubyte_d16_hi": (False, 1, True, True, False),
    "load_sbyte_d16": (False, 1, True, False, True), "load_sbyte_d16_hi": (False, 1, True, True, True),
    "load_short_d16": (False, 2, True, False, False), "load_short_d16_hi": (False, 2, True, True, False),
}
# the GFX11 spellings
_NEW = {
    "store_b8": (True, 1, False, False, False), "store_b16": (True, 2, False, False, False),
    "store_d16_hi_b8": (True, 1, False, True, False), "store_d16_hi_b16": (True, 2, False, True, False),
    "load_u8": (False, 1, False, False, False), "load_i8": (False, 1, False, False, True),
    "load_u16": (False, 2, False, False, False), "load_i16": (False, 2, False, False, True),
    "load_d16_u8": (False, 1, True, False, False), "load_d16_hi_u8": (False, 1, True, True, False),
    "load_d16_i8": (False, 1, True, False, True), "load_d16_hi_i8": (False, 1, True, True, True),
    "load_d16_b16": (False, 2, True, False, False), "load_d16_hi_b16": (False, 2, True, True, False),
}
_NAME = re.compile(r"^(global|flat|buffer)_(\w+)$")


@dataclass(frozen=True)
class SubDword:
    """One sub-dword access instruction."""

    mnemonic: str
    space: str  # "global", "flat", "buffer"
    store: bool
    size: int  # bytes accessed: 1 or 2
    d16: bool  # a load writing 16 bits of its destination
    hi: bool  # _d16_hi: the data is bits 31:16 of the register
    signed: bool  # a load's extension
    gfx11_name: bool  # spelled as GFX11 does (_b16, _u8, ...)


def parse(mnemonic: str) -> SubDword | None:
    """The access `mnemonic` names, or None (not a sub-dword access)."""
    m = _NAME.match(mnemonic)
    if m is None:
        return None
    rest = m.group(2)
    row = _OLD.get(rest)
    new = row is None
    if row is None:
        row = _NEW.get(rest)
    if row is None:
        return None
    store, size, d16, hi, signed = row
    return SubDword(mnemonic, m.group(1), store, size, d16, hi, signed, new)


def legal(acc: SubDword, target: Target) -> str | None:
    """Why `target` has no such instruction (llvm-mc-22's rule), or None  [S:mem16-legal]."""
    need = [f for f, wanted in (("mem_global", acc.space == "global"), ("mem_d16", acc.d16 or acc.hi),
                                ("mem_gfx11_names", acc.gfx11_name)) if wanted]
    for f in need:
        if not target.has(f):
            return f"{acc.mnemonic} needs {needs_text(f)} ({target.name} has no {FEATURES[f].what})"
    return None


def d16_preserves(target: Target) -> bool:
    """A D16 load leaves the other half of its destination as it was
    (LLVM's d16PreservesUnusedBits: GFX9+ without SRAM ECC)  [S:mem16-d16]."""
    return target.has("d16_preserves")


def store_bytes(B: Any, data: Any, acc: SubDword) -> list[Any]:
    """The bytes a store writes from its 32-bit data register, lowest address first."""
    base = 16 if acc.hi else 0
    return [B.and_(B.lshr(data, B.const(base + 8 * k)) if base + 8 * k else data, B.const(0xFF))
            for k in range(acc.size)]


def _extend(B: Any, x: Any, bits: int, to: int, signed: bool) -> Any:
    """`x` (`bits` wide, zero above) zero- or sign-extended to `to` bits."""
    if not signed:
        return x
    sign = 1 << (bits - 1)
    return B.and_(B.sub(B.xor(x, B.const(sign)), B.const(sign)), B.const((1 << to) - 1))


def load_value(B: Any, loaded: Any, old: Any, acc: SubDword) -> Any:
    """The destination register after a load of `loaded` (its bytes
    little-endian, zero above); `old`: a D16 load's other half, the register
    before it where the target preserves it (`d16_preserves`), else an
    unknown value the caller made."""
    if not acc.d16:
        return _extend(B, loaded, 8 * acc.size, 32, acc.signed)
    v16 = _extend(B, loaded, 8 * acc.size, 16, acc.signed)
    if acc.hi:
        return B.or_(B.shl(v16, B.const(16)), B.and_(old, B.const(0xFFFF)))
    return B.or_(v16, B.and_(old, B.const(0xFFFF0000)))
