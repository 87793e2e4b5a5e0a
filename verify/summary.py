"""The Alive2-style closing line of every command that proves several things.

Each command maps its own verdicts onto Alive2's four words (and counts
errors, such as a stale or missing proof record, only when there are some);
the text line closes the output, JSON carries the same counts.

>>> c = counts(["proved", "proved", "refuted", "unknown"])
>>> line(c)
'Summary: 2 correct, 1 incorrect, 1 failed-to-prove, 0 unsupported'
>>> line(counts(["proved", "missing"], {"missing": "errors"}))
'Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported, 1 error'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

KINDS = ("correct", "incorrect", "failed-to-prove", "unsupported", "errors")

# verdict -> kind; a verdict not named here (nor in a command's extra map) is an error
VERDICTS: dict[str, str] = {
    "proved": "correct",
    "refuted": "incorrect",
    "unknown": "failed-to-prove",
    "unsupported": "unsupported",
    "error": "errors",
}


def counts(verdicts: Iterable[str | None], extra: Mapping[str, str | None] | None = None) -> dict[str, int]:
    """How many of each kind; `extra` maps a command's own verdicts (to None:
    not counted at all)."""
    table: dict[str, str | None] = {**VERDICTS, **(extra or {})}
    n = dict.fromkeys(KINDS, 0)
    for v in verdicts:
        kind = table.get(v or "", "errors")
        if kind is not None:
            n[kind] = n.get(kind, 0) + 1
    return n


def line(n: Mapping[str, int]) -> str:
    """The closing line: the four kinds always, errors when there are any."""
    text = (f"Summary: {n['correct']} correct, {n['incorrect']} incorrect, {n['failed-to-prove']} failed-to-prove, "
            f"{n['unsupported']} unsupported")
    e = n.get("errors", 0)
    c = n.get("compiler-errors", 0)  # verify tv: the compiler crashed or failed
    return text + (f", {c} compiler error{'s' * (c != 1)}" if c else "") + (f", {e} error{'s' * (e != 1)}" if e else "")
