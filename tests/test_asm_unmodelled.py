"""`verify asm` and instructions it does not model: everything such an
instruction may write is unknown afterwards (a carry-out destination, EXEC
for v_cmpx), so nothing it does can make a false claim pass; and the text
output states each verdict's scope (target, wave, EXEC, assumptions)."""

import re

from helpers import cli, cli_json

HEAD = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\nf:\n'

# v_add_co_u32 writes vcc_lo (its carry) between the compare and the select
CARRY = HEAD + """\ts_or_saveexec_b32 s0, -1
\ts_mov_b32 exec_lo, s0
\tv_cmp_eq_u32_e32 vcc_lo, v0, v0
\tv_add_co_u32 v5, vcc_lo, v6, v7
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
    assert {"line": 7, "instruction": "v_add_co_u32 v5, vcc_lo, v6, v7", "result": "unknown",
            "writes": ["v5", "vcc_lo"]} in js["not_modelled"]
    lane = js["assertions"][0]["counterexample"]["lanes"][0]
    assert lane["actual_from"].startswith("v2[")  # the select took v2: vcc was 0
    code, out, _ = cli("asm", path, "--assert", SAME)
    assert "not modelled, what it writes is unknown: v5, vcc_lo: line 7: v_add_co_u32" in out


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
