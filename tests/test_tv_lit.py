"""`verify tv` in LLVM's own test flow (issue #32): every RUN line an
instance as lit runs it, a CI gate that fails closed, directory runs,
coverage, and the lit test format with shards and JUnit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify.tv.runlines import Instance, Skipped, joined_run_lines, normalise_triple, parse_run

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).parent / "tv"
PAIR = Path(__file__).parent / "tv_lit" / "globalisel_pair.ll"
LLC = shutil.which("llc-22")

ADD = """define i32 @f(i32 %a, i32 %b) {
  %r = add i32 %a, %b
  ret i32 %r
}
"""


def write(tmp: Path, name: str, text: str) -> str:
    p = tmp / name
    p.write_text(text)
    return str(p)


# ---------------------------------------------------------------------------
# RUN lines as lit runs them


def run(cmd: str, triple: str = "") -> Instance | Skipped | None:
    return parse_run("x.ll", 7, cmd, triple)


def test_flags_are_kept_per_run_line():
    a = run("llc -mtriple=amdgcn -mcpu=gfx1100 -global-isel=0 < %s | FileCheck %s")
    b = run("llc -mtriple=amdgcn -mcpu=gfx1100 -global-isel=1 -O0 --amdgpu-dpp-combine=false "
            "-mattr=+wavefrontsize64,-xnack < %s")
    assert isinstance(a, Instance) and isinstance(b, Instance)
    assert (a.target.name, a.wave, a.flags, a.run) == ("gfx1100", 32, ("-global-isel=0",), "x.ll:7")
    assert (b.wave, b.opt, b.mattr, b.options) == (64, 0, ("-xnack",), ("-global-isel=1", "-amdgpu-dpp-combine=false"))
    assert b.flags == ("-O0", "-mattr=-xnack", "-global-isel=1", "-amdgpu-dpp-combine=false")
    assert a.key() != b.key()
    assert b.llc_args("amdgcn-amd-amdhsa") == ["-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-O0",
                                               "-mattr=+wavefrontsize64,-xnack", "-global-isel=1",
                                               "-amdgpu-dpp-combine=false"]


@pytest.mark.parametrize("cmd, target, triple", [
    ("llc -mtriple=amdgcn -mcpu=fiji", "gfx803", ""),
    ("llc -march=amdgcn -mcpu=polaris10", "gfx803", ""),
    ("llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942", "gfx942", "amdgcn-amd-amdhsa"),
    ("llc -mtriple=amdgcn--amdpal -mcpu=gfx1100", "gfx1100", "amdgcn--amdpal"),
    ("llc -mtriple=amdgcn-mesa-mesa3d -mcpu=gfx90a", "gfx90a", "amdgcn-mesa-mesa3d"),
    ("llc -mtriple=amdgpu9.08 -o - %s", "gfx908", ""),
    ("llc -mtriple=amdgpu9.50-amd-amdhsa", "gfx950", "amdgcn-amd-amdhsa"),
    ("llc -mtriple amdgcn -mcpu gfx1200", "gfx1200", ""),
])
def test_every_triple_and_cpu_spelling(cmd, target, triple):
    got = run(cmd)
    assert isinstance(got, Instance), got
    assert (got.target.name, got.triple) == (target, triple)


@pytest.mark.parametrize("cmd, why", [
    ("llc -mtriple=amdgcn -mcpu=tongapro < %s", "-mcpu=tongapro (gfx805) is not modelled by verify"),
    ("llc -mtriple=amdgcn -mcpu=gfx1250 < %s", "-mcpu=gfx1250 is not modelled by verify"),
    ("llc -mtriple=amdgcn -mcpu=nosuch < %s", "-mcpu=nosuch is not an AMDGPU processor LLVM 22 knows"),
    ("llc -mtriple=amdgpu12.50 < %s", "-mcpu=gfx1250 is not modelled by verify"),
    ("llc -mtriple=r600 -mcpu=cypress < %s", "R600 (pre-GCN) targets are not modelled"),
    ("llc -mtriple=amdgcn -mcpu=gfx900 -mattr=+wavefrontsize32 < %s", "gfx900 runs wave64 only, not wave32"),
    ("llc -mtriple=amdgcn -mcpu=gfx1100 -stop-after=amdgpu-isel < %s", "llc -stop-after=amdgpu-isel stops before the final code"),
])
def test_a_run_line_verify_cannot_use_says_why(cmd, why):
    got = run(cmd)
    assert isinstance(got, Skipped) and got.counts and got.run == "x.ll:7"
    assert got.why.startswith(why), got.why


@pytest.mark.parametrize("cmd, target", [
    ("llc -mtriple=amdgcn < %s", "gfx600"),  # LLVM's default processor 'generic'  [S:sici]
    ("llc -mtriple=amdgcn-amd-amdhsa < %s", "gfx700"),  # 'generic-hsa'
    ("llc -mtriple=amdgcn -mcpu=tahiti < %s", "gfx600"),
    ("llc -mtriple=amdgcn -mcpu=hawaii < %s", "gfx701"),
    ("llc -mtriple=amdgcn -mcpu=bonaire < %s", "gfx704"),
    ("llc -mtriple=amdgpu6.01 < %s", "gfx601"),
])
def test_si_ci_run_lines_are_instances(cmd, target):
    got = run(cmd)
    assert not isinstance(got, Skipped) and got is not None
    assert (got.target.name, got.wave) == (target, 64)


def test_run_lines_that_are_not_codegen_are_not_instances():
    assert run("opt -S -passes=instcombine < %s | FileCheck %s") is None
    got = run("not llc -mtriple=amdgcn -mcpu=gfx1100 < %s 2>&1 | FileCheck %s")
    assert isinstance(got, Skipped) and not got.counts
    assert normalise_triple("x86_64-unknown-linux") == "'x86_64-unknown-linux' is not an AMDGPU triple"


def test_continued_run_lines_are_joined():
    text = "; RUN: llc -mtriple=amdgcn \\\n; RUN:   -mcpu=gfx1100 < %s \\\n; RUN:   | FileCheck %s\n" + ADD
    assert joined_run_lines(text) == [(1, "llc -mtriple=amdgcn -mcpu=gfx1100 < %s | FileCheck %s")]


def test_two_run_lines_differing_in_flags_are_two_instances(tmp_path):
    p = write(tmp_path, "two.ll", "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -global-isel=0 < %s\n"
                                  "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -global-isel=1 < %s\n"
                                  "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -global-isel=1 < %s | FileCheck %s\n"
              + ADD)
    code, out, _ = cli("tv", p, "--json")
    got = json.loads(out)["results"]
    assert code == 0
    assert [(r["compiler"], r["run_line"], r["verdict"]) for r in got] == [
        ("llvmlite -global-isel=0", f"{p}:1", "proved"), ("llvmlite -global-isel=1", f"{p}:2", "proved")]


@pytest.mark.slow
def test_globalisel_run_line_is_refuted_and_the_selectiondag_one_proved():
    """LLVM 22.1's GlobalISel wave.shuffle miscompile (docs/tv.md, Findings)
    is found from the RUN line's -global-isel=1, with llvmlite."""
    code, out, _ = cli("tv", str(PAIR))
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == (f"wave_shuffle_var on gfx1100 wave64 (llvmlite -global-isel=0) [RUN {PAIR}:3]: "
                        "proved (24 GPU instructions)")
    assert any(ln == (f"wave_shuffle_var on gfx1100 wave64 (llvmlite -global-isel=1) [RUN {PAIR}:4]: "
                      "refuted (24 GPU instructions)") for ln in lines)
    assert lines[-1] == "Summary: 1 correct, 1 incorrect, 0 failed-to-prove, 0 unsupported"


