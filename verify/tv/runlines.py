"""A lit RUN line is a `verify tv` instance, as lit would run it (docs/tv.md,
"RUN lines").

Each RUN line that runs ``llc`` for an AMDGPU triple becomes one
:class:`Instance`: its target and wave (``-mtriple`` in every spelling
LLVM takes, ``-march``, ``-mcpu`` with LLVM's processor aliases,
``-mattr=+wavefrontsize32/64``) and the rest of its flags (``-O0``,
``-global-isel=1``, ``-global-isel-abort=2``, ``-amdgpu-*``, other
``-mattr`` features), which the compiler is given.  Two RUN lines that differ
only in flags are two instances; two that compile the very same way are one
(labelled with the first).  A RUN line verify cannot use is never dropped
without a word: it is a :class:`Skipped` naming the line and why.

With no RUN line and no ``--target``, the functions' ``"target-cpu"`` and
``"target-features"`` attributes give the instances.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..diag import InputError
from ..target import TARGETS, Target
from .llvmopts import LLVM_OPTIONS

_GFX = ("gfx600 gfx601 gfx602 gfx700 gfx701 gfx702 gfx703 gfx704 gfx705 gfx801 gfx802 gfx803 gfx805 gfx810 "
        "gfx900 gfx902 gfx904 gfx906 gfx908 gfx909 gfx90a gfx90c gfx942 gfx950 gfx1010 gfx1011 gfx1012 gfx1013 "
        "gfx1030 gfx1031 gfx1032 gfx1033 gfx1034 gfx1035 gfx1036 gfx1100 gfx1101 gfx1102 gfx1103 gfx1150 "
        "gfx1151 gfx1152 gfx1153 gfx1200 gfx1201 gfx1250 gfx1251 gfx9-generic gfx9-4-generic gfx10-1-generic "
        "gfx10-3-generic gfx11-generic gfx12-generic")
# LLVM 22's AMDGPU processor names (`llc-22 -march=amdgcn -mcpu=help`) and
# the processor each one is (the `.amdgcn_target` llc-22 prints for it).
PROCESSORS: dict[str, str] = {
    "bonaire": "gfx704", "carrizo": "gfx801", "fiji": "gfx803", "generic": "gfx600", "generic-hsa": "gfx700",
    "hainan": "gfx602", "hawaii": "gfx701", "iceland": "gfx802", "kabini": "gfx703", "kaveri": "gfx700",
    "mullins": "gfx703", "oland": "gfx602", "pitcairn": "gfx601", "polaris10": "gfx803", "polaris11": "gfx803",
    "stoney": "gfx810", "tahiti": "gfx600", "tonga": "gfx802", "tongapro": "gfx805", "verde": "gfx601",
    **{g: g for g in _GFX.split()},
}

# llc's own options (not LLVM library options): verify reads them itself
_OWN = {"mtriple", "march", "mcpu", "mattr", "o", "filetype", "x"}
# llc options that only add comments to the printed assembly (`llc-22 --help-list-hidden`: "Show
# encoding in .s output", "Show instruction structure in .s output"): the code is the same without
_PRINT_ONLY = {"show-mc-encoding", "show-mc-inst"}
# options that make llc stop before (or not produce) the code verify checks
_STOPS = ("stop-after", "stop-before", "run-pass", "start-after", "start-before", "print-after", "print-before")


@dataclass(frozen=True)
class Instance:
    """One way the file is compiled: target, wave, and the RUN line's other
    flags.  Iterating gives (target, wave), as the older pairs did."""

    target: Target
    wave: int
    triple: str = ""  # the RUN line's -mtriple, normalised ('': the module's own)
    opt: int = 2  # -O
    mattr: tuple[str, ...] = ()  # -mattr features other than the wave size
    options: tuple[str, ...] = ()  # other llc options: -global-isel=1, -amdgpu-...=...
    run: str = ""  # "path:line" of its RUN line ('': --target, or the functions' attributes)
    cmd: str = ""  # the RUN line's llc command as written
    only: str = ""  # the one function it is for (from that function's attributes; '': every function)

    def __iter__(self) -> Iterator[Any]:
        return iter((self.target, self.wave))

    @property
    def flags(self) -> tuple[str, ...]:
        """The flags beyond target and wave, as llc takes them."""
        out = [f"-O{self.opt}"] if self.opt != 2 else []
        if self.mattr:
            out.append("-mattr=" + ",".join(self.mattr))
        return (*out, *self.options)

    def key(self) -> tuple[Any, ...]:
        """What the compiled code depends on (the run label not)."""
        return (self.target.name, self.wave, self.triple, self.opt, self.mattr, self.options)

    def llc_args(self, module_triple: str) -> list[str]:
        """The arguments for an external llc."""
        feats = [f"+wavefrontsize{self.wave}"] if len(self.target.waves) > 1 else []
        argv = [f"-mtriple={self.triple or module_triple}", f"-mcpu={self.target.llvm_cpu}", f"-O{self.opt}"]
        if feats or self.mattr:
            argv.append("-mattr=" + ",".join([*feats, *self.mattr]))
        return argv + list(self.options)

    def llvmlite_problem(self) -> str:
        """Why llvmlite's LLVM cannot compile it so ('' : it can)."""
        bad = [o for o in self.options if _name(o) not in LLVM_OPTIONS]
        if bad:
            return (f"llvmlite's LLVM cannot be given {' '.join(bad)} (not an LLVM library option verify knows it "
                    f"takes); give --llc 'llc-22 ...' to compile this RUN line")
        return ""


