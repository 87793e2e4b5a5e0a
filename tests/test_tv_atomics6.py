"""The IR's 8- and 16-bit atomicrmw in verify tv (issue 31;
verify/tv/subword.py, [S:atomic-subword]): one lane's step agrees on the
concrete and the symbolic backend with N-bit arithmetic for every
operation; llc-22's uniform_or_i8 with the compare-and-swap loop's `or`
made an `xor` is refuted."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import ITERATIVE_W32, LLC, llc_asm, mutate, tv_on_asm

from verify import smt
from verify.backend import Concrete
from verify.tv import subword


def _ref(op: str, a: int, b: int, bits: int) -> int:
    mask = (1 << bits) - 1

    def s(x: int) -> int:
        return x - (1 << bits) if x >> (bits - 1) else x
    r = {"add": a + b, "sub": a - b, "and": a & b, "or": a | b, "xor": a ^ b, "umin": min(a, b), "umax": max(a, b),
         "min": min(s(a), s(b)), "max": max(s(a), s(b))}[op]
    return r & mask


@pytest.mark.parametrize("bits", [8, 16])
@pytest.mark.parametrize("op", sorted(subword.OPS))
def test_a_sub_word_step_is_n_bit_arithmetic_on_both_backends(op: str, bits: int) -> None:
    rng = random.Random(bits * 31 + len(op))
    top = (1 << bits) - 1
    cases = [(0, 0), (top, 1), (1 << (bits - 1), (1 << (bits - 1)) - 1), (top, top)]
    cases += [(rng.randrange(top + 1), rng.randrange(top + 1)) for _ in range(12)]
    C = Concrete()
    Z: Any = smt.Z3()
    x, y = Z.fresh("x"), Z.fresh("y")
    sym = subword.step(Z, op, x, y, bits)
    for a, b in cases:
        want = _ref(op, a, b, bits)
        assert subword.step(C, op, a, b, bits) == want, (op, a, b)
        q = smt.Query(10, session=Z.session)
        q.add(Z.and_b(Z.eq(x, Z.const(a)), Z.eq(y, Z.const(b)), Z.ne(sym, Z.const(want))))
        assert q.check() == "unsat", (op, a, b)


KERNEL = """define amdgpu_kernel void @uniform_or_i8(ptr addrspace(1) %result, ptr addrspace(1) %uniform.ptr, i8 %val) {
  %rmw = atomicrmw or ptr addrspace(1) %uniform.ptr, i8 %val monotonic, align 1
  store i8 %rmw, ptr addrspace(1) %result
  ret void
}
"""


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_uniform_or_i8_with_xor_in_the_cmpswap_loop_is_refuted(tmp_path: Path) -> None:
    src = tmp_path / "k.ll"
    src.write_text(KERNEL)
    asm = llc_asm(src, "gfx1100", *ITERATIVE_W32)
    assert asm.count("_atomic_cmpswap_b32") == 1, asm
    asm = mutate(asm, "v_or_b32_e32", "v_xor_b32_e32")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "32", "--timeout", "10")
    assert (code, r["verdict"]) == (1, "refuted"), r


def test_s_mul_u64_is_the_low_64_bits_of_the_product() -> None:
    from verify.ops.smul64 import mul_u64
    C = Concrete()
    rng = random.Random(64)
    for _ in range(40):
        a, b = rng.getrandbits(64), rng.getrandbits(64)
        lo, hi = mul_u64(C, a & 0xFFFFFFFF, a >> 32, b & 0xFFFFFFFF, b >> 32)
        assert (hi << 32 | lo) == (a * b) & ((1 << 64) - 1)


def test_s_add_nc_u64_and_s_sub_nc_u64_are_64_bit_add_and_subtract() -> None:
    from verify.ops.smul64 import add_u64
    C = Concrete()
    rng = random.Random(65)
    edges = [0, 1, 0xFFFFFFFF, 0x1_0000_0000, (1 << 64) - 1, 1 << 63]
    for _ in range(60):
        a, b = rng.choice(edges + [rng.getrandbits(64)]), rng.choice(edges + [rng.getrandbits(64)])
        for sub in (False, True):
            lo, hi = add_u64(C, a & 0xFFFFFFFF, a >> 32, b & 0xFFFFFFFF, b >> 32, sub)
            assert (hi << 32 | lo) == ((a - b) if sub else (a + b)) & ((1 << 64) - 1), (a, b, sub)


I64 = """define amdgpu_kernel void @add_i64_uniform(ptr addrspace(1) %out, ptr addrspace(1) %inout, i64 %additive) {
entry:
  %old = atomicrmw add ptr addrspace(1) %inout, i64 %additive syncscope("agent") acq_rel
  store i64 %old, ptr addrspace(1) %out
  ret void
}
"""


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_gfx1200_add_i64_uniform_with_the_value_squared_in_s_mul_u64_is_refuted(tmp_path: Path) -> None:
    src = tmp_path / "k.ll"
    src.write_text(I64)
    asm = mutate(llc_asm(src, "gfx1200", *ITERATIVE_W32), "s_mul_u64 s[6:7], s[4:5], s[6:7]",
                 "s_mul_u64 s[6:7], s[4:5], s[4:5]")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1200", "--wave", "32", "--timeout", "10")
    assert (code, r["verdict"]) == (1, "refuted"), r


ADD8 = """define amdgpu_kernel void @uniform_add_i8(ptr addrspace(1) %result, ptr addrspace(1) %uniform.ptr, i8 %val) {
  %rmw = atomicrmw add ptr addrspace(1) %uniform.ptr, i8 %val monotonic, align 1
  store i8 %rmw, ptr addrspace(1) %result
  ret void
}
"""


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_uniform_add_i8_with_v_mad_u16_adding_the_wrong_base_is_refuted(tmp_path: Path) -> None:
    """Each lane's old + val * mbcnt (v_mad_u16 on true16 halves  [S:mad-u16])
    with the first lane's old value replaced by the value."""
    src = tmp_path / "k.ll"
    src.write_text(ADD8)
    asm = llc_asm(src, "gfx1100", "-mattr=+wavefrontsize32", "-amdgpu-atomic-optimizer-strategy=Iterative")
    (line,) = [ln for ln in asm.splitlines() if "v_mad_u16" in ln]
    ops = line.split(None, 1)[1].split(", ")
    assert len(ops) == 4 and ops[0].endswith(".l"), line
    asm = mutate(asm, line, line.replace(f", {ops[3]}", f", {ops[1]}"))
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1100", "--wave", "32", "--timeout", "10")
    assert (code, r["verdict"]) == (1, "refuted"), r


