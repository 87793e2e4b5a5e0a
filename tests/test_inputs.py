"""Inputs that used to be cut, crash, hang or pass silently (issue #30, Trust 3):
each is refused with one error line and exit 2, or gets its right answer."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from helpers import cli

from verify import catalog
from verify.diag import InputError
from verify.encode import simulate_spec

ROOT = Path(__file__).resolve().parent.parent
TV = str(ROOT / "tests" / "tv" / "dpp8_reverse.ll")
U64 = str(ROOT / "lowerings" / "wide64" / "pair_add_u64_gfx9.s")


def error(*argv: str) -> str:
    code, out, err = cli(*argv)
    assert (code, out) == (2, ""), (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# ---------------------------------------------------------------------------
# no silent truncation: --input at the lane width


def test_i64_spec_takes_a_negative_input_as_64_bits():
    code, out, _ = cli("show", "cuda.shfl_idx_i64", "lane=1", "--wave", "32", "--input", "x=-5")
    assert code == 0
    assert out.splitlines()[2] == "  0   18446744073709551611  18446744073709551611"


def test_i64_spec_takes_a_64_bit_input():
    code, out, _ = cli("show", "cuda.shfl_idx_i64", "lane=1", "--wave", "32",
                       "--input", "x=" + ",".join(["0x123456789abcdef0", "0xfedcba9876543210"] * 16))
    assert code == 0
    assert out.splitlines()[2] == "  0    1311768467463790320  18364758544493064720"


def test_i64_spec_refuses_65_bits():
    assert error("show", "cuda.shfl_idx_i64", "lane=1", "--wave", "32", "--input", "x=0x10000000000000000") == \
        "error: --input x: 18446744073709551616 does not fit in a 64-bit lane"
    assert error("show", "cuda.shfl_idx_i64", "lane=1", "--wave", "32", "--input", "x=-9223372036854775809") == \
        "error: --input x: -9223372036854775809 does not fit in a 64-bit lane"


def test_u32_spec_refuses_a_64_bit_input():
    assert error("show", "cuda.shfl_idx", "lane=1", "--wave", "32", "--input", "x=0x100000000") == \
        "error: --input x: 4294967296 does not fit in a 32-bit lane"
    code, out, _ = cli("show", "cuda.shfl_idx", "lane=1", "--wave", "32", "--input", "x=-5")
    assert code == 0 and out.splitlines()[2] == "  0   4294967291  4294967291"


def test_per_lane_parameter_of_an_i64_spec_stays_32_bits():
    assert error("show", "cuda.shfl_idx_i64", "lane=@src", "--wave", "32", "--input", "src=0x100000000") == \
        "error: --input src: 4294967296 does not fit in a 32-bit lane"


def test_simulate_spec_refuses_a_value_wider_than_the_lane():
    with pytest.raises(InputError) as e:
        simulate_spec("cuda.shfl_xor", {"mask": 1}, 32, (1 << 32) - 1, {"x": [1 << 32] * 32})
    assert str(e.value) == "error: input x of cuda.shfl_xor: 4294967296 is not a 32-bit lane value (0 to 4294967295)"
    with pytest.raises(InputError) as e:
        simulate_spec("cuda.shfl_xor", {"mask": 1}, 32, (1 << 32) - 1, {"x": [-5] * 32})
    assert str(e.value) == "error: input x of cuda.shfl_xor: -5 is not a 32-bit lane value (0 to 4294967295)"
    _, outs = simulate_spec("cuda.shfl_xor_i64", {"mask": 1}, 32, (1 << 32) - 1, {"x": [(1 << 64) - 5] * 32})
    assert outs["out"][0] == (1 << 64) - 5


def test_lowering_pair_input_takes_64_bits():
    code, out, _ = cli("show", U64, "--input", "x=-1")
    assert code == 0
    assert out.splitlines()[2] == "  0   18446744073709551615  18446744073709551614"
    assert error("show", U64, "--input", "x=0x10000000000000000") == \
        "error: --input x: 18446744073709551616 does not fit in a 64-bit lane"
    assert error("show", str(ROOT / "lowerings" / "xor5.s"), "--input", "x=0x100000000") == \
        "error: --input x: 4294967296 does not fit in a 32-bit lane"


def test_input_and_parameter_given_twice():
    assert error("show", "cuda.shfl_xor", "mask=1", "mask=2") == "error: parameter 'mask' is given twice"
    assert error("show", "cuda.shfl_xor", "mask=1", "--wave", "32", "--input", "x=1", "--input", "x=2") == \
        "error: --input x is given twice"


# ---------------------------------------------------------------------------
# user specs: evaluation errors, not tracebacks or hangs


@pytest.mark.parametrize("body, want", [
    ('require "a" < mask, "m"\n    out = x[i]', "S:3:13: error: spec u.t: strings compare only with == and != ('a' < mask)"),
    ("type u64\n    out = x[x[i]]", "error: a 64-bit spec uses a 64-bit value as a lane index"),
    ("output out, out\n    out = 1", "S:3:5: error: 'out' is listed twice in output"),
    ("input x, x\n    out = x[i]", "S:3:5: error: 'x' is listed twice in input"),
    ('out = cuda.shfl_xor(mask="a")', "error: spec warp.bfly: an operand of arithmetic must be an integer, got the text 'a'"),
    ('out = fold("add", (x[j] for j in range(99999999)))',
     "error: spec u.t: range(0, 99999999) has 99999999 values; a fold ranges over at most 128"),
    ("lanes = 16\n    out = x[i]", "S:3:5: error: spec u.t says 'lanes = ...' twice"),
    ("f(a, a) = a\n    out = f(1, 2)", "S:3:5: error: local function f names a parameter twice"),
])
def test_user_spec_errors(tmp_path, body, want):
    (tmp_path / "specs").mkdir()
    p = tmp_path / "specs" / "u.spec"
    p.write_text("spec u.t(p=1, mask=3):\n    lanes = 32\n    " + body + "\n")
    old = os.environ.get("VERIFY_PATH")
    os.environ["VERIFY_PATH"] = str(tmp_path)
    catalog._speclib.cache_clear()
    try:
        t0 = time.monotonic()
        assert error("show", "u.t", "--wave", "32").replace(str(p), "S") == want
        assert time.monotonic() - t0 < 30
    finally:
        if old is None:
            os.environ.pop("VERIFY_PATH", None)
        else:
            os.environ["VERIFY_PATH"] = old
        catalog._speclib.cache_clear()


def test_text_parameter_in_a_requirement(tmp_path):
    (tmp_path / "specs").mkdir()
    p = tmp_path / "specs" / "u.spec"
    p.write_text('spec u.t(mask=3):\n    lanes = 32\n    require mask < 3, "small"\n    out = x[i]\n')
    old = os.environ.get("VERIFY_PATH")
    os.environ["VERIFY_PATH"] = str(tmp_path)
    catalog._speclib.cache_clear()
    try:
        assert error("show", "u.t", "mask=abc", "--wave", "32").replace(str(p), "S") == \
            "S:3:5: error: 'mask < 3' computes with a string ('abc') where it needs an integer"
    finally:
        if old is None:
            os.environ.pop("VERIFY_PATH", None)
        else:
            os.environ["VERIFY_PATH"] = old
        catalog._speclib.cache_clear()


def test_synth_reduction_refuses_an_unknown_parameter():
    assert error("synth", "red.reduce", "op=add", "log2_size=-1", "--target", "gfx1100", "--wave", "32") == \
        "error: spec red.reduce has no parameter 'log2_size' (parameters: op, width, over)"


@pytest.mark.slow
def test_synth_of_a_value_dependent_spec_is_an_error():
    assert error("synth", "quadrants.reduce_all_min", "log2_size=-1", "--target", "gfx1100", "--wave", "32") == \
        ("error: synthesis of quadrants.reduce_all_min does not converge: a counterexample repeats, as when what it "
         "computes depends on the lane values (synthesis handles shuffles and broadcasts, whose lanes depend on "
         "positions only)")


# ---------------------------------------------------------------------------
# lowering files


def _lowering(tmp_path: Path, old: str, new: str) -> str:
    text = (ROOT / "lowerings" / "xor5.s").read_text()
    assert old in text
    p = tmp_path / "t.s"
    p.write_text(text.replace(old, new, 1))
    return str(p)


@pytest.mark.parametrize("ops, col, msg", [
    ("v2,, v0", 18, "expected an operand before ','"),
    (", v2, v0", 15, "expected an operand before ','"),
])
def test_empty_operand_between_commas(tmp_path, ops, col, msg):
    p = _lowering(tmp_path, "v_mov_b32_dpp v2, v0", "v_mov_b32_dpp " + ops)
    assert error("show", p) == f"{p}:23:{col}: error: {msg}"


def test_trailing_comma(tmp_path):
    p = _lowering(tmp_path, "s_mov_b64 exec, s[0:1]", "s_mov_b64 exec, s[0:1],")
    assert error("show", p) == f"{p}:26:23: error: expected an operand after ','"


def test_megabyte_hex_literal_is_refused_at_once(tmp_path):
    p = _lowering(tmp_path, "; @spec", "; @input k = 0x" + "f" * 1_000_000 + "\n; @spec")
    t0 = time.monotonic()
    assert error("show", p) == f"{p}:15:14: error: integer '0xffffffffff...' is too long (1000002 characters)"
    assert time.monotonic() - t0 < 10


# ---------------------------------------------------------------------------
# verify tv --llc: a command that cannot run, hangs, floods or prints bytes


@pytest.mark.parametrize("llc, want", [
    ("llc-22 'x", "error: --llc 'llc-22 'x': No closing quotation"),
    ("", "error: --llc '': no command"),
    ("/nonexistent/llc", "error: --llc '/nonexistent/llc': cannot run '/nonexistent/llc': no such program"),
    ("printf '\\377\\376'", f"error: 'printf '\\377\\376'' printed bytes that are not UTF-8 (at byte 0) on {TV} for gfx1100 wave32"),
    # checked before anything is compiled (`CMD --version` must finish), then bounded while compiling
    ("sh -c 'sleep 30'", "error: --llc 'sh -c 'sleep 30'': 'sh -c 'sleep 30' --version' did not finish within 1 s "
                         "(VERIFY_LLC_TIMEOUT sets the limit)"),
    ("sh -c 'test \"$0\" = --version || sleep 30'",
     f"error: 'sh -c 'test \"$0\" = --version || sleep 30'' did not finish within 1 s on {TV} for gfx1100 wave32 "
     "(VERIFY_LLC_TIMEOUT sets the limit); stopped it"),
    ("sh -c 'test \"$0\" = --version || yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'",
     "error: 'sh -c 'test \"$0\" = --version || yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'' "
     f"printed more than 16 MiB on {TV} for gfx1100 wave32; stopped it"),
])
@pytest.mark.slow
def test_unusable_llc_is_an_error(monkeypatch, llc, want):
    monkeypatch.setenv("VERIFY_LLC_TIMEOUT", "1")
    t0 = time.monotonic()
    assert error("tv", TV, "--target", "gfx1100", "--wave", "32", "--llc", llc) == want
    assert time.monotonic() - t0 < 20


def test_llc_timeout_setting_is_checked(monkeypatch):
    monkeypatch.setenv("VERIFY_LLC_TIMEOUT", "-1")
    assert error("tv", TV, "--target", "gfx1100", "--wave", "32", "--llc", "llc-22") == \
        "error: VERIFY_LLC_TIMEOUT must be a positive number of seconds, got '-1'"


def test_failing_llc_is_a_compiler_error_not_proved():
    # an llc that runs and fails on the module: the "compiler error" verdict, failing like a refutation
    code, out, _ = cli("tv", TV, "--target", "gfx1100", "--wave", "32", "--llc", "false")
    assert code == 1
    assert out.splitlines()[-1] == "Summary: 0 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported, 1 compiler error"


def test_tv_module_without_functions(tmp_path):
    p = tmp_path / "d.ll"
    p.write_text('target triple = "amdgcn-amd-amdhsa"\ndeclare i32 @f(i32)\n')
    assert error("tv", str(p), "--target", "gfx1100") == f"error: {p}: the module defines no function to check"
