"""`verify tv` on control flow (docs/tv.md, "Control flow"): IR with
branches, phis and switches, per lane; GPU code with EXEC-masked branches."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify import smt
from verify.diag import InputError
from verify.machine import Machine
from verify.target import FeatureLog
from verify.target import get as get_target
from verify.tv.cfg import _leave_loop, _State
from verify.tv.check import gpu_code, run_gpu
from verify.tv.compile import by_llvmlite_isolated
from verify.tv.kernel import Kernel

IFELSE = """define i32 @src(i32 %a, i32 %b) {
entry:
  %c = icmp slt i32 %a, %b
  br i1 %c, label %then, label %else
then:
  %x = add i32 %a, 1
  br label %join
else:
  %y = xor i32 %b, %a
  br label %join
join:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}
define i32 @tgt(i32 %a, i32 %b) {
  %c = icmp slt i32 %a, %b
  %x = add i32 %a, 1
  %y = xor i32 %b, %a
  %r = select i1 %c, i32 %x, i32 %y
  ret i32 %r
}
"""

SWITCH = """define i32 @src(i32 %a) {
e:
  switch i32 %a, label %d [ i32 1, label %one
                            i32 5, label %five ]
one:
  ret i32 10
five:
  br label %d
d:
  %p = phi i32 [ 0, %e ], [ %a, %five ]
  ret i32 %p
}
define i32 @tgt(i32 %a) {
  %is1 = icmp eq i32 %a, 1
  %is5 = icmp eq i32 %a, 5
  %v = select i1 %is5, i32 5, i32 0
  %r = select i1 %is1, i32 10, i32 %v
  ret i32 %r
}
"""

# the value of %x is defined only on the path through %then: a lane that went
# the other way reads poison from the phi's other edge, which src returns
POISON_PATH = """define i32 @src(i32 %a) {
entry:
  %c = icmp eq i32 %a, 0
  br i1 %c, label %then, label %join
then:
  %x = add i32 %a, 7
  br label %join
join:
  %r = phi i32 [ %x, %then ], [ poison, %entry ]
  ret i32 %r
}
define i32 @tgt(i32 %a) {
  ret i32 7
}
"""

# readfirstlane in a divergent block reads the first lane that reached it
DIVERGENT_READFIRSTLANE = """define i32 @src(i32 %a, i32 %b) {
entry:
  %c = icmp ne i32 %b, 0
  br i1 %c, label %then, label %join
then:
  %x = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %a)
  br label %join
join:
  %r = phi i32 [ %x, %then ], [ 0, %entry ]
  ret i32 %r
}
define i32 @tgt(i32 %a, i32 %b) {
  %x = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %a)
  %c = icmp ne i32 %b, 0
  %r = select i1 %c, i32 %x, i32 0
  ret i32 %r
}
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("target,wave", [("gfx942", "64"), ("gfx1100", "32")])
def test_ir_if_else_phi_is_a_select(tmp_path, target, wave):
    code, out, _ = cli("tv", write(tmp_path, "p.ll", IFELSE), "--target", target, "--wave", wave)
    assert code == 0, out
    assert out.splitlines()[0] == f"src -> tgt on {target} wave{wave} (IR): proved"


def test_ir_mutated_phi_is_refuted(tmp_path):
    text = IFELSE.replace("phi i32 [ %x, %then ], [ %y, %else ]", "phi i32 [ %x, %then ], [ %b, %else ]")
    code, out, _ = cli("tv", write(tmp_path, "p.ll", text), "--target", "gfx1100", "--wave", "32")
    assert code == 1, out
    assert out.splitlines()[0] == "src -> tgt on gfx1100 wave32 (IR): refuted"
    assert "counterexample: EXEC = 0x1" in out


def test_ir_switch(tmp_path):
    code, out, _ = cli("tv", write(tmp_path, "s.ll", SWITCH), "--target", "gfx1100", "--wave", "32")
    assert code == 0, out
    bad = SWITCH.replace("i32 5, label %five", "i32 6, label %five")
    code, out, _ = cli("tv", write(tmp_path, "s2.ll", bad), "--target", "gfx1100", "--wave", "32")
    assert code == 1, out


def test_ir_values_off_the_path_are_poison(tmp_path):
    code, out, _ = cli("tv", write(tmp_path, "q.ll", POISON_PATH), "--target", "gfx1100", "--wave", "32")
    assert code == 0, out


