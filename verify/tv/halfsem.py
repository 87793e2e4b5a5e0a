"""verify tv: the IR's half, bfloat and <2 x half>/<2 x bfloat> float
operations, and binary32's fmul, llvm.fma and llvm.fmuladd.

* ``fadd``/``fsub``/``fmul`` and ``fneg`` on half, bfloat and their
  two-element vectors (``fmul`` on float too), rounded once to nearest even
  (LangRef: the default floating-point environment);
* ``fcmp`` (every predicate) on half and bfloat;
* ``llvm.minnum/maxnum/minimumnum/maximumnum/minimum/maximum/fabs/copysign/
  canonicalize`` on f16, bf16, v2f16, v2bf16 (minnum/maxnum as the
  assumption ir.minnum, as verify/tv/floatsem.py does for f32);
* ``llvm.fma`` on f32, f16 and v2f16; ``llvm.fmuladd`` on the same:
  either fused or not (LangRef lets the implementation pick), both results
  kept (`Lanes.alt`);
* ``fpext``/``fptrunc`` between half/bfloat and float.

Each lane function is verify/ops/vhalf.py's, the one the GPU ops run.  A
NaN result is compared as "any NaN" (LangRef, "Behavior of Floating-Point
NaN values"): :func:`differ` is the return compare for 16-bit floats.
Subnormals follow the function's "denormal-fp-math" attribute (f16; f32
"denormal-fp-math-f32" when given): "ieee" keeps them; "dynamic" leaves
the mode to the hardware (assumption f16.denormals / f32.denormals);
another mode is unsupported unless the assumption flushes.
[S:half-arith] [S:half-denorm] [S:ir-float] [S:ir-minnum]

This module never imports verify/tv/sem.py: sem.py's `IRRun.step` calls
:func:`step` after floatsem's.
"""

from __future__ import annotations

import re
from typing import Any

from ..backend import FP_QNAN
from ..ops import cvt64
from ..ops import vhalf as H
from ..ops import vhalf2 as H2
from ..ops.valu import _ftz
from .types import Lanes, ttype

# IR type -> format of its (element) bits
FMT = {"half": "f16", "bfloat": "bf16", "float": "f32", "<2 x half>": "f16", "<2 x bfloat>": "bf16"}
SUFFIX = {"f16": "half", "bf16": "bfloat", "v2f16": "<2 x half>", "v2bf16": "<2 x bfloat>", "f32": "float"}
UNARY = {"fabs", "canonicalize"}
BINARY = {"minnum", "maxnum", "minimumnum", "maximumnum", "minimum", "maximum", "copysign"}
FMA = {"fma", "fmuladd"}
SMALL = ("half", "bfloat", "<2 x half>", "<2 x bfloat>")


def step(run: Any, ins: Any, choice: Any) -> Lanes | None:
    """The result of `ins` if it is one of this module's, else None."""
    op = ins.opcode
    ty = ins.type
    if op in ("fadd", "fsub", "fmul", "fneg") and (ty in SMALL or (op == "fmul" and ty == "float")):
        return arith(run, ins)
    if op == "fcmp" and ins.operands and ins.operands[0].type in ("half", "bfloat"):
        return compare(run, ins)
    if op in ("fpext", "fptrunc"):
        return convert(run, ins)
    if op in ("sitofp", "uitofp", "fptosi", "fptoui") and "half" in (ty, ins.operands[0].type):
        return intcast(run, ins)
    if op != "call":
        return None
    m = re.match(r"llvm\.(\w+)\.(f16|bf16|v2f16|v2bf16|f32)$", ins.callee)
    if m is None:
        return None
    name, suf = m.group(1), m.group(2)
    if suf == "f32" and name not in FMA:
        return None  # floatsem's
    if name in FMA and "bf16" in suf:
        return None
    if name in UNARY | BINARY | FMA:
        return intrinsic(run, ins, name, SUFFIX[suf], choice)
    return None


# ---- modes ---------------------------------------------------------------------

def flushes(run: Any, fmt: str) -> bool:
    """Whether `fmt`'s subnormals are flushed in this function: its
    "denormal-fp-math" (f16, bf16; f32: "denormal-fp-math-f32" first) and,
    where LLVM leaves the mode to the hardware ("dynamic") or the IR flushes,
    the assumption f16.denormals / f32.denormals.  [S:half-denorm]"""
    attrs = getattr(run, "fn_attrs", {}) or {}
    keys = ("denormal-fp-math-f32", "denormal-fp-math") if fmt == "f32" else ("denormal-fp-math",)
    mode = "ieee"
    for k in keys:
        if k in attrs:
            mode = attrs[k].split(",")[0].strip()
            break
    name = "f32.denormals" if fmt == "f32" else "f16.denormals"
    if mode == "ieee":
        return False
    hw = run._m().assume(name)
    if mode == "dynamic":
        return bool(hw == "flush")
    if mode == "preserve-sign" and hw == "flush":
        return True
    raise run._unsupported(f"{fmt} denormal mode '{mode}' (verify's {name} is {hw})")


