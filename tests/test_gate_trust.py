"""The gate cannot be fooled (issue #30, item 7): a proof record's
dependencies are read from its lowering, never taken on the record's word;
`verify check --since REF` re-proves whatever a change touched; assembly for
one target is not validated as another; every output path is refused before
any work when it cannot be written.  Each test builds a small tree of its own
in tmp_path."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

ROOT = Path(__file__).resolve().parent.parent
LOW = ROOT / "lowerings"
SWAP = "lowerings/permlane/xor32_permlane32_swap.s"
REC = "proofs/permlane/xor32_permlane32_swap.proof"
RUNS = "s_nop, v_mov_b32, v_permlane32_swap_b32"


def tree(tmp_path, monkeypatch, *files: tuple[str, Path]) -> Path:
    for rel, src in files:
        dst = tmp_path / "lowerings" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, dst)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def swap(tmp_path, monkeypatch):
    """The wave64 half swap on gfx950 (one instantiation), proved."""
    root = tree(tmp_path, monkeypatch, ("permlane/xor32_permlane32_swap.s", LOW / "permlane" / "xor32_permlane32_swap.s"))
    assert cli("prove")[0] == 0
    return root


def _stale(why: str) -> str:
    return f"{REC}: gfx950 wave64: stale ({why}); re-proved now: proved; run: verify prove {SWAP}"


# ---------------------------------------------------------------------------
# 1. a record's dependencies come from its lowering


def _edits(good: str) -> list[tuple[str, str, int, str | None]]:
    """(kind, edited record text, exit code, the first line check prints
    (stdout for a stale record, stderr for an error))."""
    d = json.loads(good)
    r = d["records"][0]

    def with_(**kw):
        return json.dumps({**d, "records": [{**r, **kw}]}, indent=1)

    no_method = {k: v for k, v in r.items() if k != "method"}
    bad = "proofs/permlane/xor32_permlane32_swap.proof:1:1: error: not a proof record: "
    foreign = {**d, "lowering": "lowerings/xor5.s"}
    return [
        ("ops empty", with_(ops=[]), 1, _stale(f"ops do not match the lowering (listed: none; it runs: {RUNS})")),
        ("ops of another lowering", with_(ops=["s_nop", "v_mov_b32", "v_or_b32"]), 1,
         _stale(f"ops do not match the lowering (listed: s_nop, v_mov_b32, v_or_b32; it runs: {RUNS})")),
        ("record file for another lowering", json.dumps(foreign), 1,
         _stale(f"the record file is for lowerings/xor5.s, not {SWAP}")),
        ("spec call edited", json.dumps({**d, "spec": "cuda64.shfl_xor mask=16 width=64"}), 1,
         _stale("the record file names spec cuda64.shfl_xor mask=16 width=64, "
                "the lowering calls cuda64.shfl_xor mask=32 width=64")),
        ("lowering hash edited", with_(hashes={**r["hashes"], "lowering": "0123456789abcdef"}), 1,
         _stale("lowering changed")),
        ("exec contract edited", with_(exec="full"), 1, _stale("exec full is not the lowering's contract (any)")),
        ("value obligation dropped", with_(obligations=[o for o in r["obligations"] if o["name"] != "value(out)"]), 1,
         _stale("no obligation value(out)")),
        ("assumption variant edited", with_(assumptions={"permlane_swap.exec": "dest"}), 1,
         _stale("assumption permlane_swap.exec=dest is not the default (ignore) that verify prove uses")),
        ("assumption invented", with_(assumptions={**r["assumptions"], "dpp.magic": "on"}), 1,
         _stale("no assumption dpp.magic")),
        ("missing key", json.dumps({**d, "records": [no_method]}), 2,
         bad + "each record has exactly the keys assumptions, exec, hashes, method, obligations, ops, targets, "
               "verdict, wave"),
        ("wrong type", with_(wave="64"), 2,
         bad + "each record names its targets (a list of distinct names) and its wave (a number)"),
        ("ops not a list", with_(ops="v_mov_b32"), 2, bad + "the record for gfx950 wave64 must list its ops sorted, each once"),
        ("verdict edited", with_(verdict="refuted"), 2,
         bad + "the record for gfx950 wave64 contradicts itself: verdict refuted but its obligations make it proved "
               "(re-prove it: verify prove --force)"),
        ("truncated", good[: len(good) // 2], 2, None),
        ("not UTF-8", good.replace("any", "an\xff", 1), 2, None),
    ]


def test_edited_and_foreign_records_are_stale_or_errors_never_current(swap):
    f = swap / REC
    good = f.read_text()
    for kind, text, code, first in _edits(good):
        if kind == "not UTF-8":
            data = text.encode("latin-1")
            at = data.index(b"\xff")
            line, col = data.count(b"\n", 0, at) + 1, at - data.rfind(b"\n", 0, at)
            first = f"{REC}:{line}:{col}: error: not UTF-8 text (byte 0xff)"
        else:
            data = text.encode()
        if kind == "truncated":  # where the JSON ends, as json reads it
            try:
                json.loads(text)
            except json.JSONDecodeError as e:
                first = f"{REC}:{e.lineno}:{e.colno}: error: not a proof record: {e.msg}"
        f.write_bytes(data)
        got, out, err = cli("check")
        assert got == code, (kind, out, err)
        if code == 1:
            assert out.splitlines()[0] == first, kind
            assert "1 stale" in out.splitlines()[1] and err == "", kind
        else:
            assert (out, err) == ("", first + "\n"), kind
        assert f.read_bytes() == data, kind  # check writes nothing
    f.write_text(good)
    assert cli("check")[0] == 0


def test_an_empty_ops_list_cannot_hide_a_changed_instruction(swap):
    """The reported hole: with "ops": [] the lock line of v_permlane32_swap_b32
    was never consulted, so the record stayed current after that op changed."""
    f = swap / REC
    d = json.loads(f.read_text())
    d["records"][0]["ops"] = []
    f.write_text(json.dumps(d))
    lock = (swap / "proofs.lock").read_text()
    old = next(ln for ln in lock.splitlines() if ln.startswith("v_permlane32_swap_b32 "))
    (swap / "proofs.lock").write_text(lock.replace(old, "v_permlane32_swap_b32 0000000000000000"))
    code, out, _ = cli("check")
    assert code == 1
    assert out.splitlines()[0] == _stale(f"ops do not match the lowering (listed: none; it runs: {RUNS}), "
                                          "op v_permlane32_swap_b32 changed")
    # prove writes the real list back
    assert cli("prove")[0] == 0 and json.loads(f.read_text())["records"][0]["ops"] == RUNS.split(", ")


def test_a_foreign_record_copied_over_is_stale(tmp_path, monkeypatch):
    """xor5's record file copied onto xor1's (same targets, same wave): its
    hashes, path and ops are xor5's, so it is stale, never current."""
    root = tree(tmp_path, monkeypatch, ("xor5.s", LOW / "xor5.s"), ("xor1.s", LOW / "xor" / "xor1.s"))
    assert cli("prove")[0] == 0
    shutil.copy(root / "proofs/xor5.proof", root / "proofs/xor1.proof")
    code, out, _ = cli("check", "lowerings/xor1.s")
    assert code == 1
    assert out.splitlines()[0] == (
        "proofs/xor1.proof: gfx900 wave64: stale (lowering changed, the record file is for lowerings/xor5.s, "
        "not lowerings/xor1.s, the record file names spec cuda.shfl_xor mask=5 width=16, the lowering calls "
        "cuda.shfl_xor mask=1 width=16, ops do not match the lowering (listed: s_mov_b64, s_nop, "
        "s_or_saveexec_b64, v_mov_b32; it runs: v_mov_b32)); re-proved now: proved; run: verify prove lowerings/xor1.s")


