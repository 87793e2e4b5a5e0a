"""IR against a library spec: ``verify tv FILE.ll --function F --spec
'cuda.shfl_xor mask=5 width=16'`` (docs/tv.md, "IR against a spec").

Two proofs per instance (target, wave, compiler, RUN line), each by an
engine verify already has:

1. the GPU code refines the IR (translation validation, check.py): in every
   active lane the IR's value is poison or v0 equals it;
2. the GPU code meets the spec (verify asm's engine, asmcheck.py, as
   ``--assert 'v0 == SPEC(ARGS, PARAMS)'`` over the function's code from its
   first instruction to the return): the function's arguments are the
   spec's inputs, in order, in the registers the calling convention puts
   them in (v0, v1, ... and the SGPRs of `inreg` arguments).

Together: the GPU code computes the spec, and the IR computes the spec in
every lane where the IR's value is not poison.  Proved only when both are;
refuted when either is.  A lane where the IR is poison and the spec is
defined is not caught (the IR is allowed to be less defined there).
"""

from __future__ import annotations

import re
import shlex

from ..asmcheck import check_file as check_asm
from ..diag import InputError, read_source
from .check import TVResult, _arg_regs, check_file
from .compile import by_llc, by_llvmlite_isolated, plan
from .immediates import dpp_masks
from .llir import read_module

ORDER = {"refuted": 0, "compiler error": 0, "error": 0, "unknown": 1, "unsupported": 2, "proved": 3}


def parse_spec(text: str) -> tuple[str, list[str]]:
    """'cuda.shfl_xor mask=5 width=16' -> ('cuda.shfl_xor', ['mask=5', 'width=16'])."""
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise InputError(None, f"--spec '{text}': {e}") from None
    if not words or not re.fullmatch(r"[A-Za-z_][\w.]*", words[0]):
        raise InputError(None, f"--spec '{text}': a spec name, then PARAM=VALUE words")
    bad = [w for w in words[1:] if not re.fullmatch(r"[A-Za-z_]\w*=\S+", w)]
    if bad:
        raise InputError(None, f"--spec '{text}': '{bad[0]}' is not PARAM=VALUE")
    return words[0], words[1:]


def _region(asm: str, fn: str) -> str:
    """'A-B': the function's instructions, its first to the one before its
    s_setpc_b64 (1-based lines of `asm`)."""
    lines = asm.splitlines()
    start = next((k for k, ln in enumerate(lines) if re.match(rf"^\"?{re.escape(fn)}\"?:", ln)), None)
    if start is None:
        raise InputError(None, f"the compiled code has no function {fn}")
    body = [k for k in range(start + 1, len(lines))
            if lines[k].startswith("\t") and lines[k][1:2].isalpha() and not lines[k].startswith("\t.")]
    ret = next((k for k in body if lines[k].split()[0] == "s_setpc_b64"), None)
    if ret is None or ret == body[0]:
        raise InputError(None, f"{fn}: no s_setpc_b64 return after its first instruction (a kernel, or an "
                               f"empty function: --spec needs a function returning its value in v0)")
    return f"{body[0] + 1}-{ret}"


def check_spec(path: str, functions: list[str], spec: str, targets: list[str], wave: int | None,
               llc: list[str], timeout: float, assume: dict[str, str], robust: bool) -> list[TVResult]:
    if len(functions) != 1:
        raise InputError(None, "--spec needs one --function NAME (the IR function the spec describes)")
    name, params = parse_spec(spec)
    text = read_source(path)
    mod = read_module(path, text)
    fn = next((f for f in mod.functions if f.name == functions[0]), None)
    if fn is None:
        raise InputError(None, f"{path}: no function '{functions[0]}'")
    if fn.kernel or fn.ret not in ("i32", "float"):
        raise InputError(fn.span, f"--spec: @{fn.name} must be a function returning i32 or float (in v0)")
    tv = check_file(path, text, targets, wave, llc, [fn.name], timeout, None, assume, robust)
    inst = plan(path, text, targets, wave).instances
    out: list[TVResult] = []
    k = 0
    compilers = llc or ["llvmlite"]
    for r in tv:
        if r.function != fn.name:  # a RUN line verify cannot use: as it is
            out.append(r)
            continue
        ins = inst[k // len(compilers)]
        cname = compilers[k % len(compilers)]
        k += 1
        args = _arg_regs(fn, ins.target)
        if any(n != 1 for *_, n in args):  # a spec's lanes are one register each
            r.notes.append(f"spec {name}: not checked (an argument of {fn.name} takes several registers)")
            r.verdict = "unsupported"
            out.append(r)
            continue
        regs = [f"{kind}{idx}" for _, kind, idx, _ in args]
        claim = f"v0 == {name}({', '.join([*regs, *params])})"
        if r.verdict not in ("proved", "refuted", "unknown"):
            r.notes.append(f"spec {claim}: not checked (the IR -> GPU proof is {r.verdict})")
            out.append(r)
            continue
        try:
            asm = by_llvmlite_isolated(text, ins) if cname == "llvmlite" else by_llc(cname, path, text, ins)
            asm = dpp_masks(asm)[0]
            rep = check_asm(f"<{r.compiler} {ins.target.name} wave{ins.wave}>", [claim], ins.target.name, ins.wave,
                            None, [f"{a}={v}" for a, v in assume.items()], robust, fn.name, _region(asm, fn.name),
                            timeout, asm)
            sv = rep.verdict
            c = rep.checked[0].result
            detail = f"{sv} for {c.scope()}" if sv in ("proved", "refuted") else sv
            if sv == "refuted" and c.cex is not None:
                detail += f" (counterexample EXEC = {c.cex.exec_mask:#x})"
        except InputError as e:
            sv, detail = "unsupported", str(e)
        tv_verdict = r.verdict
        r.compiler += f", spec {name}"
        r.notes = [f"IR -> GPU code: {tv_verdict}", f"GPU code -> {claim}: {detail}", *r.notes]
        r.verdict = min((tv_verdict, sv), key=lambda v: ORDER[v])
        out.append(r)
    return out
