"""Constants as llvm-mc-22 reads them: 64-bit integer text, float literals
and float inline constants.  [S:literal64] [S:float-literals]"""

import re
import shutil
import subprocess

import pytest

from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.ops.base import M64, expand_b64
from verify.syntax import parse_operand
from verify.target import get

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
CONST_TARGETS = ["gfx600", "gfx701", "gfx803", "gfx900", "gfx950", "gfx1030", "gfx1100", "gfx1151", "gfx1200"]


STRICT = {"vdst": "v0", "vgpr": "v1", "src": "v2", "sdst": "s0", "sdst64": "s[0:1]", "ssrc": "s2",
          "ssrc64": "s[2:3]", "mask": "vcc", "maskdst": "vcc", "vdst64": "v[0:1]", "src64": "v[2:3]",
          "vdst16": "v0.l", "src16": "v2.l"}


def constant_lines() -> list[str]:
    """Each op's simplest instruction per mnemonic (VGPR sources, vcc masks,
    the first declared DPP control), with each constant in each of its
    source slots, wave64: every op of the registry, vhalf's, the SDWA forms
    and the 16-bit-register ones included."""
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
            for k, kind in enumerate(sig):
                if kind not in ("src", "ssrc", "ssrc64", "mask", "src64", "src16"):
                    continue
                # the form with registers in every slot must parse (once per slot, not per
                # constant: a constant's text may also be part of the mnemonic, "64" in "_b64")
                try:
                    parse_instr(f"{mn} {', '.join(STRICT[kd] for kd in sig)}{mtext}", Span("t", 1))
                except InputError:
                    continue
                for c in CONSTS:
                    ops = [c if j == k else STRICT[kd] for j, kd in enumerate(sig)]
                    out.append(f"{mn} {', '.join(ops)}{mtext}")
    return out


def constant_gap(line: str) -> bool:
    """A line verify refuses and llvm-mc-22 takes, for a reason
    tests/mc_sweep.py's known_gap lists (docs/semantics.md [S:legality]):
    a constant as an SDWA source, a float in v_cndmask_b16, an f32 inline
    pattern in v_pk_mov_b32, a 16-bit literal llvm-mc-22 misencodes in an
    i16 VOP3 DPP operand."""
    from verify.ops.base import is_inline_constant
    from verify.syntax import float_text

    mn, body = line.split(" ", 1)
    operands = re.split(r"\s+[a-z_0-9]+:", body)[0].split(",")  # up to the first modifier
    consts = [imm(t.strip()) for t in operands if t.strip()[:1] in "-0123456789"]
    if not consts:
        return False
    if mn.endswith("_sdwa"):
        return True
    if mn.startswith("v_cndmask_b16"):
        return any(float_text(c.text) is not None for c in consts)
    if mn.startswith("v_pk_mov_b32"):
        return any(is_inline_constant(c.value) for c in consts)
    return mn.endswith("_e64_dpp") and any(float_text(c.text) is None and c.value <= 0xFFFF for c in consts)


# (about 20 s of CPU a target: one target of each encoding family in the slow
# tier, SI, GFX9, GFX11 and GFX12; the others in the corpus tier)
CONST_SLOW = ("gfx600", "gfx900", "gfx1100", "gfx1200")


@pytest.mark.parametrize("tname", [pytest.param(t, marks=pytest.mark.slow if t in CONST_SLOW else pytest.mark.corpus)
                                   for t in CONST_TARGETS])
def test_constant_slots_match_llvm_mc(tname):
    if MC is None:
        pytest.skip("needs llvm-mc-22")
    from mc_sweep import sici_gap
    from test_llvm_mc import assemble

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
                if ours and (constant_gap(line) or sici_gap(line, t)):
                    continue  # verify refuses, llvm-mc-22 takes: docs/semantics.md [S:legality]
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


