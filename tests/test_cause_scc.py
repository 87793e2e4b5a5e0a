"""Causes through SCC (issue #34): an SCC an SALU logic op wrote
(`s_and_b32 s0, s0, s1` then `s_cbranch_scc0`), a mask made by
`s_cselect_b32 s1, -1, 0` from a compare's SCC, and a value `s_cselect_b32
s0, s2, s3` picked on an `s_and` with EXEC, each traced back to the line
that went wrong  [S:cause-scc-logic]."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytestmark = pytest.mark.skipif(shutil.which("llc-22") is None, reason="llc-22 not installed")

HEAD = """\
define amdgpu_kernel void @{name}(ptr addrspace(1) %out, i32 %a, i32 %b, i32 %x, i32 %y) {{
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %tid
{body}
}}
declare i32 @llvm.amdgcn.workitem.id.x()
"""
BRANCH = """\
  br i1 %cc, label %t1, label %f
t1:
  %v = add i32 %x, %tid
  store i32 %v, ptr addrspace(1) %p
  ret void
f:
  %w = add i32 %y, %tid
  store i32 %w, ptr addrspace(1) %p
  ret void"""


def mutant(tmp_path: Path, name: str, body: str, old: str, new: str) -> tuple[Path, Path, int]:
    """The kernel compiled by llc-22 for gfx1100 wave32, its one line `old`
    made `new`: (the .ll, the mutant .s, the changed line's number)."""
    ir = HEAD.format(name=name, body=body)
    ll = tmp_path / "k.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    lines = asm.splitlines()
    assert lines.count(f"\t{old}") == 1, asm
    at = lines.index(f"\t{old}")
    lines[at] = f"\t{new}"
    bad = tmp_path / "m.s"
    bad.write_text("\n".join(lines) + "\n")
    return ll, bad, at + 1


def run(ll: Path, bad: Path) -> list[str]:
    code, out, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "32", "--asm", str(bad))
    assert code == 1, out
    return out.splitlines()


def cause(out: list[str]) -> str:
    return next(x for x in out if x.startswith("    cause: "))[len("    cause: "):]


@pytest.mark.slow
def test_a_branch_on_an_and_s_scc_names_the_logic_op(tmp_path):
    """`icmp eq (and %a, %b), 0` in a compute shader: llc-22 branches on
    the SCC of `s_and_b32 s0, s0, s1` (no compare); made `s_or_b32`, the SCC
    is wrong where a | b is not zero and a & b is: the s_or is named with
    the SCC a correct program holds, then the branch."""
    ir = ("define amdgpu_cs float @sand(i32 inreg %a, i32 inreg %b, float inreg %x, float inreg %y) {\nentry:\n"
          "  %t = and i32 %a, %b\n  %cc = icmp eq i32 %t, 0\n  br i1 %cc, label %t1, label %f\nt1:\n"
          "  %v = fadd float %x, 1.0\n  ret float %v\nf:\n  %w = fadd float %y, 2.0\n  ret float %w\n}\n")
    ll = tmp_path / "s.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", "-mattr=+wavefrontsize32"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    lines = asm.splitlines()
    at = lines.index("\ts_and_b32 s0, s0, s1") + 1
    assert lines[at] == "\ts_cbranch_scc0 .LBB0_2", asm
    lines[at - 1] = "\ts_or_b32 s0, s0, s1"
    bad = tmp_path / "m.s"
    bad.write_text("\n".join(lines) + "\n")
    out = run(ll, bad)
    c = cause(out)
    assert c.startswith(f"line {at} s_or_b32: SCC = 1, a correct program would hold 0 -> line {at + 1} "
                        "s_cbranch_scc0 not taken, the path to the GPU value"), c
    assert (f"      line {at} (s_or_b32 s0, s0, s1): SCC = 1 (a correct program would hold 0) -> line {at + 1} "
            "(s_cbranch_scc0 .LBB0_2): not taken; the other way the code gives the value wanted") in out, out


