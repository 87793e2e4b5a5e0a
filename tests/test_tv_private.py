"""The IR's private memory in verify tv (verify/tv/private.py): an
`alloca ..., addrspace(5)` array per lane, its loads and stores through
`ptr addrspace(5)`; LLVM's AMDGPUPromoteAlloca turns a small one into a
`v_cndmask` chain, which is proved, and a mutant of it refuted with the
mutated line named.  A private array LLVM keeps in scratch is
run on a per-lane scratch memory by address in a function without
other memory; elsewhere it is unsupported."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytestmark = pytest.mark.skipif(shutil.which("llc-22") is None, reason="llc-22 not installed")

PICK = """\
define i32 @pa(i32 %i, i32 %a, i32 %b) {
entry:
  %buf = alloca [4 x i32], align 4, addrspace(5)
  %p0 = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 0
  store i32 %a, ptr addrspace(5) %p0, align 4
  %p1 = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 1
  store i32 %b, ptr addrspace(5) %p1, align 4
  %p2 = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 2
  store i32 7, ptr addrspace(5) %p2, align 4
  %p3 = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 3
  store i32 9, ptr addrspace(5) %p3, align 4
  %j = and i32 %i, 3
  %pj = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 %j
  %r = load i32, ptr addrspace(5) %pj, align 4
  ret i32 %r
}
"""

KERNEL = """\
define amdgpu_kernel void @kp(ptr addrspace(1) %out, i32 %a, i32 %b) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %buf = alloca [4 x i32], align 4, addrspace(5)
  %p0 = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 0
  store i32 %a, ptr addrspace(5) %p0, align 4
  %p1 = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 1
  store i32 %tid, ptr addrspace(5) %p1, align 4
  %p2 = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 2
  store i32 %b, ptr addrspace(5) %p2, align 4
  %p3 = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 3
  store i32 5, ptr addrspace(5) %p3, align 4
  %j = and i32 %tid, 3
  %pj = getelementptr [4 x i32], ptr addrspace(5) %buf, i32 0, i32 %j
  %r = load i32, ptr addrspace(5) %pj, align 4
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %r, ptr addrspace(1) %q
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"""


def _compile(tmp_path: Path, ir: str, wave: int, old: str | None = None, new: str = "") -> tuple[Path, Path, list[str], int]:
    ll = tmp_path / "p.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", f"-mattr=+wavefrontsize{wave}"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    lines = asm.splitlines()
    at = 0
    if old is not None:
        assert lines.count(f"\t{old}") == 1, asm
        at = lines.index(f"\t{old}") + 1
        lines[at - 1] = f"\t{new}"
    s = tmp_path / "p.s"
    s.write_text("\n".join(lines) + "\n")
    return ll, s, lines, at


def _tv(ll: Path, s: Path, wave: int) -> tuple[int, dict]:  # type: ignore[type-arg]
    code, js, _ = cli("tv", str(ll), "--target", "gfx1100", "--wave", str(wave), "--asm", str(s), "--json")
    return code, json.loads(js)["results"][0]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.slow
def test_a_private_array_llvm_promotes_is_proved(tmp_path, wave):
    ll, s, lines, _ = _compile(tmp_path, PICK, wave)
    assert not any("scratch_" in x for x in lines) and sum("v_cndmask_b32" in x for x in lines) == 3, lines
    code, res = _tv(ll, s, wave)
    assert code == 0 and res["verdict"] == "proved", res


def test_a_mutant_of_the_promoted_array_names_the_mutated_compare(tmp_path):
    """`v_cmp_ne_u32_e32 vcc_lo, 3, v0` (index 3 picks 9) made `1`: lane
    i with i & 3 == 3 gets the array's element 1 (%b): the compare's mask
    bit is named, for the v_cndmask it selects."""
    ll, s, lines, at = _compile(tmp_path, PICK, 32, "v_cmp_ne_u32_e32 vcc_lo, 3, v0", "v_cmp_ne_u32_e32 vcc_lo, 1, v0")
    sel = next(k for k in range(at, len(lines)) if lines[k].startswith("\tv_cndmask_b32")) + 1
    code, res = _tv(ll, s, 32)
    assert code == 1 and res["verdict"] == "refuted", res
    c = res["counterexample"]
    lane = next(r for r in c["lanes"] if r["differs"])["lane"]
    # (index 3 read as element 1, or index 1 as element 3: either mask bit is the mutated compare's)
    bit = re.match(rf"line {at} v_cmp_ne_u32_e32: vcc_lo\[{lane}\] = ([01]), the mask of line {sel} "
                   rf"v_cndmask_b32_e32 for v0\[{lane}\]; with ([01]) ", c["cause"])
    assert bit is not None and bit.group(1) != bit.group(2), c["cause"]


@pytest.mark.slow
def test_a_kernel_s_private_array_is_per_lane(tmp_path):
    """Each lane stores its own work-item ID in element 1 and reads the
    element its ID picks: proved in wave64 (one lane's private memory is
    not another's); the constant element made 6 is refuted at that line."""
    ll, s, _, _ = _compile(tmp_path, KERNEL, 64)
    code, res = _tv(ll, s, 64)
    assert code == 0 and res["verdict"] == "proved", res
    ll, s, _, at = _compile(tmp_path, KERNEL, 64, "v_cndmask_b32_e32 v1, 5, v2, vcc", "v_cndmask_b32_e32 v1, 6, v2, vcc")
    code, res = _tv(ll, s, 64)
    assert code == 1 and res["counterexample"]["cause"].startswith(f"line {at} v_cndmask_b32_e32: "), res


@pytest.mark.slow  # (about 4-5 s CPU: the IR's choices settled for 64 lanes)
def test_a_load_no_store_wrote_is_an_ir_choice(tmp_path):
    """Only element 0 is stored; a lane reading elements 1-3 reads what no
    store wrote (LangRef: undef): LLVM returns whatever its registers
    hold there, proved with the IR's values chosen from the GPU's."""
    ir = PICK.replace("  store i32 %b, ptr addrspace(5) %p1, align 4\n", "").replace(
        "  store i32 7, ptr addrspace(5) %p2, align 4\n", "").replace("  store i32 9, ptr addrspace(5) %p3, align 4\n", "")
    ll, s, _, _ = _compile(tmp_path, ir, 64)
    code, res = _tv(ll, s, 64)
    assert code == 0 and res["verdict"] == "proved", res


SCRATCH_IR = ("define i32 @pb(i32 %i, i32 %j, i32 %a) {\nentry:\n  %buf = alloca [64 x i32], align 4, addrspace(5)\n"
              "  %pi = getelementptr [64 x i32], ptr addrspace(5) %buf, i32 0, i32 %i\n"
              "  store i32 %a, ptr addrspace(5) %pi, align 4\n"
              "  %pj = getelementptr [64 x i32], ptr addrspace(5) %buf, i32 0, i32 %j\n"
              "  %r = load i32, ptr addrspace(5) %pj, align 4\n  ret i32 %r\n}\n")


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.slow
def test_a_private_array_in_scratch_is_proved(tmp_path, wave):
    """A 64-element array LLVM keeps in scratch: `v_lshl_add_u32 v0, v0,
    2, s32`, `scratch_store_b32 v0, v2, off`, `scratch_load_b32 v0, v1,
    off`, `s_waitcnt vmcnt(0)`: each lane's scratch by address, proved
    (where j != i the IR reads what no store wrote: its choice)."""
    ll, s, lines, _ = _compile(tmp_path, SCRATCH_IR, wave)
    assert "\tscratch_store_b32 v0, v2, off" in lines and "\tscratch_load_b32 v0, v1, off" in lines, lines
    code, res = _tv(ll, s, wave)
    assert code == 0 and res["verdict"] == "proved", res


def test_a_scratch_load_read_before_its_wait_is_named(tmp_path):
    """The `s_waitcnt vmcnt(0)` after the load removed: the returned v0 is
    read before the load has returned it, refuted at the load."""
    ll, s, lines, _ = _compile(tmp_path, SCRATCH_IR, 32)
    at = lines.index("\tscratch_load_b32 v0, v1, off") + 1
    assert lines[at] == "\ts_waitcnt vmcnt(0)", lines[at - 2:at + 2]
    s.write_text("\n".join(lines[:at] + lines[at + 1:]) + "\n")
    code, res = _tv(ll, s, 32)
    assert code == 1, res
    c = res["counterexample"]
    lane = next(r for r in c["lanes"] if r["differs"])["lane"]
    assert c["cause"] == (f"line {at} scratch_load_b32: v0[{lane}] unknown: read before a wait returns it (no "
                          "s_waitcnt vmcnt covers it)"), c["cause"]


@pytest.mark.slow
def test_a_scratch_load_at_a_wrong_address_is_refuted_at_the_load(tmp_path):
    """The load's address scaled by 8 (`v_lshl_add_u32 v1, v1, 3, s32`):
    where i == j the IR reads %a, the GPU scratch no store wrote; the load
    is named with its address, and the path shows the address computation."""
    ll, s, lines, at = _compile(tmp_path, SCRATCH_IR, 32, "v_lshl_add_u32 v1, v1, 2, s32", "v_lshl_add_u32 v1, v1, 3, s32")
    ld = lines.index("\tscratch_load_b32 v0, v1, off") + 1
    code, res = _tv(ll, s, 32)
    assert code == 1, res
    c = res["counterexample"]
    row = next(r for r in c["lanes"] if r["differs"])
    assert c["cause"].startswith(f"line {ld} scratch_load_b32: v0[{row['lane']}] loaded by scratch_load_b32 from "
                                 "scratch at ") and c["cause"].endswith(", where no store of the code wrote"), c
    assert any(t.startswith(f"line {at} (v_lshl_add_u32 v1, v1, 3, s32): ") for t in row["trace"]), row


def test_a_private_array_in_scratch_beside_other_memory_is_unsupported(tmp_path):
    """The same array in a function that also stores to global memory:
    its scratch would run as spills at the same address operands (two
    address operands that name one address would be two places), so it is
    unsupported, at the GPU line."""
    ir = SCRATCH_IR.replace("define i32 @pb(i32 %i, i32 %j, i32 %a)", "define void @pb(ptr addrspace(1) %o, i32 %i, "
                            "i32 %j, i32 %a)").replace("ret i32 %r", "store i32 %r, ptr addrspace(1) %o\n  ret void")
    ll, s, lines, _ = _compile(tmp_path, ir, 32)
    at = next(k for k, x in enumerate(lines) if x.startswith("\tscratch_store_b32")) + 1
    code, res = _tv(ll, s, 32)
    assert res["verdict"] == "unsupported", res
    assert any(f"unsupported: line {at}: scratch_store_b32 " in n and n.endswith(
        ": the IR's private memory (alloca) in scratch (modelled: allocas LLVM promotes to registers, and dword "
        "scratch_load/store in straight-line code of a function without other memory)") for n in res["notes"]), res


def test_lifetime_markers_run_and_an_escaping_address_is_unsupported(tmp_path):
    """`llvm.lifetime.start/end` of an alloca have no effect (after the end
    the IR's memory is undefined: the value kept is one it may hold), so
    the function is proved; a `ptrtoint` of an alloca exposes the address
    verify placed it at: unsupported, at the IR line.  (A private pointer
    argument, the caller's memory, is not an alloca's: a store through
    it stays unsupported, as before.)"""
    ir = ("define i32 @pl(i32 %i, i32 %a, i32 %b) {\nentry:\n  %buf = alloca [2 x i32], align 4, addrspace(5)\n"
          "  call void @llvm.lifetime.start.p5(i64 8, ptr addrspace(5) %buf)\n"
          "  %p1 = getelementptr [2 x i32], ptr addrspace(5) %buf, i32 0, i32 1\n"
          "  store i32 %a, ptr addrspace(5) %buf, align 4\n  store i32 %b, ptr addrspace(5) %p1, align 4\n"
          "  %j = and i32 %i, 1\n  %pj = getelementptr [2 x i32], ptr addrspace(5) %buf, i32 0, i32 %j\n"
          "  %r = load i32, ptr addrspace(5) %pj, align 4\n"
          "  call void @llvm.lifetime.end.p5(i64 8, ptr addrspace(5) %buf)\n  ret i32 %r\n}\n"
          "declare void @llvm.lifetime.start.p5(i64, ptr addrspace(5))\n"
          "declare void @llvm.lifetime.end.p5(i64, ptr addrspace(5))\n")
    ll, s, _, _ = _compile(tmp_path, ir, 32)
    code, res = _tv(ll, s, 32)
    assert code == 0 and res["verdict"] == "proved", res
    ir = ("define i32 @pe(i32 %a) {\nentry:\n  %buf = alloca i32, align 4, addrspace(5)\n"
          "  store i32 %a, ptr addrspace(5) %buf, align 4\n  %x = ptrtoint ptr addrspace(5) %buf to i32\n"
          "  ret i32 %x\n}\n")
    ll, s, _, _ = _compile(tmp_path, ir, 32)
    code, res = _tv(ll, s, 32)
    assert res["verdict"] == "unsupported", res
    assert any(n.endswith(":5:3: unsupported: ptrtoint of an alloca's pointer (its address escapes; verify places "
                          "the allocas itself)") for n in res["notes"]), res


def test_a_write_racing_a_scratch_load_is_named(tmp_path):
    """`v_mov_b32 v0, v2` put between the load into v0 and its wait: which
    write lands last is not known, so v0 is unknown there, refuted at the
    load with the race named."""
    ll, s, lines, _ = _compile(tmp_path, SCRATCH_IR, 32)
    at = lines.index("\tscratch_load_b32 v0, v1, off") + 1
    s.write_text("\n".join(lines[:at] + ["\tv_mov_b32 v0, v2"] + lines[at:]) + "\n")
    code, res = _tv(ll, s, 32)
    assert code == 1, res
    c = res["counterexample"]
    lane = next(r for r in c["lanes"] if r["differs"])["lane"]
    assert c["cause"] == (f"line {at} scratch_load_b32: v0[{lane}] unknown: v0 written while scratch_load_b32 was in "
                          "flight (which lands last?)"), c["cause"]


def test_a_store_through_a_private_pointer_argument_stays_unsupported(tmp_path):
    """The caller's private memory (a `ptr addrspace(5)` argument) is
    observable by the caller: a store through it is not the function's own
    memory, so it is not run as an alloca's (that would leave it
    unchecked): unsupported, as before."""
    ir = "define void @pw(ptr addrspace(5) %p, i32 %a) {\nentry:\n  store i32 %a, ptr addrspace(5) %p, align 4\n  ret void\n}\n"
    ll, s, _, _ = _compile(tmp_path, ir, 32)
    code, res = _tv(ll, s, 32)
    assert res["verdict"] == "unsupported", res
    assert any(n.endswith(":3:3: unsupported: pointer operand 'ptr addrspace(5) %p'") for n in res["notes"]), res


@pytest.mark.slow
def test_a_spill_reload_returned_before_its_wait_is_refuted(tmp_path):
    """A spill and reload of set_inactive_f64's result on gfx942 (as
    tests/test_tv_shape_wide.py's 64-bit spill test) with the function's
    last `s_waitcnt vmcnt(0)` removed: the reload into v[0:1] is still in
    flight at the return, which LLVM's callers do not wait for.  verify
    used to prove it (a reload wrote its value at once); now refuted at
    the reload."""
    from test_tv_shape_wide import SHAPE, function_text, llc, mutate, verdict
    src = SHAPE / "wide_set_inactive.ll"
    text = llc(src, "gfx942", 64)
    through = "scratch_store_dwordx2 off, v[2:3], s32 offset:16\n\tscratch_load_dwordx2 v[0:1], off, s32 offset:16"
    p = Path(mutate(tmp_path, text, "set_inactive_f64", "v_mov_b64_e32 v[0:1], v[2:3]", through))
    t = p.read_text()
    a, b = function_text(t, "set_inactive_f64")
    body = t[a:b]
    k = body.rindex("\ts_waitcnt vmcnt(0)\n")
    assert body[k:].split("\n")[1].startswith("\ts_setpc_b64"), body[k:]
    p.write_text(t[:a] + body[:k] + body[k + len("\ts_waitcnt vmcnt(0)\n"):] + t[b:])
    assert verdict(src, "gfx942", 64, str(p), "set_inactive_f64") == "refuted"
    ok = mutate(tmp_path, text, "set_inactive_f64", "v_mov_b64_e32 v[0:1], v[2:3]", through)  # (the wait kept)
    assert verdict(src, "gfx942", 64, ok, "set_inactive_f64") == "proved"
