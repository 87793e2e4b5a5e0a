"""The cause of a `verify tv` refutation traced through three-operand,
carry, select and byte-permute instructions (issue #34): each llc-22
output below has one line mutated, and the counterexample names that
instruction, the lane and the operand that went wrong, and what value of
it would have given the IR's result (verify.cex.blame: the instruction
run again with that operand replaced)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytestmark = pytest.mark.skipif(shutil.which("llc-22") is None, reason="llc-22 not installed")

IR = """\
define i32 @add3(i32 %a, i32 %b, i32 %c) {
  %s = add i32 %a, %b
  %r = add i32 %s, %c
  ret i32 %r
}
define i32 @lshl_add(i32 %a, i32 %b) {
  %t = shl i32 %a, 2
  %r = add i32 %t, %b
  ret i32 %r
}
define i32 @sel(i32 %a, i32 %b, i32 %x, i32 %y) {
  %c = icmp slt i32 %a, %b
  %r = select i1 %c, i32 %x, i32 %y
  ret i32 %r
}
define i64 @add64(i64 %a, i64 %b) {
  %r = add i64 %a, %b
  ret i64 %r
}
define i32 @mad24(i32 %a, i32 %b, i32 %c) {
  %x = and i32 %a, 16777215
  %y = and i32 %b, 16777215
  %m = mul i32 %x, %y
  %r = add i32 %m, %c
  ret i32 %r
}
define i32 @align(i32 %a, i32 %b) {
  %x = lshr i32 %a, 8
  %y = shl i32 %b, 24
  %r = or i32 %x, %y
  ret i32 %r
}
define i32 @bytes(i32 %a, i32 %b) {
  %x = and i32 %a, 255
  %y = shl i32 %b, 8
  %y2 = and i32 %y, 65280
  %r = or i32 %x, %y2
  ret i32 %r
}
"""


def mutant(tmp_path: Path, fn: str, old: str, new: str) -> tuple[str, Path, int]:
    """The IR above compiled by llc-22 for gfx1100 wave32, `old` in
    function `fn` replaced by `new`: (the .ll, the .s, the mutated line)."""
    ll = tmp_path / "ops.ll"
    ll.write_text(IR)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=IR, capture_output=True, text=True, check=True).stdout
    body = asm[asm.index(f"\n{fn}:"):]
    body = body[:body.index(".Lfunc_end")]
    assert body.count(f"\t{old}\n") == 1, body
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace(body, body.replace(f"\t{old}\n", f"\t{new}\n")))
    line = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if t == f"\t{new}")
    return str(ll), bad, line


def run(ll: str, bad: Path, fn: str, text: bool = True, js: bool = True) -> tuple[list[str], dict]:
    """The refutation's text lines and its JSON counterexample; a caller that
    reads only one of them asks for that one (each is a whole solver run)."""
    argv = ["tv", ll, "--function", fn, "--target", "gfx1100", "--wave", "32", "--asm", str(bad)]
    lines: list[str] = []
    cex: dict = {}
    if text:
        code, out, _ = cli(*argv)
        assert code == 1, out
        lines = out.splitlines()
    if js:
        code, out, _ = cli(*argv, "--json")
        assert code == 1, out
        cex = json.loads(out)["results"][0]["counterexample"]
    return lines, cex


def test_a_three_source_add_names_the_register_it_should_have_read(tmp_path):
    """`v_add3_u32 v0, v0, v1, v2` reading v3 as its third source: v2
    holds %c, with which it gives the IR's sum; named with the lane."""
    ll, bad, at = mutant(tmp_path, "add3", "v_add3_u32 v0, v0, v1, v2", "v_add3_u32 v0, v0, v1, v3")
    lines, c = run(ll, bad, "add3")
    cause = (f"line {at} v_add3_u32: v0[0] reads its src2 v3 = 0x0; v2 holds 0x300 (%c[0]), "
             "with which it gives the value wanted, 0x600")
    assert f"    cause: {cause}" in lines, lines
    assert c["cause"] == cause
    assert (f"      line {at} (v_add3_u32 v0, v0, v1, v3): v0[0] computed by v_add3_u32, its src2 v3 = 0x0 in error: "
            "with 0x300 (%c[0], in v2) it gives the value wanted, 0x600") in lines


