"""Proving and checking whole trees of lowerings against their proof
records: what ``verify prove`` and ``verify check`` run.

Work is done per lowering (all its (target, wave) instantiations together,
so targets with the same semantics share a solver run and a record, see
refine.py), in worker processes when ``jobs > 1``: each process has its own
z3 context.  Nothing is written until every proof of the run has finished,
and nothing at all when one of them hits an input error.  Records are read,
compared and rendered by proofs.py, the lock by revisions.py; this module
prints nothing.

A line of ``proofs.lock`` belongs to the whole catalogue: when the checker
or an op changed, ``prove`` re-proves every record of the catalogue that
depends on it, wherever it is, then writes the lock with today's revisions.
A record file whose re-proof gives the same records keeps its bytes.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from . import proofs, revisions
from . import target as T
from .catalog import ROOT, display_path, lock_file
from .diag import InputError, Span
from .ir import Lowering
from .lowering_file import load_lowering
from .refine import check_lowering
from .workers import pool as worker_pool

# ---------------------------------------------------------------------------
# what to look at


def default_paths(builtin: bool = False) -> list[str]:
    """`lowerings/` in the current directory; the built-in catalogue only
    when asked for (`--builtin`); else an error naming what was looked for."""
    if builtin:
        return [str(ROOT / "lowerings")]
    here = Path("lowerings")
    if here.is_dir():
        return [str(here)]
    raise InputError(None, f"no lowerings/ directory in {Path.cwd()} and no PATH given: name the lowering files "
                           f"or directories, or give --builtin for the built-in catalogue ({ROOT / 'lowerings'})")


def installed() -> bool:
    """The built-in catalogue is an installed package's (<prefix>/share/verify),
    not a source checkout: nothing may be written there."""
    return ROOT.name == "verify" and ROOT.parent.name == "share"


def refuse_installed(files: list[Path]) -> None:
    """`verify prove` never writes proof records into the installed package."""
    if not installed():
        return
    for f in files:
        if f.resolve().is_relative_to(ROOT.resolve()):
            raise InputError(None, f"{f}: is in the installed package ({ROOT}); verify prove does not write "
                                   f"proof records there (copy the catalogue and prove the copy)")


def _skipped(base: Path, p: Path) -> bool:
    return any(part.startswith(("_", ".")) for part in p.relative_to(base).parts)


def collect(paths: list[str], builtin: bool = False) -> tuple[list[Path], list[Path]]:
    """Lowering files named by `paths` (files or directories), sorted, and
    the proofs/ directories that mirror the directories among them (where a
    record without a lowering is an orphan)."""
    files: dict[str, Path] = {}
    scopes: list[Path] = []
    for arg in paths or default_paths(builtin):
        p = Path(arg)
        if p.is_file():
            if p.suffix != ".s":
                raise InputError(None, f"{arg}: not a lowering (.s) file")
            proofs.locate(p)
            files[str(p.resolve())] = p.resolve()
        elif p.is_dir():
            d = p.resolve()
            base = d if d.name == "lowerings" else next((q for q in d.parents if q.name == "lowerings"), None)
            if base is None:
                if not (d / "lowerings").is_dir():
                    raise InputError(None, f"{arg}: no lowerings/ directory here")
                d = base = d / "lowerings"
            for f in sorted(d.rglob("*.s")):
                if not _skipped(base, f):
                    files[str(f)] = f
            scopes.append(base.parent / "proofs" / d.relative_to(base))
        else:
            raise InputError(None, f"no such file or directory: {arg}")
    return [files[k] for k in sorted(files)], scopes


# ---------------------------------------------------------------------------
# proving (in worker processes)


def _prove_file(job: tuple[str, float, bool]) -> dict[str, Any]:
    """Prove every instantiation one lowering declares; plain data out."""
    path, timeout, smt2 = job
    try:
        low = load_lowering(path)
        now = proofs.hashes(low)
        results = check_lowering(low, T.resolve_all(low.targets, low.spans.get("targets")), low.waves, timeout,
                                 smt2=smt2)
        for r in results:
            if r.verdict == "error":
                o = next(o for o in r.obligations if o.verdict == "error")
                span = low.spans.get("exec") if o.name == "contract" else low.spans.get("spec")
                raise InputError(span, f"vacuous for {r.target} wave{r.wave}: {o.detail}")
        warnings = sorted({str(w) for r in results for w in r.warnings})
        return {"path": path, "records": proofs.make_records(results, now), "warnings": warnings,
                "smt2": {f"{r.target}.w{r.wave}": (r.shared_with, r.smt2) for r in results} if smt2 else {}}
    except InputError as e:
        sp = e.span
        return {"path": path, "error": (None if sp is None else (sp.path, sp.line, sp.col), e.message)}


# progress(done, total, the file being proved or None): called as work goes on (only for a progress bar)
Progress = Callable[[int, int, str | None], None]


def _no_progress(done: int, total: int, current: str | None) -> None:
    pass


def prove_files(paths: list[Path], jobs: int = 1, timeout: float = 30.0,
                smt2: bool = False, progress: Progress = _no_progress) -> dict[str, dict[str, Any]]:
    """{path: worker result} for every lowering file; raises the first
    input error (in path order) after all of them have finished."""
    work = [(str(p), timeout, smt2) for p in paths]
    if jobs <= 1 or len(work) <= 1:
        out = []
        for k, w in enumerate(work):
            progress(k, len(work), _disp(w[0]))
            out.append(_prove_file(w))
    else:
        with worker_pool(min(jobs, len(work)), ["verify.gate", "verify.refine", "verify.smt"]) as pool:
            out = []
            for r in pool.imap(_prove_file, work, chunksize=1):
                out.append(r)
                progress(len(out), len(work), None)
    for r in out:
        if "error" in r:
            sp, msg = r["error"]
            raise _shown(InputError(Span(*sp) if sp else None, msg))
    return {r["path"]: r for r in out}


def _shown(e: InputError) -> InputError:
    """The error with its path as the user would write it (work is done on
    absolute paths: worker processes need not share our directory)."""
    if e.span is None or e.span.path.startswith("<"):
        return e
    return InputError(Span(_disp(e.span.path), e.span.line, e.span.col), e.message)


# ---------------------------------------------------------------------------
# the outcome, one entry per record


@dataclass
class Entry:
    record: str  # the record file, as displayed
    lowering: str  # the lowering file, as displayed
    target: str | None  # None: the whole file (an orphan file)
    wave: int | None
    status: str  # current | stale | missing | orphan | differs | written | removed
    verdict: str | None = None  # the record's verdict (written: the new one)
    reasons: list[str] = field(default_factory=list)
    reproved: str | None = None  # check: the verdict a proof gives now
    failing: list[str] = field(default_factory=list)  # obligations not proved

    @property
    def where(self) -> str:
        return self.record if self.target is None else f"{self.record}: {self.target} wave{self.wave}"

    def kind(self) -> str:
        """What is true now, as the counts count it: the record's verdict if
        current; "refuted" where a stale or missing record's fresh proof is
        refuted (the lowering is wrong, whatever its record says); else the
        record's status."""
        if self.status in ("current", "written"):
            return self.verdict or self.status
        if self.status in ("stale", "missing") and self.reproved == "refuted":
            return "refuted"
        return self.status

    def problem(self, allow_unknown: bool = False) -> str | None:
        """None if this entry passes `verify check`, else why not."""
        if self.kind() == "refuted":
            return "refuted"
        if self.status in ("current", "written"):
            if self.verdict == "proved" or (self.verdict == "unknown" and allow_unknown):
                return None
            return self.verdict
        if self.status in ("removed",):
            return None
        return self.status