def test_inv2pi_is_its_f64_value_in_a_64bit_operand():
    """llc-22 prints the i64 constant 0x3fc45f306dc9c882 as 1/(2pi)'s f64 text
    (s_and_b64 s[2:3], s[2:3], 0.15915494309189532); it was once refused."""
    from helpers import simulate

    m = simulate(["s_mov_b64 s[0:1], 0.15915494309189532", "s_mov_b32 s2, 0.15915494309189532"], "gfx900", 64, 1, {})
    assert (m.sregs["s1"] << 32 | m.sregs["s0"]) == 0x3FC45F306DC9C882
    assert m.sregs["s2"] == 0x3E22F983  # a 32-bit operand rounds it to the f32 pattern
    assert expand_b64(imm("0.15915494309189532")) == 0x3FC45F306DC9C882


def test_inv2pi_in_a_64bit_operand_is_inline_on_gfx9_and_refused_on_ci():
    ok = parse_instr("v_lshlrev_b64 v[0:1], 1, 0.15915494309189532", Span("t", 1))
    OPS[ok.base].check(ok, get("gfx900"), 64)  # inline: GFX9's VOP3 takes no literal, so this must pass
    bad = parse_instr("s_mov_b64 s[0:1], 0.15915494309189532", Span("t", 1))
    with pytest.raises(InputError, match=r"1/\(2pi\) in a 64-bit operand is not available on gfx701"):
        OPS[bad.base].check(bad, get("gfx701"), 64)


@pytest.mark.parametrize(("cpu", "line", "code"), [("gfx900", "s_mov_b64 s[0:1], 0.15915494309189532", 0xF8),
                                                   ("gfx1200", "s_and_b64 s[0:1], 0.15915494309189532, s[2:3]", 0xF8)])
def test_inv2pi_64bit_encoding_agrees_with_llvm_mc(cpu, line, code):
    if MC is None:
        pytest.skip("needs llvm-mc-22")
    enc = _mc(cpu, line)
    assert enc is not None and enc[0] == code  # source operand 0xf8: the inline 1/(2pi)
    assert _mc("gfx701", "s_mov_b64 s[0:1], 0.15915494309189532") is None


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
                                         f"constant (0.5, 1.0, 2.0, 4.0, a negative or 1/(2pi) as 0.15915494309189532), "
                                         f"got '{text}'"), err


@pytest.mark.parametrize("text", ["1e40", "3.4028236e38", "1e-50", "1.1754942e-38"])
def test_unrepresentable_float_is_an_error(text):
    with pytest.raises(InputError, match="not representable as a 32-bit float"):
        imm(text)


def test_inline_float_prints_as_float():
    from verify.lowering_file import parse_instr, print_instr

    assert print_instr(parse_instr("s_mov_b64 s[0:1], -4.0", Span("t", 1))) == "s_mov_b64 s[0:1], -4.0"
    assert print_instr(parse_instr("v_mov_b32 v0, 2.5", Span("t", 1))) == "v_mov_b32 v0, 0x40200000"


# ---- the differential sweep (tests/mc_sweep.py) -------------------------------------


def _sample(wave: int, per: int, seed: int):
    import random

    import mc_sweep

    rnd = random.Random(seed)
    by: dict[str, list] = {}
    for c in mc_sweep.cases(wave):
        by.setdefault(c.mnemonic, []).append(c)
    return [c for mn in sorted(by) for c in rnd.sample(by[mn], min(per, len(by[mn])))]


@pytest.mark.llvm_mc
@pytest.mark.parametrize("tname,wave", [("gfx900", 64), ("gfx1150", 64), ("gfx1200", 32)])
@pytest.mark.slow
def test_sampled_constant_forms_match_llvm_mc(tname, wave):
    """Two (slot, operand form) lines of every mnemonic of the registry
    (vhalf's and the SDWA forms included): verify never takes what
    llvm-mc-22 refuses, and refuses what it takes only for a known gap."""
    if MC is None:
        pytest.skip("needs llvm-mc-22")
    import mc_sweep

    from verify.target import TARGETS

    cs = _sample(wave, 2, 11)
    assert len(cs) > 1500 and any(c.op.endswith("_f16") for c in cs) and any(c.op.endswith("_sdwa") for c in cs)
    bad = mc_sweep.check(cs, mc_sweep.parsed(cs), TARGETS[tname], wave)
    assert not bad, (tname, wave, len(bad), [(k, c.line) for k, c in bad[:10]])


