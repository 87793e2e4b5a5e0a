"""Bad input: one line `path:line:col: error: ...`, exit 2, nothing on stdout."""


import pytest
from helpers import cli

HEADER = """; @spec     cuda.shfl_xor mask=1 width=16
; @targets  gfx9
; @waves    64
; @input    x = v0
; @output   out = v1
"""


def run_file(tmp_path, body, header=HEADER, *extra):
    p = tmp_path / "t.s"
    p.write_text(header + body)
    code, out, err = cli("lowering", str(p), *extra)
    return code, out, err, str(p)


def one_error(tmp_path, body, header=HEADER, *extra):
    code, out, err, path = run_file(tmp_path, body, header, *extra)
    assert code == 2, (out, err)
    assert out == ""
    lines = [l for l in err.splitlines() if ": warning:" not in l]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0].replace(path, "F")


def test_unknown_mnemonic(tmp_path):
    assert one_error(tmp_path, "v_mov_b32_dppx v1, v0 quad_perm:[1,0,3,2]\n") == \
        "F:6:1: error: unknown mnemonic 'v_mov_b32_dppx' (did you mean 'v_mov_b32_dpp'?)"


def test_bad_operand_kind(tmp_path):
    assert one_error(tmp_path, "v_mov_b32_dpp v1, s0 quad_perm:[1,0,3,2]\n") == \
        "F:6:19: error: src0 of v_mov_b32_dpp must be a VGPR: DPP reads it from other lanes"


def test_control_value_out_of_range(tmp_path):
    assert one_error(tmp_path, "v_mov_b32_dpp v1, v0 row_shl:16\n") == \
        "F:6:30: error: row_shl must be in [1, 15], got 16"


def test_quad_perm_select_out_of_range(tmp_path):
    assert one_error(tmp_path, "v_mov_b32_dpp v1, v0 quad_perm:[1,0,4,2]\n") == \
        "F:6:37: error: quad_perm lane select must be in [0, 3], got 4"


def test_control_illegal_on_target(tmp_path):
    err = one_error(tmp_path, "v_mov_b32_dpp v1, v0 row_bcast:15 row_mask:0xa\n", HEADER, "--target", "gfx1100", "--wave", "64")
    assert err == "F:6:22: error: row_bcast:15 is not available on gfx1100: GFX8/9 family only"


def test_row_xmask_illegal_on_gfx9(tmp_path):
    assert one_error(tmp_path, "v_mov_b32_dpp v1, v0 row_xmask:1\n") == \
        "F:6:22: error: row_xmask:1 is not available on gfx900: GFX10+ only"


def test_instruction_illegal_on_target(tmp_path):
    assert one_error(tmp_path, "v_permlane64_b32 v1, v0\n") == \
        "F:6:1: error: v_permlane64_b32 is not available on gfx900: GFX11+ only"


def test_wrong_operand_count(tmp_path):
    assert one_error(tmp_path, "v_mov_b32_e32 v1, v0, v2\n") == \
        "F:6:23: error: v_mov_b32_e32 takes 2 operands (vdst, src0), got 3"


def test_unknown_modifier(tmp_path):
    err = one_error(tmp_path, "ds_swizzle_b32 v1, v0 offst:4\n")
    assert err == "F:6:23: error: unknown modifier 'offst' for ds_swizzle_b32 (accepted: offset)"


def test_bad_swizzle_macro(tmp_path):
    assert one_error(tmp_path, "ds_swizzle_b32 v1, v0 offset:swizzle(SWAP,3)\n") == \
        "F:6:43: error: swizzle(SWAP,3): group size must be a power of two"


def test_register_out_of_range(tmp_path):
    assert one_error(tmp_path, "v_mov_b32_e32 v1, v300\n") == \
        "F:6:19: error: VGPR index out of range: 'v300' (v0-v255)"


def test_missing_header(tmp_path):
    assert one_error(tmp_path, "v_mov_b32_e32 v1, v0\n", "; @targets gfx9\n; @waves 64\n; @output out = v1\n") == \
        "F:1:1: error: lowering header lacks @spec"