def test_ir_cross_lane_call_runs_on_the_lanes_that_reach_it(tmp_path):
    # tgt reads the first lane of EXEC, src the first lane with %b != 0
    code, out, _ = cli("tv", write(tmp_path, "r.ll", DIVERGENT_READFIRSTLANE), "--target", "gfx1100", "--wave", "32")
    assert code == 1, out
    assert "refuted" in out.splitlines()[0]
    # the same in both: proved
    same = DIVERGENT_READFIRSTLANE.split("define i32 @tgt")[0].replace("@src", "@tgt")
    two = DIVERGENT_READFIRSTLANE.split("define i32 @tgt")[0] + same + "declare i32 @llvm.amdgcn.readfirstlane.i32(i32)\n"
    code, out, _ = cli("tv", write(tmp_path, "r2.ll", two), "--target", "gfx1100", "--wave", "32")
    assert code == 0, out


def test_ir_back_edge_is_refused_with_its_position(tmp_path):
    text = ("define i32 @f(i32 %n) {\nentry:\n  br label %l\nl:\n  %i = phi i32 [ 0, %entry ], [ %j, %l ]\n"
            "  %j = add i32 %i, 1\n  %c = icmp ult i32 %j, %n\n  br i1 %c, label %l, label %d\nd:\n  ret i32 %j\n}\n")
    p = write(tmp_path, "loop.ll", text)
    code, out, _ = cli("tv", p, "--target", "gfx942")
    assert code == 4
    # (a one-block loop that is not the accepted loop over mask bits: irloop.py)
    assert any(line.startswith(f"  {p}:8:3: unsupported: loop at %l: its trip count is not bounded by the lanes")
               for line in out.splitlines()), out


# ---- the GPU side: branches around EXEC-masked code --------------------------

GPU = """define amdgpu_kernel void @lane0_store(ptr addrspace(1) %out, i32 %v) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp eq i32 %tid, 0
  br i1 %c, label %then, label %done
then:
  store i32 %v, ptr addrspace(1) %out, align 4
  br label %done
done:
  ret void
}
define i32 @ifelse(i32 %a, i32 %b) {
entry:
  %c = icmp slt i32 %a, %b
  br i1 %c, label %then, label %else
then:
  %x = add i32 %a, 1
  br label %join
else:
  %y = xor i32 %b, %a
  br label %join
join:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  ret i32 %r
}
declare i32 @llvm.amdgcn.workitem.id.x()
"""

LLC = shutil.which("llc-22")


def compiled(tmp_path: Path, cpu: str, wave: int) -> tuple[str, str]:
    """The .ll file and llc-22's assembly of it."""
    assert LLC is not None
    p = write(tmp_path, "cf.ll", GPU)
    attr = [] if cpu.startswith("gfx9") else [f"-mattr=+wavefrontsize{wave}"]
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O2", *attr, p, "-o", "-"],
                       capture_output=True, text=True, check=True)
    return p, r.stdout


def tv_asm(tmp_path: Path, ll: str, asm: str, fn: str, cpu: str, wave: int) -> tuple[int, str]:
    s = write(tmp_path, "code.s", asm)
    code, out, _ = cli("tv", ll, "--target", cpu, "--wave", str(wave), "--function", fn, "--asm", s)
    return code, out


@pytest.mark.slow
@pytest.mark.parametrize("target,wave", [("gfx942", 64), ("gfx1100", 32), ("gfx1100", 64), ("gfx1200", 32)])
def test_gpu_if_else_and_masked_store_are_proved(tmp_path, target, wave):
    p = write(tmp_path, "cf.ll", GPU)
    code, out, _ = cli("tv", p, "--target", target, "--wave", str(wave))
    assert code == 0, out
    assert out.splitlines()[-1] == "Summary: 2 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported"


@pytest.mark.slow
@pytest.mark.skipif(LLC is None, reason="llc-22 not installed")
def test_gpu_if_else_mutants_are_refuted(tmp_path):
    ll, asm = compiled(tmp_path, "gfx942", 64)
    code, out = tv_asm(tmp_path, ll, asm, "ifelse", "gfx942", 64)
    assert code == 0, out
    # the then-side computes a + 2
    code, out = tv_asm(tmp_path, ll, asm.replace("v_add_u32_e32 v0, 1, v2", "v_add_u32_e32 v0, 2, v2"), "ifelse",
                       "gfx942", 64)
    assert code == 1, out
    assert "GPU: line" in out and "v_add_u32_e32 v0, 2, v2" in out
    # EXEC not restored at the join
    lines = asm.split("\n")
    k = next(i for i, t in enumerate(lines) if "s_or_b64 exec, exec" in t)
    code, out = tv_asm(tmp_path, ll, "\n".join(lines[:k] + lines[k + 1:]), "ifelse", "gfx942", 64)
    assert code == 1, out
    assert "not EXEC at entry" in out


