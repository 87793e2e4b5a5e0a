"""AMDGPU assembly as LLVM prints it: tokenizer, operand parser, lowering
files and the canonical printer.

The parser is generic: it splits a line into mnemonic, operands and
modifiers with exact columns, and hands them to the op registry, which
owns every operand and modifier rule.  The same parser reads lowering
files and real ``llc`` output.

A lowering file is assembly with a header of ``; @key value`` comments, so
it stays valid input for llvm-mc::

    ; xor5: lane i reads lane i ^ 5 within each 16-lane row.
    ; @spec    cuda.shfl_xor mask=5 width=16
    ; @targets gfx9
    ; @waves   64
    ; @exec    any
    ; @input   x = v0
    ; @output  out = v1
    ; @clobbers v2, s[0:1]
    s_or_saveexec_b64 s[0:1], -1
    ...

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
from pathlib import Path

from .diag import InputError, Span, read_source
from .ir import Binding, Imm, Instr, Lowering, SReg, VReg

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
    out = []
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


def _tokens(text: str, col0: int) -> list[tuple[str, int, bool]]:
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
    toks = _tokens(rest, lead + m.end() + 1)
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


def parse_int(text: str, span: Span, what: str = "integer") -> int:
    if not _INT_RE.match(text.strip()):
        raise InputError(span, f"expected {what}, got '{text}'")
    return int(text.strip(), 0)


def parse_operand(text: str, span: Span):
    t = text.strip()
    low = t.lower()
    m = re.fullmatch(r"v(\d+)", low)
    if m:
        n = int(m.group(1))
        if n >= NUM_VGPRS:
            raise InputError(span, f"VGPR index out of range: '{t}' (v0-v{NUM_VGPRS - 1})")
        return VReg(n)
    m = re.fullmatch(r"v\[(\d+):(\d+)\]", low)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if b < a or b >= NUM_VGPRS:
            raise InputError(span, f"bad VGPR range '{t}'")
        return VReg(a, b - a + 1)
    m = re.fullmatch(r"s(\d+)", low)
    if m:
        n = int(m.group(1))
        if n >= NUM_SGPRS:
            raise InputError(span, f"SGPR index out of range: '{t}' (s0-s{NUM_SGPRS - 1})")
        return SReg((f"s{n}",), low)
    m = re.fullmatch(r"s\[(\d+):(\d+)\]", low)
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
        v = int(low, 0)
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


def operand_text(op) -> str:
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


# ---------------------------------------------------------------------------
# programs and lowering files


def parse_instr(text: str, span: Span) -> Instr:
    from .ops import lookup

    line = split_line(text, span)
    opdef, enc = lookup(line.mnemonic, line.mspan)
    return opdef.parse(line, enc)


def parse_program(lines: list[tuple[int, str]], path: str) -> list[Instr]:
    prog = []
    for lineno, text in lines:
        body = strip_comment(text).strip()
        if not body or body.endswith(":") or body.startswith("."):
            continue
        prog.append(parse_instr(text, Span(path, lineno, 1)))
    return prog


HEADER_KEYS = ("spec", "targets", "waves", "exec", "input", "output", "clobbers", "expect")
_HDR_RE = re.compile(r"^(\s*;\s*)@([A-Za-z_]+)\s*(.*)$")


def _split_params(text: str, span: Span) -> list[tuple[str, int]]:
    """Whitespace-separated words with their column offsets; quotes group."""
    out = []
    k = 0
    while k < len(text):
        if text[k].isspace():
            k += 1
            continue
        start = k
        quote = False
        while k < len(text) and (quote or not text[k].isspace()):
            if text[k] == '"':
                quote = not quote
            k += 1
        if quote:
            raise InputError(span.shifted(start), "unterminated string")
        out.append((text[start:k], start))
    return out


def parse_param_value(text: str, span: Span):
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


def parse_spec_call(text: str, span: Span) -> tuple[str, dict, dict]:
    words = _split_params(text, span)
    if not words:
        raise InputError(span, "@spec needs a spec name")
    name = words[0][0]
    params: dict = {}
    pspans: dict = {}
    for w, off in words[1:]:
        wspan = span.shifted(off)
        if "=" not in w:
            raise InputError(wspan, f"expected PARAM=VALUE, got '{w}'")
        k, v = w.split("=", 1)
        if not re.fullmatch(r"[A-Za-z_]\w*", k):
            raise InputError(wspan, f"bad parameter name '{k}'")
        if k in params:
            raise InputError(wspan, f"parameter '{k}' given twice")
        params[k] = parse_param_value(v, wspan.shifted(len(k) + 1))
        pspans[k] = wspan
    return name, params, pspans


def _bindings(text: str, span: Span, key: str) -> list[Binding]:
    out = []
    col = 0
    for part in text.split(","):
        pspan = span.shifted(col + len(part) - len(part.lstrip()))
        col += len(part) + 1
        if "=" not in part:
            raise InputError(pspan, f"@{key} expects NAME = REGISTER, got '{part.strip()}'")
        name, reg = (x.strip() for x in part.split("=", 1))
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise InputError(pspan, f"bad name '{name}' in @{key}")
        out.append(Binding(name, parse_operand(reg, pspan), pspan))
    return out


def load_lowering(path: str | Path, text: str | None = None) -> Lowering:
    path = str(path)
    if text is None:
        text = read_source(path)
    header: dict[str, tuple[str, Span]] = {}
    inputs: list[Binding] = []
    outputs: list[Binding] = []
    clobbers: list = []
    desc: list[str] = []
    body: list[tuple[int, str]] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        m = _HDR_RE.match(raw)
        if m:
            key = m.group(2).lower()
            vspan = Span(path, lineno, m.start(3) + 1)
            kspan = Span(path, lineno, len(m.group(1)) + 1)
            if key not in HEADER_KEYS:
                raise InputError(kspan, f"unknown header key '@{key}' (known: {', '.join('@' + k for k in HEADER_KEYS)})")
            val = m.group(3).strip()
            if key == "input":
                inputs += _bindings(val, vspan, key)
            elif key == "output":
                outputs += _bindings(val, vspan, key)
            elif key == "clobbers":
                for w, off in _split_params(val.replace(",", " "), vspan):
                    clobbers.append(parse_operand(w, vspan.shifted(off)))
            else:
                if key in header:
                    raise InputError(kspan, f"@{key} given twice")
                header[key] = (val, vspan)
            continue
        s = raw.strip()
        if s.startswith(";") and not body and not header:
            desc.append(s.lstrip("; ").rstrip())
        body.append((lineno, raw))
    fspan = Span(path, 1, 1)
    for key in ("spec", "targets", "waves", "output"):
        if key != "output" and key not in header:
            raise InputError(fspan, f"lowering header lacks @{key}")
    if not outputs:
        raise InputError(fspan, "lowering header lacks @output")
    spec_text, sspan = header["spec"]
    spec, params, pspans = parse_spec_call(spec_text, sspan)
    tgt_text, tspan = header["targets"]
    targets = []
    for w, off in _split_params(tgt_text.replace(",", " "), tspan):
        if w in targets:
            raise InputError(tspan.shifted(off), f"@targets names {w} twice")
        targets.append(w)
    if not targets:
        raise InputError(tspan, "@targets is empty")
    waves: list[int] = []
    wtext, wspan = header["waves"]
    for w, off in _split_params(wtext.replace(",", " "), wspan):
        ws = wspan.shifted(off)
        n = parse_int(w, ws, "a wave size (32 or 64)")
        if n not in (32, 64):
            raise InputError(ws, f"wave size must be 32 or 64, got {n}")
        if n in waves:
            raise InputError(ws, f"@waves names {n} twice")
        waves.append(n)
    seen: dict = {}
    for b in inputs + outputs:
        if b.name in seen:
            raise InputError(b.span, f"'{b.name}' is bound twice (@input/@output)")
        seen[b.name] = b
    exec_contract = "any"
    if "exec" in header:
        exec_contract, espan = header["exec"]
        if exec_contract not in ("any", "full"):
            raise InputError(espan, f"@exec must be 'any' or 'full', got '{exec_contract}'")
    expect = header["expect"][0] if "expect" in header else None
    program = parse_program(body, path)
    if not program:
        raise InputError(fspan, "lowering has no instructions")
    name = Path(path).stem
    spans = {k: v[1] for k, v in header.items()}
    return Lowering(
        name, path, spec, params, targets, waves, exec_contract, inputs, outputs,
        clobbers, program, " ".join(d for d in desc if d).strip(), spans, pspans, expect,
    )


def print_instr(ins: Instr, target=None) -> str:
    from .ops.base import op_of

    return op_of(ins.base).print(ins, target)
