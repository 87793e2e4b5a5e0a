"""`verify tv` over whole test trees: directory runs, accepted causes for a
CI gate that fails closed, and the coverage report (docs/tv.md, "Test
trees", "CI recipe", "Coverage").

Exit codes of `verify tv` (one table for a file and a tree): 0 every
instance correct (or its verdict an accepted cause); 1 an instance refuted
or a compiler error (the compiler crashed or failed: as bad as a
miscompile); 2 bad input (a file verify cannot read: an `error` result in a
tree); 3 an unknown instance; 4 an unsupported one (verify.commands.EXIT_HELP,
the same in every command).  `--accept CAUSE`
(unsupported, run-line, unknown) lets that cause pass; nothing lets a
refutation, a compiler error or bad input pass.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from ..diag import InputError, read_source
from .check import TV_VERDICTS, TVResult, check_file, check_files, check_pair_files, has_src_tgt
from .compile import plan
from .llir import read_module

ACCEPTABLE = ("unsupported", "run-line", "unknown")
NEVER = ("refuted", "compiler error", "error")


def parse_accept(values: list[str]) -> set[str]:
    out: set[str] = set()
    for v in values:
        for c in (x.strip() for x in v.split(",")):
            if c not in ACCEPTABLE:
                raise InputError(None, f"--accept {c}: not a cause that can be accepted (one of "
                                       f"{', '.join(ACCEPTABLE)}; a refutation, a compiler error or bad input "
                                       f"always fails)")
            out.add(c)
    return out


def accepted(r: TVResult, accept: set[str]) -> bool:
    """Whether the result passes: correct, or its cause accepted."""
    if r.verdict == "proved":
        return True
    if r.verdict == "unknown":
        return "unknown" in accept
    if r.verdict == "unsupported":
        return "unsupported" in accept or ("run-line" in accept and r.function == "(every function)")
    return False


def exit_code(results: list[TVResult], accept: set[str]) -> int:
    """The exit code (module doc), accepted causes passing."""
    return verdict_code({r.verdict for r in results if not accepted(r, accept)})


def verdict_code(vs: set[str]) -> int:
    """The exit code of a set of verdicts (verify.commands.EXIT_HELP): 1 a
    refutation or a compiler error, else 2 an error, else 3 unknown, else 4
    unsupported, else 0."""
    if vs & {"refuted", "compiler error"}:
        return 1
    if "error" in vs:
        return 2
    if "unknown" in vs:
        return 3
    if "unsupported" in vs:
        return 4
    return 0


def tree_files(paths: list[str]) -> list[str]:
    """Every .ll file under the paths (files as given), sorted per directory."""
    out: list[str] = []
    for p in paths:
        q = Path(p)
        if q.is_dir():
            out += sorted(str(f) for f in q.rglob("*.ll") if f.is_file())
        elif q.is_file():
            out.append(p)
        else:
            raise InputError(None, f"{p}: no such file or directory")
    if not out:
        raise InputError(None, f"{', '.join(paths)}: no .ll file there")
    return out


def file_error(path: str, e: InputError, compiler: str) -> TVResult:
    """A file verify cannot check (bad input), as a result of a tree run."""
    return TVResult(path, "(file)", "-", 0, compiler, "error", [str(e) if e.span else f"{path}: error: {e.message}"])


def check_one(path: str, targets: list[str], wave: int | None, llc: list[str], functions: list[str] | None,
              timeout: float, assume: dict[str, str], robust: bool, jobs: int) -> list[TVResult]:
    """One file of a tree: its results, or one `error` result."""
    compiler = llc[0] if llc else "llvmlite"
    try:
        text = read_source(path)
        if has_src_tgt(text):
            return check_pair_files(path, text, None, None, targets, wave, timeout, assume, robust)
        fns = [f for f in functions if re.search(rf"^define\b[^\n]*@{re.escape(f)}\s*\(", text, re.M)] \
            if functions else None
        if functions and not fns:
            return []
        return check_file(path, text, targets, wave, llc, fns, timeout, None, assume, robust, jobs)
    except InputError as e:
        if e.span is None and "no RUN line names an AMDGPU target" in e.message and not targets:
            # not a codegen test (only opt, llvm-mc or `not llc` RUN lines): listed, not counted
            return [TVResult(path, "(file)", "-", 0, compiler, "not codegen", [e.message])]
        return [file_error(path, e, compiler)]


def check_tree(paths: list[str], targets: list[str], wave: int | None, llc: list[str],
               functions: list[str] | None, timeout: float, assume: dict[str, str], robust: bool,
               jobs: int) -> list[TVResult]:
    """Every file of the tree, in order.  With `jobs` > 1 the instances of
    all the files that can be read share one pool of workers (check_files);
    a file that cannot is its own result, as one after another."""
    files = tree_files(paths)
    if jobs <= 1 or functions:
        return [r for f in files for r in check_one(f, targets, wave, llc, functions, timeout, assume, robust, 1)]
    alone: dict[str, list[TVResult]] = {}
    pooled: list[tuple[str, str]] = []
    for f in files:
        try:
            text = read_source(f)
            if has_src_tgt(text):
                raise InputError(None, "IR-to-IR")  # run alone, below
            read_module(f, text)
            plan(f, text, targets, wave)
            pooled.append((f, text))
        except InputError:
            alone[f] = check_one(f, targets, wave, llc, functions, timeout, assume, robust, 1)
    done: dict[str, list[TVResult]] = {}
    for r in check_files(pooled, targets, wave, llc, None, timeout, None, assume, robust, jobs) if pooled else []:
        done.setdefault(r.path, []).append(r)
    return [r for f in files for r in (alone[f] if f in alone else done.get(f, []))]


_CAUSE_NOISE = re.compile(r"(%[\w.]+|@[\w.]+|\bv\d+\b|\bs\d+\b|0x[0-9a-fA-F]+|\b\d+\b)")


def cause(r: TVResult) -> str:
    """The cause of an unsupported (or error) result, with its particular
    names and numbers left out so that alike causes count together."""
    for n in r.notes:
        m = re.search(r"\b(unsupported|error): (.*)$", n)
        if m:
            text = m.group(2)
            text = re.sub(r"^RUN line not used: ", "RUN line: ", text)
            return _CAUSE_NOISE.sub("N", text).strip()[:120]
    return r.notes[0][:120] if r.notes else "(no reason given)"


def coverage(results: list[TVResult]) -> dict[str, Any]:
    """Counts over a tree: files, instances, decided (proved, refuted or a
    compiler error: a verdict on the instance), proved, refuted,
    unknown, compiler errors, errors, unsupported, and unsupported per cause
    (ranked: most first, then by name)."""
    v = Counter(r.verdict for r in results)
    causes = Counter(cause(r) for r in results if r.verdict == "unsupported")
    errors = Counter(cause(r) for r in results if r.verdict in ("error", "compiler error"))
    return {
        "files": len({r.path for r in results}),
        "not_codegen_files": v["not codegen"],
        "instances": len(results) - v["not codegen"],
        "decided": v["proved"] + v["refuted"] + v["compiler error"],  # (the compiler failed: decided)
        "proved": v["proved"],
        "refuted": v["refuted"],
        "unknown": v["unknown"],
        "compiler_errors": v["compiler error"],
        "errors": v["error"],
        "unsupported": v["unsupported"],
        "unsupported_causes": [{"cause": c, "count": n} for c, n in sorted(causes.items(), key=lambda x: (-x[1], x[0]))],
        "error_causes": [{"cause": c, "count": n} for c, n in sorted(errors.items(), key=lambda x: (-x[1], x[0]))],
        "verdict_names": dict(TV_VERDICTS),
    }


def coverage_lines(cov: dict[str, Any]) -> list[str]:
    n = max(1, cov["instances"])
    rows = [("decided", cov["decided"]), ("proved", cov["proved"]), ("refuted", cov["refuted"]),
            ("unknown", cov["unknown"]), ("compiler errors", cov["compiler_errors"]), ("errors", cov["errors"]),
            ("unsupported", cov["unsupported"])]
    out = [f"Coverage: {cov['files']} files ({cov['not_codegen_files']} with no llc RUN line for AMDGPU), "
           f"{cov['instances']} instances"]
    out += [f"  {name:<16} {k:>6}  {100 * k / n:5.1f}%" for name, k in rows]
    if cov["unsupported_causes"]:
        out.append("Unsupported, by cause:")
        out += [f"  {c['count']:>6}  {c['cause']}" for c in cov["unsupported_causes"]]
    if cov["error_causes"]:
        out.append("Errors, by cause:")
        out += [f"  {c['count']:>6}  {c['cause']}" for c in cov["error_causes"]]
    return out
