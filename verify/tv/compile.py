"""Compiling a module for a target and wave: llvmlite's LLVM in-process, or an
external `llc` (``--llc 'llc-22 -global-isel'``), as llc would (codegen
only, -O2: no middle-end passes, so the code is what `llc` makes of the file).

The targets and waves of a file default to its lit RUN lines
(``llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64``).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import llvmlite.binding as llvm

from ..diag import InputError, Span
from ..target import TARGETS, Target, get

_INIT = False


def _features(target: Target, wave: int) -> str:
    return f"+wavefrontsize{wave}" if len(target.waves) > 1 else ""


def _triple(text: str) -> str:
    m = re.search(r'^\s*target\s+triple\s*=\s*"([^"]+)"', text, re.M)
    return m.group(1) if m and m.group(1).startswith("amdgcn") else "amdgcn-amd-amdhsa"


# LLVM aborts the process on an internal error (an assertion, "Cannot
# select"): compiling in a child process turns that into an answer.
_CHILD = """
import sys
from verify.tv.compile import by_llvmlite
from verify.target import get
sys.stdout.write(by_llvmlite(sys.stdin.read(), get(sys.argv[1]), int(sys.argv[2])))
"""


_BATCH = """
import json, sys
from verify.tv.compile import by_llvmlite
from verify.target import get
text = sys.stdin.read()
json.dump([by_llvmlite(text, get(t), int(w)) for t, w in json.loads(sys.argv[1])], sys.stdout)
"""


def _child_env() -> dict[str, str]:
    root = str(Path(__file__).resolve().parent.parent.parent)
    return dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))


def by_llvmlite_batch(text: str, pairs: list[tuple[Target, int]]) -> dict[tuple[str, int], str]:
    """:func:`by_llvmlite` for several targets/waves in one child Python (one
    start and one LLVM initialisation instead of one per pair): (target name,
    wave) -> assembly, or {} when the child fails (then compile each pair
    with :func:`by_llvmlite_isolated`, which names the one that fails)."""
    if not pairs:
        return {}
    arg = json.dumps([[t.name, w] for t, w in pairs])
    try:
        r = subprocess.run([sys.executable, "-c", _BATCH, arg], input=text, capture_output=True, text=True,
                           timeout=300 + 60 * len(pairs), check=False, env=_child_env())
    except subprocess.TimeoutExpired:
        return {}
    if r.returncode != 0:
        return {}
    outs: list[str] = json.loads(r.stdout)
    return {(t.name, w): a for (t, w), a in zip(pairs, outs)}


def by_llvmlite_isolated(text: str, target: Target, wave: int) -> str:
    """:func:`by_llvmlite` in a child Python, so that an LLVM crash is an
    error naming the target rather than the end of verify."""
    r = subprocess.run([sys.executable, "-c", _CHILD, target.name, str(wave)], input=text, capture_output=True,
                       text=True, timeout=300, check=False, env=_child_env())
    if r.returncode != 0:
        err = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
        first = next((ln for ln in err if "error" in ln.lower() or "Assertion" in ln), err[-1] if err else "?")
        first = first.strip()
        if "Assertion" in first:
            first = first[first.index("Assertion"):]
        raise InputError(None, f"LLVM (llvmlite) failed for {target.name} wave{wave}: {first[:300]}")
    return r.stdout


def by_llvmlite(text: str, target: Target, wave: int) -> str:
    """AMDGPU assembly for the module from llvmlite's LLVM (codegen at -O2)."""
    global _INIT
    if not _INIT:
        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        _INIT = True
    try:
        mod = llvm.parse_assembly(text)
        mod.verify()
    except RuntimeError as e:
        raise InputError(None, f"LLVM rejects the module: {str(e).strip().splitlines()[0]}") from None
    tm = llvm.Target.from_triple(_triple(text)).create_target_machine(
        cpu=target.llvm_cpu, features=_features(target, wave), opt=2)
    out: str = tm.emit_assembly(mod)
    return out


def by_llc(llc: str, path: str, text: str, target: Target, wave: int) -> str:
    """AMDGPU assembly from an external llc (a command line: 'llc-22 -global-isel')."""
    argv = shlex.split(llc)
    feats = _features(target, wave)
    argv += [f"-mtriple={_triple(text)}", f"-mcpu={target.llvm_cpu}", "-O2", "-o", "-"]
    if feats:
        argv.append(f"-mattr={feats}")
    try:
        r = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise InputError(None, f"cannot run '{llc}': {e}") from None
    if r.returncode != 0:
        first = (r.stderr.strip().splitlines() or ["?"])[0]
        raise InputError(None, f"'{llc}' failed on {path} for {target.name} wave{wave}: {first}")
    return r.stdout


def run_line_instances(path: str, runs: list[tuple[int, str]]) -> list[tuple[Target, int]]:
    """(target, wave) per lit RUN line that runs llc on an amdgcn target."""
    out: list[tuple[Target, int]] = []
    known = {t.llvm_cpu: t for t in TARGETS.values()} | {t.name: t for t in TARGETS.values()}
    for line, cmd in runs:
        if "llc" not in cmd:
            continue
        m = re.search(r"-mcpu[= ](\S+)", cmd)
        if not m or ("amdgcn" not in cmd and "amdgpu" not in cmd):
            continue
        cpu = m.group(1)
        tgt = known.get(cpu)
        if tgt is None:
            continue  # a target verify does not know: not one of ours
        wave = tgt.waves[0] if len(tgt.waves) == 1 else (32 if tgt.gen >= 10 else 64)
        a = re.search(r"-mattr[= ](\S+)", cmd)
        if a:
            for f in a.group(1).split(","):
                if f in ("+wavefrontsize64", "-wavefrontsize32"):
                    wave = 64
                elif f in ("+wavefrontsize32", "-wavefrontsize64"):
                    wave = 32
        if wave not in tgt.waves:
            raise InputError(Span(path, line, 1), f"{tgt.name} runs wave{'/'.join(map(str, tgt.waves))} only")
        if (tgt, wave) not in out:
            out.append((tgt, wave))
    return out


def instances(path: str, runs: list[tuple[int, str]], targets: list[str], wave: int | None) -> list[tuple[Target, int]]:
    """The (target, wave) pairs to check: --target (each with --wave or every
    wave it runs), else the RUN lines (narrowed by --wave)."""
    if targets:
        out = []
        for name in targets:
            t = get(name)
            ws = [wave] if wave is not None else list(t.waves)
            for w in ws:
                if w not in t.waves:
                    raise InputError(None, f"{t.name} runs wave{'/'.join(map(str, t.waves))} only, not wave{w}")
                out.append((t, w))
        return out
    found = run_line_instances(path, runs)
    if wave is not None:
        declared = sorted({w for _, w in found})
        found = [(t, w) for t, w in found if w == wave]
        if declared and not found:  # --wave narrows the file's waves, as for a lowering file
            raise InputError(None, f"{path}: its RUN lines run wave{'/'.join(map(str, declared))}; "
                                   f"--wave {wave} is not one of them")
    if not found:
        raise InputError(None, f"{path}: no RUN line names an AMDGPU target verify knows; give --target")
    return found
