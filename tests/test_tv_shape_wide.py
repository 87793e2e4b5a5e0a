"""`verify tv` on the 16- and 64-bit GPU code LLVM 22 emits around the
cross-lane intrinsics (tests/tv/llvm-shape/wide_*.ll, in the shape of
LLVM's own AMDGPU tests): GFX11 true16 halves [S:true16], v_bfi_b32 /
v_alignbit_b32 / v_perm_b32 [S:bitfield-ops], 64-bit carries, compares and
shifts, GFX8's carry spellings [S:carry-gfx8], 64-bit whole-wave spills
[S:spill64], and the IR's i64 and <2 x i16> arithmetic (verify/tv/wideir.py).
One-token mutants of LLVM's output are refuted."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify.tv.compile import run_line_instances
from verify.tv.llir import run_lines

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"
WIDE = sorted(SHAPE.glob("wide_*.ll"))
LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")



def llc(path: Path, cpu: str, wave: int) -> str:
    assert LLC is not None
    attr = [] if cpu.startswith("gfx9") or cpu.startswith("gfx8") else [f"-mattr=+wavefrontsize{wave}"]
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O2", *attr, str(path), "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


def results(*args: str) -> tuple[int, list[dict]]:
    code, out, _ = cli("tv", *args, "--json")
    return code, json.loads(out)["results"]


def function_text(text: str, name: str) -> tuple[int, int]:
    m = re.search(rf"^{name}:.*?s_setpc_b64", text, re.S | re.M)
    assert m is not None, name
    return m.start(), m.end()


def mutate(tmp_path: Path, text: str, fn: str, good: str, bad: str) -> str:
    """`text` with `good` replaced by `bad` inside function `fn` (it must be there)."""
    a, b = function_text(text, fn)
    body = text[a:b]
    assert good in body, (fn, good, body)
    p = tmp_path / "m.s"
    p.write_text(text[:a] + body.replace(good, bad, 1) + text[b:])
    return str(p)


def verdict(src: Path, cpu: str, wave: int, asm: str, fn: str, *more: str) -> str:
    code, rs = results(str(src), "--target", cpu, "--wave", str(wave), "--asm", asm, "--function", fn, *more)
    (r,) = rs
    assert code == {"proved": 0, "refuted": 1, "unknown": 3}.get(r["verdict"], 2), (code, r)
    return str(r["verdict"])


def check_mutant(tmp_path: Path, src: Path, cpu: str, wave: int, fn: str, good: str, bad: str) -> None:
    """LLVM's code for `fn` is proved; the one-token mutant is refuted."""
    text = llc(src, cpu, wave)
    orig = tmp_path / "o.s"
    orig.write_text(text)
    assert verdict(src, cpu, wave, str(orig), fn) == "proved"
    assert verdict(src, cpu, wave, mutate(tmp_path, text, fn, good, bad), fn) == "refuted"


def test_wide_files_have_the_llvm_test_shape():
    assert len(WIDE) >= 9
    for p in WIDE:
        text = p.read_text()
        assert len(run_line_instances(str(p), run_lines(text))) >= 2, p
        assert text.count("define ") >= 4, p


@needs_llc
def test_true16_mutant_writing_the_other_half_is_refuted(tmp_path):
    """insert_lo keeps the high element through `v_mov_b16 v1.h, v0.h`; writing
    v1.l instead leaves v1.h as it was and clobbers the inserted element."""
    check_mutant(tmp_path, SHAPE / "vector_ops.ll", "gfx1100", 32, "insert_lo",
                 "v_mov_b16_e32 v1.h, v0.h", "v_mov_b16_e32 v1.l, v0.h")


@needs_llc
@pytest.mark.slow
def test_true16_swap_mutant_reading_the_wrong_half_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "vector_ops.ll", "gfx1100", 32, "swap_halves",
                 "v_mov_b16_e32 v1.l, v0.h", "v_mov_b16_e32 v1.l, v0.l")


