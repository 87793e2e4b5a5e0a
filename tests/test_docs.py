"""docs/language.md, run: every `file=NAME` block is written to a scratch
directory and every `$ verify ...` block runs there (VERIFY_PATH set to it,
so its specs/ are read) and must print what the block shows (`...` elides, as
in tests/test_golden.py).  `< FILE` feeds a file to standard input.  The page
must also name every lowering header directive and every spec statement."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import cli, cli_json
from test_golden import diff, elided_pattern, normalise

from verify.lowering_file import HEADER_KEYS
from verify.spec import SpecLib

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "language.md"


@dataclass(frozen=True)
class Block:
    line: int  # 1-based line of the block's first content line
    info: str  # the fence's info string
    lines: list[str]


def blocks(doc: Path) -> list[Block]:
    lines = doc.read_text().splitlines()
    out = []
    k = 0
    while k < len(lines):
        if not lines[k].startswith("```"):
            k += 1
            continue
        end = next((j for j in range(k + 1, len(lines)) if lines[j].startswith("```")), len(lines))
        out.append(Block(k + 2, lines[k][3:].strip(), lines[k + 1:end]))
        k = end + 1
    return out


def files(doc: Path) -> dict[str, str]:
    out = {}
    for b in blocks(doc):
        m = re.search(r"\bfile=(\S+)", b.info)
        if m:
            out[m.group(1)] = "\n".join(b.lines) + "\n"
    return out


EXAMPLES = [b for b in blocks(DOC) if b.lines and b.lines[0].startswith("$ verify ")]


def run(command: str, cwd: Path) -> str:
    """`$ verify ...` (with an optional `< FILE`) in CWD: stdout, then stderr."""
    words = shlex.split(command.removeprefix("$ "))[1:]
    stdin = None
    if "<" in words:
        k = words.index("<")
        stdin = (cwd / words[k + 1]).read_bytes()
        words = words[:k] + words[k + 2:]
    env = {**os.environ, "VERIFY_PATH": str(cwd),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    r = subprocess.run([sys.executable, "-m", "verify", *words], cwd=cwd, env=env, input=stdin, capture_output=True,
                       check=False)
    return r.stdout.decode() + r.stderr.decode()


def test_the_page_has_examples_of_each_language() -> None:
    cmds = [b.lines[0] for b in EXAMPLES]
    assert any(c.startswith("$ verify lowering") for c in cmds)
    assert any(c.startswith("$ verify show") and "@" in c for c in cmds)  # a per-lane parameter
    assert any(c.startswith("$ verify asm") and "--assert" in c for c in cmds)
    assert any("< " in c for c in cmds)  # standard input
    assert {"demo_xor1.s", "demo_idx.s", "specs/demo.spec", "shfl.s"} <= set(files(DOC))


def test_every_header_directive_and_spec_statement_is_documented() -> None:
    text = DOC.read_text()
    missing = [f"@{k}" for k in HEADER_KEYS if f"`@{k}`" not in text]
    missing += [s for s in ("`lanes = E`", "`input a, b`", "`output a, b`", "`require E, \"message\"`",
                            "`type f32`", "`combines E`", "`NAME = E`") if s not in text]
    assert not missing, missing


@pytest.mark.parametrize("ex", EXAMPLES, ids=[f"language.md:{b.line}" for b in EXAMPLES])
def test_language_example(ex: Block, tmp_path: Path) -> None:
    for name, text in files(DOC).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    n = 1
    while ex.lines[n - 1].endswith("\\") and n < len(ex.lines):
        n += 1
    command = " ".join(line.removesuffix("\\") for line in ex.lines[:n])
    got = normalise(run(command, tmp_path))
    want = normalise("\n".join(ex.lines[n:]))
    assert elided_pattern(want).fullmatch(got), (
        f"docs/language.md:{ex.line}: `{command}` prints something else:\n{diff(want, got, 'language.md')}"
        f"\nreal output:\n{got}")


def test_every_spec_has_a_one_line_description() -> None:
    code, rows, err = cli_json("specs")
    assert code == 0 and len(rows) >= 80
    missing = [r["name"] for r in rows if not r["doc"].strip()]
    assert not missing, f"specs without a description (a comment line just above `spec`): {missing}"
    code, out, err = cli("specs")
    assert len(out.splitlines()) == len(rows)  # one line each
    assert all(line.split(None, 1)[1:] for line in out.splitlines())


def test_a_description_is_the_comment_paragraph_just_above_its_spec() -> None:
    lib = SpecLib.from_text(
        "# about the file\n\n# the first\nspec a():\n    lanes = 1\n    out = x[0]\n\n"
        "# about a group\n\n# the second\nspec b():\n    lanes = 1\n    out = x[0]\n\n"
        "# the group and the third\nspec c():\n    lanes = 1\n    out = x[0]\n")
    assert [lib.specs[n].doc for n in "abc"] == ["the first", "the second", "the group and the third"]
