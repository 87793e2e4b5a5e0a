"""`verify tv`: translation validation of LLVM IR against the GPU code LLVM
makes of it (docs/tv.md).  The fast tier checks a few corpus functions on
one target, the verdicts for unsupported input and for mutants; the slow
tier runs the whole corpus (tests/tv/) on every target and wave its RUN lines
name, and one IR mutant of every other file (the corpus tier the rest)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli, tier_split

pytest.importorskip("llvmlite")

from test_tv_corpus import EXPECTED_HAZARD, EXPECTED_UNSUPPORTED, KERNELS

from verify.tv.compile import run_line_instances
from verify.tv.llir import read_module

CORPUS = Path(__file__).parent / "tv"
FILES = sorted(CORPUS.glob("*.ll"))
LLC = shutil.which("llc-22")


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def llc(path: str, cpu: str, wave: int, *extra: str) -> str:
    assert LLC is not None
    attr = [] if cpu.startswith("gfx9") else [f"-mattr=+wavefrontsize{wave}"]
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O2", *attr, *extra, path, "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


# ---------------------------------------------------------------------------
# fast


def test_corpus_is_large_enough():
    assert len(FILES) >= 40


def test_run_lines_give_targets_and_waves():
    text = (CORPUS / "permlane64_add.ll").read_text()
    mod = read_module("x.ll", text)
    assert [(t.name, w) for t, w in run_line_instances("x.ll", mod.run_lines)] == [("gfx1100", 64), ("gfx1200", 64)]
    mod = read_module("y.ll", (CORPUS / "hip_shfl_xor_5_w16.ll").read_text())
    got = [(t.name, w) for t, w in run_line_instances("y.ll", mod.run_lines)]
    assert got[:4] == [("gfx90a", 64), ("gfx942", 64), ("gfx950", 64), ("gfx1030", 32)] and len(got) == 9


@pytest.mark.parametrize("name, target, wave", [("hip_shfl_xor_5_w16", "gfx1100", 32),
                                                ("dpp_row_shr1_add", "gfx90a", 64)])
def test_proves_corpus_functions(name, target, wave):
    code, out, err = cli("tv", str(CORPUS / f"{name}.ll"), "--target", target, "--wave", str(wave))
    assert (code, err) == (0, ""), out
    assert out.splitlines() == [f"{name} on {target} wave{wave} (llvmlite): proved" + out.split("proved", 1)[1].split("\n")[0],
                                f"  for {target} wave{wave} under exec=any, assumptions: {SCOPE[name]}",
                                "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported"]


# the assumptions each proof above relies on (its scope)
SCOPE = {"hip_shfl_xor_5_w16": "permute.addr_sign=bits", "dpp_row_shr1_add": "none"}


IR_HEAD = "declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)\n"


def test_unsupported_instruction_is_named_at_its_line(tmp_path):
    p = write(tmp_path, "d.ll", "define i32 @f(i32 %x, i32 %y) {\n  %q = udiv i32 %x, %y\n  ret i32 %q\n}\n")
    code, out, err = cli("tv", p, "--target", "gfx1100", "--wave", "32")
    assert code == 4
    assert out.splitlines() == ["f on gfx1100 wave32 (llvmlite): unsupported",
                                f"  {p}:2:3: unsupported: instruction 'udiv'",
                                "Summary: 0 correct, 0 incorrect, 0 failed-to-prove, 1 unsupported"]


def test_a_loop_is_unsupported(tmp_path):
    p = write(tmp_path, "b.ll", "define i32 @f(i32 %n) {\nentry:\n  br label %l\nl:\n  %i = phi i32 [ 0, %entry ], [ %j, %l ]\n"
                                "  %j = add i32 %i, 1\n  %c = icmp ult i32 %j, %n\n  br i1 %c, label %l, label %d\nd:\n  ret i32 %j\n}\n")
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32")
    assert code == 4
    # (a one-block loop that is not the accepted loop over mask bits: irloop.py)
    assert any(line.startswith(f"  {p}:8:3: unsupported: loop at %l: its trip count is not bounded by the lanes")
               for line in out.splitlines()), out


def test_unsupported_intrinsic_on_a_target(tmp_path):
    text = (CORPUS / "dpp8_reverse.ll").read_text()
    p = write(tmp_path, "d8.ll", text)
    code, out, _ = cli("tv", p, "--target", "gfx942")
    assert code == 4
    assert "dpp8 is not available on gfx942" in out


def test_poison_and_undef(tmp_path):
    # A shift by the width is poison: any GPU value refines it.  undef and
    # freeze of poison are the IR's to choose (Alive2's refinement): the GPU
    # value is one of the IR's choices, so all three are proved
    # (verify/tv/nondet.py; tests/test_tv_nondet.py has the refutations).
    p = write(tmp_path, "p.ll", "define i32 @f(i32 %x) {\n  %s = shl i32 %x, 32\n  ret i32 %s\n}\n"
                                "define i32 @g(i32 %x) {\n  ret i32 undef\n}\n"
                                "define i32 @h(i32 %x) {\n  %a = add nsw i32 %x, 1\n  %f = freeze i32 %a\n  ret i32 %f\n}\n")
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("f on gfx1100 wave32 (llvmlite): proved")
    assert lines[1] == "  for gfx1100 wave32 under exec=any, assumptions: none"
    assert lines[2].startswith("g on gfx1100 wave32 (llvmlite): proved")
    assert lines[4] == ("  proved with the IR's non-deterministic values chosen from the target's "
                        "(the target's terms where they stand, lane normal forms)")
    assert lines[5].startswith("h on gfx1100 wave32 (llvmlite): proved")
    assert lines[-1] == "Summary: 3 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported"


def test_no_run_line_needs_a_target(tmp_path):
    p = write(tmp_path, "n.ll", "define i32 @f(i32 %x) {\n  ret i32 %x\n}\n")
    code, out, err = cli("tv", p)
    assert (code, out) == (2, "")
    assert err.strip() == f"error: {p}: no RUN line names an AMDGPU target verify knows; give --target"


def test_parse_error_is_one_line(tmp_path):
    p = write(tmp_path, "e.ll", "define i32 @f(i32 %x) {\n  %y = add i32 %x\n  ret i32 %y\n}\n")
    code, out, err = cli("tv", p, "--target", "gfx1100")
    assert code == 2 and out == ""
    assert re.fullmatch(rf"{re.escape(p)}:\d+:\d+: error: expected ',' in arithmetic operation\n", err)


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_ir_mutant_is_refuted_against_the_original_code(tmp_path):
    src = CORPUS / "hip_shfl_xor_5_w16.ll"
    asm = write(tmp_path, "o.s", llc(str(src), "gfx1100", 32))
    mutant = write(tmp_path, "m.ll", src.read_text().replace("xor i32 %self, 5", "xor i32 %self, 4"))
    code, out, _ = cli("tv", mutant, "--target", "gfx1100", "--wave", "32", "--asm", asm)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("hip_shfl_xor_5_w16 on gfx1100 wave32 (") and "refuted" in lines[0]
    assert lines.pop(1) == "  for gfx1100 wave32 under exec=any, assumptions: permute.addr_sign=bits"
    assert lines[1] == "  counterexample: EXEC = 0x11"
    assert lines[-3].endswith("%r = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %var)")
    assert re.fullmatch(r"  GPU: line \d+: ds_bpermute_b32 v0, v1, v0", lines[-2])
    # the same code against its own IR is proved
    code, out, _ = cli("tv", str(src), "--target", "gfx1100", "--wave", "32", "--asm", asm)
    assert code == 0, out


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_code_mutant_is_refuted(tmp_path):
    src = CORPUS / "dpp_row_shr1_add.ll"
    text = llc(str(src), "gfx1100", 32)
    assert "row_shr:1" in text
    asm = write(tmp_path, "m.s", text.replace("row_shr:1", "row_shr:2"))
    code, js, _ = cli("tv", str(src), "--target", "gfx1100", "--wave", "32", "--asm", asm, "--json")
    assert code == 1
    r = json.loads(js)["results"][0]
    assert r["verdict"] == "refuted"
    assert "row_shr:2" in r["counterexample"]["gpu_instruction"]


PAIR = """; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 -mattr=+wavefrontsize32 < %s
declare i32 @llvm.amdgcn.wave.shuffle.i32(i32, i32)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
define i32 @src(i32 %x, i32 inreg %i) {
  %r = call i32 @llvm.amdgcn.wave.shuffle.i32(i32 %x, i32 %i)
  ret i32 %r
}
define i32 @tgt(i32 %x, i32 inreg %i) {
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %x, i32 %i)
  ret i32 %r
}
"""


def test_ir_to_ir_src_tgt(tmp_path):
    # a uniform-index wave.shuffle may become readlane: where the lane read is
    # inactive the shuffle is poison (IntrinsicsAMDGPU.td), and so is the
    # readlane under ir.inactive_lane=poison (the lane did not run the
    # function: it has no %x); the other way round needs that assumption, and
    # is refuted under `computed` (readlane then reads the inactive lane's %x).
    # On wave32: the same semantics as wave64 at a seventh of the solver's CPU.
    p = write(tmp_path, "pair.ll", PAIR)
    code, out, _ = cli("tv", p)
    assert (code, out) == (0, "src -> tgt on gfx1100 wave32 (IR): proved\n"
                                 "  for gfx1100 wave32 under exec=any, assumptions: ir.inactive_lane=poison\n"
                                 "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported\n")
    rev = PAIR.replace("@src(", "@tmp(").replace("@tgt(", "@src(").replace("@tmp(", "@tgt(")
    p = write(tmp_path, "rev.ll", rev)
    code, out, _ = cli("tv", p)
    assert (code, out) == (0, "src -> tgt on gfx1100 wave32 (IR): proved\n"
                                 "  for gfx1100 wave32 under exec=any, assumptions: ir.inactive_lane=poison\n"
                                 "Summary: 1 correct, 0 incorrect, 0 failed-to-prove, 0 unsupported\n")
    code, out, _ = cli("tv", p, "--assume", "ir.inactive_lane=computed")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "src -> tgt on gfx1100 wave32 (IR): refuted"
    assert lines.pop(1) == "  for gfx1100 wave32 under exec=any, assumptions: ir.inactive_lane=computed"
    assert re.fullmatch(r"  counterexample: EXEC = 0x[0-9a-f]+", lines[1])
    assert lines[2].split() == ["lane", "%x", "%i", "src", "tgt"]
    assert lines[3].split()[-3:] == ["poison", "<-", "differs"]


def test_ir_to_ir_two_files(tmp_path):
    a = write(tmp_path, "a.ll", "define i32 @f(i32 %x) {\n  %y = mul i32 %x, 2\n  ret i32 %y\n}\n")
    b = write(tmp_path, "b.ll", "define i32 @f(i32 %x) {\n  %y = shl nsw i32 %x, 1\n  ret i32 %y\n}\n")
    code, out, _ = cli("tv", a, b, "--target", "gfx1100", "--wave", "32")
    assert code == 1 and "f -> f on gfx1100 wave32 (IR): refuted" in out  # nsw adds poison
    code, out, _ = cli("tv", b, a, "--target", "gfx1100", "--wave", "32")
    assert code == 0, out


def test_wwm_scan_step():
    p = str(CORPUS / "wwm_scan_row_shr1.ll")
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32")
    assert code == 0, out


def test_set_inactive_outside_wwm_is_a_copy(tmp_path):
    # LLVM lowers it to a copy of %x [S:wwm-region] (a read across lanes of
    # its inactive lanes: tests/test_tv_closedloop2.py)
    p = write(tmp_path, "si.ll", "declare i32 @llvm.amdgcn.set.inactive.i32(i32, i32)\n"
                                 "define i32 @f(i32 %x) {\n  %a = call i32 @llvm.amdgcn.set.inactive.i32(i32 %x, i32 0)\n"
                                 "  ret i32 %a\n}\n")
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32")
    assert code == 0, out
    assert out.splitlines()[0].startswith("f on gfx1100 wave32 (llvmlite): proved")


def test_kernel_with_memory_proved():
    p = str(CORPUS / "kernel_dpp_row_shr1_add.ll")
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32")
    assert code == 0, out


@pytest.mark.slow
@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_kernel_ir_mutant_refuted(tmp_path):
    src = CORPUS / "kernel_dpp_row_shr1_add.ll"
    asm = write(tmp_path, "k.s", llc(str(src), "gfx1100", 32))
    m = write(tmp_path, "k.ll", src.read_text().replace("i32 273,", "i32 274,"))
    code, out, _ = cli("tv", m, "--target", "gfx1100", "--wave", "32", "--asm", asm)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("kernel_dpp_row_shr1_add on gfx1100 wave32 (") and lines[0].endswith(
        "refuted (9 GPU instructions)")
    assert lines.pop(1) == "  for gfx1100 wave32 under exec=dispatch, assumptions: kernel.entry_exec=prefix"
    assert re.fullmatch(r"  counterexample: EXEC = 0x[0-9a-f]+; memory at 0x[0-9a-f]+ after the kernel: "
                        r"IR 0x[0-9a-f]+, GPU 0x[0-9a-f]+", lines[1])


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_uncovered_hazard_is_refuted(tmp_path):
    """The DPP add reads the loaded v1 inside the hazard window: unknown there
    (the machine's hazard semantics, as for verify asm), so the kernel's store
    is refuted, with the hazard named."""
    src = CORPUS / "kernel_dpp_row_shr1_add.ll"
    text = llc(str(src), "gfx90a", 64)
    assert "\ts_nop 0\n" in text
    asm = write(tmp_path, "h.s", text.replace("\ts_nop 0\n", "", 1))
    code, out, _ = cli("tv", str(src), "--target", "gfx90a", "--asm", asm)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].endswith(": refuted (8 GPU instructions)"), out
    assert lines[2].startswith("  counterexample: EXEC = 0x1; memory at "), out
    # the cause first: the DPP add that read the load's result inside the window (issue #34)
    assert re.fullmatch(r"    cause: line \d+ v_add_u32_dpp: reads v1 inside the hazard window of line \d+ "
                        r"\(global_load_dword\), 1 wait state later; .*: insert s_nop 0; its value there is unknown",
                        lines[3]), out
    assert lines[5].startswith("    the lanes' stores at line ") and lines[5].endswith(" global_store_dword:"), out
    assert re.match(r"       0  0x[0-9a-f]+ +0x[0-9a-f]+ unknown \(hazard\)  line \d+ v_add_u32_dpp: ", lines[7]), out
    warn = next(ln for ln in lines if "warning:" in ln)
    assert "warning: hazard (GFX8/9 family)" in warn and warn.endswith("insert s_nop 0"), out


def test_kernel_store_of_i8_is_proved_and_a_volatile_one_unsupported(tmp_path):
    """Byte-granular memory (verify/tv/bytemem.py) where the IR stores an i8."""
    ir = ("define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %v) {\n"
          "  %t = trunc i32 %v to i8\n  store VOL i8 %t, ptr addrspace(1) %out, align 1\n  ret void\n}\n")
    p = write(tmp_path, "s.ll", ir.replace("VOL ", ""))
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32")
    assert code == 0 and "k on gfx1100 wave32 (llvmlite): proved" in out, out
    p = write(tmp_path, "v.ll", ir.replace("VOL", "volatile"))
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "32")
    assert code == 4 and f"  {p}:3:3: unsupported: " in out, out


# ---------------------------------------------------------------------------
# slow: the corpus on every target/wave of its RUN lines, mutants, the
# GlobalISel wave.shuffle bug


# every other file in the slow tier, the rest in the corpus tier (all of
# them cost 67 s of CPU in the slow tier, 2026-12-01)
_PROVED = [p for p in FILES if p not in KERNELS]


@pytest.mark.parametrize("path", tier_split(_PROVED, 2, ids=[p.stem for p in _PROVED]))
def test_corpus_proved_everywhere(path):
    if path.stem in LLVM_BUGS:
        pytest.skip("LLVM 22.1 miscompiles it under the default: test_corpus_llvm_reversed_dpp_bug")
    code, out, err = cli("tv", str(path))
    assert (code, err) == (0, ""), out
    assert " 0 incorrect, 0 failed-to-prove, 0 unsupported" in out.splitlines()[-1]


# One-token IR mutants, the first rule that applies (specific ones first:
# a bare opcode swap can be equivalent, e.g. add of disjoint bits is xor).
MUTATIONS: list[tuple[str, object]] = [
    (r"\bshl i32 (%\w+), 2\b", r"shl i32 \1, 3"),  # a ds_bpermute byte address
    (r"(update\.dpp\.i32\(i32 [^,]+, i32 %\w+, i32 \d+, i32) 15\b", r"\1 14"),  # the row mask
    (r"(ds\.swizzle\(i32 %\w+, i32) (\d+)\)", lambda m: f"{m.group(1)} {int(m.group(2)) ^ 1})"),
    (r"(mov\.dpp8\.i32\(i32 %\w+, i32) (\d+)\)", lambda m: f"{m.group(1)} {int(m.group(2)) ^ 1})"),
    (r"(readlane\.i32\(i32 %\w+, i32) 5\)", r"\1 6)"),
    (r"(writelane\.i32\(i32 %\w+, i32) 3\b", r"\1 4"),
    (r"\bicmp ult\b", "icmp ugt"), (r"\bicmp ne\b", "icmp eq"), (r"\bicmp ugt\b", "icmp ult"),
    (r"(permlanex?16\.i32\(i32 %\w+, i32 %\w+, i32) (-?\d+)", lambda m: f"{m.group(1)} {int(m.group(2)) ^ 1}"),
    (r"(update\.dpp\.i32\(i32 %old, i32 %var, i32) 273\b", r"\1 274"), (r"\badd nsw i32\b", "sub nsw i32"),
    (r"(set\.inactive\.i32\(i32 %\w+, i32) 0\)", r"\1 1)"),
    (r"\badd i32\b", "sub i32"), (r"\bxor i32\b", "and i32"), (r"\bsub i32\b", "add i32"),
    (r"\bor i32\b", "and i32"), (r"\band i32\b", "or i32"),
    (r"\bret i32 %[rs]\b", "ret i32 %var"),
]


def _mutate(text: str) -> str | None:
    head, body = text.split("define", 1)
    for pat, rep in MUTATIONS:
        new = re.sub(pat, rep, body, count=1)  # type: ignore[call-overload]
        if new != body:
            return head + "define" + new
    return None


# Files whose one-token IR mutant verify does not decide (unknown, never a
# pass): HIP's warp sum (clang-22, ds_bpermute with its address arithmetic) is
# proved by the lane normal forms (smt.LaneNormal), but its wrong-mask mutant
# goes to the solver, which spends tv's 30 s budget (issue #35)
MUTANT_UNDECIDED = {n: "the warp sum's mutant is unknown within tv's budget (issue #35)"
                    for n in ("clang22_warp_reduce_gfx1030", "clang22_warp_reduce_gfx1100", "clang22_warp_reduce_gfx90a")}


# every third file's mutant in the slow tier, the rest in the corpus tier
# (all of them cost 66 s of CPU in CI, 2026-11-30; half, 28 s, 2026-12-01)
@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.parametrize("path", tier_split(FILES, 3, ids=[p.stem for p in FILES]))
def test_corpus_ir_mutant_refuted(tmp_path, path):
    """The mutant is refuted on the last wave32 instance of the RUN lines
    (quicker to refute) or, where it is equivalent in wave32 (e.g. a
    bpermute address scaled by 8 when every lane reads lane 0), on the last
    wave64 one."""
    if path.stem in EXPECTED_UNSUPPORTED or path.stem in EXPECTED_HAZARD:
        pytest.skip("expected unsupported or unknown: tests/test_tv_corpus.py")
    if path.stem in MUTANT_UNDECIDED:
        pytest.skip(MUTANT_UNDECIDED[path.stem])
    text = path.read_text()
    mod = read_module(str(path), text)
    inst = run_line_instances(str(path), mod.run_lines)
    mutant = _mutate(text)
    if mutant is None:
        pytest.skip("no one-token mutation applies")
    m = write(tmp_path, "m.ll", mutant)
    tried = []
    for want in (32, 64):
        t, w = next(((t, w) for t, w in reversed(inst) if w == want), inst[-1])
        asm = write(tmp_path, f"o{w}.s", llc(str(path), t.llvm_cpu, w))
        code, out, _ = cli("tv", m, "--target", t.name, "--wave", str(w), "--asm", asm)
        tried.append((t.name, w, code, out))
        if code == 1:
            return
    raise AssertionError(tried)


# LLVM 22.1 output that verify refutes under a hardware-tested default and
# proves under the other variant: the DPP combiner folds `sub x, dpp(x)` into
# v_subrev_*_dpp reading the swizzle as applied to the printed src0, while
# hardware tests (Mesa, llvm/llvm-project#216835) show it applies to src1.
# [S:dpp-rev]
LLVM_BUGS = {"dpp_row_shl1_sub": "dpp.rev_operand=src0"}


@pytest.mark.slow
@pytest.mark.parametrize("stem", sorted(LLVM_BUGS))
def test_corpus_llvm_reversed_dpp_bug(stem):
    path = str(CORPUS / f"{stem}.ll")
    code, out, _ = cli("tv", path, "--target", "gfx942")
    assert code == 1 and "v_subrev_u32_dpp" in out and "assumptions: dpp.rev_operand=src1" in out, out
    code, out, _ = cli("tv", path, "--target", "gfx942", "--assume", LLVM_BUGS[stem])
    assert code == 0, out


@pytest.mark.slow
@pytest.mark.skipif(LLC is None, reason="needs llc-22")
def test_globalisel_wave_shuffle_wave64_bug_is_refuted(tmp_path):
    """LLVM 22.1's GlobalISel half-select for wave.shuffle in wave64 (fixed
    upstream in #210661) tests bit 5 of the shifted address, not of the lane."""
    p = str(CORPUS / "wave_shuffle_var.ll")
    code, out, _ = cli("tv", p, "--target", "gfx1100", "--wave", "64", "--llc", f"{LLC} -global-isel", "--llc", LLC)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"wave_shuffle_var on gfx1100 wave64 ({LLC} -global-isel): refuted")
    assert any(ln.startswith("  GPU: line ") and "v_cndmask_b32" in ln for ln in lines)
    assert any(ln.startswith(f"wave_shuffle_var on gfx1100 wave64 ({LLC}): proved") for ln in lines)
    assert lines[-1] == "Summary: 1 correct, 1 incorrect, 0 failed-to-prove, 0 unsupported"


def test_kernel_entry_exec_is_a_named_assumption():
    """A kernel's entry EXEC is a prefix of the lanes by default (a named
    assumption, kernel.entry_exec); a straight-line kernel also proves under
    any non-empty mask, a kernel looping over the lanes is not checked there
    (unknown, never proved).  [S:kernel-entry-exec]"""
    k = str(CORPUS / "kernel_permlanex16_id.ll")
    code, out, err = cli("tv", k, "--target", "gfx1100", "--wave", "32", "--robust")
    assert code == 0, out + err
    assert "  proved   under kernel.entry_exec=any, permlane.inactive_src=dpp" in out.splitlines()
    code, out, err = cli("tv", str(CORPUS / "kernel_wave_reduce_add_divergent.ll"), "--target", "gfx1100",
                         "--wave", "32", "--assume", "kernel.entry_exec=any")
    assert code == 3 and out.splitlines()[0].endswith("(llvmlite): unknown")
    assert "not checked under kernel.entry_exec=any" in out
