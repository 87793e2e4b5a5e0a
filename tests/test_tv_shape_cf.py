"""Control flow in `verify tv` (issue 31, item 7): LLVM's branches, saveexec
regions and Iterative loops (tests/tv/llvm-shape/cf_*.ll, in the shape of
LLVM's own tests), IR loops over the lanes' mask bits (verify/tv/irloop.py),
one-token mutants of LLVM's output refuted, and loops verify cannot bound
reported unsupported at their line."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify.tv.compile import run_line_instances
from verify.tv.llir import run_lines

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"
CF = sorted(SHAPE.glob("cf_*.ll"))
LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")

LANE_LOOP = """; RUN: llc -mtriple=amdgcn -mcpu=gfx1030 -mattr=+wavefrontsize32 < %s | FileCheck %s
declare i32 @llvm.amdgcn.ballot.i32(i1)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %gi = getelementptr i32, ptr addrspace(1) %in, i32 %id
  %x = load i32, ptr addrspace(1) %gi
  %mask0 = MASK
  br label %loop
loop:
  %mask = phi i32 [ %mask0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  %i = call i32 @llvm.cttz.i32(i32 %mask, i1 true)
  %v = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 %i)
  %acc2 = add i32 %acc, %v
  %m1 = sub i32 %mask, 1
  %next = and i32 %mask, %m1
  %more = icmp ne i32 %next, 0
  br i1 %more, label %loop, label %done
done:
  %go = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %acc2, ptr addrspace(1) %go
  ret void
}
"""
BALLOT = "call i32 @llvm.amdgcn.ballot.i32(i1 true)"


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def results(*args: str) -> tuple[int, list[dict]]:
    code, out, _ = cli("tv", *args, "--json")
    return code, json.loads(out)["results"]


def llc(path: str, cpu: str, wave: int) -> str:
    assert LLC is not None
    attr = [] if cpu.startswith("gfx9") else [f"-mattr=+wavefrontsize{wave}"]
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", *attr, path, "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


def test_cf_files_have_the_llvm_test_shape():
    assert len(CF) >= 5
    for p in CF:
        text = p.read_text()
        assert len(run_line_instances(str(p), run_lines(text))) >= 2, p
        assert text.count("define ") >= 2, p
        assert "br " in text or "Iterative" in text or "wave.reduce" in text, p


@pytest.mark.slow
@needs_llc
def test_inverted_exec_branch_in_llvm_output_is_refuted(tmp_path):
    """LLVM's `s_and_saveexec; s_cbranch_execz` around a readfirstlane, the
    branch inverted (execz -> execnz): the region runs only when no lane
    wants it; refuted with a lane that took the branch."""
    ir = write(tmp_path, "f.ll", """; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
define i32 @if_readfirstlane(i32 %x, i32 %c) {
entry:
  %cmp = icmp eq i32 %c, 0
  br i1 %cmp, label %then, label %join
then:
  %a = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %x)
  br label %join
join:
  %r = phi i32 [ %a, %then ], [ %x, %entry ]
  ret i32 %r
}
""")
    asm = llc(ir, "gfx900", 64)
    assert asm.count("s_cbranch_execz") == 1
    code, rs = results(ir, "--asm", write(tmp_path, "ok.s", asm), "--target", "gfx900", "--wave", "64")
    assert code == 0 and rs[0]["verdict"] == "proved", rs
    code, rs = results(ir, "--asm", write(tmp_path, "bad.s", asm.replace("s_cbranch_execz", "s_cbranch_execnz")),
                       "--target", "gfx900", "--wave", "64")
    assert code == 1 and rs[0]["verdict"] == "refuted", rs
    # the branch deleted: with EXEC = 0 the region's v_readfirstlane and
    # v_mov write no lane, so the code still refines the IR (EXEC modelled
    # exactly, not the branch taken on trust)
    gone = "\n".join(line for line in asm.splitlines() if "s_cbranch_execz" not in line) + "\n"
    code, rs = results(ir, "--asm", write(tmp_path, "gone.s", gone), "--target", "gfx900", "--wave", "64")
    assert code == 0 and rs[0]["verdict"] == "proved", rs


@pytest.mark.slow
@needs_llc
def test_ir_loop_over_ballot_bits_is_proved_in_a_kernel(tmp_path):
    """The IR loop (cttz, readlane, M & (M - 1)) bounded by proof, against
    LLVM's s_ff1/v_readlane/s_and/s_cbranch_scc1 loop, per dispatch EXEC."""
    ir = write(tmp_path, "k.ll", LANE_LOOP.replace("MASK", BALLOT))
    code, rs = results(ir, "--llc", "llc-22")
    assert [r["verdict"] for r in rs] == ["proved"], rs
    assert code == 0


