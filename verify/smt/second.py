"""A second solver, bitwuzla (PyPI ``bitwuzla``, optional), for re-checking a
proof the way Souper double-checks: ``verify lowering --double-check``
asks it every obligation z3 answered, as the SMT-LIB text ``--smt2``
writes, and reports where the two disagree.

bitwuzla has no deterministic resource limit (only a per-check time limit,
which would make the answer depend on the machine's load), so it is asked
without one: a re-check runs to its answer.  This module is the only one
that imports bitwuzla, inside :func:`check_bitwuzla`, so nothing pays for
it unless asked.
"""

from __future__ import annotations

import re

HOLDS = re.compile(r"^; (sat|unsat) means the obligation holds", re.M)


class Unavailable(Exception):
    """bitwuzla is not installed."""


def version() -> str:
    try:
        import bitwuzla as bw  # optional: only a double-check loads it
    except ImportError as e:
        raise Unavailable("--double-check needs the second solver, bitwuzla: pip install bitwuzla") from e
    return f"bitwuzla {bw.version()}"


def check_bitwuzla(text: str) -> str:
    """bitwuzla's answer ("sat", "unsat", "unknown") to an SMT-LIB benchmark
    ending in ``(check-sat)``, with its default options and seed."""
    version()
    import bitwuzla as bw  # optional: only a double-check loads it

    tm, opts = bw.TermManager(), bw.Options()
    opts.set(bw.Option.SEED, 0)
    parser = bw.Parser(tm, opts)
    parser.parse(text.replace("(check-sat)", ""), True, False)
    return str(parser.bitwuzla().check_sat())


def expected(text: str) -> str | None:
    """The answer under which the exported obligation holds (its comment)."""
    m = HOLDS.search(text)
    return m.group(1) if m else None


def double_check(obligations: dict[str, str]) -> list[tuple[str, str, str]]:
    """(obligation, the answer meaning it holds, bitwuzla's answer) for each
    exported obligation whose bitwuzla answer is not the one meaning it
    holds ("unknown" included: the proof is then not double-checked)."""
    out = []
    for name, text in obligations.items():
        want = expected(text)
        if want is None:
            continue
        got = check_bitwuzla(text)
        if got != want:
            out.append((name, want, got))
    return out