@dataclass
class Report:
    command: str
    entries: list[Entry]
    lowerings: int
    reproved: list[str]  # lowering files proved in this run
    warnings: list[str] = field(default_factory=list)
    allow_unknown: bool = False
    shard: tuple[int, int] | None = None
    smt2: dict[str, Any] = field(default_factory=dict)  # lowering path -> {target.wWAVE: (shared_with, {obligation: text})}
    record_counts: dict[str, int] = field(default_factory=dict)  # record file -> records in it
    unchanged: set[str] = field(default_factory=set)  # prove: record files re-proved to the same bytes

    def exit_code(self) -> int:
        probs = [e.problem(self.allow_unknown) for e in self.entries]
        if any(p not in (None, "unknown") for p in probs):
            return 1
        return 3 if "unknown" in probs else 0

    def counts(self) -> dict[str, int]:
        c: dict[str, int] = {}
        for e in self.entries:
            k = e.kind()
            c[k] = c.get(k, 0) + 1
        return c

    def smt2_tree(self) -> dict[str, str]:
        """Every obligation asked, as SMT-LIB files by path (the lowering's
        place in the catalogue, then :func:`smt2_files`' names)."""
        files = {}
        for path, runs in self.smt2.items():
            rel = proofs.locate(Path(path))[1].with_suffix("")
            for name, text in smt2_files(rel.name, runs).items():
                files[str(rel.parent / name)] = text
        return files

    def lines(self) -> list[str]:
        """One line per problem (check) or per lowering written (prove)."""
        out = []
        if self.command == "prove":
            by_file: dict[str, list[Entry]] = {}
            for e in self.entries:
                if e.status in ("written", "removed"):
                    by_file.setdefault(e.record, []).append(e)
            for rec, es in by_file.items():
                if es[0].status == "removed" and es[0].target is None:
                    out.append(f"{rec}: removed (no lowering {es[0].lowering})")
                    continue
                written = [e for e in es if e.status == "written"]
                vs: dict[str | None, list[str]] = {}
                for e in written:
                    vs.setdefault(e.verdict, []).append(f"{e.target} wave{e.wave}")
                parts = [f"{len(v)} {k}" + ("" if k == "proved" else f" ({', '.join(v)})") for k, v in vs.items()]
                gone = [f"{e.target} wave{e.wave}" for e in es if e.status == "removed"]
                if gone:
                    parts.append(f"removed {', '.join(gone)}")
                n = self.record_counts.get(rec, 0)
                head = f"{n} record{'s' * (n != 1)}"
                if written:
                    head = f"{len(written)} instantiation{'s' * (len(written) != 1)} in {head}"
                same = " (unchanged)" if rec in self.unchanged else ""
                out.append(f"{rec}: {head}: " + ", ".join(parts) + same)
            return out
        for e in self.entries:
            p = e.problem(self.allow_unknown)
            if p is None and not (e.verdict == "unknown" and e.status == "current"):
                continue
            out.append(self._line(e))
        return out

    def _line(self, e: Entry) -> str:
        fail = f" ({'; '.join(e.failing)})" if e.failing else ""
        hint = f"; run: verify prove {e.lowering}"
        if e.reproved == "refuted" and e.status in ("stale", "missing"):  # proving again cannot fix it
            hint = f"; fix the lowering: `verify lowering {e.lowering}` shows the counterexample"
        if e.status == "current":
            allowed = " (allowed by --allow-unknown)" if e.verdict == "unknown" and self.allow_unknown else ""
            return f"{e.where}: {e.verdict}{fail}{allowed}"
        if e.status == "stale":
            return f"{e.where}: stale ({', '.join(e.reasons)}); re-proved now: {e.reproved}{fail}{hint}"
        if e.status == "missing":
            return f"{e.where}: missing; proved now: {e.reproved}{fail}{hint}"
        if e.status == "differs":
            return f"{e.where}: differs from a fresh proof ({', '.join(e.reasons)}){hint}"
        if e.status == "orphan":
            if e.target is None:
                return f"{e.where}: orphan: there is no lowering {e.lowering}; delete the record"
            return f"{e.where}: orphan: {e.lowering} does not declare {e.target} wave{e.wave}{hint}"
        return f"{e.where}: {e.status}"

    def summary(self) -> str:
        c = self.counts()
        order = ["proved", "refuted", "unknown", "stale", "missing", "orphan", "differs", "removed"]
        parts = [f"{c.get(k, 0)} {k}" for k in order if c.get(k) or k in ("proved", "refuted", "unknown")]
        ninst = sum(1 for e in self.entries if e.target is not None and e.status != "removed")
        nrec = sum(self.record_counts.values())
        shard = f", shard {self.shard[0]}/{self.shard[1]}" if self.shard else ""
        return (f"{self.command}: {self.lowerings} lowering{'s' * (self.lowerings != 1)}{shard}, "
                f"{ninst} instantiation{'s' * (ninst != 1)} in {nrec} record{'s' * (nrec != 1)}: "
                + ", ".join(parts) + f"; {len(self.reproved)} lowering{'s' * (len(self.reproved) != 1)} proved in this run")

    def to_json(self) -> dict[str, Any]:
        return {"command": self.command, "exit": self.exit_code(), "summary": self.counts(),
                "lowerings": self.lowerings, "proved_in_this_run": self.reproved,
                "shard": list(self.shard) if self.shard else None,
                "records": [{**asdict(e), "problem": e.problem(self.allow_unknown)} for e in self.entries]}

    def junit(self) -> str:
        """JUnit XML: a test suite per lowering, a test case per record."""
        suites: dict[str, list[Entry]] = {}
        for e in self.entries:
            suites.setdefault(e.lowering, []).append(e)
        root = ET.Element("testsuites", name=f"verify {self.command}")
        tot = {"tests": 0, "failures": 0, "skipped": 0}
        for low, es in suites.items():
            s = ET.SubElement(root, "testsuite", name=low)
            n = {"tests": 0, "failures": 0, "skipped": 0}
            for e in es:
                tc = ET.SubElement(s, "testcase", classname=low, name=(e.target and f"{e.target} wave{e.wave}") or "record file",
                                   file=e.record)
                n["tests"] += 1
                p = e.problem(self.allow_unknown)
                if p is not None:
                    f = ET.SubElement(tc, "failure", type=p, message=self._line(e))
                    f.text = self._line(e)
                    n["failures"] += 1
                elif e.verdict == "unknown":
                    ET.SubElement(tc, "skipped", message=self._line(e))
                    n["skipped"] += 1
            for k, v in n.items():
                s.set(k, str(v))
                tot[k] += v
            s.set("errors", "0")
        for k, v in tot.items():
            root.set(k, str(v))
        root.set("errors", "0")
        ET.indent(root)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _failing(rec: dict[str, Any]) -> list[str]:
    """The obligations a record does not prove: 'value(out)' when refuted,
    with the reason when unknown."""
    return [o["name"] if o["verdict"] == "refuted" else f"{o['name']}: {o['verdict']}: {o.get('detail', '')}"
            for o in rec["obligations"] if o["verdict"] != "proved"]


