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
from pathlib import Path

# Span and Warning_ are written out rather than frozen dataclasses: every
# command loads this module, `verify --help` too, and dataclasses brings
# inspect, ast and dis with it (issue #35; tests/test_imports.py).


class _Frozen:
    """Immutable fields compared, hashed and shown in order, as a frozen
    dataclass's are."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, f) for f in self._fields)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field '{name}'")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field '{name}'")

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__ and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return type(self), self._values()


class Span(_Frozen):
    """A position in a text file; line and col are 1-based."""

    __slots__ = ("col", "line", "path")
    _fields = ("path", "line", "col")
    path: str
    line: int
    col: int

    def __init__(self, path: str, line: int, col: int = 1) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "col", col)

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


class Warning_(_Frozen):
    """A non-fatal finding (e.g. a hazard) attached to a span."""

    __slots__ = ("message", "span")
    _fields = ("span", "message")
    span: Span | None
    message: str

    def __init__(self, span: Span | None, message: str) -> None:
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "message", message)

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}warning: {self.message}"


def _probe(directory: Path) -> str | None:
    """Why no file can be created in `directory` (None: one can): a file is
    made and removed at once, since permission bits do not say (root, /proc,
    a read-only mount)."""
    for k in range(100):  # os.open, not tempfile: verify --help does not load tempfile (test_imports)
        name = os.path.join(directory, f".verify-probe-{os.getpid()}-{k}")
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        except OSError as e:
            return e.strerror or str(e)
        os.close(fd)
        os.unlink(name)
        return None
    return "no probe file name is free"


def check_output(path: str | None, option: str, directory: bool = False) -> None:
    """Refuse an output path before any work, with one line: `path` is what
    `option` (e.g. --svg) names, a file to write (replacing one), or with
    `directory` a directory to write into (created if absent).  It must not
    be empty or too long, its parent must be an existing directory where a
    file can be created, and it must be a directory where one is wanted and
    not one where a file is.  Nothing is left behind.

    >>> check_output("", "--svg")
    Traceback (most recent call last):
    ...
    verify.diag.InputError: error: --svg needs a file name, got ''
    """
    if path is None:
        return
    what = "directory" if directory else "file"
    if not path.strip():
        raise InputError(None, f"{option} needs a {what} name, got '{path}'")
    p = Path(path)
    try:
        raw = os.fsencode(os.path.abspath(path))
    except (UnicodeError, ValueError) as e:
        raise InputError(None, f"cannot write {path}: {e}") from None
    for part in p.parts:
        n = len(os.fsencode(part))
        if n > 255:  # NAME_MAX of Linux's file systems (and of macOS's)
            raise InputError(None, f"cannot write {path}: a name in it is too long ({n} bytes, at most 255)")
    if len(raw) >= 4096:  # PATH_MAX
        raise InputError(None, f"cannot write {path}: the path is too long ({len(raw)} bytes)")
    try:
        if p.is_dir():
            if not directory:
                raise InputError(None, f"cannot write {path}: it is a directory")
            why = _probe(p)
            if why is not None:
                raise InputError(None, f"cannot write into {path}: cannot create a file there ({why})")
            return
        if directory and (p.exists() or p.is_symlink()):
            raise InputError(None, f"cannot write into {path}: it is not a directory")
        parent = p.parent
        if not parent.is_dir():
            raise InputError(None, f"cannot write {path}: no directory {parent}")
    except OSError as e:  # a link loop on the way
        raise InputError(None, f"cannot write {path}: {e.strerror}") from None
    why = _probe(parent)
    if why is not None:
        raise InputError(None, f"cannot write {path}: cannot create a file in {parent} ({why})")
