"""`verify --version`: verify's own version and those of the solver and of
the LLVM that `verify tv` and `verify emit` compile with (llvmlite's)."""

from __future__ import annotations

from importlib import metadata


def _dist(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def versions() -> list[str]:
    """One line per component, e.g. 'z3 4.15.4 (z3-solver 4.15.4.0)'."""
    from .smt import SOLVER  # loads z3: only this command pays for it

    lines = [f"verify {_dist('verify') or 'unknown'}", f"{SOLVER} (z3-solver {_dist('z3-solver') or 'unknown'})"]
    llvmlite = _dist("llvmlite")
    if llvmlite is None:
        lines.append("llvmlite: not installed (verify tv and verify emit need it, or --llc)")
    else:
        import llvmlite.binding as llvm  # the LLVM it carries; loads a large library

        lines.append(f"llvmlite {llvmlite} (LLVM {'.'.join(map(str, llvm.llvm_version_info))})")
    return lines
