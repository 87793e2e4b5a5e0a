"""`verify asm` and instructions it does not model: everything such an
instruction may write is unknown afterwards (a carry-out destination, EXEC
for v_cmpx), so nothing it does can make a false claim pass; and the text
output states each verdict's scope (target, wave, EXEC, assumptions)."""

import re

from helpers import cli, cli_json

HEAD = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\nf:\n'

# v_mad_i64_i32 (not modelled) writes vcc_lo (its carry) between the compare and the select
CARRY = HEAD + """\ts_or_saveexec_b32 s0, -1
\ts_mov_b32 exec_lo, s0
\tv_cmp_eq_u32_e32 vcc_lo, v0, v0
\tv_mad_i64_i32 v[4:5], vcc_lo, v6, v7, v[8:9]
\tv_cndmask_b32_e32 v1, v2, v0, vcc_lo
\tv_mov_b32_dpp v1, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
\ts_setpc_b64 s[30:31]
"""

# v_cmpx writes EXEC: the DPP move after it does not write every lane
CMPX = HEAD + """\ts_mov_b32 s0, exec_lo
\tv_cmpx_eq_u32_e32 0, v5
\tv_mov_b32_dpp v1, v0 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
\ts_mov_b32 exec_lo, s0
\ts_setpc_b64 s[30:31]
"""

SAME = "v1 == cuda.shfl_xor(v0, mask=0, width=32)"


def write(tmp_path, text):
    p = tmp_path / "k.s"
    p.write_text(text)
    return str(p)


def test_a_carry_out_destination_is_unknown(tmp_path):
    path = write(tmp_path, CARRY)
    code, js, _ = cli_json("asm", path, "--assert", SAME)
    assert code == 1
    assert {"line": 7, "instruction": "v_mad_i64_i32 v[4:5], vcc_lo, v6, v7, v[8:9]", "result": "unknown",
            "writes": ["v4", "v5", "vcc_lo"]} in js["not_modelled"]
    lane = js["assertions"][0]["counterexample"]["lanes"][0]
    assert lane["actual_from"].startswith("v2[")  # the select took v2: vcc was 0
    code, out, _ = cli("asm", path, "--assert", SAME)
    assert "not modelled, what it writes is unknown: v4, v5, vcc_lo: line 7: v_mad_i64_i32" in out


def test_v_cmpx_writes_exec(tmp_path):
    path = write(tmp_path, CMPX)
    # with the save of EXEC in the region, the v_cmpx cannot be hoisted out of it
    code, js, _ = cli_json("asm", path, "--lines", "4-7", "--assert", SAME, "--assert", "exec_lo == exec_lo")
    assert code == 1
    assert [a["verdict"] for a in js["assertions"]] == ["refuted", "proved"]
    assert js["not_modelled"] == []  # v_cmpx is modelled now: it writes EXEC = EXEC & (0 == v5)  [S:cmpx]
    cex = js["assertions"][0]["counterexample"]
    assert "inactive" in cex["lanes"][0]["responsible"]
    # the default region starts at the v_cmpx: it writes EXEC
    code, js, _ = cli_json("asm", path, "--assert", SAME)
    assert code == 1 and js["region"]["first_line"] == 5


def test_stores_write_nothing_and_every_verdict_states_its_scope(tmp_path):
    text = HEAD + """\ts_or_saveexec_b32 s0, -1
\tv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
\tglobal_store_b32 v[2:3], v1, off
\tv_mov_b32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
\ts_mov_b32 exec_lo, s0
\ts_setpc_b64 s[30:31]
"""
    path = write(tmp_path, text)
    code, out, _ = cli("asm", path, "--assert", "v4 == cuda.shfl_xor(v0, mask=0, width=32)")
    assert code == 0, out
    assert "not modelled, writes no register: line 6: global_store_b32 v[2:3], v1, off" in out
    assert re.search(r"proved\s+v4 == .*\n    for gfx1100 wave32 under exec=any, assumptions: \S", out), out


def test_a_refutation_points_at_the_copy_after_the_default_region(tmp_path):
    """The default region ends at the last EXEC write; LLVM's final copy of
    the result comes after it.  The refutation says where, and --lines with
    that line proves it."""
    text = HEAD + """\ts_or_saveexec_b32 s0, -1
\tv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
\ts_mov_b32 exec_lo, s0
\tv_mov_b32_e32 v0, v1
\ts_setpc_b64 s[30:31]
"""
    path = write(tmp_path, text)
    claim = "v0 == cuda.shfl_xor(v0, mask=1, width=32)"
    code, out, _ = cli("asm", path, "--assert", claim)
    assert code == 1
    assert out.rstrip().endswith("note: v0 is written again at line 7, after the region (lines 4-6); "
                                 "--lines 4-7 includes it")
    assert cli("asm", path, "--assert", claim, "--lines", "4-7")[0] == 0


