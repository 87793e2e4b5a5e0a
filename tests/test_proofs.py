"""Proof records, `verify prove` and `verify check` (the CI gate): record
text, staleness by hashes and by proofs.lock, exit codes, messages, JSON and
JUnit reports, --jobs and --shard.  Each test builds a small tree of its own
in tmp_path, so only a few lowerings are ever proved here."""

import json
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from helpers import cli

from verify import proofs, revisions
from verify.diag import InputError
from verify.lowering_file import load_lowering

ROOT = Path(__file__).resolve().parent.parent
LOW = ROOT / "lowerings"


def tree(tmp_path, monkeypatch, *files: tuple[str, Path]) -> Path:
    """tmp_path/lowerings/<rel> copies of the given lowerings; cwd there."""
    for rel, src in files:
        dst = tmp_path / "lowerings" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, dst)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def fresh_revisions():
    """Revisions computed from (patched) sources, and forgotten afterwards."""
    revisions.clear_cache()
    yield
    revisions.clear_cache()


def texts(root: Path) -> dict[str, str]:
    """Every record file and the lock, by path."""
    out = {p.relative_to(root).as_posix(): p.read_text() for p in (root / "proofs").rglob("*.proof")}
    out["proofs.lock"] = (root / "proofs.lock").read_text()
    return out


@pytest.fixture
def small(tmp_path, monkeypatch):
    """xor5 (8 gfx9 targets, one shared solver run) and the wave64 half swap on gfx950."""
    return tree(tmp_path, monkeypatch, ("xor5.s", LOW / "xor5.s"),
                ("permlane/xor32_permlane32_swap.s", LOW / "permlane" / "xor32_permlane32_swap.s"))


def test_record_text_is_exactly_this(small):
    code, out, err = cli("prove")
    assert code == 0, err
    assert out.splitlines() == [
        "proofs/permlane/xor32_permlane32_swap.proof: 1 instantiation in 1 record: 1 proved",
        "proofs/xor5.proof: 8 instantiations in 1 record: 8 proved",
        "prove: 2 lowerings, 9 instantiations in 2 records: 9 proved, 0 refuted, 0 unknown; "
        "2 lowerings proved in this run",
        "Summary: 9 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported",
    ]
    low = load_lowering(small / "lowerings/permlane/xor32_permlane32_swap.s")
    h = proofs.hashes(low)
    solver = h["solver"]
    assert (small / "proofs/permlane/xor32_permlane32_swap.proof").read_text() == f"""\
{{
  "lowering": "lowerings/permlane/xor32_permlane32_swap.s",
  "records": [
    {{
      "assumptions": {{"permlane_swap.exec": "ignore"}},
      "exec": "any",
      "hashes": {{"lowering": "{h['lowering']}", "solver": "{solver}", "spec": "{h['spec']}"}},
      "method": "{solver}, bit-vector encoding, exec=any",
      "obligations": [
        {{"name": "contract", "verdict": "proved"}},
        {{"name": "defined", "verdict": "proved"}},
        {{"name": "value(out)", "verdict": "proved"}},
        {{"name": "exec", "verdict": "proved"}}
      ],
      "ops": ["s_nop", "v_mov_b32", "v_permlane32_swap_b32"],
      "targets": ["gfx950"],
      "verdict": "proved",
      "wave": 64
    }}
  ],
  "schema": 2,
  "spec": "cuda64.shfl_xor mask=32 width=64"
}}
"""
    # the eight gfx9 targets share one solver run, so one record
    gfx9 = ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"]
    d = proofs.load(small / "proofs/xor5.proof")
    assert list(d["records"]) == [(t, 64) for t in gfx9]
    assert len(d["list"]) == 1 and d["list"][0]["targets"] == gfx9
    assert d["list"][0]["ops"] == ["s_mov_b64", "s_nop", "s_or_saveexec_b64", "v_mov_b32"]
    # the lock beside proofs/: the checker's revision, then one line per registered op
    lock = (small / "proofs.lock").read_text()
    now = revisions.current()
    assert lock == revisions.render_lock(now) and revisions.parse_lock(lock, "proofs.lock") == now
    assert [ln.split()[0] for ln in lock.splitlines() if not ln.startswith("#")][:2] == ["core", "ds_bpermute_b32"]
    # proving again changes nothing and proves nothing
    before = (small / "proofs/xor5.proof").read_text()
    code, out, _ = cli("prove")
    assert code == 0 and out.splitlines()[-2].endswith("; 0 lowerings proved in this run")
    assert (small / "proofs/xor5.proof").read_text() == before
    # proving it again by force gives the same record: the file keeps its bytes
    code, out, _ = cli("prove", "--force", "lowerings/xor5.s")
    assert out.splitlines()[0] == "proofs/xor5.proof: 8 instantiations in 1 record: 8 proved (unchanged)"
    assert (small / "proofs/xor5.proof").read_text() == before


