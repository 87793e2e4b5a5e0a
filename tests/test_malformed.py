"""One example per class of malformed input the fuzz tier (test_fuzz.py) found:
each is refused with exactly this one line, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli

from verify import catalog

ROOT = Path(__file__).resolve().parent.parent
HEADER = """; @spec     cuda.shfl_xor mask=1 width=16
; @targets  gfx9
; @waves    64
; @input    x = v0
; @output   out = v1
"""
BODY = "v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"


def refused(tmp_path: Path, *argv: str) -> str:
    before = sorted(tmp_path.rglob("*"))
    code, out, err = cli(*argv)
    assert (code, out) == (2, ""), (code, out, err)
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert sorted(tmp_path.rglob("*")) == before
    return err.strip().replace(str(tmp_path), "T")


def lowering(tmp_path: Path, text: str) -> str:
    p = tmp_path / "t.s"
    p.write_text(text)
    return refused(tmp_path, "lowering", str(p))


@pytest.mark.parametrize("old, new, want", [
    ("@waves    64", "@waves    064",
     "T/t.s:3:13: error: integer '064' has a leading zero, which llvm-mc reads as octal (52): "
     "write it in decimal without the zero, or in hex"),
    ("mask=1", "mask=05",
     "T/t.s:1:32: error: integer '05' has a leading zero, which llvm-mc reads as octal (5): "
     "write it in decimal without the zero, or in hex"),
    ("row_mask:0xf", "row_mask:015",
     "T/t.s:6:51: error: integer '015' has a leading zero, which llvm-mc reads as octal (13): "
     "write it in decimal without the zero, or in hex"),
    ("quad_perm:[1,0,3,2]", "quad_perm:[1,0,3,08]",
     "T/t.s:6:39: error: integer '08' has a leading zero, which llvm-mc reads as octal, and refuses: "
     "write it in decimal without the zero, or in hex"),
])
def test_leading_zero(tmp_path: Path, old: str, new: str, want: str) -> None:
    assert lowering(tmp_path, (HEADER + BODY).replace(old, new)) == want


def test_integer_too_long_for_int(tmp_path: Path) -> None:
    text = (HEADER + BODY).replace("mask=1", "mask=" + "9" * 5000)
    assert lowering(tmp_path, text) == "T/t.s:1:32: error: integer '999999999999...' is too long (5000 characters)"
    text = (HEADER + BODY).replace("v1, v0", "v1, v" + "0" * 5000)
    assert lowering(tmp_path, text).startswith("T/t.s:6:19: error: bad operand 'v000")


def test_immediate_bound_as_register(tmp_path: Path) -> None:
    assert lowering(tmp_path, (HEADER + BODY).replace("x = v0", "x = 5")) == \
        "T/t.s:4:17: error: @input binds 'x' to a register, got the constant '5'"
    assert lowering(tmp_path, HEADER + "; @clobbers 7\n" + BODY) == \
        "T/t.s:6:13: error: @clobbers lists registers, got the constant '7'"


def test_header_with_an_empty_waves_or_a_dropped_character(tmp_path: Path) -> None:
    assert lowering(tmp_path, (HEADER + BODY).replace("@waves    64", "@waves")) == \
        "T/t.s:3:9: error: @waves is empty (give 32, 64 or both)"
    assert lowering(tmp_path, (HEADER + BODY).replace("cuda.shfl_xor", "cudashfl_xor")) == \
        "T/t.s:1:13: error: unknown spec 'cudashfl_xor' (did you mean 'cuda.shfl_xor'?)"
    assert lowering(tmp_path, HEADER + "." + BODY) == \
        "T/t.s:6:1: error: '.v_mov_b32_dpp' is an assembler directive, which verify skips: " \
        "write the instruction v_mov_b32_dpp without the '.'"
    assert lowering(tmp_path, HEADER + BODY.rstrip() + ":\n") == "T/t.s:6:65: error: expected bank_mask, got '0xf:'"


def test_show_checks_the_spec_a_lowering_names(tmp_path: Path) -> None:
    p = tmp_path / "t.s"
    p.write_text((HEADER + BODY).replace("cuda.shfl_xor", "cudashfl_xor"))
    assert refused(tmp_path, "show", str(p)) == \
        "T/t.s:1:13: error: unknown spec 'cudashfl_xor' (did you mean 'cuda.shfl_xor'?)"


def _record(tmp_path: Path, edit) -> str:
    (tmp_path / "lowerings").mkdir()
    (tmp_path / "proofs").mkdir()
    (tmp_path / "lowerings" / "xor5.s").write_text((ROOT / "lowerings" / "xor5.s").read_text())
    (tmp_path / "proofs.lock").write_text((ROOT / "proofs.lock").read_text())
    rec = json.loads((ROOT / "proofs" / "xor5.proof").read_text())
    text = edit(rec)
    (tmp_path / "proofs" / "xor5.proof").write_text(text if isinstance(text, str) else json.dumps(rec, indent=2))
    return refused(tmp_path, "check", str(tmp_path / "lowerings" / "xor5.s"))


def test_record_with_a_null_hash(tmp_path: Path) -> None:
    assert _record(tmp_path, lambda r: r["records"][0]["hashes"].update(lowering=None)) == \
        "T/proofs/xor5.proof:1:1: error: not a proof record: the hashes of the record for gfx900, gfx906, gfx908, " \
        "gfx90a, gfx940, gfx941, gfx942, gfx950 wave64 are exactly lowering, solver, spec"


def test_record_with_a_list_for_a_string(tmp_path: Path) -> None:
    assert _record(tmp_path, lambda r: r["records"][0].update(method=["z3"])) == \
        "T/proofs/xor5.proof:1:1: error: not a proof record: the exec, verdict and method of the record for " \
        "gfx900, gfx906, gfx908, gfx90a, gfx940, gfx941, gfx942, gfx950 wave64 must be strings"


def test_record_nested_too_deeply(tmp_path: Path) -> None:
    deep = "[" * 100000 + "]" * 100000
    assert _record(tmp_path, lambda r: json.dumps(r).replace('"ops": [', f'"ops": [{deep}, ')) == \
        "T/proofs/xor5.proof:1:1: error: not a proof record: nested too deeply"


def test_record_wave_is_a_number_not_a_boolean(tmp_path: Path) -> None:
    assert _record(tmp_path, lambda r: r["records"][0].update(wave=True)) == \
        "T/proofs/xor5.proof:1:1: error: not a proof record: each record names its targets " \
        "(a list of distinct names) and its wave (a number)"


def user_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> str:
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "u.spec").write_text("spec u.t():\n    lanes = 32\n" + body)
    monkeypatch.setenv("VERIFY_PATH", str(tmp_path))
    catalog._speclib.cache_clear()
    try:
        return refused(tmp_path, "show", "u.t")
    finally:
        catalog._speclib.cache_clear()


def test_recursive_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert user_spec(tmp_path, monkeypatch, "    out = x[i] + u.t()\n") == \
        "T/specs/u.spec:1:1: error: spec u.t calls itself (u.t -> u.t)"


def test_recursive_local_function(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert user_spec(tmp_path, monkeypatch, "    f(a) = g(a)\n    g(a) = f(a)\n    out = f(x[i])\n") == \
        "T/specs/u.spec:1:1: error: spec u.t: local function f calls itself (f -> g -> f)"


def test_spec_mixing_booleans_and_integers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert user_spec(tmp_path, monkeypatch, "    out = x[i] + (x[i] < 3)\n") == \
        "T/specs/u.spec:3:19: error: spec u.t: an operand of arithmetic must be an integer, got a condition ('x[i] < 3')"


def test_spec_nested_too_deeply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert user_spec(tmp_path, monkeypatch, "    out = " + "-" * 3000 + "x[i]\n") == \
        "T/specs/u.spec:3:11: error: spec expression nested more than 100 deep"


KERNEL = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\nf:\n'
          '\tv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n\ts_setpc_b64 s[30:31]\n')


@pytest.mark.parametrize("expr, want", [
    ("v1 == cuda.shfl_xor(v0, mask=" + "-" * 2000 + "1)", "error: cannot parse assertion: nested more than 100 deep"),
    ("v1 == cuda.shfl_xor(v0, mask=" + "~" * 100000 + "1)", "error: cannot parse assertion: nested more than 100 deep"),
    ("v1 == cuda.shfl_xor(v0, mask=True)", "error: parameter mask must be a constant or a register, got 'True'"),
    ("v1 == cuda.shfl_xor(v0, mask=-1.5)", "error: parameter mask must be a constant or a register, got '-1.5'"),
    ("v1 == cuda.shfl_xor(v0, mask=1, mask=2)", "error: parameter mask given twice"),
    ("v1 == cuda.shfl_xor(v0, mask=4294967301)", "error: parameter mask=4294967301 does not fit in 32 bits"),
])
def test_assert_expression(tmp_path: Path, expr: str, want: str) -> None:
    k = tmp_path / "k.s"
    k.write_text(KERNEL)
    assert refused(tmp_path, "asm", str(k), "--assert", expr).split(": ", 1)[1] == want


def test_output_into_a_missing_directory_or_onto_a_directory(tmp_path: Path) -> None:
    emit = ("emit", "xor5", "--target", "gfx900", "--wave", "64", "-o")
    assert refused(tmp_path, *emit, str(tmp_path / "no" / "x.ll")) == "error: cannot write T/no/x.ll: no directory T/no"
    assert refused(tmp_path, *emit, str(tmp_path)) == "error: cannot write T: it is a directory"
    synth = ("synth", "cuda.shfl_xor", "mask=1", "--target", "gfx900", "--wave", "64", "-o")
    assert refused(tmp_path, *synth, str(tmp_path)) == "error: cannot write T: it is a directory"
    assert refused(tmp_path, "check", "xor5", "--junit", str(tmp_path / "no" / "j.xml")) == \
        "error: cannot write T/no/j.xml: no directory T/no"


def test_exec_mask_is_plain_hex(tmp_path: Path) -> None:
    assert refused(tmp_path, "show", "xor5", "--exec", "1_0") == "error: --exec expects a hex mask, got '1_0'"


def test_integer_arguments_have_no_leading_zero(tmp_path: Path) -> None:
    assert refused(tmp_path, "lowering", "xor5", "--wave", "064") == \
        "error: verify lowering: argument --wave: expected a decimal integer without leading zeros, got '064'"


def test_an_empty_shard_is_not_no_shard(tmp_path: Path) -> None:
    assert refused(tmp_path, "check", "--shard", "") == "error: --shard expects I/N (e.g. 1/4), got ''"


def test_emit_checks_the_spec_a_lowering_names(tmp_path: Path) -> None:
    p = tmp_path / "t.s"
    p.write_text((HEADER + BODY).replace("cuda.shfl_xor", "cudashfl_xor"))
    assert refused(tmp_path, "emit", str(p), "--target", "gfx900", "--wave", "64") == \
        "T/t.s:1:13: error: unknown spec 'cudashfl_xor' (did you mean 'cuda.shfl_xor'?)"


def test_exec_binary_mask(tmp_path: Path) -> None:
    assert refused(tmp_path, "show", "xor5", "--exec", "0b2") == "error: --exec expects a hex mask, got '0b2'"
