"""Parser and canonical printer: round trips and the printed forms."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_semantics_agree import instr_text

from verify.diag import InputError, Span
from verify.lowering_file import load_lowering, parse_instr, print_instr
from verify.ops import OPS
from verify.target import get


@settings(max_examples=150)
@given(st.sampled_from(sorted(OPS)).flatmap(instr_text))
def test_parse_print_round_trip(text):
    ins = parse_instr(text, Span("t", 1))
    again = parse_instr(print_instr(ins), Span("t", 1))
    assert again == ins
    assert print_instr(again) == print_instr(ins)


@pytest.mark.parametrize("text, canon", [
    ("v_mov_b32_dpp v1, v0 row_shr:1", "v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf"),
    ("V_MOV_B32_DPP v1, v0 row_mirror bank_mask:0x3", "v_mov_b32_dpp v1, v0 row_mirror row_mask:0xf bank_mask:0x3"),
    ("ds_swizzle_b32 v1, v0 offset:0x141f", 'ds_swizzle_b32 v1, v0 offset:swizzle(BITMASK_PERM,"ppipi")'),
    ("ds_swizzle_b32 v1, v0 offset:swizzle(QUAD_PERM,0,1,2,3)", "ds_swizzle_b32 v1, v0 offset:swizzle(QUAD_PERM,0,1,2,3)"),
    ("ds_swizzle_b32 v1, v0 offset:0xffff", "ds_swizzle_b32 v1, v0 offset:0xffff"),
    ("ds_bpermute_b32 v1, v2, v0 offset:0x10", "ds_bpermute_b32 v1, v2, v0 offset:16"),
    ("s_mov_b64 exec, s[0:1]", "s_mov_b64 exec, s[0:1]"),
    ("v_mov_b32_dpp v1, v0 dpp8:[7,6,5,4,3,2,1,0] fi:1", "v_mov_b32_dpp v1, v0 dpp8:[7,6,5,4,3,2,1,0] fi:1"),
    ("v_readlane_b32 s0, v1, 63 ; comment", "v_readlane_b32 s0, v1, 63"),
])
def test_canonical_form(text, canon):
    assert print_instr(parse_instr(text, Span("t", 1))) == canon


def test_bound_ctrl_prints_per_target():
    ins = parse_instr("v_mov_b32_dpp v1, v0 row_shr:1 bound_ctrl:0", Span("t", 1))
    assert print_instr(ins).endswith("bound_ctrl:0")
    assert print_instr(ins, get("gfx900")).endswith("bank_mask:0xf bound_ctrl:1")  # the bit is set
    assert print_instr(ins, get("gfx1100")).endswith("bank_mask:0xf")  # the bit is clear


def test_swizzle_macros_print_like_llvm():
    # the spellings llvm-mc 22 prints for these patterns
    cases = {0x401F: "swizzle(SWAP,16)", 0x1C1F: "swizzle(REVERSE,8)", 0x0078: "swizzle(BROADCAST,8,3)",
             0x80B1: "swizzle(QUAD_PERM,1,0,3,2)", 0xE005: "swizzle(FFT,5)", 0xC460: "swizzle(ROTATE,1,3)"}
    for o, want in cases.items():
        ins = parse_instr(f"ds_swizzle_b32 v1, v0 offset:{o:#x}", Span("t", 1))
        assert print_instr(ins) == f"ds_swizzle_b32 v1, v0 offset:{want}"


@pytest.mark.slow
def test_every_catalogue_file_round_trips():
    from verify import catalog

    for p in catalog.lowering_files():
        low = load_lowering(p)
        for ins in low.program:
            assert parse_instr(print_instr(ins), Span("t", 1)) == ins, (p, ins.text)


# `verify asm`'s engine, without argparse: asmcheck.check_file

KERNEL = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\nf:\n'
          '\tv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n'
          '\tv_mov_b32 v2, v1\n\ts_setpc_b64 s[30:31]\n')


def test_check_file_detects_target_and_wave_and_gives_verdicts(tmp_path):
    from verify.asmcheck import check_file, detect_target, detect_wave

    path = tmp_path / "k.s"
    path.write_text(KERNEL)
    assert detect_target(KERNEL) == "gfx1100"
    assert detect_wave(KERNEL, get("gfx1100")) == 32  # no descriptor: the target's default, never s[30:31]
    desc = "\t.amdhsa_kernel f\n\t\t.amdhsa_wavefront_size32 0\n\t.end_amdhsa_kernel\n"
    assert detect_wave(KERNEL + desc, get("gfx1100")) == 64  # the kernel descriptor
    assert detect_wave("", get("gfx942")) == 64  # the only wave it runs
    rep = check_file(str(path), ["v1 == cuda.shfl_xor(v0, mask=1, width=32)"], wave=64)
    assert (rep.target.name, rep.wave, rep.exec_contract, rep.verdict) == ("gfx1100", 64, "any", "proved")
    assert (rep.region.first, rep.region.last) == (4, 4)
    rep = check_file(str(path), ["v2 == cuda.shfl_xor(v0, mask=1, width=32)"])
    assert rep.verdict == "refuted" and rep.checked[0].written_after == 5
    assert rep.lines()[-1] == "    note: v2 is written again at line 5, after the region (lines 4-4); --lines 4-5 includes it"
    rep = check_file(str(path), ["v1 == cuda.shfl_xor(v0, mask=1, width=32)"], wave=32, exec="0xf")
    js = rep.to_json()
    assert (js["wave"], js["exec"], js["verdict"]) == (32, "0xf", "proved")
    assert js["assertions"][0]["scope"] == "gfx1100 wave32 under exec=0xf, assumptions: dpp.inactive_src=bound_ctrl"
    with pytest.raises(InputError, match=r"no \.amdgcn_target; give --target"):
        check_file(str(path), ["v1 == v1"], text="f:\n v_mov_b32 v1, v0\n")