def test_current_tree_passes_and_proves_nothing(small):
    assert cli("prove")[0] == 0
    code, out, err = cli("check")
    assert (code, err) == (0, "")
    assert out == ("check: 2 lowerings, 9 instantiations in 2 records: 9 proved, 0 refuted, 0 unknown; "
                   "0 lowerings proved in this run\n"
                   "Summary: 9 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported" "\n")


def test_one_changed_token_is_stale_until_proved_again(small):
    assert cli("prove")[0] == 0
    f = small / "lowerings/xor5.s"
    text = f.read_text()
    # whitespace and comments are not tokens of the lowering: still current
    f.write_text(text.replace("s_nop 1", "s_nop    1   ; two wait states").replace("; xor5:", ";   xor5 (edited):"))
    assert cli("check")[0] == 0
    f.write_text(text.replace("s_nop 1", "s_nop 2"))
    code, out, _ = cli("check")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == ("proofs/xor5.proof: gfx900 wave64: stale (lowering changed); re-proved now: proved; "
                        "run: verify prove lowerings/xor5.s")
    assert len(lines) == 10 and all(ln.startswith("proofs/xor5.proof: gfx9") for ln in lines[:8])
    assert lines[-2:] == ["check: 2 lowerings, 9 instantiations in 2 records: 1 proved, 0 refuted, 0 unknown, "
                          "8 stale; 1 lowering proved in this run", "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported, 8 errors"]
    code, out, _ = cli("prove")
    assert code == 0 and out.splitlines()[0] == "proofs/xor5.proof: 8 instantiations in 1 record: 8 proved"
    assert cli("check")[0] == 0


def test_a_changed_token_that_breaks_it_says_refuted(small):
    assert cli("prove")[0] == 0
    f = small / "lowerings/xor5.s"
    f.write_text(f.read_text().replace("quad_perm:[2,3,0,1]", "quad_perm:[3,2,1,0]"))
    code, out, _ = cli("check", "lowerings/xor5.s")
    assert code == 1
    assert out.splitlines()[0] == ("proofs/xor5.proof: gfx900 wave64: stale (lowering changed); re-proved now: "
                                   "refuted (value(out)); fix the lowering: `verify lowering lowerings/xor5.s` "
                                   "shows the counterexample")


def test_spec_checker_and_solver_changes_make_records_stale(small, monkeypatch):
    assert cli("prove")[0] == 0
    lock = (small / "proofs.lock").read_text()
    (small / "proofs.lock").unlink()
    code, out, _ = cli("check", "lowerings/xor5.s")
    assert code == 1 and out.splitlines()[0].startswith("proofs/xor5.proof: gfx900 wave64: stale (no proofs.lock)")
    (small / "proofs.lock").write_text(lock)
    now = revisions.current()
    monkeypatch.setattr(revisions, "current", lambda: {**now, "core": "r999-0000000000000000"})
    code, out, _ = cli("check", "lowerings/permlane")
    assert code == 1 and "stale (checker changed)" in out.splitlines()[0]
    monkeypatch.setattr(proofs, "spec_hash", lambda low: "changed")
    monkeypatch.setattr(proofs, "solver_id", lambda: "z3 0.0.1")
    code, out, _ = cli("check", "lowerings/permlane")
    assert out.splitlines()[0].startswith("proofs/permlane/xor32_permlane32_swap.proof: gfx950 wave64: "
                                          "stale (spec changed, checker changed, solver changed)")


