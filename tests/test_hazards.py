"""Hazards as semantics: a read inside a hazard window is an unknown value
(verify/hazards.py, docs/semantics.md [S:hazards]); the rule for v_cmpx ->
permlane; the s_nop field."""

import json
from pathlib import Path

import pytest
from helpers import cli

from verify.asmcheck import parse_line
from verify.backend import Concrete
from verify.diag import Span
from verify.hazards import RULES, advice, check, needed, window
from verify.lowering_file import parse_instr
from verify.machine import Machine
from verify.ops.salu import nop_wait_states
from verify.target import FeatureLog, get

ROOT = Path(__file__).resolve().parent.parent

XOR9 = """; @spec     cuda.shfl_xor mask=9 width=16
; @targets  gfx9
; @waves    64
; @exec     any
; @input    x = v0
; @output   out = v1
; @clobbers v2, s[0:1]
s_or_saveexec_b64 s[0:1], -1
v_mov_b32_dpp v2, v0 row_ror:8 row_mask:0xf bank_mask:0xf
{nop}v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
{tail}s_mov_b64 exec, s[0:1]
"""


def prog(lines, asm=False):
    if asm:
        return [parse_line(t, Span("f", k + 1)) for k, t in enumerate(lines)]
    return [parse_instr(t, Span("f", k + 1)) for k, t in enumerate(lines)]


def lowering(tmp_path, nop="s_nop 1\n", tail=""):
    p = tmp_path / "x.s"
    p.write_text(XOR9.format(nop=nop, tail=tail))
    return p


def test_a_dpp_read_in_the_window_is_refuted_naming_both_lines(tmp_path):
    p = lowering(tmp_path, nop="")
    code, out, err = cli("lowering", str(p), "--target", "gfx900")
    assert code == 1
    assert "refuted for gfx900 wave64" in out
    why = ("line 10 v_mov_b32_dpp: reads v2 inside the hazard window of line 9 (v_mov_b32_dpp), 0 wait states "
           "later; a DPP read of a VGPR written by the previous instructions needs 2: insert s_nop 1; "
           "its value there is unknown")
    assert why in out
    assert "unknown (hazard)" in out
    assert f"{p}:10:1: warning: hazard (GFX8/9 family): line 9 (v_mov_b32_dpp) writes v2" in err


def test_one_wait_state_short_is_refuted_too(tmp_path):
    code, out, _ = cli("lowering", str(lowering(tmp_path, nop="s_nop 0\n")), "--target", "gfx900")
    assert code == 1 and "1 wait state later; a DPP read" in out and "insert s_nop 0;" in out


def test_the_wait_states_it_needs_prove(tmp_path):
    code, out, err = cli("lowering", str(lowering(tmp_path)), "--target", "gfx900")
    assert code == 0 and "proved" in out and err == ""


def test_a_harmless_hazard_stays_a_warning(tmp_path):
    # the last DPP reads v1 right after it is written, into v2, which no output reads
    tail = "v_mov_b32_dpp v2, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf\n"
    code, out, err = cli("lowering", str(lowering(tmp_path, tail=tail)), "--target", "gfx900")
    assert code == 0 and "proved" in out
    assert "x.s:12:1: warning: hazard (GFX8/9 family): line 11 (v_mov_b32_dpp) writes v1 and v_mov_b32_dpp reads it 0" in err


def test_json_counterexample_names_the_hazard(tmp_path):
    code, out, _ = cli("lowering", str(lowering(tmp_path, nop="")), "--target", "gfx900", "--json")
    assert code == 1
    res = json.loads(out)
    lanes = (res["results"] if isinstance(res, dict) and "results" in res else res)[0]["counterexample"]["lanes"]
    assert all("hazard window of line 9" in ln["responsible"] for ln in lanes)


def test_window_lists_the_registers_read_early():
    p = prog(["v_mov_b32_e32 v2, v0", "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2]"])
    w = window(p, 1, get("gfx900"))
    assert list(w) == ["v2"] and w["v2"].producer.line == 1 and w["v2"].waited == 0
    assert window(p, 1, get("gfx1030")) == {}
    assert window(prog(["v_mov_b32_e32 v2, v0", "s_nop 1", "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2]"]),
                  2, get("gfx900")) == {}


def test_window_asks_a_feature_only_when_a_producer_is_in_reach():
    log = FeatureLog(get("gfx942"))
    window(prog(["s_mov_b32 s4, 3", "v_readlane_b32 s5, v0, 3"]), 1, log)
    assert log.asked == {}
    window(prog(["v_mov_b32_e32 v0, 1", "v_readlane_b32 s5, v0, 3"]), 1, log)
    assert log.asked == {"hazard_gfx94_readlane": True}


