"""SDWA forms (verify/ops/sdwa.py) [S:sdwa]: the operand/result modifier
against an independent reference (CLRX's GcnSdwaDpp.md pseudocode, written
here byte by byte), concrete and symbolic agreeing; legality per target as
llvm-mc-22 decides it; `verify tv` on the GFX8/GFX9 code llc-22 emits around
16-bit values (tests/tv/llvm-shape/sdwa_*.ll) proved, and one-token mutants of
it refuted."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import cli, simulate

from verify import smt
from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.machine import Machine
from verify.ops import OPS
from verify.ops.sdwa import SELS, UNUSED
from verify.target import TARGETS, FeatureLog, get

SHAPE = Path(__file__).parent / "tv" / "llvm-shape"
LLC = shutil.which("llc-22")
MC = shutil.which("llvm-mc-22")
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")
M32 = 0xFFFFFFFF


# ---- the modifier against a reference ---------------------------------------

def ref_src(x: int, sel: str, sext: bool) -> int:
    if sel == "DWORD":
        return x
    off, w = {"BYTE_0": (0, 8), "BYTE_1": (8, 8), "BYTE_2": (16, 8), "BYTE_3": (24, 8),
              "WORD_0": (0, 16), "WORD_1": (16, 16)}[sel]
    v = (x >> off) & ((1 << w) - 1)
    if sext and v >> (w - 1):
        v -= 1 << w
    return v & M32


def ref_dst(r: int, old: int, sel: str, unused: str) -> int:
    if sel == "DWORD":
        return r & M32
    off, w = {"BYTE_0": (0, 8), "BYTE_1": (8, 8), "BYTE_2": (16, 8), "BYTE_3": (24, 8),
              "WORD_0": (0, 16), "WORD_1": (16, 16)}[sel]
    tmp = r & ((1 << w) - 1)
    if unused == "UNUSED_PAD":
        return tmp << off
    if unused == "UNUSED_SEXT":
        s = tmp - (1 << w) if tmp >> (w - 1) else tmp
        return (s << off) & M32
    return (tmp << off) | (old & ~(((1 << w) - 1) << off) & M32)


REF_OPS = {  # 32-bit ops on the selected values; 16-bit ops on their low halves
    "v_or_b32": lambda a, b: a | b,
    "v_xor_b32": lambda a, b: a ^ b,
    "v_lshrrev_b32": lambda a, b: b >> (a & 31),
    "v_add_u16": lambda a, b: (a + b) & 0xFFFF,
    "v_sub_u16": lambda a, b: (a - b) & 0xFFFF,
    "v_subrev_u16": lambda a, b: (b - a) & 0xFFFF,
    "v_lshlrev_b16": lambda a, b: ((b & 0xFFFF) << (a & 15)) & 0xFFFF,
    "v_ashrrev_i16": lambda a, b: (((b & 0xFFFF) - ((b & 0x8000) << 1)) >> (a & 15)) & 0xFFFF,
}


def _line(op: str, dsel: str, unused: str, s0: str, s1: str, sx0: bool) -> str:
    src0 = "sext(v1)" if sx0 else "v1"
    return (f"{op}_sdwa v0, {src0}, v2 dst_sel:{dsel} dst_unused:{unused} "
            f"src0_sel:{s0} src1_sel:{s1}")


def _cases(n: int, seed: int) -> list[tuple[str, str, str, str, str, bool]]:
    rnd = random.Random(seed)
    return [(rnd.choice(list(REF_OPS)), rnd.choice(list(SELS)), rnd.choice(UNUSED), rnd.choice(list(SELS)),
             rnd.choice(list(SELS)), rnd.random() < 0.5) for _ in range(n)]


VALUES = [0, 1, 0x7F, 0x80, 0xFF, 0x8000, 0xFFFF, 0x12345678, 0x80818283, 0xFEDCBA98, M32]


@pytest.mark.parametrize("op, dsel, unused, s0, s1, sx0", _cases(60, 31))
def test_sdwa_matches_the_reference_concretely_and_symbolically(op, dsel, unused, s0, s1, sx0):
    """One SDWA instruction on the concrete machine equals the reference; the
    symbolic machine's term, evaluated at the same inputs, equals it too."""
    line = _line(op, dsel, unused, s0, s1, sx0)
    rnd = random.Random(line)
    trip = [(rnd.choice(VALUES), rnd.choice(VALUES), rnd.getrandbits(32)) for _ in range(6)]
    Z = smt.Z3()
    sym = {f"v{k}": Z.fresh(f"v{k}") for k in range(3)}
    ms = Machine(Z, 64, lambda kind, name, lane: False if kind == "scc" else sym.get(name, 0),
                 FeatureLog(get("gfx900")), {}, hazards=False)
    ms.set_exec_mask(1)
    ms.run([parse_instr(line, Span("t", 1))])
    term = ms.v(0)[0]
    for a, b, old in trip:
        x, y = ref_src(a, s0, sx0), ref_src(b, s1, False)
        r = REF_OPS[op](x, y)
        if op.endswith(("16",)) and dsel == "DWORD":
            r &= 0xFFFF  # bits 31:16 of a 16-bit result: 0 under alu16.high_gfx8=zero
        want = ref_dst(r, old, dsel, unused)
        m = simulate([line], "gfx900", 64, 1, {"v0": old, "v1": a, "v2": b})
        assert m.v(0)[0] == want, (line, hex(a), hex(b), hex(old), hex(m.v(0)[0]), hex(want))
        assert smt.Evaluator({"v0": old, "v1": a, "v2": b})(term) == want, line


