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

import re
from dataclasses import dataclass

from .diag import InputError, Span
from .ir import Imm, SReg, VReg

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


def tokens(text: str, col0: int) -> list[tuple[str, int, bool]]:
    """Split at whitespace/commas outside brackets and quotes.

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
    toks = tokens(rest, lead + m.end() + 1)
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


def parse_operand(text: str, span: Span) -> VReg | SReg | Imm:
    t = text.strip()
    low = t.lower()
    m = re.fullmatch(r"v(\d{1,9})", low)
    if m:
        n = int(m.group(1))
        if n >= NUM_VGPRS:
            raise InputError(span, f"VGPR index out of range: '{t}' (v0-v{NUM_VGPRS - 1})")
        return VReg(n)
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
    if _INT_RE.match(low):
        v = int_text(low, span)
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