def test_unknown_header_key(tmp_path):
    assert one_error(tmp_path, "v_mov_b32_e32 v1, v0\n", HEADER + "; @exce any\n") == \
        "F:6:3: error: unknown header key '@exce' (known: @spec, @targets, @waves, @exec, @input, @output, @clobbers, @expect)"


def test_unknown_spec(tmp_path):
    hdr = HEADER.replace("cuda.shfl_xor", "cuda.shfl_xorr")
    assert one_error(tmp_path, "v_mov_b32_e32 v1, v0\n", hdr) == \
        "F:1:13: error: unknown spec 'cuda.shfl_xorr' (did you mean 'cuda.shfl_xor'?)"


def test_unknown_spec_parameter(tmp_path):
    hdr = HEADER.replace("mask=1", "maks=1")
    assert one_error(tmp_path, "v_mov_b32_e32 v1, v0\n", hdr) == \
        "F:1:27: error: spec cuda.shfl_xor has no parameter 'maks' (parameters: mask, width)"


def test_parameter_rejected_by_spec(tmp_path):
    hdr = HEADER.replace("width=16", "width=12")
    assert one_error(tmp_path, "v_mov_b32_e32 v1, v0\n", hdr) == \
        "F:1:13: error: cuda.shfl_xor: width must be a power of two from 1 to 32 (width=12)"


def test_unknown_target(tmp_path):
    hdr = HEADER.replace("gfx9\n", "gfx9000\n")
    assert one_error(tmp_path, "v_mov_b32_e32 v1, v0\n", hdr) == \
        "F:2:13: error: unknown target 'gfx9000' (see `verify targets` for names and families)"


def test_bad_wave(tmp_path):
    hdr = HEADER.replace("@waves    64", "@waves    48")
    assert one_error(tmp_path, "v_mov_b32_e32 v1, v0\n", hdr) == "F:3:13: error: wave size must be 32 or 64, got 48"


def test_wave32_on_a_wave64_only_target(tmp_path):
    hdr = HEADER.replace("@waves    64", "@waves    32")
    assert one_error(tmp_path, "v_mov_b32_e32 v1, v0\n", hdr) == "F:3:13: error: gfx900 runs wave64 only, not wave32"


def test_undeclared_clobber(tmp_path):
    assert one_error(tmp_path, "v_mov_b32_e32 v2, v0\nv_mov_b32_e32 v1, v2\n") == \
        "F:6:1: error: v_mov_b32_e32 writes v2, which is neither an @output nor listed in @clobbers"


def test_lane_mask_size_must_match_wave(tmp_path):
    hdr = HEADER.replace("gfx9\n", "gfx1100\n").replace("@waves    64", "@waves    32") + "; @clobbers vcc_lo\n"
    assert one_error(tmp_path, "v_cmp_gt_u32_e64 s[0:1], 16, v0\nv_mov_b32_e32 v1, v0\n", hdr) == \
        "F:7:18: error: a lane mask in wave32 is one SGPR (e.g. vcc_lo, s0), got 's[0:1]'"


def test_unknown_lowering_name():
    code, out, err = cli("lowering", "xor55")
    assert code == 2 and out == ""
    assert err.strip() == "error: no lowering named 'xor55' in the catalogue (did you mean 'xor5'?)"


def test_wave_not_declared():
    code, out, err = cli("lowering", "xor5", "--wave", "32")
    assert code == 2 and out == ""
    assert err.strip().endswith("error: xor5 declares wave64; --wave 32 is not one of them")


def test_bad_cli_usage():
    code, out, err = cli("lowering", "xor5", "--wave", "48")
    assert code == 2 and "invalid choice" in err and "Traceback" not in err


def test_vacuous_spec_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "t.spec").write_text(
        "spec t.never():\n    lanes = 32\n    out = x[40]\n")
    monkeypatch.setenv("VERIFY_PATH", str(tmp_path))
    from verify import catalog

    catalog._speclib.cache_clear()
    hdr = HEADER.replace("cuda.shfl_xor mask=1 width=16", "t.never")
    err = one_error(tmp_path, "v_mov_b32_e32 v1, v0\n", hdr)
    assert err == "F:1:13: error: vacuous for gfx900 wave64: the spec is undefined in every active lane: a proof would be vacuous"
    catalog._speclib.cache_clear()