def test_true16_write_keeps_the_other_half():
    """A write of v1.l leaves v1.h: the machine on one lane [S:true16]."""
    from verify.asmcheck import parse_line
    from verify.backend import Concrete
    from verify.diag import Span
    from verify.machine import Machine
    from verify.target import FeatureLog, get

    m = Machine(Concrete(), 32, initial=lambda kind, name, lane: 0, target=FeatureLog(get("gfx1100")))
    m.set_exec_mask(0b01)
    m.write_v(0, [0xAAAABBBB] * 32, [True] * 32)
    m.write_v(1, [0x11112222] * 32, [True] * 32)
    prog = [parse_line(t, Span("t.s", k + 1)) for k, t in enumerate(
        ["v_mov_b16_e32 v1.l, v0.h", "v_mov_b16_e64 v2.h, v0.l", "v_mov_b16_e32 v3.h, 0x1234"])]
    m.run(prog)
    assert (m.v(1)[0], m.v(1)[1]) == (0x1111AAAA, 0x11112222)  # lane 1 inactive: unchanged
    assert m.v(2)[0] == 0xBBBB0000 and m.v(3)[0] == 0x12340000


def test_true16_halves_are_not_32_bit_operands():
    from verify.asmcheck import parse_line
    from verify.diag import InputError, Span
    from verify.ops.base import op_of
    from verify.target import get

    with pytest.raises(InputError, match="must be a 32-bit operand"):
        parse_line("v_mov_b32_e32 v0, v1.l", Span("t.s", 1))
    with pytest.raises(InputError, match="must be a VGPR half"):
        parse_line("v_mov_b16_e32 v0, v1.l", Span("t.s", 1))
    ins = parse_line("v_mov_b16_e32 v1.l, v0.l", Span("t.s", 1))
    op_of(ins.base).check(ins, get("gfx1100"), 32)
    for t in ("gfx942", "gfx1030", "gfx1200"):  # llvm-mc-22: "instruction not supported on this GPU"
        with pytest.raises(InputError, match=f"v_mov_b16_e32 is not available on {t}"):
            op_of(ins.base).check(ins, get(t), 32)


@needs_llc
def test_true16_add_mutant_writing_the_high_half_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_packed.ll", "gfx1100", 32, "dpp_i16_add",
                 "v_add_nc_u16 v0.l, v2.l, v1.l", "v_add_nc_u16 v0.h, v2.l, v1.l")


@needs_llc
@pytest.mark.slow
def test_packed_shift_mutant_reading_the_low_half_for_the_high_result_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_packed.ll", "gfx942", 64, "dpp_v2i16_lshr",
                 "v_pk_lshrrev_b16 v0, 3, v1 op_sel_hi:[0,1]", "v_pk_lshrrev_b16 v0, 3, v1 op_sel_hi:[0,0]")


@needs_llc
@pytest.mark.slow
def test_packed_sub_mutant_adding_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_packed.ll", "gfx1200", 64, "readlane_v2i16_sub",
                 "v_pk_sub_i16", "v_pk_add_u16")


# ---- 64-bit DPP (row_newbcast) and v_pk_mov_b32 ----------------------------------

@needs_llc
def test_b64_dpp_mutant_broadcasting_another_lane_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_dpp64.ll", "gfx942", 64, "newbcast_i64_masks",
                 "v_mov_b64_dpp v[0:1], v[2:3] row_newbcast:2", "v_mov_b64_dpp v[0:1], v[2:3] row_newbcast:3")


@needs_llc
def test_b64_dpp_mutant_writing_every_row_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_dpp64.ll", "gfx942", 64, "newbcast_i64_masks",
                 "row_newbcast:2 row_mask:0x5", "row_newbcast:2 row_mask:0xf")


@needs_llc
def test_gfx90a_high_half_newbcast_mutant_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_dpp64.ll", "gfx90a", 64, "newbcast_i64_masks",
                 "v_mov_b32_dpp v1, v3 row_newbcast:2", "v_mov_b32_dpp v1, v3 row_newbcast:1")


