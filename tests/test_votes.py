"""Votes, ballots, lane masks, elect, CUDA vote/match and cooperative-groups
specs (specs/vote.spec, specs/cuda_vote.spec), the scalar compares and
selects they lower to, and the lowerings in lowerings/vote/.  [S:vote-specs]
[S:cuda-vote] [S:salu-cmp] [S:vopc-f32]"""

from __future__ import annotations

import importlib.util
import random
import struct
from pathlib import Path

import pytest
from helpers import cli_json, simulate

from verify import catalog, smt
from verify.backend import Concrete

LIB = catalog.speclib()
ROOT = Path(__file__).resolve().parent.parent
M32 = 0xFFFFFFFF

_cv = importlib.util.spec_from_file_location("_check_votes", ROOT / "tests" / "gpu" / "check_votes.py")
assert _cv is not None and _cv.loader is not None
check_votes = importlib.util.module_from_spec(_cv)
_cv.loader.exec_module(check_votes)


def ev(name: str, wave: int, mask: int, params: dict | None = None, **inputs: list[int]) -> dict[str, list]:
    """Concrete outputs, None where undefined or inactive."""
    act = [bool(mask >> i & 1) for i in range(wave)]
    inputs.setdefault("x", [0] * wave)
    r = LIB.evaluate(name, params or {}, Concrete(), wave, inputs, act)
    return {o: [v if d and act[i] else None for i, (v, d) in enumerate(zip(*r[o]))] for o in r}


def fbits(x: float) -> int:
    return int(struct.unpack("<I", struct.pack("<f", x))[0])


NAN, PZ, NZ = 0x7FC00000, 0, 0x80000000

# ---------------------------------------------------------------- specs, concretely


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ballot_is_the_active_lanes_whose_predicate_holds(wave, seed):
    rnd = random.Random(seed)
    x = [rnd.choice([0, 1, 0x80000000, 7]) for _ in range(wave)]
    mask = rnd.getrandbits(wave) | 1
    b = sum(1 << j for j in range(wave) if mask >> j & 1 and x[j])
    r = ev("vote.ballot", wave, mask, x=x)
    assert r["lo"][0] == b & M32 and r["hi"][0] == b >> 32
    assert ev("vote.ballot_first_n", wave, mask, {"n": 16}, x=x)["out"][0] == b & 0xFFFF


def test_votes_over_active_and_over_all():
    x = [1] * 32
    x[5] = 0
    assert ev("vote.all_true", 32, ~(1 << 5) & M32, x=x)["out"][0] == 1  # lane 5 does not vote
    assert ev("vote.all_true", 32, M32, x=x)["out"][0] == 0
    assert ev("vote.all_true", 32, ~(1 << 5) & M32, {"over": "all"}, x=x)["out"][0] is None  # reads lane 5
    assert ev("vote.any_true", 32, 1 << 5, x=[0] * 5 + [0] + [9] * 26)["out"][5] == 0
    tiles = ev("vote.any_true_tiled", 32, M32, {"width": 8}, x=[0] * 8 + [0] * 7 + [1] + [0] * 16)["out"]
    assert tiles == [0] * 8 + [1] * 8 + [0] * 16


def test_all_equal_int_and_float():
    assert ev("vote.all_equal", 32, 0b110, x=[1, 5, 5] + [0] * 29)["out"][1] == 1  # lane 0 inactive
    assert ev("vote.all_equal", 32, 0b111, x=[1, 5, 5] + [0] * 29)["out"][1] == 0
    signed_zeros = [PZ if i % 2 else NZ for i in range(32)]
    assert ev("vote.all_equal_f32", 32, M32, x=signed_zeros)["out"][0] == 1  # +0.0 == -0.0
    assert ev("vote.all_equal", 32, M32, x=signed_zeros)["out"][0] == 0  # but not as integers
    assert ev("vote.all_equal_f32", 32, 1, x=[NAN] * 32)["out"][0] == 0  # NaN != NaN, itself included
    assert ev("vote.all_equal_f32", 32, M32, x=[fbits(1.5)] * 32)["out"][0] == 1