@pytest.mark.slow
@pytest.mark.skipif(LLC is None, reason="llc-22 not installed")
def test_gpu_masked_store_with_the_branch_inverted_is_refuted(tmp_path):
    ll, asm = compiled(tmp_path, "gfx1100", 32)
    assert "s_cbranch_execz" in asm
    code, out = tv_asm(tmp_path, ll, asm.replace("s_cbranch_execz", "s_cbranch_execnz", 1), "lane0_store", "gfx1100", 32)
    assert code == 1, out
    assert "counterexample: EXEC = 0x1;" in out


@pytest.mark.skipif(LLC is None, reason="llc-22 not installed")
def test_gpu_back_edge_is_refused_with_its_line(tmp_path):
    ll, asm = compiled(tmp_path, "gfx942", 64)
    lines = asm.split("\n")
    k = next(i for i, t in enumerate(lines) if t.startswith("ifelse:"))
    j = next(i for i in range(k, len(lines)) if "s_cbranch_execz" in lines[i])
    label = next(lines[i].split(":")[0] for i in range(j, 0, -1) if lines[i].startswith(".LBB"))
    lines[j] = f"\ts_cbranch_execz {label}"
    code, out = tv_asm(tmp_path, ll, "\n".join(lines), "ifelse", "gfx942", 64)
    assert code == 4, out
    assert (f"unsupported: a loop in the GPU code of a shape verify does not accept: line {j + 1}: "
            f"s_cbranch_execz {label}") in out


# ---- bounded loops: LLVM's Iterative wave.reduce / atomic optimizer loop ----

REDUCE = {64: """red:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_mov_b64 s[0:1], exec
	s_mov_b32 s2, 0
.LBB1_1:
	s_ff1_i32_b64 s3, s[0:1]
	v_readlane_b32 s4, v0, s3
	s_bitset0_b64 s[0:1], s3
	s_add_i32 s2, s2, s4
	s_cmp_lg_u64 s[0:1], 0
	s_cbranch_scc1 .LBB1_1
	v_mov_b32_e32 v0, s2
	s_setpc_b64 s[30:31]
""", 32: """red:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_mov_b32 s1, exec_lo
	s_mov_b32 s0, 0
.LBB1_1:
	s_ctz_i32_b32 s2, s1
	v_readlane_b32 s3, v0, s2
	s_bitset0_b32 s1, s2
	s_add_i32 s0, s0, s3
	s_cmp_lg_u32 s1, 0
	s_cbranch_scc1 .LBB1_1
	v_mov_b32_e32 v0, s0
	s_setpc_b64 s[30:31]
"""}


def run_reduce(asm: str, target: str, wave: int, mask: int, x: list[int]) -> list[int]:
    code = gpu_code(asm, "red", "<t>", False)
    assert not code.problems, code.problems
    B = smt.Z3()

    def initial(kind: str, name: str, lane: int | None) -> object:
        if kind == "v":
            assert lane is not None
            return x[lane] if name == "v0" else 0
        return False if kind == "scc" else 0

    m = Machine(B, wave, initial, FeatureLog(get_target(target)), {}, waits=True)
    m.set_s("exec_lo", mask & 0xFFFFFFFF)
    m.set_s("exec_hi", mask >> 32)
    run_gpu(m, code)
    return list(m.v(0))


@pytest.mark.parametrize("target,wave", [("gfx942", 64), ("gfx1100", 32)])
def test_gpu_iterative_reduce_loop_sums_the_active_lanes(target, wave):
    rnd = random.Random(7)
    for _ in range(3):
        mask = rnd.getrandbits(wave) | 1 << rnd.randrange(wave)
        x = [rnd.getrandbits(32) for _ in range(wave)]
        got = run_reduce(REDUCE[wave], target, wave, mask, x)
        want = sum(x[i] for i in range(wave) if mask >> i & 1) & 0xFFFFFFFF
        assert [got[i] for i in range(wave) if mask >> i & 1] == [want] * bin(mask).count("1")


