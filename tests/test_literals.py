"""Constants as llvm-mc-22 reads them: 64-bit integer text, float literals
and float inline constants.  [S:literal64] [S:float-literals]"""

import re
import shutil
import subprocess

import pytest

from verify.diag import InputError, Span
from verify.ops.base import M64, expand_b64
from verify.syntax import parse_operand

MC = shutil.which("llvm-mc-22")
needs_mc = [pytest.mark.llvm_mc, pytest.mark.skipif(MC is None, reason="needs llvm-mc-22")]


def imm(text):
    return parse_operand(text, Span("t", 1, 1))


def _mc(cpu, line):
    r = subprocess.run([MC, "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding"], input=line + "\n",
                       capture_output=True, text=True, timeout=60)
    m = re.search(r"encoding: (\[[0-9a-fx,]+\])", r.stdout)
    return None if r.returncode or m is None else [int(x, 16) for x in m.group(1).strip("[]").split(",")]


# 64-bit integer text in a B64 operand: (text, the 64-bit value under the default assumptions)
B64 = [
    ("0xffffffffffffffff", M64),
    ("0xFFFFFFFFFFFFFFFF", M64),
    ("0xfffffffffffffff0", M64 - 15),  # -16: inline
    ("0xffffffffffffffef", 0xFFFFFFEF),  # -17: a literal written negative (literal64.negative=zext)
    ("0xffffffff80000000", 0x80000000),
]


@pytest.mark.parametrize("text,value", B64)
def test_64bit_text_in_b64_operands(text, value):
    assert expand_b64(imm(text)) == value
    assert expand_b64(imm(text), negative="sext") == (value if value in (M64, M64 - 15) else
                                                       (int(text, 16) & M64))


def test_64bit_text_in_32bit_operands():
    assert imm("0xffffffffffffffff").value == 0xFFFFFFFF
    assert imm("0xffffffff80000000").value == 0x80000000
    for bad in ("0xffffffff00000000", "0x100000000", "0x7fffffffffffffff", "0x10000000000000000"):
        with pytest.raises(InputError, match="does not fit"):
            imm(bad)


@pytest.mark.parametrize("cpu", ["gfx900", "gfx1100", "gfx1200"])
@pytest.mark.parametrize("text,value", B64)
def test_64bit_text_matches_llvm_mc(cpu, text, value):
    if MC is None:
        pytest.skip("needs llvm-mc-22")
    enc = _mc(cpu, f"s_mov_b64 s[0:1], {text}")
    assert enc is not None
    code = enc[0]
    hw = (enc[4] | enc[5] << 8 | enc[6] << 16 | enc[7] << 24) if code == 0xFF else \
        (code - 128 if code <= 192 else (192 - code) & M64)
    assert hw == value


# ---- every op's constant slots against llvm-mc-22 -------------------------------

CONSTS = ["1.0", "-4.0", "0.5", "-0.5", "2.0", "0.15915494", "2.5", "-0.0", "0.0", "100.0", "0x3f800000",
          "0x3e22f983", "0xffffffffffffffff", "0x1.8p1", "1e40", "64", "65"]
CONST_TARGETS = ["gfx803", "gfx900", "gfx950", "gfx1030", "gfx1100", "gfx1151", "gfx1200"]


STRICT = {"vdst": "v0", "vgpr": "v1", "src": "v2", "sdst": "s0", "sdst64": "s[0:1]", "ssrc": "s2",
          "ssrc64": "s[2:3]", "mask": "vcc", "maskdst": "vcc", "vdst64": "v[0:1]", "src64": "v[2:3]"}


def constant_lines() -> list[str]:
    """Each op's simplest instruction per mnemonic (VGPR sources, vcc masks,
    the first declared DPP control), with each constant in each of its
    scalar-source slots, wave64."""
    from verify.lowering_file import parse_instr
    from verify.ops import OPS

    out: list[str] = []
    for base in sorted(OPS):
        op = OPS[base]
        if op.schedule_only:
            continue
        for mn, enc in sorted(op.mnemonics().items()):
            sig = op.sig_for(enc)
            mods = op.modifiers(enc)
            mtext = ""
            if mods.one_of:
                m = mods.mods[mods.one_of[0]]
                mtext = " " + m.text(m.values[0])
            if any(kd not in STRICT for kd in sig):  # 16-bit registers (v0.l): verify/ops/vhalf.py's own
                continue                              # llvm-mc-22 rows (tests/test_tv_shape_half.py) cover them
            if mn.endswith("_sdwa"):  # verify refuses constants as SDWA sources (legal on GFX9/GFX10):
                continue              # the safe side, not modelled yet (tests/test_tv_shape_sdwa.py)
            if type(op).__module__ == "verify.ops.vhalf":
                # KNOWN GAP: on GFX11.5 and GFX12 llvm-mc-22 refuses a 32-bit pattern as an f16 source
                # that verify takes, except in v_fma_f16 and v_cvt_f32_f16 (vhalf._gfx115_imm16)
                continue
            for k, kind in enumerate(sig):
                if kind not in ("src", "ssrc", "ssrc64", "mask"):
                    continue
                for c in CONSTS:
                    ops = [c if j == k else STRICT[kd] for j, kd in enumerate(sig)]
                    line = f"{mn} {', '.join(ops)}{mtext}"
                    try:
                        parse_instr(line.replace(c, STRICT[kind]), Span("t", 1))
                    except InputError:
                        continue
                    out.append(line)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("tname", CONST_TARGETS)
