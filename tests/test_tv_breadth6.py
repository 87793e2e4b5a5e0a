"""breadth6 (issue 31): a mask the GPU keeps on a lane count that it
cannot change is known to change nothing (verify/smt/terms.py upper_bound,
[S:tv-known-bits]); mutants that the bound must not hide are refuted."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

from verify import smt
from verify.smt.terms import upper_bound

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"
LLC = shutil.which("llc-22")
KB = SHAPE / "breadth6_knownbits.ll"


def test_a_lane_count_plus_a_constant_is_bounded_and_its_low_mask_is_dropped():
    B = smt.Z3()
    x = B.fresh("x")
    count = B.add(B.popcount([B.bit(x, k) for k in range(32)]), B.const(15))
    assert upper_bound(count) == 47
    assert B.same(B.and_(count, B.const(63)), count)  # 63 clears nothing
    assert not B.same(B.and_(count, B.const(31)), count)  # 31 can
    c = B.fresh_bool("c") if hasattr(B, "fresh_bool") else B.eq(B.fresh("y"), B.const(0))
    lane = B.ite(c, count, B.fresh("old"))  # a register's lane: new where active
    got = B.and_(lane, B.const(63))
    q = smt.Query(10.0)
    q.add(B.ne(got, B.ite(c, count, B.and_(B.fresh("old"), B.const(63)))))
    assert q.check() == "unsat"


def test_no_bound_where_the_sum_can_wrap_or_a_leaf_is_free():
    B = smt.Z3()
    x = B.fresh("x")
    assert upper_bound(x) is None
    assert upper_bound(B.add(B.popcount([B.bit(x, k) for k in range(32)]), B.const(0xFFFFFFF0))) is None
    assert upper_bound(B.and_(x, B.const(0xFF0))) == 0xFF0


def _asm(fn: str) -> str:
    assert LLC is not None
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-O2", str(KB), "-o", "-"],
                         capture_output=True, text=True, check=True).stdout
    return asm


@pytest.mark.slow
@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.parametrize("fn, old, new", [
    # the kept mask made 31: 15 + a count of 17 or more loses bit 5
    ("mbcnt_lo_mask63", "v_and_b32_e32 v0, 63, v0", "v_and_b32_e32 v0, 31, v0"),
    # (the mask dropped with the base 32, IR and GPU, where only the count 32 reaches 64, is
    # refuted too, in about 100 s of CPU: left out)
])
def test_mutants_of_the_masked_count_are_refuted(tmp_path, fn, old, new):
    asm = _asm(fn)
    start = asm.index(f"\n{fn}:")
    end = asm.index("s_setpc_b64", start)
    assert asm[start:end].count(old) == 1
    ll = tmp_path / "f.ll"
    text = KB.read_text()
    if fn == "mbcnt_lo_31_mask63":  # the IR's base made 32 too, so the GPU's count is the IR's but for the mask
        text = text.replace("mbcnt.lo(i32 %x, i32 31)", "mbcnt.lo(i32 %x, i32 32)")
    ll.write_text(text)
    p = tmp_path / "f.s"
    p.write_text(asm[:start] + asm[start:end].replace(old, new) + asm[end:])
    code, out, _ = cli("tv", str(ll), "--target", "gfx900", "--asm", str(p), "--function", fn, "--json")
    (r,) = json.loads(out)["results"]
    assert (code, r["verdict"]) == (1, "refuted"), r["notes"]


FPEXT = SHAPE / "breadth6_fpext.ll"


def test_f32_to_f64_is_pythons_widening():
    import math
    import random
    import struct

    from verify.backend import Concrete
    from verify.ops.cvt64 import f32_to_f64

    rng = random.Random(6)
    xs = [0, 0x80000000, 1, 0x80000001, 0x7FFFFF, 0x400000, 0x3F800000, 0x7F7FFFFF, 0x7F800000, 0xFF800000,
          0x7FC00000, 0x7F800001, 0xFFFFFFFF] + [rng.getrandbits(32) for _ in range(3000)] + \
        [rng.getrandbits(23) | rng.getrandbits(1) << 31 for _ in range(1000)]  # subnormals
    for x in xs:
        lo, hi = f32_to_f64(Concrete(), x)
        f = struct.unpack("<f", struct.pack("<I", x))[0]
        want = 0x7FF8000000000000 if math.isnan(f) else struct.unpack("<Q", struct.pack("<d", f))[0]
        assert (hi << 32 | lo) == want, hex(x)


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.parametrize("target", ["gfx900", "gfx1100"])
@pytest.mark.slow
def test_fpext_of_another_value_is_refuted(tmp_path, target):
    """LLVM's code for `fpext float %x` against an IR that widens 2 * x
    instead (a change of exponent only: the high dword differs)."""
    assert LLC is not None
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-O2", str(FPEXT), "-o", "-"],
                         capture_output=True, text=True, check=True).stdout
    ll = tmp_path / "f.ll"
    ll.write_text(FPEXT.read_text().replace("%d = fpext float %x to double",
                                            "%y = fmul float %x, 2.0\n  %d = fpext float %y to double"))
    s = tmp_path / "f.s"
    s.write_text(asm)
    code, out, _ = cli("tv", str(ll), "--target", target, "--wave", "32" if target == "gfx1100" else "64", "--asm", str(s),
                       "--function", "fpext_arg", "--json")
    (r,) = json.loads(out)["results"]
    assert (code, r["verdict"]) == (1, "refuted"), r["notes"]