@pytest.mark.parametrize("kind", ["loop", "dangling", "directory"])
def test_a_record_that_is_not_a_file_is_one_line_error(swap, kind):
    f = swap / REC
    f.unlink()
    if kind == "loop":
        os.symlink(f.name, f)
        why = "Too many levels of symbolic links"
    elif kind == "dangling":
        os.symlink("nowhere.proof", f)
        why = "No such file or directory"
    else:
        f.mkdir()
        why = "Is a directory"
    for cmd in ("check", "prove"):
        code, out, err = cli(cmd)
        assert (code, out, err) == (2, "", f"error: cannot read the proof record {REC}: {why}\n"), cmd
    assert os.path.lexists(f)


# ---------------------------------------------------------------------------
# 2. check --since REF: a change cannot vouch for itself


def git(root: Path, *argv: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", "-C", str(root), *argv], check=True, capture_output=True, text=True, env=env).stdout


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """xor5 and the half swap, proved and committed as `base` in a new git repository."""
    root = tree(tmp_path, monkeypatch, ("xor5.s", LOW / "xor5.s"),
                ("permlane/xor32_permlane32_swap.s", LOW / "permlane" / "xor32_permlane32_swap.s"))
    assert cli("prove")[0] == 0
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    git(root, "tag", "base")
    return root


@pytest.mark.slow
def test_since_catches_a_record_hand_edited_to_proved(repo):
    """The change breaks xor5 and forges its record to say proved (details
    dropped, so the record is consistent and its hashes current): a plain
    check trusts it; --since base proves xor5 again and says it differs."""
    low = repo / "lowerings/xor5.s"
    low.write_text(low.read_text().replace("row_mask:0xf", "row_mask:0xe", 1))
    assert cli("prove", "lowerings/xor5.s")[0] == 1
    rec = repo / "proofs/xor5.proof"
    d = json.loads(rec.read_text())
    r = d["records"][0]
    r["verdict"] = "proved"
    r["obligations"] = [{"name": o["name"], "verdict": "proved"} for o in r["obligations"]]
    rec.write_text(json.dumps(d))
    git(repo, "commit", "-qam", "the change")
    assert cli("check")[0] == 0  # the hole --since closes
    code, out, err = cli("check", "--since", "base")
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[0] == ("proofs/xor5.proof: gfx900 wave64: differs from a fresh proof (obligations, verdict); "
                        "run: verify prove lowerings/xor5.s")
    assert len([ln for ln in lines if "differs from a fresh proof (obligations, verdict)" in ln]) == 8
    assert lines[-2].endswith("8 differs; 1 lowering proved in this run")
    # uncommitted edits count too, and an unchanged tree proves nothing again
    assert cli("check", "--since", "HEAD")[1].splitlines()[-2].endswith("0 lowerings proved in this run")
    rec.write_text(rec.read_text() + "\n")
    assert cli("check", "--since", "HEAD")[0] == 1


def test_since_proves_again_what_a_changed_lock_line_vouches_for(repo):
    """proofs.lock at base had another revision for v_permlane32_swap_b32:
    only the lowering that runs it is proved again (and agrees)."""
    lock = repo / "proofs.lock"
    text = lock.read_text()
    old = next(ln for ln in text.splitlines() if ln.startswith("v_permlane32_swap_b32 "))
    lock.write_text(text.replace(old, "v_permlane32_swap_b32 0000000000000000"))
    git(repo, "commit", "-qam", "old lock")
    git(repo, "tag", "old")
    lock.write_text(text)
    code, out, _ = cli("check", "--since", "old")
    assert code == 0
    assert out.splitlines()[0] == ("check: 2 lowerings, 9 instantiations in 2 records: 9 proved, 0 refuted, "
                                   "0 unknown; 1 lowering proved in this run")
    code, out, _ = cli("check", "--since", "old", "--json")
    assert json.loads(out)["proved_in_this_run"] == [SWAP]


def test_since_with_an_unknown_revision_is_one_line(repo):
    code, out, err = cli("check", "--since", "nope")
    assert (code, out) == (2, "")
    assert err == f"error: --since: unknown revision nope (a commit, branch or tag of {repo})\n"


def test_since_outside_a_git_repository(swap, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(swap.parent))
    code, out, err = cli("check", "--since", "main")
    assert (code, out) == (2, "")
    assert err == ("error: --since needs a git repository and a revision of it: not a git repository "
                   "(or any of the parent directories): .git\n")


# ---------------------------------------------------------------------------
# 3. assembly for one target is not validated as another's

GFX900 = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx900{feat}"\n\t.text\nf:\n'
          '\tv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n\ts_setpc_b64 s[30:31]\n')