# ---------------------------------------------------------------------------
# the two commands


@dataclass
class _Plan:
    path: Path
    low: Lowering
    record_file: Path
    expected: list[tuple[str, int]]
    stored: dict[tuple[str, int], dict[str, Any]]  # (target, wave) -> record
    records: list[dict[str, Any]]  # the records of the file, each once
    now: dict[str, str]
    names: tuple[Any, Any]  # the record file's "lowering" and "spec" (None, None without one)
    root: Path  # the catalogue: the directory holding lowerings/, proofs/ and proofs.lock
    lock: dict[str, str] | None  # its proofs.lock

    def state(self, key: tuple[str, int]) -> tuple[str, list[str]]:
        rec = self.stored.get(key)
        if rec is None:
            return "missing", []
        reasons = proofs.stale_reasons(rec, self.now, self.lock, low=self.low, names=self.names)
        return ("stale", reasons) if reasons else ("current", [])

    def depends(self, lines: set[str]) -> bool:
        """Does a record of this lowering depend on one of these lock lines?"""
        return bool(lines) and any("core" in lines or lines & set(r["ops"]) for r in self.records)


Locks = dict[Path, dict[str, str] | None]  # catalogue root -> its proofs.lock


def _plan(paths: list[Path], old_ok: bool = False, locks: Locks | None = None) -> list[_Plan]:

    locks = {} if locks is None else locks
    plans = []
    for p in paths:
        try:
            low = load_lowering(p)
            rf = proofs.record_file(p)
            d = proofs.load(rf, old_ok)
            root = proofs.locate(p)[0].parent
            if root not in locks:
                locks[root] = revisions.load_lock(proofs.lock_path(p))
            plans.append(_Plan(p, low, rf, proofs.instantiations(low), d["records"] if d else {},
                               d["list"] if d else [], proofs.hashes(low),
                               (d["lowering"], d["spec"]) if d else (None, None), root, locks[root]))
        except InputError as e:
            raise _shown(e) from None
    return plans