def run(lines, target, wave=64, regs=None, assume=None):
    regs = regs or {}

    def initial(kind, name, lane):
        if kind == "scc":
            return False
        v = regs.get(name, 0xDEAD)  # an unknown reads 0xdead here
        return (v[lane] if isinstance(v, list) else v) & 0xFFFFFFFF

    m = Machine(Concrete(), wave, initial, FeatureLog(get(target)), assume or {})
    m.set_exec_mask((1 << wave) - 1)
    m.run(prog(lines))
    return m


def test_the_machine_reads_unknown_in_the_window():
    lines = ["v_mov_b32_e32 v2, v0", "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"]
    x = list(range(64))
    m = run(lines, "gfx900", regs={"v0": x})
    assert m.v(1)[:4] == [0xDEAD] * 4
    assert "v2@2(hazard after line 1)" in m.inputs_read
    m = run(lines[:1] + ["s_nop 1"] + lines[1:], "gfx900", regs={"v0": x})
    assert m.v(1)[:4] == [1, 0, 3, 2]
    m = run(lines, "gfx1030", regs={"v0": x})  # no such hazard on GFX10
    assert m.v(1)[:4] == [1, 0, 3, 2]


def test_the_lanes_a_dpp_keeps_of_a_destination_written_in_the_window():
    lines = ["v_mov_b32_e32 v1, 7", "v_mov_b32_dpp v1, v0 row_shl:1 row_mask:0xf bank_mask:0xf"]
    x = list(range(64))
    m = run(lines, "gfx900", regs={"v0": x})
    assert m.v(1)[14:17] == [15, 0xDEAD, 17] and m.assumptions_used == {"hazard.kept_lanes": "unknown"}
    m = run(lines, "gfx900", regs={"v0": x}, assume={"hazard.kept_lanes": "kept"})
    assert m.v(1)[14:17] == [15, 7, 17]
    # a DPP that writes every lane keeps nothing: the question is not asked
    m = run(["v_mov_b32_e32 v1, 7", "v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"],
            "gfx900", regs={"v0": x})
    assert m.v(1)[:4] == [1, 0, 3, 2] and m.assumptions_used == {}


def test_an_exec_read_in_the_window_is_unknown():
    # a VALU write of EXEC, then DPP: which lanes the DPP writes is unknown
    lines = ["v_readfirstlane_b32 exec_lo, v3", "v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"]
    w = window(prog(lines), 1, get("gfx900"))
    assert sorted(w) == ["exec_lo"] and w["exec_lo"].rule.name == "dpp-exec"
    m = run(lines, "gfx900", regs={"v3": 0xFFFFFFFF, "v0": list(range(64)), "v1": 7})
    assert "exec_lo@2(hazard after line 1)" in m.inputs_read


def test_an_exec_hazard_on_an_op_that_does_not_read_exec_makes_its_result_unknown():
    lines = ["v_readfirstlane_b32 exec_lo, v3", "v_readlane_b32 s5, v0, 3"]
    m = run(lines, "gfx942", regs={"v3": 0xFFFFFFFF, "v0": list(range(64))})
    assert m.s("s5") == 0xDEAD and "s5@2(hazard after line 1)" in m.inputs_read
    m = run(lines[:1] + ["s_nop 3"] + lines[1:], "gfx942", regs={"v3": 0xFFFFFFFF, "v0": list(range(64))})
    assert m.s("s5") == 3


# ---- v_cmpx -> permlane (GFX10.1, GFX11, GFX12)

VCMPX = ["v_cmpx_eq_u32_e32 v0, v1", "s_nop 3", "v_permlane16_b32 v1, v1, s0, s1"]


@pytest.mark.parametrize("target,hit", [("gfx1010", True), ("gfx1030", False), ("gfx1100", True),
                                        ("gfx1151", True), ("gfx1200", True)])
def test_vcmpx_permlane_targets(target, hit):
    w = [x for x in check(prog(VCMPX, asm=True), get(target)) if "v_cmpx" in str(x)]
    assert len(w) == int(hit)
    if hit:
        assert str(w[0]).endswith("with no VALU instruction between (v_permlane16/x16/64 after a VALU compare "
                                  "writing EXEC (v_cmpx)): insert a VALU instruction such as v_mov_b32 v0, v0 "
                                  "(s_nop and v_nop do not count)")


def test_vcmpx_permlane_needs_a_valu_not_a_nop():
    p = prog(VCMPX[:1] + ["v_mov_b32_e32 v0, v0"] + VCMPX[2:], asm=True)
    assert window(p, 2, get("gfx1100")) == {}
    p = prog(VCMPX[:1] + ["v_nop"] + VCMPX[2:], asm=True)
    assert sorted(window(p, 2, get("gfx1100"))) == ["exec_hi", "exec_lo"]
    p = prog(["v_cmp_eq_u32_e32 vcc_lo, v0, v1"] + VCMPX[2:], asm=True)  # writes VCC, not EXEC
    assert window(p, 1, get("gfx1100")) == {}
    p = prog(VCMPX[:1] + ["v_permlane64_b32 v1, v1"], asm=True)
    assert sorted(window(p, 1, get("gfx1100"))) == ["exec_hi", "exec_lo"]


