"""Reduction and scan synthesis (verify/synth/reduce.py): the tag pruning,
one small search end to end (re-proved from its text), the CLI's errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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


def test_the_exclusive_scan_starts_shifted_and_stops_below_its_lane() -> None:
    """red.scan_excl: the prologue moves every lane's input up one lane (run
    on tags: lane 0 holds nothing, lane i lane i-1; on RDNA each row's first
    lane through readlane/writelane), and a step may not take lane i's own
    input into lane i."""
    for t, wave in (("gfx942", 64), ("gfx1100", 64), ("gfx1030", 32)):
        P = _Problem("red.scan_excl", "add", [get(t)], wave)
        assert P.initial_state() == (0,) + tuple(1 << i for i in range(wave - 1)), t
    P = _Problem("red.scan_excl", "add", [get("gfx1100")], 32)
    assert P.shift_up()[1:] == ["v_readlane_b32 s6, v3, 15", "v_writelane_b32 v1, s6, 16"]
    st = P.initial_state()
    # row_shr:1 on the shifted inputs: lane i gets lanes i-2 and i-1, never i
    (mask, st1), = P.apply(st, _move(P, "row_shr:1"))  # type: ignore[arg-type]
    assert st1[5] == 0b11000 and st1[0] == 0 and all(not (s >> i) for i, s in enumerate(st1))
    assert P.done(P.goal) and not P.done(st1)  # type: ignore[arg-type]


def test_gfx950_swaps_are_moves_of_the_reduction_search() -> None:
    """gfx950's v_permlane16_swap / v_permlane32_swap of a copy are moves of
    the reduction and scan search (run on lane tags: each lane of v2 holds
    the same lane of the other row / the other half); gfx942 has neither."""
    P = _Problem("red.scan_incl", "add", [get("gfx950")], 64)
    m16 = _move(P, "permlane16_swap the other row")
    m32 = _move(P, "permlane32_swap the other half")
    assert m16.pre == ("v_mov_b32_e32 v2, v1", "v_permlane16_swap_b32_e32 v2, v2")  # type: ignore[attr-defined]
    assert m16.gather == tuple(i ^ 16 for i in range(64))  # type: ignore[attr-defined]
    assert m32.gather == tuple(i ^ 32 for i in range(64))  # type: ignore[attr-defined]
    Q = _Problem("red.reduce_all", "add", [get("gfx942")], 64)
    assert not [m for m in Q.moves if "swap" in m.label]


@pytest.mark.slow  # a search and three proofs, about 6 s
def test_synth_exclusive_scan_add_gfx900_w64() -> None:
    """The exclusive add scan: wave_shr:1, then LLVM's six-step inclusive scan
    (row_shr 1, 2, 4, 8 and the two row_bcasts), proved from its text; the
    claim names the shift it starts with."""
    code, js, _ = cli_json("synth", "red.scan_excl", "op=add", "--target", "gfx900", "--wave", "64")
    assert code == 0 and js["verdict"] == "proved" and js["optimal"] and js["cost"] == 100
    assert "v_mov_b32_dpp v1, v3 wave_shr:1 row_mask:0xf bank_mask:0xf" in js["lowering"]
    assert [ln.split()[0] for ln in js["lowering"]].count("v_add_u32_dpp") == 6
    assert "after the inputs are moved up one lane" in js["claim"]
    code, out, err = cli("synth", "red.scan_excl", "op=fadd", "--target", "gfx900", "--wave", "64")
    assert code == 2 and "an f32 scan has no reassociation claim" in err


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


@pytest.mark.skipif(__import__("shutil").which("llc-22") is None, reason="needs llc-22")
def test_llc_column_is_the_shuffle_idiom_as_llc22_compiles_it():
    """The reductions table's llc-22 column: the bpermute xor butterfly a HIP
    compiler writes, compiled by llc-22 and costed (5 bpermutes on a wave32,
    each at the rdna model's LDS latency); the json holds what the page shows."""
    from verify.synth import llcref, redtable

    r = llcref.reference("red.reduce_all", "add", get("gfx1100"), 32)
    seq = r["sequence"]
    assert sum(s.startswith("ds_bpermute_b32") for s in seq) == 5
    assert sum(s.startswith("v_add_nc_u32") for s in seq) == 5
    assert not any(s.startswith(("s_delay_alu", "s_setpc_b64")) for s in seq)
    assert r["cost"] == 390
    ir = llcref.idiom_ir("red.scan_excl", "umax", 64)
    assert ir.count("@llvm.amdgcn.ds.bpermute(i32 %") == 7 and "i32 0, i32 %" in ir
    index = json.loads(redtable.INDEX.read_text())
    e = next(e for e in index if (e["target"], e["wave"], e["spec"], e["op"]) == ("gfx1100", 32, "red.reduce_all", "add"))
    assert e["llc"]["cost"] == 390 and e["llc"]["sequence"] == seq