SWAP2 = "v1 == cuda.shfl_xor(v0, mask=1, width=32)"


@pytest.mark.parametrize("feat", ["", ":xnack-", ":sramecc+:xnack-"])
def test_asm_with_another_target_is_an_error(tmp_path, feat):
    f = tmp_path / "k.s"
    f.write_text(GFX900.format(feat=feat))
    code, out, err = cli("asm", str(f), "--target", "gfx1100", "--assert", SWAP2)
    assert (code, out) == (2, "")
    assert err == (f'{f}:1:2: error: --target gfx1100 contradicts .amdgcn_target "amdgcn-amd-amdhsa--gfx900{feat}": '
                   "this is code for gfx900, not gfx1100 (drop --target, or compile for it)\n")
    # its own target (named, or taken from the directive) proves it
    for argv in (["--target", "gfx900"], []):
        code, out, err = cli("asm", str(f), *argv, "--assert", SWAP2)
        assert code == 0, err
        assert "proved" in out and "gfx900 wave64" in out and "gfx1100" not in out


def test_asm_target_directives_that_disagree_or_do_not_parse(tmp_path):
    f = tmp_path / "k.s"
    text = GFX900.format(feat="")
    f.write_text(text + '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n')
    code, out, err = cli("asm", str(f), "--assert", SWAP2)
    assert (code, out) == (2, "")
    assert err == (f'{f}:6:2: error: .amdgcn_target "amdgcn-amd-amdhsa--gfx1100" names gfx1100, but line 1 named '
                   "gfx900: code for one target only\n")
    f.write_text(text.replace('"amdgcn-amd-amdhsa--gfx900"', '"gfx900"'))
    code, out, err = cli("asm", str(f), "--target", "gfx900", "--assert", SWAP2)
    assert (code, out) == (2, "")
    assert err == (f'{f}:1:18: error: not an AMDGPU target id: "gfx900" '
                   '(expected e.g. "amdgcn-amd-amdhsa--gfx900:xnack-")\n')
    # gfx940 is compiled as gfx942 by LLVM 22 (target.py's llvm_cpu): its code says gfx942
    f.write_text(text.replace("--gfx900", "--gfx942:sramecc+:xnack-"))
    code, out, err = cli("asm", str(f), "--target", "gfx940", "--assert", SWAP2)
    assert code == 0 and "gfx940 wave64" in out, err
    code, out, err = cli("asm", str(f), "--target", "gfx90a", "--assert", SWAP2)
    assert code == 2 and "this is code for gfx942, not gfx90a" in err
    # a generic target is not one verify models: named, never guessed from its prefix
    f.write_text(text.replace("--gfx900", "--gfx9-generic"))
    code, out, err = cli("asm", str(f), "--assert", SWAP2)
    assert (code, out, err) == (2, "", f"{f}:1:2: error: unknown target 'gfx9-generic' (see `verify targets`)\n")
    code, out, err = cli("asm", str(f), "--target", "gfx900", "--assert", SWAP2)
    assert code == 2 and "contradicts .amdgcn_target \"amdgcn-amd-amdhsa--gfx9-generic\"" in err