def test_every_rule_is_cited_and_has_a_feature():
    from verify.target import FEATURES

    for r in RULES:
        assert FEATURES[r.feature].source == "S:hazards"
        assert r.sep in ("nop", "alu", "valu", "partial") and (r.waits > 0) == (r.sep == "nop")
    assert advice(RULES[1], 0) == "insert s_nop 4"
    assert advice(RULES[0], 0) == "insert s_nop 1"


def test_needed_follows_the_table():
    p = prog(["v_mov_b32_e32 v2, v0", "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2]"])
    assert needed(p, 1, get("gfx900")) == (2, "")
    p = prog(["v_readfirstlane_b32 s4, v3", "v_readlane_b32 s5, v0, s4"])
    assert needed(p, 1, get("gfx1200")) == (0, "depctr_va_sdst(0)")


# ---- s_nop

@pytest.mark.parametrize("n,states", [(0, 1), (1, 2), (7, 8), (8, 1), (15, 8), (16, 1), (0x10000, 1),
                                      (0xFFFF, 8), (0x10001, 2)])
def test_nop_wait_states_never_exceed_the_hardware(n, states):
    assert nop_wait_states(n) == states


def test_s_nop_0x10000_is_one_wait_state():
    lines = ["v_mov_b32_e32 v2, v0", "s_nop 0x10000", "v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2]"]
    w = [str(x) for x in check(prog(lines), get("gfx900"))]
    assert w == ["f:3:1: warning: hazard (GFX8/9 family): line 1 (v_mov_b32_e32) writes v2 and v_mov_b32_dpp "
                 "reads it 1 wait state later; a DPP read of a VGPR written by the previous instructions needs 2: "
                 "insert s_nop 0"]


@pytest.mark.parametrize("text,col,msg", [
    ("s_nop", 1, "s_nop takes one integer"),
    ("s_nop 1, 2", 10, "s_nop takes one integer"),
    ("s_nop s0", 7, "expected an integer, got 's0'"),
    ("s_nop 064", 7, "without a leading zero"),
    ("s_nop 0x10000000000000000", 7, "must fit in 64 bits"),
    ("s_nop " + "9" * 5000, 7, "must fit in 64 bits"),
    ("s_waitcnt vmcnt(08)", 11, "write '08' without a leading zero"),  # llvm-mc-22: failed parsing operand
    ("s_waitcnt lgkmcnt(0) vmcnt(010)", 22, "write '010' without a leading zero"),  # llvm-mc-22: octal 8
])
def test_s_nop_operand_errors(tmp_path, text, col, msg):
    p = tmp_path / "n.s"
    p.write_text("; @spec cuda.shfl_xor mask=1 width=2\n; @targets gfx9\n; @waves 64\n; @input x = v0\n"
                 f"; @output out = v1\n{text}\nv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2]\n")
    code, out, err = cli("lowering", str(p))
    assert code == 2 and "Traceback" not in err
    assert err.startswith(f"{p}:6:{col}: error: ") and msg in err and len(err.strip().splitlines()) == 1


def test_s_nop_above_7_warns():
    ins = prog(["s_nop 0x10000"])[0]
    from verify.ops.base import op_of

    w = [str(x) for x in op_of("s_nop").check(ins, get("gfx900"), 64)]
    assert w == ["f:1:1: warning: s_nop 0x10000 is encoded as s_nop 0 (SIMM16 keeps the low 16 bits) and verify "
                 "counts 1 wait state for it (SIMM16[2:0] + 1: the GCN3 ISA reads 3 bits, later ISAs 4)"]


def test_gfx12_sgpr_read_without_s_wait_alu_is_unknown():
    lines = ["v_readfirstlane_b32 s4, v3", "v_readlane_b32 s5, v0, s4"]
    regs = {"v3": 5, "v0": list(range(64))}
    m = run(lines, "gfx1200", regs=regs)
    assert m.s("s5") == 0xDEAD & 63 and "s4@2(hazard after line 1)" in m.inputs_read
    m = run(lines[:1] + ["s_wait_alu depctr_va_sdst(0)"] + lines[1:], "gfx1200", regs=regs)
    assert m.s("s5") == 5
    m = run(lines, "gfx1100", regs=regs)  # no such rule before GFX12
    assert m.s("s5") == 5


def test_vcmpx_then_permlane_reads_an_unknown_exec():
    lines = ["v_cmpx_eq_u32_e32 v0, v1", "v_permlane16_b32 v1, v1, s0, s1"]
    w = window(prog(lines, asm=True), 1, get("gfx1100"))
    assert sorted(w) == ["exec_hi", "exec_lo"] and w["exec_lo"].rule.name == "vcmpx-permlane"
    assert "insert a VALU instruction such as v_mov_b32 v0, v0" in w["exec_lo"].explain()


