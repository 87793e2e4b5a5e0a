"""DS results arrive late: reading or overwriting a ds_swizzle/ds_bpermute
destination before the s_waitcnt lgkmcnt / s_wait_dscnt that covers it gives
an unknown value (a refutation naming the read) and a warning naming both
lines.  [S:waitcnt]"""

import re

import pytest
from helpers import cli, cli_json

from verify.ir import Instr
from verify.waits import Outstanding

HEAD = """; @spec     cuda.shfl_xor mask=16 width=32
; @targets  {t}
; @waves    {w}
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2
"""


def lowering(tmp_path, body, t="gfx9", w=64):
    p = tmp_path / "k.s"
    p.write_text(HEAD.format(t=t, w=w) + body)
    return str(p)


def test_a_read_before_the_wait_is_refuted_and_named(tmp_path):
    path = lowering(tmp_path, "ds_swizzle_b32 v2, v0 offset:swizzle(SWAP,16)\n"
                              "v_mov_b32_e32 v1, v2\n"
                              "s_waitcnt lgkmcnt(0)\n")
    code, out, err = cli("lowering", path)
    assert code == 1
    assert "k.s:9:1: warning: v_mov_b32_e32 reads v2 before the DS result from line 8 has returned" in err
    row = next(l for l in out.splitlines() if re.match(r"\s+0\s", l))
    assert "unknown (v2 read early)" in row and "line 9 v_mov_b32_e32: reads v2 before the DS result from line 8" in row


def test_the_wait_in_between_proves_it(tmp_path):
    path = lowering(tmp_path, "ds_swizzle_b32 v2, v0 offset:swizzle(SWAP,16)\n"
                              "s_waitcnt lgkmcnt(0)\n"
                              "v_mov_b32_e32 v1, v2\n")
    code, out, err = cli("lowering", path)
    assert code == 0 and "DS result" not in err, out + err


def test_lgkmcnt_n_covers_all_but_the_n_newest(tmp_path):
    # the older swizzle (v2) is covered by lgkmcnt(1), the newer (v1) only by the final wait
    ok = ("ds_swizzle_b32 v2, v0 offset:swizzle(SWAP,16)\n"
          "ds_swizzle_b32 v1, v0 offset:swizzle(SWAP,16)\n"
          "s_waitcnt lgkmcnt(1)\n"
          "v_mov_b32_e32 v1, v2\n")
    code, out, err = cli("lowering", lowering(tmp_path, ok))
    # v_mov overwrites v1 while its swizzle is in flight: which lands last is unknown
    assert code == 1 and "v_mov_b32_e32 overwrites v1 before the DS result from line 9 has returned" in err
    ok = ok.replace("s_waitcnt lgkmcnt(1)\nv_mov_b32_e32 v1, v2\n", "s_waitcnt lgkmcnt(1)\nv_mov_b32_e32 v2, v2\ns_waitcnt lgkmcnt(0)\n")
    code, out, err = cli("lowering", lowering(tmp_path, ok))
    assert code == 0 and "DS result" not in err, out + err


def test_an_output_outstanding_at_the_end(tmp_path):
    path = lowering(tmp_path, "ds_swizzle_b32 v1, v0 offset:swizzle(SWAP,16)\n")
    code, out, err = cli("lowering", path)
    assert code == 1 and "v1, an output, is the DS result from line 8, still outstanding at the end" in err


def test_gfx12_waits_for_dscnt(tmp_path):
    body = ("v_mbcnt_lo_u32_b32 v2, -1, 0\n"
            "v_xor_b32_e32 v2, 16, v2\n"
            "v_lshlrev_b32_e32 v2, 2, v2\n"
            "ds_bpermute_b32 v1, v2, v0\n")
    code, _, err = cli("lowering", lowering(tmp_path, body, "gfx1200", 32))
    assert code == 1 and "still outstanding at the end" in err
    for wait in ("s_wait_dscnt 0x0", "s_wait_loadcnt_dscnt 0x0"):
        code, out, err = cli("lowering", lowering(tmp_path, body + wait + "\n", "gfx1200", 32))
        assert code == 0, out + err
    code, _, err = cli("lowering", lowering(tmp_path, body + "s_wait_loadcnt 0x0\n", "gfx1200", 32))
    assert code == 1  # the wrong counter


def test_scalar_loads_in_flight_leave_only_lgkmcnt_0():
    def ins(m, line):
        from verify.asmcheck import parse_line
        from verify.diag import Span

        return parse_line(m, Span("t", line))

    q = Outstanding()
    q.step(ins("ds_swizzle_b32 v2, v0 offset:0x401f", 1))
    q.step(ins("s_load_dword s4, s[0:1], 0x0", 2))
    q.step(ins("s_waitcnt lgkmcnt(1)", 3))
    assert q.pending(2) == 1  # the scalar load may have returned first
    q.step(ins("s_waitcnt lgkmcnt(0)", 4))
    assert q.pending(2) is None
    assert isinstance(ins("s_waitcnt lgkmcnt(0)", 5), Instr)