def test_pk_mov_b32_picks_a_dword_of_each_source():
    """[S:pk-mov-b32]: D.lo = dword op_sel[0] of S0, D.hi = dword op_sel[1] of S1;
    legal on gfx90a+, not on gfx908."""
    from verify.asmcheck import parse_line
    from verify.backend import Concrete
    from verify.diag import InputError, Span
    from verify.machine import Machine
    from verify.ops.base import op_of
    from verify.target import FeatureLog, get

    m = Machine(Concrete(), 64, initial=lambda kind, name, lane: 0, target=FeatureLog(get("gfx90a")))
    m.set_exec_mask(1)
    for r, v in ((2, 0x22), (3, 0x33), (4, 0x44), (5, 0x55)):
        m.write_v(r, [v] * 64, [True] * 64)
    ins = parse_line("v_pk_mov_b32 v[0:1], v[2:3], v[4:5] op_sel:[1,0]", Span("t.s", 1))
    op_of(ins.base).check(ins, get("gfx90a"), 64)
    m.run([ins])
    assert (m.v(0)[0], m.v(1)[0], m.v(0)[1]) == (0x33, 0x44, 0)
    with pytest.raises(InputError, match="not available on gfx908"):
        op_of(ins.base).check(ins, get("gfx908"), 64)


# ---- bitfield ops --------------------------------------------------------------

@pytest.mark.slow
@needs_llc
def test_alignbit_mutant_rotating_by_8_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "vector_ops.ll", "gfx942", 64, "swap_halves",
                 "v_alignbit_b32 v0, v0, v0, 16", "v_alignbit_b32 v0, v0, v0, 8")


@needs_llc
@pytest.mark.slow
def test_bfi_mutant_with_its_sources_swapped_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "vector_ops.ll", "gfx942", 64, "insert_lo",
                 "v_bfi_b32 v1, s0, v1, v0", "v_bfi_b32 v1, s0, v0, v1")


# ---- 64-bit carries, compares, DPP of the high half ------------------------------

@pytest.mark.slow
@needs_llc
def test_i64_add_mutant_dropping_the_carry_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_dpp_i64.ll", "gfx90a", 64, "dpp_i64_add",
                 "v_addc_co_u32_e32 v1, vcc, v5, v3, vcc", "v_add_u32_e32 v1, v5, v3")


@needs_llc
def test_i64_dpp_mutant_changing_the_high_halfs_control_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_dpp_i64.ll", "gfx1100", 32, "dpp_i64_add",
                 "v_mov_b32_dpp v4, v1 row_shr:1", "v_mov_b32_dpp v4, v1 row_shr:2")


@needs_llc
@pytest.mark.slow
def test_u64_compare_mutant_comparing_signed_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_lane_i64.ll", "gfx1100", 32, "readlane_i64_umin",
                 "v_cmp_gt_u64_e32", "v_cmp_gt_i64_e32")


@pytest.mark.slow
@needs_llc
def test_gfx8_carry_mutant_subtracting_the_high_half_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_lane_i64.ll", "gfx803", 64, "readfirstlane_i64_add",
                 "v_addc_u32_e32 v1, vcc, v1, v3, vcc", "v_subb_u32_e32 v1, vcc, v1, v3, vcc")


@needs_llc
def test_i64_sub_with_a_reversed_dpp_subtract_depends_on_dpp_rev_operand(tmp_path):
    """llc-22 folds the DPP move of an i64 `sub %y, (update.dpp %x)` into
    `v_subrev_co_u32_e64_dpp` on GFX11/GFX12: refuted under the default
    dpp.rev_operand=src1 (the swizzle lands on the printed src1, LLVM
    #216835, Mesa ACO), proved under src0 [S:dpp-rev]."""
    src = tmp_path / "sub.ll"
    src.write_text("; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s\n"
                   "define i64 @dpp_i64_sub(i64 %x, i64 %y) {\n"
                   "  %r = call i64 @llvm.amdgcn.update.dpp.i64(i64 0, i64 %x, i32 273, i32 15, i32 15, i1 false)\n"
                   "  %s = sub i64 %y, %r\n  ret i64 %s\n}\n")
    text = llc(src, "gfx1100", 32)
    assert "v_subrev_co_u32_e64_dpp" in text
    asm = tmp_path / "o.s"
    asm.write_text(text)
    assert verdict(src, "gfx1100", 32, str(asm), "dpp_i64_sub") == "refuted"
    assert verdict(src, "gfx1100", 32, str(asm), "dpp_i64_sub", "--assume", "dpp.rev_operand=src0") == "proved"


# ---- 64-bit spills -------------------------------------------------------------------

