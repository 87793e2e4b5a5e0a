"""Compiling a module for a target and wave: llvmlite's LLVM in-process, or an
external `llc` (``--llc 'llc-22 -global-isel'``), as llc would (codegen
only, -O2: no middle-end passes, so the code is what `llc` makes of the file).

The targets and waves of a file default to its lit RUN lines
(``llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize64``).
"""

from __future__ import annotations

import contextlib
import faulthandler
import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import llvmlite.binding as llvm

from ..diag import InputError
from ..target import Target, get
from .features import append_features
from .runlines import Instance, RunLines, from_attributes, joined_run_lines, module_triple, parse_run, read_run_lines

_INIT = False


def _features(target: Target, wave: int) -> str:
    return f"+wavefrontsize{wave}" if len(target.waves) > 1 else ""


def _triple(text: str) -> str:
    m = re.search(r'^\s*target\s+triple\s*=\s*"([^"]+)"', text, re.M)
    return m.group(1) if m and m.group(1).startswith("amdgcn") else "amdgcn-amd-amdhsa"


# LLVM aborts the process on an internal error (an assertion, "Cannot
# select"): compiling in a child process turns that into an answer.  An
# instance is passed as [target, wave, triple, opt, mattr, options].
_CHILD = """
import json, sys
from verify.tv.compile import by_llvmlite, options_child
from verify.target import get
t, w, triple, opt, mattr, options = json.loads(sys.argv[1])
options_child(options)
sys.stdout.write(by_llvmlite(sys.stdin.read(), get(t), int(w), triple, opt, mattr))
"""


class CompileError(InputError):
    """The compiler ran and failed (a crash, an assertion, an error): the
    instance's verdict is "compiler error", not the whole run's."""


def options_child(options: list[str]) -> None:
    """Give llvmlite's LLVM the RUN line's library options (a child process
    only: the options are global to the process)."""
    for o in options:
        llvm.set_option("llc", o)


def _spec(inst: Instance) -> list[Any]:
    return [inst.target.name, inst.wave, inst.triple, inst.opt, list(inst.mattr), list(inst.options)]


def _as_instance(target: Target | Instance, wave: int | None) -> Instance:
    if isinstance(target, Instance):
        return target
    return Instance(target, wave if wave is not None else target.waves[0])


def _child_env() -> dict[str, str]:
    root = str(Path(__file__).resolve().parent.parent.parent)
    return dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))


def by_llvmlite_batch(text: str, pairs: list[Instance] | list[tuple[Target, int]]) -> dict[tuple[Any, ...], str]:
    """:func:`by_llvmlite` for several instances in one forked child (one
    fork and one LLVM initialisation instead of a Python per instance): instance
    key (Instance.key()) -> assembly, or {} when the child fails (then compile
    each with :func:`by_llvmlite_isolated`, which names the one that fails).
    Instances with LLVM options are left out (the options are global to a
    process: each gets its own child)."""
    insts = [_as_instance(*p) if not isinstance(p, Instance) else p for p in pairs]
    insts = [i for i in insts if not i.options]
    if not insts:
        return {}
    got = _forked(lambda: json.dumps([by_llvmlite(text, i.target, i.wave, i.triple, i.opt, i.mattr)
                                      for i in insts]), 300 + 60 * len(insts))
    if got is None:
        return {}
    outs: list[str] = json.loads(got)
    return {i.key(): a for i, a in zip(insts, outs)}