@pytest.mark.corpus
@pytest.mark.llvm_mc
@pytest.mark.parametrize("tname", sorted(__import__("verify.target", fromlist=["TARGETS"]).TARGETS))
def test_every_constant_form_matches_llvm_mc(tname):
    """The whole sweep on one target, every wave (benchmarks/legality_sweep.py
    prints its numbers)."""
    if MC is None:
        pytest.skip("needs llvm-mc-22")
    import mc_sweep

    from verify.target import TARGETS

    t = TARGETS[tname]
    for wave in t.waves:
        cs = mc_sweep.cases(wave)
        bad = mc_sweep.check(cs, mc_sweep.parsed(cs), t, wave)
        assert not bad, (tname, wave, len(bad), [(k, c.line) for k, c in bad[:10]])


@pytest.mark.parametrize("line,cpu,why", [
    ("v_add_f16_e64 v0, 0x3f800000, v2", "gfx1100", "does not fit a 16-bit"),  # a 32-bit pattern in an f16 operand, every target
    ("v_cmp_lt_f16_e32 vcc, 0x3f800000, v2", "gfx900", "does not fit a 16-bit"),
    ("v_cvt_f32_f16_e64 v0, 0x3f800000", "gfx1030", "does not fit a 16-bit"),
    ("v_fma_f16 v0, v1, v2, 0x12345678", "gfx1100", "does not fit a 16-bit"),
    ("v_cmp_lt_f16_e64_dpp vcc, v1, 0x3f800000 quad_perm:[0,0,0,0]", "gfx1150", "does not fit a 16-bit"),
    ("v_cndmask_b16 v0.l, 0x3f800000, v2.l, vcc", "gfx1100", "does not fit a 16-bit"),
    ("v_mov_b16_e64 v0.l, 0x3f800000", "gfx1100", "does not fit a 16-bit"),
    ("v_add_f16 v0, 70000.0, v2", "gfx900", "overflows or underflows binary16"),  # overflows binary16
    ("v_pk_add_f16 v0, 0x3f800000, v2", "gfx900", "literal constant in a VOP3"),  # a literal in a v2f16 operand, no VOP3P literal on GFX9
    ("v_pk_mul_f16 v0, v1, 1e-10", "gfx1100", "overflows or underflows binary16"),
    ("v_cmp_eq_u64_e64 vcc, 0x3f800000, v[2:3]", "gfx900", "literal constant in a VOP3"),  # a literal in a 64-bit integer operand
    ("v_mad_u64_u32 v[0:1], vcc, v1, v2, 0x3f800000", "gfx900", "literal constant in a VOP3"),
    ("v_add_u16_dpp v0, v1, s2 quad_perm:[0,0,0,0]", "gfx900", "src1 of v_add_u16_dpp must be a VGPR"),  # VOP2 DPP's src1 is a VGPR
    ("v_lshlrev_b16_e32 v0, v1, v2", "gfx1030", "VOP3 only on gfx1030"),  # VOP3 only from GFX10 on
    ("v_subrev_u16 v0, v1, v2", "gfx1100", "not available on gfx1100"),
])
def test_refused_like_llvm_mc(line, cpu, why):
    """Lines verify took before [S:legality] and llvm-mc-22 refuses: both refuse."""
    from verify.target import TARGETS

    t = next(t for t in TARGETS.values() if t.llvm_cpu == cpu)
    with pytest.raises(InputError, match=re.escape(why)):
        ins = parse_instr(line, Span("t", 1))
        OPS[ins.base].check(ins, t, 64)
    if MC is not None:
        r = subprocess.run([MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", *(["-mattr=+wavefrontsize64"]
                            if t.gen >= 10 else []), "-o", "/dev/null"], input=line + "\n", capture_output=True,
                           text=True)
        assert "error" in r.stderr, (line, cpu)


