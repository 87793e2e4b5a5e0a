"""The CUDA vote, match, 64-bit shuffle and cooperative-groups specs against
the H100 recording tests/data/cuda_h100_votes.json (made by
tests/gpu/run_vote_probe.sh).  No GPU needed; the recording tests skip when
the file has not been recorded.  The checker itself is tested on a model
recording (tests/gpu/check_votes.py: model_recording)."""

from __future__ import annotations

import importlib.util
import json
import os
import random
from typing import Any

import pytest

from verify import catalog, smt
from verify.backend import Concrete
from verify.diag import InputError

_HERE = os.path.dirname(os.path.abspath(__file__))
_DATA = os.path.join(_HERE, "..", "data", "cuda_h100_votes.json")
_spec = importlib.util.spec_from_file_location("_gpu_check_votes", os.path.join(_HERE, "check_votes.py"))
assert _spec is not None and _spec.loader is not None
check_votes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_votes)

LIB = catalog.speclib()
M32 = 0xFFFFFFFF


def spec_out(name: str, params: dict[str, Any], active_mask: int, x: list[int], output: str = "out",
             f32: bool = False) -> list[int | None]:
    act = [bool(active_mask >> i & 1) for i in range(32)]
    r = LIB.evaluate(name, params, Concrete(), 32, {"x": x}, act)[output]
    return [v if d and act[i] else None for i, (v, d) in enumerate(zip(*r))]


def vote_mismatches(data: dict[str, Any]) -> list[str]:
    """Every recorded vote/match value the CUDA specs do not predict."""
    bad = []
    for n, r in enumerate(data["votes"]):
        mask, callers = int(r["mask"], 16), int(r["callers"], 16)
        act = mask & callers
        for spec, key in (("cuda.ballot", "ballot"), ("cuda.any", "any"), ("cuda.all", "all")):
            want = spec_out(spec, {"mask": mask}, act, r["pred"])
            got = [v if act >> i & 1 else None for i, v in enumerate(r[key])]
            if got != want:
                bad.append(f"votes[{n}] {spec} mask={r['mask']} callers={r['callers']}: H100 {got} spec {want}")
        for key, a in (("activemask", act), ("entry", callers)):
            want = spec_out("cuda.activemask", {}, a, [0] * 32)
            got = [v if a >> i & 1 else None for i, v in enumerate(r[key])]
            if got != want:
                bad.append(f"votes[{n}] cuda.activemask ({key}) callers={r['callers']}: H100 {got} spec {want}")
    for n, r in enumerate(data["match"]):
        mask, callers = int(r["mask"], 16), int(r["callers"], 16)
        act = mask & callers
        for spec, key, out in (("cuda.match_any", "any", "out"), ("cuda.match_all", "all", "out"),
                               ("cuda.match_all", "all_pred", "pred")):
            want = spec_out(spec, {"mask": mask}, act, r["value"], out)
            got = [v if act >> i & 1 else None for i, v in enumerate(r[key])]
            if got != want:
                bad.append(f"match[{n}] {spec}.{out} mask={r['mask']} callers={r['callers']}: H100 {got} spec {want}")
    return bad


def shfl64_mismatches(data: dict[str, Any]) -> list[str]:
    """A 64-bit shuffle is the 32-bit cuda.shfl_* spec applied to each half."""
    bad = []
    names = {"idx": ("cuda.shfl_idx", "lane"), "up": ("cuda.shfl_up", "delta"),
             "down": ("cuda.shfl_down", "delta"), "xor": ("cuda.shfl_xor", "mask")}
    for n, r in enumerate(data["shfl64"]):
        spec, pname = names[r["kind"]]
        mask = int(r["mask"], 16)
        params = {pname: r["param"], "width": r["width"]}
        lo = spec_out(spec, params, mask, [v & M32 for v in r["input"]])
        hi = spec_out(spec, params, mask, [v >> 32 for v in r["input"]])
        for i in range(32):
            if lo[i] is not None and hi[i] is not None and r["output"][i] != (hi[i] << 32 | lo[i]):
                bad.append(f"shfl64[{n}] {r['type']} {r['kind']} w={r['width']} p={r['param']} lane {i}: "
                           f"H100 {r['output'][i]:#018x} spec {hi[i] << 32 | lo[i]:#018x}")
                break
    return bad


CG_F32 = {"inclusive": "cg.inclusive_scan_f32", "exclusive": "cg.exclusive_scan_f32", "reduce": "cg.reduce_f32"}
CG_I32 = {"inclusive": "cg.inclusive_scan", "exclusive": "cg.exclusive_scan", "reduce": "cg.reduce"}
CG_OPS = {"plus": ("fadd", "add"), "less": ("less", "smin"), "greater": ("greater", "smax"), "bit_xor": (None, "xor")}


def cg_mismatches(data: dict[str, Any]) -> list[str]:
    """cg results against the specs that name NVIDIA's order (f32) or the
    integer result, every lane (a tile's lanes may differ: cg::less on a
    pair of zeros); NaN equals NaN.  cg::less/greater on floats are the
    specs' `less`/`greater` (a < b ? a : b), not IEEE min/max."""
    bad = []
    for n, r in enumerate(data["cg"]):
        fop, iop = CG_OPS[r["op"]]
        op = fop if r["type"] == "f32" else iop
        if op is None:
            continue
        for key, spec in (CG_F32 if r["type"] == "f32" else CG_I32).items():
            want = spec_out(spec, {"op": op, "width": r["width"]}, M32, r["input"])
            for i in range(32):
                if want[i] is not None and not check_votes.same_f32(want[i], r[key][i]):
                    bad.append(f"cg[{n}] {r['type']} {r['op']} w={r['width']} {key} lane {i}: "
                               f"H100 {r[key][i]:#010x} spec {spec} {want[i]:#010x}")
                    break
    return bad


