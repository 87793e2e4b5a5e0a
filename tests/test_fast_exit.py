"""`python -m verify` ends with os._exit once stdout and stderr are flushed
(verify/__main__.py): no atexit handler runs and no file object is closed
by the interpreter.  What a command writes must not depend on either:
stdout to a file (block-buffered, larger than any buffer) arrives whole, a
file an option names is complete, and the only atexit handlers registered
(by verify and the libraries it loads for tv and prove) are ones whose
skipping loses nothing."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Each handler the fast exit skips, and why nothing is lost:
HARMLESS = {
    # sets a flag so that llvmlite's object destructors do nothing during teardown: there is no teardown
    "llvmlite.binding.common._at_shutdown",
    # z3core's ExitStack of importlib.resources.as_file(z3/lib): a real directory in an installed package
    # (the test checks it), so closing it removes no temporary copy
    "contextlib.ExitStack.close",
    # flushes and closes logging handlers: verify installs none (the test checks the root logger)
    "logging.shutdown",
}

WRAP = """
import atexit, logging, os, runpy, sys
seen = []
_reg = atexit.register
def reg(f, *a, **k):
    seen.append(f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', repr(f))}")
    return _reg(f, *a, **k)
atexit.register = reg
import multiprocessing, z3, llvmlite.binding  # what tv and prove -j load
import z3.z3core
_exit = os._exit
def report(code):
    sys.stderr.write("ATEXIT " + repr([seen, str(z3.z3core._z3_lib_resource_path),
                                       len(logging.getLogger().handlers)]) + "\\n")
    sys.stderr.flush()
    _exit(code)
os._exit = report
sys.argv = ["verify", *sys.argv[1:]]
runpy.run_module("verify", run_name="__main__")
"""


def _run(tmp_path: Path, *argv: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    out = tmp_path / "stdout.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("COVERAGE_PROCESS_START", None)  # (under coverage the ordinary exit is taken, by design)
    with out.open("w") as f:
        r = subprocess.run([sys.executable, "-c", WRAP, *argv], cwd=ROOT, env=env, stdout=f,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    return r, out


@pytest.mark.slow
def test_fast_exit_loses_no_output_and_skips_only_harmless_handlers(tmp_path):
    svg = tmp_path / "x.svg"
    r, out = _run(tmp_path, "show", "lowerings/shuffle/xor32_bpermute.s", "--svg", str(svg))
    assert r.returncode == 0, r.stderr
    line = next(t for t in r.stderr.splitlines() if t.startswith("ATEXIT "))  # the fast exit was taken
    seen, zlib, handlers = ast.literal_eval(line[len("ATEXIT "):])
    assert set(seen) <= HARMLESS, seen
    import z3  # the installed package's own lib directory, not a temporary copy of it (wherever the venv is)
    assert Path(zlib).is_dir() and Path(zlib).resolve() == (Path(z3.__file__).parent / "lib").resolve(), zlib
    assert handlers == 0
    assert svg.read_text().rstrip().endswith("</svg>")
    assert out.read_text().splitlines()[-2].split()[:2] == ["63", "63"]  # the lane table's last row

    r, out = _run(tmp_path, "list", "--json")
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert len(text) > 1 << 16  # more than any stdio buffer holds
    assert isinstance(json.loads(text), list)