def test_vcc_is_an_sgpr_not_a_vgpr():
    # a VALU write of vcc_lo used as a lane select is the lane-select hazard
    w = [str(x) for x in check(prog(["v_readfirstlane_b32 vcc_lo, v0", "v_readlane_b32 s6, v0, vcc_lo"]),
                               get("gfx900"))]
    assert len(w) == 1 and "writes vcc_lo and v_readlane_b32 reads it" in w[0]


@pytest.mark.slow
def test_gfx12_scan_without_its_waits_is_refuted_with_the_wait_to_insert(tmp_path):
    src = (ROOT / "lowerings/scan/scan_excl_add_gfx12_w32.s").read_text().splitlines(keepends=True)
    p = tmp_path / "s.s"
    p.write_text("".join(x for x in src if not x.startswith("s_wait_alu")))
    code, out, err = cli("lowering", str(p), "--target", "gfx1200")
    assert code == 1 and "refuted for gfx1200 wave32" in out and "s3@23(hazard after line 22)" in out
    assert "with no s_wait_alu depctr_va_sdst(0) between (a VALU read of an SGPR a VALU instruction wrote)" in err


# ---- GFX12 SGPR hazards: LLVM's AMDGPUWaitSGPRHazards  [S:hazards]

def gfx12(lines, entry="fragment", variant=None, k=None, target="gfx1200"):
    p = prog(lines, asm=True)
    k = len(p) - 1 if k is None else k
    return {r: (f.rule.name, f.producer.line) for r, f in window(p, k, get(target), entry, variant).items()}


@pytest.mark.parametrize("target", ["gfx1200", "gfx1201"])
def test_gfx12_salu_write_read_by_a_valu_needs_sa_sdst(target):
    """Red team bug 2: llc-22 puts s_wait_alu depctr_sa_sdst(0) between these."""
    lines = ["s_cselect_b32 s2, -1, 0", "v_cndmask_b32_e64 v1, 0, 1, s2"]
    assert gfx12(lines, target=target) == {"s2": ("sa-sdst", 1)}
    assert gfx12(lines[:1] + ["s_wait_alu depctr_sa_sdst(0)"] + lines[1:], target=target) == {}
    assert gfx12(lines[:1] + ["s_wait_alu 0xfffe"] + lines[1:], target=target) == {}  # the raw mask: sa_sdst = 0
    assert gfx12(lines[:1] + ["s_wait_alu depctr_va_sdst(0)"] + lines[1:], target=target) == {"s2": ("sa-sdst", 1)}
    assert gfx12(lines[:1] + ["s_nop 7"] + lines[1:], target=target) == {"s2": ("sa-sdst", 1)}
    assert window(prog(lines, asm=True), 1, get("gfx1100")) == {}  # GFX12 only
    w = [str(x) for x in check(prog(lines, asm=True), get(target))]
    assert w == ["f:2:1: warning: hazard (GFX12): line 1 (s_cselect_b32) writes s2 and v_cndmask_b32_e64 reads it "
                 "with no s_wait_alu depctr_sa_sdst(0) between (an SALU or VALU read of an SGPR an SALU instruction "
                 "wrote)"]


def test_gfx12_salu_write_read_by_a_valu_is_unknown_to_the_machine():
    lines = ["s_mov_b32 s4, 5", "v_readlane_b32 s5, v0, s4"]
    m = run(lines, "gfx1200", regs={"v0": list(range(64))})
    assert m.s("s5") == 0xDEAD & 63 and "s4@2(hazard after line 1)" in m.inputs_read
    m = run(lines[:1] + ["s_wait_alu depctr_sa_sdst(0)"] + lines[1:], "gfx1200", regs={"v0": list(range(64))})
    assert m.s("s5") == 5


def test_gfx12_salu_to_salu_on_a_tracked_pair_needs_sa_sdst():
    # as llc-22 writes it in its iterative atomic optimizer (s[2:3] tracked)
    lines = ["s_lshl_b64 s[2:3], 1, s2", "s_and_not1_b64 s[6:7], s[6:7], s[2:3]"]
    assert gfx12(lines) == {"s2": ("sa-sdst", 1), "s3": ("sa-sdst", 1)}
    assert gfx12(lines, entry="kernel") == {}  # no VALU read s[2:3] since the kernel's entry


