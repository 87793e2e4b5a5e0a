"""A memory instruction's immediate offset is legal only inside the range its
encoding has on the target ([S:mem-offset]); outside it the instance is a
compiler error, never a proof.  The table (verify/target.py
MEM_OFFSETS, read through verify/tv/legality.py OFFSET_FIELDS) is held to llvm-mc-22 at both ends of every range on every
family.  One case is worse than a rejected line: llvm-mc-22 takes a MUBUF
`offset:4096` and encodes its low 12 bits, so the hardware runs offset 0;
modelled as written, such code was proved."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import LLC, llc_asm, mutate, tv_on_asm

from verify import target as T
from verify.ir import Instr
from verify.tv.legality import OFFSET_FIELDS, offset_range

MC = shutil.which("llvm-mc-22")
REPS = ["gfx600", "gfx700", "gfx803", "gfx900", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100",
        "gfx1150", "gfx1200"]


def forms(t: T.Target) -> dict[str, str]:
    """One instruction of each row's class as `t` spells it, `{}` its offset."""
    buf = ("buffer_load_b32 v1, off, s[0:3], null offset:{}" if t.gen >= 12
           else "buffer_load_dword v1, off, s[0:3], 0 offset:{}")
    out = {"ds offset": "ds_read_b32 v1, v2 offset:{}", "ds offset0": "ds_read2_b32 v[2:3], v2 offset0:{} offset1:1",
           "ds offset1": "ds_read2_b32 v[2:3], v2 offset0:1 offset1:{}", "buffer": buf,
           "s_load": "s_load_dword s4, s[0:1], {}", "s_buffer_load": "s_buffer_load_dword s4, s[0:3], {}"}
    if t.gen >= 7:
        out["flat"] = "flat_load_dword v1, v[2:3] offset:{}"
    if t.gen >= 9:
        out["global"] = "global_load_dword v1, v[2:3], off offset:{}"
        out["scratch"] = "scratch_load_dword v1, off, s2 offset:{}"
    return out


def ins(text: str) -> Instr:
    return Instr(text.split()[0], text.split()[0], (), text=text)


def table_range(text: str, t: T.Target) -> tuple[int, int]:
    """The range the target table gives the offset `{}` of `text` on `t`."""
    mn = text.split()[0]
    field = "" if mn.startswith("s_") else re.search(r"(\w+):\{\}", text).group(1)
    for pat, f, encoding in OFFSET_FIELDS:
        if f == field and pat.match(mn):
            r = t.offset_range(encoding)
            assert r is not None, (t.name, text)
            return r
    raise AssertionError(text)