@pytest.mark.parametrize("line,cpu,inline", [
    ("v_add_f16_e64 v0, 0x3c00, v2", "gfx900", True),  # binary16 1.0: inline, so legal in GFX9's VOP3
    ("v_cmp_lt_f16_e64 vcc, 0xffff, v2", "gfx803", True),  # -1 in an f16 operand
    ("v_fma_f16 v0, v1, v2, 0x3118", "gfx900", True),  # 1/(2pi) as binary16
    ("v_pk_add_f16 v0, 0x3c00, v2", "gfx900", True),
    ("v_add_nc_u16 v0, v1, 0xffff", "gfx1100", False),  # a literal in an i16 operand
    ("v_lshlrev_b16 v0, v1, v2", "gfx1030", None),  # VOP3 on GFX10+
    ("v_max_i16_e64 v0, -4, v2", "gfx1200", None),
])
def test_taken_like_llvm_mc(line, cpu, inline):
    """Lines llvm-mc-22 takes that verify refused before [S:legality]; where
    a constant is written, whether llvm-mc-22 encodes it inline (a source
    field other than 255) or as a literal."""
    from verify.target import TARGETS

    t = next(t for t in TARGETS.values() if t.llvm_cpu == cpu)
    ins = parse_instr(line, Span("t", 1))
    OPS[ins.base].check(ins, t, 64)
    if MC is not None:
        enc = _mc(cpu, line)
        assert enc is not None, (line, cpu)
        if inline is not None:
            assert (len(enc) == 12) != inline, (line, enc)  # 8 bytes of VOP3 (+ 4 of a literal)


def test_vop3_dpp_cmpx_is_not_modelled():
    """v_cmpx_*_e64_dpp: llvm-mc-22 takes it on GFX11+, llc-22 never emits
    it (a DPP compare before a branch stays v_cmp_*_e64_dpp + s_and_saveexec);
    verify refuses the mnemonic, and takes llc's form.  [S:legality]"""
    from verify.target import TARGETS

    with pytest.raises(InputError, match="unknown mnemonic 'v_cmpx_lt_u32_e64_dpp'"):
        parse_instr("v_cmpx_lt_u32_e64_dpp v1, v2 row_shr:1", Span("t", 1))
    ins = parse_instr("v_cmp_lt_u32_e64_dpp s0, v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
                      Span("t", 1))
    assert OPS[ins.base].check(ins, TARGETS["gfx1100"], 32) == []
    if MC is not None:
        assert _mc("gfx1100", "v_cmpx_lt_u32_e64_dpp v1, v2 row_shr:1") is not None


_INV2PI_IR = """define amdgpu_kernel void @k(ptr addrspace(1) %p, i64 %x) {
  %a = add i64 %x, 4594902181429758082
  %b = and i64 %x, 4594902181429758082
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %z = zext i32 %id to i64
  %c = xor i64 %a, %z
  %r = call i64 @llvm.amdgcn.readlane.i64(i64 %c, i32 3)
  %s = add i64 %r, %b
  store i64 %s, ptr addrspace(1) %p
  ret void
}
"""


@pytest.mark.parametrize(("cpu", "wave", "insn"), [("gfx900", "64", "s_and_b64 s[2:3], s[2:3], 0.15915494309189532"),
                                                   ("gfx1200", "32", "s_add_nc_u64 s[4:5], s[2:3], 0.15915494309189532")])
def test_tv_proves_llc_code_with_inv2pi_in_a_64bit_operand_and_refutes_a_wrong_constant(tmp_path, cpu, wave, insn):
    """The i64 constant 0x3fc45f306dc9c882 is printed by llc-22 as 1/(2pi): once
    a false "compiler error", now proved; the constant made 0.5 is refuted."""
    from helpers import LLC, llc_asm, mutate, tv_on_asm

    if LLC is None:
        pytest.skip("needs llc-22")
    src = tmp_path / "inv2pi.ll"
    src.write_text(_INV2PI_IR)
    asm = llc_asm(src, cpu)
    assert insn in asm
    code, r = tv_on_asm(tmp_path, src, asm, cpu, "--wave", wave)
    assert code == 0 and r["verdict"] == "proved", r
    code, r = tv_on_asm(tmp_path, src, mutate(asm, insn, insn.replace("0.15915494309189532", "0.5")), cpu, "--wave", wave)
    assert code == 1 and r["verdict"] == "refuted", r
