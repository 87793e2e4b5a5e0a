"""v_writelane_b32 with M0 as its lane select: legal wherever llvm-mc-22
accepts it (on GFX8/GFX9 and CDNA an M0 lane select does not count against
the one-scalar constant bus), and it writes lane M0 & (W-1).  [S:lane-scalar]"""

import re
import shutil
import subprocess

import pytest
from helpers import simulate

from verify.diag import InputError, Span
from verify.lowering_file import parse_instr
from verify.ops import OPS
from verify.target import TARGETS

MC = shutil.which("llvm-mc-22")
FAST = ("gfx803", "gfx900", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1151", "gfx1200")  # the rest: --slow

FORMS = ["v_writelane_b32 v1, s2, m0", "v_writelane_b32 v1, s2, s3", "v_writelane_b32 v1, m0, s3",
         "v_writelane_b32 v1, m0, m0", "v_writelane_b32 v1, s2, s2", "v_writelane_b32 v1, 5, s3",
         "v_writelane_b32 v1, 5, m0", "v_writelane_b32 v1, 0x1234, s3", "v_writelane_b32 v1, 0x1234, m0",
         "v_writelane_b32 v1, 0x1234, 5", "v_writelane_b32 v1, s2, 5", "v_writelane_b32 v1, vcc_lo, s3",
         "v_writelane_b32 v1, exec_lo, m0", "v_writelane_b32 v1, s2, vcc_lo", "v_writelane_b32 v1, s2, 0x1234",
         "v_writelane_b32 v1, m0, 0x1234", "v_writelane_b32 v1, s2, 64", "v_writelane_b32_e64 v1, s2, m0", "v_readfirstlane_b32_e64 s1, v2",
         "v_readfirstlane_b32_e32 s1, v2",
         "v_readlane_b32 s1, v2, m0", "v_readlane_b32 s1, v2, 0x1234"]


def ours(line: str, tname: str, wave: int) -> bool:
    """verify accepts `line` on the target."""
    try:
        ins = parse_instr(line, Span("t", 1))
        OPS[ins.base].check(ins, TARGETS[tname], wave)
    except InputError:
        return False
    return True


@pytest.mark.llvm_mc
@pytest.mark.skipif(MC is None, reason="needs llvm-mc-22 (apt-get install llvm-22)")
@pytest.mark.parametrize("tname", [t if t in FAST else pytest.param(t, marks=pytest.mark.slow) for t in sorted(TARGETS)])
def test_writelane_legality_matches_llvm_mc_on_every_target(tname):
    t = TARGETS[tname]
    for wave in t.waves:
        attr = [] if t.gen < 10 else [f"-mattr=+wavefrontsize{wave}"]
        r = subprocess.run([MC, "-triple=amdgcn", f"-mcpu={t.llvm_cpu}", *attr, "-o", "/dev/null"],
                           input="\n".join(FORMS) + "\n", capture_output=True, text=True)
        rejected = {int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):\d+: error", r.stderr)}
        disagree = [(line, "llvm-mc rejects" if k in rejected else "we reject")
                    for k, line in enumerate(FORMS, 1) if ours(line, tname, wave) == (k in rejected)]
        assert not disagree, (tname, wave, disagree)


def test_gfx9_writelane_with_an_m0_lane_select_is_legal():
    assert ours("v_writelane_b32 v1, s2, m0", "gfx900", 64)
    assert not ours("v_writelane_b32 v1, s2, s3", "gfx900", 64)  # two SGPRs: one constant bus
    assert not ours("v_writelane_b32 v1, m0, s3", "gfx900", 64)  # M0 as the value counts


@pytest.mark.parametrize("target, wave, m0, lane", [("gfx900", 64, 35, 35), ("gfx900", 64, 64 + 7, 7),
                                                    ("gfx1100", 32, 35, 3)])
def test_an_m0_lane_select_writes_lane_m0_mod_the_wave(target, wave, m0, lane):
    m = simulate([f"s_mov_b32 m0, {m0}", "v_writelane_b32 v1, s2, m0"], target, wave, 1,
                 {"s2": 0xABC, "v1": list(range(wave))})
    assert m.v(1) == [0xABC if i == lane else i for i in range(wave)]
