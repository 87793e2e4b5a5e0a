"""VOP3-encoded DPP (`_e64_dpp`): src1 is a VGPR on GFX11.0, also an SGPR or
an inline constant on GFX11.5 and GFX12, never a literal; the message says
what src1 is.  [S:dpp-encoding]"""

import pytest

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