def test_elect_invocation_id_readfirstlane():
    mask = 0b1011000
    assert ev("vote.elect", 64, M32 | 1 << 40)["out"][:2] == [1, 0]
    assert ev("vote.elect", 64, mask)["out"][3] == 0  # Quadrants' elect: lane 0 only
    assert [i for i, v in enumerate(ev("vote.elect_active", 64, mask)["out"]) if v] == [3]
    assert ev("vote.invocation_id", 64, (1 << 64) - 1)["out"] == list(range(64))
    assert set(ev("vote.readfirstlane", 64, mask, x=list(range(100, 164)))["out"]) - {None} == {103}


@pytest.mark.parametrize("wave", [32, 64])
def test_lanemasks(wave):
    ids = list(range(wave + 3))[:wave]
    ids[-1], ids[-2] = wave, 1000  # outside the wave: undefined
    full = (1 << wave) - 1
    want = {"lt": lambda k: (1 << k) - 1, "le": lambda k: (1 << (k + 1)) - 1, "eq": lambda k: 1 << k,
            "gt": lambda k: full & ~((1 << (k + 1)) - 1), "ge": lambda k: full & ~((1 << k) - 1)}
    for name, fn in want.items():
        r = ev(f"vote.lanemask_{name}", wave, full, id=ids)
        for i, k in enumerate(ids):
            got = None if r["lo"][i] is None else r["lo"][i] | (r["hi"][i] << 32)
            assert got == (fn(k) if k < wave else None), (name, k)


def test_wave_reduce_sub_and_fsub():
    assert ev("wave.reduce_sub", 32, 0b111, x=[2, 3, 4] + [100] * 29)["out"][0] == (-9) & M32
    r = ev("wave.reduce_fsub", 32, 0b11, x=[fbits(1.5), fbits(0.25)] + [fbits(9.0)] * 30)["out"][0]
    assert r == fbits(-1.75)
    assert ev("wave.reduce_fsub", 32, 1, x=[NZ] * 32)["out"][0] == PZ  # +0.0 - (-0.0) = +0.0


@pytest.mark.parametrize("seed", range(6))
def test_cuda_votes_and_matches_agree_with_the_documented_model(seed):
    rnd = random.Random(seed)
    mask = rnd.choice([M32, 0xFFFF, 0x80000001, rnd.getrandbits(32)])
    callers = rnd.choice([M32, 0xFFFFFFF0, rnd.getrandbits(32)])
    pred = [rnd.choice([0, 1, 0x80000000]) for _ in range(32)]
    act = mask & callers
    want = check_votes.vote_model(mask, callers, pred)
    for spec, key in (("cuda.ballot", "ballot"), ("cuda.any", "any"), ("cuda.all", "all")):
        assert ev(spec, 32, act, {"mask": mask}, x=pred)["out"] == want[key], spec
    assert ev("cuda.activemask", 32, act)["out"] == want["activemask"]
    value = [rnd.randrange(3) for _ in range(32)]
    want = check_votes.match_model(mask, callers, value)
    assert ev("cuda.match_any", 32, act, {"mask": mask}, x=value)["out"] == want["any"]
    r = ev("cuda.match_all", 32, act, {"mask": mask}, x=value)
    assert r["out"] == want["all"] and r["pred"] == want["all_pred"]
    same = [5] * 32
    assert ev("cuda.match_all", 32, act, {"mask": mask}, x=same)["out"] == check_votes.match_model(mask, callers, same)["all"]