def test_spec_hash_follows_called_specs_and_ignores_comments():
    from verify import catalog

    lib = catalog.speclib()
    assert proofs.spec_closure(lib, "cuda.shfl_xor") == ["cuda.shfl_xor", "warp.bfly"]
    src = proofs.spec_source(lib, "warp.bfly")
    assert src.splitlines()[0] == "spec warp.bfly(b, c, n):" and "#" not in src


def test_missing_refuted_and_orphan_records_fail(small):
    shutil.copy(ROOT / "tests/golden/xor5_plain.s", small / "lowerings/xor5_plain.s")
    code, out, _ = cli("check", "lowerings/xor5_plain.s")
    assert code == 1
    assert out.splitlines()[0] == ("proofs/xor5_plain.proof: gfx900 wave64: missing; proved now: refuted (value(out)); "
                                   "fix the lowering: `verify lowering lowerings/xor5_plain.s` shows the counterexample")
    # a missing record whose proof is refuted is an incorrect lowering in the counts
    assert out.splitlines()[-1] == "Summary: 0 correct, 8 incorrect, 0 failed-to-prove, 0 unsupported"
    code, out, _ = cli("prove")
    assert code == 1  # a refuted lowering is recorded as refuted
    assert "proofs/xor5_plain.proof: 8 instantiations in 1 record: 8 refuted (gfx900 wave64, gfx906 wave64" in out
    code, out, _ = cli("check")
    assert code == 1
    assert out.splitlines()[0] == "proofs/xor5_plain.proof: gfx900 wave64: refuted (value(out))"
    assert out.splitlines()[-2:] == ["check: 3 lowerings, 17 instantiations in 3 records: 9 proved, 8 refuted, "
                                     "0 unknown; 0 lowerings proved in this run", "Summary: 9 correct, 8 incorrect, 0 failed-to-prove, 0 unsupported"]
    # a record nobody declares any more, and a record file without a lowering
    (small / "lowerings/xor5_plain.s").unlink()
    f = small / "lowerings/xor5.s"
    f.write_text(f.read_text().replace("@targets  gfx9", "@targets  gfx900"))
    code, out, _ = cli("check")
    assert code == 1
    assert out.splitlines() == [
        "proofs/xor5.proof: gfx906 wave64: orphan: lowerings/xor5.s does not declare gfx906 wave64; "
        "run: verify prove lowerings/xor5.s",
        *[f"proofs/xor5.proof: {t} wave64: orphan: lowerings/xor5.s does not declare {t} wave64; "
          "run: verify prove lowerings/xor5.s" for t in ("gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950")],
        "proofs/xor5_plain.proof: orphan: there is no lowering lowerings/xor5_plain.s; delete the record",
        "check: 2 lowerings, 9 instantiations in 2 records: 2 proved, 0 refuted, 0 unknown, 8 orphan; "
        "0 lowerings proved in this run",
        "Summary: 2 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported, 8 errors",
    ]
    code, out, _ = cli("prove")
    assert "proofs/xor5_plain.proof: removed (no lowering lowerings/xor5_plain.s)" in out
    assert not (small / "proofs/xor5_plain.proof").exists()
    d = proofs.load(small / "proofs/xor5.proof")
    assert list(d["records"]) == [("gfx900", 64)] and d["list"][0]["targets"] == ["gfx900"]
    assert cli("check")[0] == 0


