"""Golden files: every catalogue lowering is proved for what it declares;
every deliberately broken one is refuted with a specific counterexample."""

from pathlib import Path

import pytest
from helpers import cli, cli_json, tier_split

from verify import catalog, proofs
from verify.lowering_file import load_lowering

GOLDEN = Path(__file__).parent / "golden"
CATALOG_FILES = list(catalog.lowering_files())
CATALOG = [p.stem for p in CATALOG_FILES]


def test_catalogue_is_not_empty():
    assert {"xor5", "xor1", "xor16_swizzle", "xor32_permlane64", "xor32_bpermute", "bcast64_readlane",
            "shfl_down1_row", "shfl_up1_row", "shfl_idx_var", "shfl_down_var"} <= set(CATALOG)


# the slow tier (CI) proves every 24th lowering and, fewest instantiations
# first, lowerings with each mnemonic, DPP control, target and spec the rest
# lacks; the corpus tier the others
@pytest.mark.parametrize("name", tier_split(CATALOG, 24, CATALOG, cover=CATALOG_FILES, cost=[
    len(proofs.instantiations(load_lowering(p))) for p in CATALOG_FILES]))
def test_catalogue_lowering_is_proved(name):
    code, js, err = cli_json("lowering", name)
    assert code == 0, err
    low = load_lowering(catalog.find_lowering(name))
    assert js["verdict"] == "proved"
    assert {r["wave"] for r in js["results"]} == set(low.waves)
    outs = [b.name for b in low.outputs]
    for r in js["results"]:
        assert r["verdict"] == "proved"
        names = [o["name"] for o in r["obligations"]]
        assert names[:2] == ["contract", "defined"]  # vacuity first
        if low.spec.startswith("quadrants.bitonic_sort"):  # the network argument (docs/bitonic.md)
            assert names[2].startswith("stage(") and "network" in names and names[-1] == "exec"
            assert {n[6:-1] for n in names if n.startswith("value(")} == set(outs)  # and one concrete run
        else:  # one value obligation per output (a 64-bit one: and its high half), then EXEC restored
            values = [n for n in names[2:] if n != "exec"]
            assert {v.split("(")[1].split(")")[0].removesuffix(".hi") for v in values} == set(outs)
            assert names[-1] == "exec"
        assert all(o["verdict"] == "proved" for o in r["obligations"])
        assert r["scope"].startswith(f"{r['target']} wave{r['wave']} under exec={low.exec_contract}")


def refuted(name):
    code, js, err = cli_json("lowering", str(GOLDEN / f"{name}.s"))
    assert code == 1, err
    assert js["verdict"] == "refuted"
    r = js["results"][0]
    assert r["verdict"] == "refuted"
    return r, r["counterexample"]


def test_golden_files_declare_their_expected_verdict():
    for p in GOLDEN.glob("*.s"):
        assert load_lowering(p).expect == "refuted", p


def test_xor5_plain_refuted_through_an_unwritten_intermediate():
    r, cex = refuted("xor5_plain")
    assert cex["exec"] == "0x0000000000000012" and cex["active_lanes"] == [1, 4]
    lanes = {row["lane"]: row for row in cex["lanes"]}
    assert set(lanes) == {1, 4}
    assert lanes[1]["expected"] == 0x104 and lanes[1]["expected_from"] == "x[4]"
    assert lanes[1]["actual_from"] == "v1[1]@entry"
    assert lanes[1]["responsible"].startswith("line 15 v_mov_b32_dpp: v1[1] not written (source lane 3 is inactive")
    assert r["assumptions"] == {"dpp.inactive_src": "bound_ctrl"}


def test_wrong_shift_direction_is_refuted():
    _, cex = refuted("shfl_down1_wrongdir")
    row = cex["lanes"][0]
    assert row["lane"] == 0 and row["expected_from"] == "x[1]" and row["actual_from"] == "x[0]"


def test_out_of_range_lane_keeps_old_value_not_own():
    _, cex = refuted("shfl_down1_old")
    assert cex["active_lanes"] == [15]
    row = cex["lanes"][0]
    assert row["lane"] == 15 and row["expected_from"] == "x[15]" and row["actual_from"] == "v1[15]@entry"
    assert row["responsible"].startswith("line 11 v_mov_b32_dpp: v1[15] not written (its source lane is out of range")


def test_bound_ctrl_zero_fill_is_not_own_value():
    _, cex = refuted("shfl_down1_zero")
    row = cex["lanes"][0]
    assert row["lane"] == 15 and row["actual"] == 0 and "zero-fill" in row["responsible"]


def test_bpermute_wrap_around_is_refuted():
    _, cex = refuted("shfl_down_var_wrap")
    row = cex["lanes"][0]
    assert row["expected_from"] == f"x[{row['lane']}]"  # CUDA keeps the lane's own value
    # the cause: the address add that chose a lane past the warp (it names the ds_bpermute it feeds)
    assert row["responsible"].startswith("line 15 v_add_u32_e32: ") and "for line 17 ds_bpermute_b32" in row["responsible"]
    lane = row["lane"]
    delta = cex["inputs"]["v3"][lane] & 31
    assert (lane & 31) + delta >= 32  # the source left the 32-lane warp


def test_half_select_keyed_on_the_wrong_lane():
    _, cex = refuted("xor32_lane_lo")
    row = cex["lanes"][0]
    assert row["lane"] >= 32 and row["expected_from"] == f"x[{row['lane'] - 32}]"
    # the cause: the half-select xor that chose the lane (it names the ds_bpermute it feeds)
    assert row["responsible"].startswith("line 14 v_xor_b32_e32: ") and "for line 16 ds_bpermute_b32" in row["responsible"]


def test_exec_not_restored():
    r, cex = refuted("xor5_noexec")
    assert cex["obligation"] == "exec"
    assert [o["verdict"] for o in r["obligations"]] == ["proved", "proved", "proved", "refuted"]
    assert cex["exec_final"] == "0xffffffffffffffff"
    assert cex["active_lanes"] == [0]  # the smallest wave with an active lane, not EXEC = 0


def test_text_counterexample_is_a_lane_table():
    code, out, _ = cli("lowering", str(GOLDEN / "xor5_plain.s"))
    assert code == 1
    assert "refuted for gfx900" in out
    assert "EXEC = 0x0000000000000012  (active lanes: 1, 4)" in out
    table = [l for l in out.splitlines() if l.strip().startswith(("lane ", "1 ", "4 "))]
    assert table[0].split()[:4] == ["lane", "expected", "actual", "responsible"]
    assert table[1].split()[:3] == ["1", "0x104", "x[4]"]


def test_a_name_finds_the_file_the_listing_has_under_it() -> None:
    """catalog.find_lowering's search by one name (start-up, issue #35) picks
    the very file lowering_files() lists under that name, for every name."""
    files = catalog.lowering_files()
    assert len(files) > 100
    assert [f for f in files if catalog.find_lowering(f.stem) != f] == []