@pytest.mark.slow
def test_a_vcc_from_s_cselect_masks_names_the_compare(tmp_path):
    """`or i1 (icmp eq %a, 7), (icmp ult %b, 5)`: llc-22 computes the
    inverse, `s_cmp_lg_u32 s0, 7` / `s_cmp_gt_u32 s1, 4` each made a mask
    by `s_cselect_b32 sN, -1, 0`, `s_and_b32 s0, s0, s1`, `s_and_b32 vcc_lo,
    exec_lo, s0`, `s_cbranch_vccnz`.  The second compare made `s_cmp_gt_u32
    s1, 5` is wrong at b = 5: traced from VCC through the s_and (s1 alone
    stands in the way: s0 is not 0) and the s_cselect (the SCC it read) to
    the compare, named first (the trace used to stop at the s_and)."""
    body = "  %c1 = icmp eq i32 %a, 7\n  %c2 = icmp ult i32 %b, 5\n  %cc = or i1 %c1, %c2\n" + BRANCH
    ll, bad, at = mutant(tmp_path, "kcmp", body, "s_cmp_gt_u32 s1, 4", "s_cmp_gt_u32 s1, 5")
    lines = bad.read_text().splitlines()
    assert lines[at] == "\ts_cselect_b32 s1, -1, 0" and lines[at + 2] == "\ts_and_b32 s0, s0, s1", lines[at - 3:at + 6]
    vcc = lines.index("\ts_and_b32 vcc_lo, exec_lo, s0") + 1
    c = cause(run(ll, bad))
    assert c.startswith(f"line {at} s_cmp_gt_u32: SCC = 0 -> line {at + 1} s_cselect_b32: s1 = 0x0 -> "
                        f"line {at + 3} s_and_b32: s0 = 0x0 -> line {vcc} s_and_b32: vcc_lo = 0x0, a correct "
                        f"program would hold VCC != 0 -> line {vcc + 1} s_cbranch_vccnz not taken, the path to the "
                        "GPU value"), c


def test_a_value_picked_by_s_cselect_names_the_compare(tmp_path):
    """`select (and i1 (icmp eq %a, 7), (icmp ult %b, 5)), %x + tid, %y +
    tid`: llc-22 picks `s_cselect_b32 s0, s2, s3` on the SCC of `s_and_b32
    s0, s0, exec_lo`; the second compare made `s_cmp_lt_u32 s1, 4` is wrong
    at b = 4.  The stored value's wrong s0 is traced to the s_cselect (its
    other source is the value wanted), its SCC through both s_ands and the
    mask's s_cselect to the compare, named first (the trace used to stop
    at the v_add that read s0)."""
    body = ("  %c1 = icmp eq i32 %a, 7\n  %c2 = icmp ult i32 %b, 5\n  %cc = and i1 %c1, %c2\n"
            "  %v = add i32 %x, %tid\n  %w = add i32 %y, %tid\n  %s = select i1 %cc, i32 %v, i32 %w\n"
            "  store i32 %s, ptr addrspace(1) %p\n  ret void")
    ll, bad, at = mutant(tmp_path, "ksel", body, "s_cmp_lt_u32 s1, 5", "s_cmp_lt_u32 s1, 4")
    lines = bad.read_text().splitlines()
    assert lines[at:at + 5] == ["\ts_cselect_b32 s1, -1, 0", "\ts_delay_alu instid0(SALU_CYCLE_1) | instskip(NEXT) | "
                                "instid1(SALU_CYCLE_1)", "\ts_and_b32 s0, s0, s1", "\ts_and_b32 s0, s0, exec_lo",
                                "\ts_cselect_b32 s0, s2, s3"], lines[at:at + 5]
    out = run(ll, bad)
    # the same bytes when asked again in this process (skeleton_unsat's
    # terms are freed when it returns, not whenever the cycle collector
    # runs: z3 reuses freed ids, and ids order the solver's work)
    assert run(ll, bad) == out
    c = cause(out)
    assert c.startswith(f"line {at} s_cmp_lt_u32: SCC = 0 -> line {at + 1} s_cselect_b32: s1 = 0x0 -> line {at + 3} "
                        f"s_and_b32: s0 = 0x0 -> line {at + 4} s_and_b32: SCC = 0 -> line {at + 5} s_cselect_b32: s0 = "
                        ), c
    assert "a correct program would hold" in c and "(in s2)" in c, c
    steps = out[out.index("    lane 0, step by step:") + 1:]
    assert [s.split(")")[0] for s in steps[:5]] == [f"      line {n} ({t}" for n, t in (
        (at, "s_cmp_lt_u32 s1, 4"), (at + 1, "s_cselect_b32 s1, -1, 0"), (at + 3, "s_and_b32 s0, s0, s1"),
        (at + 4, "s_and_b32 s0, s0, exec_lo"), (at + 5, "s_cselect_b32 s0, s2, s3"))], steps