@needs_llc
@pytest.mark.slow
def test_ir_lane_loop_mutant_subtracting_is_refuted(tmp_path):
    """LLVM's loop with its accumulating s_add_i32 turned into s_sub_i32:
    refuted (the mask's own s_add_i32 ..., -1 is left alone)."""
    ir = write(tmp_path, "k.ll", LANE_LOOP.replace("MASK", BALLOT))
    asm = llc(ir, "gfx1030", 32)
    assert asm.count("s_add_i32") >= 1
    lines = asm.splitlines()
    loop = next(i for i, line in enumerate(lines) if "s_ff1_i32_b32" in line)
    k = next(i for i in range(loop, len(lines)) if "s_add_i32" in lines[i] and "-1" not in lines[i])
    lines[k] = lines[k].replace("s_add_i32", "s_sub_i32")
    code, rs = results(ir, "--asm", write(tmp_path, "bad.s", "\n".join(lines) + "\n"), "--target", "gfx1030",
                       "--wave", "32")
    assert code == 1 and rs[0]["verdict"] == "refuted", rs


@needs_llc
@pytest.mark.slow
def test_ir_lane_loop_with_a_mask_not_the_same_in_every_lane_is_unsupported(tmp_path):
    """A per-lane mask with a readlane in the body: iteration j is not the
    same dynamic instance in every lane, so the loop is not run."""
    asm = llc(write(tmp_path, "b.ll", LANE_LOOP.replace("MASK", BALLOT)), "gfx1030", 32)
    ir = write(tmp_path, "k.ll", LANE_LOOP.replace("MASK", "or i32 %x, 1"))
    # (LLVM's code for the ballot's loop: GPU code verify runs, so the IR's loop is what is refused)
    code, rs = results(ir, "--asm", write(tmp_path, "k.s", asm), "--target", "gfx1030", "--wave", "32")
    assert rs[0]["verdict"] == "unsupported", rs
    assert any("k.ll:22:3: unsupported: loop at %loop: its mask is not proved the same in every lane" in n
               for n in rs[0]["notes"]), rs[0]["notes"]
    assert code == 4


COUNTED = """; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s | FileCheck %s
; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s | FileCheck %s
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
define i32 @counted_dpp(i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %v = phi i32 [ %x, %entry ], [ %v2, %loop ]
  %v2 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 273, i32 15, i32 15, i1 true)
  %i2 = add i32 %i, 1
  %more = icmp ult i32 %i2, 4
  br i1 %more, label %loop, label %done
done:
  ret i32 %v2
}

define i32 @two_block_loop(i32 %x, i32 %n) {
entry:
  br label %head
head:
  %v = phi i32 [ %x, %entry ], [ %v2, %body ]
  %c = icmp ult i32 %v, %n
  br i1 %c, label %body, label %done
body:
  %v2 = shl i32 %v, 1
  br label %head
done:
  ret i32 %v
}
"""


@needs_llc
def test_loops_verify_cannot_bound_are_unsupported_at_their_line(tmp_path):
    """A counted loop (its trip count is not the lanes') and a two-block
    loop: unsupported, one line each naming the back edge and the header,
    on every RUN line; never proved."""
    ir = write(tmp_path, "loops.ll", COUNTED)
    code, rs = results(ir, "--llc", "llc-22")
    assert code == 4
    assert len(rs) == 4 and all(r["verdict"] == "unsupported" for r in rs), rs
    for r in rs:
        note = " ".join(r["notes"])
        if r["function"] == "counted_dpp":
            assert "loops.ll:13:3: unsupported: loop at %loop: its trip count is not bounded by the lanes" in note
        else:
            assert "loops.ll:27:3: unsupported: loop (a back edge to %head)" in note