def _dependents(plans: list[_Plan], locks: Locks) -> list[_Plan]:
    """The lowerings outside `plans`, in the catalogues they belong to, with a
    record that depends on a lock line that is not today's revision."""
    have = {str(pl.path) for pl in plans}
    out: list[_Plan] = []
    for root in sorted({pl.root for pl in plans}):
        stale = revisions.stale_lines(locks[root])
        if not stale:
            continue
        others = [f for f in collect([str(root / "lowerings")])[0] if str(f) not in have]
        out += [pl for pl in _plan(others, True, locks) if pl.depends(stale)]
    return out


def _orphan_files(scopes: list[Path], files: list[Path]) -> list[Path]:
    have = {str(proofs.record_file(f)) for f in files}
    out = []
    for d in scopes:
        if d.is_dir():
            # (a record file is not followed: it may be a link to nowhere)
            out += [p for p in sorted(d.rglob("*" + proofs.SUFFIX)) if str(p.parent.resolve() / p.name) not in have]
    return sorted(set(out))


def _disp(p: Path | str) -> str:
    """A path as the user would write it (the file itself not followed: a
    record file may be a link loop)."""
    p = Path(p)
    return str(Path(display_path(p.parent)) / p.name)


def prove(paths: list[str], jobs: int = 1, timeout: float = 30.0, force: bool = False, smt2: bool = False,
          progress: Progress = _no_progress, builtin: bool = False) -> Report:
    """Write a current record for every instantiation of every lowering in
    `paths`, proving only lowerings whose records are not all current
    (everything with `force`), and every lowering of their catalogues whose
    records depend on a changed lock line; remove records that no lowering
    declares; write each catalogue's proofs.lock."""
    files, scopes = collect(paths, builtin)
    refuse_installed(files)
    locks: Locks = {}
    plans = _plan(files, True, locks)
    plans = sorted(plans + _dependents(plans, locks), key=lambda pl: str(pl.path))
    todo = [pl for pl in plans if force or smt2 or any(pl.state(k)[0] != "current" for k in pl.expected)]
    done = prove_files([pl.path for pl in todo], jobs, timeout, smt2, progress)
    entries: list[Entry] = []
    writes: list[tuple[Path, str]] = []
    counts: dict[str, int] = {}
    unchanged: set[str] = set()
    for pl in plans:
        rec_d, low_d = _disp(pl.record_file), _disp(pl.path)
        res = done.get(str(pl.path))
        extra = sorted(set(pl.stored) - set(pl.expected), key=proofs.key_order)
        if res is not None:
            recs = res["records"]
            entries += [Entry(rec_d, low_d, t, r["wave"], "written", r["verdict"], failing=_failing(r))
                        for r in sorted(recs, key=proofs.record_order) for t in r["targets"]]
        else:
            want = set(pl.expected)
            recs = []
            for r in pl.records:
                ts = [t for t in r["targets"] if (t, r["wave"]) in want]
                if ts:
                    recs.append(r if ts == r["targets"] else {**r, "targets": ts})
            entries += [Entry(rec_d, low_d, k[0], k[1], "current", pl.stored[k]["verdict"],
                              failing=_failing(pl.stored[k])) for k in pl.expected]
        if res is not None or extra:
            text = proofs.render(proofs.repo_path(pl.path), proofs.spec_call(pl.low), recs)
            if pl.record_file.exists() and pl.record_file.read_text() == text:
                unchanged.add(rec_d)
            else:
                writes.append((pl.record_file, text))
        counts[rec_d] = len(recs)
        entries += [Entry(rec_d, low_d, t, w, "removed") for t, w in extra]
    orphans = _orphan_files(scopes, files)
    for f in orphans:
        if f.is_dir() and not f.is_symlink():  # before anything is written
            raise InputError(None, f"{_disp(f)}: a directory where a proof record belongs; remove it")
    for f in orphans:
        entries.append(Entry(_disp(f), _disp(proofs.lowering_of(f)), None, None, "removed"))
    for f, text in writes:
        proofs.write_atomic(f, text)
    for f in orphans:
        f.unlink()
    lock_text = revisions.render_lock(revisions.current())
    for root in sorted({pl.root for pl in plans}):
        lf = lock_file(root)
        if (root / "proofs").is_dir() and (not lf.exists() or lf.read_text() != lock_text):
            proofs.write_atomic(lf, lock_text)
    warnings = sorted({w for r in done.values() for w in r["warnings"]})
    return Report("prove", entries, len(plans), [_disp(Path(p)) for p in done], warnings,
                  smt2={p: r["smt2"] for p, r in done.items()}, record_counts=counts, unchanged=unchanged)