def test_bound_ctrl_0_spelling_warns(tmp_path):
    code, out, err, path = run_file(tmp_path, "v_mov_b32_e32 v1, v0\ns_nop 1\nv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] bound_ctrl:0\n")
    assert code == 0
    assert err.strip().replace(path, "F") == (
        "F:8:42: warning: 'bound_ctrl:0' sets the zero-fill bit on GFX8-GFX10 but clears it on GFX11+: "
        "write 'bound_ctrl:1' or omit it")


def test_text_where_a_number_is_needed(tmp_path):
    header = HEADER.replace("mask=1 width=16", "mask=abc width=16")
    assert one_error(tmp_path, "v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n", header) == \
        "F:1:27: error: spec cuda.shfl_xor: parameter mask=abc must be an integer (or @input for a per-lane value)"
    code, out, err = cli("show", "cuda.shfl_xor", "mask=abc")
    assert (code, out) == (2, "") and err == \
        "error: spec cuda.shfl_xor: parameter mask=abc must be an integer (or @input for a per-lane value)\n"


def test_unknown_operator_points_at_the_parameter(tmp_path):
    header = HEADER.replace("cuda.shfl_xor mask=1 width=16", "red.reduce_all op=foo")
    assert one_error(tmp_path, "v_mov_b32 v1, v0\n", header).startswith(
        "F:1:28: error: spec red.reduce_all: unknown operator 'foo' (operators: add, mul,")


def test_bytes_that_are_not_utf8(tmp_path):
    p = tmp_path / "t.s"
    p.write_bytes(HEADER.encode() + b"v_mov_b32 v1, v0 ; caf\xe9\n")
    code, out, err = cli("lowering", str(p))
    assert (code, out) == (2, "") and err == f"{p}:6:23: error: not UTF-8 text (byte 0xe9)\n"


def test_a_target_without_the_feature_says_so_before_the_wave():
    """xor1_dpp8 declares gfx10+ in wave32 and wave64; --target gfx900 (wave64
    only) must name the missing feature, not the wave."""
    code, out, err = cli("lowering", "xor1_dpp8", "--target", "gfx900")
    assert code == 2 and err.endswith("xor1_dpp8.s:11:22: error: dpp8 is not available on gfx900: GFX10+ only\n")


@pytest.mark.parametrize("macro", ["swizzle(FFT,1)", "swizzle(ROTATE,1,3)"])
def test_gfx8_has_no_fft_or_rotate_swizzle_macro(tmp_path, macro):
    """llvm-mc-22 -mcpu=gfx803 rejects these spellings ("FFT mode swizzle not
    supported on this GPU"); the raw offset assembles and only warns."""
    header = HEADER.replace("gfx9", "gfx8")
    mode = macro[8:].split(",")[0]
    assert one_error(tmp_path, f"ds_swizzle_b32 v1, v0 offset:{macro}\ns_waitcnt lgkmcnt(0)\n", header) == \
        f"F:6:{38 + len(mode)}: error: swizzle({mode},...) is not available on gfx803: GFX9+ only"
    code, out, err, path = run_file(tmp_path, "ds_swizzle_b32 v1, v0 offset:0xe001\ns_waitcnt lgkmcnt(0)\n", header)
    assert code in (0, 1) and "selects FFT mode on GFX9+, but gfx803 has no FFT mode" in err


def test_header_names_twice(tmp_path):
    body = "v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
    assert one_error(tmp_path, body, HEADER.replace("@targets  gfx9", "@targets  gfx900, gfx900")) == \
        "F:2:21: error: @targets names gfx900 twice"
    assert one_error(tmp_path, body, HEADER.replace("@waves    64", "@waves    64 64")) == \
        "F:3:16: error: @waves names 64 twice"
    assert one_error(tmp_path, body, HEADER + "; @input    x = v2\n") == \
        "F:6:13: error: 'x' is bound twice (@input/@output)"


@pytest.mark.parametrize("value", ["-1", "0", "nan", "soon"])
def test_timeout_must_be_positive(value):
    code, out, err = cli("lowering", "xor5", "--timeout", value)
    assert (code, out) == (2, "") and err.startswith("error: verify lowering: argument --timeout: ") and \
        err.count("\n") == 1
