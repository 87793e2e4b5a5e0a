"""Lane twins (smt.Z3.lane_twins): a lane's question that is another lane's
with the two lanes swapped in every register array is not asked again
(refine._Proof.ask_lanes).  Only the exact swap counts: a read at a computed
lane, a lane-numbered constant or session definitions make every lane its
own question."""

from __future__ import annotations

from helpers import cli_json

from verify import catalog
from verify.smt import Z3


def questions(B: Z3, f) -> list:
    x = B.fresh_lanes("v0", 8)
    e = B.fresh_lanes("exec", 8, cond=True)
    return [B.and_b(e[i], f(x, i)) for i in range(8)]


def test_lane_local_questions_are_twins_of_the_first_lane() -> None:
    B = Z3()
    qs = questions(B, lambda x, i: B.ne(B.add(x[i], B.const(1)), B.sub(x[i], B.const(-1))))
    assert B.lane_twins(qs) == [None] + [0] * 7


def test_a_lane_numbered_constant_makes_each_lane_its_own_question() -> None:
    B = Z3()
    qs = questions(B, lambda x, i: B.ne(x[i], B.const(i)))
    assert B.lane_twins(qs)[1:] == [None] * 7


def test_a_read_of_another_lane_is_a_twin_only_under_the_same_swap() -> None:
    B = Z3()
    # lane i reads lane i ^ 1: lane 1's question is lane 0's with lanes 0
    # and 1 swapped, lane 3's lane 2's; no swap with lane 0 or 2 maps lanes
    # 4-7 onto those (they read a lane the swap leaves in place), and two
    # lanes are asked at most before the rest are asked one by one
    qs = questions(B, lambda x, i: B.ne(B.sub(x[i], x[i ^ 1]), B.const(5)))
    assert B.lane_twins(qs) == [None, 0, None, 2, None, None, None, None]


def test_a_read_at_a_computed_lane_turns_the_twins_off() -> None:
    B = Z3()
    s = B.fresh("s")
    qs = questions(B, lambda x, i: B.ne(x[i], B.select(x, s)))
    assert B.lane_twins(qs) == [None] * 8


def test_session_definitions_turn_the_twins_off() -> None:
    B = Z3(lane_arrays=True)
    x = B.fresh_lanes("v0", 8)
    B.select([B.add(v, B.const(1)) for v in x], B.fresh("s"))  # defines an array in the session
    assert B.session.defs
    qs = [B.ne(x[i], B.const(0)) for i in range(8)]
    assert B.lane_twins(qs) == [None] * 8


def test_a_lane_local_lowering_is_proved_and_its_mutant_refuted(tmp_path, monkeypatch) -> None:
    """End to end: a per-lane lowering proves, and a mutant that is wrong
    only where the lane's input is 7 is refuted there (the slow tier's
    __fns lowerings, fns_*_gcn, are proved through their lane twins)."""
    body = ("; @spec     lane.add_const k=3\n; @targets  gfx1100\n; @waves    32\n; @exec     any\n"
            "; @input    x = v0\n; @output   out = v1\n; @clobbers v1, vcc_lo\n")
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "t.spec").write_text("spec lane.add_const(k=0):\n    lanes = 1\n    input x\n    out = x[0] + k\n")
    good = tmp_path / "good.s"
    good.write_text(body + "v_add_nc_u32_e32 v1, 3, v0\n")
    bad = tmp_path / "bad.s"
    bad.write_text(body + "v_add_nc_u32_e32 v1, 3, v0\nv_cmp_eq_u32_e32 vcc_lo, 7, v0\nv_cndmask_b32_e64 v1, v1, 0, vcc_lo\n")
    monkeypatch.setenv("VERIFY_PATH", str(tmp_path))
    catalog._speclib.cache_clear()
    code, js, err = cli_json("lowering", str(good))
    assert code == 0, err
    assert js["verdict"] == "proved"
    code, js, err = cli_json("lowering", str(bad))
    assert code == 1, err
    catalog._speclib.cache_clear()
    cex = js["results"][0]["counterexample"]
    assert cex["inputs"]["v0"][0] == 7 and cex["lanes"][0]["expected"] == 10 and cex["lanes"][0]["actual"] == 0
    # the select took the 0 because the compare set its mask bit: the compare is named (verify.cex.blame)
    assert cex["cause"] == ("line 9 v_cmp_eq_u32_e32: vcc_lo[0] = 1, the mask of line 10 v_cndmask_b32_e64 for v1[0]; "
                            "with 0 (or with its sources swapped) it gives the value wanted, 0xa")
