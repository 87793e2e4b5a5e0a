"""verify synth --robust, and the table's marks on entries that rely on a
default variant of a named assumption (verify/assume.py).

On GFX10, `row_xmask` is as documented only under the default variant of
`dpp.row_share_gfx10` (ACO avoids it there); DPP8 consults no assumption.
So the cheapest `__shfl_xor` mask 5 on gfx1030 wave32 is `row_xmask:5`
under the defaults and the DPP8 move under every variant.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import cli, cli_json

from verify.synth import command_text, table
from verify.synth.emit import relies_on, reverify
from verify.target import get

XOR5_W32 = ("synth", "cuda.shfl_xor", "mask=5", "width=32", "--target", "gfx1030", "--wave", "32")
HEADER = """; t
; @spec     cuda.shfl_xor mask=5 width=32
; @targets  {targets}
; @waves    32
; @exec     any
; @input    x = v0
; @output   out = v1
"""


def _relies(body: str, targets: list[str]) -> list[str]:
    text = HEADER.format(targets=", ".join(targets)) + body + "\n"
    tg = [get(t) for t in targets]
    low, res, warns = reverify("t.s", text, tg, 32)
    assert not warns and all(r.verdict == "proved" for r in res)
    return relies_on(res, low, tg, 32)


def test_row_xmask_on_gfx10_relies_on_the_default() -> None:
    assert _relies("v_mov_b32_dpp v1, v0 row_xmask:5", ["gfx1030"]) == ["dpp.row_share_gfx10=works"]


def test_row_xmask_on_gfx11_and_dpp8_rely_on_nothing() -> None:
    assert _relies("v_mov_b32_dpp v1, v0 row_xmask:5", ["gfx1100"]) == []
    assert _relies("v_mov_b32_dpp v1, v0 dpp8:[5,4,7,6,1,0,3,2]", ["gfx1030", "gfx1100"]) == []


def test_robust_reverify_refuses_what_a_variant_refutes() -> None:
    text = HEADER.format(targets="gfx1030") + "v_mov_b32_dpp v1, v0 row_xmask:5\n"
    _, res, _ = reverify("t.s", text, [get("gfx1030")], 32, robust=True)
    assert [r.verdict for r in res] != ["proved"]
    assert {v["verdict"] for v in res[0].variants} >= {"proved"}  # the defaults prove it


def _entry(**kw: Any) -> dict[str, Any]:
    e = {"spec": "cuda.shfl_xor", "params": {"mask": 5, "width": 32}, "family": "gfx10", "wave": 32,
         "verdict": "proved", "cost": 5, "is_baseline": False, "baseline": 77, "claim": "", "seconds": 1.0,
         "summary": "dpp16", "file": "synth/syn_xor5_w32.s", "program": "0"}
    return e | kw


def test_table_marks_entries_that_rely_on_a_default() -> None:
    plain = table.markdown([_entry()])
    marked = table.markdown([_entry(relies_on=["dpp.row_share_gfx10=works"]),
                             _entry(family="gfx11", relies_on=[])])
    assert table.DEFAULT_MARK not in plain  # an index without marks renders as before
    assert f"**5**{table.DEFAULT_MARK} dpp16" in marked and "| **5** dpp16" in marked
    assert "(1 entries; dpp.row_share_gfx10=works)" in marked and "verify synth --robust" in marked


def test_checked_in_table_renders_unchanged() -> None:
    index = json.loads(table.INDEX.read_text())
    assert table.MD.read_text() == table.markdown(index)


def test_robust_and_table_do_not_mix() -> None:
    code, out, err = cli("synth", "--table", "--robust")
    assert code == 2 and out == "" and "--robust searches one entry" in err


@pytest.mark.slow  # two whole syntheses, ~15 s of CPU
def test_synth_robust_picks_what_holds_under_every_variant() -> None:
    code, js, _ = cli_json(*XOR5_W32)
    assert code == 0 and js["lowering"] == ["v_mov_b32_dpp v1, v0 row_xmask:5 row_mask:0xf bank_mask:0xf"]
    assert js["relies_on"] == ["dpp.row_share_gfx10=works"] and not js["robust"]
    assert "; relies on the default variant of dpp.row_share_gfx10=works" in js["text"]
    code, js, _ = cli_json(*XOR5_W32, "--robust")
    assert code == 0 and js["lowering"] == ["v_mov_b32_dpp v1, v0 dpp8:[5,4,7,6,1,0,3,2]"]
    assert js["robust"] and js["relies_on"] == [] and js["cost"] == 5 and js["optimal"]
    assert js["claim"].endswith("under every variant of the named assumptions")
    assert all(r["scope"].endswith("assumptions: none consulted") for r in js["results"])


@pytest.mark.slow  # three table entries, ~20 s of CPU
def test_table_entries_record_what_they_rely_on() -> None:
    rows = [("cuda.shfl_xor", {"mask": 5, "width": 32}), ("cuda.shfl_xor", {"mask": 1, "width": 2})]
    gfx10 = table._column(("gfx10", 32, rows, None))
    gfx11 = table._column(("gfx11", 32, rows[:1], None))
    assert gfx10[0]["relies_on"] == ["dpp.row_share_gfx10=works"]
    assert gfx11[0]["relies_on"] == []
    assert all(isinstance(e["relies_on"], list) for e in gfx10)


def test_a_robust_command_is_recorded_as_such() -> None:
    cmd = command_text("cuda.shfl_xor", {"mask": 5, "width": 32}, "gfx1030", 32, "any", 2, None, True)
    assert cmd.endswith("--max-ops 2 --robust")