def test_gfx12_only_pairs_a_valu_has_read_are_tracked():
    """From a kernel's entry a write of a pair no VALU instruction has read is
    no hazard: llc-22's match_any leaves the wait out before the first VCC
    read only."""
    first = ["v_cmp_eq_u32_e32 vcc_lo, v0, v1", "v_cndmask_b32_e32 v2, v0, v1, vcc_lo"]
    assert gfx12(first, entry="kernel") == {}
    assert gfx12(first) == {"vcc_lo": ("va-vcc", 1)}  # a fragment: every pair may have been read before
    again = first + ["v_cmp_eq_u32_e32 vcc_lo, v0, v2", "v_cndmask_b32_e32 v3, v0, v1, vcc_lo"]
    assert gfx12(again, entry="kernel") == {"vcc_lo": ("va-vcc", 3)}
    assert gfx12(again[:3] + ["s_wait_alu depctr_va_vcc(0)"] + again[3:], entry="kernel") == {}
    assert gfx12(again[:3] + ["s_wait_alu depctr_va_sdst(0)"] + again[3:], entry="kernel") == {"vcc_lo": ("va-vcc", 3)}


def test_gfx12_what_commits_a_valu_write():
    """An SALU read of a tracked SGPR commits the VALU writes (the false
    alarm on LLVM's wave64 atomic scan: s_mov_b64 exec, s[4:5] stands
    between); SMEM and buffer instructions commit everything; the strict
    variant takes only an s_wait_alu."""
    base = ["v_readlane_b32 s6, v0, 1", "v_writelane_b32 v1, s6, 0"]
    assert gfx12(base) == {"s6": ("va-sdst", 1)}
    mid = base[:1] + ["s_mov_b64 exec, s[4:5]"] + base[1:]
    assert gfx12(mid) == {}
    asked = {}

    def variant(name):
        asked[name] = "strict"
        return "strict"
    assert gfx12(mid, variant=variant) == {"s6": ("va-sdst", 1)} and asked == {"hazard.gfx12_sgpr": "strict"}
    asked.clear()
    assert gfx12(base, variant=variant) == {"s6": ("va-sdst", 1)} and asked == {}  # the same in both: not asked
    assert gfx12(base[:1] + ["s_load_b32 s8, s[0:1], 0x0"] + base[1:]) == {}
    assert gfx12(base[:1] + ["buffer_load_b32 v3, off, s[8:11], 0"] + base[1:]) == {}
    assert gfx12(base[:1] + ["global_load_b32 v3, v[4:5], off"] + base[1:]) == {"s6": ("va-sdst", 1)}  # FLAT


def test_gfx12_strict_is_the_named_assumption(tmp_path):
    p = tmp_path / "w.s"
    p.write_text("; @spec cuda.shfl_idx lane=1\n; @targets gfx12\n; @waves 32\n; @exec full\n; @input x = v0\n"
                 "; @output out = v1\n; @clobbers s4, s5, s6\nv_readlane_b32 s6, v0, 1\ns_mov_b32 s4, s5\n"
                 "v_mov_b32_e32 v1, s6\n")
    code, out, _ = cli("lowering", str(p), "--target", "gfx1200")
    assert code == 0 and "hazard.gfx12_sgpr=llvm" in out, out
    code, out, _ = cli("lowering", str(p), "--target", "gfx1200", "--assume", "hazard.gfx12_sgpr=strict")
    assert code == 1 and "insert s_wait_alu depctr_va_sdst(0)" in out, out


def test_depctr_operands():
    from verify.ops.salu import depctr_field

    def mask(t):
        ins = prog([t])[0]
        from verify.ops.base import op_of
        return op_of(ins.base).depctr(ins)
    assert mask("s_wait_alu depctr_va_sdst(0)") == 0xF19F  # llvm-mc-22's encoding
    assert mask("s_wait_alu depctr_sa_sdst(0) & depctr_va_vcc(0)") == 0xFF9C
    assert mask("s_wait_alu depctr_va_sdst(0), depctr_va_vdst(0)") == 0x019F
    assert mask("s_waitcnt_depctr 0xffe3") == 0xFFE3
    assert mask("s_wait_alu -1") == 0xFFFF and depctr_field(0xFFFE, "sa_sdst") == 0


@pytest.mark.parametrize("text,col,msg", [
    ("s_wait_alu depctr_va_sdst(8)", 12, "depctr_va_sdst(8): the field holds 0..7"),
    ("s_wait_alu depctr_xx(0)", 12, "unknown dependency counter 'depctr_xx'"),
    ("s_wait_alu foo", 12, "expected an integer or depctr_<field>(N)"),
    ("s_wait_alu 70000", 12, "must be in -32768..65535"),
])
def test_depctr_operand_errors(tmp_path, text, col, msg):
    p = tmp_path / "d.s"
    p.write_text("; @spec cuda.shfl_xor mask=1 width=2\n; @targets gfx12\n; @waves 32\n; @input x = v0\n"
                 f"; @output out = v1\n{text}\nv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2]\n")
    code, out, err = cli("lowering", str(p))
    assert code == 2 and "Traceback" not in err
    assert err.startswith(f"{p}:6:{col}: error: ") and msg in err and len(err.strip().splitlines()) == 1