# ---------------------------------------------------------------- without a GPU


@pytest.mark.slow
def test_model_recording_passes_the_checker_and_the_specs():
    data = check_votes.model_recording()
    assert check_votes.schema_errors(data) == []
    bad, counts = check_votes.check(data)
    assert bad == []
    assert counts["f32.plus.inclusive.hs"] == 2
    assert vote_mismatches(data) == []
    assert shfl64_mismatches(data) == []
    assert cg_mismatches(data) == []


@pytest.mark.slow
def test_checker_catches_a_wrong_ballot_and_a_wrong_order():
    data = check_votes.model_recording()
    data["votes"][1]["ballot"] = [None if v is None else v ^ 1 for v in data["votes"][1]["ballot"]]
    assert any(b.startswith("votes[1].ballot") for b in check_votes.check(data)[0])
    assert any("cuda.ballot" in b for b in vote_mismatches(data))
    cg = next(r for r in check_votes.model_recording()["cg"] if r["type"] == "f32" and r["op"] == "plus")
    cg["inclusive"] = [check_votes.fold_seq(check_votes._fadd, cg["input"][i - i % cg["width"]:i + 1])
                       for i in range(32)]
    orders = check_votes.cg_orders(cg)["inclusive"]
    assert "seq" in orders


def test_cg_f32_specs_are_nvidias_orders() -> None:
    """reduce: the xor butterfly from the widest stride, `partner op own`;
    (1e8 + -1e8) + (1 + 1) keeps both ones where adjacent pairs lose them.
    cg::less on a pair of zeros gives its second operand, so a tile's lanes
    can differ; fmin (v_min_f32's -0 < +0) is not cg::less and is refused."""
    xs = [check_votes.f32_bits(v) for v in [1e8, 1.0, -1e8, 1.0] * 8]
    assert spec_out("cg.reduce_f32", {"width": 4}, M32, xs)[:4] == [0x40000000] * 4
    assert spec_out("cg.reduce_f32_tree", {"width": 4}, M32, xs)[:4] == [0] * 4
    zs = [0x80000000, 0, 0x80000000, 0x80000000] * 8
    for op in ("less", "greater"):  # a pair of zeros: each step keeps the lane's own
        assert spec_out("cg.reduce_f32", {"op": op, "width": 4}, M32, zs)[:4] == zs[:4]
        assert [check_votes.bfly(check_votes.F_OPS[op], zs[:4], k) for k in range(4)] == zs[:4]
    with pytest.raises(InputError, match="op must be fadd, less or greater"):
        spec_out("cg.reduce_f32", {"op": "fmin", "width": 4}, M32, xs)


@pytest.mark.parametrize("name,op", [("cg.reduce_f32", "less"), ("cg.inclusive_scan_f32", "greater"),
                                     ("cg.exclusive_scan_f32", "fadd")])
def test_cg_f32_concrete_and_symbolic_agree(name: str, op: str) -> None:
    """The specs' own f32 compare (less/greater) means the same on both backends."""
    rnd = random.Random(name)
    pool = [0, 0x80000000, 0x7FC00000, 0xFFC00001, 0x80000001, 1, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000]
    xs = [rnd.choice(pool) for _ in range(32)]
    act = [True] * 32
    params = {"op": op, "width": 8}
    conc = LIB.evaluate(name, params, Concrete(), 32, {"x": xs}, act)["out"]
    B = smt.Z3()
    syms = [B.fresh(f"x{i}") for i in range(32)]
    sym = LIB.evaluate(name, params, B, 32, {"x": syms}, act)["out"]
    E = smt.Evaluator({f"x{i}": xs[i] for i in range(32)})
    for i in range(32):
        assert bool(E(sym[1][i])) == bool(conc[1][i]), (i, "defined")
        if conc[1][i]:
            assert E(sym[0][i]) == conc[0][i], i


def test_schema_errors_name_the_field():
    data = check_votes.model_recording()
    data["shfl64"][0]["output"] = [1] * 31
    data["votes"][0]["mask"] = "ffff"
    errs = check_votes.schema_errors(data)
    assert "votes[0].mask: bad value 'ffff'" in errs
    assert "shfl64[0].output: not 32 u64 values" in errs


# ---------------------------------------------------------------- the recording


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    if not os.path.exists(_DATA):
        pytest.skip("tests/data/cuda_h100_votes.json not recorded (tests/gpu/run_vote_probe.sh on an H100)")
    with open(_DATA) as f:
        return dict(json.load(f))


def test_recording_schema(data):
    assert check_votes.schema_errors(data) == []


@pytest.mark.slow
def test_votes_and_matches_agree_with_the_specs(data):
    assert vote_mismatches(data)[:5] == []


@pytest.mark.slow
def test_64bit_shuffles_move_both_halves_from_one_lane(data):
    assert shfl64_mismatches(data)[:5] == []


@pytest.mark.slow
def test_cooperative_groups_agree_with_the_specs(data):
    assert cg_mismatches(data)[:5] == []


def test_the_recording_names_one_f32_order(data: dict[str, Any]) -> None:
    """Every f32 plus record: the scans are Hillis-Steele and reduce the
    descending butterfly, and no other candidate order explains them all."""
    bad, counts = check_votes.check(data)
    assert bad == []
    every = check_votes.orders_matching_all(data, counts)
    assert every["f32.plus.reduce"] == ["bfly"]
    assert every["f32.plus.inclusive"] == every["f32.plus.exclusive"] == ["hs"]
    assert every["f32.less.reduce"] == every["f32.greater.reduce"] == ["bfly"]