@pytest.mark.skipif(shutil.which("llc-22") is None, reason="needs llc-22")
def test_tv_asm_for_another_target_is_an_error(tmp_path):
    src = ROOT / "tests" / "tv" / "hip_shfl_xor_5_w16.ll"
    asm = tmp_path / "g900.s"
    asm.write_text(subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-O2", str(src), "-o", "-"],
                                  capture_output=True, text=True, check=True).stdout)
    for jobs in ("1", "2"):
        code, out, err = cli("tv", str(src), "--target", "gfx1100", "--wave", "64", "--asm", str(asm), "--jobs", jobs)
        assert (code, out) == (2, "")
        assert err == (f'{asm}:1:2: error: --target gfx1100 contradicts .amdgcn_target "amdgcn-amd-amdhsa--gfx900": '
                       "this is code for gfx900, not gfx1100 (drop --target, or compile for it)\n")
    code, out, _ = cli("tv", str(src), "--target", "gfx900", "--asm", str(asm))
    assert code == 0 and out.splitlines()[-1].startswith("Summary: 1 correct")


# ---------------------------------------------------------------------------
# 4. output paths are refused before any work; the HTML report is deterministic

LONG = "a" * 300

# (command line before the output option, the option, a file (False) or a directory (True))
OUTPUTS = [
    (["check", "nowhere"], "--junit", False),
    (["check", "nowhere"], "--html", True),
    (["prove", "nowhere"], "--smt2", True),
    (["lowering", "nowhere"], "--svg", False),
    (["lowering", "nowhere"], "--smt2", True),
    (["show", "nowhere"], "--svg", False),
    (["asm", "nowhere.s", "--assert", SWAP2], "--svg", False),
    (["emit", "nowhere", "--target", "gfx900", "--wave", "64"], "-o", False),
    (["synth", "cuda.shfl_xor", "mask=1", "width=64", "--target", "gfx900", "--wave", "64"], "-o", False),
]


def _bad_paths(tmp: Path, directory: bool) -> list[tuple[str, str]]:
    what = "directory" if directory else "file"
    (tmp / "afile").write_text("x")
    (tmp / "adir").mkdir()
    out = [
        ("", f"--OPT needs a {what} name, got ''"),
        (str(tmp / "nodir" / "x"), f"cannot write {tmp}/nodir/x: no directory {tmp}/nodir"),
        (str(tmp / LONG), f"cannot write {tmp}/{LONG}: a name in it is too long (300 bytes, at most 255)"),
        ("/proc/x", "cannot write /proc/x: cannot create a file in /proc (No such file or directory)"),
    ]
    if directory:
        out.append((str(tmp / "afile"), f"cannot write into {tmp}/afile: it is not a directory"))
    else:
        out.append((str(tmp / "adir"), f"cannot write {tmp}/adir: it is a directory"))
    return out


