"""`verify tv` on memory in LLVM's test shape (tests/tv/llvm-shape/mem_*.ll):
functions that take global, flat, LDS and constant pointers, fences and
cache invalidates, atomics, kernel arguments of every width; and one-token
mutants of LLVM's code for them, refuted (docs/tv.md, "Memory")."""

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
FILES = sorted(SHAPE.glob("mem_*.ll"))
LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")



def llc(path: Path, cpu: str, *flags: str) -> str:
    assert LLC is not None
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O2", *flags, str(path), "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


def function_text(asm: str, name: str) -> tuple[int, int]:
    start = asm.index(f"\n{name}:")
    end = asm.index(".Lfunc_end", start) if ".Lfunc_end" in asm[start:] else asm.index("s_endpgm", start)
    return start, end


def mutate(tmp_path: Path, asm: str, name: str, old: str, new: str) -> str:
    """LLVM's code with one token of function `name` changed."""
    start, end = function_text(asm, name)
    body = asm[start:end]
    assert body.count(old) == 1, (old, body)
    p = tmp_path / "m.s"
    p.write_text(asm[:start] + body.replace(old, new) + asm[end:])
    return str(p)


def verdict(path: Path, cpu: str, wave: int, fn: str, asm: str, *extra: str) -> tuple[int, dict]:
    code, out, _ = cli("tv", str(path), "--target", cpu, "--wave", str(wave), "--asm", asm, "--function", fn,
                       "--json", *extra)
    (r,) = json.loads(out)["results"]
    return code, r


def original(tmp_path: Path, asm: str) -> str:
    p = tmp_path / "o.s"
    p.write_text(asm)
    return str(p)


def test_mem_files_have_the_llvm_test_shape():
    assert len(FILES) >= 7
    for p in FILES:
        text = p.read_text()
        assert len(run_line_instances(str(p), run_lines(text))) >= 2, p
        assert text.count("define ") >= 3, p


