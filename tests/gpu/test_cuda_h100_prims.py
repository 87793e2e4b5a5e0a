"""specs/cuda_prims.spec against the H100 recording tests/data/cuda_h100_prims.json
(made by tests/gpu/run_prims_probe.sh), lane by lane.  No GPU needed; the
recording tests skip while the file has not been recorded.  The checker and
the comparisons are tested on a model recording (check_prims.model_recording)."""

from __future__ import annotations

import importlib.util
import json
import os
from typing import Any

import pytest

from verify import catalog
from verify.backend import Concrete

_HERE = os.path.dirname(os.path.abspath(__file__))
_DATA = os.path.join(_HERE, "..", "data", "cuda_h100_prims.json")
_spec = importlib.util.spec_from_file_location("_gpu_check_prims", os.path.join(_HERE, "check_prims.py"))
assert _spec is not None and _spec.loader is not None
check_prims = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_prims)

LIB = catalog.speclib()
M32 = 0xFFFFFFFF
FAR_DELTA = 0x7FFFFFFE  # the largest delta cg.coalesced_shfl_down/_up take (2^31 - 2)


_EVALUATED: dict[str, Any] = {}


def spec_out(name: str, params: dict[str, Any], active_mask: int, inputs: dict[str, list[int]],
             output: str = "out") -> list[int | None]:
    """The spec's `output` on the active lanes (None: inactive or undefined).
    A spec is run once per (parameters, lanes, inputs): the recordings ask
    for the same run again (a match's two outputs; 1,795 runs, 863 distinct)."""
    act = [bool(active_mask >> i & 1) for i in range(32)]
    key = json.dumps([name, params, active_mask, inputs], sort_keys=True)
    if key not in _EVALUATED:
        _EVALUATED[key] = LIB.evaluate(name, params, Concrete(), 32, inputs, act)
    r = _EVALUATED[key][output]
    return [v if d and act[i] else None for i, (v, d) in enumerate(zip(*r))]


def _diff(bad: list[str], where: str, got: list[int | None], want: list[int | None]) -> None:
    """Lanes the spec defines must hold the recorded value."""
    for i in range(32):
        if want[i] is not None and got[i] != want[i]:
            bad.append(f"{where} lane {i}: H100 {got[i]} spec {want[i]}")
            return


def shflp_mismatches(data: dict[str, Any]) -> list[str]:
    bad: list[str] = []
    for n, r in enumerate(data["shflp"]):
        name = f"ptx.shfl_{r['mode']}_p"
        for out in ("out", "pred"):
            want = spec_out(name, {"b": r["b"], "c": r["c"]}, M32, {"x": r["input"]}, out)
            _diff(bad, f"shflp[{n}] {name} b={r['b']} c={r['c']:#x} {out}", r[out], want)
    return bad


def fns_mismatches(data: dict[str, Any]) -> list[str]:
    bad: list[str] = []
    for n, r in enumerate(data["fns"]):
        want = spec_out("cuda.fns", {}, M32, {"x": r["mask"], "base": r["base"], "offset": r["offset"]})
        _diff(bad, f"fns[{n}] cuda.fns", r["out"], want)
    return bad


def group_mismatches(data: dict[str, Any]) -> list[str]:
    """ballot rank, coalesced groups, partitions and 64-bit/float matches."""
    bad: list[str] = []
    for n, r in enumerate(data["rank"]):
        act = int(r["mask"], 16) & int(r["callers"], 16)
        _diff(bad, f"rank[{n}] cuda.ballot_rank", r["out"],
              spec_out("cuda.ballot_rank", {"mask": int(r["mask"], 16)}, act, {"x": r["pred"]}))
    for sec in ("coalesced", "coalesced_far"):
        for n, r in enumerate(data[sec]):
            act, ins = int(r["callers"], 16), {"x": r["input"], "src": r["src"]}
            for key, name, params in (("rank", "cg.coalesced_rank", {}), ("size", "cg.coalesced_size", {}),
                                      ("shfl", "cg.coalesced_shfl", {"rank": "@src"}),
                                      ("down", "cg.coalesced_shfl_down", {"delta": r["delta"]}),
                                      ("up", "cg.coalesced_shfl_up", {"delta": r["delta"]})):
                if key in ("down", "up") and r["delta"] > FAR_DELTA:  # outside the specs' delta domain
                    continue
                _diff(bad, f"{sec}[{n}] {name} callers {r['callers']} delta {r['delta']}", r[key],
                      spec_out(name, params, act, ins))
    for n, r in enumerate(data["labeled"]):
        act = int(r["callers"], 16)
        lab = {"x": r["input"], "label": r["label"]}
        bins = {"x": r["input"], "pred": [v & 1 for v in r["label"]]}
        for key, name, ins in (("rank", "cg.labeled_rank", lab), ("size", "cg.labeled_size", lab),
                               ("reduce", "cg.labeled_reduce", lab), ("inclusive", "cg.labeled_inclusive_scan", lab),
                               ("exclusive", "cg.labeled_exclusive_scan", lab), ("b_reduce", "cg.binary_reduce", bins),
                               ("b_inclusive", "cg.binary_inclusive_scan", bins),
                               ("b_exclusive", "cg.binary_exclusive_scan", bins)):
            params = {} if key in ("rank", "size") else {"op": "add"}
            _diff(bad, f"labeled[{n}] {name} callers {r['callers']}", r[key], spec_out(name, params, act, ins))
    for n, r in enumerate(data["match64"]):
        act = int(r["mask"], 16) & int(r["callers"], 16)
        params = {"mask": int(r["mask"], 16)}
        f32 = r["type"] == "f32"
        ins = {"x": r["lo"]} if f32 else {"x": r["lo"], "xhi": r["hi"]}
        suffix = "f32" if f32 else "b64"
        _diff(bad, f"match64[{n}] {r['type']} any", r["any"], spec_out(f"cuda.match_any_{suffix}", params, act, ins))
        all_spec = "cuda.match_all" if f32 else "cuda.match_all_b64"  # pred: the 32-bit spec's second output
        _diff(bad, f"match64[{n}] {r['type']} all", r["all"], spec_out(all_spec, params, act, ins))
        _diff(bad, f"match64[{n}] {r['type']} all_pred", r["all_pred"], spec_out(all_spec, params, act, ins, "pred"))
    return bad


