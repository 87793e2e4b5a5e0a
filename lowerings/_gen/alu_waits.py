"""The s_wait_alu LLVM's AMDGPUWaitSGPRHazards would put in a GFX12
lowering (verify/hazards.py `alu_waits`, docs/semantics.md [S:hazards]),
written into its text: the generators pass their output through
`add_alu_waits`, and ``python -m lowerings._gen.alu_waits FILE...`` fixes
hand-written files in place.  A lowering is a fragment: its predecessors are
not seen, so every SGPR pair counts as tracked, as LLVM takes a function it
cannot see called.  A file whose targets are all GFX12 gets `s_wait_alu`; one
that also targets GFX10/GFX11 gets the same wait as `s_waitcnt_depctr`
(llvm-mc-22 encodes both alike on GFX12); one that also targets GFX8/9 has no
spelling for it and is reported."""

from __future__ import annotations

import sys
from pathlib import Path

from verify.hazards import alu_waits
from verify.lowering_file import load_lowering
from verify.ops.base import op_of
from verify.target import resolve_all


class NoSpelling(Exception):
    pass


def add_alu_waits(text: str, path: str = "<generated>") -> str:
    """`text` with the waits it lacks (unchanged when it lacks none)."""
    low = load_lowering(path, text)
    targets = resolve_all(low.targets)
    if not any(t.has("hazard_gfx12_sgpr") for t in targets):
        return text
    need = alu_waits(low.program)
    if not need:
        return text
    if all(t.has("wait_gfx12") for t in targets):
        mnemonic = "s_wait_alu"
    elif all(t.has("waitcnt_depctr") for t in targets):
        mnemonic = "s_waitcnt_depctr"
    else:
        raise NoSpelling(f"{path}: needs s_wait_alu before line(s) "
                         f"{', '.join(str(low.program[k].line) for k in need)} but also targets GFX8/9")
    lines = text.split("\n")
    for k in sorted(need, reverse=True):
        ins = low.program[k]
        assert ins.line is not None
        prev = low.program[k - 1] if k else None
        if prev is not None and op_of(prev.base).depctr(prev) is not None and prev.line == ins.line - 1:
            # LLVM merges a wait into the s_wait_alu just before it
            lines[prev.line - 1] = lines[prev.line - 1].rstrip() + " " + need[k]
        else:
            lines.insert(ins.line - 1, f"{mnemonic} {need[k]}")
    out = "\n".join(lines)
    assert not alu_waits(load_lowering(path, out).program), path
    return out


def generated(text: str, path: str) -> str:
    """The generators' pass: `text` with its waits; a file that also targets
    GFX8/9 stays as it is (it has no spelling for the wait: it needs a GFX12
    file of its own) and is refuted on GFX12 until it gets one."""
    try:
        return add_alu_waits(text, path)
    except NoSpelling:
        return text


def main(argv: list[str]) -> int:
    bad = 0
    for f in argv:
        p = Path(f)
        text = p.read_text()
        try:
            new = add_alu_waits(text, str(p))
        except NoSpelling as e:
            print(e, file=sys.stderr)
            bad += 1
            continue
        if new != text:
            p.write_text(new)
            print(f"fixed {f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