def test_permlane_swap_after_a_valu_write_needs_two_wait_states():
    """gfx950: a VALU write of a permlane swap's VGPR needs 2 wait states
    before the swap; an instruction verify does not model (a global_load) is
    no VALU write.  [S:hazards]"""
    w = [str(x) for x in check(prog(["v_mov_b32 v1, v0", "v_permlane16_swap_b32 v1, v2"]), get("gfx950"))]
    assert len(w) == 1 and "writes v1 and v_permlane16_swap_b32 reads it" in w[0], w
    assert check(prog(["v_mov_b32 v1, v0", "s_nop 1", "v_permlane16_swap_b32 v1, v2"]), get("gfx950")) == []
    loaded = prog(["global_load_dword v1, v[2:3], off", "s_waitcnt vmcnt(0)", "v_permlane16_swap_b32 v1, v2"],
                  asm=True)
    assert check(loaded, get("gfx950")) == []
    # and a memory instruction between a v_cmpx and a permlane is no VALU separating them
    between = prog(["v_cmpx_eq_u32 v0, v1", "global_load_dword v3, v[4:5], off", "v_permlanex16_b32 v1, v2, s0, s1"],
                   asm=True)
    assert ["with no VALU instruction between" in str(x) for x in check(between, get("gfx1100"))] == [True]


def test_gfx94_valu_read_of_a_valu_written_sgpr_needs_two_wait_states():
    """gfx94x/gfx950 (LLVM's hasVDecCoExecHazard rules): a VALU instruction
    reading an SGPR that a VALU instruction (v_readlane here) wrote needs 2
    wait states; earlier targets have no such rule.  [S:hazards]"""
    lines = ["v_readlane_b32 s4, v0, 3", "v_mov_b32_e32 v1, s4"]
    regs = {"v0": list(range(64))}
    m = run(lines, "gfx942", regs=regs)
    assert m.v(1)[:2] == [0xDEAD] * 2 and "s4@2(hazard after line 1)" in m.inputs_read
    assert window(prog(lines), 1, get("gfx942"))["s4"].rule.name == "valu-sgpr"
    assert needed(prog(lines), 1, get("gfx950")) == (2, "")
    m = run(lines[:1] + ["s_nop 1"] + lines[1:], "gfx942", regs=regs)
    assert m.v(1)[:2] == [3, 3]
    assert run(lines, "gfx90a", regs=regs).v(1)[:2] == [3, 3]
    # an SALU write is no producer; a mask read by v_cndmask is a read
    assert window(prog(["s_mov_b32 s4, 3", "v_mov_b32_e32 v1, s4"]), 1, get("gfx942")) == {}
    cmp = prog(["v_cmp_eq_u32_e64 s[0:1], v0, v1", "v_cndmask_b32_e64 v2, 0, v0, s[0:1]"])
    assert sorted(window(cmp, 1, get("gfx942"))) == ["s0", "s1"]


@pytest.mark.slow
def test_gfx94_carry_in_is_the_named_assumption(tmp_path):
    """The carry-in read: LLVM waits 2 (llc-22 puts s_nop 1 there), the CDNA3
    ISA table (as AMD's rocRoller transcribes it) none: hazard.gfx94_carry_in
    (default unknown).  lanemask_gt_gfx94 without its s_nop 1 is refuted, and
    proves with the warning under `ready`."""
    src = (ROOT / "lowerings/vote/lanemask_gt_gfx94.s").read_text()
    assert "s_nop 1\n" in src
    p = tmp_path / "gt.s"
    p.write_text(src.replace("s_nop 1\n", ""))
    code, out, _ = cli("lowering", str(p), "--target", "gfx942")
    assert code == 1 and "hazard.gfx94_carry_in=unknown" in out
    assert "a VALU carry-in read of a lane mask a VALU instruction wrote needs 2: insert s_nop 1" in out
    code, out, err = cli("lowering", str(p), "--target", "gfx942", "--assume", "hazard.gfx94_carry_in=ready")
    assert code == 0 and "proved" in out and "v_subb_co_u32_e32 reads it 0 wait states later" in err
    code, out, _ = cli("lowering", str(p), "--target", "gfx90a")
    assert code == 0


# ---- one instruction inside several hazard windows (red team, issue #30)

def test_a_write_of_the_dpp_destination_between_does_not_hide_the_source_write():
    """GFX8/9: the DPP source v1 is written two instructions before and the
    DPP's own destination v4 one before; the search goes back per register,
    so v1 is in its window too (it was dropped when the search stopped at
    the first producer of any register read).  [S:hazards]"""
    lines = ["v_xor_b32_e32 v1, 0, v0", "v_mov_b32_e32 v4, 1",
             "v_mov_b32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"]
    w = window(prog(lines), 2, get("gfx900"))
    assert sorted(w) == ["v1", "v4"]
    assert (w["v1"].producer.line, w["v1"].waited) == (1, 1) and (w["v4"].producer.line, w["v4"].waited) == (2, 0)
    m = run(lines, "gfx900", regs={"v0": list(range(64))})
    assert m.v(4)[:4] == [0xDEAD] * 4 and "v1@3(hazard after line 1)" in m.inputs_read
    assert needed(prog(lines), 2, get("gfx900")) == (2, "")