def typed_mismatches(data: dict[str, Any]) -> list[str]:
    bad: list[str] = []
    for n, r in enumerate(data["typed"]):
        params = {"mode": r["mode"], "param": r["param"], "type": r["type"], "width": r["width"]}
        _diff(bad, f"typed[{n}] {r['type']} {r['mode']} p={r['param']} w={r['width']}", r["out"],
              spec_out("cuda.shfl_typed", params, M32, {"x": r["input"]}))
    return bad


# ---------------------------------------------------------------- without a GPU


@pytest.fixture(scope="module")
def model() -> dict[str, Any]:
    return check_prims.model_recording()


def test_model_recording_passes_the_checker(model):
    assert check_prims.schema_errors(model) == []
    assert check_prims.check(model) == []


@pytest.mark.slow
def test_specs_agree_with_the_model_recording(model):
    assert shflp_mismatches(model) == []
    assert group_mismatches(model) == []
    assert typed_mismatches(model) == []


@pytest.mark.slow
def test_fns_spec_agrees_with_the_model_recording(model):
    assert fns_mismatches(model) == []


@pytest.mark.slow
def test_checker_and_specs_catch_a_wrong_value():
    model = check_prims.model_recording()
    r = model["coalesced"][2]  # callers 0x0f0f00f1, delta 1
    r["down"] = [None if v is None else v ^ 1 for v in r["down"]]
    assert any(b.startswith("coalesced[2].down") for b in check_prims.check(model))
    assert any("cg.coalesced_shfl_down" in b for b in group_mismatches(model))
    assert check_prims.check(check_prims.model_recording()) == []
    t = model["typed"][8]  # i16
    t["out"] = [v & 0xFFFF for v in t["out"]]  # zero- instead of sign-extended
    assert t["type"] == "i16" and any(b.startswith("typed[8]") for b in typed_mismatches(model))


def test_schema_errors_name_the_field():
    data = check_prims.model_recording()
    data["fns"][0]["out"] = [1] * 31
    del data["typed"]
    errs = check_prims.schema_errors(data)
    assert "fns[0].out: not 32 u32 values" in errs and "typed: missing or empty" in errs


def test_fns_model_is_the_ptx_isa():
    assert [check_prims.fns(0xAAAAAAAA, 3, 1), check_prims.fns(0xAAAAAAAA, 3, M32),
            check_prims.fns(0xAAAAAAAA, 2, 1), check_prims.fns(0xAAAAAAAA, 2, M32)] == [3, 3, 3, 1]


# ---------------------------------------------------------------- the recording


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    if not os.path.exists(_DATA):
        pytest.skip("tests/data/cuda_h100_prims.json not recorded (tests/gpu/run_prims_probe.sh on an H100)")
    with open(_DATA) as f:
        return dict(json.load(f))


def test_recording_schema_and_documented_semantics(data):
    assert check_prims.check(data)[:5] == []


@pytest.mark.slow
def test_shfl_predicate_agrees_with_the_specs(data):
    assert shflp_mismatches(data)[:5] == []


@pytest.mark.slow
def test_fns_agrees_with_the_spec(data):
    assert fns_mismatches(data)[:5] == []


@pytest.mark.slow
def test_groups_partitions_and_matches_agree_with_the_specs(data):
    assert group_mismatches(data)[:5] == []


@pytest.mark.slow
def test_typed_shuffles_agree_with_the_spec(data):
    assert typed_mismatches(data)[:5] == []


def test_a_delta_of_2_31_minus_2_keeps_each_members_own_value(data):
    """[S:cuda-coalesced-shfl-dir]: rank + delta past the group keeps the
    lane's own value, as the specs' unsigned compare says (the signed one
    left these lanes undefined); recorded on the H100 for every caller set
    but the whole warp, which takes __shfl_down_sync's path (delta mod 32)."""
    far = [r for r in data["coalesced_far"] if r["delta"] == FAR_DELTA and r["callers"] != "0xffffffff"]
    assert len(far) == 4
    for r in far:
        act, ins = int(r["callers"], 16), {"x": r["input"], "src": r["src"]}
        members = [i for i in range(32) if act >> i & 1]
        for key in ("down", "up"):
            assert [r[key][i] for i in members] == [r["input"][i] for i in members], (r["callers"], key)
            want = spec_out(f"cg.coalesced_shfl_{key}", {"delta": FAR_DELTA}, act, ins)
            assert [want[i] for i in members] == [r["input"][i] for i in members], (r["callers"], key)