def test_the_one_mask_input_in_error():
    """explain.mask_input: of an `s_and`/`s_or`/`s_andn2` of two SGPRs
    whose result is zero where a correct program's is not (or the other
    way), the one input that alone stands in the way, the bits of it that
    decide and whether those are nonzero in a correct program; None where
    either input could be the one."""
    from types import SimpleNamespace

    from verify.explain import mask_input
    from verify.ir import SReg

    def ins(base: str) -> SimpleNamespace:
        return SimpleNamespace(base=base, operands=[SReg(("s2",)), SReg(("s0",)), SReg(("s1",))])
    M = 0xFFFFFFFF
    # a & b zero, nonzero wanted: s0 = 0 is alone (s1 is not 0), on s1's bits
    assert mask_input(ins("s_and_b32"), {"s0": 0, "s1": 0x6}, M, True) == (("s0",), 0x6, True)
    assert mask_input(ins("s_and_b32"), {"s0": 0x3, "s1": 0x1}, M, False) is None  # zero wanted: either
    # a | b not zero, zero wanted: s1 alone where s0 is 0; nonzero wanted: either
    assert mask_input(ins("s_or_b32"), {"s0": 0, "s1": 0x10}, M, False) == (("s1",), M, False)
    assert mask_input(ins("s_or_b32"), {"s0": 0, "s1": 0}, M, True) is None
    # a & ~b zero, nonzero wanted: where a is 0 and ~b is not, a alone; where b covers a, b alone (zero there)
    assert mask_input(ins("s_andn2_b32"), {"s0": 0, "s1": 0xF0}, M, True) == (("s0",), 0xFFFFFF0F, True)
    assert mask_input(ins("s_and_not1_b32"), {"s0": 0x3, "s1": M}, M, True) == (("s1",), 0x3, False)
    assert mask_input(ins("s_andn2_b32"), {"s0": 0x1, "s1": 0x0}, M, False) is None
    assert mask_input(ins("s_xor_b32"), {"s0": 0x1, "s1": 0x1}, M, True) is None


def shader(tmp_path: Path, ir: str, wave: int, old: str, new: str) -> tuple[Path, Path, int]:
    """A compute shader compiled by llc-22 for gfx1100 (`wave`), its one
    line `old` made `new`: (the .ll, the mutant .s, the changed line's number)."""
    ll = tmp_path / "s.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1100", f"-mattr=+wavefrontsize{wave}"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    lines = asm.splitlines()
    assert lines.count(f"\t{old}") == 1, asm
    at = lines.index(f"\t{old}")
    lines[at] = f"\t{new}"
    bad = tmp_path / "m.s"
    bad.write_text("\n".join(lines) + "\n")
    return ll, bad, at + 1


def test_a_wave64_lane_mask_from_s_cselect_b64_names_the_u64_compare(tmp_path):
    """`select (icmp eq i64 %a, 7), %x, %y` in a wave64 compute shader:
    llc-22 makes the lane mask `s_cselect_b64 vcc, -1, 0` from the SCC of
    `s_cmp_eq_u64 s[0:1], 7` for `v_cndmask_b32 v0, v1, v0, vcc`.  The
    compare made `s_cmp_eq_u64 s[0:1], 8` is wrong at a = 8: the mask's
    bit is traced through the s_cselect_b64 (its other source, 0, has the
    bit wanted; the inline -1 is all 64 bits) to the compare, named first
    (the trace used to stop at the s_cselect_b64)."""
    ir = ("define amdgpu_cs float @sel64(i64 inreg %a, float %x, float %y) {\nentry:\n"
          "  %c = icmp eq i64 %a, 7\n  %r = select i1 %c, float %x, float %y\n  ret float %r\n}\n")
    ll, bad, at = shader(tmp_path, ir, 64, "s_cmp_eq_u64 s[0:1], 7", "s_cmp_eq_u64 s[0:1], 8")
    lines = bad.read_text().splitlines()
    assert lines[at:at + 2] == ["\ts_cselect_b64 vcc, -1, 0", "\tv_cndmask_b32_e32 v0, v1, v0, vcc"], lines[at:at + 2]
    code, out, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", "64", "--asm", str(bad))
    assert code == 1, out
    c = cause(out.splitlines())
    assert c.startswith(f"line {at} s_cmp_eq_u64: SCC = 1 -> line {at + 1} s_cselect_b64: vcc[0] = 1, a correct "
                        f"program would hold 0 -> line {at + 2} v_cndmask_b32_e32 for v0[0], the value wanted, "), c
    assert f"      line {at + 1} (s_cselect_b64 vcc, -1, 0): vcc[0] = 1 (SCC = 1); with SCC = 0 it holds 0" in out, out