def test_unusable_run_lines_are_named_and_fail_unless_accepted(tmp_path):
    p = write(tmp_path, "mixed.ll", "; RUN: llc -mtriple=amdgcn -mcpu=tongapro < %s\n"
                                    "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s\n" + ADD)
    code, out, _ = cli("tv", p)
    lines = out.splitlines()
    assert code == 4
    assert lines[:2] == [f"RUN line {p}:1 (llvmlite): unsupported",
                         f"  {p}:1: unsupported: RUN line not used: -mcpu=tongapro (gfx805) is not modelled by verify "
                         "(`verify targets` lists those that are)"]
    assert lines[-1] == "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 1 unsupported"
    assert cli("tv", p, "--accept", "run-line")[0] == 0
    code, _, err = cli("tv", p, "--accept", "refuted")
    assert code == 2 and err.startswith("error: --accept refuted: not a cause that can be accepted")


def test_only_unusable_run_lines_is_unsupported_not_an_error(tmp_path):
    p = write(tmp_path, "tonga.ll", "; RUN: llc -mtriple=amdgcn -mcpu=tongapro < %s\n" + ADD)
    code, out, err = cli("tv", p)
    assert (code, err) == (4, "") and "-mcpu=tongapro (gfx805) is not modelled" in out


def test_an_llvm_option_llvmlite_cannot_take_offers_llc(tmp_path):
    p = write(tmp_path, "opt.ll", "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -no-such-option=1 < %s\n" + ADD)
    code, out, _ = cli("tv", p)
    assert code == 4
    assert (f"  {p}:1: unsupported: llvmlite's LLVM cannot be given -no-such-option=1 (not an LLVM library option "
            "verify knows it takes); give --llc 'llc-22 ...' to compile this RUN line") in out.splitlines()


