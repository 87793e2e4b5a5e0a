"""The CLI's fixed interface: commands, exit codes, JSON shapes."""

import json

import pytest
from helpers import cli, cli_json


def test_lowering_xor5_wave64_proves():
    code, out, err = cli("lowering", "xor5", "--wave", "64")
    assert code == 0, err
    assert "proved for gfx900, gfx906, gfx908, gfx90a, gfx940, gfx941, gfx942, gfx950 wave64 under exec=any" in out


def test_lowering_json_shape():
    code, js, _ = cli_json("lowering", "xor5", "--target", "gfx942")
    assert code == 0
    assert set(js) == {"command", "summary", "lowering", "path", "spec", "verdict", "results", "counts"}  # docs/json.md
    assert js["spec"] == {"name": "cuda.shfl_xor", "params": {"mask": 5, "width": 16}}
    (r,) = js["results"]
    assert r["target"] == "gfx942" and r["wave"] == 64 and r["exec"] == "any" and r["verdict"] == "proved"
    assert r["counterexample"] is None
    assert r["scope"] == "gfx942 wave64 under exec=any, assumptions: none"


def test_target_outside_declaration_is_noted():
    code, out, err = cli("lowering", "xor1", "--target", "gfx1030", "--wave", "64")
    assert code == 0
    assert "note: gfx1030 not among the targets xor1 declares (gfx9)" in err
    assert "proved for gfx1030 wave64" in out


def test_timeout_is_unknown_never_proved():
    # --timeout is spent as z3 resource units (10 million a second): 1e-7 s is one unit, too few for the
    # search a bitonic stage needs (a lowering the simplifier alone proves is proved at any timeout)
    code, js, _ = cli_json("lowering", "bitonic_t4_w32", "--timeout", "0.0000001", "--target", "gfx1100")
    assert code == 3
    assert js["verdict"] == "unknown"
    assert js["results"][0]["verdict"] == "unknown"
    assert any(o["verdict"] == "unknown" and ": solver: canceled" in o["detail"] for o in js["results"][0]["obligations"])


@pytest.mark.slow
def test_list():
    code, js, _ = cli_json("list")
    assert code == 0
    row = next(r for r in js if r["name"] == "xor5")
    assert row == {"name": "xor5", "spec": "cuda.shfl_xor mask=5 width=16", "targets": ["gfx9"], "waves": [64],
                   "exec": "any", "path": row["path"], "description": row["description"]}
    assert row["path"].endswith("lowerings/xor5.s")


def test_show_spec_json_defaults_to_lane_ids():
    code, js, _ = cli_json("show", "cuda.shfl_xor", "mask=5", "width=16", "--wave", "32")
    assert code == 0
    assert js["wave"] == 32 and js["exec"] == "0xffffffff"
    assert js["outputs"]["out"][:8] == [5, 4, 7, 6, 1, 0, 3, 2]


def test_show_spec_partial_exec_is_null_where_undefined():
    code, js, _ = cli_json("show", "cuda.shfl_xor", "mask=1", "--wave", "32", "--exec", "0xfffffffe")
    assert js["outputs"]["out"][:4] == [None, None, 3, 2]  # lane 0 inactive; lane 1 reads inactive lane 0


def test_show_spec_wave64_halves_and_64_wide():
    _, halves, _ = cli_json("show", "cuda.shfl_xor", "mask=32", "--wave", "64")
    _, wide, _ = cli_json("show", "cuda64.shfl_xor", "mask=32", "--wave", "64")
    assert halves["outputs"]["out"][:2] == [0, 1]  # mask taken mod 32: no exchange
    assert wide["outputs"]["out"][:2] == [32, 33]


def test_show_spec_input_values():
    code, js, _ = cli_json("show", "cuda.shfl_down", "delta=1", "width=4", "--wave", "32",
                           "--input", "x=" + ",".join(str(10 * i) for i in range(32)))
    assert js["outputs"]["out"][:5] == [10, 20, 30, 30, 50]


def test_show_per_lane_parameter():
    lanes = ",".join(str(31 - i) for i in range(32))
    _, js, _ = cli_json("show", "cuda.shfl_idx", "lane=@lane", "--wave", "32", "--input", f"lane={lanes}")
    assert js["outputs"]["out"][:3] == [31, 30, 29]