@pytest.mark.slow
def test_cg_f32_orders():
    xs = [fbits(v) for v in [1e8, 1.0, -1e8, 1.0] * 8]
    seq = ev("cg.inclusive_scan_f32_seq", 32, M32, x=xs)["out"]
    hs = ev("cg.inclusive_scan_f32_hs", 32, M32, x=xs)["out"]
    assert seq[3] == fbits(1.0) and hs[3] == fbits(0.0)  # (1e8 + 1) + (-1e8 + 1) loses both ones
    for w in (4, 8, 32):
        for i in range(32):
            tile = xs[i - i % w:i + 1]
            assert ev("cg.inclusive_scan_f32", 32, M32, {"width": w}, x=xs)["out"][i] == \
                check_votes.fold_hs(check_votes._fadd, tile)
        red = ev("cg.reduce_f32", 32, M32, {"width": w}, x=xs)["out"]
        assert red[0] == check_votes.bfly(check_votes._fadd, xs[:w], 0)  # NVIDIA's order (H100 recording)
    assert ev("cg.exclusive_scan", 32, M32, {"op": "add", "width": 8}, x=list(range(32)))["out"][:3] == [None, 0, 1]


@pytest.mark.parametrize("name,params,wave", [("vote.ballot", {}, 64), ("vote.all_equal_f32", {}, 32),
                                              ("vote.lanemask_gt", {}, 64), ("cuda.match_all", {"mask": 0xFF00FF0F}, 32),
                                              ("vote.elect_active", {}, 32), ("cg.inclusive_scan_f32_hs", {"width": 8}, 32)])
def test_concrete_and_symbolic_agree(name, params, wave):
    rnd = random.Random(name)
    spec = LIB.get(name)
    mask = rnd.getrandbits(wave) | 1
    pool = [0, 1, NAN, PZ, NZ, fbits(1e8), fbits(1.0)]
    vals = {n: [rnd.choice(pool) if n == "x" else rnd.randrange(wave + 2) for _ in range(wave)] for n in spec.inputs}
    act = [bool(mask >> i & 1) for i in range(wave)]
    conc = LIB.evaluate(name, params, Concrete(), wave, vals, act)
    B = smt.Z3()
    syms = {n: [B.fresh(f"{n}{i}") for i in range(wave)] for n in spec.inputs}
    bits = [B.fresh_bool(f"e{i}") for i in range(wave)]
    sym = LIB.evaluate(name, params, B, wave, syms, bits)
    env = {f"{n}{i}": vals[n][i] for n in spec.inputs for i in range(wave)}
    env.update({f"e{i}": act[i] for i in range(wave)})
    E = smt.Evaluator(env)
    for o in spec.outputs:
        for i in range(wave):
            assert bool(E(sym[o][1][i])) == bool(conc[o][1][i]), (o, i, "defined")
            if conc[o][1][i]:
                assert E(sym[o][0][i]) == conc[o][0][i], (o, i)


# ---------------------------------------------------------------- the new scalar ops


def test_s_cmp_and_s_cselect():
    m = simulate(["s_cmp_lg_u64 s[0:1], 0", "s_cselect_b64 s[2:3], -1, 0",
                  "s_cmp_lt_i32 s4, s5", "s_cselect_b32 s6, 7, 9"], "gfx942", 64, M32,
                 {"s0": 0, "s1": 1, "s4": 0xFFFFFFFF, "s5": 1})
    assert (m.sregs["s2"], m.sregs["s3"]) == (M32, M32)
    assert m.sregs["s6"] == 7  # -1 < 1 signed
    m = simulate(["s_cmp_lt_u32 s4, s5", "s_cselect_b32 s6, 7, 9", "s_cmp_eq_u64 s[0:1], 0",
                  "s_cselect_b32 s7, 1, 2"], "gfx1100", 32, M32, {"s4": 0xFFFFFFFF, "s5": 1})
    assert m.sregs["s6"] == 9 and m.sregs["s7"] == 1


def test_v_cmp_f32_predicates():
    a = [PZ, NAN, fbits(1.0), fbits(1.0), NZ, NAN]
    b = [NZ, NAN, fbits(1.0), fbits(2.0), fbits(1.0), fbits(1.0)]
    regs = {"v0": a + [0] * 26, "v1": b + [0] * 26}
    want = {"eq": [1, 0, 1, 0, 0, 0], "neq": [0, 1, 0, 1, 1, 1], "lg": [0, 0, 0, 1, 1, 0],
            "nlg": [1, 1, 1, 0, 0, 1], "o": [1, 0, 1, 1, 1, 0], "u": [0, 1, 0, 0, 0, 1]}
    for op, bits in want.items():
        m = simulate([f"v_cmp_{op}_f32_e64 s0, v0, v1"], "gfx1100", 32, 0x3F, regs)
        assert [m.sregs["s0"] >> i & 1 for i in range(6)] == bits, op
    m = simulate(["v_cmp_eq_f32_e64 s0, v0, v1"], "gfx1100", 32, 0x1, {"v0": 1, "v1": 0},
                 {"f32.denormals": "flush"})
    assert m.sregs["s0"] == 1  # the smallest subnormal flushes to +0.0