def test_unused_preserve_reads_the_destination_and_inactive_lanes_keep_it():
    m = simulate(["v_mov_b32_sdwa v0, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1"],
                 "gfx803", 64, 0b01, {"v0": 0x11223344, "v1": 0xABCD0000})
    assert (m.v(0)[0], m.v(0)[1]) == (0x1122CD44, 0x11223344)
    m = simulate(["v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_0"],
                 "gfx803", 64, 1, {"v0": 0x11223344, "v1": 0x80})
    assert m.v(0)[0] == 0x00800000
    m = simulate(["v_mov_b32_sdwa v0, sext(v1) dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_0"],
                 "gfx803", 64, 1, {"v1": 0x80})
    assert m.v(0)[0] == 0xFF800000


def test_a_16_bit_result_in_a_dword_depends_on_the_high_bits_assumption():
    line = "v_add_u16_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:WORD_1"
    m = simulate([line], "gfx803", 64, 1, {"v0": 0x5555AAAA, "v1": 0xFFFF0000, "v2": 0x00030000})
    assert m.v(0)[0] == 0x2 and m.assumptions_used == {"alu16.high_gfx8": "zero"}
    m = simulate(["v_lshlrev_b16_e32 v0, 4, v1"], "gfx803", 64, 1, {"v0": M32, "v1": 0xFFFF1234})
    assert m.v(0)[0] == 0x2340


# ---- legality: llvm-mc-22 --------------------------------------------------

MC_TARGETS = ("gfx803", "gfx900", "gfx942", "gfx1030", "gfx1100")
# (line, the targets where llvm-mc-22 accepts it): pinned from llvm-mc-22 runs
LEGAL = [
    ("v_add_u16_sdwa v0, v2, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD", "gcn"),
    ("v_sub_u16_sdwa v0, sext(v2), v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD", "gcn"),
    ("v_lshlrev_b16_sdwa v0, v2, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1", "gcn"),
    ("v_or_b32_sdwa v0, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:BYTE_2", "sdwa"),
    ("v_xor_b32_sdwa v0, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD", "sdwa"),
    ("v_mov_b32_sdwa v0, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1", "sdwa"),
    ("v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_0", "sdwa"),
    ("v_add_u16_sdwa v0, s2, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD", "gfx9"),
    ("v_or_b32_sdwa v0, s2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD", "sgpr"),
    ("v_add_u32_sdwa v0, v2, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD", "gfx9"),
    ("v_add_u16_sdwa v0, v2, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD clamp", ""),
    ("v_lshlrev_b32_sdwa v0, v2, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1", "sdwa"),
    ("v_ashrrev_i32_sdwa v0, v2, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1", "sdwa"),
    ("v_not_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD", "sdwa"),
    ("v_max_i16_sdwa v0, v2, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1", "gcn"),
    ("v_sub_u32_sdwa v0, v2, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1", "gfx9"),
    ("v_min_u16_e32 v0, v1, v2", "gcn"),
    ("v_lshlrev_b16_e32 v0, 1, v0", "gcn"),
    ("v_ashrrev_i16_e32 v0, 1, v0", "gcn"),
    ("v_lshrrev_b16_e32 v1, 3, v1", "gcn"),
    ("v_subrev_u16_e32 v0, s4, v0", "gcn"),
]
GROUPS = {"gcn": {"gfx803", "gfx900", "gfx942"}, "gfx9": {"gfx900", "gfx942"}, "sgpr": {"gfx900", "gfx942", "gfx1030"},
          "sdwa": {"gfx803", "gfx900", "gfx942", "gfx1030"}, "": set()}


def _verify_accepts(line: str, target: str) -> bool:
    t = TARGETS[target]
    try:
        ins = parse_instr(line, Span("t", 1))
        OPS[ins.base].check(ins, t, 64 if t.gen < 10 else 32)
        return True
    except InputError:
        return False


@pytest.mark.parametrize("line, group", LEGAL)
def test_verify_legality_matches_the_pinned_table(line, group):
    assert {t for t in MC_TARGETS if _verify_accepts(line, t)} == GROUPS[group], line


