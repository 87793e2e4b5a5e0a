"""verify tv: the IR's binary32 operations and what clang emits for HIP
and OpenCL around them.

* ``fcmp`` (all sixteen predicates), ``fneg``, the casts
  ``sitofp``/``uitofp``/``fptosi``/``fptoui`` between i32 and float;
* the float intrinsics ``llvm.minnum/maxnum/minimumnum/maximumnum/minimum/
  maximum/fabs/copysign/ceil/floor/trunc/rint/nearbyint/roundeven/
  canonicalize`` on float;
* ``llvm.amdgcn.icmp``/``llvm.amdgcn.fcmp`` (a compare to a lane mask);
* ``llvm.read_register`` of ``exec``/``exec_lo``/``exec_hi``;
* inline asm: an empty asm string is an identity on its tied operand
  (the device libraries' "hoisting barrier") or, without results, an
  ordering marker with no effect on values; any other is unsupported,
  naming its text.

Each operation's lane function is verify/ops/vfloat.py's (or the backend's
fmin/fmax), the same one the GPU ops run: the IR meaning and the ISA
meaning of an IEEE operation coincide by definition, and where LangRef
leaves a choice (llvm.minnum of +0.0 and -0.0, an sNaN operand) the IR
side keeps the alternative (`Lanes.alt`) and the return compare accepts
either.  NaN results compare as "any NaN" (LangRef, "Behavior of
Floating-Point NaN values": a NaN result's payload and sign are not
specified).  [S:ir-float] [S:ir-minnum] [S:f32-order]

This module never imports verify/tv/sem.py (it runs on the IRRun it is
given): sem.py's `IRRun.step` calls :func:`step` first.
"""

from __future__ import annotations

import re
from typing import Any

from ..ops import vfloat as V
from . import inlineasm
from .types import Lanes

QNAN, SIGN, MAG = V.QNAN, V.SIGN, V.MAG

CASTS = ("sitofp", "uitofp", "fptosi", "fptoui")
# llvm.<name>.f32 intrinsics of one or two float operands
UNARY = {"fabs", "ceil", "floor", "trunc", "rint", "nearbyint", "roundeven", "canonicalize"}
BINARY = {"minnum", "maxnum", "minimumnum", "maximumnum", "minimum", "maximum", "copysign"}
ROUND = {"ceil": "ceil", "floor": "floor", "trunc": "trunc", "rint": "rne", "nearbyint": "rne", "roundeven": "rne"}
# CmpInst::Predicate values, as llvm.amdgcn.icmp/fcmp take them (llvm/IR/InstrTypes.h)
FCMP_CODES = {0: "false", 1: "oeq", 2: "ogt", 3: "oge", 4: "olt", 5: "ole", 6: "one", 7: "ord", 8: "uno",
              9: "ueq", 10: "ugt", 11: "uge", 12: "ult", 13: "ule", 14: "une", 15: "true"}