def _git(root: Path, *argv: str) -> str:
    """git's output for `argv` run in `root`, or the one-line error of
    --since (git missing, not a repository, an unknown revision)."""
    try:
        done = subprocess.run(["git", "-C", str(root), *argv], capture_output=True, text=True, check=False)
    except OSError as e:
        raise InputError(None, f"--since needs git: {e.strerror}") from None
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"git {argv[0]} failed"])[-1].removeprefix("fatal: ")
        raise InputError(None, f"--since needs a git repository and a revision of it: {why}")
    return done.stdout


def changed_since(ref: str, root: Path) -> tuple[set[Path], dict[str, str] | None]:
    """What a change since the git revision `ref` touched in the catalogue
    at `root`: (every file that differs from `ref`, committed or not,
    untracked ones included, as absolute paths; proofs.lock as it was at
    `ref`, or None where it had none)."""
    root = root.resolve()
    top = Path(_git(root, "rev-parse", "--show-toplevel").strip())
    try:
        _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}")
    except InputError:
        raise InputError(None, f"--since: unknown revision {ref} (a commit, branch or tag of {top})") from None
    names = _git(top, "diff", "--name-only", "-z", "--end-of-options", ref, "--").split("\0")
    names += _git(top, "ls-files", "--others", "--exclude-standard", "--full-name", "-z").split("\0")
    changed = {(top / n).resolve() for n in names if n}
    lf = lock_file(root).resolve()
    try:
        rel = lf.relative_to(top).as_posix()
    except ValueError:
        return changed, None
    try:
        old = _git(top, "show", f"{ref}:{rel}")
    except InputError:  # no proofs.lock at `ref`
        return changed, None
    return changed, revisions.parse_lock(old, f"{ref}:{rel}")


