"""`verify lowering --double-check`: every obligation of a proof re-asked of
the second solver, bitwuzla (verify/smt/second.py), as Souper double-checks."""

from __future__ import annotations

import sys

import pytest
from helpers import cli

from verify.smt import second

XOR5 = ("lowering", "xor5", "--wave", "64", "--target", "gfx900", "--double-check")


def test_without_bitwuzla_it_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bitwuzla", None)  # import bitwuzla raises ImportError
    code, out, err = cli(*XOR5)
    assert code == 2 and out == ""
    assert err == "verify: error: --double-check needs the second solver, bitwuzla: pip install bitwuzla\n"


def test_a_disagreement_makes_the_run_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(second, "version", lambda: "bitwuzla (stub)")
    monkeypatch.setattr(second, "check_bitwuzla", lambda text: "sat")  # every question satisfiable
    code, out, _ = cli(*XOR5)
    assert code == 3
    lines = [ln for ln in out.splitlines() if ln.startswith("double-check:")]
    # contract and defined are sat questions (vacuity: they hold), value and exec unsat ones
    assert lines == ["double-check: gfx900 wave64 value(out): bitwuzla (stub) answers sat; the obligation holds only if unsat",
                     "double-check: gfx900 wave64 exec: bitwuzla (stub) answers sat; the obligation holds only if unsat",
                     "double-check: bitwuzla (stub) disagrees on 2 of 4 obligations of the proofs"]


def test_bitwuzla_agrees_with_a_proof() -> None:
    pytest.importorskip("bitwuzla")
    code, out, _ = cli(*XOR5)
    assert code == 0 and out.splitlines()[-1] == "double-check: bitwuzla 0.10.0 agrees on 4 obligations of the proofs"