@pytest.mark.skipif(MC is None, reason="needs llvm-mc-22")
def test_the_pinned_table_matches_llvm_mc():
    assert MC is not None
    for t in MC_TARGETS:
        text = "\n".join(line for line, _ in LEGAL) + "\n"
        r = subprocess.run([MC, "-arch=amdgcn", f"-mcpu={t}", "-show-encoding"], input=text,
                           capture_output=True, text=True)
        bad = {int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):\d+: error", r.stderr)}
        for k, (line, group) in enumerate(LEGAL, 1):
            assert (k not in bad) == (t in GROUPS[group]), (t, line)


# ---- verify tv on llc-22's output -----------------------------------------

def llc(path: Path, cpu: str) -> str:
    assert LLC is not None
    r = subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-O2", str(path), "-o", "-"],
                       capture_output=True, text=True, check=True)
    return r.stdout


def verdict(src: Path, cpu: str, asm: str, fn: str, *more: str) -> str:
    code, out, _ = cli("tv", str(src), "--target", cpu, "--wave", "64", "--asm", asm, "--function", fn, "--json", *more)
    (r,) = json.loads(out)["results"]
    assert code == {"proved": 0, "refuted": 1, "unknown": 3, "unsupported": 4}.get(r["verdict"], 2), (code, r)
    return str(r["verdict"])


def check_mutant(tmp_path: Path, src: Path, cpu: str, fn: str, good: str, bad: str) -> None:
    """LLVM's code for `fn` is proved; the one-token mutant is refuted."""
    text = llc(src, cpu)
    orig = tmp_path / "o.s"
    orig.write_text(text)
    assert verdict(src, cpu, str(orig), fn) == "proved"
    m = re.search(rf"^{fn}:.*?s_setpc_b64", text, re.S | re.M)
    assert m is not None and good in m.group(0), (fn, good)
    mut = tmp_path / "m.s"
    mut.write_text(text[:m.start()] + m.group(0).replace(good, bad, 1) + text[m.end():])
    assert verdict(src, cpu, str(mut), fn) == "refuted"


def test_sdwa_files_have_the_llvm_test_shape():
    files = sorted(SHAPE.glob("sdwa_*.ll"))
    assert files
    for p in files:
        text = p.read_text()
        assert len(re.findall(r"^; RUN: llc .*-mcpu=gfx(803|900)", text, re.M)) >= 2, p
        assert text.count("define ") >= 4, p


@needs_llc
@pytest.mark.slow
def test_dst_sel_mutant_writing_word_0_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "sdwa_halves.ll", "gfx803", "dpp_v2i16_sub",
                 "dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1", "dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1")


@needs_llc
@pytest.mark.slow
def test_src0_sel_mutant_reading_the_low_word_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "sdwa_halves.ll", "gfx803", "dpp_v2i16_sub",
                 "src0_sel:WORD_1 src1_sel:WORD_1", "src0_sel:WORD_0 src1_sel:WORD_1")


@needs_llc
@pytest.mark.slow
def test_src0_sel_byte_mutant_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "sdwa_halves.ll", "gfx803", "readlane_byte2_or", "src0_sel:BYTE_2", "src0_sel:BYTE_3")


@needs_llc
@pytest.mark.slow
def test_gfx8_16_bit_shift_mutant_is_refuted(tmp_path):
    check_mutant(tmp_path, SHAPE / "wide_packed.ll", "gfx803", "dpp_v2i16_lshr",
                 "v_lshrrev_b16_e32 v1, 3, v1", "v_lshrrev_b16_e32 v1, 4, v1")


@needs_llc
@pytest.mark.slow
def test_the_high_bits_assumption_is_what_gfx8_code_rests_on(tmp_path):
    """llc-22 ORs two 16-bit results on gfx803: proved under alu16.high_gfx8's
    default, refuted where bits 31:16 are unknown."""
    text = llc(SHAPE / "wide_packed.ll", "gfx803")
    asm = tmp_path / "o.s"
    asm.write_text(text)
    src = SHAPE / "wide_packed.ll"
    assert verdict(src, "gfx803", str(asm), "readfirstlane_v2i16_shl") == "proved"
    assert verdict(src, "gfx803", str(asm), "readfirstlane_v2i16_shl", "--assume", "alu16.high_gfx8=unknown") == "refuted"


@pytest.mark.parametrize("line, col, message", [
    ("v_or_b32_sdwa v0, v1, v2 dst_sel:WORD_2", 34, "dst_sel takes one of BYTE_0, BYTE_1"),
    ("v_or_b32_sdwa v0, v1, 3 src0_sel:WORD_1", 23, "verify does not model constants in v_or_b32_sdwa"),
    ("v_mov_b32_sdwa sext(v0), v1", 16, "the destination takes no sext()"),
])
def test_bad_sdwa_input_is_an_error_at_its_column(line, col, message):
    with pytest.raises(InputError) as e:
        parse_instr(line, Span("t.s", 3))
    assert e.value.span is not None and (e.value.span.line, e.value.span.col) == (3, col), e.value.span
    assert message in str(e.value)
