"""v_cmpx_*: the v_cmp_* lane mask written to EXEC (and, on GFX8/9, to its
destination too).  [S:cmpx]"""

import pytest
from helpers import simulate
from test_semantics_agree import assert_agree

from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.target import TARGETS, get


def test_gfx9_writes_exec_and_its_destination():
    regs = {"v1": [5] * 64, "v2": list(range(64)), "v3": [0] * 64, "s0": 1, "s1": 2}
    m = simulate(["v_cmpx_gt_u32_e64 s[0:1], v1, v2", "v_mov_b32 v3, 7"], "gfx900", 64, 0xFF0F, regs)
    # lanes 0-4 compare true; inactive lanes (4-7, 16+) give 0
    assert m.sregs["exec_lo"] == m.sregs["s0"] == 0x0F and m.sregs["exec_hi"] == m.sregs["s1"] == 0
    assert m.vregs[3] == [7] * 4 + [0] * 60  # the next VALU op runs under the new EXEC


def test_gfx10_writes_only_exec():
    regs = {"v1": [5] * 32, "v2": list(range(32)), "vcc_lo": 0x1234}
    m = simulate(["v_cmpx_le_i32 v2, v1"], "gfx1100", 32, 0xFFFF0000 | 0x7, regs)
    assert m.sregs["exec_lo"] == 0x7 and "vcc_lo" not in m.sregs  # nothing but EXEC is written
    m = simulate(["v_cmpx_ne_u32_e64 v1, 5"], "gfx1200", 64, (1 << 64) - 1, {"v1": [5] * 64})
    assert m.sregs["exec_lo"] == m.sregs["exec_hi"] == 0


# (line, accepted on GFX8/9, accepted on GFX10+): pinned from llvm-mc-22 on gfx803, gfx900, gfx1030, gfx1100, gfx1200
SPELLINGS = [
    ("v_cmpx_eq_u32 vcc, v1, v2", True, False),
    ("v_cmpx_eq_u32_e64 s[0:1], v1, v2", True, False),
    ("v_cmpx_eq_u32_e64 exec, v1, v2", True, False),
    ("v_cmpx_lt_i32_e64 s[0:1], s1, v2", True, False),
    ("v_cmpx_eq_u32 v1, v2", False, True),
    ("v_cmpx_eq_u32_e32 v1, v2", False, True),
    ("v_cmpx_eq_u32_e64 v1, s2", False, True),
    ("v_cmpx_ne_u32_e64 v1, 0x1234", False, True),
]


@pytest.mark.parametrize("line,gcn,rdna", SPELLINGS)
def test_spellings_match_llvm_mc(line, gcn, rdna):
    for name in ("gfx803", "gfx900", "gfx1030", "gfx1100", "gfx1200"):
        t = TARGETS[name]
        try:
            ins = parse_instr(line, Span("t", 1))
            OPS[ins.base].check(ins, t, 64)
            ok = True
        except InputError:
            ok = False
        assert ok == (gcn if t.gen <= 9 else rdna), (line, name)


@pytest.mark.parametrize("line,tname,wave", [("v_cmpx_gt_u32 vcc, v1, v2", "gfx900", 64),
                                              ("v_cmpx_le_i32_e64 s[2:3], s1, v2", "gfx803", 64),
                                              ("v_cmpx_lt_u32 v1, v2", "gfx1100", 32),
                                              ("v_cmpx_ge_i32_e64 v1, s0", "gfx1200", 64),
                                              ("v_cmpx_eq_u32_e64 v1, 7", "gfx1030", 64)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_concrete_and_symbolic_agree(line, tname, wave, seed):
    """The GFX10+ spelling is not drawn by the declaration-driven property
    test (one signature per mnemonic): the same check, by hand."""
    t = get(tname)
    assert_agree([line, "v_add_u32_e64 v3, v1, v2" if t.gen < 10 else "v_add_nc_u32 v3, v1, v2"], t, wave, seed)


def test_an_exec_write_hazard_before_dpp(tmp_path):
    """v_cmpx is a VALU write of EXEC: a DPP read right after it needs 5 wait
    states on GFX8/9 ([S:hazards])."""
    from helpers import cli

    p = tmp_path / "cx.s"
    p.write_text("""; cx
;
; @spec     lane.map src="i" width=64
; @targets  gfx9
; @waves    64
; @exec     full
; @input    x = v0
; @output   out = v1
; @clobbers vcc
v_mov_b32_e32 v1, v0
v_cmpx_le_u32 vcc, 0, v0
s_nop 1
v_mov_b32_dpp v1, v0 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
""")
    code, out, err = cli("lowering", str(p), "--target", "gfx900")
    assert f"{p}:13:1: warning: hazard (GFX8/9 family): line 11 (v_cmpx_le_u32) writes exec_hi, exec_lo" in err, err
    assert "DPP after a VALU write of EXEC needs 5" in err
