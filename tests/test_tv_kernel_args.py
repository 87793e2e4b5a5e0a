"""`verify tv` kernels: argument offsets come from the printed
`.amdgpu_metadata` `.args` and are checked against the ABI rule
(natural alignment, in order); a disagreement is an error line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import cli

from verify.tv.kernel import MetaArg, arg_offsets, metadata_args, metadata_problems
from verify.tv.llir import read_module, run_lines

pytest.importorskip("llvmlite")

from verify.target import TARGETS
from verify.tv.compile import by_llvmlite_isolated, run_line_instances

CORPUS = Path(__file__).parent / "tv"
KERNELS = sorted(p for p in CORPUS.glob("kernel_*.ll"))

MIX = """declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @mix(ptr addrspace(1) %out, i32 %a, ptr addrspace(1) %in, i32 %b, float %c) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %id
  %x = load i32, ptr addrspace(1) %p, align 4
  %y = add i32 %x, %a
  %z = xor i32 %y, %b
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %z, ptr addrspace(1) %q, align 4
  ret void
}
"""

META = """\t.text
\t.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .name:           a
        .offset:         8
        .size:           4
        .value_kind:     by_value
      - .offset:         16
        .size:           4
        .value_kind:     hidden_block_count_x
    .name:           k
    .kernarg_segment_size: 272
  - .args:
      - .name:           z
        .offset:         4
        .size:           4
        .value_kind:     by_value
    .name:           other
amdhsa.target:   amdgcn-amd-amdhsa--gfx1100
amdhsa.version:
  - 1
  - 2
...

\t.end_amdgpu_metadata
"""


def test_metadata_args_as_llvm_prints_them():
    assert metadata_args(META, "k") == [MetaArg("out", 0, 8, "global_buffer", 8), MetaArg("a", 8, 4, "by_value", 12),
                                        MetaArg("", 16, 4, "hidden_block_count_x", 15)]
    assert metadata_args(META, "other") == [MetaArg("z", 4, 4, "by_value", 22)]
    assert metadata_args(META, "missing") is None and metadata_args("\ts_endpgm\n", "k") is None


def test_metadata_disagreeing_with_the_abi_rule_is_an_error_line():
    fn = read_module("k.ll", "define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %a) {\n  ret void\n}\n").functions[0]
    offs = arg_offsets(fn)
    assert offs == [0, 8]
    assert metadata_problems(fn, offs, metadata_args(META, "k") or [], "F.s") == []
    bad = META.replace(".offset:         8", ".offset:         12")
    assert metadata_problems(fn, offs, metadata_args(bad, "k") or [], "F.s") == [
        "F.s:12: error: kernel argument %a: the .amdgpu_metadata says offset 12, size 4, by_value; "
        "the ABI rule gives offset 8, size 4, by_value"]
    one = read_module("k.ll", "define amdgpu_kernel void @k(ptr addrspace(1) %out) {\n  ret void\n}\n").functions[0]
    assert metadata_problems(one, [0], metadata_args(META, "k") or [], "F.s") == [
        "F.s: error: the .amdgpu_metadata of k lists 2 kernel arguments, the IR has 1"]


def _first_run_instance(path: Path) -> tuple[str, int]:
    """A kernel's first RUN-line (target, wave): a kernel is compiled only for
    the targets it declares (a permlane16 kernel does not select on gfx90a)."""
    t, w = run_line_instances(path.name, run_lines(path.read_text()))[0]
    return t.name, w


METADATA_CASES = [(p.stem, p, *_first_run_instance(p)) for p in KERNELS] + [
    (f"MIX-{t}-{w}", "MIX", t, w) for t, w in [("gfx90a", 64), ("gfx1100", 32), ("gfx1200", 64)]]


@pytest.mark.slow
@pytest.mark.parametrize(("path", "target", "wave"), [c[1:] for c in METADATA_CASES],
                         ids=[c[0] for c in METADATA_CASES])
def test_corpus_kernel_metadata_agrees_with_the_abi_rule(path, target, wave):
    text = MIX if path == "MIX" else path.read_text()
    fn = next(f for f in read_module("k.ll", text).functions if f.kernel)
    asm = by_llvmlite_isolated(text, TARGETS[target], wave)
    meta = metadata_args(asm, fn.name)
    offs = arg_offsets(fn)
    assert meta is not None and offs is not None
    assert [a.offset for a in meta if not a.value_kind.startswith("hidden_")] == offs
    assert metadata_problems(fn, offs, meta, "x.s") == []


@pytest.mark.slow
def test_tv_reports_tampered_metadata_and_missing_metadata(tmp_path):
    ll = tmp_path / "mix.ll"
    ll.write_text(MIX)
    asm = by_llvmlite_isolated(MIX, TARGETS["gfx90a"], 64)
    code, out, _ = cli("tv", str(ll), "--target", "gfx90a", "--wave", "64")
    assert code == 0 and "proved" in out.splitlines()[0]
    bad = tmp_path / "bad.s"
    lines = asm.split("\n")
    k = next(k for k, ln in enumerate(lines) if re.fullmatch(r"\s+(- )?\.name:\s+b", ln))
    lines[k + 1] = lines[k + 1].replace("24", "20")
    bad.write_text("\n".join(lines))
    code, out, _ = cli("tv", str(ll), "--target", "gfx90a", "--wave", "64", "--asm", str(bad))
    assert code == 4 and out.splitlines()[:2] == [
        "mix on gfx90a wave64 (" + str(bad) + "): unsupported",
        f"  <{bad} gfx90a wave64>:{k + 2}: error: kernel argument %b: the .amdgpu_metadata says offset 20, size 4, "
        "by_value; the ABI rule gives offset 24, size 4, by_value"]
    plain = tmp_path / "plain.s"
    plain.write_text(asm[:asm.index("\t.amdgpu_metadata")])
    code, out, _ = cli("tv", str(ll), "--target", "gfx90a", "--wave", "64", "--asm", str(plain))
    assert code == 0 and out.splitlines()[1:3] == [
        "  for gfx90a wave64 under exec=dispatch, assumptions: kernel.entry_exec=prefix",
        f"  <{plain} gfx90a wave64>: no .amdgpu_metadata entry for mix: kernel argument offsets by the ABI rule"]