def test_function_attributes_give_each_function_its_target_without_run_lines(tmp_path):
    text = ('define i32 @f(i32 %a, i32 %b) #0 {\n  %r = add i32 %a, %b\n  ret i32 %r\n}\n'
            'define i32 @g(i32 %a, i32 %b) #1 {\n  %r = sub i32 %a, %b\n  ret i32 %r\n}\n'
            'attributes #0 = { "target-cpu"="gfx1100" "target-features"="+wavefrontsize64" }\n'
            'attributes #1 = { nounwind "target-cpu"="gfx942" }\n')
    p = write(tmp_path, "attrs.ll", text)
    code, out, _ = cli("tv", p, "--json")
    got = json.loads(out)["results"]
    assert code == 0
    assert [(r["function"], r["target"], r["wave"], r["run_line"], r["verdict"]) for r in got] == [
        ("f", "gfx1100", 64, f"{p}:1", "proved"), ("g", "gfx942", 64, f"{p}:5", "proved")]


# ---------------------------------------------------------------------------
# immediates as LLVM takes them


def test_dpp_masks_above_15_follow_llvm(tmp_path):
    text = ("; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s\n"
            "define i32 @f(i32 %a, i32 %b) {\n"
            "  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 %a, i32 %b, i32 1, i32 62, i32 15, i1 false)\n"
            "  ret i32 %r\n}\n"
            "define i32 @g(i32 %a, i32 %b) {\n  %r = add i32 %a, %b\n  ret i32 %r\n}\n"
            "declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)\n")
    p = write(tmp_path, "dpp.ll", text)
    code, out, _ = cli("tv", p)
    lines = out.splitlines()
    assert code == 0, out
    assert f"  {p}:3:3: note: row_mask 62 (0x3e) is taken as 0xe: LLVM accepts it and encodes the low 4 bits " \
           "[S:dpp-mask-truncate]" in lines
    assert ("  GPU code: row_mask:0x3e is encoded as row_mask:0xe (the field is 4 bits; llvm-mc keeps the low bits) "
            "[S:dpp-mask-truncate]") in lines
    assert lines[-1] == "Summary: 2 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported"
    assert out.count("GPU code: row_mask:0x3e") == 1  # @f's code only, not @g's