@needs_llc
def test_value_through_a_64_bit_spill_is_proved_and_a_wrong_reload_refuted(tmp_path):
    """set_inactive_f64 on gfx942, its result copied through scratch: a
    dwordx2 store and a reload from the same address give it back [S:spill64];
    a reload from the callee-saved slot at offset:8 is refuted."""
    src = SHAPE / "wide_set_inactive.ll"
    text = llc(src, "gfx942", 64)
    good = "v_mov_b64_e32 v[0:1], v[2:3]"
    through = ("scratch_store_dwordx2 off, v[2:3], s32 offset:16\n"
               "\tscratch_load_dwordx2 v[0:1], off, s32 offset:16\n\ts_waitcnt vmcnt(0)")
    ok = mutate(tmp_path, text, "set_inactive_f64", good, through)
    assert verdict(src, "gfx942", 64, ok, "set_inactive_f64") == "proved"
    wrong = mutate(tmp_path, text, "set_inactive_f64", good, through.replace("v[0:1], off, s32 offset:16",
                                                                             "v[0:1], off, s32 offset:8"))
    assert verdict(src, "gfx942", 64, wrong, "set_inactive_f64") == "refuted"


# ---- the IR's 64-bit arithmetic -------------------------------------------------------

HEAD = "; RUN: llc -mtriple=amdgcn -mcpu=gfx1100\n"


def pair(tmp_path: Path, src: str, tgt: str) -> int:
    a, b = tmp_path / "a.ll", tmp_path / "b.ll"
    a.write_text(HEAD + src)
    b.write_text(HEAD + tgt)
    code, _, _ = cli("tv", str(a), str(b), "--wave", "32")
    return code


def test_i64_icmp_compares_both_halves(tmp_path):
    """icmp ult of i64 orders the high halves first: a tgt comparing the low
    halves only is refuted (verify compared only those before), one
    comparing (hi, lo) is proved."""
    ret = "  %z = zext i1 %c to i32\n  ret i32 %z\n}\n"
    src = "define i32 @f(i64 %a, i64 %b) {\n  %c = icmp ult i64 %a, %b\n" + ret
    low = ("define i32 @f(i64 %a, i64 %b) {\n  %x = trunc i64 %a to i32\n  %y = trunc i64 %b to i32\n"
           "  %c = icmp ult i32 %x, %y\n" + ret)
    swapped = "define i32 @f(i64 %a, i64 %b) {\n  %c = icmp ugt i64 %b, %a\n" + ret
    assert pair(tmp_path, src, low) == 1
    assert pair(tmp_path, src, swapped) == 0


@pytest.mark.slow
def test_i64_shift_by_64_is_poison_and_shl_is_an_add(tmp_path):
    src = "define i64 @f(i64 %a) {\n  %s = shl i64 %a, 1\n  ret i64 %s\n}\n"
    add = "define i64 @f(i64 %a) {\n  %b = add i64 %a, %a\n  ret i64 %b\n}\n"
    assert pair(tmp_path, src, add) == 0
    var = "define i64 @f(i64 %a, i64 %n) {\n  %s = lshr i64 %a, %n\n  ret i64 %s\n}\n"
    anything = "define i64 @f(i64 %a, i64 %n) {\n  ret i64 7\n}\n"
    assert pair(tmp_path, var, anything) == 1  # (n < 64: defined)
    big = var.replace("lshr i64 %a, %n", "lshr i64 %a, 64")
    assert pair(tmp_path, big, anything) == 0  # poison: anything refines it


def test_v2i16_add_wraps_per_element(tmp_path):
    src = "define <2 x i16> @f(<2 x i16> %a) {\n  %s = add <2 x i16> %a, <i16 1, i16 1>\n  ret <2 x i16> %s\n}\n"
    tgt = ("define <2 x i16> @f(<2 x i16> %a) {\n  %b = bitcast <2 x i16> %a to i32\n"
           "  %c = add i32 %b, 65537\n  %d = bitcast i32 %c to <2 x i16>\n  ret <2 x i16> %d\n}\n")
    assert pair(tmp_path, src, tgt) == 1  # the low element's carry reaches the high one
    sub = src.replace("add <2 x i16> %a, <i16 1, i16 1>", "sub <2 x i16> %a, <i16 -1, i16 -1>")
    assert pair(tmp_path, src, sub) == 0
