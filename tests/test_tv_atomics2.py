"""The IR's order of an atomicrmw's lanes is the IR's to choose (issue 31;
verify/tv/atomics.py FreeOrder, [S:atomic-order]): LLVM's atomic optimizer
(uniform value, a kernel) with each lane's result rebuilt lane-descending
(a hand edit of llc-22's code: the lanes above counted, not those below) is
proved, no longer refuted as under the two orders verify used to try; a
mutant of it is refuted with its lane named."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")

KERNEL = """declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @add_uniform_ret(ptr addrspace(1) %p, ptr addrspace(1) %out, i32 %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %idx = zext i32 %id to i64
  %r = atomicrmw add ptr addrspace(1) %p, i32 %x syncscope("agent") monotonic, align 4, !amdgpu.no.fine.grained.memory !0
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %r, ptr addrspace(1) %o, align 4
  ret void
}
!0 = !{}
"""

# llc-22's lane offset: x * (active lanes below); lane-descending: x * (active lanes above)
MAD = "\tv_mad_u64_u32 v[2:3], null, s4, v1, s[0:1]\n"
ABOVE = "\ts_bcnt1_i32_b32 s7, s5\n\tv_sub_nc_u32_e32 v1, s7, v1\n\tv_add_nc_u32_e32 v1, {k}, v1\n"


def _asm(tmp_path: Path, k: int) -> tuple[str, str]:
    assert LLC is not None
    src = tmp_path / "k.ll"
    src.write_text(KERNEL)
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-mattr=+wavefrontsize32", str(src),
                          "-o", "-"], capture_output=True, text=True, check=True).stdout
    assert asm.count(MAD) == 1 and "s_or_b32 exec_lo, exec_lo, s5" in asm, asm
    out = tmp_path / "k.s"
    out.write_text(asm.replace(MAD, ABOVE.format(k=k) + MAD))
    return str(src), str(out)


def _verdict(src: str, asm: str) -> tuple[int, dict]:
    code, out, _ = cli("tv", src, "--target", "gfx1100", "--wave", "32", "--asm", asm, "--timeout", "10", "--json")
    (r,) = json.loads(out)["results"]
    return code, r


@needs_llc
@pytest.mark.slow
def test_a_lane_descending_scan_of_the_atomic_optimizer_is_proved(tmp_path: Path) -> None:
    code, r = _verdict(*_asm(tmp_path, -1))
    assert (code, r["verdict"]) == (0, "proved"), r


@needs_llc
def test_an_off_by_one_descending_scan_is_refuted_in_lane_0(tmp_path: Path) -> None:
    code, r = _verdict(*_asm(tmp_path, -2))
    assert (code, r["verdict"]) == (1, "refuted"), r
    assert any(n.startswith("counterexample: EXEC = 0x1;") for n in r["notes"]), r["notes"]
    assert any(n.strip().startswith("lane 0: workitem.id.x") for n in r["notes"]), r["notes"]


def _two_lanes(gpu0_extra: bool) -> tuple[str, object]:
    """Two lanes' returned values of one atomic add at one address: the IR's
    under ranks (pinned lane-ascending by FreeOrder), the GPU's
    lane-descending (lane 1 first), or with lane 0 also counting itself."""
    from verify import smt
    from verify.tv import atomics

    B = smt.Z3(aci=True, canon_eq=False)
    fo = atomics.FreeOrder(B, 2)
    r = fo(0)
    m, x = B.fresh("m"), [B.fresh("x0"), B.fresh("x1")]
    ir = [B.add(m, B.ite(B.ult(r[1 - i], r[i]), x[1 - i], B.const(0))) for i in range(2)]
    gpu = [B.add(B.add(m, x[1]), x[0]) if gpu0_extra else B.add(m, x[1]), m]
    q = smt.Query(10, session=B.session)
    for c in fo.pins:
        q.add(c)
    q.add(B.or_b(*(B.ne(a, b) for a, b in zip(ir, gpu))))
    assert q.check() == "sat"

    class Run:
        atomic_order = fo

    return atomics.another_order(q, Run(), [True, True]) or "", q


def test_a_counterexample_another_order_matches_is_no_refutation() -> None:
    note, _ = _two_lanes(False)
    assert note.startswith("not refuted: the IR's atomics in another order") and "in the order 1, 0" in note, note


def test_a_counterexample_no_order_matches_stays_a_refutation() -> None:
    note, _ = _two_lanes(True)
    assert note == ""


def test_the_lanes_below_in_both_halves_are_none_as_a_boolean() -> None:
    """v_mbcnt_hi over v_mbcnt_lo (wave64: the atomic optimizer's one lane)
    compared with 0 is "no active lane below", over the conditions alone:
    without it every wave64 function of atomics_optimizer.ll was unknown."""
    from verify import smt

    B = smt.Z3Sums(aci=True, canon_eq=False)
    c = [B.fresh_bool(f"c{i}") for i in range(6)]
    e = B.eq(B.add(B.popcount(c[:4]), B.popcount(c[4:])), 0)
    assert "ZeroExt" not in str(e) and "+" not in str(e), e
    q = smt.Query(10, session=B.session)
    q.add(B.ne(B.bool_value(e), B.bool_value(B.not_b(B.or_b(*c)))))
    assert q.check() == "unsat"


SHAPE = Path(__file__).parent / "tv" / "llvm-shape" / "atomics_optimizer.ll"


def _wave64(tmp_path: Path, old: str = "", new: str = "") -> tuple[int, dict]:
    """llc-22's DPP code for gfx1030 wave64 (atomics_optimizer.ll), `old`
    replaced by `new` once in add_i32_varying_ret, checked over any EXEC."""
    assert LLC is not None
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1030", "-mattr=+wavefrontsize64",
                          "-amdgpu-atomic-optimizer-strategy=DPP", str(SHAPE), "-o", "-"],
                         capture_output=True, text=True, check=True).stdout
    start = asm.index("\nadd_i32_varying_ret:")
    end = asm.index("s_setpc_b64", start)
    body = asm[start:end]
    if old:
        assert body.count(old) == 1, old
        body = body.replace(old, new)
    p = tmp_path / "w64.s"
    p.write_text(asm[:start] + body + asm[end:])
    code, out, _ = cli("tv", str(SHAPE), "--target", "gfx1030", "--wave", "64", "--asm", str(p), "--function",
                       "add_i32_varying_ret", "--json")
    (r,) = json.loads(out)["results"]
    return code, r


@needs_llc
@pytest.mark.slow
def test_the_dpp_atomic_optimizer_in_a_wave64_function_is_proved_for_any_exec(tmp_path: Path) -> None:
    code, r = _wave64(tmp_path)
    assert (code, r["verdict"]) == (0, "proved"), r



def test_the_order_search_finds_a_counterexample_every_order_fails() -> None:
    """The first model (c = 0) is matched by the IR's atomics in another
    order (lane 1 first); with that order's question added (smt.under_choice)
    the solver must move to inputs every order fails (c = 7: the GPU's lane 0
    adds one too many), and the model left on the query is that one."""
    from verify import smt
    from verify.tv import atomics

    B = smt.Z3(aci=True, canon_eq=False)
    fo = atomics.FreeOrder(B, 2)
    r = fo(0)
    m, x, c = B.fresh("m"), [B.fresh("x0"), B.fresh("x1")], B.fresh("c")
    ir = [B.add(m, B.ite(B.ult(r[1 - i], r[i]), x[1 - i], B.const(0))) for i in range(2)]
    gpu = [B.add(B.add(m, x[1]), B.ite(B.eq(c, B.const(7)), B.const(1), B.const(0))), m]
    q = smt.Query(10, session=B.session)
    for p in fo.pins:
        q.add(p)
    q.add(B.or_b(*(B.ne(a, b) for a, b in zip(ir, gpu))))
    q.push()
    q.add(B.ne(c, B.const(7)))  # the first model: c != 7, matched by lane 1 first
    assert q.check() == "sat"
    q.pop()  # (the model kept; the search may leave it)

    class Run:
        atomic_order = fo

    assert atomics.another_order(q, Run(), [True, True]) is None
    assert q.value(c) == 7
    assert len(q.assertions) == 3 and not q.marks  # (the orders' questions popped: the caller's push/pop balanced)


def test_without_such_inputs_the_order_search_stops_with_the_first_model() -> None:
    """No input that every order fails: the search adds the matching
    order, finds no model, and leaves the query as it was (the first model
    and the note naming the order)."""
    note, q = _two_lanes(False)
    assert note.startswith("not refuted: the IR's atomics in another order"), note
    assert q.model is not None and len(q.assertions) == 3  # (the two pins and the question)
