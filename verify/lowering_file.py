"""Lowering files: assembly with a ``; @key value`` header, read into a
:class:`~verify.ir.Lowering`; instructions parsed and printed through the
op registry.

The parser is generic: :mod:`verify.syntax` splits a line into mnemonic,
operands and modifiers with exact columns, and this module hands them to
the op registry (``verify.ops``), which owns every operand and modifier
rule.  The same parser reads lowering files and real ``llc`` output.

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

>>> print_instr(parse_instr("v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf", Span("f", 1)))
'v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf'
"""

from __future__ import annotations

import re
from pathlib import Path

from .diag import InputError, Span, read_source
from .ir import Binding, Imm, Instr, Lowering, SReg, VReg
from .ops import lookup
from .ops.base import op_of
from .syntax import parse_int, parse_operand, parse_param_value, split_line, strip_comment
from .target import Target


def parse_instr(text: str, span: Span) -> Instr:
    """One instruction, its operands and modifiers checked by its op."""
    line = split_line(text, span)
    opdef, enc = lookup(line.mnemonic, line.mspan)
    return opdef.parse(line, enc)


def _is_mnemonic(word: str) -> bool:
    try:
        lookup(word.lower(), Span("", 1))
    except InputError:
        return False
    return True


def parse_program(lines: list[tuple[int, str]], path: str) -> list[Instr]:
    prog = []
    for lineno, text in lines:
        body = strip_comment(text).strip()
        if not body or re.fullmatch(r"[A-Za-z_.$][\w.$]*:", body):
            continue  # a label
        if body.startswith("."):  # a directive, which changes nothing here; not an instruction with a stray '.'
            word = body[1:].split()[0] if body[1:].split() else ""
            if word and _is_mnemonic(word):
                raise InputError(Span(path, lineno, 1), f"'.{word}' is an assembler directive, which verify skips: "
                                                        f"write the instruction {word} without the '.'")
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


def parse_spec_call(text: str, span: Span) -> tuple[str, dict[str, int | str], dict[str, Span]]:
    words = _split_params(text, span)
    if not words:
        raise InputError(span, "@spec needs a spec name")
    name = words[0][0]
    params: dict[str, int | str] = {}
    pspans: dict[str, Span] = {}
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
        rspan = pspan.shifted(part.index("=") + 1 + len(part.split("=", 1)[1]) - len(part.split("=", 1)[1].lstrip()) -
                              (len(part) - len(part.lstrip())))
        op = parse_operand(reg, rspan)
        if isinstance(op, Imm):
            raise InputError(rspan, f"@{key} binds '{name}' to a register, got the constant '{reg}'")
        out.append(Binding(name, op, pspan))
    return out


def load_lowering(path: str | Path, text: str | None = None) -> Lowering:
    path = str(path)
    if text is None:
        text = read_source(path)
    header: dict[str, tuple[str, Span]] = {}
    inputs: list[Binding] = []
    outputs: list[Binding] = []
    clobbers: list[VReg | SReg | Imm] = []
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
                    c = parse_operand(w, vspan.shifted(off))
                    if isinstance(c, Imm):
                        raise InputError(vspan.shifted(off), f"@clobbers lists registers, got the constant '{w}'")
                    clobbers.append(c)
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
    if not waves:
        raise InputError(wspan, "@waves is empty (give 32, 64 or both)")
    seen: dict[str, Binding] = {}
    for b in inputs + outputs:
        if b.name in seen:
            raise InputError(b.span, f"'{b.name}' is bound twice (@input/@output)")
        seen[b.name] = b
    held: dict[str, Binding] = {}
    for b in inputs:  # two inputs in one register: the proof would cover only equal inputs
        regs = b.reg.names() if isinstance(b.reg, VReg) else b.reg.names if isinstance(b.reg, SReg) else ()
        for r in regs:
            if r in held:
                raise InputError(b.span, f"@input '{b.name}' and '{held[r].name}' are both bound to {r} "
                                         f"(the proof would cover only equal inputs)")
            held[r] = b
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


def print_instr(ins: Instr, target: Target | None = None) -> str:
    """The canonical text of an instruction (its op prints it)."""
    return op_of(ins.base).print(ins, target)