# ---------------------------------------------------------------------------
# failing closed


def test_an_unrunnable_llc_is_one_error_before_compiling(tmp_path):
    p = write(tmp_path, "a.ll", "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s\n" + ADD)
    assert cli("tv", p, "--llc", "/no/such/llc -global-isel") == (
        2, "", "error: --llc '/no/such/llc -global-isel': cannot run '/no/such/llc': no such program\n")


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_an_llvm_crash_is_a_compiler_error():
    code, out, _ = cli("tv", str(CORPUS / "wave_shuffle_var.ll"), "--target", "gfx1030", "--wave", "64",
                       "--llc", "llc-22")
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == "wave_shuffle_var on gfx1030 wave64 (llc-22): compiler error"
    assert lines[1].startswith(f"  could not compile: 'llc-22' crashed (signal 11) on {CORPUS}/wave_shuffle_var.ll "
                               "for gfx1030 wave64: Running pass 'Branch relaxation pass'")
    assert lines[-1] == "Summary: 0 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported, 1 compiler error"


@pytest.mark.slow
def test_ci_script_fails_on_every_exit_but_0(tmp_path):
    script = ROOT / "scripts" / "tv-ci.sh"
    good = tmp_path / "good"
    good.mkdir()
    write(good, "a.ll", "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s\n" + ADD)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "VERIFY": f"{sys.executable} -m verify"}

    def ci(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["sh", str(script), *argv], capture_output=True, text=True, env=env, check=False)
    assert ci(str(good)).returncode == 0
    r = ci(str(good), "--llc", "/no/such/llc")
    assert r.returncode == 2 and "cannot run '/no/such/llc'" in r.stderr
    write(good, "b.ll", "; RUN: llc -mtriple=amdgcn -mcpu=tongapro < %s\n" + ADD)
    assert ci(str(good)).returncode == 4
    assert ci(str(good), "--accept", "run-line").returncode == 0


@pytest.mark.parametrize("cmd", ["check", "prove"])
def test_gate_commands_with_no_catalogue_here_are_an_error(tmp_path, monkeypatch, cmd):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(cmd)
    assert (code, out) == (2, "")
    assert err == (f"error: no lowerings/ directory in {tmp_path} and no PATH given: name the lowering files or "
                   f"directories, or give --builtin for the built-in catalogue ({ROOT / 'lowerings'})\n")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------
# trees, coverage


def test_directory_run_and_coverage(tmp_path):
    d = tmp_path / "t"
    d.mkdir()
    write(d, "a.ll", "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s\n" + ADD)
    write(d, "b.ll", "; RUN: llc -mtriple=amdgcn -mcpu=tongapro < %s\n; RUN: llc -mtriple=amdgcn -mcpu=stoney < %s\n"
          + ADD)
    write(d, "c.ll", "this is not IR\n")
    write(d, "d.ll", "; RUN: opt -S < %s | FileCheck %s\n" + ADD)
    code, out, _ = cli("tv", str(d))
    assert "(file) on - (llvmlite): not codegen" in out.splitlines()
    assert code == 2
    assert "f on gfx1100 wave32 (llvmlite): proved (2 GPU instructions)" in out.splitlines()
    assert out.splitlines()[-1] == "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 2 unsupported, 1 error"
    code, out, _ = cli("tv", str(d), "--coverage", "--json")
    cov = json.loads(out)["coverage"]
    assert code == 2
    assert {k: cov[k] for k in ("files", "not_codegen_files", "instances", "decided", "proved", "refuted", "unknown", "compiler_errors",
                                "errors", "unsupported")} == {
        "files": 4, "not_codegen_files": 1, "instances": 4, "decided": 1, "proved": 1, "refuted": 0, "unknown": 0, "compiler_errors": 0,
        "errors": 1, "unsupported": 2}
    assert cov["unsupported_causes"] == [
        {"cause": "RUN line: -mcpu=stoney (gfx810) is not modelled by verify (`verify targets` lists those that are)",
         "count": 1},
        {"cause": "RUN line: -mcpu=tongapro (gfx805) is not modelled by verify (`verify targets` lists those that are)",
         "count": 1}]
    code, out, _ = cli("tv", str(d), "--coverage")
    assert out.splitlines()[:3] == ["Coverage: 4 files (1 with no llc RUN line for AMDGPU), 4 instances", "  decided               1   25.0%",
                                    "  proved                1   25.0%"]