def test_assertion_errors_point_into_the_assertion(tmp_path):
    path = write(tmp_path, CMPX)
    for claim, want in [
        ("v1 == cuda.shfl_xor(v0, mask=1, wdth=32)",
         "--assert:1:33: error: spec cuda.shfl_xor has no parameter 'wdth' (parameters: mask, width)"),
        ("v1 == cuda.shfl_xr(v0, mask=1)", "--assert:1:7: error: unknown spec 'cuda.shfl_xr' (did you mean 'cuda.shfl_xor'?)"),
        ("v1 == cuda.shfl_xor(v0, mask=1+1)",
         "--assert:1:30: error: parameter mask must be a constant or a register, got '1 + 1'"),
    ]:
        code, out, err = cli("asm", path, "--assert", claim)
        assert (code, out, err) == (2, "", want + "\n")


# ---------------------------------------------------------------------------
# issue 11: every false proof through an unmodelled instruction now refutes or
# refuses  [S:asm-unmodelled] [S:waitcnt]

import pytest  # noqa: E402

from verify.asmcheck import parse_line  # noqa: E402
from verify.diag import Span  # noqa: E402
from verify.waits import Outstanding  # noqa: E402


def region(target, *body):
    """An asm file for `target` whose default region is lines 4 to the last
    of `body` (an EXEC save first, EXEC restored last)."""
    wave32 = target.startswith("gfx1")
    save = "s_or_saveexec_b32 s0, -1" if wave32 else "s_or_saveexec_b64 s[0:1], -1"
    restore = "s_mov_b32 exec_lo, s0" if wave32 else "s_mov_b64 exec, s[0:1]"
    lines = [save, *body, restore, "s_setpc_b64 s[30:31]"]
    return f'\t.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n\t.text\nf:\n' + "".join(f"\t{t}\n" for t in lines)


DPP = "v_mov_b32_dpp {d}, {s} quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"
XOR1 = "v4 == cuda.shfl_xor(v0, mask=1, width=32)"


def test_v_swap_writes_both_operands(tmp_path):
    path = write(tmp_path, region("gfx1100", DPP.format(d="v1", s="v0"), "v_swap_b32 v3, v0",
                                  DPP.format(d="v4", s="v0")))
    code, js, _ = cli_json("asm", path, "--assert", XOR1)
    assert code == 1 and js["assertions"][0]["verdict"] == "refuted"
    assert js["not_modelled"] == [{"line": 6, "instruction": "v_swap_b32 v3, v0", "result": "unknown",
                                   "writes": ["v3", "v0"]}]
    # a true16 half stands for its register
    path = write(tmp_path, region("gfx1100", DPP.format(d="v1", s="v0"), "v_swap_b16 v5.l, v0.h",
                                  DPP.format(d="v4", s="v0")))
    code, js, _ = cli_json("asm", path, "--assert", XOR1)
    assert code == 1 and js["not_modelled"][0]["writes"] == ["v5", "v0"]


@pytest.mark.parametrize("target, ins, why", [
    ("gfx1100", "v_movreld_b32 v2, v5", "it may read or write any VGPR: M0 selects it"),
    ("gfx1100", "v_movrels_b32 v2, v5", "it may read or write any VGPR: M0 selects it"),
    ("gfx1100", "v_movrelsd_b32 v2, v5", "it may read or write any VGPR: M0 selects it"),
    ("gfx1100", "v_movrelsd_2_b32 v2, v5", "it may read or write any VGPR: M0 selects it"),
    ("gfx900", "s_movrels_b32 s2, s5", "it may read or write any SGPR: M0 selects it"),
    ("gfx900", "s_set_gpr_idx_on s2, gpr_idx(SRC0)", "it may write any VGPR: GPR index mode makes the VGPR "
                                                      "operands of the VALU instructions after it relative to M0"),
    ("gfx900", "s_set_gpr_idx_mode gpr_idx(DST)", "it may write any VGPR: GPR index mode makes the VGPR "
                                                   "operands of the VALU instructions after it relative to M0"),
    ("gfx900", "s_setvskip s0, 0", "it may write any VGPR or none: VSKIP makes the hardware skip the VALU "
                                   "instructions after it"),
    ("gfx900", "s_setreg_imm32_b32 hwreg(HW_REG_MODE), 1",
     "it may write any hardware register field, GFX9's GPR index and VALU skip modes included; only "
     "hwreg(HW_REG_MODE, OFFSET, SIZE) within bits 0-7, the rounding and denormal fields, is bounded"),
])
def test_what_cannot_be_bounded_is_refused(tmp_path, target, ins, why):
    path = write(tmp_path, region(target, DPP.format(d="v1", s="v0"), ins, DPP.format(d="v4", s="v0")))
    code, out, err = cli("asm", path, "--assert", XOR1)
    mn = ins.split()[0]
    assert (code, out, err) == (2, "", f"{path}:6:1: error: verify does not model {mn} ({why})\n")