@pytest.mark.slow
def test_unknown_fails_with_3_unless_allowed(tmp_path, monkeypatch):
    # (a 64-bit max: a pair add is settled without the solver since its high
    # half is one 64-bit term, verify/smt/terms.py)
    tree(tmp_path, monkeypatch, ("pair_umax_u64_gfx9.s", LOW / "wide64" / "pair_umax_u64_gfx9.s"))
    f = tmp_path / "lowerings/pair_umax_u64_gfx9.s"
    f.write_text(f.read_text().replace("@targets  gfx9, gfx90a, gfx942, gfx950", "@targets  gfx900"))
    code, out, _ = cli("prove", "--timeout", "0.0000001")  # one z3 resource unit: too few for the compare's lanes
    assert code == 3 and "1 instantiation in 1 record: 1 unknown (gfx900 wave64)" in out
    code, out, _ = cli("check")
    assert code == 3
    assert out.splitlines()[0].startswith("proofs/pair_umax_u64_gfx9.proof: gfx900 wave64: unknown (value(out): unknown: solver:")
    code, out, _ = cli("check", "--allow-unknown")
    assert code == 0 and out.splitlines()[0].endswith("(allowed by --allow-unknown)")


def test_json_and_junit_reports(small):
    assert cli("prove")[0] == 0
    shutil.copy(ROOT / "tests/golden/xor5_plain.s", small / "lowerings/xor5_plain.s")
    code, out, _ = cli("check", "--json", "--junit", "report.xml")
    assert code == 1
    js = json.loads(out)
    assert js["exit"] == 1 and js["kinds"] == {"proved": 9, "refuted": 8}
    rec = next(r for r in js["records"] if r["lowering"] == "lowerings/xor5_plain.s")
    assert rec == {"record": "proofs/xor5_plain.proof", "lowering": "lowerings/xor5_plain.s", "target": "gfx900",
                   "wave": 64, "status": "missing", "verdict": None, "reasons": [], "reproved": "refuted",
                   "failing": ["value(out)"], "problem": "refuted"}
    root = ET.parse(small / "report.xml").getroot()
    assert root.tag == "testsuites" and root.get("name") == "verify check"
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("17", "8", "0", "0")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"lowerings/permlane/xor32_permlane32_swap.s", "lowerings/xor5.s", "lowerings/xor5_plain.s"}
    bad = suites["lowerings/xor5_plain.s"]
    assert (bad.get("tests"), bad.get("failures")) == ("8", "8")
    case = bad.find("testcase")
    assert (case.get("classname"), case.get("name"), case.get("file")) == (
        "lowerings/xor5_plain.s", "gfx900 wave64", "proofs/xor5_plain.proof")
    fail = case.find("failure")
    assert fail.get("type") == "refuted" and fail.get("message").startswith("proofs/xor5_plain.proof: gfx900 wave64: missing")
    ok = suites["lowerings/xor5.s"].findall("testcase")
    assert len(ok) == 8 and all(list(c) == [] for c in ok)


@pytest.mark.slow
def test_jobs_and_shards(small):
    shutil.copy(LOW / "shift/shfl_up1_row.s", small / "lowerings/shfl_up1_row.s")
    code, out, err = cli("prove", "--jobs", "2")
    assert code == 0, err
    assert out.splitlines()[-2:] == ["prove: 3 lowerings, 17 instantiations in 3 records: 17 proved, 0 refuted, "
                                     "0 unknown; 3 lowerings proved in this run", "Summary: 17 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported"]
    serial = {p: p.read_text() for p in (small / "proofs").rglob("*.proof")}
    assert cli("prove", "--force")[0] == 0  # the same records, in one process
    assert {p: p.read_text() for p in (small / "proofs").rglob("*.proof")} == serial
    # the lowerings in path order: permlane/xor32_permlane32_swap.s, shfl_up1_row.s, xor5.s
    counts = []
    for i in (1, 2):
        code, out, _ = cli("check", "--shard", f"{i}/2", "--jobs", "2", "--full")
        assert code == 0
        counts.append(out.splitlines()[-2])
    assert counts == [
        "check: 2 lowerings, shard 1/2, 9 instantiations in 2 records: 9 proved, 0 refuted, 0 unknown; "
        "2 lowerings proved in this run",
        "check: 1 lowering, shard 2/2, 8 instantiations in 1 record: 8 proved, 0 refuted, 0 unknown; "
        "1 lowering proved in this run",
    ]
    assert cli("check", "--shard", "3/2")[2] == "error: --shard 3/2: I must be between 1 and N\n"
    assert cli("check", "--jobs", "0")[2] == "error: --jobs must be at least 1, got 0\n"


