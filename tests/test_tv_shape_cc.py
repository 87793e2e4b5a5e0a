"""`verify tv` on shaders and amdgpu_gfx functions in the shape of LLVM's
own tests (tests/tv/llvm-shape/cc_*.ll): the conventions' argument and
result registers, the entry EXEC, per-function compiling of modules that
mix kernels, functions and shaders, and one-token mutants of LLVM's code
for shader functions, refuted (docs/tv.md, "Calling conventions")."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"
CC_FILES = sorted(SHAPE.glob("cc_*.ll"))
LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")



def results(*args: str) -> tuple[int, list[dict], str]:
    code, out, err = cli("tv", *args, "--json")
    return code, json.loads(out)["results"] if out.strip() else [], err


def llc_shader(path: Path, cpu: str, *attrs: str) -> str:
    """llc-22's code for the file as its RUN lines compile shaders (a triple without OS)."""
    assert LLC is not None
    r = subprocess.run([LLC, "-mtriple=amdgcn", f"-mcpu={cpu}", *attrs, str(path), "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_cc_files_have_the_llvm_test_shape():
    from verify.tv.compile import run_line_instances
    from verify.tv.llir import run_lines

    assert len(CC_FILES) >= 7
    for p in CC_FILES:
        text = p.read_text()
        assert len(run_line_instances(str(p), run_lines(text))) >= 2, p
        assert text.count("define ") >= 4, p


@needs_llc
def test_mixed_module_each_function_compiled_as_llvm_does():
    """The kernel (HSA, the shaders left out), the plain and amdgpu_gfx
    functions and the ps/cs/vs shaders (the RUN line's amdgcn triple) of
    one module, each proved; the amdgpu_gfx inreg arguments from s4."""
    code, rs, _ = results(str(SHAPE / "cc_mixed.ll"), "--llc", "llc-22", "--target", "gfx1100", "--wave", "32")
    assert code == 0
    got = {r["function"]: r for r in rs}
    assert set(got) == {"kernel_readfirstlane", "func_update_dpp", "gfx_inreg_add", "ps_update_dpp",
                        "cs_readfirstlane", "vs_swizzle", "func_fadd"}
    assert {r["verdict"] for r in rs} == {"proved"}
    assert got["kernel_readfirstlane"]["exec"] == "dispatch"
    assert got["ps_update_dpp"]["assumptions"]["shader.ps_entry_exec"] == "any"
    assert got["cs_readfirstlane"]["assumptions"]["kernel.entry_exec"] == "prefix"
    assert got["cs_readfirstlane"]["exec"] == "dispatch" and got["ps_update_dpp"]["exec"] == "any"
    assert got["cs_readfirstlane"]["assumptions"]["shader.sgpr_return"] == "uniform"


@pytest.mark.slow
@needs_llc
def test_a_function_llvm_fails_on_affects_that_function_alone(tmp_path):
    """An HSA RUN line: LLVM refuses the pixel shader ("unsupported
    non-compute shaders with HSA"), a compiler error for it alone; the
    kernel and the function beside it are compiled without it and proved."""
    text = (SHAPE / "cc_mixed.ll").read_text().replace("-mtriple=amdgcn ", "-mtriple=amdgcn-amd-amdhsa ")
    p = write(tmp_path, "hsa.ll", text)
    code, rs, _ = results(p, "--llc", "llc-22", "--target", "gfx900", "--function", "ps_update_dpp",
                          "--function", "kernel_readfirstlane", "--function", "func_fadd")
    # (--target: no RUN-line triple; the module names none: HSA for the kernel and function)
    assert {r["function"]: r["verdict"] for r in rs} == {
        "ps_update_dpp": "proved", "kernel_readfirstlane": "proved", "func_fadd": "proved"}
    code, rs, _ = results(p, "--llc", "llc-22")
    by = {(r["function"], r["target"]): r for r in rs}
    assert by[("ps_update_dpp", "gfx900")]["verdict"] == "compiler error"
    assert "unsupported non-compute shaders with HSA" in by[("ps_update_dpp", "gfx900")]["notes"][0]
    assert by[("kernel_readfirstlane", "gfx900")]["verdict"] == "proved"
    assert by[("func_update_dpp", "gfx1100")]["verdict"] == "proved"
    assert by[("func_fadd", "gfx900")]["verdict"] == "proved"
    assert code == 1


@needs_llc
@pytest.mark.slow
def test_a_function_llvm_crashes_on_leaves_the_shaders_beside_it(tmp_path):
    """ballot.i32 in wave64 makes llc-22 crash on the whole module; the other
    shaders are compiled on their own and proved."""
    src = (SHAPE / "cc_readlane.ll").read_text()
    bad = ("define amdgpu_cs i32 @bad_ballot(i32 %x) {\n  %c = icmp eq i32 %x, 0\n"
           "  %b = call i32 @llvm.amdgcn.ballot.i32(i1 %c)\n  ret i32 %b\n}\n"
           "declare i32 @llvm.amdgcn.ballot.i32(i1)\n")
    p = write(tmp_path, "crash.ll", src + bad)
    code, rs, _ = results(p, "--llc", "llc-22", "--target", "gfx900", "--function", "ps_readfirstlane",
                          "--function", "cs_writelane", "--function", "bad_ballot")
    by = {r["function"]: r for r in rs}
    assert by["ps_readfirstlane"]["verdict"] == "proved"
    assert by["cs_writelane"]["verdict"] == "proved"
    # (verify's IR side has no ballot.i32 in wave64 either, but the compiler's failure decides it:
    # a compiler error  [S:compile-failure])
    assert by["bad_ballot"]["verdict"] == "compiler error"
    assert by["bad_ballot"]["notes"][0].startswith("could not compile:"), by["bad_ballot"]["notes"]


def test_unsupported_convention_names_it(tmp_path):
    p = write(tmp_path, "gs.ll", "define amdgpu_gs float @g(float %x) {\n  ret float %x\n}\n")
    code, rs, _ = results(p, "--target", "gfx1100", "--wave", "32")
    assert code == 4
    (r,) = rs
    assert r["verdict"] == "unsupported"
    assert r["notes"] == [f"{p}:1:1: unsupported: calling convention amdgpu_gs"]


@needs_llc
def test_ps_mutant_with_another_quad_perm_is_refuted(tmp_path):
    src = SHAPE / "cc_ps_dpp.ll"
    text = llc_shader(src, "gfx1100", "-mattr=+wavefrontsize64")
    good = "v_mov_b32_dpp v0, v1 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf"
    assert text.count(good) == 1
    asm = write(tmp_path, "m.s", text.replace(good, good.replace("[3,2,1,0]", "[3,2,0,1]")))
    code, rs, _ = results(str(src), "--target", "gfx1100", "--wave", "64", "--asm", asm,
                          "--function", "ps_update_dpp_quad")
    assert code == 1
    (r,) = rs
    assert r["verdict"] == "refuted"
    assert r["counterexample"]["gpu_instruction"].endswith("quad_perm:[3,2,0,1] row_mask:0xf bank_mask:0xf")
    code, rs, _ = results(str(src), "--target", "gfx1100", "--wave", "64", "--asm", write(tmp_path, "o.s", text),
                          "--function", "ps_update_dpp_quad")
    assert code == 0 and rs[0]["verdict"] == "proved"


@needs_llc
def test_sgpr_result_mutant_reading_a_fixed_lane_is_refuted(tmp_path):
    """readfirstlane returned in s0: reading lane 1 instead is refuted under
    either variant of shader.sgpr_return (the IR's value is uniform)."""
    src = SHAPE / "cc_readlane.ll"
    text = llc_shader(src, "gfx1100")
    start = text.index("ps_readfirstlane_sgpr:")
    good = "v_readfirstlane_b32 s0, v0"
    at = text.index(good, start)
    asm = write(tmp_path, "m.s", text[:at] + "v_readlane_b32 s0, v0, 1" + text[at + len(good):])
    for variant in ("uniform", "first"):
        code, rs, _ = results(str(src), "--target", "gfx1100", "--wave", "32", "--asm", asm,
                              "--function", "ps_readfirstlane_sgpr", "--assume", f"shader.sgpr_return={variant}")
        assert code == 1 and rs[0]["verdict"] == "refuted", variant
        assert rs[0]["assumptions"]["shader.sgpr_return"] == variant


@needs_llc
def test_cs_ballot_mutant_with_the_other_compare_is_refuted(tmp_path):
    src = SHAPE / "cc_cs_ballot32.ll"
    text = llc_shader(src, "gfx1100", "-mattr=+wavefrontsize32")
    start = text.index("compare_ints:")
    good = "v_cmp_eq_u32_e64 s0, v0, v1"
    at = text.index(good, start)
    asm = write(tmp_path, "m.s", text[:at] + good.replace("eq", "ne") + text[at + len(good):])
    code, rs, _ = results(str(src), "--target", "gfx1100", "--wave", "32", "--asm", asm, "--function", "compare_ints")
    assert code == 1 and rs[0]["verdict"] == "refuted"


@needs_llc
@pytest.mark.slow
def test_divergent_sgpr_result_depends_on_the_assumption(tmp_path):
    """A divergent i32 returned by a pixel shader: LLVM reads the first
    active lane.  A mutant that reads the last lane instead (v_readlane 31)
    is proved under shader.sgpr_return=uniform only where the lanes agree,
    so it is refuted under `first` and --robust names the variant."""
    ir = ("; RUN: llc -mtriple=amdgcn -mcpu=gfx1100 < %s\n; RUN: llc -mtriple=amdgcn -mcpu=gfx900 < %s\n"
          "define amdgpu_ps i32 @ps_sum(i32 inreg %a, i32 %b) {\n  %r = add i32 %a, %b\n  ret i32 %r\n}\n")
    src = write(tmp_path, "d.ll", ir)
    text = llc_shader(Path(src), "gfx1100")
    good = "v_readfirstlane_b32 s0, v0"
    assert good in text
    for asm_text, want in ((text, "proved"), (text.replace(good, "v_readlane_b32 s0, v0, 31"), "refuted")):
        asm = write(tmp_path, "x.s", asm_text)
        code, rs, _ = results(src, "--target", "gfx1100", "--wave", "32", "--asm", asm,
                              "--assume", "shader.sgpr_return=first")
        assert rs[0]["verdict"] == want
    code, rs, _ = results(src, "--target", "gfx1100", "--wave", "32", "--asm", asm, "--robust")
    assert rs[0]["verdict"] == "refuted"
    assert any(v["verdict"] == "refuted" and v["assumptions"]["shader.sgpr_return"] == "first"
               for v in rs[0]["variants"])


def test_s_wqm_sets_whole_quads():
    from verify.backend import Concrete
    from verify.ops.salu import _wqm

    B = Concrete()
    assert _wqm(B, 0x00000021) == 0x000000FF
    assert _wqm(B, 0x80000000) == 0xF0000000
    assert _wqm(B, 0) == 0


@needs_llc
def test_shader_with_branches_exits_at_its_end_and_a_mutant_is_refuted(tmp_path):
    """A compute shader that branches on a ballot returns to its epilog from
    an empty last block: proved; the branch inverted (vccz -> vccnz) is
    refuted."""
    src = SHAPE / "cc_cs_ballot32.ll"
    text = llc_shader(src, "gfx1100", "-mattr=+wavefrontsize32")
    start = text.index("branch_divergent_ballot_ne_zero:")
    good = "s_cbranch_vccz .LBB"
    at = text.index(good, start)
    args = ("--target", "gfx1100", "--wave", "32", "--function", "branch_divergent_ballot_ne_zero")
    code, rs, _ = results(str(src), *args, "--asm", write(tmp_path, "o.s", text))
    assert code == 0 and rs[0]["verdict"] == "proved"
    asm = write(tmp_path, "m.s", text[:at] + "s_cbranch_vccnz .LBB" + text[at + len(good):])
    code, rs, _ = results(str(src), *args, "--asm", asm)
    assert code == 1 and rs[0]["verdict"] == "refuted"


@needs_llc
def test_wqm_mutant_that_leaves_whole_quad_mode_on_is_refuted(tmp_path):
    """LLVM turns whole quad mode on with s_wqm around a wqm value and ANDs
    the live mask back: proved; without the AND, EXEC at the end is the
    whole quads, not EXEC at entry: refuted, with both masks."""
    src = SHAPE / "cc_ps_wqm.ll"
    text = llc_shader(src, "gfx1100")
    start = text.index("ps_wqm_add:")
    good = "\ts_and_b32 exec_lo, exec_lo, s0\n"
    at = text.index(good, start)
    assert "s_wqm_b32 exec_lo, exec_lo" in text[start:at]
    args = ("--target", "gfx1100", "--wave", "32", "--function", "ps_wqm_add")
    code, rs, _ = results(str(src), *args, "--asm", write(tmp_path, "o.s", text))
    assert code == 0 and rs[0]["verdict"] == "proved"
    code, rs, _ = results(str(src), *args, "--asm", write(tmp_path, "m.s", text[:at] + text[at + len(good):]))
    assert code == 1 and rs[0]["verdict"] == "refuted"
    c = rs[0]["counterexample"]
    ex, after = int(c["exec"], 16), int(c["exec_after"], 16)
    quads = 0
    for q in range(8):
        if ex >> (4 * q) & 0xF:
            quads |= 0xF << (4 * q)
    assert after == quads != ex


def test_wqm_of_a_cross_lane_value_is_unsupported(tmp_path):
    ir = ("define amdgpu_ps float @f(float %v) {\n  %i = bitcast float %v to i32\n"
          "  %r = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %i, i32 1, i32 15, i32 15, i1 false)\n"
          "  %q = call i32 @llvm.amdgcn.wqm.i32(i32 %r)\n  %f = bitcast i32 %q to float\n  ret float %f\n}\n"
          "declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)\n"
          "declare i32 @llvm.amdgcn.wqm.i32(i32)\n")
    p = write(tmp_path, "w.ll", ir)
    code, rs, _ = results(p, "--target", "gfx1100", "--wave", "32")
    assert code == 4 and rs[0]["verdict"] == "unsupported"
    assert rs[0]["notes"] == [f"{p}:4:3: unsupported: @llvm.amdgcn.wqm.i32 of a value computed by 'call' "
                              "(whole quad mode reads helper lanes there: not modelled)"]


@pytest.mark.slow
@needs_llc
def test_mixed_module_verdicts_are_the_same_with_jobs(tmp_path):
    """The pool path (--jobs 2) compiles each function as the sequential
    path does: the HSA RUN line's shader a compiler error, the rest proved."""
    text = (SHAPE / "cc_mixed.ll").read_text().replace("-mtriple=amdgcn ", "-mtriple=amdgcn-amd-amdhsa ", 1)
    p = write(tmp_path, "mix.ll", text)
    _, one, _ = results(p, "--llc", "llc-22")
    _, two, _ = results(p, "--llc", "llc-22", "--jobs", "2")
    v1 = [(r["function"], r["target"], r["verdict"]) for r in one]
    assert v1 == [(r["function"], r["target"], r["verdict"]) for r in two]
    bad = {(f, t) for f, t, v in v1 if v != "proved"}
    # (the first RUN line is HSA: its graphics shaders and amdgpu_gfx fail there alone)
    assert bad == {("gfx_inreg_add", "gfx900"), ("ps_update_dpp", "gfx900"), ("cs_readfirstlane", "gfx900"),
                   ("vs_swizzle", "gfx900")}
    assert {v for f, t, v in v1 if (f, t) in bad} == {"compiler error"}


def test_a_function_alone_keeps_what_it_calls():
    from verify.tv.conventions import alone, without
    from verify.tv.llir import read_module

    text = ("define amdgpu_ps float @a(float %x) { ret float %x }\n"
            "define i32 @b(i32 %x) {\n  %r = call i32 @c(i32 %x)\n  ret i32 %r\n}\n"
            "define i32 @c(i32 %x) {\n  ret i32 %x\n}\n"
            "define amdgpu_kernel void @k() {\n  ret void\n}\n")
    mod = read_module("x.ll", text)
    assert without(text, mod, {"a"}) == text.split("\n", 1)[1]
    got = alone(text, mod, next(f for f in mod.functions if f.name == "b"))
    assert [f.name for f in read_module("y.ll", got).functions] == ["b", "c"]


_PS_DOUBLE = """define amdgpu_ps void @dpp8_double(double %in, ptr addrspace(1) %out) {
  %r = call double @llvm.amdgcn.mov.dpp8.f64(double %in, i32 1)
  store double %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_ps double @ret_double(double inreg %s, <2 x double> %v) {
  %e = extractelement <2 x double> %v, i32 1
  %r = call double @llvm.amdgcn.readfirstlane.f64(double %e)
  ret double %r
}
"""


@needs_llc
def test_ps_double_arguments_and_result_are_pairs_of_pieces(tmp_path):
    """A double (and <2 x double>) argument of a shader is two VGPRs (two
    SGPRs inreg), a double result two SGPRs, as an i64's (llc-22); LLVM's code
    proves, the result's halves swapped or the DPP8 lane changed is refuted."""
    src = write(tmp_path, "d.ll", _PS_DOUBLE)
    text = llc_shader(Path(src), "gfx1100", "-mattr=+wavefrontsize32")
    code, rs, _ = results(src, "--target", "gfx1100", "--wave", "32", "--asm", write(tmp_path, "ok.s", text))
    assert code == 0 and [r["verdict"] for r in rs] == ["proved", "proved"], rs
    for old, new, fn in [("v_readfirstlane_b32 s1, v3", "v_readfirstlane_b32 s1, v2", "ret_double"),
                         ("v_mov_b32_dpp v1, v1 dpp8:[1,0,0,0,0,0,0,0]", "v_mov_b32_dpp v1, v1 dpp8:[2,0,0,0,0,0,0,0]",
                          "dpp8_double")]:
        assert text.count(old) == 1, (old, text)
        code, rs, _ = results(src, "--target", "gfx1100", "--wave", "32", "--function", fn,
                              "--asm", write(tmp_path, "m.s", text.replace(old, new)))
        assert code == 1 and rs[0]["verdict"] == "refuted", (fn, rs)


_WIDE_ARGS = """define void @fits(ptr addrspace(1) %out, <16 x i32> %a, <8 x i32> %b, <4 x i32> %c, i32 %d) {
  %x = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %d)
  store i32 %x, ptr addrspace(1) %out
  ret void
}

define void @spills(ptr addrspace(1) %out, <16 x i32> %a, <8 x i32> %b, <4 x i32> %c, i32 %d, i32 %e) {
  %x = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %e)
  store i32 %x, ptr addrspace(1) %out
  ret void
}
"""


@needs_llc
def test_a_function_argument_past_v30_is_on_the_stack_and_unsupported(tmp_path):
    """v31 holds the work-item IDs, so a plain function's 32nd VGPR argument
    dword is on the stack (llc-22), not in v31: verify once read v31 there
    and refuted LLVM's correct readfirstlane.ll code; now it says so."""
    p = write(tmp_path, "wide.ll", _WIDE_ARGS)
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx900", p, "-o", "-"], capture_output=True,
                         text=True, check=True).stdout
    spills = asm[asm.index("\nspills:"):]
    assert "buffer_load_dword" in spills[:spills.index("s_setpc_b64")]  # %e comes from the stack
    code, rs, _ = results(p, "--target", "gfx900", "--llc", "llc-22")
    by = {r["function"]: r for r in rs}
    assert by["fits"]["verdict"] == "proved", by["fits"]
    assert by["spills"]["verdict"] == "unsupported" and code == 4
    assert by["spills"]["notes"] == [f"{p}:7:1: unsupported: argument %e is passed on the stack in part (the VGPR "
                                     f"arguments fill v0-v30, v31 holds the work-item IDs; stack arguments are not "
                                     f"modelled)"]


@needs_llc
def test_an_amdgpu_gfx_function_takes_its_32nd_argument_dword_in_v31(tmp_path):
    """A graphics function has no work-item IDs: llc-22 passes its 32nd VGPR
    argument dword in v31 (proved; read from v30 instead, refuted), the 33rd
    on the stack (unsupported)."""
    fits = ("define amdgpu_gfx void @g(ptr addrspace(1) %out, <16 x i32> %a, <8 x i32> %b, <4 x i32> %c, i32 %d, "
            "i32 %e) {\n  %x = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %e)\n  store i32 %x, ptr addrspace(1) "
            "%out\n  ret void\n}\n")
    p = write(tmp_path, "gfx.ll", fits)
    text = llc_shader(Path(p), "gfx1100")
    assert text.count("v_readfirstlane_b32 s0, v31") == 1
    code, rs, _ = results(p, "--target", "gfx1100", "--wave", "32", "--asm", write(tmp_path, "ok.s", text))
    assert code == 0 and rs[0]["verdict"] == "proved", rs
    bad = write(tmp_path, "m.s", text.replace("v_readfirstlane_b32 s0, v31", "v_readfirstlane_b32 s0, v30"))
    code, rs, _ = results(p, "--target", "gfx1100", "--wave", "32", "--asm", bad)
    assert code == 1 and rs[0]["verdict"] == "refuted", rs
    over = write(tmp_path, "over.ll", fits.replace("i32 %e) {", "i32 %e, i32 %f) {"))
    code, rs, _ = results(over, "--target", "gfx1100", "--wave", "32", "--llc", "llc-22")
    assert code == 4 and rs[0]["notes"] == [f"{over}:1:1: unsupported: argument %f is passed on the stack in part "
                                            f"(the VGPR arguments fill v0-v31; stack arguments are not modelled)"]