# ---------------------------------------------------------------- lowerings


def _prove(path: str, target: str, wave: int) -> dict:
    code, js, err = cli_json("lowering", path, "--target", target, "--wave", str(wave))
    assert js is not None, err
    return js


@pytest.mark.slow
@pytest.mark.parametrize("name,target,wave", [
    ("ballot_w64", "gfx942", 64), ("ballot_w32", "gfx1100", 32), ("elect_mbcnt_gfx12", "gfx1200", 64),
    ("invocation_id_w32", "gfx1030", 32), ("all_true_w64", "gfx90a", 64), ("all_equal_f32_w32", "gfx1100", 32),
    ("lanemask_lt_gfx94", "gfx942", 64), ("cuda_ballot_w32", "gfx1200", 32)])
def test_vote_lowering_is_proved(name, target, wave):
    js = _prove(str(ROOT / "lowerings" / "vote" / f"{name}.s"), target, wave)
    assert js["verdict"] == "proved", js["results"][0]["obligations"]


BROKEN = {
    # elect as the lowest ACTIVE lane claimed as Quadrants' elect (lane 0): lane 1 alone active gets 1
    "elect_ff1": ("vote.elect", "gfx942", 64, "v2", """
s_ff1_i32_b64 s0, exec
v_mbcnt_lo_u32_b32 v1, -1, 0
v_mbcnt_hi_u32_b32 v1, -1, v1
v_cmp_eq_u32_e32 vcc, s0, v1
s_nop 1
v_cndmask_b32_e64 v2, 0, 1, vcc""", "0x0000000000000002", [1]),
    # all_true comparing the ballot with all ones instead of EXEC: wrong once a lane is inactive
    "all_true_vs_ones": ("vote.all_true", "gfx1100", 32, "v1", """
v_cmp_ne_u32_e64 s2, 0, v0
s_cmp_eq_u32 s2, -1
s_cselect_b32 s2, -1, 0
v_cndmask_b32_e64 v1, 0, 1, s2""", "0x00000001", [0]),
    # all_equal on f32 with an integer compare: a lone NaN lane equals itself as bits
    "all_equal_f32_as_int": ("vote.all_equal_f32", "gfx1100", 32, "v1", """
v_readfirstlane_b32 s2, v0
v_cmp_ne_u32_e64 s2, s2, v0
s_mov_b32 s3, 0
s_cmp_eq_u64 s[2:3], 0
s_cselect_b32 s2, -1, 0
v_cndmask_b32_e64 v1, 0, 1, s2""", "0x00000001", [0]),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_vote_lowering_is_refuted(name, tmp_path):
    spec, target, wave, out, body, exec_mask, lanes = BROKEN[name]
    fam = {"gfx942": "gfx9", "gfx1100": "gfx11"}[target]
    p = tmp_path / f"{name}.s"
    p.write_text(f"; @spec     {spec}\n; @targets  {fam}\n; @waves    {wave}\n; @exec     any\n"
                 f"; @input    x = v0\n; @output   out = {out}\n; @clobbers v1, v2, vcc, s[0:3]\n{body.strip()}\n")
    js = _prove(str(p), target, wave)
    assert js["verdict"] == "refuted"
    cex = js["results"][0]["counterexample"]
    assert cex["obligation"] == "value(out)"
    assert cex["exec"] == exec_mask and cex["active_lanes"] == lanes
    if name == "all_equal_f32_as_int":
        assert (cex["inputs"]["v0"][0] & 0x7FFFFFFF) > 0x7F800000  # a NaN
