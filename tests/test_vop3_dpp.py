"""VOP3-encoded DPP (`_e64_dpp`): src1 is a VGPR on GFX11.0, also an SGPR or
an inline constant on GFX11.5 and GFX12, never a literal; the message says
what src1 is.  [S:dpp-encoding]"""

import shutil
import subprocess

import pytest
from helpers import simulate

from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.target import TARGETS


def check(line, tname, wave=32):
    ins = parse_instr(line, Span("t", 1))
    return OPS[ins.base].check(ins, TARGETS[tname], wave)


@pytest.mark.parametrize("tname", ["gfx1150", "gfx1151", "gfx1152", "gfx1153", "gfx1200", "gfx1201"])
@pytest.mark.parametrize("src1", ["s2", "1", "-4", "1.0", "m0", "vcc_lo"])
def test_gfx115x_and_gfx12_take_scalar_src1(tname, src1):
    check(f"v_add_nc_u32_e64_dpp v0, v1, {src1} row_shr:1", tname)
    check(f"v_add_f32_e64_dpp v0, v1, {src1} row_shr:1", tname)


@pytest.mark.parametrize("src1,what", [("s2", "an SGPR"), ("1", "a constant"), ("1.0", "a constant")])
def test_gfx1100_message_names_what_src1_is(src1, what):
    with pytest.raises(InputError) as e:
        check(f"v_add_nc_u32_e64_dpp v0, v1, {src1} row_shr:1", "gfx1100")
    assert str(e.value) == (f"t:1:30: error: src1 of v_add_nc_u32_e64_dpp must be a VGPR on gfx1100: {what} as src1 "
                            f"of a VOP3 DPP instruction needs GFX11.5+ only")


@pytest.mark.parametrize("tname", ["gfx1100", "gfx1151", "gfx1200"])
def test_no_literal(tname):
    with pytest.raises(InputError, match=r"cannot take a literal constant|must be a VGPR"):
        check("v_add_nc_u32_e64_dpp v0, v1, 0x1234 row_shr:1", tname)


# ---- the three-source VOP3 ops with DPP (v_bfe_u32/v_bfe_i32, v_add3_u32, ...)  [S:bfe]

TRITON_BFE = "v_bfe_i32_e64_dpp v1, v0, 0, 8 row_shr:1 row_mask:0xf bank_mask:0xf"


@pytest.mark.parametrize("tname,legal", [("gfx1100", False), ("gfx1101", False), ("gfx1102", False),
                                         ("gfx1103", False), ("gfx1150", True), ("gfx1151", True),
                                         ("gfx1200", True), ("gfx1201", True)])
def test_triton_dpp_bfe_inline_constant_src1(tname, legal):
    """triton#10414/#10452: LLVM's DPP combiner folded a row_shr move into
    v_bfe_i32 with the inline constant 0 as src1, which GFX11.0 (gfx1100)
    cannot encode: illegal there, legal on GFX11.5 and GFX12, as llvm-mc-22 says."""
    if legal:
        check(TRITON_BFE, tname)
    else:
        with pytest.raises(InputError) as e:
            check(TRITON_BFE, tname)
        assert str(e.value) == (f"t:1:27: error: src1 of v_bfe_i32_e64_dpp must be a VGPR on {tname}: a constant as "
                                "src1 of a VOP3 DPP instruction needs GFX11.5+ only")
    mc = shutil.which("llvm-mc-22")
    if mc is not None:
        r = subprocess.run([mc, "-arch=amdgcn", f"-mcpu={tname}", "-show-encoding"], input=TRITON_BFE + "\n",
                           capture_output=True, text=True)
        assert ("error" not in r.stderr) == legal, r.stderr
        if not legal:
            assert "src1 immediate operand invalid for instruction" in r.stderr


@pytest.mark.parametrize("line,tname", [("v_bfe_u32_e64_dpp v0, v1, v2, s3 row_shr:1", "gfx1100"),
                                        ("v_bfe_u32_e64_dpp v0, v1, v2, 8 dpp8:[1,0,3,2,5,4,7,6]", "gfx1100"),
                                        ("v_add3_u32_e64_dpp v0, v1, s2, -4 row_mirror", "gfx1200")])
def test_three_source_vop3_dpp_forms(line, tname):
    """src2 may be an SGPR or an inline constant on every GFX11+ target."""
    check(line, tname)


@pytest.mark.parametrize("line,msg", [
    ("v_bfe_u32_e64_dpp v0, v1, v2, 0x1234 row_shr:1", "cannot take a literal constant"),
    ("v_bfe_u32_e64_dpp v0, v1, v2, v3 clamp row_shr:1", "unknown modifier 'clamp'"),
    ("v_bitop3_b32_e64_dpp v0, v1, v2, v3 row_shr:1", "unknown mnemonic"),
])
def test_three_source_vop3_dpp_refusals(line, msg):
    with pytest.raises(InputError, match=msg):
        check(line, "gfx1200")


def test_no_vop3_dpp_before_gfx11():
    with pytest.raises(InputError, match="not available on gfx1030: GFX11"):
        check("v_bfe_u32_e64_dpp v0, v1, v2, v3 row_shr:1", "gfx1030")


def test_bfe_with_dpp_moves_src0_only():
    """row_shr:1 swizzles src0; offset and width are the lane's own: lane i
    gets the field of lane i - 1's src0 (a row's first lane is not written
    without bound_ctrl)."""
    src = [0x80 | i for i in range(32)]
    m = simulate(["v_bfe_i32_e64_dpp v1, v0, v2, 8 row_shr:1 row_mask:0xf bank_mask:0xf"], "gfx1200", 32,
                 0xFFFFFFFF, {"v0": src, "v1": 0x5555, "v2": [0] * 16 + [4] * 16})
    got = m.v(1)
    assert got[1] == 0xFFFFFF80 and got[2] == 0xFFFFFF81  # bits 0-7 of lane i-1, sign-extended
    assert got[17] == 0x9 and got[0] == 0x5555 and got[16] == 0x5555  # 0x90 >> 4; row starts kept


def test_verify_asm_names_the_triton_miscompile(tmp_path):
    """The bfe DPP form in compiler output for gfx1100 is one error line at its operand, exit 2."""
    from helpers import cli
    p = tmp_path / "triton.s"
    p.write_text('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\nf:\n\t' + TRITON_BFE
                 + "\n\ts_setpc_b64 s[30:31]\n")
    for claim in ("v1 == cuda.shfl_up(v0, delta=1, width=16)", "exec_lo == exec_lo"):
        code, out, err = cli("asm", str(p), "--assert", claim)
        assert code == 2 and out == ""
        assert err.strip() == (f"{p}:4:28: error: src1 of v_bfe_i32_e64_dpp must be a VGPR on gfx1100: a constant "
                               "as src1 of a VOP3 DPP instruction needs GFX11.5+ only")