def test_a_value_s_cselect_picks_wrongly_names_the_s_cselect(tmp_path):
    """The select of test_a_value_picked_by_s_cselect_names_the_compare
    with the compares right and the s_cselect made `s_cselect_b32 s0, s2,
    s2`: where SCC is 0 it picks %x + tid's s2 where s3 holds the value
    wanted.  Neither SCC gives the value wanted, so the compares are not
    named: the s_cselect is, with the register that holds the value."""
    body = ("  %c1 = icmp eq i32 %a, 7\n  %c2 = icmp ult i32 %b, 5\n  %cc = and i1 %c1, %c2\n"
            "  %v = add i32 %x, %tid\n  %w = add i32 %y, %tid\n  %s = select i1 %cc, i32 %v, i32 %w\n"
            "  store i32 %s, ptr addrspace(1) %p\n  ret void")
    ll, bad, at = mutant(tmp_path, "ksel", body, "s_cselect_b32 s0, s2, s3", "s_cselect_b32 s0, s2, s2")
    out = run(ll, bad)
    c = cause(out)
    assert c.startswith(f"line {at} s_cselect_b32: picks s2 = "), c
    assert ", where s3 holds " in c and ", the value a correct program holds in s0 -> line " in c, c
    assert any(x.startswith(f"      line {at} (s_cselect_b32 s0, s2, s2): picks s2 = ") and x.endswith("(s3 does)")
               for x in out), out


def test_what_scc_an_s_cselect_b64_read():
    """explain.cselect_scc on the 64-bit forms: the inline -1 is all 64
    bits (`s_cselect_b64 vcc, -1, 0` writing all ones read SCC = 1; with
    SCC = 0 it writes 0), a pair's two halves are one value."""
    from verify.asmcheck import parse_line
    from verify.diag import Span
    from verify.explain import cselect_scc
    M = 0xFFFFFFFF
    ins = parse_line("s_cselect_b64 vcc, -1, 0", Span("t.s", 1, 1))
    assert cselect_scc(ins, {}, {"vcc_lo": M, "vcc_hi": M}) == (1, 0)
    assert cselect_scc(ins, {}, {"vcc_lo": 0, "vcc_hi": 0}) == (0, (1 << 64) - 1)
    assert cselect_scc(ins, {}, {"vcc_lo": M, "vcc_hi": 0}) is None  # (neither source: not an s_cselect's result)
    ins = parse_line("s_cselect_b64 s[4:5], s[0:1], s[2:3]", Span("t.s", 1, 1))
    before = {"s0": 1, "s1": 2, "s2": 3, "s3": 4}
    assert cselect_scc(ins, before, {"s4": 3, "s5": 4}) == (0, (2 << 32) | 1)


SEL64 = """\
define amdgpu_kernel void @sel64(ptr addrspace(1) %out, i32 %a, i64 %x, i64 %y) {
entry:
  %cc = icmp eq i32 %a, 7
  %s = select i1 %cc, i64 %x, i64 %y
  store i64 %s, ptr addrspace(1) %out
  ret void
}
"""