def test_a_record_that_contradicts_itself_is_rejected(small):
    """A hand edit that makes a verdict disagree with its obligations (or
    leaves a refutation's detail on a 'proved' obligation) is a corrupt file:
    one line, exit 2, even though its hashes are current."""
    assert cli("prove", "lowerings/permlane")[0] == 0
    f = small / "proofs/permlane/xor32_permlane32_swap.proof"
    good = f.read_text()
    f.write_text(good.replace('"name": "exec", "verdict": "proved"', '"name": "exec", "verdict": "refuted"'))
    code, out, err = cli("check", "lowerings/permlane")
    assert (code, out) == (2, "")
    assert err == ("proofs/permlane/xor32_permlane32_swap.proof:1:1: error: not a proof record: the record for "
                   "gfx950 wave64 contradicts itself: verdict proved but its obligations make it refuted "
                   "(re-prove it: verify prove --force)\n")


@pytest.mark.slow
def test_a_refutation_edited_into_a_proof_is_caught_and_never_emitted(small):
    low = small / "lowerings/xor5.s"
    low.write_text(low.read_text().replace("row_mask:0xf", "row_mask:0xe", 1))
    assert cli("prove", "lowerings/xor5.s")[0] == 1
    rec = small / "proofs/xor5.proof"
    forged = rec.read_text().replace('"refuted"', '"proved"')
    rec.write_text(forged)
    code, _, err = cli("check", "lowerings/xor5.s")
    assert code == 2 and "a proved obligation carries a refutation's detail" in err
    # a careful forger drops the details too: the hashes say current, so only
    # --full (the nightly job) notices, and emit, which proves again
    import re as _re
    rec.write_text(_re.sub(r'"detail": "[^"]*", ', "", forged))
    assert cli("check", "lowerings/xor5.s")[0] == 0
    assert cli("check", "lowerings/xor5.s", "--full")[0] == 1
    code, out, err = cli("emit", "lowerings/xor5.s", "--target", "gfx942", "--wave", "64", "--format", "asm")
    assert (code, out) == (1, "")
    assert err == ("error: refusing to emit xor5 for gfx942 wave64: it is refuted there now, although its proof "
                   "record says proved (the record is wrong; run: verify prove --force lowerings/xor5.s)\n")


def test_full_check_catches_a_hand_edited_record(small):
    assert cli("prove", "lowerings/permlane")[0] == 0
    f = small / "proofs/permlane/xor32_permlane32_swap.proof"
    f.write_text(f.read_text().replace('"method": "z3', '"method": "hand-edited, z3'))
    assert cli("check", "lowerings/permlane")[0] == 0  # hashes unchanged: trusted
    code, out, _ = cli("check", "lowerings/permlane", "--full")
    assert code == 1
    assert out.splitlines()[0] == ("proofs/permlane/xor32_permlane32_swap.proof: gfx950 wave64: differs from a fresh "
                                   "proof (method); run: verify prove lowerings/permlane/xor32_permlane32_swap.s")


def test_input_errors_are_one_line_and_write_nothing(small):
    f = small / "lowerings/xor5.s"
    f.write_text(f.read_text().replace("row_half_mirror", "row_bcast:15").replace("@targets  gfx9", "@targets  gfx9, gfx11"))
    code, out, err = cli("prove")
    assert code == 2 and out == ""
    assert err.startswith("lowerings/xor5.s:") and err.count("\n") == 1
    assert "row_bcast:15 is not available on gfx1100" in err
    assert not (small / "proofs").exists() and not (small / "proofs.lock").exists()
    (small / "proofs").mkdir()
    (small / "proofs/xor5.proof").write_text("{not json")
    code, _, err = cli("check", "lowerings/xor5.s")
    assert code == 2 and err == "proofs/xor5.proof:1:2: error: not a proof record: Expecting property name enclosed in double quotes\n"
    assert cli("check", "nowhere")[2] == "error: no such file or directory: nowhere\n"


# ---------------------------------------------------------------------------
# the ledger: a record file changes only when what it proves does


