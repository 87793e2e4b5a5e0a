"""Diagnostics: source spans and the one exception root of the project.

Every user-facing input problem is raised as :class:`InputError` carrying a
:class:`Span`; the CLI prints it as one line, ``path:line:col: error: ...``.

>>> e = InputError(Span("x.s", 3, 7), "unknown mnemonic 'v_foo'")
>>> str(e)
"x.s:3:7: error: unknown mnemonic 'v_foo'"
>>> str(InputError(None, "no such lowering 'nope'"))
"error: no such lowering 'nope'"
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Span:
    """A position in a text file; line and col are 1-based."""

    path: str
    line: int
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    def shifted(self, dcol: int) -> Span:
        return Span(self.path, self.line, self.col + dcol)


class VerifyError(Exception):
    """Root of every error this package raises on purpose."""


STDIN = "<stdin>"  # how a file argument given as `-` is named in messages


def read_source(path: str | os.PathLike[str]) -> str:
    """A text file (`-`: standard input, named <stdin>), or an InputError
    naming the file (and the position of a byte that is not UTF-8)."""
    try:
        if str(path) == "-":
            path, data = STDIN, sys.stdin.buffer.read()
        else:
            data = Path(path).read_bytes()
    except OSError as e:
        raise InputError(None, f"cannot read {path}: {e.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise InputError(Span(str(path), line, col), f"not UTF-8 text (byte {data[e.start]:#04x})") from None


class InputError(VerifyError):
    """Bad input: a malformed file, unknown name, illegal control, bad value."""

    def __init__(self, span: Span | None, message: str):
        super().__init__(message)
        self.span = span
        self.message = message

    def __str__(self) -> str:
        if self.span is None:
            return f"error: {self.message}"
        return f"{self.span}: error: {self.message}"


@dataclass(frozen=True)
class Warning_:
    """A non-fatal finding (e.g. a hazard) attached to a span."""

    span: Span | None
    message: str

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}warning: {self.message}"
