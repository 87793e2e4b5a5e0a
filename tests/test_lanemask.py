"""lanemask_le/eq/gt/ge (Quadrants' subgroup lane masks) as llc-22 emits
them: a 64-bit shift of 1 or 2 by the lane id, then -1 or a negation through
the carry; wave32 gt/ge in 32 bits.  Mutants are refuted at the lane that
shows them; `null` as a borrow-out destination is GFX10+ and VOP3 only."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli, cli_json

ROOT = Path(__file__).resolve().parent.parent
VOTE = ROOT / "lowerings" / "vote"


def mutant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (VOTE / f"{name}.s").read_text()
    assert old in text, old
    p = tmp_path / f"{name}_m.s"
    p.write_text(text.replace(old, new, 1))
    return p


@pytest.mark.parametrize("name, old, new, target, out, lane, expected, actual", [
    # le with the shift of lt: lane 0 gets 0 instead of its own bit
    ("lanemask_le_rdna", "v0, 2\n", "v0, 1\n", "gfx1100", "lo", 0, 0x1, 0x0),
    # lt with the shift of le (GFX9, through the carry): lane 0 gets its own bit
    ("lanemask_lt_gfx9", "v0, 1\n", "v0, 2\n", "gfx90a", "lo", 0, 0x0, 0x1),
    # ge negating 2 << id (that is gt): lane 0 loses its own bit
    ("lanemask_ge_gfx9", "v0, 1\n", "v0, 2\n", "gfx900", "lo", 0, 0xFFFFFFFF, 0xFFFFFFFE),
    # wave32 gt with the high half left as the 64-bit negation's: lane 0 sees hi = 0 expected
    ("lanemask_gt_rdna", "v_mov_b32_e32 v3, 0", "v_mov_b32_e32 v3, -1", "gfx1030", "hi", 0, 0x0, 0xFFFFFFFF),
])
@pytest.mark.slow
def test_wrong_lane_masks_are_refuted(tmp_path, name, old, new, target, out, lane, expected, actual):
    code, js, err = cli_json("lowering", str(mutant(tmp_path, name, old, new)), "--target", target)
    assert code == 1, err
    r = js["results"][0]
    assert r["verdict"] == "refuted"
    row = r["counterexample"]["lanes"][0]
    assert (row["lane"], row["expected"], row["actual"]) == (lane, expected, actual), row
    assert [o["verdict"] for o in r["obligations"] if o["name"] == f"value({out})"] == ["refuted"]


# lanemask_eq_gfx9 (gfx942), lanemask_le_gfx94 (gfx950) and
# lanemask_ge_rdna_w64 (gfx1200) are in the catalogue's slow sample, which
# proves each on every target and wave it declares (the next test holds it)
IN_CATALOGUE_SAMPLE = ["lanemask_eq_gfx9", "lanemask_le_gfx94", "lanemask_ge_rdna_w64"]


def test_the_catalogue_slow_sample_proves_these_lowerings():
    from helpers import catalogue_slow_sample
    assert set(IN_CATALOGUE_SAMPLE) <= catalogue_slow_sample()


@pytest.mark.slow
def test_the_lane_masks_prove_on_a_target_of_each_family():
    for name, target in [("lanemask_lt_gfx9", "gfx900"), ("lanemask_gt_rdna", "gfx1100")]:
        code, out, err = cli("lowering", str(VOTE / f"{name}.s"), "--target", target)
        assert code == 0 and f"  proved for {target} wave" in out, out + err


@pytest.mark.parametrize("line, target, col, msg", [
    ("v_sub_co_ci_u32_e32 v3, null, 0, v3, vcc", "gfx1100", 25, "writes vcc (use _e64 for null)"),
    ("v_sub_co_ci_u32_e64 v3, null, 0, v3, vcc", "gfx900", 25, "null as a borrow-out destination"),
])
def test_null_borrow_out_errors(tmp_path, line, target, col, msg):
    p = tmp_path / "n.s"
    p.write_text("; @spec vote.lanemask_ge\n; @targets gfx9, gfx10\n; @waves 64\n; @input id = v0\n"
                 f"; @output lo = v2, hi = v3\nv_lshlrev_b64 v[2:3], v0, 1\n{line}\n")
    code, out, err = cli("lowering", str(p), "--target", target)
    assert code == 2 and "Traceback" not in err
    assert err.startswith(f"{p}:7:{col}: error: ") and msg in err and len(err.strip().splitlines()) == 1, err
