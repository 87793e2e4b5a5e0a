"""Standing checks on the repository itself."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_cited_source_is_in_docs():
    docs = (ROOT / "docs" / "semantics.md").read_text()
    defined = set(re.findall(r"`\[(S:[a-z0-9-]+)\]`", docs))
    cited = set()
    for d in ("verify", "specs", "lowerings"):
        for p in (ROOT / d).rglob("*"):
            if p.is_file() and p.suffix in (".py", ".spec", ".s"):
                cited |= set(re.findall(r"\[(S:[a-z0-9-]+)\]", p.read_text()))
    assert cited, "no citations found"
    assert cited <= defined, f"cited but not in docs/semantics.md: {sorted(cited - defined)}"


def test_every_assumption_is_documented():
    from verify.assume import ASSUMPTIONS

    docs = (ROOT / "docs" / "semantics.md").read_text()
    for a in ASSUMPTIONS.values():
        assert f"`{a.name}`" in docs, a.name
        assert f"`[{a.source}]`" in docs, a.source


def test_only_smt_imports_z3():
    """One module imports z3 (verify/smt/terms.py); the other parts of
    verify.smt take it from there, and nothing outside verify/smt/ names it."""
    importers = []
    for p in (ROOT / "verify").rglob("*.py"):
        text = p.read_text()
        if re.search(r"^\s*(import z3|from z3)", text, re.M):
            importers.append(p.relative_to(ROOT).as_posix())
        if p.parent.name != "smt":
            assert not re.search(r"^\s*from \S*smt\S* import [^#\n]*\bz3\b", text, re.M), p
    assert importers == ["verify/smt/terms.py"]


@pytest.mark.slow
def test_generated_lowerings_are_current():
    r = subprocess.run([sys.executable, "-m", "lowerings._gen", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_cli_path_imports_no_heavy_modules():
    code = ("import sys; from verify.cli import main; import io; "
            "main(['lowering', 'xor5', '--wave', '64'], io.StringIO(), io.StringIO()); "
            "print(','.join(m for m in ('sympy', 'hypothesis', 'llvmlite', 'numpy', 'ssl', 'http.client', "
            "'xml.sax', 'urllib.request') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ""


def test_targets_doc_is_current():
    from verify.target import markdown

    assert (ROOT / "docs" / "targets.md").read_text() == markdown(), "run: verify targets --markdown > docs/targets.md"


@pytest.mark.slow
def test_proof_records_are_current():
    """The CI gate: `verify check` passes on the repository's own lowerings.
    Current records are trusted by their hashes, so this proves nothing; after
    any change to a lowering, a spec or the semantics, run `verify prove`."""
    from helpers import cli

    code, out, err = cli("check", str(ROOT / "lowerings"))
    assert code == 0, out + err
    assert out.splitlines()[0].endswith("; 0 lowerings proved in this run"), out


def test_ci_runs_the_readme_commands():
    """.ci/run installs and tests exactly as the README's first two code blocks say."""
    blocks = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S)
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "verify lowering xor5 --wave 64" in blocks[0]
    assert "pytest" in blocks[1]
    assert blocks[0] in ci and blocks[1] in ci


def test_every_catalogue_directory_is_installed():
    """An ordinary (non-editable) install carries the built-in catalogue:
    every directory of specs/, lowerings/ and proofs/ is a data-files entry."""
    text = (ROOT / "pyproject.toml").read_text()
    listed = dict(re.findall(r'^"share/verify/([\w/]+)" = \["([\w/]+)/\*\.\w+"\]$', text, re.M))
    assert all(k == v for k, v in listed.items()), listed
    want = set()
    for top, ext in (("specs", "spec"), ("lowerings", "s"), ("proofs", "proof")):
        for p in (ROOT / top).rglob(f"*.{ext}"):
            rel = p.parent.relative_to(ROOT)
            if not any(part.startswith(("_", ".")) for part in rel.parts):
                want.add(rel.as_posix())
    assert want == set(listed), (sorted(want - set(listed)), sorted(set(listed) - want))


def test_builtin_catalogue_is_found_under_share_when_installed(tmp_path):
    from verify.catalog import _builtin_root

    site = tmp_path / "lib" / "site-packages"  # where the package would be
    (site / "verify").mkdir(parents=True)
    (tmp_path / "share" / "verify" / "specs").mkdir(parents=True)
    assert _builtin_root(site, (str(tmp_path),)) == tmp_path / "share" / "verify"
    assert _builtin_root(ROOT, (str(tmp_path),)) == ROOT  # a checkout uses its own


def test_only_smt_second_imports_bitwuzla():
    """The second solver (--double-check) is imported in verify/smt/second.py alone."""
    importers = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "verify").rglob("*.py")
                       if re.search(r"^\s*(import bitwuzla|from bitwuzla)", p.read_text(), re.M))
    assert importers == ["verify/smt/second.py"]