def test_gpu_loop_of_another_shape_is_refused():
    # clearing the HIGHEST bit instead (s_bitset0 of a constant): not the accepted shape
    asm = REDUCE[32].replace("s_bitset0_b32 s1, s2", "s_bitset0_b32 s1, 31")
    code = gpu_code(asm, "red", "<t>", False)
    B = smt.Z3()
    m = Machine(B, 32, lambda kind, name, lane: False if kind == "scc" else 0, FeatureLog(get_target("gfx1100")), {})
    m.set_s("exec_lo", 0x5)
    with pytest.raises(InputError, match="a loop in the GPU code of a shape verify does not accept: line 11: s_cbranch_scc1"):
        run_gpu(m, code)


DIVERGENT_CALLS = """define i32 @divrfl(i32 %a, i32 %b) {
entry:
  %c = icmp ne i32 %b, 0
  br i1 %c, label %then, label %join
then:
  %x = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %a)
  %y = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %a, i32 273, i32 15, i32 15, i1 false)
  %z = add i32 %x, %y
  br label %join
join:
  %r = phi i32 [ %z, %then ], [ %b, %entry ]
  ret i32 %r
}
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
"""


@pytest.mark.slow
@pytest.mark.parametrize("target,wave", [("gfx942", 64), ("gfx1100", 32)])
def test_gpu_cross_lane_calls_in_a_divergent_block(tmp_path, target, wave):
    # EXEC inside the branch is the lanes that took it, on both sides; the
    # branch itself is not an EXEC write for the hazard checker
    code, out, _ = cli("tv", write(tmp_path, "d.ll", DIVERGENT_CALLS), "--target", target, "--wave", str(wave))
    assert code == 0, out
    assert "hazard" not in out


# ---- kernels with loops and atomics: the wait state, per-EXEC proofs ----

CORPUS = Path(__file__).parent / "tv"
LLC = shutil.which("llc-22")


def test_kernel_wait_state_survives_saves_and_joins():
    """vm_order travels with the pending loads (vmcnt(N) needs it); paths
    with different loads in flight merge to 'only vmcnt(0) retires'."""
    k = Kernel.__new__(Kernel)
    k.pending_v, k.pending_s, k.vm_order = {2, 3}, set(), [2, 3]
    saved = k.save()
    k.pending_v, k.vm_order = set(), []
    k.load(saved)
    assert (k.pending_v, k.vm_order) == ({2, 3}, [2, 3])
    assert k.merge(True, saved, saved)[2] == [2, 3]
    assert k.merge(True, saved, ({2}, set(), [2]))[2] is None
    assert k.merge(True, saved, ({2}, set(), [2]))[0] == {2, 3}


def test_loop_exit_wait_state_is_that_after_an_iteration():
    """A wait inside the loop body counts after the loop (the loop runs at
    least once): the load before the loop is not pending after it."""
    class Pending:
        def __init__(self) -> None:
            self.p: set[int] = {9}

        def save(self) -> set[int]:
            return set(self.p)

        def load(self, s: set[int]) -> None:
            self.p = set(s)

        def merge(self, c: object, a: set[int], b: set[int]) -> set[int]:
            return a | b

        def set_pc(self, pc: object) -> None:
            pass

    B = smt.Z3()
    m = Machine(B, 32, lambda kind, name, lane: 0, FeatureLog(get_target("gfx1100")), {}, waits=False)
    e = Pending()
    _leave_loop(m, [_State({}, {}, False, None, set()), _State({}, {}, False, None, {4})], e)
    assert e.p == {4}


def kernel_tv(path: Path, target: str, wave: int, *extra: str) -> tuple[int, str]:
    code, out, _ = cli("tv", str(path), "--target", target, "--wave", str(wave), *extra)
    return code, out


@pytest.mark.slow
@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.parametrize("strategy", ["Iterative", "DPP"])
def test_atomic_optimizer_strategies_are_proved(strategy):
    code, out = kernel_tv(CORPUS / "kernel_atomic_add_optimizer.ll", "gfx1100", 32, "--llc",
                          f"{LLC} --amdgpu-atomic-optimizer-strategy={strategy}")
    assert code == 0 and out.splitlines()[-1] == "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported", out