def test_where_two_operands_would_each_do_neither_is_named_and_both_are_listed(tmp_path):
    """`v_add3_u32 v0, v0, v1, v2` reading v1 twice: v0 = %b or v1 = %c
    would each give the IR's sum, so no operand is shown wrong (the add3 is
    the cause) and the path lists both."""
    ll, bad, at = mutant(tmp_path, "add3", "v_add3_u32 v0, v0, v1, v2", "v_add3_u32 v0, v0, v1, v1")
    lines, c = run(ll, bad, "add3")
    assert c["cause"] == f"line {at} v_add3_u32: v0[0] computed by v_add3_u32"
    assert (f"      line {at} (v_add3_u32 v0, v0, v1, v1): v0[0] computed by v_add3_u32; alone, its src0 v0 = 0x200 "
            "(%b[0], in v1) or its src1 or src2 v1 = 0x300 (%c[0], in v2) would give the value wanted, 0x600") in lines


def test_a_shift_and_add_names_its_constant(tmp_path):
    """`v_lshl_add_u32 v0, v0, 2, v1` shifting by 3: the constant named,
    and the one that gives the IR's value."""
    ll, bad, at = mutant(tmp_path, "lshl_add", "v_lshl_add_u32 v0, v0, 2, v1", "v_lshl_add_u32 v0, v0, 3, v1")
    lines, _ = run(ll, bad, "lshl_add", js=False)
    assert (f"    cause: line {at} v_lshl_add_u32: v0[0] takes the constant 3 as its src1; with 2 it gives "
            "the value wanted, 0x600") in lines, lines


def test_a_select_names_the_compare_that_wrote_its_mask(tmp_path):
    """`v_cmp_lt_i32` made `v_cmp_le_i32`: the v_cndmask took the wrong
    input where a == b; its mask bit is the operand in error, and the
    compare that wrote that bit is the cause."""
    ll, bad, at = mutant(tmp_path, "sel", "v_cmp_lt_i32_e32 vcc_lo, v0, v1", "v_cmp_le_i32_e32 vcc_lo, v0, v1")
    lines, c = run(ll, bad, "sel")
    cause = c["cause"]
    assert cause.startswith(f"line {at} v_cmp_le_i32_e32: vcc_lo[0] = 1, the mask of line {at + 1} "
                            "v_cndmask_b32_e32 for v0[0]; with 0 (or with its sources swapped) it gives the value wanted, "), cause
    assert f"    cause: {cause}" in lines
    assert f"      line {at} (v_cmp_le_i32_e32 vcc_lo, v0, v1): writes vcc_lo, bit 0 = 1" in lines


@pytest.mark.slow
def test_a_64_bit_add_names_the_carry_and_its_writer(tmp_path):
    """The low half's `v_add_co_u32` made a subtract: the low register's
    lane is computed wrong there; the high register's add-with-carry got
    the wrong carry-in bit, traced to the same instruction."""
    ll, bad, at = mutant(tmp_path, "add64", "v_add_co_u32 v0, vcc_lo, v0, v2", "v_sub_co_u32 v0, vcc_lo, v0, v2")
    lines, c = run(ll, bad, "add64")
    assert c["cause"] == f"line {at} v_sub_co_u32: v0[0] computed by v_sub_co_u32"
    carry = (f"line {at} v_sub_co_u32: vcc_lo[0] = 1, the carry_in of line {at + 2} v_add_co_ci_u32_e64 for v1[0]; "
             "with 0 it gives the value wanted, 0x600")
    hi = next(t for t in lines if t.startswith("    ret.1[0] "))
    assert hi.endswith(f"  {carry}"), hi
    # the JSON keeps both registers' rows of the lane (the deciding one first)
    pieces = c["lanes"][0]["pieces"]
    assert [(p["output"], p["responsible"]) for p in pieces] == [("ret.0", c["cause"]), ("ret.1", carry)]
    assert c["lanes"][0]["responsible"] == c["cause"]
    assert (f"      line {at + 2} (v_add_co_ci_u32_e64 v1, null, v1, v3, vcc_lo): v1[0] computed by "
            "v_add_co_ci_u32_e64, its carry_in vcc_lo[0] = 1 in error: with 0 it gives the value wanted, 0x600") in lines


