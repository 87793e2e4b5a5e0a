"""`verify tv --jobs N`: the instances of a file proved in N worker
processes print the same bytes, in the same order, as one after another;
a compile failure and a refutation travel back from a worker intact."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify.target import get
from verify.tv.check import check_file, check_files
from verify.tv.compile import by_llvmlite_isolated

CORPUS = Path(__file__).parent / "tv"
SHR1 = CORPUS / "dpp_row_shr1_add.ll"
# one token changed: row_shr:2 where the IR says row_shr:1
WRONG = SHR1.read_text().replace("i32 %var, i32 273,", "i32 %var, i32 274,")


def test_jobs_print_the_same_bytes(tmp_path: Path) -> None:
    # two "compilers" that print the code LLVM makes of the mutant: both refuted
    asm = tmp_path / "wrong.s"
    asm.write_text(by_llvmlite_isolated(WRONG, get("gfx1100"), 32))
    fake = [a for n in ("a", "b") for a in ("--llc", f"sh -c 'cat {asm}' {n}")]
    one = cli("tv", str(SHR1), "--target", "gfx1100", "--wave", "32", *fake)
    two = cli("tv", str(SHR1), "--target", "gfx1100", "--wave", "32", *fake, "--jobs", "2")
    assert one == two
    code, out, _ = two
    assert code == 1
    assert "Summary: 0 correct, 2 incorrect, 0 failed-to-prove, 0 unsupported" in out
    assert out.count("dpp_row_shr1_add on gfx1100 wave32 (sh -c") == 2
    assert "lane" in out and "v_add" in out  # the lane table and the responsible instruction came back


def test_a_compile_failure_in_a_worker_is_a_compiler_error() -> None:
    # fails closed: a compiler that runs and fails is its own verdict, exit 1 as for a refutation
    code, out, _ = cli("tv", str(SHR1), "--llc", "false", "--target", "gfx1100", "--jobs", "2")
    assert code == 1
    assert out.count("could not compile: 'false' failed on") == 2  # wave32 and wave64
    assert out.count("dpp_row_shr1_add on gfx1100 wave") == 2 and out.count("): compiler error") == 2
    assert "Summary: 0 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported, 2 compiler errors" in out


def test_check_files_keeps_file_order() -> None:
    files = [CORPUS / "dpp_row_shr2_add.ll", SHR1]
    got = check_files([(str(p), p.read_text()) for p in files], ["gfx1100"], 32, [], jobs=2)
    assert [(Path(r.path).name, r.verdict) for r in got] == [("dpp_row_shr2_add.ll", "proved"),
                                                             ("dpp_row_shr1_add.ll", "proved")]
    seq = [r for p in files for r in check_file(str(p), p.read_text(), ["gfx1100"], 32, [])]
    assert [(r.function, r.target, r.wave, r.verdict, r.notes) for r in got] == \
        [(r.function, r.target, r.wave, r.verdict, r.notes) for r in seq]


def test_jobs_must_be_positive() -> None:
    code, out, err = cli("tv", str(SHR1), "--jobs", "0")
    assert (code, out) == (2, "")
    assert err.strip() == "error: --jobs must be at least 1, got 0"
