"""Reduction and scan synthesis (verify/synth/reduce.py): the tag pruning,
one small search end to end (re-proved from its text), the CLI's errors."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import cli, cli_json

from verify.synth.reduce import _Problem
from verify.target import get

ROOT = Path(__file__).resolve().parent.parent


def _move(P: _Problem, label: str) -> object:
    return next(m for m in P.moves if m.label == label)


def test_tags_prune_a_double_count() -> None:
    # add is not idempotent: after lane i ^ 1 is combined, combining it again
    # would count it twice in every lane, so no mask helps
    P = _Problem("red.reduce_all", "add", [get("gfx1100")], 32)
    st = tuple(1 << i for i in range(32))
    (mask, st1), = P.apply(st, _move(P, "quad_perm:[1,0,3,2]"))  # type: ignore[arg-type]
    assert mask == (3, 15) and st1[0] == 0b11 and st1[5] == 0b110000
    assert P.apply(st1, _move(P, "quad_perm:[1,0,3,2]")) == []  # type: ignore[arg-type]
    # or is idempotent, but then nothing changes: also no step
    Q = _Problem("red.reduce_all", "or", [get("gfx1100")], 32)
    assert Q.apply(st1, _move(Q, "quad_perm:[1,0,3,2]")) == []  # type: ignore[arg-type]


def test_tags_prune_a_scan_reading_ahead() -> None:
    # an inclusive scan never takes a higher lane: row_ror:4 is kept only on
    # the banks whose source lies below (bank_mask 0xe), never on bank 0
    P = _Problem("red.scan_incl", "add", [get("gfx942")], 64)
    st = tuple(1 << i for i in range(64))
    res = P.apply(st, _move(P, "row_shr:4"))  # type: ignore[arg-type]
    assert [m for m, _ in res] == [(15, 15)]
    assert all(not (s & ~((1 << (i + 1)) - 1)) for i, s in enumerate(res[0][1]))


def test_synth_reduce_all_or_gfx1100_w32() -> None:
    code, js, _ = cli_json("synth", "red.reduce_all", "op=or", "--target", "gfx1100", "--wave", "32")
    assert code == 0 and js["verdict"] == "proved" and js["cost"] == 44 and js["optimal"]
    assert "v_permlanex16_b32 v2, v1, -1, -1" in js["lowering"]
    assert [r["verdict"] for r in js["results"]] == ["proved"]
    assert js["text"].startswith("; synth: cheapest proven lowering of red.reduce_all op=or on gfx1100 wave32.")


def test_synth_red_bad_op() -> None:
    code, out, err = cli("synth", "red.reduce_all", "op=mul", "--target", "gfx1100", "--wave", "32")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "error: reduction synthesis: op must be one of add, umax, umin, smax, smin, and, or, xor, fadd, not 'mul'"]


def test_reductions_table_check() -> None:
    code, out, err = cli("synth", "--reductions-table", "--check")
    assert code == 0 and out.strip() == "synthesis-reductions.md is up to date", err


def test_synth_red_robust() -> None:
    code, js, _ = cli_json("synth", "red.reduce_all", "op=add", "--target", "gfx1100", "--wave", "32", "--robust")
    assert code == 0 and js["robust"] and js["cost"] == 44 and js["relies_on"] == []
    assert "under every variant" in js["claim"]


def test_table_names_the_defaults_it_relies_on() -> None:
    # the gfx900 reduce_all add is 88 (the catalogue's best 92) thanks to a
    # partial row_mask, which holds under dpp.mask_scope's default only
    index = json.loads((ROOT / "docs" / "synthesis-reductions.json").read_text())
    e = next(e for e in index if (e["target"], e["spec"], e["op"]) == ("gfx900", "red.reduce_all", "add"))
    assert e["cost"] == 88 and e["relies_on"] == ["dpp.mask_scope=dest"]
    assert "row_mask:0xb" in " ".join(e["lowering"])