@pytest.mark.slow
def test_atomic_optimizer_loop_mutant_is_refuted(tmp_path):
    """The Iterative loop's accumulator s_add -> s_or: refuted with two lanes."""
    path = CORPUS / "kernel_atomic_add_optimizer.ll"
    asm = by_llvmlite_isolated(path.read_text(), get_target("gfx1100"), 32)
    assert "s_add_i32 s2, s2, s7" in asm
    (tmp_path / "m.s").write_text(asm.replace("s_add_i32 s2, s2, s7", "s_or_b32 s2, s2, s7"))
    code, out = kernel_tv(path, "gfx1100", 32, "--asm", str(tmp_path / "m.s"))
    assert code == 1 and "with EXEC = lanes 0..1" in out and "counterexample: EXEC = 0x3" in out, out


@pytest.mark.slow
@pytest.mark.parametrize("old, new", [("s_max_i32 s2, s2, s7", "s_max_u32 s2, s2, s7"),
                                      ("v_max_i32_e32 v1, s0, v1", "v_min_i32_e32 v1, s0, v1")])
def test_atomic_max_optimizer_mutants_are_refuted(tmp_path, old, new):
    """The min/max optimizer kernels prove (one proof per dispatch EXEC, each
    a canonical min/max nest): a signed max accumulated unsigned (the
    identity 0x80000000 then wins), or the lane's result combined with min
    (the identity written to the first lane then wins), is refuted with
    one lane, and the memory the IR leaves is shown."""
    path = CORPUS / "kernel_atomic_max_optimizer.ll"
    asm = by_llvmlite_isolated(path.read_text(), get_target("gfx1100"), 32)
    assert old in asm
    (tmp_path / "m.s").write_text(asm.replace(old, new))
    code, out = kernel_tv(path, "gfx1100", 32, "--asm", str(tmp_path / "m.s"))
    assert code == 1 and "with EXEC = lanes 0..0" in out and "counterexample: EXEC = 0x1; memory at" in out, out


@pytest.mark.slow  # over 5 s: the fast tier stays near 2 minutes
def test_atomic_max_optimizer_is_proved():
    code, out = kernel_tv(CORPUS / "kernel_atomic_max_optimizer.ll", "gfx1200", 32)
    assert code == 0 and out.splitlines()[-1] == "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported", out


@pytest.mark.slow
def test_a_named_hazard_assumption_is_honoured_and_named():
    """llc-22's DPP atomic optimizer for gfx1200 wave32 reads, in
    v_writelane, the SGPR a v_readlane wrote, with no s_wait_alu: an SALU
    read of a tracked SGPR stands between, which commits the VALU writes in
    LLVM's model (hazard.gfx12_sgpr=llvm, the default: proved); the strict
    variant takes only an s_wait_alu (unknown), and --robust shows both.
    The runs get a small budget (6 s of resources for --robust, where the
    default proof needs between 2 s and 5 s of it; 2 s for the strict
    variant alone): on the default 30 s, the value read in the window (any
    value) refutes the strict variant after 44 s of CPU."""
    path = CORPUS / "kernel_atomic_add_optimizer.ll"
    asm = ("--asm", str(Path(__file__).parent / "data" / "tv" / "atomic_add_dpp_gfx1200_w32.s"))
    code, out = kernel_tv(path, "gfx1200", 32, *asm, "--robust", "--timeout", "6")
    assert code == 3, out
    assert "  proved   under hazard.gfx12_sgpr=llvm, ir.store_race=same_value, kernel.entry_exec=prefix (the defaults)" \
        in out, out
    assert "  unknown  under hazard.gfx12_sgpr=strict, kernel.entry_exec=prefix" in out, out
    code, out = kernel_tv(path, "gfx1200", 32, *asm)
    assert code == 0 and "warning" not in out, out
    assert "assumptions: hazard.gfx12_sgpr=llvm, ir.store_race=same_value, kernel.entry_exec=prefix" in out, out
    code, out = kernel_tv(path, "gfx1200", 32, *asm, "--assume", "hazard.gfx12_sgpr=strict", "--timeout", "2")
    # under strict, v_writelane reads s3 as unknown (the machine sees the
    # window): not proved, and the warning names the missing wait
    assert code == 3 and ": unknown (43 GPU instructions)" in out.splitlines()[0], out
    assert "line 33 (v_readlane_b32) writes s3 and v_writelane_b32 reads it with no s_wait_alu depctr_va_sdst(0) " \
           "between" in out, out
