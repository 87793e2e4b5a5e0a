"""The s_wait_alu LLVM's AMDGPUWaitSGPRHazards would put in a GFX12
lowering (verify/hazards.py `alu_waits`, docs/semantics.md [S:hazards]),
written into its text: the generators pass their output through
`add_alu_waits`, and ``python -m lowerings._gen.alu_waits FILE...`` fixes
hand-written files in place.  A lowering is a fragment: its predecessors are
not seen, so every SGPR pair counts as tracked, as LLVM takes a function it
cannot see called.  A file whose targets are all GFX12 gets `s_wait_alu`; one
that also targets GFX10/GFX11 gets the same wait as `s_waitcnt_depctr`
(llvm-mc-22 encodes both alike on GFX12); one that also targets GFX8/9 has no
spelling for it and is split: itself without GFX12, and a GFX12 copy
`<name>_gfx12.s` with the waits."""

from __future__ import annotations

import re
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


TARGETS = re.compile(r"^(; @targets\s+)(.*)$", re.M)


def split_gfx12(text: str, path: str) -> tuple[str, str] | None:
    """A file that targets GFX8/9 and GFX12 (`@targets gfx9, ..., gfx12`)
    split in two: the same file without GFX12, and a GFX12 copy (`<name>_gfx12`)
    with its waits; None when its @targets has no `gfx12` item to take out."""
    m = TARGETS.search(text)
    if m is None:
        return None
    items = [t.strip() for t in m.group(2).split(",")]
    if "gfx12" not in items or len(items) == 1:
        return None
    rest = text[:m.start(2)] + ", ".join(t for t in items if t != "gfx12") + text[m.end(2):]
    stem = Path(path).stem
    g12 = text[:m.start(2)] + "gfx12" + text[m.end(2):]
    g12 = g12.replace(f"; {stem}:", f"; {stem}_gfx12:", 1)
    at = g12.index("; @spec")
    g12 = (g12[:at] + "; Its GFX12 copy, with the s_wait_alu LLVM's SGPR-hazard pass would insert\n"
           "; (lowerings/_gen/alu_waits.py).\n;\n" + g12[at:])
    return rest, add_alu_waits(g12, str(Path(path).with_name(f"{stem}_gfx12.s")))


def generated(rel: str, text: str) -> list[tuple[str, str]]:
    """The generators' pass: the file with its waits; a file that also
    targets GFX8/9 (no spelling for the wait there) is split into itself
    without GFX12 and a GFX12 copy `<name>_gfx12.s` with the waits."""
    try:
        return [(rel, add_alu_waits(text, f"lowerings/{rel}"))]
    except NoSpelling:
        parts = split_gfx12(text, rel)
        if parts is None:
            raise
        return [(rel, parts[0]), (str(Path(rel).with_name(Path(rel).stem + "_gfx12.s")), parts[1])]


def main(argv: list[str]) -> int:
    bad = 0
    for f in argv:
        p = Path(f)
        text = p.read_text()
        try:
            new = add_alu_waits(text, str(p))
        except NoSpelling as e:
            parts = split_gfx12(text, str(p))
            if parts is None:
                print(e, file=sys.stderr)
                bad += 1
                continue
            p.write_text(parts[0])
            p.with_name(p.stem + "_gfx12.s").write_text(parts[1])
            print(f"split {f} and its GFX12 copy {p.stem}_gfx12.s")
            continue
        if new != text:
            p.write_text(new)
            print(f"fixed {f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