def _forked(work: Callable[[], str], timeout: float) -> str | None:
    """`work()` run in a forked child (LLVM aborts the process on an internal
    error; a fork is that child without a second Python's start-up and
    imports): its text, or None when it failed, crashed or ran past
    `timeout` seconds (the caller then compiles each instance in its own
    child, which names the one that fails).  The child writes only to its
    pipe (its stderr goes nowhere, as the batch's always did) and ends with
    os._exit: nothing of the parent's is flushed or finalised twice."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        code = 1
        try:
            os.close(rfd)
            faulthandler.disable()  # (an abort is the answer here, not a crash of verify to report)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            data = work().encode()
            view = memoryview(data)
            while view:
                view = view[os.write(wfd, view):]
            code = 0
        finally:
            os._exit(code)
    os.close(wfd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout  # a hung compiler only: no verdict depends on it
    killed = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([rfd], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                killed = True
                break
            chunk = os.read(rfd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(rfd)
        _, status = os.waitpid(pid, 0)
    if killed or not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return None
    return b"".join(chunks).decode()


def by_llvmlite_isolated(text: str, target: Target | Instance, wave: int | None = None) -> str:
    """:func:`by_llvmlite` in a child Python, so that an LLVM crash is a
    CompileError naming the target rather than the end of verify."""
    inst = _as_instance(target, wave)
    what = f"{inst.target.name} wave{inst.wave}" + (" " + " ".join(inst.flags) if inst.flags else "")
    try:
        r = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(_spec(inst))], input=text, capture_output=True,
                           text=True, timeout=300, check=False, env=_child_env())
    except subprocess.TimeoutExpired:
        raise CompileError(None, f"LLVM (llvmlite) did not finish in 300 s for {what}") from None
    if r.returncode != 0:
        err = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
        first = next((ln for ln in err if "error" in ln.lower() or "Assertion" in ln), err[-1] if err else "?")
        first = first.strip()
        if "Assertion" in first:
            first = first[first.index("Assertion"):]
        raise CompileError(None, f"LLVM (llvmlite) failed for {what}: {first[:300]}")
    # set_option reports a bad value on stderr and goes on with the default:
    # llc would stop there, and so does verify (fail closed)
    bad = [ln.strip() for ln in r.stderr.splitlines() if ln.startswith("llc: ")]
    if bad:
        raise CompileError(None, f"LLVM (llvmlite) rejects an option for {what}: {bad[0][5:][:300]}")
    return r.stdout


def by_llvmlite(text: str, target: Target, wave: int, triple: str = "", opt: int = 2,
                mattr: list[str] | tuple[str, ...] = ()) -> str:
    """AMDGPU assembly for the module from llvmlite's LLVM (codegen at -O`opt`)."""
    global _INIT
    if not _INIT:
        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        _INIT = True
    feats = [f for f in [_features(target, wave), *mattr] if f]
    try:
        mod = llvm.parse_assembly(append_features(text, feats), context=llvm.create_context())  # as llc orders them  [S:fn-target-features]
        mod.verify()
    except RuntimeError as e:
        raise InputError(None, f"LLVM rejects the module: {str(e).strip().splitlines()[0]}") from None
    tm = llvm.Target.from_triple(triple or _triple(text)).create_target_machine(
        cpu=target.llvm_cpu, features=",".join(feats), opt=opt)
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


def by_llc(llc: str, path: str, text: str, target: Target | Instance, wave: int | None = None) -> str:
    """AMDGPU assembly from an external llc (a command line: 'llc-22 -global-isel'),
    given the instance's RUN-line flags after the command's own.  A command
    that cannot run, hangs, floods or prints bytes that are not text is a
    ToolError (no verdict); one that runs and fails or crashes on the module
    is a CompileError (the "compiler error" verdict)."""
    inst = _as_instance(target, wave)
    try:
        argv = shlex.split(llc)
    except ValueError as e:  # an unbalanced quote
        raise ToolError(None, f"--llc '{_shown(llc)}': {e}") from None
    if not argv:
        raise ToolError(None, "--llc names no command")
    argv += inst.llc_args(_triple(text)) + ["-o", "-"]
    what = f"{inst.target.name} wave{inst.wave}" + (" " + " ".join(inst.flags) if inst.flags else "")
    on = f"on {path} for {what}"
    timeout = _llc_timeout()
    try:
        code, out, err, flood = _run_bounded(argv, text.encode(), timeout, LLC_MAX_OUTPUT)
    except (OSError, ValueError) as e:
        raise ToolError(None, f"cannot run '{_shown(llc)}': {_shown(str(e))}") from None
    if flood:
        raise ToolError(None, f"'{_shown(llc)}' printed more than {LLC_MAX_OUTPUT >> 20} MiB {on}; stopped it")
    if code is None:
        raise ToolError(None, f"'{_shown(llc)}' did not finish within {timeout:g} s {on} "
                               f"(VERIFY_LLC_TIMEOUT sets the limit); stopped it")
    if code != 0:
        lines = [ln for ln in err.decode(errors="replace").strip().splitlines() if ln.strip()] or ["?"]
        passes = [ln.split(".", 1)[1].strip() for ln in lines if re.match(r"^\d+\.\s+Running pass", ln)]
        first = next((ln for ln in lines if "error" in ln.lower() or "Assertion" in ln or "LLVM ERROR" in ln),
                     passes[-1] if passes else lines[0]).strip()
        how = f"crashed (signal {-code})" if code < 0 else "failed"
        raise CompileError(None, f"'{_shown(llc)}' {how} {on}: {_shown(first[:300])}")
    try:
        return out.decode()
    except UnicodeDecodeError as e:
        raise ToolError(None, f"'{_shown(llc)}' printed bytes that are not UTF-8 (at byte {e.start}) {on}") from None