def test_a_mad_names_the_source_register(tmp_path):
    """`v_mad_u32_u24` multiplying by v2 for v1: the source and the
    register that holds the wanted value.  (v_fma_f32 adding v1 for v2 is
    named the same way, "v0[0] reads its src2 v1 = 0x200 (%b[0]); v2 holds
    0x300 (%c[0])", but its float refutation costs the solver 9 s.)"""
    ll, bad, at = mutant(tmp_path, "mad24", "v_mad_u32_u24 v0, v0, v1, v2", "v_mad_u32_u24 v0, v0, v2, v2")
    _, c = run(ll, bad, "mad24", text=False)
    assert c["cause"] == (f"line {at} v_mad_u32_u24: v0[0] reads its src1 v2 = 0x300 (%c[0]); v1 holds 0x200 "
                          "(%b[0]), with which it gives the value wanted, 0x20300")


def test_alignbit_and_perm(tmp_path):
    """`v_alignbit_b32` by 16 for 8: its constant; `v_perm_b32` fed by a
    shift of 16 for 8: the permute's source is the operand in error (the
    other holds what the IR wants), and the path goes back to the shift
    that computed it, the cause (computed from one register, it has no
    operand shown wrong)."""
    ll, bad, at = mutant(tmp_path, "align", "v_alignbit_b32 v0, v1, v0, 8", "v_alignbit_b32 v0, v1, v0, 16")
    _, c = run(ll, bad, "align", text=False)
    assert c["cause"].startswith(f"line {at} v_alignbit_b32: v0[0] takes the constant 16 as its src2; with 8 it "
                                 "gives the value wanted, "), c["cause"]
    ll, bad, at = mutant(tmp_path, "bytes", "v_lshlrev_b32_e32 v1, 8, v1", "v_lshlrev_b32_e32 v1, 16, v1")
    lines, c = run(ll, bad, "bytes")
    assert c["cause"] == (f"line {at} v_lshlrev_b32_e32: v1[0] = 0x10000 computed by v_lshlrev_b32_e32, where "
                          f"line {at + 2} v_perm_b32 needs 0x100 for the value wanted, 0x100")
    perm = next(t for t in lines if "(v_perm_b32 v0, v1, v0, 0xc0c0500)" in t)
    assert ": v0[0] computed by v_perm_b32, its src0 v1 = 0x10000 in error: with 0x100 " in perm, perm
    # --svg draws the same path: from the permute back through its src0 to the shift (framed) and its entry
    pic = tmp_path / "p.svg"
    cli("tv", ll, "--function", "bytes", "--target", "gfx1100", "--wave", "32", "--asm", str(bad), "--svg", str(pic),
        "--svg-full")
    svg = pic.read_text()
    assert svg.count('<line class="path" data-lane="0"') == 2, svg
    assert svg.count('<g class="column responsible"') == 1 and f'data-line="{at}"><title>v_lshlrev_b32_e32' in svg


