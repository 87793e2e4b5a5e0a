"""Where specs and lowerings live, and how a NAME finds its file.

The built-in catalogue is the project's ``specs/`` and ``lowerings/``
directories (with ``proofs/`` and ``proofs.lock`` beside them): in a source
checkout or an editable install, next to the package; in an ordinary
install, under ``<prefix>/share/verify``, where pyproject.toml's data-files
put them.  ``VERIFY_PATH`` (``os.pathsep``-separated directories, each
holding ``specs/`` and/or ``lowerings/``) adds a team's own catalogue in
front of it; its records are its own ``proofs/`` and ``proofs.lock``.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

from .diag import InputError
from .ir import Lowering
from .lowering_file import load_lowering
from .spec import SpecLib


def _builtin_root(src: Path | None = None, prefixes: tuple[str, ...] = ()) -> Path:
    src = src or Path(__file__).resolve().parent.parent
    if (src / "specs").is_dir():
        return src
    for prefix in dict.fromkeys(prefixes or (sys.prefix, sys.exec_prefix, sys.base_prefix)):
        shared = Path(prefix) / "share" / "verify"
        if (shared / "specs").is_dir():
            return shared
    return src


ROOT = _builtin_root()


def roots() -> list[Path]:
    extra = [Path(p) for p in os.environ.get("VERIFY_PATH", "").split(os.pathsep) if p]
    return extra + [ROOT]


LOCK = "proofs.lock"


def lock_file(root: Path) -> Path:
    """The lock file of the catalogue at `root` (the directory holding
    lowerings/ and proofs/): the revisions its records were proved under."""
    return Path(root) / LOCK


def lock_files() -> list[Path]:
    """The lock file of every catalogue on the search path that has records."""
    return [lock_file(r) for r in roots() if (r / "proofs").is_dir()]


def spec_dirs() -> list[Path]:
    return [r / "specs" for r in roots() if (r / "specs").is_dir()]


def lowering_dirs() -> list[Path]:
    return [r / "lowerings" for r in roots() if (r / "lowerings").is_dir()]


@cache
def _speclib(key: tuple[str, ...]) -> SpecLib:
    return SpecLib.from_dirs([Path(k) for k in key])


def speclib() -> SpecLib:
    return _speclib(tuple(str(d) for d in spec_dirs()))


def lowering_files() -> list[Path]:
    seen: dict[str, Path] = {}
    for d in lowering_dirs():
        for p in sorted(d.rglob("*.s")):
            if any(part.startswith(("_", ".")) for part in p.relative_to(d).parts):
                continue
            seen.setdefault(p.stem, p)
    return sorted(seen.values(), key=lambda p: p.stem)


def _named_file(name: str) -> Path | None:
    """The file lowering_files() lists under this name, found without listing
    them all (start-up: issue #35): the first in sorted order of the first
    directory that has one."""
    if any(c in name for c in "*?[]"):
        return next((f for f in lowering_files() if f.stem == name), None)
    for d in lowering_dirs():
        hits = [p for p in d.rglob(f"{name}.s")
                if not any(part.startswith(("_", ".")) for part in p.relative_to(d).parts)]
        if hits:
            return min(hits)
    return None


def find_lowering(name_or_path: str) -> Path:
    p = Path(name_or_path)
    if p.suffix == ".s" or os.sep in name_or_path or "/" in name_or_path:
        if not p.is_file():
            raise InputError(None, f"no such lowering file: {name_or_path}")
        return p
    found = _named_file(name_or_path)
    if found is not None:
        return found
    names = [f.stem for f in lowering_files()]
    close = difflib.get_close_matches(name_or_path, names, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else " (see `verify list`)"
    raise InputError(None, f"no lowering named '{name_or_path}' in the catalogue{hint}")


def load(name_or_path: str) -> Lowering:
    return load_lowering(find_lowering(name_or_path))


def display_path(p: Path | str) -> str:
    p = Path(p).resolve()
    try:
        return str(p.relative_to(Path.cwd()))
    except ValueError:
        try:
            return str(p.relative_to(ROOT))
        except ValueError:
            return str(p)


def spec_text(low: Lowering) -> str:
    """The spec call of `low` as written (a parameter that is not a word is quoted)."""

    def show(v: object) -> str:
        if isinstance(v, str) and not v.startswith("@") and not re.fullmatch(r"[A-Za-z_]\w*", v):
            return '"' + v + '"'
        return str(v)

    ps = " ".join(f"{k}={show(v)}" for k, v in low.params.items())
    return f"{low.spec} {ps}".strip()


def listing() -> list[dict[str, Any]]:
    """Every lowering of the catalogue, as `verify list --json` reports it."""
    rows = []
    for p in lowering_files():
        low = load_lowering(p)
        rows.append({"name": low.name, "spec": spec_text(low), "targets": low.targets, "waves": low.waves,
                     "exec": low.exec_contract, "path": display_path(p), "description": low.description})
    return rows


def spec_or_lowering(name: str) -> str:
    """What `name` names, "spec" or "lowering" (a spec first); an error
    suggests the closest name when it names neither."""
    lib = speclib()
    if name in lib.specs:
        return "spec"
    try:
        find_lowering(name)
    except InputError:
        close = difflib.get_close_matches(name, list(lib.specs) + [p.stem for p in lowering_files()], n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else " (see `verify specs` and `verify list`)"
        raise InputError(None, f"no spec or lowering named '{name}'{hint}") from None
    return "lowering"


def listing_lines(rows: list[dict[str, Any]]) -> list[str]:
    """`verify list` as text: name, spec call, targets, waves, EXEC contract."""
    w = max((len(r["name"]) for r in rows), default=4)
    s = max((len(r["spec"]) for r in rows), default=4)
    return [f"{r['name']:<{w}}  {r['spec']:<{s}}  {','.join(r['targets'])}  wave{'/'.join(map(str, r['waves']))}  "
            f"exec={r['exec']}" for r in rows]


def spec_rows() -> list[dict[str, Any]]:
    """Every spec of the library, as `verify specs --json` reports it."""
    return [{"name": s.name, "signature": s.signature, "doc": s.doc, "inputs": s.inputs, "outputs": s.outputs}
            for s in sorted(speclib().specs.values(), key=lambda s: s.name)]


def spec_lines(rows: list[dict[str, Any]]) -> list[str]:
    """`verify specs` as text: each signature and its description."""
    w = max((len(r["signature"]) for r in rows), default=4)
    return [f"{r['signature']:<{w}}  {r['doc']}" for r in rows]