@needs_llc
def test_function_store_offset_mutant_is_refuted(tmp_path):
    """`define void @f(ptr addrspace(1) %out, ...)`: the readlane stored at
    %out + 16; LLVM's code is proved, the store at offset 20 refuted."""
    src = SHAPE / "mem_global_functions.ll"
    asm = llc(src, "gfx1100")
    code, r = verdict(src, "gfx1100", 32, "readlane_store_offset", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    code, r = verdict(src, "gfx1100", 32, "readlane_store_offset",
                      mutate(tmp_path, asm, "readlane_store_offset", "off offset:16", "off offset:20"))
    assert (code, r["verdict"]) == (1, "refuted")
    assert any(n.startswith("counterexample: EXEC = ") for n in r["notes"])


@needs_llc
def test_function_negative_store_offset_is_proved_and_its_mutant_refuted(tmp_path):
    """A signed immediate offset is added in 64 bits (the borrow reaches the
    high half): offset:-8 proved, offset:-4 refuted."""
    src = SHAPE / "mem_global_functions.ll"
    asm = llc(src, "gfx900")
    code, r = verdict(src, "gfx900", 64, "store_negative_offset", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    code, r = verdict(src, "gfx900", 64, "store_negative_offset",
                      mutate(tmp_path, asm, "store_negative_offset", "offset:-8", "offset:-4"))
    assert r["verdict"] == "refuted"


@needs_llc
def test_function_dpp_control_mutant_is_refuted(tmp_path):
    src = SHAPE / "mem_global_functions.ll"
    asm = llc(src, "gfx900")
    code, r = verdict(src, "gfx900", 64, "update_dpp_store",
                      mutate(tmp_path, asm, "update_dpp_store", "quad_perm:[1,0,0,0]", "quad_perm:[2,0,0,0]"))
    assert (code, r["verdict"]) == (1, "refuted")


@needs_llc
def test_load_result_read_before_its_wait_is_unsupported(tmp_path):
    src = SHAPE / "mem_global_functions.ll"
    asm = llc(src, "gfx900")
    start, end = function_text(asm, "load_readfirstlane_store")
    body = asm[start:end]
    cut = body.replace("\ts_waitcnt vmcnt(0)\n\tv_readfirstlane", "\tv_readfirstlane", 1)
    assert cut != body
    p = tmp_path / "m.s"
    p.write_text(asm[:start] + cut + asm[end:])
    code, r = verdict(src, "gfx900", 64, "load_readfirstlane_store", str(p))
    assert r["verdict"] == "unsupported"
    assert any("reads a load result before its wait" in n for n in r["notes"]), r["notes"]


@needs_llc
def test_lds_offset_mutant_is_refuted(tmp_path):
    src = SHAPE / "mem_lds.ll"
    asm = llc(src, "gfx900")
    code, r = verdict(src, "gfx900", 64, "lds_store_readfirstlane_offset", original(tmp_path, asm))
    assert r["verdict"] == "proved"
    code, r = verdict(src, "gfx900", 64, "lds_store_readfirstlane_offset",
                      mutate(tmp_path, asm, "lds_store_readfirstlane_offset", "offset:12", "offset:8"))
    assert (code, r["verdict"]) == (1, "refuted")
    assert any("LDS at" in n for n in r["notes"]), r["notes"]


@needs_llc
def test_gfx8_lds_without_m0_init_is_unsupported(tmp_path):
    """Before GFX9 a DS address is checked against M0: without LLVM's
    `s_mov_b32 m0, -1` the store may be dropped, which verify does not
    model  [S:ds-m0]."""
    src = SHAPE / "mem_lds.ll"
    asm = llc(src, "gfx803")
    code, r = verdict(src, "gfx803", 64, "lds_store", original(tmp_path, asm))
    assert r["verdict"] == "proved"
    code, r = verdict(src, "gfx803", 64, "lds_store", mutate(tmp_path, asm, "lds_store", "s_mov_b32 m0, -1", "s_nop 0"))
    assert r["verdict"] == "unsupported"
    assert any("M0 not -1" in n for n in r["notes"]), r["notes"]


@needs_llc
@pytest.mark.slow
def test_lds_atomic_operation_mutant_is_refuted(tmp_path):
    src = SHAPE / "mem_atomics.ll"
    asm = llc(src, "gfx900")
    code, r = verdict(src, "gfx900", 64, "lds_atomic_sub",
                      mutate(tmp_path, asm, "lds_atomic_sub", "ds_sub_u32 v0, v1", "ds_add_u32 v0, v1"))
    assert (code, r["verdict"]) == (1, "refuted")


@needs_llc
@pytest.mark.slow  # (two compiles and two proofs: 3 s; 90 s before refutations kept their pinned lanes)
def test_returned_atomic_value_is_proved_and_its_mutant_refuted(tmp_path):
    """`ret i32 (atomicrmw add ...)`: each lane's value before its update,
    under the GPU's serialisation (shared ranks); an atomic sub instead
    leaves other memory and is refuted."""
    src = SHAPE / "mem_atomics.ll"
    asm = llc(src, "gfx1100")
    code, r = verdict(src, "gfx1100", 32, "atomic_add_ret", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    code, r = verdict(src, "gfx1100", 32, "atomic_add_ret",
                      mutate(tmp_path, asm, "atomic_add_ret", "global_atomic_add_u32", "global_atomic_sub_u32"))
    assert r["verdict"] == "refuted"


@needs_llc
def test_cache_invalidates_have_no_effect_on_one_wave(tmp_path):
    """buffer_gl0_inv/buffer_gl1_inv change nothing verify models: the code
    without them is proved as well  [S:one-wave-fence]."""
    src = SHAPE / "mem_fences.ll"
    asm = llc(src, "gfx1030")
    code, r = verdict(src, "gfx1030", 32, "fence_agent_acquire", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    code, r = verdict(src, "gfx1030", 32, "fence_agent_acquire",
                      mutate(tmp_path, asm, "fence_agent_acquire", "buffer_gl1_inv", "s_nop 0"))
    assert r["verdict"] == "proved"
    # but the store itself still counts: the wrong data register is refuted
    code, r = verdict(src, "gfx1030", 32, "fence_agent_acquire",
                      mutate(tmp_path, asm, "fence_agent_acquire", "global_store_dword v[0:1], v2, off",
                             "global_store_dword v[0:1], v1, off"))
    assert r["verdict"] == "refuted"


@needs_llc
@pytest.mark.slow
def test_gfx803_flat_store_and_its_mutant(tmp_path):
    src = SHAPE / "mem_flat_gfx803.ll"
    asm = llc(src, "gfx803")
    code, r = verdict(src, "gfx803", 64, "flat_store_readfirstlane", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    assert r["assumptions"] == {"flat.aperture": "global"}
    code, r = verdict(src, "gfx803", 64, "flat_store_readfirstlane",
                      mutate(tmp_path, asm, "flat_store_readfirstlane", "flat_store_dword v[0:1], v2",
                             "flat_store_dword v[0:1], v1"))
    assert (code, r["verdict"]) == (1, "refuted")
    # a flat access that may land in the LDS or scratch aperture: not modelled
    code, r = verdict(src, "gfx803", 64, "flat_store_readfirstlane", original(tmp_path, asm),
                      "--assume", "flat.aperture=any")
    assert r["verdict"] == "unsupported"
    assert any("flat.aperture=any" in n for n in r["notes"]), r["notes"]


@pytest.mark.slow  # 7 s (gfx803 wave64's per-EXEC proofs): over the fast tier's 5 s line
@needs_llc
def test_an_i64_store_split_in_dwords_is_proved_where_lanes_overlap(tmp_path):
    """gfx803 stores an i64 through a flat pointer as two dword stores, the
    high dwords of all lanes first.  Where lane 1's address is lane 0's
    minus 4, lane 1's high dword and lane 0's low dword are the same
    address: in the IR that is a race within one store (any value), so the
    GPU's order is no failure (it was refuted while the IR's race groups
    were per dword).  Storing the low half at +4 is still refuted."""
    src = SHAPE / "mem_flat_gfx803.ll"
    asm = llc(src, "gfx803")
    code, r = verdict(src, "gfx803", 64, "flat_store_i64", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved"), r["notes"]
    code, r = verdict(src, "gfx803", 64, "flat_store_i64",
                      mutate(tmp_path, asm, "flat_store_i64", "flat_store_dword v[4:5], v3", "flat_store_dword v[4:5], v2"))
    assert (code, r["verdict"]) == (1, "refuted")


@needs_llc
def test_gfx803_kernel_with_flat_scratch_setup_is_proved(tmp_path):
    src = SHAPE / "mem_flat_gfx803.ll"
    asm = llc(src, "gfx803")
    start, end = function_text(asm, "flat_kernel_store")
    assert "flat_scratch_lo" in asm[start:end]
    code, r = verdict(src, "gfx803", 64, "flat_kernel_store", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")


@needs_llc
@pytest.mark.slow
def test_kernel_i16_argument_mutant_reading_its_neighbour_is_refuted(tmp_path):
    """i16, half and i8 kernel arguments share a dword of the kernarg
    segment; reading the half's bits as the i16 is refuted."""
    src = SHAPE / "mem_constant.ll"
    asm = llc(src, "gfx900")
    code, r = verdict(src, "gfx900", 64, "kernel_i16_half_i8", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    code, r = verdict(src, "gfx900", 64, "kernel_i16_half_i8",
                      mutate(tmp_path, asm, "kernel_i16_half_i8", "s_and_b32 s2, s2, 0xffff", "s_lshr_b32 s2, s2, 15"))
    assert (code, r["verdict"]) == (1, "refuted")


@needs_llc
def test_constant_load_offset_mutant_is_refuted(tmp_path):
    src = SHAPE / "mem_constant.ll"
    asm = llc(src, "gfx1100")
    code, r = verdict(src, "gfx1100", 32, "const_load_offset", original(tmp_path, asm))
    assert (code, r["verdict"]) == (0, "proved")
    code, r = verdict(src, "gfx1100", 32, "const_load_offset",
                      mutate(tmp_path, asm, "const_load_offset", "s[0:1], 0x14", "s[0:1], 0x10"))
    assert (code, r["verdict"]) == (1, "refuted")


def test_flat_and_lds_in_one_function_is_unsupported(tmp_path):
    p = tmp_path / "f.ll"
    p.write_text("; RUN: llc -mtriple=amdgcn -mcpu=gfx1100\n"
                 "define void @f(ptr %out, ptr addrspace(3) %l, i32 %x) {\n"
                 "  store i32 %x, ptr %out, align 4\n"
                 "  store i32 %x, ptr addrspace(3) %l, align 4\n  ret void\n}\n")
    code, out, _ = cli("tv", str(p), "--wave", "32")
    assert code == 4
    assert "unsupported: flat and LDS (or private) pointers in one function" in out