# ---------------------------------------------------------------------------
# lit


LIT_CFG = "import os\nfrom verify.tv.litformat import configure\nconfigure(config, lit_config, os.path.dirname(__file__))\n"


def lit(*argv: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("lit")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-c", "import lit.main; lit.main.main()", *argv], capture_output=True,
                          text=True, env=env, check=False)


def small_tree(tmp: Path) -> Path:
    d = tmp / "tree"
    d.mkdir()
    (d / "lit.cfg.py").write_text(LIT_CFG)
    for k, (cpu, attr) in enumerate([("gfx1100", ""), ("gfx1100", " -mattr=+wavefrontsize64"), ("gfx942", ""),
                                     ("gfx90a", "")]):
        write(d, f"t{k}.ll", f"; RUN: llc -mtriple=amdgcn -mcpu={cpu}{attr} < %s\n" + ADD)
    shutil.copy(CORPUS / "ballot_popc.ll", d / "ballot_popc.ll")
    write(d, "opt_only.ll", "; RUN: opt -S < %s | FileCheck %s\n" + ADD)
    write(d, "tonga.ll", "; RUN: llc -mtriple=amdgcn -mcpu=tongapro < %s\n" + ADD)
    return d


def cases(xml: Path) -> dict[str, str]:
    out = {}
    for tc in ET.parse(xml).getroot().iter("testcase"):
        kind = "fail" if tc.find("failure") is not None else "skip" if tc.find("skipped") is not None else "pass"
        out[f"{tc.get('classname')}/{tc.get('name')}"] = kind
    return out


@pytest.mark.slow
def test_lit_shards_cover_the_whole_tree(tmp_path):
    d = small_tree(tmp_path)
    whole = lit("--show-tests", str(d))
    assert whole.returncode == 0, whole.stderr
    names = sorted(ln.strip().split(" :: ", 1)[1] for ln in whole.stdout.splitlines() if " :: " in ln)
    assert names == ["ballot_popc.ll", "opt_only.ll", "t0.ll", "t1.ll", "t2.ll", "t3.ll", "tonga.ll"]
    got: dict[str, str] = {}
    for i in (1, 2, 3):
        xml = tmp_path / f"shard{i}.xml"
        # lexical order: lit's default orders by the times of earlier runs, which differ between shards
        r = lit("-sv", "-j", "2", "--order=lexical", "--num-shards", "3", "--run-shard", str(i), "--xunit-xml-output", str(xml), str(d))
        part = cases(xml)
        assert not set(part) & set(got)  # the shards are disjoint
        got.update(part)
        assert r.returncode == (1 if "verify-tv.verify-tv/tonga.ll" in part else 0), r.stdout
    assert sorted(n.split("/", 1)[1] for n in got) == names  # and together the whole
    assert got["verify-tv.verify-tv/opt_only.ll"] == "skip"  # no codegen RUN line: unsupported, shown
    assert got["verify-tv.verify-tv/tonga.ll"] == "fail"  # a RUN line verify cannot use fails closed
    assert [got[f"verify-tv.verify-tv/t{k}.ll"] for k in range(4)] == ["pass"] * 4