@pytest.mark.slow  # over 5 s: the fast tier stays near 2 minutes
def test_a_pure_refactor_changes_no_record(small, monkeypatch, fresh_revisions):
    """Comments and docstrings are not part of a revision; any other source
    edit (here a new definition in the checker) is, so every record that
    depends on it is proved again, and keeps its bytes: only proofs.lock
    changes."""
    assert cli("prove")[0] == 0
    before = texts(small)
    real = revisions.read
    pkg = Path(revisions.__file__).parent
    edited = {pkg / "machine.py", pkg / "ops" / "valu.py", pkg / "ops" / "dpp.py"}

    def reworded(path: Path) -> str:
        text = real(path)
        if Path(path) in edited:
            text = re.sub(r":\n", ":  # a new comment\n", text).replace('"""', '"""Reworded. ', 1)
        return text

    monkeypatch.setattr(revisions, "read", reworded)
    revisions.clear_cache()
    assert revisions.current() == revisions.parse_lock(before["proofs.lock"], "proofs.lock")
    code, out, _ = cli("check")
    assert code == 0 and out.endswith("; 0 lowerings proved in this run\n"
                                      "Summary: 9 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported\n")

    monkeypatch.setattr(revisions, "read", lambda path: real(path) + ("\n_REFACTORED = True\n"
                                                                      if Path(path) == pkg / "machine.py" else ""))
    revisions.clear_cache()
    code, out, _ = cli("check")
    lines = out.splitlines()
    assert code == 1 and len(lines) == 11 and all("stale (checker changed)" in ln for ln in lines[:-2])
    # the core line is the whole catalogue's: proving one lowering proves both
    code, out, _ = cli("prove", "lowerings/xor5.s")
    assert code == 0 and out.splitlines() == [
        "proofs/permlane/xor32_permlane32_swap.proof: 1 instantiation in 1 record: 1 proved (unchanged)",
        "proofs/xor5.proof: 8 instantiations in 1 record: 8 proved (unchanged)",
        "prove: 2 lowerings, 9 instantiations in 2 records: 9 proved, 0 refuted, 0 unknown; "
        "2 lowerings proved in this run",
        "Summary: 9 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported",
    ]
    after = texts(small)
    assert {k: v for k, v in after.items() if k != "proofs.lock"} == {k: v for k, v in before.items() if k != "proofs.lock"}
    changed = set(after["proofs.lock"].splitlines()) ^ set(before["proofs.lock"].splitlines())
    assert sorted(ln.split()[0] for ln in changed) == ["core", "core"]
    assert cli("check")[0] == 0


@pytest.mark.slow
def test_adding_an_op_nobody_uses_changes_no_record(small, monkeypatch, fresh_revisions):
    from verify.ops import OPS
    from verify.ops.valu import Valu

    assert cli("prove")[0] == 0
    before = texts(small)
    monkeypatch.setitem(OPS, "v_fresh_b32", Valu("v_fresh_b32", 1, lambda B, a: B.not_(a)))
    revisions.clear_cache()
    code, out, _ = cli("check")
    assert code == 0 and out.endswith("; 0 lowerings proved in this run\n"
                                      "Summary: 9 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported\n")
    code, out, _ = cli("prove")
    assert code == 0 and out.splitlines()[-2].endswith("; 0 lowerings proved in this run")
    after = texts(small)
    assert {k: v for k, v in after.items() if k != "proofs.lock"} == {k: v for k, v in before.items() if k != "proofs.lock"}
    old, new = before["proofs.lock"].splitlines(), after["proofs.lock"].splitlines()
    assert [ln.split()[0] for ln in new if ln not in old] == ["v_fresh_b32"] and len(new) == len(old) + 1


