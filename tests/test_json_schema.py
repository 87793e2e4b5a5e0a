"""One JSON shape for every command (issue #34, item 8): each command's
--json output validated against the schema docs/json.md holds
(tests/json_schema.py: the checker, no new dependency)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli
from json_schema import errors, schema

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = schema()
ASM = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\nf:\n\tv_mbcnt_lo_u32_b32 v2, -1, 0\n'
       "\tv_xor_b32_e32 v2, {c}, v2\n\tv_lshlrev_b32_e32 v2, 2, v2\n\tds_bpermute_b32 v1, v2, v0\n"
       "\ts_waitcnt lgkmcnt(0)\n\ts_setpc_b64 s[30:31]\n")


def valid(*argv: str) -> tuple[int, dict]:
    code, out, err = cli(*argv, "--json")
    js = json.loads(out)
    assert errors(js, SCHEMA, SCHEMA) == [], (argv, errors(js, SCHEMA, SCHEMA), err)
    return code, js


def test_the_checker_rejects_what_the_schema_does_not_allow():
    good = {"command": "tv", "verdict": "proved", "summary": "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, "
            "0 unsupported", "counts": {"correct": 1, "incorrect": 0, "failed-to-prove": 0, "unsupported": 0},
            "results": [{"verdict": "proved", "scope": "gfx1100 wave32", "counterexample": None}]}
    assert errors(good, SCHEMA, SCHEMA) == []
    bad = json.loads(json.dumps(good))
    bad["results"][0]["counterexample"] = {"exec": "0x1", "active_lanes": [0], "inputs": {}, "lanes": [{"lane": 64}],
                                           "cause": "", "pattern": []}
    del bad["summary"]
    bad["counts"]["correct"] = -1
    found = errors(bad, SCHEMA, SCHEMA)
    assert "$: missing 'summary'" in found and "$.counts.correct: -1 < 0" in found
    assert any(e.startswith("$.results[0].counterexample: matches none of anyOf") for e in found)


def test_lowering_refuted_and_its_counterexample():
    code, js = valid("lowering", "tests/golden/xor5_plain.s")
    assert code == 1 and js["command"] == "lowering" and js["verdict"] == "refuted"
    assert js["summary"] == "Summary: 0 correct, 8 incorrect, 0 failed-to-prove, 0 unsupported"
    c = next(r["counterexample"] for r in js["results"] if r["counterexample"])
    assert c["cause"] == c["lanes"][0]["responsible"] and all(r["differs"] for r in c["lanes"])


def test_asm_one_function_and_several(tmp_path):
    p = tmp_path / "a.s"
    p.write_text(ASM.format(c=6))
    code, js = valid("asm", str(p), "--exec", "0xffffffff", "--assert", "v1 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 1 and js["verdict"] == "refuted" and js["results"] == js["assertions"]
    assert js["results"][0]["counterexample"]["pattern"][0].startswith("lane i reads x from lane i^6")
    two = tmp_path / "two.s"
    two.write_text(ASM.format(c=1) + ".Lfunc_end0:\ng:\n" + ASM.format(c=6).split("f:\n", 1)[1])
    code, js = valid("asm", str(two), "--exec", "0xffffffff", "--assert", "v1 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 1 and [(r["function"], r["verdict"]) for r in js["results"]] == [("f", "proved"), ("g", "refuted")]


def test_tv_results_and_coverage():
    code, js = valid("tv", "tests/tv/hip_shfl_xor_5_w16.ll", "--target", "gfx1100", "--wave", "32")
    assert code == 0 and js["command"] == "tv" and js["verdict"] == "proved" and len(js["results"]) == 1
    code, js = valid("tv", "tests/tv/hip_shfl_xor_5_w16.ll", "--target", "gfx1100", "--wave", "32", "--coverage")
    assert code == 0 and js["results"] == [] and js["coverage"]["proved"] == 1


def test_tv_refuted(tmp_path):
    if shutil.which("llc-22") is None:
        pytest.skip("llc-22 not installed")
    ll = ROOT / "tests/tv/hip_shfl_xor_1_w64.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace("\tv_xor_b32_e32 v2, 1, v1\n", "\tv_xor_b32_e32 v2, 2, v1\n"))
    code, js = valid("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad))
    assert code == 1 and js["verdict"] == "refuted" and js["results"][0]["counterexample"]["cause"]


def test_check(tmp_path, monkeypatch):
    (tmp_path / "lowerings").mkdir()
    shutil.copy(ROOT / "lowerings/xor5.s", tmp_path / "lowerings/xor5.s")
    monkeypatch.chdir(tmp_path)
    code, js = valid("check")
    assert code == 1 and js["command"] == "check" and js["verdict"] == "error"  # no record yet: missing
    assert js["kinds"] == {"missing": 8} and {r["verdict"] for r in js["results"]} == {"missing"}
    assert cli("prove")[0] == 0
    code, js = valid("check")
    assert code == 0 and js["verdict"] == "proved" and js["counts"]["correct"] == 8
    assert js["summary"] == "Summary: 8 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported"


@pytest.mark.slow  # a whole synthesis
def test_synth():
    code, js = valid("synth", "cuda.shfl_xor", "mask=1", "width=32", "--target", "gfx1100", "--wave", "32")
    assert code == 0 and js["command"] == "synth" and js["verdict"] == "proved"
    assert js["summary"] == "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported"