def test_shfl_xor_with_the_destination_written_between_is_refuted(tmp_path):
    p = tmp_path / "x1.s"
    p.write_text("; @spec cuda.shfl_xor mask=1\n; @targets gfx9\n; @waves 64\n; @exec any\n; @input x = v0\n"
                 "; @output out = v4\n; @clobbers v1\nv_xor_b32_e32 v1, 0, v0\nv_mov_b32_e32 v4, 1\n"
                 "v_mov_b32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n")
    code, out, _ = cli("lowering", str(p), "--target", "gfx942")
    assert code == 1 and "refuted for gfx942 wave64" in out
    assert "reads v1 inside the hazard window of line 8 (v_xor_b32_e32), 1 wait state later" in out


def test_reduce_mul_gfx9_without_one_s_nop_is_refuted(tmp_path):
    src = (ROOT / "lowerings/scan/reduce_mul_gfx9.s").read_text()
    assert src.count("s_nop 1\n") == 6
    p = tmp_path / "rm.s"
    p.write_text(src.replace("s_nop 1\n", "", 1))
    code, out, err = cli("lowering", str(p), "--target", "gfx900")
    assert code == 1 and "refuted for gfx900 wave64" in out
    assert "rm.s:16:1: warning: hazard (GFX8/9 family): line 14 (v_cndmask_b32_e64) writes v1 and v_mov_b32_dpp " \
           "reads it 1 wait state later" in err


def test_a_catalogue_vote_lowering_without_its_sa_sdst_wait_is_refuted(tmp_path):
    """Red team bug 2: s_cselect then v_cndmask reading its SGPR, with no
    s_wait_alu depctr_sa_sdst(0) between (llc-22 puts one there)."""
    src = (ROOT / "lowerings/vote/cuda_all_w32.s").read_text()
    assert "s_cselect_b32 s0, -1, 0\ns_waitcnt_depctr depctr_sa_sdst(0)\n" in src
    p = tmp_path / "a.s"
    p.write_text(src.replace("s_waitcnt_depctr depctr_sa_sdst(0)\n", ""))
    for t in ("gfx1200", "gfx1201"):
        code, out, _ = cli("lowering", str(p), "--target", t)
        assert code == 1 and f"refuted for {t} wave32" in out
        assert ("reads s0 inside the hazard window of line 14 (s_cselect_b32), with no s_wait_alu depctr_sa_sdst(0) "
                "between") in out and "insert s_wait_alu depctr_sa_sdst(0)" in out
    code, out, _ = cli("lowering", str(p), "--target", "gfx1100")
    assert code == 0


def test_the_generators_write_the_waits_llvm_would():
    from lowerings._gen.alu_waits import NoSpelling, add_alu_waits

    head = "; @spec cuda.shfl_xor mask=1 width=2\n; @waves 32\n; @input x = v0\n; @output out = v1\n"
    body = "s_mov_b32 s4, 1\nv_mov_b32_e32 v1, s4\n"
    assert add_alu_waits(f"; @targets gfx12\n{head}{body}") == \
        f"; @targets gfx12\n{head}s_mov_b32 s4, 1\ns_wait_alu depctr_sa_sdst(0)\nv_mov_b32_e32 v1, s4\n"
    assert "s_waitcnt_depctr depctr_sa_sdst(0)\n" in add_alu_waits(f"; @targets gfx11, gfx12\n{head}{body}")
    assert add_alu_waits(f"; @targets gfx11\n{head}{body}") == f"; @targets gfx11\n{head}{body}"
    with pytest.raises(NoSpelling):
        add_alu_waits(f"; @targets gfx9, gfx12\n{head}{body}")


# ---- GFX11 wave64: the VALU mask-write hazard (GCNHazardRecognizer::fixVALUMaskWriteHazard)