def test_show_lowering_matches_spec():
    _, low, _ = cli_json("show", "xor5", "--exec", "0xffffffffffffffff")
    _, spec, _ = cli_json("show", "cuda.shfl_xor", "mask=5", "width=16", "--wave", "64")
    assert low["outputs"]["out"] == spec["outputs"]["out"]


def test_show_lowering_unknown_registers_are_null():
    _, js, _ = cli_json("show", "tests/golden/xor5_plain.s", "--exec", "0x12")
    out = js["outputs"]["out"]
    assert out[1] is None and out[4] is None  # v1's old contents are not known


def test_show_spec_bad_param():
    code, out, err = cli("show", "cuda.shfl_xor", "width=16")
    assert code == 2 and err.strip() == "error: spec cuda.shfl_xor needs parameter 'mask' (cuda.shfl_xor(mask, width=32))"


def test_show_bad_input_count():
    code, out, err = cli("show", "cuda.shfl_xor", "mask=1", "--wave", "32", "--input", "x=1,2,3")
    assert code == 2 and "give 1 value or 32 (one per lane), got 3" in err


def test_targets_and_specs_listings():
    code, js, _ = cli_json("targets")
    assert code == 0 and {t["name"] for t in js} >= {"gfx803", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1200"}
    code, js, _ = cli_json("specs")
    assert code == 0 and {s["name"] for s in js} >= {"cuda.shfl_xor", "cuda64.shfl_idx", "ptx.shfl_bfly", "lane.bcast"}


def test_robust_lists_every_variant():
    code, js, _ = cli_json("lowering", "tests/golden/xor5_plain.s", "--target", "gfx900", "--robust")
    assert code == 1
    r = js["results"][0]
    assert {json.dumps(v["assumptions"], sort_keys=True): v["verdict"] for v in r["variants"]} == {
        '{"dpp.inactive_src": "bound_ctrl"}': "refuted", '{"dpp.inactive_src": "zero"}': "refuted"}


def test_assume_variant_is_used():
    code, js, _ = cli_json("lowering", "xor1", "--target", "gfx900", "--assume", "dpp.inactive_src=zero")
    assert code == 0 and js["results"][0]["assumptions"] == {"dpp.inactive_src": "zero"}
    code, out, err = cli("lowering", "xor1", "--assume", "dpp.inactive_src=maybe")
    assert code == 2 and "has no variant 'maybe'" in err


def test_whole_wave_lowering_notes_the_inactive_lanes_it_changes():
    code, out, _ = cli("lowering", "xor5", "--wave", "64")
    assert code == 0
    assert out.splitlines()[2] == ("    note: it may change v1, v2 in lanes inactive at entry (whole-wave mode): "
                                   "correct only where the caller keeps nothing live in those lanes")
    code, js, _ = cli_json("lowering", "xor1")
    assert code == 0 and all(r["writes_inactive"] == [] for r in js["results"])
    code, js, _ = cli_json("lowering", "xor5")
    assert code == 0 and all(r["writes_inactive"] == ["v1", "v2"] for r in js["results"])


def test_whole_wave_note_when_an_sgpr_is_read_at_entry(tmp_path):
    """The writes-inactive run gives an SGPR read at entry a value (it has no
    lane); it used to end in a traceback after the proof."""
    p = tmp_path / "sread.s"
    p.write_text("; @spec lane.bcast lane=0 width=64\n; @targets gfx900\n; @waves 64\n; @exec any\n"
                 "; @input x = v0\n; @output out = v1\n; @clobbers s[0:1], s4\n"
                 "s_and_b32 s4, s4, 0\ns_or_saveexec_b64 s[0:1], -1\nv_readlane_b32 s4, v0, s4\n"
                 "v_mov_b32_e32 v1, s4\ns_mov_b64 exec, s[0:1]\n")
    code, out, err = cli("lowering", str(p))
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == [
        "  proved for gfx900 wave64 under exec=any; assumptions: none  (4 obligations)",
        "    note: it may change v1 in lanes inactive at entry (whole-wave mode): correct only where the caller "
        "keeps nothing live in those lanes"]