@dataclass(frozen=True)
class Skipped:
    """A RUN line verify does not use, and why."""

    run: str  # path:line
    why: str
    counts: bool = True  # an AMDGPU llc RUN line (an unsupported instance); False: not a codegen RUN line


@dataclass
class RunLines:
    instances: list[Instance] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def _name(opt: str) -> str:
    return opt.lstrip("-").split("=", 1)[0]


def joined_run_lines(text: str) -> list[tuple[int, str]]:
    """The RUN lines, a line ending in a backslash joined with the next RUN
    line (lit's continuation): (first line, command)."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for k, ln in enumerate(text.splitlines(), 1):
        m = re.search(r"\bRUN:\s?(.*)$", ln)
        if not m:
            continue
        body = m.group(1).rstrip()
        pending = (pending[0], pending[1] + " " + body.strip()) if pending is not None else (k, body.strip())
        if pending[1].endswith("\\"):
            pending = (pending[0], pending[1][:-1].rstrip())
            continue
        out.append(pending)
        pending = None
    if pending is not None:
        out.append(pending)
    return out


def normalise_triple(triple: str) -> tuple[str, str] | str:
    """(amdgcn triple, processor implied by the triple or '') for an AMDGPU
    triple in any spelling LLVM takes; a string: why it is not one."""
    parts = triple.split("-")
    arch = parts[0].lower()
    rest = "-".join(parts[1:])
    m = re.fullmatch(r"amdgpu(\d+)(?:\.(\w)(\w)?)?", arch)
    if m:  # the subarch spelling, amdgpu9.08 = gfx908 (no -mcpu needed)
        major, minor, step = m.group(1), m.group(2), m.group(3)
        cpu = f"gfx{major}{minor}{step}" if minor is not None and step is not None else ""
        if not cpu:
            cpu = f"gfx{major}{'-' + minor if minor else ''}-generic"
        os_ = parts[2].lower() if len(parts) > 2 else ""
        return ("amdgcn-" + rest if os_ not in ("", "unknown") else ""), cpu
    if arch == "amdgcn":
        # no OS (amdgcn, amdgcn--, amdgcn-unknown-unknown): compiled for amdhsa, the
        # kernel ABI verify models (functions compile alike); an OS named is kept
        os_ = parts[2].lower() if len(parts) > 2 else ""
        return (triple if os_ not in ("", "unknown") else ""), ""
    if arch == "r600":
        return "R600 (pre-GCN) targets are not modelled"
    return f"'{triple}' is not an AMDGPU triple"


def parse_run(path: str, line: int, cmd: str, module_triple: str) -> Instance | Skipped | None:
    """The instance of one RUN line, a Skipped, or None when it runs no llc."""
    where = f"{path}:{line}"
    segs = [s.strip() for s in re.split(r"\|", cmd)]
    llc = None
    for s in segs:
        try:
            words = shlex.split(s)
        except ValueError:
            words = s.split()
        if words and words[0] == "not":
            words = words[1:]
            if words and words[0] == "--crash":
                words = words[1:]
            if words and re.fullmatch(r"(%?llc|llc(-\d+)?)", words[0]):
                return Skipped(where, "it expects llc to fail ('not llc')", False)
        if words and re.fullmatch(r"(%?llc|llc(-\d+)?)", words[0]):
            llc = words
            break
    if llc is None:
        return None
    triple, cpu, attrs, opt, options = "", "", [], 2, []
    k = 1
    while k < len(llc):
        w = llc[k]
        k += 1
        if not w.startswith("-") or w == "-":
            continue  # %s, files, redirections' targets
        name = _name(w)
        val = w.split("=", 1)[1] if "=" in w else None
        if name in ("mtriple", "march", "mcpu", "mattr", "o", "x", "filetype") and val is None and k < len(llc):
            val = llc[k]
            k += 1
        if name == "mtriple":
            triple = val or ""
        elif name == "march":
            triple = triple or (val or "")
        elif name == "mcpu":
            cpu = val or ""
        elif name == "mattr":
            attrs += [a for a in (val or "").split(",") if a]
        elif re.fullmatch(r"O[0-3]", name):
            opt = int(name[1])
        elif name in ("o", "filetype"):
            pass  # verify compiles to assembly itself
        elif name in _PRINT_ONLY and val is None:
            pass  # comments in the printed assembly only
        elif name == "x":
            return Skipped(where, f"llc reads '{val}' input, not this IR", True)
        elif name.startswith(_STOPS):
            return Skipped(where, f"llc {w} stops before the final code", True)
        elif name not in _OWN:
            options.append("-" + w.lstrip("-"))
    mt = triple or module_triple
    if not mt:
        return Skipped(where, "it names no -mtriple and the module no target triple", False)
    got = normalise_triple(mt)
    if isinstance(got, str):
        return Skipped(where, got, not got.startswith("'"))
    norm, implied = got
    cpu = cpu or implied
    if not cpu:
        # LLVM's default processor: 'generic-hsa' (gfx700) for the amdhsa OS, else
        # 'generic' (gfx600)  [S:sici]
        cpu = "generic-hsa" if "amdhsa" in mt.lower() else "generic"
    proc = PROCESSORS.get(cpu)
    if proc is None:
        return Skipped(where, f"-mcpu={cpu} is not an AMDGPU processor LLVM 22 knows")
    target = _target_of(proc)
    if target is None:
        alias = f" ({proc})" if proc != cpu else ""
        return Skipped(where, f"-mcpu={cpu}{alias} is not modelled by verify (`verify targets` lists those that are)")
    wave = target.default_wave
    rest: list[str] = []
    for a in attrs:
        if a in ("+wavefrontsize64", "-wavefrontsize32"):
            wave = 64
        elif a in ("+wavefrontsize32", "-wavefrontsize64"):
            wave = 32
        else:
            rest.append(a)
    if wave not in target.waves:
        return Skipped(where, f"{target.name} runs wave{'/'.join(map(str, target.waves))} only, not wave{wave}")
    return Instance(target.with_llvm_attrs(rest), wave, norm, opt, tuple(rest), tuple(options), where,
                    " ".join(llc))


def _target_of(proc: str) -> Target | None:
    for t in TARGETS.values():
        if t.name == proc:
            return t
    for t in TARGETS.values():
        if t.llvm_cpu == proc:
            return t
    return None


def module_triple(text: str) -> str:
    m = re.search(r'^\s*target\s+triple\s*=\s*"([^"]+)"', text, re.M)
    return m.group(1) if m else ""


def from_attributes(path: str, text: str) -> RunLines:
    """Instances from the defined functions' "target-cpu"/"target-features"
    attribute groups (a file with no RUN line and no --target): each for its
    own function only."""
    groups = {m.group(1): m.group(2) for m in re.finditer(r"^attributes\s+#(\d+)\s*=\s*\{(.*)\}", text, re.M)}
    out = RunLines()
    seen: set[tuple[Any, ...]] = set()
    for k, ln in enumerate(text.splitlines(), 1):
        if not ln.startswith("define"):
            continue
        fname = re.search(r"@([\w.$-]+)\s*\(", ln)
        body = " ".join(groups.get(g, "") for g in re.findall(r"#(\d+)", ln.split("@", 1)[-1]))
        cpu = re.search(r'"target-cpu"="([^"]*)"', body)
        feats = re.search(r'"target-features"="([^"]*)"', body)
        if cpu is None:
            continue
        mattr = feats.group(1) if feats else ""
        cmd = f"llc -mcpu={cpu.group(1)}" + (f" -mattr={mattr}" if mattr else "")
        got = parse_run(path, k, cmd, module_triple(text) or "amdgcn-amd-amdhsa")
        if isinstance(got, Instance):
            got = Instance(got.target, got.wave, got.triple, got.opt, (), (), f"{path}:{k}", cmd + " (attributes)",
                           fname.group(1) if fname else "")
            if (got.key(), got.only) not in seen:
                seen.add((got.key(), got.only))
                out.instances.append(got)
        elif got is not None:
            out.skipped.append(Skipped(got.run, f"the function's attributes: {got.why}", got.counts))
    return out


def read_run_lines(path: str, text: str) -> RunLines:
    """Every RUN line's instance or reason (identical compiles merged)."""
    out = RunLines()
    seen: set[tuple[Any, ...]] = set()
    mt = module_triple(text)
    for line, cmd in joined_run_lines(text):
        got = parse_run(path, line, cmd, mt)
        if got is None:
            continue
        if isinstance(got, Skipped):
            out.skipped.append(got)
        elif got.key() not in seen:
            seen.add(got.key())
            out.instances.append(got)
    return out