def check(paths: list[str], jobs: int = 1, timeout: float = 30.0, shard: tuple[int, int] | None = None,
          full: bool = False, allow_unknown: bool = False, progress: Progress = _no_progress,
          since: str | None = None, builtin: bool = False) -> Report:
    """Compare every record with what it should be now: current records are
    trusted (their hashes say nothing changed); lowerings with a stale or
    missing record (every lowering with `full`) are proved again, to say
    what the verdict is now.  With `since` (a git revision), so that a change
    cannot vouch for itself, every lowering whose file or record file differs
    from that revision, and every one whose records depend on a proofs.lock
    line that differs from it, is proved again too and compared with its
    records.  Writes nothing."""
    all_files, scopes = collect(paths, builtin)
    files = all_files
    if shard:
        i, n = shard
        files = [f for k, f in enumerate(all_files) if k % n == i - 1]
    plans = _plan(files)
    touched: set[str] = set()
    if since is not None:
        for root in sorted({pl.root for pl in plans}):
            changed, old_lock = changed_since(since, root)
            mine = [pl for pl in plans if pl.root == root]
            lock_lines = {k for k in set(old_lock or {}) | set(mine[0].lock or {})
                          if (old_lock or {}).get(k) != (mine[0].lock or {}).get(k)}
            if old_lock is None and lock_file(root).resolve() in changed:
                lock_lines = {"core"}  # a new lock: every record depends on the core line
            for pl in mine:
                if (pl.path.resolve() in changed or pl.record_file.parent.resolve() / pl.record_file.name in changed
                        or (lock_lines and ("core" in lock_lines or lock_lines & set(proofs.dependencies(pl.low))))):
                    touched.add(str(pl.path))
    todo = [pl for pl in plans
            if full or str(pl.path) in touched or any(pl.state(k)[0] != "current" for k in pl.expected)]
    done = prove_files([pl.path for pl in todo], jobs, timeout, progress=progress)
    entries: list[Entry] = []
    counts: dict[str, int] = {}
    for pl in plans:
        rec_d, low_d = _disp(pl.record_file), _disp(pl.path)
        if pl.records:
            counts[rec_d] = len(pl.records)
        res = done.get(str(pl.path))
        fresh = {(t, r["wave"]): r for r in res["records"] for t in r["targets"]} if res else {}
        for key in pl.expected:
            state, reasons = pl.state(key)
            rec = pl.stored.get(key)
            new = fresh.get(key)
            if state == "current" and rec is not None and new is not None and new != rec:
                diff = sorted(k for k in new if new[k] != rec.get(k))
                entries.append(Entry(rec_d, low_d, key[0], key[1], "differs", rec["verdict"], diff, new["verdict"],
                                     _failing(new)))
            elif state == "current" and rec is not None:  # (a current state has a record)
                entries.append(Entry(rec_d, low_d, key[0], key[1], "current", rec["verdict"], failing=_failing(rec)))
            else:
                entries.append(Entry(rec_d, low_d, key[0], key[1], state, None if rec is None else rec["verdict"], reasons,
                                     new and new["verdict"], _failing(new) if new else []))
        for key in sorted(set(pl.stored) - set(pl.expected), key=proofs.key_order):
            entries.append(Entry(rec_d, low_d, key[0], key[1], "orphan", pl.stored[key]["verdict"]))
    if not shard or shard[0] == 1:
        for f in _orphan_files(scopes, all_files):
            entries.append(Entry(_disp(f), _disp(proofs.lowering_of(f)), None, None, "orphan"))
    return Report("check", entries, len(plans), [_disp(Path(p)) for p in done],
                  sorted({w for r in done.values() for w in r["warnings"]}), allow_unknown, shard,
                  record_counts=counts)