def test_a_shaders_sgpr_add_names_the_sgpr_it_should_have_read(tmp_path):
    """An amdgpu_ps function's inreg SGPR sum, its last `s_add_i32` made to
    read s3 (%c's high half) for s2: the SGPR result's writer, the operand,
    and the SGPR argument that holds the value wanted; `--svg` draws the
    SGPRs as rows below the lanes."""
    root = Path(__file__).resolve().parent.parent
    ll = root / "tests/tv/llvm-shape/cc_readlane.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    body = asm[asm.index("\nps_sgpr_args_sum:"):]
    body = body[:body.index(".Lfunc_end")]
    assert body.count("\ts_add_i32 s0, s0, s2\n") == 1
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace(body, body.replace("\ts_add_i32 s0, s0, s2\n", "\ts_add_i32 s0, s0, s3\n")))
    at = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if t == "\ts_add_i32 s0, s0, s3")
    lines, c = run(str(ll), bad, "ps_sgpr_args_sum")
    pic = tmp_path / "s.svg"
    cli("tv", str(ll), "--function", "ps_sgpr_args_sum", "--target", "gfx1100", "--wave", "32", "--asm", str(bad),
        "--svg", str(pic))
    svg = pic.read_text()
    # the shader's SGPRs drawn below the lanes: its inreg arguments (tagged), the result's value and verdict, the
    # operand read in error red, the responsible column framed
    for reg, name, val in (("s0", "%a", "0x180"), ("s1", "%b", "0x280"), ("s2", "%c.0", "0x380")):
        assert (f'<g class="sgpr" data-reg="{reg}"><text x="12" y=' in svg and f'>{reg} {name}</text>' in svg
                and f'fill="#1f6fb4">{val}</text>' in svg), reg
    assert 'class="svalue path" data-step="-1"' in svg and 'font-weight="bold">0x480</text>' in svg
    assert 'font-weight="bold">0x880</text>' in svg and ">s0: IR 0x780, GPU 0x880</text>" in svg
    assert f'<g class="column responsible" data-column="3" data-line="{at}">' in svg, svg
    assert c["cause"] == (f"line {at} s_add_i32: s0 reads its ssrc1 s3 = 0x480 (%c.1); s2 holds 0x380 (%c.0), "
                          "with which it gives the value wanted, 0x780")
    assert any(t.startswith("    ret.s0[16]  0x780     0x880 computed at line ") for t in lines), lines
    assert (f"      line {at} (s_add_i32 s0, s0, s3): writes s0, its ssrc1 s3 = 0x480 (%c.1) in error: with 0x380 "
            "(%c.0, in s2) it gives the value wanted, 0x780") in lines


def branch_mutant(tmp_path: Path, new: str) -> tuple[str, Path, int]:
    """cf_if_else.ll's if_readfirstlane (a divergent if around a
    readfirstlane) by llc-22 for gfx1100 wave32, its v_cmpx mutated."""
    root = Path(__file__).resolve().parent.parent
    ll = root / "tests/tv/llvm-shape/cf_if_else.ll"
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    body = asm[asm.index("\nif_readfirstlane:"):]
    body = body[:body.index(".Lfunc_end")]
    assert body.count("\tv_cmpx_eq_u32_e32 0, v1\n") == 1
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace(body, body.replace("\tv_cmpx_eq_u32_e32 0, v1\n", f"\t{new}\n")))
    return str(ll), bad, next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if t == f"\t{new}")


@pytest.mark.slow
def test_a_branch_mask_that_lets_a_lane_in_names_the_compare(tmp_path):
    """`v_cmpx_eq` made `v_cmpx_ne`: lane 13 runs the then-block and is
    written, where left inactive it would keep %x[13], the IR's value:
    EXEC is the operand in error, and the v_cmpx that wrote it the cause."""
    ll, bad, at = branch_mutant(tmp_path, "v_cmpx_ne_u32_e32 0, v1")
    mov = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if t == "\tv_mov_b32_e32 v0, s1")
    lines, c = run(ll, bad, "if_readfirstlane")
    assert c["cause"] == (f"line {at} v_cmpx_ne_u32_e32: EXEC lane 13 = 1, so line {mov} v_mov_b32_e32 writes v0[13]; "
                          "inactive, the lane keeps 0x10d (%x[13]), the value wanted")
    assert f"      line {at} (v_cmpx_ne_u32_e32 0, v1): writes exec_lo = 0x2001, lane 13 active" in lines
    assert any(t.startswith("      13  0x10d %x[13]  0x100 %x[0]  ") for t in lines), lines


