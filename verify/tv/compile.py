"""Compiling a module for a target and wave: llvmlite's LLVM in-process, or an
external `llc` (``--llc 'llc-22 -global-isel'``), as llc would (codegen
only, -O2: no middle-end passes, so the code is what `llc` makes of the file).

The targets and waves of a file default to its lit RUN lines
(``llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

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


# An external llc is a program verify does not control: it may hang, flood
# or print bytes that are not text.  It is given a time and an output bound;
# running into either is an error naming the command (no verdict is decided
# by it: the code it would have made is never checked).
class ToolError(InputError):
    """The --llc command itself is unusable (it cannot be run, hangs, floods
    or prints bytes that are not text): an error for the whole run, never a
    verdict on one function (an llc that runs and refuses the module is
    the module's compile failure, as with llvmlite)."""


LLC_TIMEOUT = 60.0  # seconds; VERIFY_LLC_TIMEOUT overrides
LLC_MAX_OUTPUT = 16 << 20  # bytes of assembly read from llc (real output for a test file is far smaller)


def _shown(text: str) -> str:
    """A command or message as one printable line."""
    return text if text.isprintable() else ascii(text)[1:-1]


def _llc_timeout() -> float:
    text = os.environ.get("VERIFY_LLC_TIMEOUT")
    if text is None:
        return LLC_TIMEOUT
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not 0 < v < float("inf"):
        raise ToolError(None, f"VERIFY_LLC_TIMEOUT must be a positive number of seconds, got '{_shown(text)}'")
    return v


def _run_bounded(argv: list[str], data: bytes, timeout: float, limit: int) -> tuple[int | None, bytes, bytes, bool]:
    """Run `argv` with `data` on its stdin: (exit status or None when it ran
    past `timeout` seconds, stdout, the first 64 KiB of stderr, whether
    stdout ran past `limit` bytes).  A process past either bound is killed."""
    # its own process group: a shell's children are stopped with it
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)

    def stop() -> None:
        with contextlib.suppress(OSError):  # gone already
            os.killpg(proc.pid, signal.SIGKILL)

    out: list[bytes] = []
    err: list[bytes] = []
    over = threading.Event()

    def feed() -> None:
        try:
            assert proc.stdin is not None
            proc.stdin.write(data)
            proc.stdin.close()
        except OSError:  # it exited (or closed its stdin) without reading all
            pass

    def read(stream: Any, into: list[bytes], cap: int, flood: bool) -> None:
        got = 0
        while chunk := stream.read(1 << 16):
            if got < cap:
                into.append(chunk[:cap - got])
            got += len(chunk)
            if got > cap and flood:
                over.set()
                stop()
                return

    threads = [threading.Thread(target=feed, daemon=True),
               threading.Thread(target=read, args=(proc.stdout, out, limit, True), daemon=True),
               threading.Thread(target=read, args=(proc.stderr, err, 1 << 16, False), daemon=True)]
    for t in threads:
        t.start()
    try:
        code: int | None = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        code = None
    stop()  # what it started and left running (its pipes then close)
    proc.wait()
    for t in threads[1:]:
        t.join(timeout=5)
    return code, b"".join(out), b"".join(err), over.is_set()


def by_llc(llc: str, path: str, text: str, target: Target, wave: int) -> str:
    """AMDGPU assembly from an external llc (a command line: 'llc-22 -global-isel')."""
    try:
        argv = shlex.split(llc)
    except ValueError as e:  # an unbalanced quote
        raise ToolError(None, f"--llc '{_shown(llc)}': {e}") from None
    if not argv:
        raise ToolError(None, "--llc names no command")
    feats = _features(target, wave)
    argv += [f"-mtriple={_triple(text)}", f"-mcpu={target.llvm_cpu}", "-O2", "-o", "-"]
    if feats:
        argv.append(f"-mattr={feats}")
    timeout = _llc_timeout()
    try:
        code, out, err, flood = _run_bounded(argv, text.encode(), timeout, LLC_MAX_OUTPUT)
    except (OSError, ValueError) as e:
        raise ToolError(None, f"cannot run '{_shown(llc)}': {_shown(str(e))}") from None
    on = f"on {path} for {target.name} wave{wave}"
    if flood:
        raise ToolError(None, f"'{_shown(llc)}' printed more than {LLC_MAX_OUTPUT >> 20} MiB {on}; stopped it")
    if code is None:
        raise ToolError(None, f"'{_shown(llc)}' did not finish within {timeout:g} s {on} "
                               f"(VERIFY_LLC_TIMEOUT sets the limit); stopped it")
    if code != 0:
        first = next((ln.strip() for ln in err.decode(errors="replace").splitlines() if ln.strip()), "?")
        raise InputError(None, f"'{_shown(llc)}' failed {on}: {_shown(first[:300])}")
    try:
        return out.decode()
    except UnicodeDecodeError as e:
        raise ToolError(None, f"'{_shown(llc)}' printed bytes that are not UTF-8 (at byte {e.start}) {on}") from None


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
