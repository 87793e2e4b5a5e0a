"""The concrete pre-search (verify/presearch.py): the states that break
reductions and scans are tried before any solver call, so a wrong identity,
a changed combine operator or a +0.0 fill is refuted in seconds, with the
counterexample the solver path would print."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import cli, cli_json

from verify import presearch, refine
from verify.backend import f32_is_nan
from verify.encode import encode, symbolic_exec, symbolic_initial
from verify.lowering_file import load_lowering
from verify.presearch import QUICK, Mode, Search, check_lanes, first_cases, more_cases, patterns
from verify.smt import Z3, Session
from verify.target import get

ROOT = Path(__file__).resolve().parent.parent


def mutant(tmp_path: Path, lowering: str, old: str, new: str, name: str) -> str:
    text = (ROOT / "lowerings" / lowering).read_text()
    assert old in text, old
    p = tmp_path / f"{name}.s"
    p.write_text(text.replace(old, new, 1))
    return str(p)


# (catalogue lowering, the token changed, what it becomes): each wrong for one active lane
WRONG = {
    "umax_ident_1": ("scan/reduce_umax_rdna_w32.s", "v_cndmask_b32_e64 v1, 0, v0", "v_cndmask_b32_e64 v1, 1, v0"),
    "umin_ident_m2": ("scan/reduce_umin_rdna_w32.s", "v_cndmask_b32_e64 v1, -1, v0", "v_cndmask_b32_e64 v1, -2, v0"),
    "mul_ident_2": ("scan/reduce_mul_rdna_w32.s", "v_mov_b32_e32 v3, 1", "v_mov_b32_e32 v3, 2"),
    "add_to_sub": ("scan/reduce_add_rdna_w32.s", "v_add_nc_u32_dpp v1, v1, v1 row_shr:1",
                   "v_sub_nc_u32_dpp v1, v1, v1 row_shr:1"),
    "fadd_pos_zero_fill": ("f32/reduce_all_fadd_tree_w32.s", "v_mov_b32_e32 v3, 0x80000000", "v_mov_b32_e32 v3, 0"),
}

# the counterexample each gets: EXEC, the inputs shown (tagged or not), the lane shown, expected, actual
TAGS = [0x100 + i for i in range(32)]
EXPECT = {
    "umax_ident_1": ("0x00000001", False, {0: 0x0}, 0, 0x0, 0x1),
    "umin_ident_m2": ("0x00000001", False, {0: 0xFFFFFFFF}, 0, 0xFFFFFFFF, 0xFFFFFFFE),
    "mul_ident_2": ("0x00000001", True, TAGS, 0, 0x100, 0x0),  # 0x100 * 2**31 wraps to 0
    "add_to_sub": ("0x00000002", True, TAGS, 1, 0x101, 0xFFFFFEFF),  # lane 0 alone gives x - 0 == x
    "fadd_pos_zero_fill": ("0x00000001", False, {0: 0x80000000}, 0, 0x80000000, 0x0),
}


# add_to_sub (2.3 s, the slowest) runs in the slow tier; the others here
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "add_to_sub" else n
                                  for n in sorted(WRONG)])
def test_wrong_reductions_are_refuted_before_the_solver(tmp_path, name):
    path = mutant(tmp_path, *WRONG[name], name)
    code, js, err = cli_json("lowering", path, "--target", "gfx1030")
    assert code == 1, err
    r = js["results"][0]
    assert r["method"].endswith(", concrete pre-search"), r["method"]
    assert [(o["name"], o["verdict"]) for o in r["obligations"]][2] == ("value(out)", "refuted")
    cex = r["counterexample"]
    exec_mask, tagged, shown, lane, expected, actual = EXPECT[name]
    assert cex["exec"] == exec_mask and cex["tagged_inputs"] == tagged
    x = cex["inputs"]["v0"]
    assert (x == shown) if tagged else ({i: x[i] for i in shown} == shown)
    row = cex["lanes"][0]
    assert (row["lane"], row["expected"], row["actual"]) == (lane, expected, actual)


@pytest.mark.slow
def test_a_wrong_cross_row_combine_is_refuted_before_the_solver(tmp_path):
    """An or turned into an xor where the readlane tail combines row 0 with
    row 1 (#11: 26-32 s in the counterexample search) saturates under every
    lane and is the same under one lane; one active lane in each of two rows
    refutes it concretely."""
    path = mutant(tmp_path, "wide64/reduce_all_or_u64_gfx9.s", "s_or_b32 s4, s4, s6", "s_xor_b32 s4, s4, s6",
                  "or_xor_rows")
    code, js, err = cli_json("lowering", path, "--target", "gfx942")
    assert code == 1, err
    r = js["results"][0]
    assert r["method"].endswith(", concrete pre-search"), r["method"]
    cex = r["counterexample"]
    assert cex["exec"] == "0x0000000000010001"
    row = cex["lanes"][0]
    assert row["lane"] == 0 and row["expected"] != row["actual"]


@pytest.mark.slow
def test_the_same_counterexample_as_the_solver(tmp_path, monkeypatch):
    """With the pre-search switched off the solver finds the refutation of
    the umax mutant itself; both print the same counterexample."""
    path = mutant(tmp_path, *WRONG["umax_ident_1"], "umax1")
    code, with_search, _ = cli("lowering", path, "--target", "gfx1030")
    monkeypatch.setattr(refine, "first_cases", lambda contract, wave: [])
    code2, solver, _ = cli("lowering", path, "--target", "gfx1030")
    assert code == code2 == 1
    assert with_search == solver


def test_the_cases_and_their_order():
    full = (1 << 64) - 1
    top = 1 << 63
    rows = [(1 | 1 << 16, "quick"), (1 | 1 << 32, "quick"), (1 | 1 << 48, "quick")]
    assert first_cases("any", 64) == [(1, "all"), (top, "quick"), (3, "quick"), (1 | top, "quick"), *rows,
                                      (full, "quick")]
    assert first_cases("any", 32)[-2:] == [(1 | 1 << 16, "quick"), (0xFFFFFFFF, "quick")]
    assert first_cases("full", 32) == [(0xFFFFFFFF, "all")]
    assert first_cases("0x00ff00ff", 32) == [(0x00FF00FF, "all")]
    more = more_cases("any", 32)
    assert more[:5] == [(1 << 31, "rest"), (3, "rest"), (1 | 1 << 31, "rest"), (1 | 1 << 16, "rest"),
                        (0xFFFFFFFF, "rest")]
    singles = [m for m, _ in more[5:] if bin(m).count("1") == 1]
    assert singles == [1 << i for i in range(1, 31)]
    assert more_cases("full", 32) == []  # its one mask got every fill first
    assert check_lanes(0b1011, 32) == {0, 1, 3}
    assert check_lanes((1 << 64) - 1, 64) == {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 62, 63}


def test_values_cover_the_identity_breakers():
    names = [n for n, _ in patterns(Mode("umax"), 32)]
    for want in ("all 0x0", "all 0x80000000", "all 0x1", "all 0xffffffff", "all 0x7fffffff", "lane tags", "lane + 1"):
        assert want in names
    assert set(QUICK) <= set(names)
    assert names == [n for n, _ in patterns(Mode("umax"), 32)]  # the same list every time
    # an f32 claim is stated for inputs that are not NaN: no fill holds one
    for mode in (Mode("fadd", f32=True), Mode("fadd", f32=True, exact_sums=True)):
        for _, fill in patterns(mode, 32):
            assert not any(f32_is_nan(fill(k, i)) for k in (1, 2) for i in range(32))
    # the reassociation claim: only values whose sums are exact in any order
    for _, fill in patterns(Mode("fadd", f32=True, exact_sums=True), 32):
        for i in range(32):
            v = fill(1, i)
            mag = v & 0x7FFFFFFF
            assert mag in (0, 0x7F800000) or (mag >> 23) - 127 in range(0, 24), hex(v)


def _search(path: str, target: str, wave: int, mode: Mode) -> Search:
    low = load_lowering(path)
    B = Z3(Session())
    fresh: dict = {}
    enc = encode(low, get(target), wave, B, {}, symbolic_initial(B, wave, fresh), symbolic_exec(B, wave, low.exec_contract))
    enc.fresh = fresh
    return Search(low, get(target), wave, {}, enc, mode)


@pytest.mark.slow
@pytest.mark.parametrize("lowering,op", [("scan/reduce_umax_rdna_w32.s", "umax"), ("scan/scan_add_rdna_w32.s", "add"),
                                         ("scan/scan_excl_smin_rdna_w32.s", "smin")])
def test_correct_lowerings_pass_every_case(lowering, op):
    s = _search(str(ROOT / "lowerings" / lowering), "gfx1030", 32, Mode(op, monoid=True))
    assert s.run(first_cases("any", 32)) is None
    assert s.run([(m, w) for m, w in more_cases("any", 32)[:8]], random_cases=4) is None


def test_deterministic(tmp_path):
    path = mutant(tmp_path, *WRONG["add_to_sub"], "addsub")
    a = _search(path, "gfx1030", 32, Mode("add", monoid=True)).run(first_cases("any", 32))
    b = _search(path, "gfx1030", 32, Mode("add", monoid=True)).run(first_cases("any", 32))
    assert a is not None and a == b
    assert a.mask == 2  # canonical within the search: lane 0 alone never fails, lane 1 alone does
    assert presearch.SEED == 0


def test_an_unset_sgpr_in_a_fold_is_shown_at_the_witness(tmp_path):
    """Dropping the readlane of the upper half leaves s5 unset: the monoid
    witness is tried on the SGPR first (one replay, not one per lane), and
    the counterexample shows s5's value, the only thing that explains it."""
    path = mutant(tmp_path, "scan/reduce_aco_smin_rdna_w64.s", "v_readlane_b32 s5, v1, 32\n", "", "smin_no_hi")
    code, out, _ = cli("lowering", path, "--target", "gfx1010")
    assert code == 1
    assert "EXEC = 0x0000000000000001  (active lanes: 0)" in out
    assert "    s5 = 0x80000000\n" in out
    assert ("0  0x7fffffff  0x80000000 computed at line 23  line 23 s_min_i32: s4 reads its ssrc1 s5 = 0x80000000"
            in out)


@pytest.mark.slow
@pytest.mark.parametrize("lowering,old,new", [
    ("f32/reduce_fadd_scan_w32.s", "s_or_saveexec_b32 s0, -1", "s_or_saveexec_b32 s0, -2"),
    ("f32/reduce_all_fadd_tree_w32.s", "s_mov_b32 s1, 0x76543210\n", ""),
])
def test_equivalent_f32_mutants_prove_with_fadd_abstracted(tmp_path, lowering, old, new):
    """Equivalent mutants of exact f32 trees (lane 0 left out of a scan whose
    lane 0 adds -0.0; permlanex16 selects left unset where every lane of a
    row holds the same sum) were unknown after minutes bit-blasted; with
    fadd an unknown commutative function (exact on NaN and -0.0) they prove."""
    path = mutant(tmp_path, lowering, old, new, "f32_equiv")
    code, res, _ = cli_json("lowering", path, "--target", "gfx1010", "--wave", "32")
    assert code == 0
    [r] = res["results"]
    assert r["verdict"] == "proved"
    assert r["method"].endswith("fadd abstracted")