def test_gfx11_wave64_mask_write_hazard():
    """A VALU reads s[2:3] as a lane mask, an SALU writes it, an SALU reads
    it: llc-22 (gfx1100 wave64) puts s_waitcnt_depctr depctr_sa_sdst(0) after
    the write; after a VALU write (v_readlane) depctr_va_sdst(0).  Wave32,
    GFX12 and a register no VALU read as a mask have no such hazard."""
    lines = ["v_cndmask_b32_e64 v1, 0, v0, s[2:3]", "s_or_saveexec_b64 s[2:3], -1", "s_mov_b64 exec, s[2:3]"]
    p = prog(lines, asm=True)
    w = window(p, 2, get("gfx1100"), wave=64)
    assert {r: (f.rule.name, f.producer.line) for r, f in w.items()} == {"s2": ("mask-write-salu", 2),
                                                                        "s3": ("mask-write-salu", 2)}
    assert "insert s_waitcnt_depctr depctr_sa_sdst(0)" in w["s2"].explain()
    assert window(p, 2, get("gfx1100"), wave=32) == {}
    assert all(f.rule.name == "sa-sdst" for f in window(p, 2, get("gfx1200"), wave=64).values())
    for t in ("gfx1103", "gfx1150", "gfx1151"):
        assert sorted(window(p, 2, get(t), wave=64)) == ["s2", "s3"]
    fixed = prog(lines[:2] + ["s_waitcnt_depctr depctr_sa_sdst(0)"] + lines[2:], asm=True)
    assert window(fixed, 3, get("gfx1100"), wave=64) == {}
    nomask = prog(["v_add_nc_u32_e32 v1, s2, v0"] + lines[1:], asm=True)
    assert window(nomask, 2, get("gfx1100"), wave=64) == {}
    valu = prog(["v_cndmask_b32_e64 v1, 0, v0, s[2:3]", "v_readlane_b32 s2, v0, 3", "s_mov_b32 s4, s2"], asm=True)
    assert {r: f.rule.name for r, f in window(valu, 2, get("gfx1100"), wave=64).items()} == {"s2": "mask-write-valu"}
    # a VALU write of VCC waits on va_vcc (llc-22's bitonic sort for gfx1100 wave64)
    vcc = ["v_cndmask_b32_e32 v2, v4, v0, vcc", "v_cmp_eq_u32_e32 vcc, v2, v5", "s_and_b64 s[0:1], s[0:1], vcc"]
    w = window(prog(vcc, asm=True), 2, get("gfx1100"), wave=64)
    assert {f.rule.name for f in w.values()} == {"mask-write-vcc"}
    assert "insert s_waitcnt_depctr depctr_va_vcc(0)" in w["vcc_lo"].explain()
    assert window(prog(vcc[:2] + ["s_waitcnt_depctr depctr_va_vcc(0)"] + vcc[2:], asm=True), 3, get("gfx1100"),
                  wave=64) == {}
    # a wait after the first write ends the mask read's reach: the second write needs none
    twice = prog(lines[:2] + ["s_waitcnt_depctr depctr_sa_sdst(0)", "s_mov_b64 exec, s[2:3]",
                              "s_mov_b64 s[2:3], 0", "s_mov_b64 s[4:5], s[2:3]"], asm=True)
    assert window(twice, 5, get("gfx1100"), wave=64) == {}


def test_gfx950_permlane_swap_after_v_cmpx_needs_four_wait_states():
    """llc-22 -run-pass=post-RA-hazard-rec (gfx950): V_CMPX writing EXEC, then
    V_PERMLANE16_SWAP gets S_NOP 3 (a V_MOV between: S_NOP 2); a VALU EXEC
    write by v_readfirstlane and an SALU one get none.  [S:hazards]"""
    lines = ["v_cmpx_eq_u32_e64 v0, v3", "v_permlane16_swap_b32 v1, v2"]
    w = window(prog(lines, asm=True), 1, get("gfx950"))
    assert sorted(w) == ["exec_hi", "exec_lo"] and w["exec_lo"].rule.name == "vcmpx-permlane-swap"
    assert "needs 4: insert s_nop 3" in w["exec_lo"].explain()
    assert window(prog(lines[:1] + ["v_mov_b32_e32 v5, v2", "s_nop 2"] + lines[1:], asm=True), 3, get("gfx950")) == {}
    assert window(prog(["v_readfirstlane_b32 exec_lo, v0", lines[1]], asm=True), 1, get("gfx950")) == {}
    assert window(prog(lines, asm=True), 1, get("gfx942")) == {}


@pytest.mark.slow
def test_the_catalogue_has_the_waits_llvm_would_insert():
    """Every catalogue lowering has the s_wait_alu (GFX12) and s_waitcnt_depctr
    (GFX11 wave64 mask writes) LLVM's passes would insert, as a fragment whose
    predecessors are not seen.  Not yet lowerings/synth: the synthesis tables
    (verify synth --table, --reductions-table) write those files and must be
    regenerated; the synthesiser inserts the waits through `needed`."""
    from verify import catalog
    from verify.lowering_file import load_lowering
    from verify.target import resolve_all

    missing = []
    for p in catalog.lowering_files():
        if "synth" in Path(p).parts:
            continue
        low = load_lowering(p)
        names = {t.name for t in resolve_all(low.targets)}
        for t in ("gfx1200", "gfx1100"):
            for w in low.waves if t in names else ():
                if any(f"({g})" in str(x) for x in check(low.program, get(t), None, "fragment", w)
                       for g in ("GFX12", "only on GFX11, GFX11.5")):
                    missing.append((Path(p).name, t, w))
    assert missing == []