@pytest.mark.slow
def test_a_branch_skipped_for_a_lane_names_the_compare(tmp_path):
    """`v_cmpx_eq_u32 0, v1` made `1, v1`: no lane runs the then-block, so
    no instruction writes the result's lane; the v_cmpx that turned its
    EXEC bit off is named (before: "no instruction writes this lane")."""
    ll, bad, at = branch_mutant(tmp_path, "v_cmpx_eq_u32_e32 1, v1")
    _, c = run(ll, bad, "if_readfirstlane", text=False)
    lane = next(r["lane"] for r in c["lanes"] if r["differs"])
    assert c["cause"] == (f"line {at} v_cmpx_eq_u32_e32: EXEC lane {lane} = 0 (exec_lo = 0x0), and no instruction "
                          f"writes v0[{lane}]")


def test_a_lowerings_sgpr_output_names_the_operand_of_its_writer(tmp_path):
    """lowerings/vote/ballot_w32.s, its `s_mov_b32 s0, vcc_lo` made
    `s_or_b32 s0, vcc_lo, s1`: the SGPR output's writer reads s1 (an SGPR
    that holds nothing of the input), shown in error; vcc_lo holds the value
    with which it gives the spec's (the destination's old value does not
    count: it is no input)."""
    root = Path(__file__).resolve().parent.parent
    text = (root / "lowerings/vote/ballot_w32.s").read_text()
    assert text.count("\ns_mov_b32 s0, vcc_lo\n") == 1
    bad = tmp_path / "b.s"
    bad.write_text(text.replace("\ns_mov_b32 s0, vcc_lo\n", "\ns_or_b32 s0, vcc_lo, s1\n"))
    at = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if t == "s_or_b32 s0, vcc_lo, s1")
    code, out, _ = cli("lowering", str(bad), "--target", "gfx1100", "--json")
    assert code == 1, out
    c = json.loads(out)["results"][0]["counterexample"]
    assert c["cause"] == (f"line {at} s_or_b32: s0 reads its ssrc1 s1 = 0x280 (s1@entry); vcc_lo holds 0x1, with which "
                          "it gives the value wanted, 0x1")


def pick_mutant(tmp_path: Path) -> tuple[Path, Path, int, int]:
    """A compute shader that picks %a + 1 or %b + 2 on a uniform branch,
    by llc-22 for gfx1100 wave32, its `s_cmp_lg_u32` made `s_cmp_eq_u32`:
    (the IR, the mutant, the compare's line, the branch's line)."""
    ll = tmp_path / "b.ll"
    ll.write_text("define amdgpu_cs i32 @pick(i32 inreg %c, i32 inreg %a, i32 inreg %b) {\nentry:\n"
                  "  %cc = icmp eq i32 %c, 0\n  br i1 %cc, label %t, label %f\nt:\n  %x = add i32 %a, 1\n  ret i32 %x\n"
                  "f:\n  %y = add i32 %b, 2\n  ret i32 %y\n}\n")
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    assert asm.count("\ts_cmp_lg_u32 s0, 0\n") == 1 and "\ts_cbranch_scc0 .LBB0_2\n" in asm
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace("\ts_cmp_lg_u32 s0, 0\n", "\ts_cmp_eq_u32 s0, 0\n"))
    br = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if t == "\ts_cbranch_scc0 .LBB0_2")
    at = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if t == "\ts_cmp_eq_u32 s0, 0")
    return ll, bad, at, br


