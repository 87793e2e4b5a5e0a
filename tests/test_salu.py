"""Scalar ops: operand order of *_saveexec and literal expansion in 64-bit
operands.  [S:salu] [S:literal64]"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli, simulate

from verify.diag import Span
from verify.ir import Imm
from verify.ops.base import M64, expand_b64, is_inline_constant64, literal64_is_negative
from verify.ops.salu import _all_ones
from verify.syntax import parse_operand

ROOT = Path(__file__).resolve().parent.parent
MC = shutil.which("llvm-mc-22")


def imm(text: str) -> Imm:
    op = parse_operand(text, Span("t", 1))
    assert isinstance(op, Imm)
    return op


# ---- saveexec reads its source before it writes its destination -------------

AND_SELF = """; @spec     cuda.shfl_xor mask=0 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers s[0:1]
s_mov_b64 s[0:1], 0
s_and_saveexec_b64 s[0:1], s[0:1]
v_mov_b32 v1, v0
s_mov_b64 exec, s[0:1]
"""


def test_and_saveexec_same_register_turns_every_lane_off(tmp_path: Path) -> None:
    # EXEC = S0 & EXEC with S0 read first (0): no lane writes v1.  Reading S0
    # after SDST = EXEC made EXEC unchanged and this was "proved".
    p = tmp_path / "and_self.s"
    p.write_text(AND_SELF)
    code, out, err = cli("lowering", str(p))
    assert code == 1, (out, err)
    assert "refuted" in out and "v1[0] not written (lane 0 inactive)" in out


@pytest.mark.parametrize("lines,target,wave,exec_in,sregs,want_exec,want_save", [
    (["s_and_saveexec_b64 s[0:1], s[0:1]"], "gfx900", 64, 0xFF0000000000FFFF, {"s0": 0x0F0F, "s1": 0xF0000000},
     0xF00000000000_0F0F, 0xFF0000000000FFFF),
    (["s_or_saveexec_b64 s[2:3], s[2:3]"], "gfx900", 64, 0x1, {"s2": 0x10, "s3": 0x1}, 0x0000000100000011, 0x1),
    (["s_xor_saveexec_b64 s[0:1], s[0:1]"], "gfx1100", 64, 0x3, {"s0": 0x1}, 0x2, 0x3),
    (["s_and_saveexec_b32 s0, s0"], "gfx1030", 32, 0xFF, {"s0": 0x0F}, 0x0F, 0xFF),
    (["s_andn2_saveexec_b32 s4, s4"], "gfx1030", 32, 0x3, {"s4": 0x7}, 0x4, 0x3),
])
def test_saveexec_reads_s0_before_writing_sdst(lines: list[str], target: str, wave: int, exec_in: int,
                                                sregs: dict[str, int], want_exec: int, want_save: int) -> None:
    m = simulate(lines, target, wave, exec_in, sregs)
    lo, hi = m.exec_pair()
    assert lo | (hi << 32) == want_exec
    dst = re.search(r"s\[?(\d+)", lines[0])
    assert dst is not None
    n = int(dst.group(1))
    saved = m.s(f"s{n}") | ((m.s(f"s{n + 1}") << 32) if wave == 64 else 0)
    assert saved == want_save


def test_64bit_ops_read_before_overlapping_write() -> None:
    # s_and_b64 / s_not_b64 / s_mov_b64 whose destination is a source
    m = simulate(["s_and_b64 s[0:1], s[0:1], s[2:3]", "s_not_b64 s[2:3], s[2:3]", "s_mov_b64 s[4:5], s[4:5]"],
                 "gfx900", 64, 1, {"s0": 0xF0, "s1": 0xF, "s2": 0x30, "s3": 0x3, "s4": 7, "s5": 9})
    assert [m.s(f"s{k}") for k in range(6)] == [0x30, 0x3, 0xFFFFFFCF, 0xFFFFFFFC, 7, 9]


# ---- literal expansion in 64-bit operands  [S:literal64] ----------------------

@pytest.mark.parametrize("text,zext,sext", [
    ("-1", M64, M64),                                   # inline: all 64 bits
    ("-16", M64 - 15, M64 - 15),                        # inline
    ("64", 64, 64),                                     # inline
    ("0", 0, 0),
    ("0xffffffff", 0xFFFFFFFF, 0xFFFFFFFF),             # a 32-bit literal, zero-extended
    ("0xfffffff0", 0xFFFFFFF0, 0xFFFFFFF0),             # a literal here, though -16 in a 32-bit operand
    ("0x80000000", 0x80000000, 0x80000000),
    ("65", 65, 65),
    ("-17", 0xFFFFFFEF, M64 - 16),                      # llvm-mc-22 encodes 0xffffffef: the assumption
    ("-2147483648", 0x80000000, M64 - 0x7FFFFFFF),
])
def test_expand_b64(text: str, zext: int, sext: int) -> None:
    op = imm(text)
    assert expand_b64(op) == zext
    assert expand_b64(op, "sext") == sext
    assert literal64_is_negative(op) == (zext != sext)


def test_inline_constant_in_64bit_operand_is_the_written_value() -> None:
    assert [is_inline_constant64(imm(t)) for t in ("-1", "-16", "64", "0xffffffff", "0xfffffff0", "-17")] == \
        [True, True, True, False, False, False]


def test_all_ones_mask() -> None:
    assert _all_ones(imm("-1"), 64) and _all_ones(imm("-1"), 32) and _all_ones(imm("0xffffffff"), 32)
    assert not _all_ones(imm("0xffffffff"), 64)


def test_or_saveexec_minus_one_and_0xffffffff_differ_in_wave64() -> None:
    a = simulate(["s_or_saveexec_b64 s[0:1], -1"], "gfx900", 64, 0, {})
    b = simulate(["s_or_saveexec_b64 s[0:1], 0xffffffff"], "gfx900", 64, 0, {})
    assert a.exec_pair() == (0xFFFFFFFF, 0xFFFFFFFF)
    assert b.exec_pair() == (0xFFFFFFFF, 0)
    c = simulate(["s_mov_b64 s[0:1], -17"], "gfx1100", 64, 1, {})
    d = simulate(["s_mov_b64 s[0:1], -17"], "gfx1100", 64, 1, {}, assume={"literal64.negative": "sext"})
    assert (c.s("s0"), c.s("s1")) == (0xFFFFFFEF, 0)
    assert (d.s("s0"), d.s("s1")) == (0xFFFFFFEF, 0xFFFFFFFF)
    assert c.assumptions_used == {"literal64.negative": "zext"}
    assert a.assumptions_used == {} and b.assumptions_used == {}


def test_whole_wave_mutant_0xffffffff_is_refuted(tmp_path: Path) -> None:
    text = (ROOT / "lowerings/xor/xor4.s").read_text()
    assert "s_or_saveexec_b64 s[0:1], -1\n" in text
    code, out, err = cli("lowering", str(ROOT / "lowerings/xor/xor4.s"))
    assert code == 0 and "proved" in out, (out, err)
    p = tmp_path / "xor4_lit.s"
    p.write_text(text.replace("s_or_saveexec_b64 s[0:1], -1\n", "s_or_saveexec_b64 s[0:1], 0xffffffff\n"))
    code, out, err = cli("lowering", str(p))
    assert code == 1 and "refuted" in out, (out, err)
    # the counterexample's EXEC has lanes above 31 that stay inactive, and a lane reads one of them
    ex = re.search(r"EXEC = 0x([0-9a-f]{16})", out)
    assert ex is not None and int(ex.group(1), 16) >> 32 not in (0, 0xFFFFFFFF)
    assert re.search(r"source lane (3[2-9]|[4-5]\d|6[0-3]) is inactive", out)


def test_two_unique_literals_in_a_64bit_op(tmp_path: Path) -> None:
    # llvm-mc-22: "<stdin>:1:31: error: only one unique literal operand is allowed"
    header = """; @spec     cuda.shfl_xor mask=0 width=16