@pytest.mark.slow
def test_editing_one_lowering_makes_exactly_its_records_stale(small):
    shutil.copy(LOW / "shift/shfl_up1_row.s", small / "lowerings/shfl_up1_row.s")
    assert cli("prove")[0] == 0
    before = texts(small)
    f = small / "lowerings/shfl_up1_row.s"
    f.write_text(f.read_text().replace("s_nop 1", "s_nop 2"))
    code, out, _ = cli("check")
    lines = out.splitlines()
    assert code == 1 and len(lines) == 10
    assert all(ln.startswith("proofs/shfl_up1_row.proof: gfx9") and "stale (lowering changed)" in ln for ln in lines[:8])
    code, out, _ = cli("prove")
    assert out.splitlines() == [
        "proofs/shfl_up1_row.proof: 8 instantiations in 1 record: 8 proved",
        "prove: 3 lowerings, 17 instantiations in 3 records: 17 proved, 0 refuted, 0 unknown; "
        "1 lowering proved in this run",
        "Summary: 17 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported",
    ]
    after = texts(small)
    assert [k for k in after if after[k] != before[k]] == ["proofs/shfl_up1_row.proof"]


@pytest.mark.slow
def test_an_op_change_makes_exactly_the_records_that_use_it_stale(small, monkeypatch, fresh_revisions):
    assert cli("prove")[0] == 0
    before = texts(small)
    assert "v_permlane32_swap_b32" not in before["proofs/xor5.proof"]
    real = revisions.op_text
    monkeypatch.setattr(revisions, "op_text",
                        lambda name: real(name) + ("x = 1\n" if name == "v_permlane32_swap_b32" else ""))
    revisions.clear_cache()
    code, out, _ = cli("check")
    assert code == 1 and out.splitlines() == [
        "proofs/permlane/xor32_permlane32_swap.proof: gfx950 wave64: stale (op v_permlane32_swap_b32 changed); "
        "re-proved now: proved; run: verify prove lowerings/permlane/xor32_permlane32_swap.s",
        "check: 2 lowerings, 9 instantiations in 2 records: 8 proved, 0 refuted, 0 unknown, 1 stale; "
        "1 lowering proved in this run",
        "Summary: 8 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported, 1 error",
    ]
    # naming only xor5, which does not use the op, still proves the record that does
    code, out, _ = cli("prove", "lowerings/xor5.s")
    assert code == 0 and out.splitlines() == [
        "proofs/permlane/xor32_permlane32_swap.proof: 1 instantiation in 1 record: 1 proved (unchanged)",
        "prove: 2 lowerings, 9 instantiations in 2 records: 9 proved, 0 refuted, 0 unknown; "
        "1 lowering proved in this run",
        "Summary: 9 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported",
    ]
    after = texts(small)
    changed = set(after["proofs.lock"].splitlines()) ^ set(before["proofs.lock"].splitlines())
    assert [k for k in after if after[k] != before[k]] == ["proofs.lock"]
    assert {ln.split()[0] for ln in changed} == {"v_permlane32_swap_b32"} and len(changed) == 2
    assert cli("check")[0] == 0


def test_op_revisions_read_the_source_that_gives_an_op_its_meaning():
    """An op's text: its own data (the table row), its class and base
    classes, and the ops definitions they name; not its neighbours."""
    text = revisions.op_text("v_add_u32")
    assert "fn = lambda B, a, b: B.add(a, b)" in text and "class Valu(OpDef):" in text
    assert "class OpDef:" in text and "def gather(" in text  # base class; DPP's lane rule, named by Valu
    assert "v_sub_u32" not in text and "class Bitop3" not in text and "#" not in text.split("--")[1].split("'")[0]
    assert '"""' not in text
    assert revisions.op_text("v_bitop3_b32") != revisions.op_text("v_add_u32")
    assert "class BpermuteFi" not in revisions.op_text("ds_bpermute_b32")
    assert "class Bpermute(LdsOp):" in revisions.op_text("ds_bpermute_fi_b32")
    assert [p.name for p in revisions.core_files()][:3] == ["assume.py", "backend.py", "cex.py"]
    core = {p.relative_to(revisions._PKG).as_posix() for p in revisions.core_files()}
    assert {"machine.py", "refine.py", "spec.py", "smt/__init__.py", "smt/terms.py", "smt/query.py"} <= core
    assert "== smt/terms.py\n" in revisions.core_text()