def test_a_branch_that_went_the_wrong_way_is_named(tmp_path):
    """pick_mutant: the SGPR result's writer is right for the path it is
    on; replayed with the branch going the other way, the code gives the
    IR's value, so the compare that set the SCC the branch read is named,
    with the SCC a correct program holds, and the path from it to the
    branch."""
    ll, bad, at, br = pick_mutant(tmp_path)
    lines, c = run(str(ll), bad, "pick")
    assert c["cause"] == (f"line {at} s_cmp_eq_u32: SCC = 0, a correct program would hold 1 -> line {br} "
                          "s_cbranch_scc0 taken, the path to the GPU value; the other way it gives the value wanted, "
                          "0x382")
    assert (f"      line {at} (s_cmp_eq_u32 s0, 0): SCC = 0 (a correct program would hold 1) -> line {br} "
            "(s_cbranch_scc0 .LBB0_2): taken; the other way the code gives the value wanted") in lines


def test_the_picture_draws_the_branch_the_path_took(tmp_path):
    """pick_mutant's `--svg`: the branch is a column of its own, between
    the compare and the block it went to, saying it was taken and the SCC
    it read; the compare's column is the responsible one."""
    ll, bad, at, br = pick_mutant(tmp_path)
    pic = tmp_path / "p.svg"
    code, out, _ = cli("tv", str(ll), "--function", "pick", "--target", "gfx1100", "--wave", "32", "--asm", str(bad),
                       "--svg", str(pic))
    assert code == 1, out
    svg = pic.read_text()
    cols = re.findall(r'<g class="column( responsible)?( branch)?" data-column="(\d+)" data-line="(\d+)">', svg)
    branch = [(int(k), int(line)) for resp, b, k, line in cols if b]
    assert [line for _, line in branch] == [br], cols
    compare = [(int(k), bool(resp)) for resp, b, k, line in cols if int(line) == at]
    assert compare == [(branch[0][0] - 1, True)], cols  # the compare just before the branch, responsible
    assert '<text class="branch taken"' in svg and ">branch taken</text>" in svg
    assert ">SCC = 0</text>" in svg and ">s_cbranch_scc0</text>" in svg


@pytest.mark.slow
def test_a_vcc_branch_names_the_compare_through_the_exec_mask(tmp_path):
    """A compute shader that picks on a float compare of an inreg argument
    (llc-22 gfx1100 wave32: `v_cmp_nlt_f32_e64 s0, s0, 1.0`, `s_and_b32
    vcc_lo, exec_lo, s0`, `s_cbranch_vccnz`), its compare made `v_cmp_lt`:
    the VCC the branch read is traced back through the s_and with EXEC (the
    active lanes' bits as they were) to the compare, which is named first,
    with the SGPR it wrote."""
    ll = tmp_path / "f.ll"
    ll.write_text("define amdgpu_cs float @fpick(float inreg %c, float inreg %a, float inreg %b) {\nentry:\n"
                  "  %cc = fcmp olt float %c, 1.0\n  br i1 %cc, label %t, label %f\nt:\n  %x = fadd float %a, 1.0\n"
                  "  ret float %x\nf:\n  %y = fadd float %b, 2.0\n  ret float %y\n}\n")
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ll.read_text(), capture_output=True, text=True, check=True).stdout
    assert asm.count("\tv_cmp_nlt_f32_e64 s0, s0, 1.0\n\ts_and_b32 vcc_lo, exec_lo, s0\n\ts_cbranch_vccnz .LBB0_2\n") == 1
    bad = tmp_path / "m.s"
    bad.write_text(asm.replace("\tv_cmp_nlt_f32_e64 s0, s0, 1.0\n", "\tv_cmp_lt_f32_e64 s0, s0, 1.0\n"))
    at = next(n for n, t in enumerate(bad.read_text().splitlines(), 1) if t == "\tv_cmp_lt_f32_e64 s0, s0, 1.0")
    _, c = run(str(ll), bad, "fpick", text=False)
    assert c["cause"] == (f"line {at} v_cmp_lt_f32_e64: s0 = 0x1 -> line {at + 1} s_and_b32: vcc_lo = 0x1, a correct "
                          f"program would hold VCC = 0 -> line {at + 2} s_cbranch_vccnz taken, the path to the GPU "
                          "value; the other way it gives the value wanted, 0x3f800000")
