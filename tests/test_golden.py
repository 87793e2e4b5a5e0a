"""Golden transcripts, checked against the real output of the commands:

- every `$ verify ...` example in README.md and docs/*.md, run from the
  repository root as written (a file it names is in the repository): a fenced block whose
  first line is the command (continued by a trailing backslash) and whose other
  lines are its output (stdout, then stderr).  A line that is only `...` stands
  for any number of lines, and `...` inside a line for any text on that line;
- every golden lowering, tests/golden/**/*.s, has a `.out` beside it holding
  the full output of `verify lowering <file>` (run from the repository root).

`pytest --update-golden` rewrites a `.out` or an example that no longer matches
instead of failing (an example that elides with `...` is left for a person to
edit: the failure shows the real output).  Each command runs in a fresh
`python -m verify` process on this checkout's package, as a user would run it
(in one process, earlier queries can change which counterexample z3 finds).
"""

from __future__ import annotations

import difflib
import fcntl
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
DOCS = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md")
                                      if p.name != "language.md")]  # tests/test_docs.py runs it, with its files

def normalise(text: str) -> str:
    """Text as compared and as written: trailing spaces dropped (the default
    output prints no durations: they depend on machine load)."""
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def run(argv: list[str], cwd: Path) -> str:
    """`verify ARGV` run in CWD: its stdout, then its stderr."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    r = subprocess.run([sys.executable, "-m", "verify", *argv], cwd=cwd, env=env, capture_output=True, text=True,
                       check=False)
    return r.stdout + r.stderr


def diff(want: str, got: str, want_name: str) -> str:
    return "".join(difflib.unified_diff(want.splitlines(keepends=True), got.splitlines(keepends=True),
                                        want_name, "real output"))


# -- README and docs examples --------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    doc: Path
    line: int  # 1-based line of the `$ verify` command
    command: list[str]  # the command's lines as written, "$ " included
    output: list[str]  # the block's other lines

    @property
    def argv(self) -> list[str]:
        joined = " ".join(l.removesuffix("\\") for l in self.command)
        return shlex.split(joined.removeprefix("$ "))[1:]

    @property
    def name(self) -> str:
        return f"{self.doc.relative_to(ROOT).as_posix()}:{self.line}"


def examples(doc: Path) -> list[Example]:
    found: list[Example] = []
    lines = doc.read_text().splitlines()
    k = 0
    while k < len(lines):
        if not lines[k].startswith("```"):
            k += 1
            continue
        end = next((j for j in range(k + 1, len(lines)) if lines[j].startswith("```")), len(lines))
        block = lines[k + 1:end]
        if block and block[0].startswith("$ verify "):
            n = 1
            while block[n - 1].endswith("\\") and n < len(block):
                n += 1
            found.append(Example(doc, k + 2, block[:n], block[n:]))
        k = end + 1
    return found


def elided_pattern(expected: str) -> re.Pattern[str]:
    """A `...` line: any lines; `...` in a line: any text on it."""
    parts = []
    for line in expected.splitlines():
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*?".join(re.escape(p) for p in line.split("...")) + "\n")
    return re.compile("".join(parts))


EXAMPLES = [ex for doc in DOCS for ex in examples(doc)]
SLOW_COMMANDS = {"synth"}  # ~10 s each
# the README's whole-kernel atomic-optimizer example (3-5 s): the slow tier's
# tests/test_asm_llvm.py::test_atomic_optimizer_scan asks the same of LLVM's code
SLOW_ASSERTS = ("exclusive_add(v4)",)
README_DATA = ROOT / "tests" / "data" / "readme"


def slow_example(ex: Example) -> bool:
    return ex.argv[0] in SLOW_COMMANDS or any(s in a for a in ex.argv for s in SLOW_ASSERTS)


def rewrite(ex: Example, new_output: str) -> None:
    """Replace the example's output in its document (locked: xdist workers share the file)."""
    old = "\n".join(ex.command + ex.output) + "\n"
    new = "\n".join(ex.command) + "\n" + new_output
    with open(ex.doc, "r+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        text = f.read()
        assert old in text, f"{ex.name}: the example changed while updating"
        f.seek(0)
        f.truncate()
        f.write(text.replace(old, new, 1))


def test_the_readme_has_examples() -> None:
    assert sum(ex.doc.name == "README.md" for ex in EXAMPLES) >= 5


@pytest.mark.parametrize("ex", [pytest.param(ex, marks=[pytest.mark.slow] if slow_example(ex) else [])
                                for ex in EXAMPLES], ids=[ex.name for ex in EXAMPLES])
def test_doc_example(ex: Example, tmp_path: Path, update_golden: bool) -> None:
    argv = ex.argv
    got = normalise(run(argv, ROOT))  # from the repository root, as written (issue #34)
    want = normalise("\n".join(ex.output))
    if elided_pattern(want).fullmatch(got):
        return
    if update_golden and "..." not in want:
        rewrite(ex, got)
        return
    hint = ("it elides with `...`: edit it by hand" if "..." in want
            else "run `python -m pytest --update-golden` to rewrite it")
    shown = f"\nreal output:\n{got}" if "..." in want else ""
    pytest.fail(f"{ex.name}: `verify {shlex.join(argv)}` prints something else ({hint}):\n"
                f"{diff(want, got, ex.name)}{shown}", pytrace=False)


# -- golden lowerings: the full transcript -------------------------------------------------

LOWERINGS = sorted(GOLDEN.rglob("*.s"))


def transcript(path: Path) -> str:
    rel = path.relative_to(ROOT).as_posix()
    return f"$ verify lowering {rel}\n" + normalise(run(["lowering", rel], ROOT))


# The reduction transcripts take 1.5-4 s each; tests/test_reductions.py proves and
# mutates the same lowerings in the fast tier, so their full transcripts run in the
# slow tier, with the two slowest shuffle ones (1.4-1.6 s).
SLOW_TRANSCRIPTS = ("reductions/", "reduce_all_fadd_rowsfirst_exact.s", "shfl_down_var_wrap.s", "xor32_lane_lo.s")


@pytest.mark.parametrize("path", [pytest.param(p, marks=[pytest.mark.slow] if p.relative_to(GOLDEN).as_posix().startswith(SLOW_TRANSCRIPTS) else [])
                                  for p in LOWERINGS], ids=[p.relative_to(GOLDEN).as_posix() for p in LOWERINGS])
def test_golden_transcript(path: Path, update_golden: bool) -> None:
    got = transcript(path)
    out = path.with_suffix(".out")
    want = normalise(out.read_text()) if out.exists() else ""
    if got == want:
        return
    if update_golden:
        out.write_text(got)
        return
    rel = out.relative_to(ROOT).as_posix()
    pytest.fail(f"{rel} is not what `verify lowering` prints (if the change is intended, run "
                f"`python -m pytest --update-golden` and review the diff):\n{diff(want, got, rel)}", pytrace=False)


def test_every_transcript_has_its_lowering() -> None:
    orphans = [p for p in GOLDEN.rglob("*.out") if not p.with_suffix(".s").exists()]
    assert not orphans, orphans


def test_readme_kernel_is_what_llvm_emits() -> None:
    """tests/data/readme/k.s is LLVM 22's code for the README's atomic kernel
    (tests/llvm/kernels.py, through llvmlite), and k_mutant.s that code with
    the one token the README changes."""
    pytest.importorskip("llvmlite")
    from llvm.kernels import atomic_kernel

    k = (README_DATA / "k.s").read_text()
    assert k == atomic_kernel("gfx1100", 32)
    old, new = "quad_perm:[0,1,2,3] row_mask:0xa", "quad_perm:[0,1,2,3] row_mask:0xf"
    assert k.count(old) == 1 and (README_DATA / "k_mutant.s").read_text() == k.replace(old, new)


def test_every_file_an_example_names_is_in_the_repository() -> None:
    for ex in EXAMPLES:
        for a in ex.argv:
            if a.endswith((".s", ".ll")) and not a.startswith("-"):
                assert (ROOT / a).is_file(), f"{ex.name}: {a} is not in the repository"