def test_an_i64_value_picked_by_s_cselect_b64_names_the_compare(tmp_path):
    """An i64 `select` of two kernel arguments: llc-22 -global-isel picks
    it whole with `s_cselect_b64 s[0:1], s[0:1], s[2:3]` on the SCC of
    `s_cmp_eq_u32 s6, 7` (SelectionDAG splits it into two s_cselect_b32),
    then `v_dual_mov_b32 v0, s0 :: ...` and `global_store_b64`.  The compare made `s6,
    8`: the stored low word's s0 is traced through the s_cselect_b64 (with
    the other SCC it holds the value wanted) to the compare, named first
    (the trace used to stop at the s_cselect_b64: "writes s0"; the
    compare was named only by the replay with SCC the other way, without
    the path through the s_cselect)."""
    from helpers import llc_asm, mutate, tv_on_asm
    src = tmp_path / "sel64.ll"
    src.write_text(SEL64)
    asm = mutate(llc_asm(src, "gfx1100", "-mattr=+wavefrontsize32", "-global-isel"), "\ts_cmp_eq_u32 s6, 7\n",
                 "\ts_cmp_eq_u32 s6, 8\n")
    lines = asm.splitlines()
    at = lines.index("\ts_cmp_eq_u32 s6, 8") + 1
    assert lines[at] == "\ts_cselect_b64 s[0:1], s[0:1], s[2:3]", lines[at - 1:at + 4]
    mov = next(n for n, t in enumerate(lines, 1) if t.startswith("\tv_dual_mov_b32 v0, s0 ::"))  # (a VOPD pair)
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "32")
    assert code == 1 and r["verdict"] == "refuted", r
    c = r["counterexample"]
    row = next(x for x in c["lanes"] if x.get("differs"))
    want, got = row["expected"], row["actual"]  # (a kernel's row: the stored words)
    assert c["cause"] == (f"line {at} s_cmp_eq_u32: SCC = 1 -> line {at + 1} s_cselect_b64: s0 = {got:#x}, a correct "
                          f"program would hold {want:#x} -> line {mov} v_mov_b32_e32 for v0[{row['lane']}], the value "
                          f"wanted, {want:#x}"), c["cause"]
    assert (f"line {at + 1} (s_cselect_b64 s[0:1], s[0:1], s[2:3]): s0 = {got:#x} (SCC = 1); with SCC = 0 it holds "
            f"{want:#x}") in row["trace"], row["trace"]


@pytest.mark.slow
def test_a_wave64_mask_made_by_s_cselect_b64_through_an_s_and_b64_names_the_s_cselect(tmp_path):
    """`select (select i1 (icmp eq %a, 7), i1 (fcmp olt %u, 1.0), i1
    false), %x, %y` in a wave64 compute shader: llc-22 makes the uniform
    half `s_cselect_b64 s[0:1], -1, 0`, ANDs it with the compare's VCC
    (`s_and_b64 vcc, s[0:1], vcc`) for `v_cndmask_b32`.  The s_cselect made
    `s_cselect_b64 s[0:1], 0, 0` clears the mask where a = 7 and u < 1:
    VCC's bit is 0 where 1 is wanted, and of the s_and's inputs only
    s[0:1] is 0 there, so the path goes through the s_and_b64 to the
    s_cselect_b64, named first (the trace used to stop at the s_and_b64)."""
    from helpers import llc_asm, mutate, tv_on_asm
    src = tmp_path / "selm.ll"
    src.write_text("define amdgpu_cs float @selm(i32 inreg %a, float %x, float %y, float %u) {\nentry:\n"
                   "  %ucc = icmp eq i32 %a, 7\n  %d1 = fcmp olt float %u, 1.0\n"
                   "  %m = select i1 %ucc, i1 %d1, i1 false\n  %r = select i1 %m, float %x, float %y\n"
                   "  ret float %r\n}\n")
    asm = mutate(llc_asm(src, "gfx1100", "-mattr=+wavefrontsize64", triple="amdgcn"),
                 "\ts_cselect_b64 s[0:1], -1, 0\n", "\ts_cselect_b64 s[0:1], 0, 0\n")
    lines = asm.splitlines()
    at = lines.index("\ts_cselect_b64 s[0:1], 0, 0") + 1
    sand = lines.index("\ts_and_b64 vcc, s[0:1], vcc") + 1
    assert lines[sand] == "\tv_cndmask_b32_e32 v0, v1, v0, vcc", lines[sand - 1:sand + 1]
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "64")
    assert code == 1 and r["verdict"] == "refuted", r
    c = r["counterexample"]
    row = next(x for x in c["lanes"] if x.get("differs"))
    i = row["lane"]
    assert c["cause"] == (f"line {at} s_cselect_b64: s0:s1 = 0x0 -> line {sand} s_and_b64: vcc[{i}] = 0, a correct "
                          f"program would hold 1 -> line {sand + 1} v_cndmask_b32_e32 for v0[{i}], the value wanted, "
                          f"{row['ir']}"), c["cause"]
