"""The VOP3 DPP forms beyond the ALU ops (v_cndmask_b32, v_mbcnt_*, the VOPC
compares: `_e64_dpp`, GFX11+), legal where llvm-mc-22 says, with src0 moved
by the DPP lane rule; a compare's bit for an active lane DPP does not write
is the assumption vopc.dpp_unwritten.  [S:vop3-dpp-more]"""

import re
import shutil
import subprocess

import pytest
from helpers import simulate

from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.target import TARGETS

# line -> the targets (of those below) that take it; gfx1030 takes none
CHECKED = ["gfx1030", "gfx1100", "gfx1103", "gfx1150", "gfx1151", "gfx1200", "gfx1201"]
GFX11P = {"gfx1100", "gfx1103", "gfx1150", "gfx1151", "gfx1200", "gfx1201"}
SCALAR_SRC1 = {"gfx1150", "gfx1151", "gfx1200", "gfx1201"}
LEGALITY = [
    ("v_cndmask_b32_e64_dpp v0, v1, v2, s1 row_shr:1", GFX11P),
    ("v_cndmask_b32_e64_dpp v0, v1, v2, vcc_lo row_shr:1 bound_ctrl:1", GFX11P),
    ("v_cndmask_b32_e64_dpp v0, v1, v2, s1 dpp8:[1,0,3,2,5,4,7,6]", GFX11P),
    ("v_cndmask_b32_e64_dpp v0, v1, s2, s1 row_shr:1", SCALAR_SRC1),
    ("v_cndmask_b32_e64_dpp v0, v1, 0, s1 row_mirror", SCALAR_SRC1),
    ("v_cndmask_b32_e64_dpp v0, v1, 0x1234, s1 row_shr:1", set()),
    ("v_cndmask_b32_e64_dpp v0, s1, v2, s1 row_shr:1", set()),
    ("v_mbcnt_lo_u32_b32_e64_dpp v0, v1, v2 row_shr:1", GFX11P),
    ("v_mbcnt_hi_u32_b32_e64_dpp v0, v1, v2 dpp8:[1,0,3,2,5,4,7,6]", GFX11P),
    ("v_mbcnt_lo_u32_b32_e64_dpp v0, v1, s2 row_shr:1", SCALAR_SRC1),
    ("v_mbcnt_lo_u32_b32_e64_dpp v0, v1, 0 quad_perm:[1,0,3,2]", SCALAR_SRC1),
    ("v_mbcnt_lo_u32_b32_e64_dpp v0, v1, v2 row_shr:1 clamp", set()),
    ("v_cmp_eq_u32_e64_dpp s0, v1, v2 row_shr:1", GFX11P),
    ("v_cmp_gt_i32_e64_dpp vcc_lo, v1, v2 dpp8:[1,0,3,2,5,4,7,6]", GFX11P),
    ("v_cmp_lt_f32_e64_dpp s0, v1, v2 row_xmask:1", GFX11P),
    ("v_cmp_neq_f32_e64_dpp s0, v1, v2 row_shr:1 fi:1", GFX11P),
    ("v_cmp_eq_u32_e64_dpp s0, v1, s2 row_shr:1", SCALAR_SRC1),
    ("v_cmp_eq_u32_e64_dpp s0, v1, 0 row_shr:1", SCALAR_SRC1),
    ("v_cmp_eq_u32_e64_dpp s0, s1, v2 row_shr:1", set()),
    ("v_cmp_tru_f32_e64_dpp s0, v1, v2 row_shr:1", {"gfx1100", "gfx1103", "gfx1150", "gfx1151"}),
    ("v_cmp_eq_u64_e64_dpp s0, v[1:2], v[3:4] row_shr:1", set()),
]


def ours(line: str, tname: str) -> str | None:
    try:
        ins = parse_instr(line, Span("t", 1))
        OPS[ins.base].check(ins, TARGETS[tname], 32)
    except InputError as e:
        return str(e)
    return None


