"""verify tv compiles a file's instances in one forked child (verify/tv/compile.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from verify.target import get
from verify.tv.compile import _forked, by_llvmlite_batch, by_llvmlite_isolated
from verify.tv.runlines import Instance

SRC = """declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)

define i32 @f(i32 %var) {
  %d = call i32 @llvm.amdgcn.ds.swizzle(i32 %var, i32 1055)
  %r = add i32 %d, 1
  ret i32 %r
}
"""


def _boom() -> str:
    raise RuntimeError("x")


def _abort() -> str:
    os.abort()


def test_a_forked_child_gives_its_text_or_none_when_it_fails_or_crashes() -> None:
    assert _forked(lambda: "é" * 100_000, 60) == "é" * 100_000  # more than one pipe's buffer
    assert _forked(_boom, 60) is None
    assert _forked(_abort, 60) is None  # (LLVM's abort on an internal error)


def test_the_forked_batch_compiles_as_a_child_python_does() -> None:
    insts = [Instance(get("gfx90a"), 64), Instance(get("gfx1100"), 32)]
    got = by_llvmlite_batch(SRC, insts)
    assert [got[i.key()] for i in insts] == [by_llvmlite_isolated(SRC, i) for i in insts]
    assert "ds_swizzle_b32" in got[insts[0].key()]
    assert by_llvmlite_batch("define i32 @f( {", insts) == {}  # LLVM rejects it: each compiled alone then


def test_python_m_verify_ends_with_its_status_and_all_its_output(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    out = tmp_path / "out.txt"
    with out.open("w") as f:  # (a file: written in full before the process ends without its teardown)
        r = subprocess.run([sys.executable, "-m", "verify", "tv", "tests/tv/dpp_row_shl1_sub.ll", "--target",
                            "gfx1100", "--wave", "32"], stdout=f, stderr=subprocess.PIPE, cwd=root, env=env)
    assert r.returncode == 1, r.stderr
    assert out.read_text().splitlines()[-1] == "Summary: 0 correct, 1 incorrect, 0 failed-to-prove, 0 unsupported"
