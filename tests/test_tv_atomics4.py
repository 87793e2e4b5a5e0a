"""64-bit atomics and compare-and-swap retry loops in verify tv (issue 31;
verify/tv/atomic64.py [S:atomic64], verify/tv/casloop.py [S:cas-loop]):
the 64-bit step on memory against Python's 64-bit arithmetic; llc-22's
atomic optimizer code for an i64 atomicrmw with its high half broken, and
its cmpxchg loop with the new value or the loop's exit broken, refuted or
named unsupported (EXEC = lane 0, before the other EXECs' proofs)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import cli

from verify import smt
from verify.backend import Concrete
from verify.tv import atomic64
from verify.tv.sem import ASCENDING, Memory

LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")
M64 = (1 << 64) - 1


def _signed(x: int) -> int:
    return x - (1 << 64) if x >> 63 else x


REF = {"add": lambda m, v: (m + v) & M64, "sub": lambda m, v: (m - v) & M64, "and": lambda m, v: m & v,
       "or": lambda m, v: m | v, "xor": lambda m, v: m ^ v, "umin": min, "umax": max,
       "min": lambda m, v: m if _signed(m) <= _signed(v) else v, "max": lambda m, v: m if _signed(m) >= _signed(v) else v}


def _value(B: object, t: object) -> int:
    """A concrete or a constant z3 term's value."""
    if type(t) is int:
        return t
    q = smt.Query(5, session=B.session)  # type: ignore[attr-defined]
    assert q.check() == "sat"
    return q.value(t)


@pytest.mark.parametrize("symbolic", [False, True])
@pytest.mark.parametrize("op", sorted(REF))
def test_a_64_bit_atomic_on_memory_is_the_64_bit_operation_lane_after_lane(op: str, symbolic: bool) -> None:
    """On both backends (the symbolic one keeps a value as one 64-bit term)."""
    B: Any = smt.Z3() if symbolic else Concrete()
    init = {(0x1000, 0): 0xFFFFFFF0, (0x1004, 0): 0x80000001}  # 0x80000001_FFFFFFF0: carries and the sign
    mem = Memory(B, lambda lo, hi: init.get((lo, hi), 0))
    vals = [0x00000000_00000020, 0xFFFFFFFF_FFFFFFFF, 0x7FFFFFFF_00000001]
    lanes = [(0x1000, 0, (v & 0xFFFFFFFF, v >> 32), False, True) for v in vals]
    got = atomic64.atomic(mem, op, lanes, ASCENDING, ASCENDING)
    m = 0x80000001_FFFFFFF0
    for (old, pois), v in zip(got, vals):
        assert (_value(B, old[0]) | _value(B, old[1]) << 32, pois) == (m, False)
        m = REF[op](m, v)
    assert _value(B, mem.read(0x1000, 0)[0]) | _value(B, mem.read(0x1004, 0)[0]) << 32 == m
    # another order (lane 2 first, then 1, then 0): each lane's value is memory
    # before the instruction combined with those of the lanes before it
    mem2 = Memory(B, lambda lo, hi: init.get((lo, hi), 0))
    back = atomic64.atomic(mem2, op, lanes, lambda j, i: j > i, ASCENDING)
    m = 0x80000001_FFFFFFF0
    for k in (2, 1, 0):
        old = back[k][0]
        assert _value(B, old[0]) | _value(B, old[1]) << 32 == m, (op, k)
        m = REF[op](m, vals[k])


def test_the_gpu_s_64_bit_names_map_to_the_ir_s_operations() -> None:
    assert [atomic64.gpu_op(n) for n in ("global_atomic_add_x2", "buffer_atomic_sub_u64", "global_atomic_smin_x2",
                                         "global_atomic_min_u64", "global_atomic_max_i64", "global_atomic_xor_b64",
                                         "global_atomic_min_x2", "global_atomic_add")] == [
        "add", "sub", "min", "umin", "max", "xor", None, None]


KERNEL_I64 = """define amdgpu_kernel void @sub_i64_uniform(ptr addrspace(1) %out, ptr addrspace(1) %inout, i64 %x) {
  %old = atomicrmw sub ptr addrspace(1) %inout, i64 %x syncscope("agent") acq_rel, align 8, !amdgpu.no.fine.grained.memory !0
  store i64 %old, ptr addrspace(1) %out
  ret void
}
!0 = !{}
"""

KERNEL_CAS = """define amdgpu_kernel void @sub_i32_constant(ptr addrspace(1) %out, ptr addrspace(1) %inout) {
  %old = atomicrmw sub ptr addrspace(1) %inout, i32 5 syncscope("agent") acq_rel
  store i32 %old, ptr addrspace(1) %out
  ret void
}
"""


