"""The hazard model against llc-22's recognizer on the catalogue's own code:
each lowering (and each of its mutants with one wait deleted) is assembled
by llvm-mc-22 (`-show-inst`: the MC opcode and operands), written as MIR
(the MC opcode's pseudo, explicit operands, the implicit ones llc's MIR
parser asks for), and given to `llc-22 -run-pass=post-RA-hazard-rec` (GFX12:
and `amdgpu-wait-sgpr-hazards`).  Where LLVM inserts a wait before an
instruction verify does not flag: a potential false proof ("missed"); where
verify flags one and LLVM inserts nothing: a potential false alarm
("extra").  Prints the counts and each difference.  docs/semantics.md
[S:trust-hazards].

    python benchmarks/bench_hazard_llvm_mir.py [--targets gfx90a:64,gfx942:64,gfx1100:32,...] [FILE.s ...]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verify.hazards import check
from verify.lowering_file import load_lowering
from verify.syntax import strip_comment
from verify.target import get, resolve_all

TARGETS = "gfx90a:64,gfx942:64,gfx1100:32,gfx1100:64,gfx1200:32,gfx1200:64"
WAIT = re.compile(r"^\s*(s_nop|s_wait_alu|s_waitcnt_depctr|v_nop)\b")
SUFFIX = re.compile(r"_(vi|si|ci|gfx\d+(_gfx\d+)*|gfx6_gfx7|gfx10_gfx11)$")
CACHE = Path(os.environ.get("VERIFY_MIR_CACHE", Path(tempfile.gettempdir()) / "verify_mir_opcodes.json"))


@functools.cache
def loaded(path: Path):  # -> Lowering
    return load_lowering(path)


def attrs(cpu: str, wave: int) -> list[str]:
    return [f"-mcpu={cpu}", f"-mattr=+wavefrontsize{wave}"]


def mc(groups: list[list[str]], cpu: str, wave: int) -> list[list[tuple[str, list[tuple[str, str]]]] | str]:
    """Per group of lines: the MC opcode and operands of each line, or
    llvm-mc's first error on one of them (one llvm-mc run for all)."""
    lines = [t for g in groups for t in g]
    r = subprocess.run(["llvm-mc-22", "-arch=amdgcn", *attrs(cpu, wave), "-show-inst"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True)
    bad: dict[int, str] = {}
    for m in re.finditer(r"<stdin>:(\d+):\d+: error: (.*)", r.stderr):
        bad.setdefault(int(m.group(1)) - 1, m.group(2))
    insts = [(m.group(1), re.findall(r"<MCOperand (\w+):([^>]*)>", m.group(2)))
             for m in re.finditer(r"<MCInst #\d+ (\w+)((?:\s*;\s*<MCOperand [^>]*>)*)>", r.stdout)]
    if len(insts) != len(lines) - len(bad):
        raise RuntimeError(f"llvm-mc gave {len(insts)} instructions for {len(lines) - len(bad)} lines")
    out: list[list[tuple[str, list[tuple[str, str]]]] | str] = []
    k = i = 0
    for g in groups:
        errs = [bad[j] for j in range(k, k + len(g)) if j in bad]
        good = len(g) - len(errs)
        out.append(f"{errs[0]} ({g[next(j for j in range(len(g)) if k + j in bad)]})" if errs else insts[i:i + good])
        k += len(g)
        i += good
    return out


def operand(kind_val: tuple[str, str]) -> str | None:
    kind, val = kind_val
    if kind == "Reg":
        return "$noreg" if val in ("NoRegister", "") else "$" + val.lower()
    if kind == "Imm":
        return val
    return None  # an expression (a label): not converted


class Opcodes:
    """Per MC opcode: its pseudo, how many explicit operands are defs, the
    implicit operands the MIR parser asks for (found by trial, cached)."""

    def __init__(self, cpu: str, wave: int) -> None:
        self.cpu, self.wave = cpu, wave
        data = json.loads(CACHE.read_text()) if CACHE.exists() else {}
        self.data: dict[str, list] = data.get(f"{cpu}:{wave}", {})

    def save(self) -> None:
        data = json.loads(CACHE.read_text()) if CACHE.exists() else {}
        data[f"{self.cpu}:{self.wave}"] = self.data
        CACHE.write_text(json.dumps(data))

    def get(self, name: str, ops: list[str]) -> list | None:
        key = f"{name}/{len(ops)}"
        if key not in self.data:
            self.data[key] = self._find(name, ops)
        got = self.data[key]
        return got if got and got[0] else None

    def _find(self, name: str, ops: list[str]) -> list:
        base = SUFFIX.sub("", name)
        for a, b in (("_NC_", "_"), ("ADD_CO_CI_", "ADDC_"), ("SUBREV_CO_CI_", "SUBBREV_"), ("SUB_CO_CI_", "SUBB_"),
                     ("CTZ_I32_B32", "FFBL_B32"), ("CLZ_I32_U32", "FFBH_U32"), ("CLS_I32", "FFBH_I32")):
            base = base.replace(a, b)
        names = [base, base + "_e64", base.removesuffix("_e64"), base.replace("_CO_", "_"),
                 base.replace("_CO_", "_") + "_e64"]
        pseudo = names.pop(0)
        drop = 0
        ndefs = 0 if not ops or not ops[0].startswith("$") else 1
        imp: list[str] = []
        for _ in range(16):
            err = llc_errors(mir([("f", [line(pseudo, ops[:len(ops) - drop], ndefs, imp)])]), self.cpu, self.wave)
            if not err:
                return [pseudo, ndefs, imp, drop]
            m = re.search(r"missing implicit register operand '([^']+)'", err)
            if m:
                imp.append(m.group(1))
            elif "Explicit definition marked as use" in err:
                ndefs += 1
            elif "Extra explicit operand" in err and drop < len(ops) and not ops[len(ops) - drop - 1].startswith("$"):
                drop += 1  # (the fi bit of a GFX10+ DPP instruction: no pseudo operand, no hazard depends on it)
            elif "unknown machine instruction name" in err and names:
                pseudo = names.pop(0)
            elif "Explicit operand marked as def" in err or ("xplicit operand" in err and "def" in err):
                ndefs -= 1
            else:
                return ["", 0, [err.strip().splitlines()[0][:200]], 0]
            if ndefs < 0 or ndefs > len(ops):
                break
        return ["", 0, ["no operand layout found"], 0]


def line(pseudo: str, ops: list[str], ndefs: int, imp: list[str]) -> str:
    defs, uses = ops[:ndefs], ops[ndefs:] + imp
    return (", ".join(defs) + " = " if defs else "") + pseudo + (" " + ", ".join(uses) if uses else "")


def mir(funcs: list[tuple[str, list[str]]]) -> str:
    out = []
    for name, body in funcs:
        out.append(f"---\nname: {name}\ntracksRegLiveness: false\nbody: |\n  bb.0:\n"
                   + "".join(f"    {t}\n" for t in body) + "    S_ENDPGM 0\n...\n")
    return "".join(out)


def passes(cpu: str) -> str:
    return "post-RA-hazard-rec,amdgpu-wait-sgpr-hazards" if cpu.startswith("gfx12") else "post-RA-hazard-rec"


def llc(text: str, cpu: str, wave: int) -> subprocess.CompletedProcess[str]:
    with tempfile.NamedTemporaryFile("w", suffix=".mir", delete=False) as f:
        f.write(text)
    try:
        return subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", *attrs(cpu, wave), f"-run-pass={passes(cpu)}",
                               "-verify-machineinstrs", f.name, "-o", "-"], capture_output=True, text=True)
    finally:
        Path(f.name).unlink()


