"""Write a synthesised program as a lowering file, re-read it from text and
re-verify it with the checker (``verify.refine``): synthesis keeps no notion
of correctness of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..assume import ASSUMPTIONS
from ..diag import VerifyError, Warning_
from ..ir import Instr, Lowering, VReg
from ..lowering_file import load_lowering, print_instr
from ..ops import OPS
from ..proofs import write_atomic
from ..refine import Result, check_lowering, static_checks
from ..target import Target


def _fmt_params(params: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


def clobbers_of(program: Iterable[Instr], outputs: Sequence[str] = ("v1",), inputs: Sequence[str] = ("v0",)) -> list[str]:
    regs: list[str] = []
    for ins in program:
        for r in OPS[ins.base].defs(ins):
            if r in outputs or r in ("exec_lo", "exec_hi", "scc") or r in regs:
                continue
            regs.append(r)
    # print SGPR pairs as pairs
    out, k = [], 0
    names = sorted(regs, key=lambda r: (r[0] != "v", r.startswith("vcc"), int(r[1:]) if r[1:].isdigit() else 0, r))
    while k < len(names):
        r = names[k]
        if r.startswith("s") and r[1:].isdigit() and int(r[1:]) % 2 == 0 and f"s{int(r[1:]) + 1}" in names:
            out.append(f"s[{r[1:]}:{int(r[1:]) + 1}]")
            names.remove(f"s{int(r[1:]) + 1}")
        elif r in ("vcc_lo",) and "vcc_hi" in names:
            out.append("vcc")
            names.remove("vcc_hi")
        else:
            out.append(r)
        k += 1
    return out


def widen(program: list[Instr]) -> list[Instr]:
    """A 32-bit data movement (x = v0, out = v1) as a 64-bit one (x = v[0:1],
    out = v[2:3]): the program twice, once per half; its other VGPRs move up
    by two and are reused by the second copy.  [S:wide64]"""
    def remap(ins: Instr, half: int) -> Instr:
        def reg(o: Any) -> Any:
            if not isinstance(o, VReg) or o.count != 1:
                return o
            k = o.index
            return VReg(half if k == 0 else 2 + half if k == 1 else k + 2)
        return replace(ins, operands=tuple(reg(o) for o in ins.operands))

    return [remap(i, 0) for i in program] + [remap(i, 1) for i in program]


def render(name: str, spec: str, params: dict[str, Any], target_names: list[str], wave: int, exec_contract: str,
           program: list[Instr], target: Target, comments: list[str], wide: bool = False) -> str:
    """Lowering-file text: comment lines, the header, the canonical program.
    `wide`: the spec has 64-bit lanes; the program is widened (:func:`widen`)."""
    if wide:
        program = widen(program)
    body = [print_instr(ins, target) for ins in program]
    clob = clobbers_of(program, ("v2", "v3"), ("v0", "v1")) if wide else clobbers_of(program)
    lines = [f"; {c}" if c else ";" for c in comments]
    lines += [
        ";",
        f"; @spec     {spec} {_fmt_params(params)}".rstrip(),
        f"; @targets  {', '.join(target_names)}",
        f"; @waves    {wave}",
        f"; @exec     {exec_contract}",
        "; @input    x = v[0:1]" if wide else "; @input    x = v0",
        "; @output   out = v[2:3]" if wide else "; @output   out = v1",
    ]
    if clob:
        lines.append(f"; @clobbers {', '.join(clob)}")
    return "\n".join(lines + body) + "\n"


def reverify(path: str, text: str, targets: list[Target], wave: int,
             timeout: float = 30.0, robust: bool = False) -> tuple[Lowering, list[Result], list[Warning_]]:
    """Parse `text` as the lowering file `path` and prove it for every
    target: (lowering, results, warnings).  Every result must be proved and
    warnings empty for the synthesis to stand.  `robust`: proved means
    proved under every variant of every named assumption it consults."""
    low = load_lowering(path, text)
    warns: list[Warning_] = []
    for t in targets:
        warns += static_checks(low, t, wave)
    results = check_lowering(low, targets, [wave], timeout, robust=robust)
    return low, results, warns


def save(path: str, text: str, targets: list[Target], wave: int, timeout: float = 30.0,
         robust: bool = False) -> None:
    """The one way `verify synth -o` writes a lowering file (a shuffle's or
    a reduction's; `synth --table` writes the entries it proved while
    building the table, verify/synth/table.py): `text` is proved again as the file
    `path` will hold it, for every target (and under every variant with
    `robust`), then written whole; a text that fails is never written
    (VerifyError), so no half-checked file is left behind."""
    _, res, warns = reverify(path, text, targets, wave, timeout, robust)
    if warns or any(r.verdict != "proved" for r in res):
        raise VerifyError(f"{path}: re-verification failed")
    write_atomic(Path(path), text)


def uses_vreg(program: Iterable[Instr], n: int) -> bool:
    return any(isinstance(o, VReg) and o.index == n for ins in program for o in ins.operands)


def relies_on(results: list[Result], low: Lowering, targets: list[Target], wave: int,
              timeout: float = 30.0) -> list[str]:
    """The named assumptions a proved lowering needs the default variant of:
    `assumption=default` for each assumption some refuted or undecided
    variant changes, over every target (sorted; empty when it holds under
    every variant, or consulted none).  `results`: its ordinary proofs; a
    target whose proof consulted no assumption is not proved again."""
    need: set[str] = set()
    for t in targets:
        r = next((r for r in results if r.target == t.name), None)
        if r is not None and not r.assumptions:
            continue
        for x in check_lowering(low, [t], [wave], timeout, robust=True):
            # what each failing variant changes from the defaults; the
            # minimal such sets name the assumptions to blame
            diffs = [frozenset(k for k, val in v["assumptions"].items() if val != ASSUMPTIONS[k].default)
                     for v in x.variants if v["verdict"] != "proved"]
            for d in diffs:
                if not any(e < d for e in diffs):
                    need |= {f"{k}={ASSUMPTIONS[k].default}" for k in d}
    return sorted(need)