def _mutant(tmp_path: Path, ir: str, flags: list[str], old: str, new: str) -> tuple[int, dict]:
    assert LLC is not None
    src = tmp_path / "k.ll"
    src.write_text(ir)
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32", *flags,
                          str(src), "-o", "-"], capture_output=True, text=True, check=True).stdout
    assert asm.count(old) == 1, asm
    out = tmp_path / "k.s"
    out.write_text(asm.replace(old, new))
    code, text, _ = cli("tv", str(src), "--target", "gfx1100", "--wave", "32", "--asm", str(out), "--timeout", "10",
                        "--json")
    (r,) = json.loads(text)["results"]
    return code, r


@needs_llc
@pytest.mark.slow
def test_the_i64_atomic_optimizer_with_its_result_s_high_half_from_the_low_one_is_refuted(tmp_path: Path) -> None:
    code, r = _mutant(tmp_path, KERNEL_I64, [], "v_readfirstlane_b32 s3, v1", "v_readfirstlane_b32 s3, v0")
    assert (code, r["verdict"]) == (1, "refuted"), r
    assert any(n.startswith("counterexample: EXEC = 0x1;") for n in r["notes"]), r["notes"]


@needs_llc
def test_a_cas_loop_storing_the_wrong_value_is_refuted(tmp_path: Path) -> None:
    code, r = _mutant(tmp_path, KERNEL_CAS, ["-mattr=-flat-for-global"], "v_subrev_nc_u32_e32 v3, s10, v4",
                      "v_add_nc_u32_e32 v3, s10, v4")
    assert (code, r["verdict"]) == (1, "refuted"), r
    assert any(n.startswith("counterexample: EXEC = 0x1;") for n in r["notes"]), r["notes"]


@needs_llc
def test_a_cas_loop_that_may_go_round_again_is_unsupported_naming_its_branch(tmp_path: Path) -> None:
    # the exit compares the returned value with the new one, not the expected one
    code, r = _mutant(tmp_path, KERNEL_CAS, ["-mattr=-flat-for-global"], "v_cmp_eq_u32_e32 vcc_lo, v0, v4",
                      "v_cmp_eq_u32_e32 vcc_lo, v0, v3")
    assert (code, r["verdict"]) == (4, "unsupported"), r
    assert any("the compare-and-swap retry loop branching back at line" in n and "may run more than once" in n
               for n in r["notes"]), r["notes"]


KERNEL_CAS64 = """define amdgpu_kernel void @sub_i64_uniform(ptr addrspace(1) %out, ptr addrspace(1) %inout, i64 %x) {
  %old = atomicrmw sub ptr addrspace(1) %inout, i64 %x syncscope("agent") acq_rel
  store i64 %old, ptr addrspace(1) %out
  ret void
}
"""


@needs_llc
@pytest.mark.slow
@pytest.mark.parametrize("old, new, exec_", [
    (None, None, None),  # LLVM's own code: proved
    # each lane's v_mad_u64_u32 high half from the value's low word
    ("v_mad_u64_u32 v[5:6], null, s9, v4, v[3:4]", "v_mad_u64_u32 v[5:6], null, s8, v4, v[3:4]", "0x3"),
    ("s_add_i32 s13, s13, s7", "s_add_i32 s13, s13, 0", "0x1"),  # the lane count's product, its high word
    ("v_sub_co_ci_u32_e64 v1, null, s3, v5, vcc_lo", "v_sub_co_ci_u32_e64 v1, null, s3, v3, vcc_lo", "0x3"),
])
def test_the_i64_sub_cas_loop_of_a_uniform_value(tmp_path: Path, old: str | None, new: str | None,
                                                   exec_: str | None) -> None:
    """atomic_optimizations_global_pointer.ll's sub_i64_uniform shape: one
    lane's cmpswap_b64 retry loop of old - x * popcount(EXEC), each lane's
    old - x * mbcnt from two v_mad_u64_u32; the products on halves are one
    64-bit product to the solver (Z3._product64), so it is proved, and a
    broken half is refuted at the EXEC named."""
    code, r = _mutant(tmp_path, KERNEL_CAS64, ["-mattr=-flat-for-global"], old or "s_endpgm", new or "s_endpgm")
    if old is None:
        assert (code, r["verdict"]) == (0, "proved"), r
        return
    assert (code, r["verdict"]) == (1, "refuted"), r
    assert any(n.startswith(f"counterexample: EXEC = {exec_};") for n in r["notes"]), r["notes"]