def _flags(run: Any, ins: Any, words: list[str] | None = None) -> list[str]:
    """The fast-math flags; nnan and ninf are modelled (poison), any other
    (contract, afn, nsz, ...) is unsupported: it lets LLVM change the value."""
    ws = run._flags(ins) if words is None else words
    flags = [w for w in ws if w in ("nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "fast")]
    bad = [f for f in flags if f not in ("nnan", "ninf")]
    if bad:
        raise run._unsupported(f"fast-math flag '{bad[0]}' on {ins.opcode if ins.opcode != 'call' else '@' + ins.callee}")
    return flags


def _bad(B: Any, flags: list[str], xs: list[Any], fmt: str) -> list[Any]:
    out = []
    for x in xs:
        if "nnan" in flags:
            out.append(H.is_nan(B, x, fmt))
        if "ninf" in flags:
            out.append(H.is_inf(B, x, fmt))
    return out


def _elementwise(run: Any, ty: str, xs: list[Lanes], f: Any) -> Lanes:
    """f(list of element Lanes) -> Lanes, element by element of a vector."""
    out: Lanes = run._map_pieces(ty, xs, f)
    return out


def _lanes(run: Any, vals: list[Any], pois: list[Any], fmt: str) -> Lanes:
    width = 32 if fmt == "f32" else 16
    return Lanes(vals, pois, width, fmt == "f32")


# ---- instructions --------------------------------------------------------------

def arith(run: Any, ins: Any) -> Lanes:
    """fadd/fsub/fmul (rounded once), fneg (the sign bit flipped, NaN
    included).  [S:half-arith] [S:ir-float]"""
    B, W = run.B, run.wave
    ty = ins.type
    fmt = FMT[ty]
    flags = _flags(run, ins)
    flush = flushes(run, fmt) if ins.opcode != "fneg" else False
    nargs = 1 if ins.opcode == "fneg" else 2
    xs = [run.operand(o) for o in ins.operands[:nargs]]
    sign = H.consts(fmt)[0]

    def ftz(x: Any) -> Any:
        return (_ftz(B, x) if fmt == "f32" else H.ftz(B, x, fmt)) if flush else x

    def f(ps: list[Lanes]) -> Lanes:
        vals, pois = [], []
        for i in range(W):
            a = ps[0].vals[i]
            if ins.opcode == "fneg":
                r = B.xor(a, B.const(sign))
                args = [a]
            else:
                b = ps[1].vals[i]
                fa, fb = ftz(a), ftz(b)
                wide = fmt == "bf16"  # in binary32, rounded once more: the same value  [S:half2-bf16-arith]
                if wide:
                    fa, fb = B.shl(fa, B.const(16)), B.shl(fb, B.const(16))
                f = "f32" if wide else fmt
                r = H.fadd(B, fa, fb, f) if ins.opcode == "fadd" else \
                    H.fsub(B, fa, fb, f) if ins.opcode == "fsub" else H.fmul(B, fa, fb, f)
                if wide:
                    r = H.cvt(B, r, "f32", "bf16")
                r = ftz(r)
                args = [a, b]
            vals.append(r)
            pois.append(run._or(*(p.poison[i] for p in ps), *_bad(B, flags, args + [r], fmt)))
        return _lanes(run, vals, pois, fmt)

    return _elementwise(run, ty, xs, f)


def compare(run: Any, ins: Any) -> Lanes:
    """fcmp PRED half/bfloat a, b: the IEEE predicate.  [S:f32-order] [S:half-valu]"""
    B, W = run.B, run.wave
    fmt = FMT[ins.operands[0].type]
    words = run._flags(ins)
    preds = [w for w in words if w in H.FCMP_PREDS]
    flags = _flags(run, ins, [w for w in words if w not in H.FCMP_PREDS])
    if len(preds) != 1:
        raise run._unsupported(f"fcmp '{' '.join(words)}'")
    fn = H.fcmp(preds[0], fmt)
    flush = flushes(run, fmt)
    a, b = run.operand(ins.operands[0]), run.operand(ins.operands[1])
    vals, pois = [], []
    for i in range(W):
        x, y = a.vals[i], b.vals[i]
        fx, fy = (H.ftz(B, x, fmt), H.ftz(B, y, fmt)) if flush else (x, y)
        vals.append(B.bool_value(fn(B, fx, fy)))
        pois.append(run._or(a.poison[i], b.poison[i], *_bad(B, flags, [x, y], fmt)))
    return Lanes(vals, pois, 1)


def convert(run: Any, ins: Any) -> Lanes | None:
    """fpext half/bfloat -> float (exact), fptrunc float -> half/bfloat
    (nearest even).  Other types: None (not this module's).  [S:half-cvt]"""
    B, W = run.B, run.wave
    src_ty, dst_ty = ins.operands[0].type, ins.type
    if (ins.opcode, src_ty, dst_ty) == ("fpext", "float", "double"):
        return fpext_double(run, ins)
    pairs = {("fpext", "half", "float"), ("fpext", "bfloat", "float"),
             ("fptrunc", "float", "half"), ("fptrunc", "float", "bfloat")}
    if (ins.opcode, src_ty, dst_ty) not in pairs:
        return None
    flags = _flags(run, ins)
    src, dst = FMT[src_ty], FMT[dst_ty]
    fs, fd = flushes(run, src), flushes(run, dst)
    a = run.operand(ins.operands[0])
    vals, pois = [], []
    for i in range(W):
        x = a.vals[i]
        if fs:
            x = _ftz(B, x) if src == "f32" else H.ftz(B, x, src)
        r = H.cvt(B, x, src, dst)
        if fd:
            r = _ftz(B, r) if dst == "f32" else H.ftz(B, r, dst)
        vals.append(r)
        pois.append(run._or(a.poison[i], *_bad(B, flags, [a.vals[i]], src), *_bad(B, flags, [r], dst)))
    return _lanes(run, vals, pois, dst)


def fpext_double(run: Any, ins: Any) -> Lanes:
    """fpext float -> double: exact (LangRef), the binary64 value of the
    binary32 one, its subnormals as the function's f32 mode (`flushes`); a
    NaN gives binary64's quiet NaN, one of the NaNs LangRef lets it give
    (the preferred NaN); `nnan`/`ninf`: poison on a NaN/infinite operand.
    The semantics is verify/ops/cvt64.py's, which `v_cvt_f64_f32` runs too.
    [S:cvt-f64-f32]"""
    B = run.B
    flags = _flags(run, ins)
    fs = flushes(run, "f32")
    a = run.operand(ins.operands[0])
    los, his, pois = [], [], []
    for i in range(run.wave):
        x = a.vals[i]
        lo, hi = cvt64.f32_to_f64(B, _ftz(B, x) if fs else x)
        los.append(lo)
        his.append(hi)
        pois.append(run._or(a.poison[i], *_bad(B, flags, [x], "f32")))
    return Lanes(los, pois, 64, False, his)


def intcast(run: Any, ins: Any) -> Lanes:
    """sitofp/uitofp i16/i32 -> half: rounded once to nearest even
    (`nneg`: poison on a negative operand); fptosi/fptoui half -> i16/i32:
    toward zero, poison where the result does not fit (NaN and the
    infinities included; LangRef).  [S:half2-cvt-int] [S:f32-cvt]"""
    B, W = run.B, run.wave
    op, src = ins.opcode, ins.operands[0]
    ity = src.type if op in ("sitofp", "uitofp") else ins.type
    if ity not in ("i16", "i32"):
        raise run._unsupported(f"{op} {src.type} to {ins.type}")
    bits = int(ity[1:])
    flags = run._flags(ins)
    a = run.operand(src)
    if op in ("sitofp", "uitofp"):
        if [f for f in flags if f != "nneg"]:
            raise run._unsupported(f"flag '{flags[0]}' on {op}")
        pois = list(a.poison)
        if "nneg" in flags:
            pois = [run._or(p, B.bit(v, bits - 1)) for p, v in zip(pois, a.vals)]
        return _lanes(run, [H2.int_to_f16(B, v, op == "sitofp", bits) for v in a.vals], pois, "f16")
    if flags:
        raise run._unsupported(f"flag '{flags[0]}' on {op}")
    flush = flushes(run, "f16")
    vals, pois = [], []
    for i in range(W):
        x = H.ftz(B, a.vals[i], "f16") if flush else a.vals[i]
        r, fits = H2.f16_to_int(B, x, op == "fptosi", bits)
        vals.append(r)
        pois.append(run._or(a.poison[i], B.not_b(fits)))
    return Lanes(vals, pois, bits, False)


def intrinsic(run: Any, ins: Any, name: str, ty: str, choice: Any) -> Lanes:
    """llvm.NAME on f16/bf16/v2f16/v2bf16 (fma/fmuladd on f32 too).
    minimumnum/maximumnum: IEEE-754-2019 minimumNumber/maximumNumber;
    minimum/maximum propagate NaN; minnum/maxnum as ir.minnum (either
    signed zero, a quiet NaN for an sNaN operand, unless strict);
    fmuladd: the fused or the unfused result.  [S:ir-minnum] [S:half-arith]"""
    B, W = run.B, run.wave
    fmt = FMT[ty]
    if ins.operands[0].type != ty:
        raise run._unsupported(f"@{ins.callee} of type {ins.operands[0].type}")
    words = [w for w in ins.words[:ins.words.index(ins.type)] if w not in ("tail", "musttail", "notail")] \
        if ins.type in ins.words else []
    flags = _flags(run, ins, words)
    nargs = 1 if name in UNARY else 3 if name in FMA else 2
    xs = [run.operand(o) for o in ins.operands[:nargs]]
    flush = flushes(run, fmt) if name in FMA | {"canonicalize"} else False
    sign, mag, _, _ = H.consts(fmt)
    qnan = FP_QNAN[fmt]
    strict = name in ("minnum", "maxnum") and run._m().assume("ir.minnum") == "strict"
    alt_any: list[bool] = []

    def ftz(x: Any) -> Any:
        return (_ftz(B, x) if fmt == "f32" else H.ftz(B, x, fmt)) if flush else x

    def f(ps: list[Lanes]) -> Lanes:
        vals, pois, alts, when = [], [], [], []
        for i in range(W):
            a = ps[0].vals[i]
            b = ps[1].vals[i] if nargs > 1 else None
            alt, amb = None, None
            if name == "fabs":
                r = B.and_(a, B.const(mag))
            elif name == "canonicalize":
                r = ftz(B.ite(H.is_nan(B, a, fmt), B.const(qnan), a))
            elif name == "copysign":
                r = B.or_(B.and_(a, B.const(mag)), B.and_(b, B.const(sign)))
            elif name in ("minimum", "maximum"):
                r = H.fminimum(B, a, b, fmt, name == "maximum")
            elif name in ("minimumnum", "maximumnum"):
                r = (H.fmax if name == "maximumnum" else H.fmin)(B, a, b, fmt)
            elif name in ("minnum", "maxnum"):
                r = (H.fmax if name == "maxnum" else H.fmin)(B, a, b, fmt)
                snan = B.or_b(H.is_snan(B, a, fmt), H.is_snan(B, b, fmt))
                if strict:
                    r = B.ite(snan, B.const(qnan), r)
                else:
                    zeros = B.and_b(B.eq(B.and_(B.or_(a, b), B.const(mag)), B.const(0)), B.ne(a, b))
                    alt, amb = B.ite(zeros, B.xor(r, B.const(sign)), B.const(qnan)), B.or_b(zeros, snan)
            else:  # fma, fmuladd
                c = ps[2].vals[i]
                r = ftz(H.ffma(B, ftz(a), ftz(b), ftz(c), fmt))
                if name == "fmuladd":  # LangRef: fused or not, as the implementation picks
                    p = ftz(H.fmul(B, ftz(a), ftz(b), fmt))
                    alt, amb = ftz(H.fadd(B, p, ftz(c), fmt)), True
            vals.append(r)
            args = [p.vals[i] for p in ps]
            pois.append(run._or(*(p.poison[i] for p in ps), *_bad(B, flags, args + [r], fmt)))
            if alt is not None:
                alts.append(alt)
                when.append(amb)
        out = _lanes(run, vals, pois, fmt)
        if alts:
            out.alt, out.alt_when = alts, when
            alt_any.append(True)
        return out

    res = _elementwise(run, ty, xs, f)
    if alt_any:
        if res.parts is not None:  # a vector's second value: not carried through the pieces
            raise run._unsupported(f"@{ins.callee} (a vector whose result LangRef leaves open)")
        if any(o.kind == "ref" and o.key == ins.key for j in run._fn_insts if j.opcode != "ret"
               for o in j.operands):
            run.choices.append(choice(ins.span, f"@{ins.callee} (either result)", res.alt_when))
    return res


# ---- the return compare ----------------------------------------------------------

def differ(B: Any, ty: str, got: Any, want: Any) -> Any:
    """The GPU's 16-bit float result `got` differs from the IR's `want`:
    not the same bits and not both NaN; None where `ty` is not a 16-bit
    float (the caller compares bits).  [S:ir-float]"""
    tt = ttype(ty)
    if tt is None or tt.kind != "fp" or tt.elem.bits != 16:
        return None
    fmt = "bf16" if tt.elem.text == "bfloat" else "f16"
    return B.and_b(B.ne(got, want), B.not_b(B.and_b(H.is_nan(B, got, fmt), H.is_nan(B, want, fmt))))


def piece_differ(B: Any, tt: Any, got: Any, want: Any) -> Any:
    """One piece of a wide result (`tt` its type) differs: for the elements
    of a vector of 16-bit floats, NaN as any NaN; bits otherwise."""
    d = differ(B, tt.elem.text, got, want)
    return B.ne(got, want) if d is None else d