def llc_errors(text: str, cpu: str, wave: int) -> str:
    r = llc(text, cpu, wave)
    if r.returncode == 0:
        return ""
    m = re.search(r"\*\*\* Bad machine code: ([^*]+) \*\*\*", r.stderr)
    return m.group(1) if m else r.stderr


def inserted(text: str, cpu: str, wave: int, funcs: list[tuple[str, list[str]]]) -> dict[str, list[tuple[int, str]]]:
    """Per function: (index of the instruction it precedes, the inserted line)."""
    r = llc(text, cpu, wave)
    if r.returncode:
        raise RuntimeError(r.stderr[:2000])
    got: dict[str, list[tuple[int, str]]] = {}
    bodies = dict(funcs)
    for m in re.finditer(r"^name:\s+(\S+)$.*?^body:\s+\|\n(.*?)^\.\.\.", r.stdout, re.M | re.S):
        name, body = m.group(1), m.group(2)
        outl = [t.strip() for t in body.splitlines() if t.strip() and not t.strip().startswith("bb.")]
        want = [t.strip() for t in bodies[name]]
        k, ins = 0, []
        for t in outl:  # the passes only insert waits: every other line is the next instruction given
            if asm_of(t) is not None and not (k < len(want) and t == want[k]):
                ins.append((k, t))
            elif t != "S_ENDPGM 0" or k < len(want):
                k += 1
        got[name] = ins
    return got


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--targets", default=TARGETS, help="CPU:WAVE,... (default: %(default)s)")
    ap.add_argument("--no-mutants", action="store_true")
    ap.add_argument("files", nargs="*", type=Path)
    args = ap.parse_args()
    files = [f.resolve() for f in args.files] or sorted(p for p in (ROOT / "lowerings").rglob("*.s") if "_gen" not in p.parts)
    n: Counter[str] = Counter()
    diffs: list[str] = []
    unconv: Counter[str] = Counter()
    total = 0
    for cpu, w in (t.split(":") for t in args.targets.split(",")):
        wave = int(w)
        target = get(cpu)
        ops = Opcodes(cpu, wave)
        funcs: list[tuple[str, list[str]]] = []
        meta: dict[str, tuple[str, list[int], set[int]]] = {}
        lows = []
        for p in files:
            try:
                low = loaded(p)
            except Exception:
                n["unloadable"] += 1
                continue
            if cpu not in {t.name for t in resolve_all(low.targets)} or wave not in low.waves:
                continue
            src = p.read_text().splitlines()
            lows.append((p, low, [strip_comment(src[i.line - 1]).strip() for i in low.program]))
        for (p, low, texts), got in zip(lows, mc([t for _, _, t in lows], cpu, wave)):
            if isinstance(got, str):
                unconv[f"llvm-mc: {got[:160]}"] += 1
                continue
            body = []
            for name, mops in got:
                conv = [operand(o) for o in mops]
                if any(c is None for c in conv):
                    body = None
                    unconv["expression operand (label)"] += 1
                    break
                d = ops.get(name, [c for c in conv if c is not None])
                if d is None:
                    unconv[f"opcode {name}: {ops.data[f'{name}/{len(conv)}'][2][0][:100]}"] += 1
                    body = None
                    break
                kept = [c for c in conv if c is not None]
                body.append(line(d[0], kept[:len(kept) - d[3]], d[1], d[2]))
            if body is None:
                continue
            n["instances"] += 1
            variants = [("", list(range(len(body))))]
            if not args.no_mutants:
                variants += [(f" -L{low.program[k].line}", [i for i in range(len(body)) if i != k])
                             for k, t in enumerate(texts) if WAIT.match(t)]
            for tag, keep in variants:
                prog = [low.program[i] for i in keep]
                warned = set()
                for wn in check(prog, target, None, low.hazard_entry, wave):
                    warned |= {j for j, i in enumerate(prog) if i.span.line == wn.span.line}
                fname = f"f{len(funcs)}"
                funcs.append((fname, [body[i] for i in keep]))
                meta[fname] = (f"{p.relative_to(ROOT)}{tag}", keep, warned)
        ops.save()
        for lo in range(0, len(funcs), 400):
            chunk = funcs[lo:lo + 400]
            ins = inserted(mir(chunk), cpu, wave, chunk)
            for fname, _ in chunk:
                where, keep, warned = meta[fname]
                body = dict(chunk)[fname]
                # llc-22's GFX11 mask-write fix puts its wait right after the write even where the very
                # same wait is already there (it does not look ahead): no wait missing then
                same = {k for k, t in ins[fname] if t in body[max(k - 1, 0):k + 1]}
                n["llvm waits already there"] += len(same)
                need = {k for k, _ in ins[fname]} - same
                n["programs"] += 1
                n["llvm waits"] += len(need)
                n["flagged at or after"] += sum(1 for k in need if any(j >= k for j in warned))
                # missed: a wait LLVM inserts with no finding of verify's at or after it (GFX11's mask-write
                # fix puts its wait right after the write; verify flags the read that follows)
                for k in sorted(k for k in need if not any(j >= k for j in warned)):
                    t = next(t for kk, t in ins[fname] if kk == k)
                    diffs.append(f"missed {cpu} w{wave} {where}: LLVM puts {t} before line "
                                 f"{low_line(where, keep, k)}")
                fixed = llvm_fixed(where, keep, ins[fname])
                if isinstance(fixed, str):
                    diffs.append(f"unreadable {cpu} w{wave} {where}: {fixed}")
                    continue
                for wn in check(fixed.program, target, None, fixed.hazard_entry, wave):
                    n["false alarms"] += 1
                    diffs.append(f"extra {cpu} w{wave} {where}: verify flags LLVM's fixed code: {wn}")
        print(f"{cpu} w{wave}: " + "  ".join(f"{k}: {v}" for k, v in n.items()), flush=True)
        for k, v in unconv.most_common():
            print(f"  not converted ({v}): {k}")
        for d in diffs:
            print("  " + d, flush=True)
        total += len(diffs)
        n.clear()
        unconv.clear()
        diffs.clear()
    return 1 if total else 0