ICMP_CODES = {32: "eq", 33: "ne", 34: "ugt", 35: "uge", 36: "ult", 37: "ule", 38: "sgt", 39: "sge", 40: "slt", 41: "sle"}
FAST_MATH = {"nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "fast"}


def step(run: Any, ins: Any, choice: Any) -> Lanes | None:
    """The result of `ins` if it is one of this module's, else None.
    `choice` is sem.Choice (passed in: this module does not import sem)."""
    op = ins.opcode
    if op == "fcmp":
        _modes(run)
        return fcmp(run, ins)
    if op == "fneg":
        return fneg(run, ins)
    if op in CASTS:
        _modes(run)
        return cast(run, ins)
    if op != "call":
        return None
    tail = ins.operands[-1] if ins.operands else None
    if tail is not None and tail.kind == "other" and " asm " in f" {tail.text} ":
        return inline_asm(run, ins)
    callee = ins.callee
    m = re.match(r"llvm\.(\w+)\.f32$", callee)
    if m and (m.group(1) in UNARY or m.group(1) in BINARY):
        _modes(run)
        return fcall(run, ins, m.group(1), choice)
    if callee.startswith("llvm.read_register."):
        return read_register(run, ins)
    if callee.startswith("llvm.write_register."):
        raise run._unsupported(f"@{callee} (a write of a register the IR names)")
    return None


def _modes(run: Any) -> None:
    """The function's float environment: f32 subnormals kept (the default
    "ieee"), as verify's f32 ops assume (f32.denormals); another mode in
    the function's attributes is unsupported, named.  [S:ir-float]"""
    attrs = getattr(run, "fn_attrs", {}) or {}
    for key in ("denormal-fp-math-f32", "denormal-fp-math"):
        mode = attrs.get(key)
        if mode is not None and mode.split(",")[0] not in ("ieee", "dynamic") and \
                run._m().assume("f32.denormals") != "flush":
            raise run._unsupported(f"f32 denormal mode '{mode}' (\"{key}\"; verify models 'ieee')")
    if attrs.get("amdgpu-ieee") == "false" and run._m().assume("f32.ieee_mode") == "on":
        raise run._unsupported("\"amdgpu-ieee\"=\"false\" (IEEE mode off; verify's f32.ieee_mode is on)")


def _f32(run: Any, ins: Any, k: int) -> Lanes:
    o = ins.operands[k]
    if o.type != "float":
        raise run._unsupported(f"{ins.opcode if ins.opcode != 'call' else '@' + ins.callee} of type {o.type}")
    out: Lanes = run.operand(o)
    return out


def _fmf(run: Any, ins: Any, words: list[str]) -> list[str]:
    """The fast-math flags among `words`; any other word is unsupported."""
    flags = [w for w in words if w in FAST_MATH]
    return flags


def _fmf_poison(B: Any, flags: list[str], xs: list[Any]) -> list[Any]:
    """nnan: poison if a value is NaN; ninf: if one is an infinity (LangRef, fast-math flags)."""
    bad = []
    for x in xs:
        if "nnan" in flags or "fast" in flags:
            bad.append(V.is_nan(B, x))
        if "ninf" in flags or "fast" in flags:
            bad.append(B.eq(B.and_(x, B.const(MAG)), B.const(0x7F800000)))
    return bad


def fcmp(run: Any, ins: Any) -> Lanes:
    """fcmp PRED float a, b: the IEEE predicate, o* false and u* true on a
    NaN, -0.0 == +0.0.  [S:f32-order]"""
    B, W = run.B, run.wave
    words = run._flags(ins)
    flags = _fmf(run, ins, words)
    preds = [w for w in words if w not in FAST_MATH]
    if len(preds) != 1 or preds[0] not in V.FCMP:
        raise run._unsupported(f"fcmp '{' '.join(words)}'")
    f = V.FCMP[preds[0]]
    a, b = _f32(run, ins, 0), _f32(run, ins, 1)
    vals, pois = [], []
    for i in range(W):
        x, y = a.vals[i], b.vals[i]
        vals.append(B.bool_value(f(B, x, y)))
        pois.append(run._or(a.poison[i], b.poison[i], *_fmf_poison(B, flags, [x, y])))
    return Lanes(vals, pois, 1)


def fneg(run: Any, ins: Any) -> Lanes:
    """fneg: the sign bit flipped, NaN included (LangRef).  [S:ir-float]"""
    B = run.B
    a = _f32(run, ins, 0)
    flags = _fmf(run, ins, run._flags(ins))
    vals = [B.xor(v, B.const(SIGN)) for v in a.vals]
    pois = [run._or(p, *_fmf_poison(B, flags, [v, r])) for p, v, r in zip(a.poison, a.vals, vals)]
    return Lanes(vals, pois, 32, True)


def cast(run: Any, ins: Any) -> Lanes:
    """sitofp/uitofp i32 -> float: rounded to nearest even (the default
    rounding mode); fptosi/fptoui float -> i32: toward zero, poison where
    the result does not fit (NaN and the infinities included; LangRef).
    [S:f32-cvt]"""
    B, W = run.B, run.wave
    op = ins.opcode
    src = ins.operands[0]
    if op in ("sitofp", "uitofp"):
        if src.type != "i32" or ins.type != "float":
            raise run._unsupported(f"{op} {src.type} to {ins.type}")
        flags = run._flags(ins)
        if [f for f in flags if f != "nneg"]:
            raise run._unsupported(f"flag '{flags[0]}' on {op}")
        a = run.operand(src)
        fn = V.i32_to_f32 if op == "sitofp" else V.u32_to_f32
        pois = list(a.poison)
        if "nneg" in flags:  # uitofp nneg: poison on a negative operand
            pois = [run._or(p, B.bit(v, 31)) for p, v in zip(pois, a.vals)]
        return Lanes([fn(B, v) for v in a.vals], pois, 32, True)
    if src.type != "float" or ins.type != "i32":
        raise run._unsupported(f"{op} {src.type} to {ins.type}")
    a = run.operand(src)
    conv, fits = (V.f32_to_i32, V.f32_fits_i32) if op == "fptosi" else (V.f32_to_u32, V.f32_fits_u32)
    vals = [conv(B, v) for v in a.vals]
    pois = [run._or(a.poison[i], B.not_b(fits(B, a.vals[i]))) for i in range(W)]
    return Lanes(vals, pois, 32, False)


def fcall(run: Any, ins: Any, name: str, choice: Any) -> Lanes:
    """llvm.NAME.f32.  minimumnum/maximumnum are IEEE-754-2019
    minimumNumber/maximumNumber (a NaN operand, signaling or quiet, gives
    the other; -0.0 < +0.0); minimum/maximum propagate NaN; minnum/maxnum
    follow the assumption ir.minnum.  [S:ir-minnum] [S:f32-round]"""
    B, W = run.B, run.wave
    words = [w for w in ins.words[:ins.words.index(ins.type)] if w not in ("tail", "musttail", "notail")] \
        if ins.type in ins.words else []
    flags = _fmf(run, ins, words)
    nargs = 1 if name in UNARY else 2
    args = [_f32(run, ins, k) for k in range(nargs)]
    vals: list[Any] = []
    alts: list[Any] = []
    ambiguous: list[Any] = []
    strict = name in ("minnum", "maxnum") and run._m().assume("ir.minnum") == "strict" and "nsz" not in flags
    for i in range(W):
        x = args[0].vals[i]
        y = args[1].vals[i] if nargs == 2 else None
        if name in ROUND:
            r = V.round_integral(B, x, ROUND[name])
        elif name == "fabs":
            r = B.and_(x, B.const(MAG))
        elif name == "canonicalize":  # a NaN becomes a quiet NaN; f32 subnormals kept ('ieee')
            r = B.ite(V.is_nan(B, x), B.const(QNAN), x)
        elif name == "copysign":
            r = B.or_(B.and_(x, B.const(MAG)), B.and_(y, B.const(SIGN)))
        elif name in ("minimum", "maximum"):
            r = (V.fminimum if name == "minimum" else V.fmaximum)(B, x, y)
        elif name in ("minimumnum", "maximumnum"):
            r = B.fmin(x, y) if name == "minimumnum" else B.fmax(x, y)
        else:  # minnum / maxnum
            r = B.fmin(x, y) if name == "minnum" else B.fmax(x, y)
            snan = B.or_b(V.is_snan(B, x), V.is_snan(B, y))
            if strict:
                r = B.ite(snan, B.const(QNAN), r)
            else:
                # the other result LangRef allows: the other zero, or a quiet NaN for an sNaN operand
                zeros = B.and_b(B.eq(B.and_(B.or_(x, y), B.const(MAG)), B.const(0)), B.ne(x, y))
                alts.append(B.ite(zeros, B.xor(r, B.const(SIGN)), B.const(QNAN)))
                ambiguous.append(B.or_b(zeros, snan))
        vals.append(r)
    pois = []
    for i in range(W):
        xs = [a.vals[i] for a in args]
        pois.append(run._or(*(a.poison[i] for a in args), *_fmf_poison(B, flags, xs + [vals[i]])))
    out = Lanes(vals, pois, 32, True)
    if ambiguous:
        out.alt = alts
        out.alt_when = ambiguous
        # a use other than `ret` reads one of the two: the first one is
        # taken there, and a refutation through it is reported as unknown
        if any(o.kind == "ref" and o.key == ins.key for j in run._fn_insts if j.opcode != "ret"
               for o in j.operands):
            run.choices.append(choice(ins.span, f"llvm.{name} of +0.0 and -0.0 or of an sNaN (either result)",
                                      ambiguous))
    return out


def inline_asm(run: Any, ins: Any) -> Lanes:
    """Inline asm: only an empty string is modelled.  With one result tied
    to its only operand ("=v,0", "=s,0", ...) it is that operand (the
    device libraries' marker that keeps a value in place); with no result
    an ordering marker (a `sideeffect` barrier to code motion) that changes
    no value.  Anything else is unsupported, naming the asm text.
    [S:ir-inline-asm]"""
    tail = ins.operands[-1]
    m = re.search(r'asm\s+(?:sideeffect\s+|alignstack\s+|inteldialect\s+|unwind\s+)*"((?:[^"\\]|\\.)*)"\s*,\s*'
                  r'"((?:[^"\\]|\\.)*)"', tail.text)
    if m is None:
        raise run._unsupported(f"inline asm '{tail.text}'")
    text, cons = m.group(1), m.group(2)
    if text.strip():  # comments only: matched to the GPU code's asm block (verify/tv/inlineasm.py)
        return inlineasm.ir_call(run, ins, text, cons, "sideeffect" in tail.text.split('"')[0].split())
    parts = [c for c in cons.split(",") if c and not c.startswith("~")]
    outs = [c for c in parts if c.startswith("=")]
    ins_c = [c for c in parts if not c.startswith("=")]
    if not outs and ins.type == "void":
        return Lanes([0] * run.wave, [False] * run.wave, 32)
    if len(outs) == 1 and len(ins_c) == 1 and ins_c[0] == "0" and len(ins.operands) == 2 \
            and ins.operands[0].type == ins.type:
        x: Lanes = run.operand(ins.operands[0])
        return x
    raise run._unsupported(f"inline asm '' with constraints '{cons}'")


def read_register(run: Any, ins: Any) -> Lanes:
    """llvm.read_register.i32/i64 of exec_lo, exec_hi, exec (wave64, or
    i32 in wave32): the EXEC mask of the lanes running the call, the same
    in every lane.  [S:ir-read-register]"""
    B, W = run.B, run.wave
    m = re.search(r'!"([\w.]+)"', ins.operands[0].text)
    reg = m.group(1) if m else ins.operands[0].text
    if run.whole:
        raise run._unsupported(f"@{ins.callee} of '{reg}' in whole-wave mode")
    act = run.active()
    lo = B.from_bits(act[:32])
    hi = B.from_bits(act[32:]) if W == 64 else B.const(0)
    if reg == "exec" and ins.type == "i64" and W == 64:
        return Lanes([lo] * W, [False] * W, 64, False, [hi] * W)
    if reg in ("exec", "exec_lo") and ins.type == "i32" and W == 32:
        return Lanes([lo] * W, [False] * W, 32)
    if reg == "exec_lo" and ins.type == "i32":
        return Lanes([lo] * W, [False] * W, 32)
    if reg == "exec_hi" and ins.type == "i32" and W == 64:
        return Lanes([hi] * W, [False] * W, 32)
    raise run._unsupported(f"@{ins.callee} of '{reg}' in wave{W}")


def amdgcn_cmp(run: Any, ins: Any, args: list[Lanes]) -> Lanes:
    """llvm.amdgcn.icmp/fcmp(a, b, pred) -> i32/i64: the mask of the
    active lanes where `a pred b` holds (inactive lanes 0), as
    llvm.amdgcn.ballot of the compare; `pred` a CmpInst predicate code
    (a constant; another is unsupported).  The i32 result in wave64 is
    unsupported.  Poison where an operand is poison in an active lane (the
    "uniform" rule of its table row).  [S:ir-amdgcn-cmp] [S:vopc] [S:f32-order]"""
    B, W = run.B, run.wave
    name = ins.callee.split(".")[2]  # icmp / fcmp
    o = ins.operands[2]
    code = o.value if o.kind == "const" else None
    table = ICMP_CODES if name == "icmp" else FCMP_CODES
    if code not in table:
        raise run._unsupported(f"@{ins.callee} predicate {o.text}")
    pred = table[code]
    width = 64 if ins.type == "i64" else 32
    if width == 32 and W == 64:
        raise run._unsupported(f"@{ins.callee} in wave64 (an i32 mask of a wave64)")
    a, b = args[0], args[1]
    if name == "fcmp":
        if ins.operands[0].type != "float":
            raise run._unsupported(f"@{ins.callee} of type {ins.operands[0].type}")
        bits = [V.FCMP[pred](B, a.vals[i], b.vals[i]) for i in range(W)]
    else:
        ty = ins.operands[0].type
        if ty not in ("i1", "i8", "i16", "i32"):  # (narrower integers: zero-extended lane values)
            raise run._unsupported(f"@{ins.callee} of type {ty}")
        w = {"i1": 1, "i8": 8, "i16": 16, "i32": 32}[ty]
        bits = [run._compare(pred, a.vals[i], b.vals[i], run._sext(a.vals[i], w), run._sext(b.vals[i], w))
                for i in range(W)]
    act = run.lanes_on()
    on = [B.and_b(act[i], bits[i]) for i in range(W)]
    lo = B.from_bits(on[:32])
    hi = B.from_bits(on[32:]) if W == 64 else B.const(0)
    return Lanes([lo] * W, [False] * W, width, False, [hi] * W if width == 64 else None)