def run_line_instances(path: str, runs: list[tuple[int, str]], text: str = "") -> list[Instance]:
    """The instance of each lit RUN line that runs llc for an AMDGPU target
    verify models (verify/tv/runlines.py; those it cannot use: plan())."""
    out: list[Instance] = []
    seen: set[tuple[Any, ...]] = set()
    for line, cmd in runs:
        got = parse_run(path, line, cmd, module_triple(text))
        if isinstance(got, Instance) and got.key() not in seen:
            seen.add(got.key())
            out.append(got)
    return out


def plan(path: str, text: str, targets: list[str], wave: int | None) -> RunLines:
    """The instances to check and the RUN lines not used: --target (each with
    --wave or every wave it runs), else the RUN lines (narrowed by --wave),
    else the functions' target-cpu/target-features attributes."""
    if targets:
        return RunLines(instances(path, [], targets, wave))
    got = read_run_lines(path, text)
    if not got.instances and not got.skipped and not joined_run_lines(text):
        got = from_attributes(path, text)
    if wave is not None:
        declared = sorted({i.wave for i in got.instances})
        got.instances = [i for i in got.instances if i.wave == wave]
        if declared and not got.instances:  # --wave narrows the file's waves, as for a lowering file
            raise InputError(None, f"{path}: its RUN lines run wave{'/'.join(map(str, declared))}; "
                                   f"--wave {wave} is not one of them")
    if not got.instances and not any(s.counts for s in got.skipped):
        why = "; ".join(f"{s.run}: {s.why}" for s in got.skipped)
        raise InputError(None, f"{path}: no RUN line names an AMDGPU target verify knows; give --target"
                               + (f" ({why})" if why else ""))
    return got  # RUN lines for AMDGPU that verify cannot use: each an unsupported result


def instances(path: str, runs: list[tuple[int, str]], targets: list[str], wave: int | None) -> list[Instance]:
    """The (target, wave) pairs to check: --target (each with --wave or every
    wave it runs), else the RUN lines (narrowed by --wave)."""
    if targets:
        out: list[Instance] = []
        for name in targets:
            t = get(name)
            ws = [wave] if wave is not None else list(t.waves)
            for w in ws:
                if w not in t.waves:
                    raise InputError(None, f"{t.name} runs wave{'/'.join(map(str, t.waves))} only, not wave{w}")
                out.append(Instance(t, w))
        return out
    found = run_line_instances(path, runs)
    if wave is not None:
        declared = sorted({i.wave for i in found})
        found = [i for i in found if i.wave == wave]
        if declared and not found:  # --wave narrows the file's waves, as for a lowering file
            raise InputError(None, f"{path}: its RUN lines run wave{'/'.join(map(str, declared))}; "
                                   f"--wave {wave} is not one of them")
    if not found:
        raise InputError(None, f"{path}: no RUN line names an AMDGPU target verify knows; give --target")
    return found
