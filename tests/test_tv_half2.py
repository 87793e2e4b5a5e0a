"""half2: int <-> half casts, f16 NEG/ABS source modifiers, v_pk_fma_f16
(neg_lo/neg_hi), GFX12 v_minimum_f16 and GFX11's 16-bit bitwise ops.  The
lane functions against Python's own binary16 (struct "e"); for each op
family a one-token mutant of llc-22's output (tests/tv/llvm-shape/
half2_ops.ll) refuted at lane 0; the new ops' legality against llvm-mc-22.
llc-22's unmutated output is proved by the file's EXPECT lines (corpus
tier).  [S:half2-srcmods] [S:half2-cvt-int] [S:half2-pk-fma]
[S:half2-minimum] [S:half2-b16]"""

from __future__ import annotations

import math
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from test_tv_shape_half import llc, needs_llc, results

from verify.backend import Concrete
from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.ops.vhalf2 import f16_to_int, int_to_f16
from verify.target import TARGETS

SRC = Path(__file__).parent / "tv" / "llvm-shape" / "half2_ops.ll"
MC = shutil.which("llvm-mc-22")


def _half(bits: int) -> float:
    return float(struct.unpack("<e", struct.pack("<H", bits))[0])


def _bits(x: float) -> int:
    try:
        return int(struct.unpack("<H", struct.pack("<e", x))[0])
    except OverflowError:
        return 0x7C00 if x > 0 else 0xFC00


@pytest.mark.parametrize("signed", [True, False])
def test_int16_to_half_rounds_once_as_python(signed):
    C = Concrete()
    for u in [*range(0, 0x10000, 97), 2049, 2051, 4097, 65504, 65519, 65520, 0x7FFF, 0x8000, 0xFFFF]:
        v = u - 0x10000 if signed and u >= 0x8000 else u
        assert int_to_f16(C, u, signed) == _bits(float(v)), (u, signed)


def test_int32_to_half_is_infinite_beyond_65519():
    C = Concrete()
    assert [hex(int_to_f16(C, x, False, 32)) for x in (65519, 65520, 2**24 + 1, 0xFFFFFFFF)] == \
        ["0x7bff", "0x7c00", "0x7c00", "0x7c00"]
    assert hex(int_to_f16(C, 0x80000000, True, 32)) == "0xfc00"


@pytest.mark.parametrize("signed", [True, False])
def test_half_to_int16_truncates_and_says_where_it_fits(signed):
    C = Concrete()
    for h in range(0, 0x10000, 13):
        x = _half(h)
        v, fits = f16_to_int(C, h, signed)
        lo, hi = (-32768, 32767) if signed else (0, 65535)
        want_fits = math.isfinite(x) and lo <= math.trunc(x) <= hi
        assert bool(fits) == want_fits, hex(h)
        if want_fits:
            assert v == math.trunc(x) & 0xFFFF, hex(h)


# ---- a mutant of each op family refuted at lane 0 -------------------------------

def mutant(tmp_path: Path, fn: str, cpu: str, good: str, bad: str) -> dict:
    """The verdict on llc-22's output with `good` replaced by `bad` once
    inside `fn` (the unmutated output is the corpus tier's, EXPECT lines)."""
    text = llc(SRC, cpu, 32)
    m = re.search(rf"\n{fn}:.*?s_setpc_b64", text, re.S)
    assert m is not None and good in m.group(0), (fn, good)
    (tmp_path / "m.s").write_text(text[:m.start()] + m.group(0).replace(good, bad, 1) + text[m.end():])
    _, (r,) = results(str(SRC), "--target", cpu, "--wave", "32", "--function", fn, "--asm", str(tmp_path / "m.s"))
    return r


@needs_llc
@pytest.mark.parametrize("fn,cpu,good,bad,lane", [
    ("fmul_fneg_fabs", "gfx1100", "-|v0.l|", "|v0.l|", 0),                       # f16 NEG/ABS
    ("sitofp_i16", "gfx1100", "v_cvt_f16_i16", "v_cvt_f16_u16", 0),              # int -> half
    ("fptoui_i16", "gfx1200", "v_cvt_u16_f16_e32 v0, v0", "v_cvt_u16_f16_e64 v0, -v0", 0),  # half -> int
    pytest.param("pk_fma_fneg", "gfx1100", "neg_hi:[0,0,1]", "neg_hi:[0,1,0]", 0,  # v_pk_fma_f16 (two fmas a lane)
                 marks=pytest.mark.slow),
    ("minimum_f16", "gfx1200", "v_minimum_f16", "v_maximum_f16", 0),             # GFX12 minimum (lane 0: twins)
    ("fneg_f16", "gfx1100", "v_xor_b16 v0.l, 0x8000", "v_or_b16 v0.l, 0x8000", 0),  # 16-bit bitwise
])
@pytest.mark.slow
def test_a_mutant_of_each_new_op_is_refuted_at_a_named_lane(tmp_path, fn, cpu, good, bad, lane):
    r = mutant(tmp_path, fn, cpu, good, bad)
    assert r["verdict"] == "refuted", r
    assert [ln["lane"] for ln in r["counterexample"]["lanes"] if ln["differs"]] == [lane], r