@pytest.mark.parametrize("argv, option, directory", OUTPUTS, ids=[f"{a[0]} {o}" for a, o, _ in OUTPUTS])
def test_an_output_that_cannot_be_written_is_refused_first(tmp_path, monkeypatch, argv, option, directory):
    """The input (`nowhere`) does not exist either: the output's error comes
    first, so it is checked before any work; nothing is written."""
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    monkeypatch.chdir(tmp_path)
    for path, msg in _bad_paths(out_dir, directory):
        before = sorted(p.name for p in out_dir.iterdir())
        code, out, err = cli(*argv, option, path)
        assert (code, out, err) == (2, "", f"error: {msg.replace('--OPT', option)}\n"), path
        assert sorted(p.name for p in out_dir.iterdir()) == before, path  # nothing written, no probe left


@pytest.mark.slow
def test_html_report_refuses_a_directory_it_cannot_fill_and_is_deterministic(tmp_path, monkeypatch):
    root = tree(tmp_path, monkeypatch, ("xor5.s", LOW / "xor5.s"))
    low = root / "lowerings/xor5.s"
    assert cli("prove")[0] == 0
    low.write_text(low.read_text().replace("row_mask:0xf", "row_mask:0xe", 1))  # stale: refuted now
    bad = root / "bad"
    (bad / "index.html").mkdir(parents=True)
    assert cli("check", "--html", str(bad)) == (2, "", f"error: cannot write {bad}/index.html: it is a directory\n")
    (bad / "index.html").rmdir()
    (bad / "cex").write_text("")
    assert cli("check", "--html", str(bad)) == (2, "", f"error: cannot write into {bad}/cex: it is not a directory\n")
    pages = []
    for n in (1, 2):
        assert cli("check", "--html", f"r{n}")[0] == 1
        files = sorted(p.relative_to(root / f"r{n}").as_posix() for p in (root / f"r{n}").rglob("*") if p.is_file())
        pages.append({f: (root / f"r{n}" / f).read_bytes() for f in files})
    assert pages[0] == pages[1]
    assert "index.html" in pages[0] and any(f.startswith("cex/xor5.") for f in pages[0])
    assert b"seconds" not in pages[0]["index.html"]


def test_an_orphan_record_that_is_a_link_loop_or_a_directory(swap):
    orphan = swap / "proofs/gone.proof"
    os.symlink("gone.proof", orphan)
    code, out, err = cli("check")
    assert (code, err) == (1, "") and out.splitlines()[0] == (
        "proofs/gone.proof: orphan: there is no lowering lowerings/gone.s; delete the record")
    code, out, err = cli("prove")
    assert (code, err) == (0, "") and out.splitlines()[0] == "proofs/gone.proof: removed (no lowering lowerings/gone.s)"
    assert not os.path.lexists(orphan)
    orphan.mkdir()
    before = (swap / REC).read_text(), (swap / "proofs.lock").read_text()
    assert cli("prove", "--force") == (2, "", "error: proofs/gone.proof: a directory where a proof record belongs; "
                                              "remove it\n")
    assert ((swap / REC).read_text(), (swap / "proofs.lock").read_text()) == before and orphan.is_dir()


# ---------------------------------------------------------------------------
# the gate counts what is true now (issue #34, item 5)


def test_a_stale_record_whose_fresh_proof_is_refuted_counts_as_incorrect(swap, tmp_path):
    # the lowering is edited after its proof (its DPP control broken): the
    # record goes stale, and proving it again refutes it.  That is an
    # incorrect lowering, not a paperwork error, in every count.
    p = tmp_path / SWAP
    p.write_text(p.read_text().replace("v_permlane32_swap_b32", "v_permlane16_swap_b32"))
    code, out, err = cli("check", "--junit", str(tmp_path / "j.xml"))
    assert code == 1, (out, err)
    line = next(ln for ln in out.splitlines() if ln.startswith(REC))
    assert line.startswith(f"{REC}: gfx950 wave64: stale (")
    assert line.endswith(f"re-proved now: refuted (value(out)); fix the lowering: `verify lowering {SWAP}` "
                         "shows the counterexample")
    assert "check: 1 lowering, 1 instantiation in 1 record: 0 proved, 1 refuted, 0 unknown;" in out
    assert out.rstrip().endswith("Summary: 0 correct, 1 incorrect, 0 failed-to-prove, 0 unsupported")
    assert '<failure type="refuted"' in (tmp_path / "j.xml").read_text()
    code, js, _ = cli("check", "--json")
    rec = json.loads(js)
    assert rec["kinds"] == {"refuted": 1} and rec["records"][0]["problem"] == "refuted"