SUB64V = """declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @sub_i64_varying(ptr addrspace(1) %out, ptr addrspace(1) %inout) {
entry:
  %lane = call i32 @llvm.amdgcn.workitem.id.x()
  %zext = zext i32 %lane to i64
  %old = atomicrmw sub ptr addrspace(1) %inout, i64 %zext syncscope("agent") acq_rel
  store i64 %old, ptr addrspace(1) %out
  ret void
}
"""


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
@pytest.mark.parametrize("new", [None, "s_sub_nc_u64"])
def test_gfx1200_sub_i64_varying_sums_the_lanes_with_s_add_nc_u64(tmp_path: Path, new: str | None) -> None:
    """The Iterative loop's running i64 sum in s_add_nc_u64 [S:s-add-nc-u64]:
    LLVM's code proved; the sum made a difference refuted."""
    src = tmp_path / "k.ll"
    src.write_text(SUB64V)
    asm = llc_asm(src, "gfx1200", *ITERATIVE_W32)
    assert asm.count("s_add_nc_u64") == 1, asm
    if new is not None:
        asm = mutate(asm, "s_add_nc_u64", new)
    code, r = tv_on_asm(tmp_path, src, asm, "gfx1200", "--wave", "32", "--timeout", "10")
    assert (code, r["verdict"]) == ((0, "proved") if new is None else (1, "refuted")), r