def parse_shard(text: str) -> tuple[int, int]:
    """'I/N' with 1 <= I <= N.

    >>> parse_shard("2/4")
    (2, 4)
    """
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise InputError(None, f"--shard expects I/N (e.g. 1/4), got '{text}'") from None
    if not 1 <= i <= n:
        raise InputError(None, f"--shard {text}: I must be between 1 and N")
    return i, n


def cpu_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def smt2_files(stem: str, runs: dict[str, tuple[str | None, dict[str, str]]]) -> dict[str, str]:
    """File name -> SMT-LIB text for every obligation of every instantiation:
    ``STEM.TARGET.wWAVE.OBLIGATION.smt2``.  `runs` maps ``TARGET.wWAVE`` to
    (the target whose solver run it shares or None, {obligation: text})."""
    out: dict[str, str] = {}
    for inst, (shared, texts) in runs.items():
        for name, text in texts.items():
            safe = name.replace("(", "-").replace(")", "")
            if shared:
                t, w = inst.split(".w")
                text = f"; {t} wave{w} shares the solver run of {shared}: the same question\n" + text
            out[f"{stem}.{inst}.{safe}.smt2"] = text
    return out


def write_files(directory: str, files: dict[str, str]) -> None:
    """Write each file of `files` (relative name -> text) under `directory`,
    creating folders; a one-line error when one cannot be written."""
    d = Path(directory)
    try:
        for name, text in files.items():
            p = d / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
    except OSError as e:
        raise InputError(None, f"cannot write {e.filename}: {e.strerror}") from None