def assemble(cpu: str, lines: list[str]) -> list[str | None]:
    """Each line's encoding by llvm-mc-22 on `cpu`, None where it is rejected."""
    r = subprocess.run([MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-show-encoding"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    bad = {int(n) for n in re.findall(r"<stdin>:(\d+):\d+: error", r.stderr)}
    encs = iter(re.findall(r"; encoding: (\[[^\]]*\])", r.stdout))
    return [None if k + 1 in bad else next(encs) for k in range(len(lines))]


def test_the_table_is_llvm_mc_s_range_on_every_family() -> None:
    if MC is None:
        pytest.skip("llvm-mc-22 is not installed")
    for cpu in REPS:
        t = T.get(cpu)
        rows = list(forms(t).items())
        # per row: its lowest and highest offset, one below, one above, and 0 (what a wrapped one encodes as)
        lines = [form.format(v) for _, form in rows for v in (*table_range(form, t), table_range(form, t)[0] - 1,
                                                               table_range(form, t)[1] + 1, 0)]
        encs = assemble(cpu, lines)
        for n, (name, form) in enumerate(rows):
            lo, hi = table_range(form, t)
            for k, v in enumerate((lo, hi, lo - 1, hi + 1)):
                text, enc = form.format(v), encs[5 * n + k]
                why = offset_range(ins(text), t)
                if k < 2:  # inside: llvm-mc-22 takes it, and so does verify
                    assert why is None and enc is not None, (cpu, text, why)
                    continue
                assert why is not None and f"outside {lo}..{hi}" in why, (cpu, text, why)
                # llvm-mc-22 rejects it, or (MUBUF offset:4096) encodes it as offset:0
                assert enc is None or (name == "buffer" and v == 4096 and enc == encs[5 * n + 4]), (cpu, text, enc)
    # the wrap is measured, not assumed: MUBUF offset:4096 is offset:0's encoding on every family but GFX12
    enc = assemble("gfx900", ["buffer_load_dword v1, off, s[0:3], 0 offset:4096",
                              "buffer_load_dword v1, off, s[0:3], 0 offset:0"])
    assert enc[0] is not None and enc[0] == enc[1]


def test_offsets_verify_cannot_read_and_other_instructions_are_left_alone() -> None:
    t = T.get("gfx1100")
    assert offset_range(ins("ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,16)"), t) is None
    assert offset_range(ins("global_load_b32 v1, v[2:3], off"), t) is None
    assert offset_range(ins("s_load_b32 s4, s[0:1], s6"), t) is None
    assert offset_range(ins("global_load_b32 v1, v[2:3], off offset:-4097"), t) == \
        "offset -4097 is outside -4096..4095, the range global_load_b32 encodes on gfx1100 (GFX11)"
    assert offset_range(ins("global_load_dword v1, v[2:3], off offset:2048"), T.get("gfx1030")) == \
        "offset 2048 is outside -2048..2047, the range global_load_dword encodes on gfx1030 (GFX10.3)"


def test_a_global_offset_out_of_range_is_a_compiler_error(tmp_path: Path) -> None:
    pytest.importorskip("llvmlite")
    from verify.tv.compile import by_llvmlite
    src = Path(__file__).parent / "tv" / "llvm-shape" / "wide_store_order.ll"
    asm = by_llvmlite(src.read_text(), T.get("gfx1100"), 32)
    store = "global_store_b96 v[0:1], v[6:8], off offset:16"
    bad = mutate(asm, store, store.replace("offset:16", "offset:4112"), "store_v7i32")
    code, r = tv_on_asm(tmp_path, src, bad, "gfx1100", "--wave", "32", "--function", "store_v7i32")
    assert (code, r["verdict"]) == (1, "compiler error"), r
    assert r["notes"][0].endswith("offset 4112 is outside -4096..4095, the range global_store_b96 encodes on "
                                  "gfx1100 (GFX11)"), r["notes"]


KERNEL = """define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %x) {
  %p = getelementptr i32, ptr addrspace(1) %out, i32 1024
  store i32 %x, ptr addrspace(1) %p
  ret void
}
"""


@pytest.mark.skipif(LLC is None, reason="llc-22 is not installed")
def test_a_mubuf_offset_the_assembler_wraps_is_never_proved(tmp_path: Path) -> None:
    """The store to out+4096 written as `offset:4096` with a zero SGPR
    offset: verify's model adds 4096, the assembled code adds 0."""
    src = tmp_path / "k.ll"
    src.write_text(KERNEL)
    asm = llc_asm(src, "gfx700", "-mattr=-flat-for-global")
    code, r = tv_on_asm(tmp_path, src, asm, "gfx700")
    assert (code, r["verdict"]) == (0, "proved"), r
    bad = mutate(mutate(asm, "s_movk_i32 s5, 0x1000", "s_mov_b32 s5, 0"),
                 "buffer_store_dword v0, off, s[0:3], s5", "buffer_store_dword v0, off, s[0:3], s5 offset:4096")
    code, r = tv_on_asm(tmp_path, src, bad, "gfx700")
    assert (code, r["verdict"]) == (1, "compiler error"), r
    assert r["notes"][0].endswith("offset 4096 is outside 0..4095, the range buffer_store_dword encodes on gfx700 "
                                  "(GFX7)"), r["notes"]
