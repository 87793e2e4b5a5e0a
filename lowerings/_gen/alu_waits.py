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

from verify.hazards import alu_waits, window
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


def add_mask_waits(text: str, path: str = "<generated>") -> str:
    """`text` with the s_waitcnt_depctr LLVM puts right after an SGPR write
    that GFX11 wave64's mask-write hazard needs (verify/hazards.py), one at a
    time until none is missing; unchanged when none is."""
    low = load_lowering(path, text)
    targets = resolve_all(low.targets)
    g11 = [t for t in targets if t.has("hazard_valu_mask_write")]
    if not g11 or 64 not in low.waves:
        return text
    for _ in range(1000):
        low = load_lowering(path, text)
        need = next(((k, f) for k in range(len(low.program))
                     for f in window(low.program, k, g11[0], "fragment", None, 64).values()
                     if f.rule.feature == "hazard_valu_mask_write"), None)
        if need is None:
            return text
        if not all(t.has("waitcnt_depctr") for t in targets):
            raise NoSpelling(f"{path}: needs s_waitcnt_depctr after line {need[1].producer.line} "
                             f"but also targets GFX8/9")
        lines = text.split("\n")
        assert need[1].producer.line is not None
        lines.insert(need[1].producer.line, f"s_waitcnt_depctr depctr_{need[1].rule.field}(0)")
        text = "\n".join(lines)
    raise AssertionError(path)


def split_gen(text: str, path: str, gen: str) -> tuple[str, str] | None:
    """A file that targets GFX8/9 and `gen` (gfx11 or gfx12: `@targets gfx9,
    ..., gfx12`) split in two: the same file without `gen`, and a copy
    (`<name>_<gen>`) with its waits; None when its @targets has no such item
    to take out."""
    m = TARGETS.search(text)
    if m is None:
        return None
    items = [t.strip() for t in m.group(2).split(",")]
    if gen not in items or len(items) == 1:
        return None
    rest = text[:m.start(2)] + ", ".join(t for t in items if t != gen) + text[m.end(2):]
    stem = Path(path).stem
    copy = text[:m.start(2)] + gen + text[m.end(2):]
    copy = copy.replace(f"; {stem}:", f"; {stem}_{gen}:", 1)
    at = copy.index("; @spec")
    what = "s_wait_alu LLVM's SGPR-hazard pass" if gen == "gfx12" else "s_waitcnt_depctr LLVM's mask-write hazard fix"
    copy = (copy[:at] + f"; Its {gen.upper()} copy, with the {what} would insert\n"
            "; (lowerings/_gen/alu_waits.py).\n;\n" + copy[at:])
    cpath = str(Path(path).with_name(f"{stem}_{gen}.s"))
    return rest, (add_alu_waits(copy, cpath) if gen == "gfx12" else add_mask_waits(copy, cpath))


def split_gfx12(text: str, path: str) -> tuple[str, str] | None:
    return split_gen(text, path, "gfx12")


def fixed(rel: str, text: str) -> list[tuple[str, str]]:
    """The file with the waits LLVM would insert for GFX12 and GFX11 wave64;
    a file that also targets GFX8/9 (no spelling for the wait there) is split
    into itself without that generation and a copy `<name>_gfx12.s`
    (`<name>_gfx11.s`) with the waits."""
    out: list[tuple[str, str]] = []
    try:
        text = add_alu_waits(text, rel)
    except NoSpelling:
        parts = split_gen(text, rel, "gfx12")
        if parts is None:
            raise
        text = parts[0]
        out.append((str(Path(rel).with_name(Path(rel).stem + "_gfx12.s")), parts[1]))
    try:
        text = add_mask_waits(text, rel)
    except NoSpelling:
        parts = split_gen(text, rel, "gfx11")
        if parts is None:
            raise
        text = parts[0]
        out.append((str(Path(rel).with_name(Path(rel).stem + "_gfx11.s")), parts[1]))
    return [(rel, text)] + out


def generated(rel: str, text: str) -> list[tuple[str, str]]:
    """The generators' pass: `fixed`."""
    return fixed(rel, text)


def main(argv: list[str]) -> int:
    bad = 0
    for f in argv:
        p = Path(f)
        text = p.read_text()
        try:
            files = fixed(str(p), text)
        except NoSpelling as e:
            print(e, file=sys.stderr)
            bad += 1
            continue
        for q, t in files:
            if Path(q).exists() and Path(q).read_text() == t:
                continue
            Path(q).write_text(t)
            print(f"wrote {q}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