def test_asm_region_ending_at_the_ds_op_takes_the_result_as_landed(tmp_path):
    """`verify asm`'s default region ends at the last cross-lane instruction;
    the wait after it belongs to the code that uses the result."""
    text = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.text\nf:\n'
            "\tv_mbcnt_lo_u32_b32 v1, -1, 0\n\tv_xor_b32_e32 v1, 1, v1\n\tv_lshlrev_b32_e32 v1, 2, v1\n"
            "\tds_bpermute_b32 v0, v1, v0\n\ts_waitcnt lgkmcnt(0)\n\ts_setpc_b64 s[30:31]\n")
    p = tmp_path / "k.s"
    p.write_text(text)
    code, js, err = cli_json("asm", str(p), "--exec", "0xffffffff", "--assert", "v0 == cuda.shfl_xor(v0, mask=1, width=32)")
    assert code == 0, (js, err)
    assert js["region"]["last_line"] == 7


ASM_HEAD = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"\n\t.text\nf:\n'


def asm_file(tmp_path, body):
    p = tmp_path / "k.s"
    p.write_text(ASM_HEAD + body + "\ts_setpc_b64 s[30:31]\n")
    return str(p)


@pytest.mark.parametrize("load, reg", [("ds_read_b64 v[2:3], v1", "v3"),       # every register of the range
                                       ("ds_add_rtn_u32 v3, v1, v0", "v3")])  # returning atomics too
def test_unmodelled_lds_results_land_late_too(tmp_path, load, reg):
    path = asm_file(tmp_path, f"\tv_mov_b32_e32 v1, 0\n\t{load}\n\tv_mov_b32_e32 v5, {reg}\n\ts_waitcnt lgkmcnt(0)\n"
                              f"\tv_xor_b32_e32 v8, v5, {reg}\n\tv_add_nc_u32_e32 v9, v0, v8\n")
    code, out, err = cli("asm", path, "--wave", "32", "--lines", "4-9",
                         "--assert", "v9 == cuda.shfl_xor(v0, mask=0, width=32)")
    assert code == 1 and f"v_mov_b32_e32 reads {reg} before the DS result from line 5 has returned" in err


def test_an_lds_load_is_not_hoisted_out_of_its_wait(tmp_path):
    path = asm_file(tmp_path, "\tds_read_b32 v0, v1\n\tv_mov_b32_e32 v3, v0\n\ts_waitcnt lgkmcnt(0)\n"
                              "\tds_swizzle_b32 v2, v3 offset:swizzle(SWAP,16)\n\ts_waitcnt lgkmcnt(0)\n")
    code, out, err = cli("asm", path, "--wave", "32", "--lines", "4-8",
                         "--assert", "v2 == cuda.shfl_xor(v0, mask=16, width=32)")
    assert code == 1 and "not modelled, what it writes is unknown: v0: line 4: ds_read_b32 v0, v1" in out
    assert "v_mov_b32_e32 reads v0 before the DS result from line 4 has returned" in err


@pytest.mark.parametrize("wait, covers", [("s_waitcnt lgkmcnt(0x0)", True), ("s_waitcnt vmcnt(0) lgkmcnt(0)", True),
                                          ("s_waitcnt_lgkmcnt null, 0x0", True), ("s_waitcnt 0", True),
                                          ("s_waitcnt_lgkmcnt s0, 0", False),  # an SGPR adds to the count
                                          ("s_waitcnt vmcnt(0)", False), ("s_waitcnt 0xf00", False)])
def test_wait_spellings(tmp_path, wait, covers):
    body = "ds_swizzle_b32 v2, v0 offset:swizzle(SWAP,16)\n" + wait + "\nv_mov_b32_e32 v1, v2\n"
    code, out, err = cli("lowering", lowering(tmp_path, body, "gfx10", 32))
    assert (code == 0) == covers, out + err


def test_gfx10_v_cmpx_reads_its_first_operand(tmp_path):
    """`v_cmpx_gt_u32_e32 s1, v5` on GFX10+ writes EXEC only; s1 is a source
    (v_cmpx is modelled: [S:cmpx])."""
    path = asm_file(tmp_path, "\tv_cmpx_gt_u32_e32 s1, v5\n")
    code, js, _ = cli_json("asm", path, "--wave", "32", "--lines", "4-4", "--assert", "exec_lo == exec_lo")
    # modelled, it writes EXEC = EXEC & (s1 > v5): the claim that EXEC is kept is refuted
    assert js["not_modelled"] == [] and code == 1 and js["assertions"][0]["verdict"] == "refuted", js


@pytest.mark.parametrize("wait, want", [
    ("s_waitcnt vmcnt(0) lgkmcnt(0)", [("vm", 0), ("lgkm", 0)]), ("s_waitcnt vmcnt(3)", [("vm", 3)]),
    ("s_waitcnt 0", [("lgkm", 0), ("vm", 0)]), ("s_waitcnt expcnt(0)", []), ("s_waitcnt 0xf00", []),
    ("s_waitcnt_vmcnt null, 0x1", [("vm", 1)]), ("s_waitcnt_vmcnt s0, 0x1", []),
    ("s_wait_loadcnt 0x2", [("load", 2)]), ("s_wait_samplecnt 0x0", [("sample", 0)]),
    ("s_wait_bvhcnt 0x0", [("bvh", 0)]), ("s_wait_kmcnt 0x0", [("km", 0)]),
    ("s_wait_loadcnt_dscnt 0x0", [("ds", 0), ("load", 0)]), ("s_wait_loadcnt_dscnt 0x101", []),
])
def test_vector_memory_wait_spellings(wait, want):
    from verify.asmcheck import parse_line
    from verify.diag import Span
    from verify.waits import waits_of

    assert waits_of(parse_line(wait, Span("t", 1))) == want