@pytest.mark.parametrize("ins", ["s_round_mode 0x3", "s_denorm_mode 0x0", "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3",
                                 "s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s2"])
def test_a_mode_change_before_a_float_op_is_refused(tmp_path, ins):
    fadd = "v_add_f32_dpp v1, v0, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"
    path = write(tmp_path, region("gfx1100", ins, fadd))
    code, out, err = cli("asm", path, "--assert", "v1 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert (code, out) == (2, "")
    assert err == (f"{path}:5:1: error: verify does not model {ins.split()[0]} (it changes MODE: the rounding and "
                   f"denormal handling of v_add_f32_dpp at line 6 are not known)\n")
    # no float instruction after it: integer results do not depend on MODE
    path = write(tmp_path, region("gfx1100", ins, DPP.format(d="v1", s="v0")))
    code, js, _ = cli_json("asm", path, "--assert", "v1 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 0 and js["not_modelled"][0]["writes"] == []


@pytest.mark.parametrize("target, wait", [("gfx1100", "s_waitcnt vmcnt(0)"), ("gfx1100", "s_waitcnt_vmcnt null, 0x0"),
                                          ("gfx900", "s_waitcnt vmcnt(0)"), ("gfx1200", "s_wait_loadcnt 0x0")])
def test_a_vmem_load_read_before_its_wait_is_unknown(tmp_path, target, wait):
    load = "global_load_b32 v0, v[2:3], off" if target.startswith("gfx1") else "global_load_dword v0, v[2:3], off"
    late = write(tmp_path, region(target, load, DPP.format(d="v1", s="v0"), wait, DPP.format(d="v4", s="v1")))
    code, js, err = cli_json("asm", late, "--assert", "v4 == cuda.shfl_xor(v0, mask=0, width=32)")
    assert code == 1 and js["assertions"][0]["verdict"] == "refuted"
    assert js["not_modelled"][0] == {"line": 5, "instruction": load, "result": "unknown", "writes": ["v0"]}
    assert "6:1: warning: v_mov_b32_dpp reads v0 before the memory result from line 5 has returned" in err
    # waited for first: the load moves to the region's start, its result an input
    # (GFX9: a DPP read of a VGPR written by the previous instructions needs 2 wait states  [S:hazards])
    nop = ["s_nop 1"] if target.startswith("gfx9") else []
    path = write(tmp_path, region(target, load, wait, *nop, DPP.format(d="v1", s="v0"), *nop,
                                  DPP.format(d="v4", s="v1")))
    code, js, err = cli_json("asm", path, "--assert", "v4 == cuda.shfl_xor(v0, mask=0, width=32)")
    assert code == 0 and js["not_modelled"][0]["result"] == "loaded" and "memory result" not in err, err


def test_a_returning_gfx12_atomic_writes_its_destination(tmp_path):
    path = write(tmp_path, region("gfx1200", DPP.format(d="v1", s="v0"),
                                  "global_atomic_add_u32 v0, v1, v2, s[2:3] th:TH_ATOMIC_RETURN", "s_wait_loadcnt 0x0",
                                  DPP.format(d="v4", s="v0")))
    code, js, _ = cli_json("asm", path, "--assert", XOR1)
    assert code == 1 and js["not_modelled"][0]["writes"] == ["v0"]


def test_a_scalar_compare_writes_scc_only(tmp_path):
    # s_cmp_* and s_bitcmp* are modelled now ([S:salu-cmp], [S:salu-bitcmp]); s_cmpk_* is not, and is
    # classified as writing SCC only
    path = write(tmp_path, region("gfx1100", DPP.format(d="v1", s="v0"), "s_cmpk_lg_u32 s4, 3",
                                  DPP.format(d="v4", s="v0")))
    code, js, _ = cli_json("asm", path, "--assert", XOR1)
    assert code == 0 and js["not_modelled"][0]["writes"] == []


def ins(text, line):
    return parse_line(text, Span("t", line))


def test_vector_memory_counters():
    q = Outstanding()
    q.step(ins("global_load_dword v1, v[2:3], off", 1))
    q.step(ins("buffer_load_dword v4, off, s[0:3], 0", 2))
    q.step(ins("s_waitcnt vmcnt(1)", 3))  # in order: the older load has landed
    assert (q.pending(1), q.pending(4)) == (None, 2)
    q.step(ins("image_sample v5, v[6:7], s[8:15], s[16:19] dmask:0x1", 4))
    q.step(ins("s_waitcnt vmcnt(1)", 5))  # a sample and a load: out of order, only vmcnt(0) covers
    assert (q.pending(4), q.pending(5)) == (2, 4)
    q.step(ins("s_waitcnt lgkmcnt(0)", 6))  # the wrong counter
    assert q.pending(4) == 2
    q.step(ins("s_waitcnt vmcnt(0)", 7))
    assert q.queue == []
    # a FLAT load counts on both counters: covered once both are
    q.step(ins("flat_load_dword v1, v[2:3]", 8))
    q.step(ins("s_waitcnt vmcnt(0)", 9))
    assert q.pending(1) == 8
    q.step(ins("s_waitcnt lgkmcnt(0)", 10))
    assert q.pending(1) is None


@pytest.mark.parametrize("ins", ["s_set_gpr_idx_on s2, gpr_idx(SRC0)", "s_setvskip s0, 0",
                                 "s_setreg_b32 hwreg(HW_REG_MODE), s3"])
def test_a_mode_set_outside_the_region_is_refused(tmp_path, ins):
    """A mode in effect across the region (a branch or a loop may carry it
    there) is refused wherever in the function it is set."""
    text = region("gfx900", DPP.format(d="v1", s="v0")).replace("f:\n", f"f:\n\t{ins}\n\tv_add_u32_e32 v5, v6, v7\n")
    path = write(tmp_path, text)
    for lines in ([], ["--lines", "6-8"]):
        code, out, err = cli("asm", path, *lines, "--assert", "v1 == cuda.shfl_xor(v0, mask=1, width=32)")
        assert (code, out) == (2, "") and err.startswith(f"{path}:4:1: error: verify does not model {ins.split()[0]} (")
        assert err.endswith("; a mode it sets may be in effect in the region, lines 6-8)\n")
    # a MODE rounding change elsewhere matters only to float instructions in the region
    text = region("gfx900", DPP.format(d="v1", s="v0")).replace("f:\n", "f:\n\ts_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3\n")
    assert cli("asm", write(tmp_path, text), "--assert", "v1 == cuda.shfl_xor(v0, mask=1, width=32)")[0] == 0
    fadd = "v_add_f32_dpp v1, v0, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"
    text = region("gfx900", fadd).replace("f:\n", "f:\n\ts_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3\n")
    code, out, err = cli("asm", write(tmp_path, text), "--assert", "v1 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 2 and err.endswith("v_add_f32_dpp at line 6 are not known; a mode it sets may be in effect in "
                                      "the region, lines 5-7)\n"), err


def test_a_scalar_load_read_before_its_wait_is_refused(tmp_path):
    load, use = "s_load_dword s4, s[2:3], 0x0", "v_writelane_b32 v1, s4, 0"
    late = write(tmp_path, region("gfx900", DPP.format(d="v1", s="v0"), load, use, "s_waitcnt lgkmcnt(0)"))
    code, out, err = cli("asm", late, "--lines", "4-8", "--assert", "v1 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert (code, out) == (2, "")
    assert err == (f"{late}:7:1: error: v_writelane_b32 reads s4 before the scalar load of line 6 has returned (no "
                   f"s_waitcnt lgkmcnt(0) / s_wait_kmcnt 0 covers it): verify does not model its value there\n")
    path = write(tmp_path, region("gfx900", DPP.format(d="v1", s="v0"), load, "s_waitcnt lgkmcnt(0)", use))
    code, js, err = cli_json("asm", path, "--lines", "4-8", "--assert", "v1 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 1 and js["assertions"][0]["verdict"] == "refuted"  # lane 0 holds the loaded value


def test_ds_bvh_stack_writes_its_address_operand_too(tmp_path):
    path = write(tmp_path, region("gfx1100", DPP.format(d="v1", s="v0"), "ds_bvh_stack_rtn_b32 v5, v0, v3, v[4:7]",
                                  "s_waitcnt lgkmcnt(0)", DPP.format(d="v4", s="v0")))
    code, js, _ = cli_json("asm", path, "--assert", XOR1)
    assert code == 1 and js["not_modelled"][0]["writes"] == ["v5", "v0"]