# ---- legality against llvm-mc-22 ------------------------------------------------

LINES = [
    "v_mul_f16_e64 v0, -|v0|, v1", "v_mul_f16_e64 v0.l, -|v0.l|, v1.l", "v_fma_f16 v0, v0, |v1|, -v2",
    "v_cmp_lt_f16_e64 s[4:5], |v0|, v1", "v_cvt_f32_f16_e64 v0, -v0", "v_cvt_f16_f32_e64 v0, |v0|",
    "v_cvt_f16_i16_e32 v0, v0", "v_cvt_f16_u16_e64 v0, v1", "v_cvt_i16_f16_e64 v0, -|v1|", "v_cvt_u16_f16 v0.l, v0.l",
    "v_pk_fma_f16 v0, v0, v1, v2", "v_pk_fma_f16 v0, v0, v1, v2 neg_lo:[0,0,1] neg_hi:[0,0,1]",
    "v_pk_fma_f16 v0, v0, v1, v2 op_sel:[1,0,0] op_sel_hi:[0,1,1]", "v_pk_add_f16 v0, v0, v1 neg_lo:[0,1] neg_hi:[0,1]",
    "v_minimum_f16 v0, v0, v1", "v_maximum_f16 v0, -v0, |v1|",
    "v_xor_b16 v0.l, 0x8000, v0.l", "v_and_b16 v0, v1, v2", "v_or_b16 v0.h, v1.l, v2.h",
]


@pytest.mark.skipif(MC is None, reason="needs llvm-mc-22")
@pytest.mark.parametrize("cpu", ["gfx803", "gfx900", "gfx1030", "gfx1100", "gfx1200"])
def test_new_ops_assemble_where_verify_accepts_them(cpu):
    t = TARGETS[cpu]
    wave, lines = 64, LINES
    attr = [] if t.gen < 10 else [f"-mattr=+wavefrontsize{wave}"]
    r = subprocess.run([MC, "-triple=amdgcn", f"-mcpu={cpu}", *attr, "-o", "/dev/null"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    rejected = {int(x.split(":")[1]) for x in r.stderr.splitlines() if x.startswith("<stdin>:") and ": error" in x}
    disagree = []
    for k, line in enumerate(lines, 1):
        try:
            ins = parse_instr(line, Span("t", 1))
            OPS[ins.base].check(ins, t, wave)
            ours = True
        except InputError:
            ours = False
        if ours and k in rejected:
            disagree.append(("llvm-mc rejects what verify accepts", line))
    assert disagree == [], disagree
    accepted = sum(1 for k in range(1, len(lines) + 1) if k not in rejected)
    assert accepted >= 8, (cpu, r.stderr[:400])


# ---- bfloat arithmetic through binary32 ----------------------------------------

@pytest.mark.parametrize("op", ["add", "mul"])
def test_bfloat_arithmetic_through_binary32_rounds_as_once(op):
    """verify tv computes bfloat fadd/fsub/fmul in binary32 and rounds to
    bfloat (as LLVM's lowering does, so the solver meets the same terms);
    the value is the once-rounded one: here on edge values (zeros,
    subnormals, the largest finite, infinities, NaN) and 1500 draws."""
    import random

    from verify.backend import fparith
    C = Concrete()
    edge = [0x0000, 0x8000, 0x0001, 0x807F, 0x0080, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x3F80, 0x3F81, 0xBF80, 0x4000]
    rnd = random.Random(31)
    pairs = [(a, b) for a in edge for b in edge] + [(rnd.randrange(0x10000), rnd.randrange(0x10000)) for _ in range(1500)]
    for a, b in pairs:
        once = fparith(C, op, "bf16", a, b)
        wide = fparith(C, "cvt:f32", "bf16", fparith(C, op, "f32", a << 16, b << 16))
        assert once == wide, (op, hex(a), hex(b), hex(once), hex(wide))
