"""`verify tv` on inline asm whose text is only comments (LLVM's readlane.ll
`; def $0` / `; use $0`), matched to the GPU code's ;;#ASMSTART blocks
(verify/tv/inlineasm.py): a def/use pair proved; a `use` that names the
wrong register refuted at its block and lane; a block whose text differs
from the call's, an unknown constraint, a clobber, and asm the IR-to-IR
check cannot match all unsupported, named."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli

pytest.importorskip("llvmlite")

from verify.tv.inlineasm import BASE, mark

LLC = shutil.which("llc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")

DEFUSE = """\
define i32 @defuse(i32 %a) {
  %v = call i32 asm sideeffect "; def $0", "=v"()
  %x = add i32 %v, %a
  call void asm sideeffect "; use $0", "v"(i32 %x)
  ret i32 %x
}

define void @defuse_s(i32 inreg %a) {
  %v = call i32 asm sideeffect "; def $0", "=s"()
  %x = add i32 %v, %a
  call void asm sideeffect "; use $0", "s"(i32 %x)
  ret void
}
"""

# what llc-22 -mcpu=gfx1100 makes of DEFUSE (the registers as it chose them)
ASM = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
\t.text
\t.globl\tdefuse
\t.p2align\t8
\t.type\tdefuse,@function
defuse:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
\t;;#ASMSTART
\t; def v1
\t;;#ASMEND
\tv_add_nc_u32_e32 v0, v1, v0
\t;;#ASMSTART
\t; use v0
\t;;#ASMEND
\ts_setpc_b64 s[30:31]
.Lfunc_end0:
\t.size\tdefuse, .Lfunc_end0-defuse
\t.globl\tdefuse_s
\t.p2align\t8
\t.type\tdefuse_s,@function
defuse_s:
\ts_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
\t;;#ASMSTART
\t; def s1
\t;;#ASMEND
\ts_add_i32 s1, s1, s0
\t;;#ASMSTART
\t; use s1
\t;;#ASMEND
\ts_setpc_b64 s[30:31]
.Lfunc_end1:
\t.size\tdefuse_s, .Lfunc_end1-defuse_s
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def tv(tmp_path: Path, ir: str, asm: str, *more: str) -> tuple[int, dict[str, dict]]:
    code, out, err = cli("tv", write(tmp_path, "f.ll", ir), "--asm", write(tmp_path, "f.s", asm),
                         "--target", "gfx1100", "--wave", "32", "--json", *more)
    assert out, err
    return code, {r["function"]: r for r in json.loads(out)["results"]}


def test_a_def_use_pair_is_proved(tmp_path):
    code, rs = tv(tmp_path, DEFUSE, ASM)
    assert code == 0 and {f: r["verdict"] for f, r in rs.items()} == {"defuse": "proved", "defuse_s": "proved"}


def test_a_use_of_the_wrong_vgpr_is_refuted_at_its_block_and_lane(tmp_path):
    code, rs = tv(tmp_path, DEFUSE, ASM.replace("; use v0", "; use v1"))
    r = rs["defuse"]
    assert code == 1 and r["verdict"] == "refuted" and rs["defuse_s"]["verdict"] == "proved"
    (note,) = [n for n in r["notes"] if n.startswith("counterexample")]
    # the second block (its ASMSTART at line 12 of the .s), the IR's call at f.ll:4:3, one lane
    assert re.search(r"inline asm block 1 at GPU line 12 \('; use \$0' of \S+f\.ll:4:3\): lane 0, operand \$0: "
                     r"the IR passes 0x[0-9a-f]+, the GPU's register holds 0x[0-9a-f]+ \(EXEC = 0x1\)", note), note


def test_a_use_of_the_wrong_sgpr_is_refuted(tmp_path):
    code, rs = tv(tmp_path, DEFUSE, ASM.replace("; use s1", "; use s0"))
    assert code == 1 and rs["defuse_s"]["verdict"] == "refuted" and rs["defuse"]["verdict"] == "proved"
    assert any("inline asm block 1 at GPU line 27" in n for n in rs["defuse_s"]["notes"]), rs["defuse_s"]["notes"]


def test_a_def_into_a_register_the_code_does_not_read_is_refuted(tmp_path):
    """The GPU code adds the old v1, not the asm's output: the output is a
    fresh value the IR takes, so the sums differ."""
    code, rs = tv(tmp_path, DEFUSE, ASM.replace("; def v1", "; def v2"), "--function", "defuse")
    assert code == 1 and rs["defuse"]["verdict"] == "refuted"


def test_a_block_whose_text_differs_is_unsupported(tmp_path):
    code, rs = tv(tmp_path, DEFUSE, ASM.replace("; use v0", "; usex v0"), "--function", "defuse")
    r = rs["defuse"]
    assert code == 4 and r["verdict"] == "unsupported"
    assert any("line 12: inline asm block '; usex v0' for the IR's '; use $0'" in n and "the text differs" in n
               for n in r["notes"]), r["notes"]


def test_a_missing_block_is_unsupported(tmp_path):
    """A block the GPU code lacks (or has more of) is never ignored."""
    asm = ASM.replace("\t;;#ASMSTART\n\t; use v0\n\t;;#ASMEND\n", "")
    code, rs = tv(tmp_path, DEFUSE, asm, "--function", "defuse")
    assert code == 4 and any("1 inline asm block(s) in the GPU code for 2 inline asm call(s)" in n
                             for n in rs["defuse"]["notes"]), rs["defuse"]["notes"]


def test_a_real_instruction_inside_a_block_is_not_dropped(tmp_path):
    """A block with an instruction in it stays code the GPU runs
    ([S:ir-asm-exec]): it is no block for the IR's comment call, so the
    blocks and calls do not pair and the function is unsupported (the
    instruction's effect is never lost)."""
    asm = ASM.replace("\t; use v0\n", "\tv_mov_b32 v0, 0\n")
    code, rs = tv(tmp_path, DEFUSE, asm, "--function", "defuse")
    assert code == 4 and any("1 inline asm block(s) in the GPU code for 2 inline asm call(s)" in n
                             for n in rs["defuse"]["notes"]), rs["defuse"]["notes"]


@pytest.mark.parametrize("cons, message", [
    ("={v3}", "constraint '={v3}' (modelled: v, s, =v, =s)"),
    ("=r", "constraint '=r'"),
    ("=v,~{memory}", "clobbers ~{memory}"),
])
def test_an_unknown_constraint_or_a_clobber_is_unsupported(tmp_path, cons, message):
    ir = DEFUSE.replace('"; def $0", "=v"()', f'"; def $0", "{cons}"()', 1)
    code, rs = tv(tmp_path, ir, ASM, "--function", "defuse")
    r = rs["defuse"]
    assert code == 4 and r["verdict"] == "unsupported" and any(message in n for n in r["notes"]), r["notes"]


def test_asm_without_sideeffect_and_asm_in_an_ir_pair_are_unsupported(tmp_path):
    ir = DEFUSE.replace('asm sideeffect "; def', 'asm "; def')
    code, rs = tv(tmp_path, ir, ASM, "--function", "defuse")
    assert code == 4 and any("without sideeffect" in n for n in rs["defuse"]["notes"])
    pair = ('define i32 @src(i32 %a) {\n  call void asm sideeffect "; use $0", "v"(i32 %a)\n  ret i32 %a\n}\n'
            'define i32 @tgt(i32 %a) {\n  ret i32 %a\n}\n')
    code, out, _ = cli("tv", write(tmp_path, "pair.ll", pair), "--target", "gfx1100")
    assert code == 4 and "inline asm '; use $0' (asm is matched" in out, out


def test_mark_keeps_line_numbers_and_leaves_empty_blocks():
    text = "a\n;;#ASMSTART\n;;#ASMEND\nb\n\t;;#ASMSTART\n\t; use s0\n\t;;#ASMEND\nc\n"
    out, bodies, problems = mark(text)
    assert out.splitlines() == ["a", ";;#ASMSTART", ";;#ASMEND", "b", f"{BASE} 0", "", "", "c"]
    assert bodies == {0: ["\t; use s0"]} and problems == []
    assert mark("x\n;;#ASMSTART\n; def v0\n")[2] == ["line 2: an inline asm block without ;;#ASMEND"]


@needs_llc
def test_llc_22s_readlane_kernel_with_def_and_use_is_proved(tmp_path):
    """readlane.ll's vreg_sreg_i64 shape, compiled by llc-22 for gfx803
    (fiji): `; def v[0:1]`, two v_readlane_b32, `; use s[0:1]`."""
    ir = ('define amdgpu_kernel void @k(i64 %src0, i32 %src1) {\n'
          '  %vgpr = call i64 asm sideeffect "; def $0", "=v"()\n'
          '  %r = call i64 @llvm.amdgcn.readlane.i64(i64 %vgpr, i32 %src1)\n'
          '  call void asm sideeffect "; use $0", "s"(i64 %r)\n  ret void\n}\n')
    src = write(tmp_path, "k.ll", ir)
    assert LLC is not None
    asm = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=fiji", src, "-o", "-"], capture_output=True,
                         text=True, check=True).stdout
    assert "; use s[0:1]" in asm
    code, out, _ = cli("tv", src, "--asm", write(tmp_path, "k.s", asm), "--target", "gfx803", "--json")
    (r,) = json.loads(out)["results"]
    assert code == 0 and r["verdict"] == "proved", r
    # the high half read from the wrong VGPR: refuted at the use
    bad = re.sub(r"v_readlane_b32 (s\d+), v1,", r"v_readlane_b32 \1, v0,", asm, count=1)
    assert bad != asm
    code, out, _ = cli("tv", src, "--asm", write(tmp_path, "b.s", bad), "--target", "gfx803", "--json")
    (r,) = json.loads(out)["results"]
    assert code == 1 and r["verdict"] == "refuted", r
    assert any("operand $0 piece 1" in n for n in r["notes"]), r["notes"]


@needs_llc
def test_a_use_of_a_frozen_poison_is_not_refuted(tmp_path):
    """The IR's non-deterministic value (freeze of poison) is the source's to
    choose: a difference there is not settled, so unknown, never refuted."""
    ir = ('define void @nd(i32 %a) {\n  %f = freeze i32 poison\n'
          '  call void asm sideeffect "; use $0", "v"(i32 %f)\n  ret void\n}\n')
    code, out, _ = cli("tv", write(tmp_path, "nd.ll", ir), "--llc", "llc-22", "--target", "gfx1100", "--wave", "32")
    assert code == 3 and "nd on gfx1100 wave32 (llc-22): unknown" in out and "non-deterministic" in out, out