def test_malformed_records_and_lock_are_one_line_errors(small):
    assert cli("prove", "lowerings/permlane")[0] == 0
    f = small / "proofs/permlane/xor32_permlane32_swap.proof"
    good = f.read_text()
    for edit, msg in [
        (good.replace('"ops": ["s_nop", "v_mov_b32"', '"ops": ["v_mov_b32", "s_nop"'),
         "the record for gfx950 wave64 must list its ops sorted, each once"),
        (good.replace('"targets": ["gfx950"]', '"targets": []'),
         "each record names its targets (a list of distinct names) and its wave (a number)"),
        (good.replace('"solver": ', '"semantics": "r1-0", "solver": '),
         "the hashes of the record for gfx950 wave64 are exactly lowering, solver, spec"),
        (good.replace('"schema": 2', '"schema": 1'), "schema 1 is an older format (this verify reads 2); run: verify prove"),
    ]:
        f.write_text(edit)
        code, out, err = cli("check", "lowerings/permlane")
        assert (code, out) == (2, "")
        assert err == f"proofs/permlane/xor32_permlane32_swap.proof:1:1: error: not a proof record: {msg}\n"
    code, _, _ = cli("prove", "lowerings/permlane")  # a record file of an older format is replaced
    assert code == 0 and f.read_text() == good
    d = json.loads(good)
    d["records"].append(d["records"][0])
    with pytest.raises(InputError, match="two records for gfx950 wave64"):
        proofs.parse(json.dumps(d), "x.proof")
    (small / "proofs.lock").write_text("core\n")
    code, out, err = cli("check", "lowerings/permlane")
    assert (code, out, err) == (2, "", "proofs.lock:1:1: error: not a proofs.lock line: expected 'NAME REVISION'\n")


def test_the_lock_is_found_beside_the_records_installed_or_not(tmp_path, monkeypatch):
    from verify import catalog

    text = (ROOT / "pyproject.toml").read_text()
    assert '"share/verify" = ["proofs.lock"]' in text
    assert catalog.lock_file(catalog.ROOT) == ROOT / "proofs.lock" and (ROOT / "proofs.lock").is_file()
    (tmp_path / "team" / "proofs").mkdir(parents=True)
    monkeypatch.setenv("VERIFY_PATH", str(tmp_path / "team"))
    assert catalog.lock_files() == [tmp_path / "team" / "proofs.lock", ROOT / "proofs.lock"]
    (tmp_path / "team" / "lowerings").mkdir()
    assert proofs.lock_path(tmp_path / "team" / "lowerings" / "a" / "b.s") == tmp_path / "team" / "proofs.lock"


def test_smt2_export(small, tmp_path):
    out_dir = tmp_path / "smt"
    code, _, err = cli("prove", "lowerings/permlane", "--smt2", str(out_dir))
    assert code == 0, err
    names = sorted(p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*.smt2"))
    assert names == [f"permlane/xor32_permlane32_swap.gfx950.w64.{o}.smt2" for o in ("contract", "defined", "exec", "value-out")]
    text = (out_dir / "permlane/xor32_permlane32_swap.gfx950.w64.value-out.smt2").read_text()
    assert text.splitlines()[0] == ("; verify obligation value(out): xor32_permlane32_swap (cuda64.shfl_xor) "
                                    "for gfx950 wave64 under exec=any")
    assert "; unsat means the obligation holds" in text.splitlines()[2]
    assert "(set-logic ALL)" in text and text.rstrip().endswith("(check-sat)")
    from verify import smt

    assert smt.check_smt2(text) == "unsat"  # z3 reads the file back and agrees
    code, _, _ = cli("lowering", "lowerings/xor5.s", "--smt2", str(tmp_path / "one"))
    files = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert len(files) == 32 and files[0] == "xor5.gfx900.w64.contract.smt2"
    assert (tmp_path / "one/xor5.gfx906.w64.exec.smt2").read_text().startswith(
        "; gfx906 wave64 shares the solver run of gfx900: the same question\n")


def test_not_core_names_only_modules_that_exist() -> None:
    from verify.revisions import _PKG, NOT_CORE

    assert sorted(n for n in NOT_CORE if not (_PKG / n).is_file()) == []
