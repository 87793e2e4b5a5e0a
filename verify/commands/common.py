"""What several commands share: output, the progress bar and
checks of arguments."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from ..diag import InputError, Span, Warning_, check_output
from ..summary import line as summary_line

if TYPE_CHECKING:
    from ..refine import Result



def print_warnings(warnings: list[Warning_], err: TextIO) -> None:
    """Each warning once, in order."""
    for w in dict.fromkeys(str(w) for w in warnings):
        print(w, file=err)


def vacuous(r: Result, span: Span | None, prefix: str = "", under: str = "") -> NoReturn:
    """The error for a result whose EXEC contract or spec leaves nothing to check."""
    o = next((o for o in r.obligations if o.verdict == "error"), None)
    raise InputError(span, f"{prefix}vacuous for {r.target} wave{r.wave}{under}: {o.detail if o else 'no active lane'}")


class NoBar:
    """Progress where nobody watches: nothing."""

    def __call__(self, done: int, total: int, current: str | None = None) -> None:
        pass

    def __enter__(self) -> NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress(err: TextIO, what: str, enabled: bool = True, steps: bool = False) -> Any:
    """A progress bar on stderr when it is a terminal (and not --json):
    verify.progress, with tqdm, loads only then."""
    try:
        tty = enabled and err.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        return NoBar()
    from ..progress import Bar

    return Bar(err, what, steps=steps)


def print_lines(lines: list[str], out: TextIO) -> None:
    for line in lines:
        print(line, file=out)


def dump(obj: object, out: TextIO, code: int = 0, indent: int | None = 2) -> int:
    json.dump(obj, out, indent=indent)
    out.write("\n")
    return code


def write(path: str, text: str) -> None:
    """Write a whole file or nothing (a one-line error when it cannot be written)."""
    from ..proofs import write_atomic  # a command's own modules load with it (test_imports)

    try:
        write_atomic(Path(path), text)
    except OSError as e:
        raise InputError(None, f"cannot write {path}: {e.strerror}") from None


def writable(path: str | None, option: str = "the output", directory: bool = False) -> None:
    """Refuse an output path before any work (diag.check_output: empty, too
    long, a directory where a file is wanted, no parent, not writable)."""
    check_output(path, option, directory)


def check_jobs(n: int) -> int:
    if n < 1:
        raise InputError(None, f"--jobs must be at least 1, got {n}")
    return n



# the overall verdict of several results, in the order of their exit codes
# (verify.commands.EXIT_HELP): a refutation first, then an error, unknown, unsupported
_WORST = ("refuted", "compiler error", "none", "error", "unknown", "unsupported")


def overall_verdict(verdicts: list[str]) -> str:
    """The verdict a command's JSON names for all its results."""
    return next((v for v in _WORST if v in verdicts), "proved")


def shared(command: str, obj: dict[str, Any], results: list[dict[str, Any]], counts: dict[str, int],
           verdict: str | None = None) -> dict[str, Any]:
    """A command's --json object with the keys every command shares
    (docs/json.md, checked by tests/test_json_schema.py): command, verdict,
    summary (the Summary line), counts and results, each result with a
    verdict, a scope and a counterexample (null where there is none)."""
    for r in results:
        r.setdefault("scope", None)
        r.setdefault("counterexample", None)
    v = verdict if verdict is not None else overall_verdict([str(r["verdict"]) for r in results])
    return {"command": command, "verdict": v, "summary": summary_line(counts), "counts": counts,
            **{k: x for k, x in obj.items() if k not in ("command", "verdict", "summary", "counts", "results")},
            "results": results}