def asm_of(mir_line: str) -> str | None:
    """The asm of a wait llc inserted."""
    m = re.fullmatch(r"S_NOP (\d+)", mir_line)
    if m:
        return f"s_nop {m.group(1)}"
    m = re.fullmatch(r"S_(WAITCNT_DEPCTR|WAIT_ALU) (\d+)", mir_line)
    if m:
        return f"s_{m.group(1).lower()} {hex(int(m.group(2)))}"
    if mir_line.startswith("V_NOP"):
        return "v_nop"
    if re.fullmatch(r"\$sgpr_null = S_MOV_B32 0.*", mir_line):
        return "s_mov_b32 null, 0"
    return None


def llvm_fixed(where: str, keep: list[int], ins: list[tuple[int, str]]):  # -> Lowering | str
    """The lowering (its mutant) with llc's inserted waits, as verify reads it."""
    path = ROOT / where.split(" ")[0]
    low = loaded(path)
    src = path.read_text().splitlines()
    prog_lines = [i.line - 1 for i in low.program]
    drop = {prog_lines[i] for i in range(len(prog_lines)) if i not in keep}
    before: dict[int, list[str]] = {}
    for k, t in ins:
        a = asm_of(t)
        if a is None:
            return f"inserted {t}"
        before.setdefault(prog_lines[keep[k]] if k < len(keep) else len(src), []).append(a)
    out = []
    for i, t in enumerate(src):
        out += before.get(i, [])
        out.append("; (deleted)" if i in drop else t)
    out += before.get(len(src), [])
    return load_lowering(path, "\n".join(out) + "\n")


def low_line(where: str, keep: list[int], k: int) -> str:
    path = where.split(" ")[0]
    low = loaded(ROOT / path)
    return str(low.program[keep[k]].line) if k < len(keep) else "end"


if __name__ == "__main__":
    sys.exit(main())