@pytest.mark.slow
def test_lit_junit_names_function_target_and_run_line(tmp_path):
    d = small_tree(tmp_path)
    xml = tmp_path / "out.xml"
    r = lit("-s", "-j", "2", "--param", "verify_split=instance", "--param", "accept=run-line",
            "--xunit-xml-output", str(xml), str(d))
    assert r.returncode == 0, r.stdout
    got = cases(xml)
    assert got["verify-tv.t1_ll/f on gfx1100 wave64 [RUN line 1]"] == "pass"
    assert got["verify-tv.ballot_popc_ll/ballot_popc on gfx1100 wave32 [RUN line 3]"] == "pass"
    assert got["verify-tv.tonga_ll/(every function) on RUN line [RUN line 1]"] == "pass"  # accepted
    assert len(got) == 4 + 3 + 1 + 1


# ---------------------------------------------------------------------------
# IR against a library spec


SHFL = CORPUS / "hip_shfl_xor_5_w16.ll"


@pytest.mark.parametrize("mask, verdict, code", [(5, "proved", 0), (6, "refuted", 1)])
@pytest.mark.slow
def test_ir_function_against_a_spec(mask, verdict, code):
    got = cli("tv", str(SHFL), "--function", "hip_shfl_xor_5_w16", "--spec", f"cuda.shfl_xor mask={mask} width=16",
              "--target", "gfx1100", "--wave", "32")
    lines = got[1].splitlines()
    assert got[0] == code
    assert lines[0] == (f"hip_shfl_xor_5_w16 on gfx1100 wave32 (llvmlite, spec cuda.shfl_xor): {verdict} "
                        "(14 GPU instructions)")
    assert lines[2] == "  IR -> GPU code: proved"
    assert lines[3].startswith(f"  GPU code -> v0 == cuda.shfl_xor(v0, mask={mask}, width=16): {verdict} for gfx1100 "
                               "wave32 under exec=any")


def test_spec_needs_one_function_and_well_formed_params():
    assert cli("tv", str(SHFL), "--spec", "cuda.shfl_xor mask=5") == (
        2, "", "error: --spec needs one --function NAME (the IR function the spec describes)\n")
    assert cli("tv", str(SHFL), "--function", "hip_shfl_xor_5_w16", "--spec", "cuda.shfl_xor 5")[2] == \
        "error: --spec 'cuda.shfl_xor 5': '5' is not PARAM=VALUE\n"


def test_an_option_value_llvm_rejects_is_a_compiler_error(tmp_path):
    p = write(tmp_path, "bad.ll", "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -global-isel=maybe < %s\n" + ADD)
    code, out, _ = cli("tv", p)
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == f"f on gfx1100 wave32 (llvmlite -global-isel=maybe) [RUN {p}:1]: compiler error"
    assert lines[1] == ("  could not compile: LLVM (llvmlite) rejects an option for gfx1100 wave32 -global-isel=maybe: "
                        "for the --global-isel option: 'maybe' is invalid value for boolean argument! Try 0 or 1")


@pytest.mark.slow
def test_a_tree_with_jobs_prints_the_same_bytes(tmp_path):
    d = tmp_path / "t"
    d.mkdir()
    write(d, "a.ll", "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -global-isel=1 < %s\n"
                     "; RUN: llc -mtriple=amdgcn -mcpu=tongapro < %s\n" + ADD)
    write(d, "b.ll", "bad\n")
    write(d, "c.ll", "; RUN: opt -S < %s\n" + ADD)
    shutil.copy(CORPUS / "dpp_row_shr1_add.ll", d / "d.ll")
    one = cli("tv", str(d))
    assert one == cli("tv", str(d), "--jobs", "2")
    assert one[0] == 2 and one[1].splitlines()[-1] == \
        "Summary: 10 correct, 0 incorrect, 0 failed-to-prove, 1 unsupported, 1 error"


def test_lit_with_an_unrunnable_llc_stops_before_any_test(tmp_path):
    d = small_tree(tmp_path)
    r = lit("-q", "--param", "llc=/no/such/llc", str(d))
    assert r.returncode == 2
    assert r.stderr.strip().endswith("fatal: error: --llc '/no/such/llc': cannot run '/no/such/llc': no such program")