; @targets  gfx9
; @waves    64
; @input    x = v0
; @output   out = v1
; @clobbers s[0:1]
"""
    p = tmp_path / "t.s"
    p.write_text(header + "s_and_b64 s[0:1], 0xffffffff, 0xfffffff0\nv_mov_b32 v1, v0\n")
    code, out, err = cli("lowering", str(p))
    assert code == 2 and err.strip() == f"{p}:7:31: error: only one unique literal constant is allowed", err
    p.write_text(header + "s_and_b64 s[0:1], 0xffffffff, -1\nv_mov_b32 v1, v0\n")
    code, out, err = cli("lowering", str(p))
    assert code == 0, (out, err)


# ---- what llvm-mc-22 encodes (pinned; skips without it) ----------------------

# operand -> the encoding llvm-mc-22 prints for `s_mov_b64 s[0:1], OPERAND`, the same on gfx900, gfx1100 and
# gfx1200 (SOP1: [ssrc0, sdst, op, 0xbe] then a 32-bit literal when ssrc0 is 0xff); None: rejected at column 19
MC_S_MOV_B64 = {
    "0xffffffff": "[0xff,0x01,0x80,0xbe,0xff,0xff,0xff,0xff]",
    "-1": "[0xc1,0x01,0x80,0xbe]",
    "0xffffffffffffffff": "[0xc1,0x01,0x80,0xbe]",
    "-17": "[0xff,0x01,0x80,0xbe,0xef,0xff,0xff,0xff]",
    "0x80000000": "[0xff,0x01,0x80,0xbe,0x00,0x00,0x00,0x80]",
    "0xfffffff0": "[0xff,0x01,0x80,0xbe,0xf0,0xff,0xff,0xff]",
    "-16": "[0xd0,0x01,0x80,0xbe]",
    "64": "[0xc0,0x01,0x80,0xbe]",
    "0x100000000": None,         # needs a 64-bit literal: none of these targets has one
    "0xffffffff00000000": None,
}


def _mc(cpu: str, line: str) -> tuple[int, str]:
    assert MC is not None
    r = subprocess.run([MC, "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding"], input=line + "\n",
                       capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


def _hw_value(enc: str) -> int:
    """The 64-bit value a B64 source has on the hardware, from its encoding."""
    b = [int(x, 16) for x in enc.strip("[]").split(",")]
    code = b[0]
    if code == 0xFF:  # a 32-bit literal: zero-extended for B64
        return b[4] | b[5] << 8 | b[6] << 16 | b[7] << 24
    if 128 <= code <= 192:
        return code - 128
    assert 193 <= code <= 208
    return (192 - code) & M64


@pytest.mark.llvm_mc
@pytest.mark.skipif(MC is None, reason="needs llvm-mc-22 (apt-get install llvm-22)")
@pytest.mark.parametrize("cpu", ["gfx900", "gfx1100", "gfx1200"])
def test_llvm_mc_s_mov_b64_encodings(cpu: str) -> None:
    for operand, want in MC_S_MOV_B64.items():
        rc, out = _mc(cpu, f"s_mov_b64 s[0:1], {operand}")
        if want is None:
            assert rc != 0 and "1:19: error: invalid operand for instruction" in out, (operand, out)
            continue
        m = re.search(r"encoding: (\[[0-9a-fx,]+\])", out)
        assert rc == 0 and m is not None and m.group(1) == want, (operand, out)
        if len(operand) <= 11:  # verify takes 32-bit text; its default reading is what the bytes mean
            assert expand_b64(imm(operand)) == _hw_value(want), operand


@pytest.mark.llvm_mc
@pytest.mark.skipif(MC is None, reason="needs llvm-mc-22 (apt-get install llvm-22)")
def test_llvm_mc_gfx1250_has_64bit_literals_gfx1200_not() -> None:
    # the GFX12.5 (gfx1250) 64-bit literal: not a target of verify's table; gfx1200 rejects it
    rc, out = _mc("gfx1250", "s_mov_b64 s[0:1], 0x100000000")
    assert rc == 0 and "[0xfe,0x01,0x80,0xbe,0x00,0x00,0x00,0x00,0x01,0x00,0x00,0x00]" in out, out
    rc, out = _mc("gfx1200", "s_mov_b64 s[0:1], lit64(0x100000000)")
    assert rc != 0 and "error: invalid operand for instruction" in out, out


# ---- saveexec with SDST = EXEC: the write order  [S:saveexec-order] -----------

@pytest.mark.parametrize("line,target,wave,exec_in,sregs,assume,want_exec,want_scc", [
    # the CDNA3/RDNA3 pseudocode: SDST (the old mask) is written last
    ("s_or_saveexec_b64 exec, -1", "gfx942", 64, 0x5, {}, None, 0x5, True),
    ("s_or_saveexec_b64 exec, -1", "gfx1100", 64, 0x5, {}, None, 0x5, True),
    ("s_and_saveexec_b32 exec_lo, s2", "gfx1200", 32, 0xF0, {"s2": 0x0F}, None, 0xF0, True),
    # the GCN3 prose, where the assumption picks it: EXEC = S0 op EXEC lands last
    ("s_or_saveexec_b64 exec, -1", "gfx900", 64, 0x5, {}, {"saveexec.order": "exec_last"}, (1 << 64) - 1, True),
    ("s_or_saveexec_b64 exec, -1", "gfx900", 64, 0x5, {}, {"saveexec.order": "sdst_last"}, 0x5, True),
    ("s_and_saveexec_b32 exec_lo, s2", "gfx1030", 32, 0xF0, {"s2": 0x0F}, {"saveexec.order": "exec_last"}, 0, False),
    # "either": the unknown order input (it reads 0 here) picks S0 op EXEC
    ("s_and_saveexec_b32 exec_lo, s2", "gfx1030", 32, 0xF0, {"s2": 0x0F}, None, 0, False),
    ("s_and_saveexec_b32 exec_lo, s2", "gfx1030", 32, 0xF0,
     {"s2": 0x0F, "exec_lo@1(saveexec write order)": 1}, None, 0xF0, True),
])
def test_saveexec_sdst_exec_write_order(line: str, target: str, wave: int, exec_in: int, sregs: dict[str, int],
                                        assume: dict[str, str] | None, want_exec: int, want_scc: bool) -> None:
    m = simulate([line], target, wave, exec_in, sregs, assume)
    lo, hi = m.exec_pair()
    assert lo | (hi << 32) == want_exec
    assert m.scc == want_scc


XOR5_SDST_EXEC = """; @spec     cuda.shfl_xor mask=5 width=16
; @targets  gfx9, gfx1030
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2
s_or_saveexec_b64 exec, -1
v_mov_b32_dpp v2, v0 row_half_mirror row_mask:0xf bank_mask:0xf
s_nop 1
v_mov_b32_dpp v1, v2 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
"""


@pytest.mark.slow
def test_whole_wave_through_sdst_exec_is_not_proved(tmp_path: Path) -> None:
    # `s_or_saveexec_b64 exec, -1` leaves the old mask where SDST lands last:
    # this is then the plain two-DPP xor5, wrong under a partial EXEC (a value
    # travels through an inactive lane of v2), on every target, and under the
    # default reading of the older guides too.  Read as "EXEC written last"
    # (the GCN3 prose) every lane is on: the value is right, but EXEC is left
    # all-on, which the exec obligation refutes.
    p = tmp_path / "xor5_sdst_exec.s"
    p.write_text(XOR5_SDST_EXEC)
    code, out, err = cli("lowering", str(p))
    assert code == 1, (out, err)
    assert "proved" not in out
    assert "refuted for gfx900, gfx906, gfx908, gfx90a, gfx1030 wave64 under exec=any; assumptions: " \
           "dpp.inactive_src=bound_ctrl, saveexec.order=either" in out
    assert "refuted for gfx940, gfx941, gfx942, gfx950 wave64" in out
    assert "value(out): refuted: an active lane differs from the spec" in out
    code, out, err = cli("lowering", str(p), "--target", "gfx900", "--assume", "saveexec.order=exec_last")
    assert code == 1, (out, err)
    assert "saveexec.order=exec_last" in out and "value(out)" not in out
    assert "exec: refuted: EXEC at the end differs from EXEC at entry" in out


def test_saveexec_sdst_overlapping_s0_and_exec() -> None:
    # SDST = S0 = EXEC: S0 is the old EXEC (read first) whatever the order
    m = simulate(["s_and_saveexec_b64 exec, exec"], "gfx942", 64, 0x30, {})
    assert m.exec_pair() == (0x30, 0)
