"""AMDGPU assembly syntax as LLVM prints it: the lexer (comments, tokens,
mnemonic, operands and modifiers with exact columns), integers, register and
immediate operands, and their canonical text.

This module sits below the op registry (``verify.ops``): it knows no
instruction, only the shape of a line.  The registry owns every operand and
modifier rule; :mod:`verify.lowering_file` reads whole files with both.

>>> toks = split_line("v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf", Span("f", 1))
>>> toks.mnemonic, [t for t, _ in toks.operands], [k for k, _, _ in toks.mods]
('v_mov_b32_dpp', ['v1', 'v0'], ['quad_perm', 'row_mask'])
>>> parse_operand("s[2:3]", Span("f", 1))
SReg(names=('s2', 's3'))
>>> parse_operand("-1", Span("f", 1)).value == 0xFFFFFFFF
True
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass

from .diag import InputError, Span
from .ir import Imm, SReg, VHalf, VReg

NUM_VGPRS = 256
NUM_SGPRS = 106

SPECIAL_SREGS: dict[str, tuple[str, ...]] = {
    "exec": ("exec_lo", "exec_hi"),
    "exec_lo": ("exec_lo",),
    "exec_hi": ("exec_hi",),
    "vcc": ("vcc_lo", "vcc_hi"),
    "vcc_lo": ("vcc_lo",),
    "vcc_hi": ("vcc_hi",),
    "m0": ("m0",),
}


@dataclass
class Line:
    mnemonic: str
    mspan: Span
    operands: list[tuple[str, Span]]
    mods: list[tuple[str, str | None, Span]]  # (key, value or None, span of token)
    span: Span
    text: str


def strip_comment(line: str) -> str:
    out: list[str] = []
    quote = False
    k = 0
    while k < len(line):
        c = line[k]
        if c == '"':
            quote = not quote
        elif not quote and (c == ";" or c == "#" or line.startswith("//", k)):
            break
        out.append(c)
        k += 1
    return "".join(out).rstrip()


def tokens(text: str, col0: int, span: Span | None = None) -> list[tuple[str, int, bool]]:
    """Split at whitespace/commas outside brackets and quotes.  A comma with
    no token before it (``v2,, v0``, a leading one) or after it (a trailing
    one) is an error at its column (`span`: the line; llvm-mc refuses it too).

    Returns (token, 1-based column, preceded_by_comma)."""
    toks: list[tuple[str, int, bool]] = []
    depth = 0
    quote = False
    cur: list[str] = []
    start = 0
    comma = False
    pending_comma = False
    for k, c in enumerate(text):
        if quote:
            cur.append(c)
            if c == '"':
                quote = False
            continue
        if depth == 0 and (c.isspace() or c == ","):
            if cur:
                toks.append(("".join(cur), col0 + start, comma))
                cur = []
                comma = False
            if c == ",":
                if pending_comma or not toks:
                    where = Span(span.path, span.line, col0 + k) if span is not None else None
                    raise InputError(where, "expected an operand before ','")
                pending_comma = True
            continue
        if not cur:
            start = k
            comma = pending_comma
            pending_comma = False
        if c == '"':
            quote = True
        elif c in "[(":
            depth += 1
        elif c in "])":
            depth = max(0, depth - 1)
        cur.append(c)
    if cur:
        toks.append(("".join(cur), col0 + start, comma))
    elif pending_comma:
        where = Span(span.path, span.line, col0 + len(text.rstrip()) - 1) if span is not None else None
        raise InputError(where, "expected an operand after ','")
    return toks


_MOD_RE = re.compile(r"^([a-z_][a-z0-9_]*):(.*)$")


def split_line(text: str, span: Span) -> Line:
    body = strip_comment(text)
    lead = len(body) - len(body.lstrip())
    body = body.strip()
    m = re.match(r"\S+", body)
    assert m, "caller skips blank lines"
    mnemonic = m.group(0)
    mspan = Span(span.path, span.line, lead + 1)
    rest = body[m.end():]
    toks = tokens(rest, lead + m.end() + 1, span)
    operands: list[tuple[str, Span]] = []
    mods: list[tuple[str, str | None, Span]] = []
    in_mods = False
    for k, (tok, col, comma) in enumerate(toks):
        tspan = Span(span.path, span.line, col)
        if not in_mods and (k == 0 or comma) and not _MOD_RE.match(tok):
            operands.append((tok, tspan))
            continue
        if comma and in_mods:
            raise InputError(tspan, f"unexpected ',' before '{tok}'")
        in_mods = True
        mm = _MOD_RE.match(tok)
        if mm:
            mods.append((mm.group(1), mm.group(2), tspan))
        else:
            mods.append((tok, None, tspan))
    return Line(mnemonic.lower(), mspan, operands, mods, span, text.strip())


_INT_RE = re.compile(r"^-?(0x[0-9a-f]+|0b[01]+|[0-9]+)$", re.I)
MAX_INT_CHARS = 80  # any integer a 64-bit field can hold, in binary with its 0b; Python's int() refuses > 4300 digits


def int_text(text: str, span: Span) -> int:
    """The value of integer text that matches _INT_RE.  A decimal with a
    leading zero is refused: llvm-mc-22 reads ``010`` as octal 8 (and ``08`` as
    an error), Python's int() refuses it, so no reading is safe; so is text too
    long for any field.

    >>> int_text("010", Span("f", 1))
    Traceback (most recent call last):
    verify.diag.InputError: f:1:1: error: integer '010' has a leading zero, which llvm-mc reads as octal (8): write it in decimal without the zero, or in hex
    """
    t = text.strip()
    if len(t) > MAX_INT_CHARS:
        raise InputError(span, f"integer '{t[:12]}...' is too long ({len(t)} characters)")
    digits = t.lstrip("-")
    if len(digits) > 1 and digits[0] == "0" and digits[1].isdigit():
        octal = f"octal ({t[:len(t) - len(digits)]}{int(digits, 8)})" if set(digits) <= set("01234567") else \
            "octal, and refuses"
        raise InputError(span, f"integer '{t}' has a leading zero, which llvm-mc reads as {octal}: "
                               "write it in decimal without the zero, or in hex")
    return int(t, 0)


def parse_int(text: str, span: Span, what: str = "integer") -> int:
    if not _INT_RE.match(text.strip()):
        raise InputError(span, f"expected {what}, got '{text}'")
    return int_text(text, span)


# float text as llvm-mc-22 takes it: decimal with a point or an exponent, or a C99 hex float
# (each alternative reads its text one way: no backtracking over a long literal)
_FLOAT_RE = re.compile(r"^-?(\d+\.\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|\d+e[+-]?\d+|0x[0-9a-f]*(\.[0-9a-f]*)?p[+-]?\d+)$", re.I)
F32_MAX = 3.4028234663852886e38

# The float inline constants (every target in the table has 1/(2pi)): value ->
# (f32 bits, f64 bits, spelling).  A 32-bit operand holds the f32 pattern, a
# 64-bit operand the f64 one; 1/(2pi) is apart (INV_2PI_*): GFX8 added it, and
# a 64-bit operand takes it only as its exact f64 value.  [S:float-literals]
FLOAT_INLINE: dict[float, tuple[int, int, str]] = {
    v: (struct.unpack("<I", struct.pack("<f", v))[0], struct.unpack("<Q", struct.pack("<d", v))[0], t)
    for v, t in [(0.5, "0.5"), (-0.5, "-0.5"), (1.0, "1.0"), (-1.0, "-1.0"), (2.0, "2.0"), (-2.0, "-2.0"),
                 (4.0, "4.0"), (-4.0, "-4.0")]
}
INV_2PI_F32 = 0x3E22F983  # 1/(2pi) rounded to f32, spelled 0.15915494 by LLVM
INV_2PI_F64 = 0x3FC45F306DC9C882  # 1/(2pi) rounded to f64, spelled 0.15915494309189532 by LLVM
INV_2PI = struct.unpack("<d", struct.pack("<Q", INV_2PI_F64))[0]


def float_text(text: str) -> float | None:
    """The value of a float literal's text, None if the text is not one.

    >>> float_text("1.0"), float_text("-.5"), float_text("0x1.8p1"), float_text("1e1"), float_text("0x10")
    (1.0, -0.5, 3.0, 10.0, None)
    """
    t = text.strip()
    if not _FLOAT_RE.match(t):
        return None
    neg = t.startswith("-")
    body = t[1:] if neg else t
    v = float.fromhex(body) if body[:2].lower() == "0x" else float(body)
    return -v if neg else v


def f32_bits(v: float) -> int | None:
    """The binary32 pattern llvm-mc-22 encodes for a float literal in a 32-bit
    operand (round to nearest even), None where it rejects it: beyond the
    largest finite f32, or a nonzero value that becomes subnormal or zero and
    is not exact ("invalid operand for instruction").  [S:float-literals]

    >>> [hex(f32_bits(x)) for x in (1.0, -0.0, 0.1, 100.0, 2.0 ** -140)]
    ['0x3f800000', '0x80000000', '0x3dcccccd', '0x42c80000', '0x200']
    >>> f32_bits(1e40), f32_bits(1e-50), f32_bits(1.1754942e-38)
    (None, None, None)
    """
    if math.isnan(v) or abs(v) > F32_MAX:
        return None
    bits: int = struct.unpack("<I", struct.pack("<f", v))[0]
    back: float = struct.unpack("<f", struct.pack("<I", bits))[0]
    if v != 0 and bits & 0x7F800000 == 0 and back != v:  # underflow: tiny and inexact
        return None
    return bits


def fold64(v: int) -> int:
    """A 64-bit integer text whose signed 64-bit value fits in 32 bits is that
    value, as llvm-mc-22 reads it in any operand: ``0xffffffffffffffff`` is -1,
    ``0xffffffff80000000`` is -2147483648.  [S:literal64]

    >>> fold64(0xFFFFFFFFFFFFFFFF), fold64(0xFFFFFFFF80000000), fold64(0xFFFFFFFF00000000) == 0xFFFFFFFF00000000
    (-1, -2147483648, True)
    """
    return v - (1 << 64) if (1 << 64) - (1 << 31) <= v < (1 << 64) else v


def parse_operand(text: str, span: Span) -> VReg | SReg | Imm:
    t = text.strip()
    low = t.lower()
    m = re.fullmatch(r"v(\d{1,9})", low)
    if m:
        n = int(m.group(1))
        if n >= NUM_VGPRS:
            raise InputError(span, f"VGPR index out of range: '{t}' (v0-v{NUM_VGPRS - 1})")
        return VReg(n)
    m = re.fullmatch(r"v(\d{1,9})\.([lh])", low)
    if m:  # a true16 half (GFX11)  [S:true16]
        n = int(m.group(1))
        if n >= NUM_VGPRS:
            raise InputError(span, f"VGPR index out of range: '{t}' (v0-v{NUM_VGPRS - 1})")
        return VHalf(n, 1, m.group(2) == "h")
    m = re.fullmatch(r"v\[(\d{1,9}):(\d{1,9})\]", low)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if b < a or b >= NUM_VGPRS:
            raise InputError(span, f"bad VGPR range '{t}'")
        return VReg(a, b - a + 1)
    m = re.fullmatch(r"s(\d{1,9})", low)
    if m:
        n = int(m.group(1))
        if n >= NUM_SGPRS:
            raise InputError(span, f"SGPR index out of range: '{t}' (s0-s{NUM_SGPRS - 1})")
        return SReg((f"s{n}",), low)
    m = re.fullmatch(r"s\[(\d{1,9}):(\d{1,9})\]", low)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if b < a or b >= NUM_SGPRS:
            raise InputError(span, f"bad SGPR range '{t}'")
        if b - a == 1 and a % 2:
            raise InputError(span, f"SGPR pair '{t}' must start at an even register")
        return SReg(tuple(f"s{k}" for k in range(a, b + 1)), low)
    if low in SPECIAL_SREGS:
        return SReg(SPECIAL_SREGS[low], low)
    fv = float_text(low)
    if fv is not None:  # a float literal: its f32 pattern (a 64-bit operand reads the text again)
        fb = f32_bits(fv)
        if fb is None:
            raise InputError(span, f"float constant {t} is not representable as a 32-bit float")
        return Imm(fb, t)
    if _INT_RE.match(low):
        v = fold64(int_text(low, span))
        if not -(1 << 31) <= v < (1 << 32):
            raise InputError(span, f"constant {t} does not fit in 32 bits")
        return Imm(v & 0xFFFFFFFF, t)
    raise InputError(span, f"bad operand '{t}'")


def sreg_text(r: SReg) -> str:
    names = r.names
    for k, v in SPECIAL_SREGS.items():
        if v == names:
            return k
    if len(names) == 1:
        return names[0]
    a, b = int(names[0][1:]), int(names[-1][1:])
    return f"s[{a}:{b}]"


def operand_text(op: VReg | SReg | Imm) -> str:
    if isinstance(op, VReg):
        return op.text
    if isinstance(op, SReg):
        return sreg_text(op)
    if isinstance(op, Imm):
        fv = float_text(op.text)
        if fv is not None and fv in FLOAT_INLINE:  # kept a float: in a 64-bit operand it is the f64 value
            return FLOAT_INLINE[fv][2]
        if fv == INV_2PI:  # its exact f64 text: 1/(2pi) in an operand of either width
            return "0.15915494309189532"
        v = op.value
        if v >= 0x80000000 and v >= 0xFFFFFFF0:  # small negatives print as LLVM does
            return str(v - (1 << 32))
        return str(v) if v <= 64 else hex(v)
    raise TypeError(op)


def parse_param_value(text: str, span: Span) -> int | str:
    """A spec parameter: an integer, @input (per-lane input) or "string"."""
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return text[1:-1]
    if text.startswith("@") and re.fullmatch(r"@[A-Za-z_]\w*", text):
        return text
    if re.fullmatch(r"[A-Za-z_]\w*", text):  # a bare word: a string (op=umax)
        return text
    v = parse_int(text, span, "an integer, a name, @input or \"expression\"")
    if not -(1 << 31) <= v < (1 << 32):
        raise InputError(span, f"parameter value {text} does not fit in 32 bits")
    return v - (1 << 32) if v >= (1 << 31) else v