def test_constant_slots_match_llvm_mc(tname):
    if MC is None:
        pytest.skip("needs llvm-mc-22")
    from test_llvm_mc import REFUSED_FROM_GFX10, assemble

    from verify.lowering_file import parse_instr
    from verify.ops import OPS
    from verify.target import TARGETS

    t = TARGETS[tname]
    lines = constant_lines()
    assert len(lines) > 500
    for wave in t.waves:
        rejected = assemble("\n".join(lines) + "\n", t.llvm_cpu, wave, t.gen)
        disagree = []
        for k, line in enumerate(lines, 1):
            try:
                ins = parse_instr(line, Span("t", 1))
                OPS[ins.base].check(ins, t, wave)
                ours = False
            except InputError:
                ours = True
            if ours != (k in rejected):
                if ours and t.has("wave32") and re.sub(r"_e(32|64)$", "", line.split()[0]) in REFUSED_FROM_GFX10:
                    continue  # (tests/test_llvm_mc.py: the GFX8/9 16-bit ops, refused from GFX10 on)
                disagree.append(("we reject" if ours else "llvm-mc rejects", line))
        assert not disagree, (tname, wave, len(disagree), disagree[:12])


# ---- what the constants mean -----------------------------------------------------


def test_float_literals_are_f32_patterns_in_32bit_operands():
    from helpers import simulate

    lines = ["v_mov_b32 v0, 1.0", "v_add_u32 v1, -4.0, v3", "v_mov_b32 v2, 0.15915494", "v_add_f32 v4, 0.1, v3",
             "v_mov_b32 v5, 0x1.8p1", "v_mov_b32 v6, -0.0", "s_mov_b32 s0, 0.5"]
    m = simulate(lines, "gfx900", 64, 1, {"v3": 0})
    assert m.vregs[0][0] == 0x3F800000 and m.vregs[1][0] == 0xC0800000 and m.vregs[2][0] == 0x3E22F983
    assert m.vregs[4][0] == 0x3DCCCCCD and m.vregs[5][0] == 0x40400000 and m.vregs[6][0] == 0x80000000
    assert m.sregs["s0"] == 0x3F000000


def test_float_inline_constants_are_f64_in_64bit_operands():
    from helpers import simulate

    m = simulate(["s_mov_b64 s[0:1], 1.0", "s_mov_b64 s[2:3], -4.0", "s_mov_b64 s[4:5], 0.0"], "gfx900", 64, 1, {})
    assert (m.sregs["s1"] << 32 | m.sregs["s0"]) == 0x3FF0000000000000
    assert (m.sregs["s3"] << 32 | m.sregs["s2"]) == 0xC010000000000000
    assert m.sregs["s4"] == m.sregs["s5"] == 0


@pytest.mark.parametrize("text", ["2.5", "-0.0", "0.15915494", "100.0"])
def test_float_literal_in_a_64bit_operand_is_an_error(tmp_path, text):
    from helpers import cli

    p = tmp_path / "t.s"
    p.write_text(f"""; t
;
; @spec     lane.map src="i" width=32
; @targets  gfx9
; @waves    64
; @exec     full
; @input    x = v0
; @output   out = v1
s_mov_b64 s[0:1], {text}
v_mov_b32 v1, v0
""")
    code, out, err = cli("lowering", str(p))
    assert code == 2 and err.strip() == (f"{p}:9:19: error: a float constant in a 64-bit operand must be an inline "
                                         f"constant (0.5, 1.0, 2.0, 4.0 or a negative), got '{text}'"), err


@pytest.mark.parametrize("text", ["1e40", "3.4028236e38", "1e-50", "1.1754942e-38"])
def test_unrepresentable_float_is_an_error(text):
    with pytest.raises(InputError, match="not representable as a 32-bit float"):
        imm(text)


def test_inline_float_prints_as_float():
    from verify.lowering_file import parse_instr, print_instr

    assert print_instr(parse_instr("s_mov_b64 s[0:1], -4.0", Span("t", 1))) == "s_mov_b64 s[0:1], -4.0"
    assert print_instr(parse_instr("v_mov_b32 v0, 2.5", Span("t", 1))) == "v_mov_b32 v0, 0x40200000"