@pytest.mark.parametrize("tname", CHECKED)
def test_legality_table(tname):
    got = {line for line, _ in LEGALITY if ours(line, tname) is None}
    assert got == {line for line, ok in LEGALITY if tname in ok}


@pytest.mark.llvm_mc
@pytest.mark.skipif(shutil.which("llvm-mc-22") is None, reason="needs llvm-mc-22")
@pytest.mark.parametrize("tname", CHECKED)
def test_legality_table_is_llvm_mcs(tname):
    """Every row of the table, as llvm-mc-22 assembles it for the target."""
    text = "\n".join(line for line, _ in LEGALITY) + "\n"
    r = subprocess.run(["llvm-mc-22", "-triple=amdgcn", f"-mcpu={tname}", "-mattr=+wavefrontsize32", "-o", "/dev/null"],
                       input=text, capture_output=True, text=True)
    rejected = {int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):\d+: error", r.stderr)}
    assert {line for k, (line, _) in enumerate(LEGALITY, 1) if k not in rejected} == \
        {line for line, ok in LEGALITY if tname in ok}


def test_gfx1100_message_names_the_scalar_src1():
    assert ours("v_cmp_eq_u32_e64_dpp s0, v1, 0 row_shr:1", "gfx1100") == (
        "t:1:30: error: src1 of v_cmp_eq_u32_e64_dpp must be a VGPR on gfx1100: a constant as src1 of a VOP3 DPP "
        "instruction needs GFX11.5+ only")


SRC = list(range(100, 132))


def test_cndmask_dpp_moves_src0_only():
    """row_shr:1: lane i selects between lane i-1's src0 and its own src1;
    a row's first lane is not written (keeps v0)."""
    m = simulate(["v_cndmask_b32_e64_dpp v0, v1, v2, s1 row_shr:1"], "gfx1200", 32, 0xFFFFFFFF,
                 {"v0": 7, "v1": SRC, "v2": 5, "s1": 0x0000FF00})
    got = m.v(0)
    assert got[0] == 7 and got[16] == 7
    assert got[1] == 100 and got[7] == 106 and got[8] == 5 and got[15] == 5 and got[17] == 116


def test_mbcnt_dpp_counts_the_moved_mask():
    """dpp8 reversing each group of 8: lane 3 counts the bits below 3 of lane 4's mask word."""
    m = simulate(["v_mbcnt_lo_u32_b32_e64_dpp v0, v1, v2 dpp8:[7,6,5,4,3,2,1,0]"], "gfx1100", 32, 0xFFFFFFFF,
                 {"v1": [0b111 if i == 4 else 0 for i in range(32)], "v2": 10})
    got = m.v(0)
    assert got[3] == 13 and got[4] == 10 and got[0] == 10


UNWRITTEN = "s0@1(compare bit of a lane DPP does not write)"


@pytest.mark.parametrize("variant,bits", [(None, 0x00010001), ("zero", 0)])
def test_cmp_dpp_unwritten_lanes(variant, bits):
    """row_shr:1 with every lane equal: the written lanes compare true; the
    first lane of each row is left unwritten by DPP, and its bit is the
    assumption vopc.dpp_unwritten: an unknown bit (here read as 1), or 0."""
    m = simulate(["v_cmp_eq_u32_e64_dpp s0, v1, v2 row_shr:1"], "gfx1200", 32, 0xFFFFFFFF,
                 {"v1": 3, "v2": 3, UNWRITTEN: 1}, assume={"vopc.dpp_unwritten": variant} if variant else None)
    assert m.s("s0") == 0xFFFEFFFE | bits
    assert (UNWRITTEN in m.inputs_read) == (variant is None)


def test_cmp_dpp_inactive_lane_is_zero():
    m = simulate(["v_cmp_eq_u32_e64_dpp s0, v1, v2 row_shr:1 bound_ctrl:1"], "gfx1200", 32, 0xFFFF00FF,
                 {"v1": 0, "v2": 0, UNWRITTEN: 1})
    assert m.s("s0") == 0xFFFF00FF  # bound_ctrl: every active lane compares (0 == 0); inactive ones 0
