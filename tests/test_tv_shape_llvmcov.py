"""`verify tv` on what LLVM's own AMDGPU tests hold around their cross-lane
calls (issue 31; tests/tv/llvm-shape/llvmcov_*.ll): global memory through
MUBUF buffer resources (`-mattr=-flat-for-global`), pixel and compute
shaders storing through a global pointer, 16-bit and bfloat shader arguments,
`s_bitcmp0/1_b32` and `s_movk_i32`; and one-token mutants of LLVM's code for
them, refuted."""

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
FILES = sorted(SHAPE.glob("llvmcov_*.ll"))
LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")

def llc(path: Path, cpu: str, *flags: str, triple: str = "amdgcn-amd-amdhsa") -> str:
    assert LLC is not None
    r = subprocess.run([LLC, f"-mtriple={triple}", f"-mcpu={cpu}", "-O2", *flags, str(path), "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


def mutate(tmp_path: Path, asm: str, name: str, old: str, new: str) -> str:
    """LLVM's code with one token of function `name` changed."""
    start = asm.index(f"\n{name}:")
    end = asm.index(".Lfunc_end", start)
    body = asm[start:end]
    assert body.count(old) == 1, (old, body)
    p = tmp_path / "m.s"
    p.write_text(asm[:start] + body.replace(old, new) + asm[end:])
    return str(p)


def original(tmp_path: Path, asm: str) -> str:
    p = tmp_path / "o.s"
    p.write_text(asm)
    return str(p)


def verdict(path: Path, cpu: str, wave: int, fn: str, asm: str, *extra: str) -> tuple[int, dict]:
    code, out, _ = cli("tv", str(path), "--target", cpu, "--wave", str(wave), "--asm", asm, "--function", fn,
                       "--json", *extra)
    (r,) = json.loads(out)["results"]
    return code, r


BUFFER = SHAPE / "llvmcov_buffer.ll"
SHADERS = SHAPE / "llvmcov_shader_stores.ll"
SBIT = SHAPE / "llvmcov_sbit.ll"
NO_FLAT = ("-mattr=-flat-for-global", "-amdgpu-atomic-optimizer-strategy=None")


def test_llvmcov_files_have_the_llvm_test_shape():
    assert len(FILES) >= 3
    for p in FILES:
        text = p.read_text()
        assert len(run_line_instances(str(p), run_lines(text))) >= 2, p
        assert text.count("define ") >= 5, p


@needs_llc
@pytest.mark.slow
def test_buffer_store_is_proved_and_its_offset_mutants_refuted(tmp_path):
    """`buffer_store_dword v0, off, s[0:3], 0 offset:20` through the
    descriptor built from %out: proved; the instruction offset or the SGPR
    offset changed by 4: refuted (the store lands 4 bytes off)."""
    asm = llc(BUFFER, "gfx900", *NO_FLAT)
    code, r = verdict(BUFFER, "gfx900", 64, "store_offset", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    assert r["assumptions"].get("buffer.base48") == "canonical"
    code, r = verdict(BUFFER, "gfx900", 64, "store_offset", mutate(tmp_path, asm, "store_offset", "offset:20", "offset:24"))
    assert (code, r["verdict"]) == (1, "refuted")
    code, r = verdict(BUFFER, "gfx900", 64, "store_offset",
                      mutate(tmp_path, asm, "store_offset", "s[0:3], 0 offset:20", "s[0:3], 4 offset:20"))
    assert (code, r["verdict"]) == (1, "refuted")


@needs_llc
@pytest.mark.slow
def test_buffer_descriptor_words(tmp_path):
    """NUM_RECORDS 4 leaves the access at offset 20 out of range: unsupported,
    never proved; a descriptor whose words 0-1 are not the pointer (loaded
    from the next kernel argument's offset) writes elsewhere: refuted; one
    whose word 2 is never set, unsupported; a GFX11 buffer store, proved."""
    asm = llc(BUFFER, "gfx900", *NO_FLAT)
    code, r = verdict(BUFFER, "gfx900", 64, "store_offset",
                      mutate(tmp_path, asm, "store_offset", "s_mov_b32 s2, -1", "s_mov_b32 s2, 4"))
    assert r["verdict"] == "unsupported"
    assert any("NUM_RECORDS" in n for n in r["notes"]), r["notes"]
    code, r = verdict(BUFFER, "gfx900", 64, "store_offset",
                      mutate(tmp_path, asm, "store_offset", "s[0:1], s[8:9], 0x0", "s[0:1], s[8:9], 0x4"))
    assert (code, r["verdict"]) == (1, "refuted")
    code, r = verdict(BUFFER, "gfx900", 64, "store_offset",
                      mutate(tmp_path, asm, "store_offset", "s_mov_b32 s2, -1", "s_mov_b32 s1, -1"))
    assert r["verdict"] == "unsupported"  # (word 2 unset: not a constant)
    asm = llc(BUFFER, "gfx1100", *NO_FLAT)
    code, r = verdict(BUFFER, "gfx1100", 32, "store_readfirstlane", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")


@needs_llc
def test_buffer_base48_any_refutes_llvm(tmp_path):
    """LLVM's descriptor is right only for 48-bit pointers: under
    buffer.base48=any (a pointer may have its upper 16 bits set) its code
    is refuted, the counterexample's address above 2^48."""
    asm = llc(BUFFER, "gfx900", *NO_FLAT)
    code, r = verdict(BUFFER, "gfx900", 64, "store_readfirstlane", original(tmp_path, asm),
                      "--assume", "buffer.base48=any")
    assert (code, r["verdict"]) == (1, "refuted")
    assert r["assumptions"].get("buffer.base48") == "any"


@needs_llc
@pytest.mark.slow
def test_buffer_atomic_operation_mutant_is_refuted(tmp_path):
    asm = llc(BUFFER, "gfx1010", *NO_FLAT)
    code, r = verdict(BUFFER, "gfx1010", 32, "atomic_add_noret", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    code, r = verdict(BUFFER, "gfx1010", 32, "atomic_add_noret",
                      mutate(tmp_path, asm, "atomic_add_noret", "buffer_atomic_add ", "buffer_atomic_sub "))
    assert (code, r["verdict"]) == (1, "refuted")


@needs_llc
def test_pixel_shader_store_and_its_mutant(tmp_path):
    """An amdgpu_ps storing its argument: no caller, so no entry wait
    (proved); the data register changed: refuted."""
    asm = llc(SHADERS, "gfx1100", triple="amdgcn")
    code, r = verdict(SHADERS, "gfx1100", 32, "ps_store_i32", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    code, r = verdict(SHADERS, "gfx1100", 32, "ps_store_i32",
                      mutate(tmp_path, asm, "ps_store_i32", "v[1:2], v0, off", "v[1:2], v3, off"))
    assert (code, r["verdict"]) == (1, "refuted")


@needs_llc
@pytest.mark.slow
def test_gfx12_shader_starts_with_no_sgpr_hazard(tmp_path):
    """gfx1200: v_readfirstlane_b32 s0 then v_mov_b32 v0, s0 with no
    s_wait_alu at a compute shader's start (LLVM's AMDGPUWaitSGPRHazards
    tracks nothing at an entry function's start): proved, no warning."""
    asm = llc(SHADERS, "gfx1200", "-amdgpu-enable-vopd=0", triple="amdgcn")
    code, r = verdict(SHADERS, "gfx1200", 32, "cs_store_i16_arg", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    assert not r.get("warnings"), r.get("warnings")


@needs_llc
@pytest.mark.slow
def test_i16_shader_argument_upper_half_mutant_is_refuted(tmp_path):
    """An i16 argument is bits 15:0 of v0 (the rest unknown): reading v0.h
    instead of v0.l is refuted."""
    asm = llc(SHADERS, "gfx1100", triple="amdgcn")
    code, r = verdict(SHADERS, "gfx1100", 32, "cs_store_i16_arg", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    code, r = verdict(SHADERS, "gfx1100", 32, "cs_store_i16_arg",
                      mutate(tmp_path, asm, "cs_store_i16_arg", "v3.l, v0.l", "v3.l, v0.h"))
    assert (code, r["verdict"]) == (1, "refuted")


@needs_llc
def test_s_bitcmp_mutants_are_refuted(tmp_path):
    asm = llc(SBIT, "gfx1100", triple="amdgcn")
    fn = "branch_uniform_ballot_ne_zero_non_compare"
    code, r = verdict(SBIT, "gfx1100", 32, fn, original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    for old, new in (("s_bitcmp0_b32 s0, 0", "s_bitcmp1_b32 s0, 0"), ("s_bitcmp0_b32 s0, 0", "s_bitcmp0_b32 s0, 1")):
        code, r = verdict(SBIT, "gfx1100", 32, fn, mutate(tmp_path, asm, fn, old, new))
        assert (code, r["verdict"]) == (1, "refuted"), (old, new)


@needs_llc
def test_s_movk_sign_extends(tmp_path):
    """s_movk_i32 s0, 0x8001 is 0xffff8001 (the IR's -32767): proved;
    0x8002, or a zero-extending s_mov_b32 s0, 0x8001: refuted."""
    asm = llc(SBIT, "gfx1100", triple="amdgcn")
    fn = "uniform_select_movk"
    code, r = verdict(SBIT, "gfx1100", 32, fn, original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    for new in ("s_movk_i32 s0, 0x8002", "s_mov_b32 s0, 0x8001"):
        code, r = verdict(SBIT, "gfx1100", 32, fn, mutate(tmp_path, asm, fn, "s_movk_i32 s0, 0x8001", new))
        assert (code, r["verdict"]) == (1, "refuted"), new


@needs_llc
@pytest.mark.slow
def test_icmp_i1_simulated_ballot_and_its_mutant(tmp_path):
    """llvm.amdgcn.icmp(i1 %c, 0, ICMP_NE) is the ballot of %c: LLVM's
    branch on it proved; its vccnz made vccz, refuted."""
    src = SHAPE / "llvmcov_icmp_i1.ll"
    asm = llc(src, "gfx1010", "-mattr=+wavefrontsize32", triple="amdgcn")
    fn = "branch_divergent_simulated_ballot_ne_zero"
    code, r = verdict(src, "gfx1010", 32, fn, original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    body = asm[asm.index(f"\n{fn}:"):]
    branch = "s_cbranch_vccnz" if "s_cbranch_vccnz" in body[:body.index(".Lfunc_end")] else "s_cbranch_vccz"
    other = "s_cbranch_vccz" if branch == "s_cbranch_vccnz" else "s_cbranch_vccnz"
    code, r = verdict(src, "gfx1010", 32, fn, mutate(tmp_path, asm, fn, branch + " ", other + " "))
    assert (code, r["verdict"]) == (1, "refuted")


@needs_llc
def test_stored_lds_pointer_is_a_global_store(tmp_path):
    """`store ptr addrspace(3) %q, ptr addrspace(1) %out` writes the 32-bit
    LDS address into global memory (not the LDS): proved; the offset added
    to it changed, or the value the readfirstlane moves, refuted."""
    asm = llc(SHADERS, "gfx1100", triple="amdgcn")
    fn = "ps_load_p3_gep_store"
    code, r = verdict(SHADERS, "gfx1100", 32, fn, original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    code, r = verdict(SHADERS, "gfx1100", 32, fn, mutate(tmp_path, asm, fn, "v0, 12, v0", "v0, 16, v0"))
    assert (code, r["verdict"]) == (1, "refuted")
    fn = "ps_store_p3_readfirstlane"
    code, r = verdict(SHADERS, "gfx1100", 32, fn, mutate(tmp_path, asm, fn, "v_readfirstlane_b32 s0, v0",
                                                          "v_readfirstlane_b32 s0, v1"))
    assert (code, r["verdict"]) == (1, "refuted")