def llc_timeout() -> float:
    """How long an --llc command may run, seconds: VERIFY_LLC_TIMEOUT, else 60."""
    text = os.environ.get("VERIFY_LLC_TIMEOUT")
    if text is None:
        return 60.0
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not 0 < v < float("inf"):
        shown = text if text.isprintable() else ascii(text)[1:-1]
        raise InputError(None, f"VERIFY_LLC_TIMEOUT must be a positive number of seconds, got '{shown}'")
    return v


def check_llc(cmds: list[str]) -> None:
    """Fail closed: every --llc command must run (its program found and
    answering --version) before anything is compiled; else one error."""
    for cmd in cmds:
        try:
            argv = shlex.split(cmd)
        except ValueError as e:
            raise InputError(None, f"--llc '{cmd}': {e}") from None
        if not argv:
            raise InputError(None, "--llc '': no command")
        exe = shutil.which(argv[0])
        if exe is None:
            raise InputError(None, f"--llc '{cmd}': cannot run '{argv[0]}': no such program")
        limit = llc_timeout()
        try:  # its own process group, so that what a shell starts is stopped with it
            proc = subprocess.Popen([exe, *argv[1:], "--version"], stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as e:
            raise InputError(None, f"--llc '{cmd}': cannot run '{argv[0]}': {e}") from None
        try:
            proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            raise InputError(None, f"--llc '{cmd}': '{cmd} --version' did not finish within {limit:g} s "
                                   "(VERIFY_LLC_TIMEOUT sets the limit)") from None
        finally:
            with contextlib.suppress(OSError):  # gone already
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def declared_wave(attrs: dict[str, str]) -> int | None:
    """The wave size a function's "target-features" attribute fixes
    (+wavefrontsize32 or +wavefrontsize64; None: neither, or both)."""
    got = {int(w) for w in re.findall(r"\+wavefrontsize(32|64)\b", attrs.get("target-features", ""))}
    return got.pop() if len(got) == 1 else None


def wave_fits(fn: Any, wave: int, asked: int | None) -> bool:
    """Whether function `fn` is checked on `wave`: not where its own
    "target-features" fix the other wave size (LLVM compiles it for that
    one).  `asked` (--wave) contradicting them is an input error."""
    own = declared_wave(fn.attrs)
    if own is None or own == wave:
        return True
    if asked is not None:
        raise InputError(fn.span, f"--wave {asked} contradicts @{fn.name}'s \"target-features\" "
                                  f"(+wavefrontsize{own})")
    return False
