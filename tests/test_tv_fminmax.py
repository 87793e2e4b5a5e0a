"""Lane normal forms where the IR is not poison (LaneNormal.given,
[S:lane-normal-given]) and constant folding through float predicates: the
normal form agrees with the term wherever the lane runs and the condition
does not hold, on random terms and inputs."""

from __future__ import annotations

import random

import pytest

from verify import smt


def _atom(B, rnd: random.Random, xs):
    x = rnd.choice(xs)
    k = rnd.randrange(3)
    if k == 0:  # a NaN test as the IR's nnan writes it
        return B.ult(B.const(0x7F800000), B.and_(x, B.const(0x7FFFFFFF)))
    if k == 1:
        return B.fis_nan(x)
    return B.ult(x, B.const(rnd.randrange(1 << 32)))


def _value(B, rnd: random.Random, xs, es, depth: int):
    if depth <= 0 or rnd.random() < 0.2:
        return rnd.choice(xs + [B.const(0x7F800000), B.const(0x7FA00000), B.const(rnd.randrange(1 << 32))])
    a = _value(B, rnd, xs, es, depth - 1)
    b = _value(B, rnd, xs, es, depth - 1)
    k = rnd.randrange(5)
    if k == 0:
        return B.fmin(a, b)
    if k == 1:
        return B.ite(rnd.choice(es), a, b)
    if k == 2:
        return B.ite(_cond(B, rnd, [a, b] + xs, es, 1), B.const(0x7FC00000), a)
    if k == 3:
        return B.add(a, b)
    return B.ite(B.not_b(rnd.choice(es)), a, b)


def _cond(B, rnd: random.Random, xs, es, depth: int):
    if depth <= 0 or rnd.random() < 0.25:
        return _atom(B, rnd, xs)
    k = rnd.randrange(5)
    a = _cond(B, rnd, xs, es, depth - 1)
    b = _cond(B, rnd, xs, es, depth - 1)
    e = rnd.choice(es)
    if k == 0:
        return B.or_b(a, b)
    if k == 1:
        return B.and_b(e, a)
    if k == 2:
        return B.ite(e, a, b)
    if k == 3:
        return B.not_b(B.and_b(B.not_b(a), B.not_b(b)))
    return B.or_b(B.and_b(B.not_b(e), a), b)


@pytest.mark.parametrize("seed", range(60))
def test_normal_form_given_agrees_with_the_term(seed):
    rnd = random.Random(seed)
    B = smt.Z3()
    xs = [B.fresh(f"x{k}") for k in range(3)]
    es = [B.fresh_bool(f"e{k}") for k in range(4)]
    t = _value(B, rnd, xs, es, 5)
    vals = [t, _value(B, rnd, xs, es, 3)]
    cond = _cond(B, rnd, vals + xs, es, 4)
    lane = rnd.randrange(4)
    norm = smt.LaneNormal(B.session, es)
    if not norm.given(cond, lane):
        return
    node = norm.normal(t, lane)
    assert node is not None
    nt = norm.term(node)
    checked = 0
    for _ in range(200):
        env: dict[str, int | bool] = {f"x{k}": rnd.choice([rnd.randrange(1 << 32), 0x7F800001, 0x7FC00000,
                                                             0xFF800000, 0, 0x80000000]) for k in range(3)}
        env.update({f"e{k}": rnd.random() < 0.5 for k in range(4)})
        env[f"e{lane}"] = True  # where the lane runs
        ev = smt.Evaluator(env, B.session)
        if ev(cond):
            continue  # (poison there: nothing claimed)
        checked += 1
        assert ev(nt) == ev(t), (seed, env)


@pytest.mark.parametrize("seed", range(60))
def test_normal_form_given_shared_atoms(seed):
    """The condition and the value test the same atoms under EXEC selects
    (the shape of nnan poison against IEEE-mode quieting): where the lane
    runs and the condition is false, the normal form is the term's value."""
    rnd = random.Random(1000 + seed)
    B = smt.Z3()
    xs = [B.fresh(f"x{k}") for k in range(3)]
    es = [B.fresh_bool(f"e{k}") for k in range(4)]
    atoms = [B.ult(B.const(0x7F800000), B.and_(x, B.const(0x7FFFFFFF))) for x in xs] + [B.ult(xs[0], xs[1])]

    def cond(d):
        if d <= 0 or rnd.random() < 0.3:
            a = rnd.choice(atoms)
            return B.not_b(a) if rnd.random() < 0.2 else a
        e = rnd.choice(es)
        k = rnd.randrange(4)
        if k == 0:
            return B.or_b(cond(d - 1), cond(d - 1))
        if k == 1:
            return B.and_b(e, cond(d - 1))
        if k == 2:
            return B.ite(e, cond(d - 1), cond(d - 1))
        return B.and_b(B.not_b(e), cond(d - 1))

    def value(d):
        if d <= 0 or rnd.random() < 0.2:
            return rnd.choice(xs + [B.const(7)])
        k = rnd.randrange(3)
        if k == 0:
            return B.ite(rnd.choice(es), value(d - 1), value(d - 1))
        if k == 1:
            return B.ite(cond(1), value(d - 1), value(d - 1))
        return B.add(value(d - 1), value(d - 1))

    t, c = value(5), cond(4)
    lane = rnd.randrange(4)
    norm = smt.LaneNormal(B.session, es)
    if not norm.given(c, lane):
        return
    nt = norm.term(norm.normal(t, lane))
    specials = [0x7F800001, 0x7FC00000, 0, 1, 0x80000000, 0x7F800000]
    for _ in range(300):
        env: dict[str, int | bool] = {f"x{k}": rnd.choice(specials + [rnd.randrange(1 << 32)]) for k in range(3)}
        env.update({f"e{k}": rnd.random() < 0.5 for k in range(4)})
        env[f"e{lane}"] = True
        ev = smt.Evaluator(env, B.session)
        if not ev(c):
            assert ev(nt) == ev(t), (seed, env)


def test_given_decides_a_nan_test_under_an_exec_bit():
    """The IR's poison reads lane 0 only where it runs (and(e0, isnan(x0))):
    where it is not poison, the GPU's sNaN test of lane 0's value under e0
    is false, and where e0 is clear nothing is claimed of x0."""
    B = smt.Z3()
    e = B.fresh_lanes("exec", 2, cond=True)
    x0 = B.fresh("x0")
    nan = B.ult(B.const(0x7F800000), B.and_(x0, B.const(0x7FFFFFFF)))
    poison = B.and_b(e[0], nan)
    gpu = B.ite(e[0], B.ite(nan, B.const(0x7FC00000), x0), B.const(0))
    ir = B.ite(e[0], x0, B.const(0))
    norm = smt.LaneNormal(B.session, e)
    assert norm.given(poison, 1)
    assert norm.normal(gpu, 1) == norm.normal(ir, 1)
    # unguarded, the same test is not decided: lane 0 may not run
    bare = smt.LaneNormal(B.session, e)
    assert bare.given(poison, 1)
    assert bare.normal(B.ite(nan, B.const(0x7FC00000), x0), 1) != bare.normal(x0, 1)


def test_float_predicates_of_constants_fold():
    """fpIsNaN(fpToFP(+inf)) as a register's constant reaches it: false."""
    B = smt.Z3()
    e = B.fresh_lanes("exec", 1, cond=True)
    x = B.fresh("x")
    inf = B.ite(e[0], B.const(0x7F800000), B.const(1))  # a term, a constant where the lane runs
    norm = smt.LaneNormal(B.session, e)
    assert norm.normal(B.fmin(x, inf), 0) == norm.normal(B.fmin(x, 0x7F800000), 0)


# ---------------------------------------------------------------------------
# the corpus file's GPU code, broken: refuted (the facts hide no wrong lane)

import shutil  # noqa: E402
import subprocess  # noqa: E402
from pathlib import Path  # noqa: E402

from verify.tv.check import check_file  # noqa: E402

LLC = shutil.which("llc-22")
CHAINS = Path(__file__).resolve().parent / "tv" / "llvm-shape" / "fminmax_dpp_chains.ll"


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.parametrize("old, new", [
    # the last step reads 3 lanes back, not 4
    ("v_mov_b32_dpp v2, v0 row_shr:4", "v_mov_b32_dpp v2, v0 row_shr:3"),
    # the identity of the last step a signaling NaN: IEEE mode quiets it (lanes 0-3 get a NaN)
    ("v_dual_mov_b32 v1, 0x7f800000 :: v_dual_mov_b32 v2, 0x7f800000",
     "v_dual_mov_b32 v1, 0x7f800000 :: v_dual_mov_b32 v2, 0x7fa00000"),
])
@pytest.mark.slow
def test_broken_min_chain_refuted(tmp_path, old, new):
    text = CHAINS.read_text()
    out = subprocess.run([str(LLC), "-mtriple=amdgcn", "-mcpu=gfx1200", "-mattr=+wavefrontsize32", str(CHAINS),
                          "-o", "-"], capture_output=True, text=True, check=True).stdout
    bad = out.replace(old, new, 1)
    assert bad != out
    asm = tmp_path / "chain.s"
    asm.write_text(bad)
    rs = check_file(str(CHAINS), text, ["gfx1200"], 32, [], ["min_chain"], asm=(str(asm), bad))
    assert [r.verdict for r in rs] == ["refuted"]
    assert rs[0].cex is not None and any(r.wrong for r in rs[0].cex.rows)


MINMAX = Path(__file__).resolve().parent / "tv" / "llvm-shape" / "float_min_max.ll"


@pytest.mark.skipif(LLC is None, reason="needs llc-22")
@pytest.mark.slow
def test_lane_local_min_asks_one_lane_and_refutes_a_wrong_op(tmp_path):
    """GFX12 minnum (v_max_num canonicalises, v_min_num): each lane's question
    is lane 0's with the lanes swapped, so one lane is asked, not 32
    ([S:tv-lane-twins]); v_max_num_f32 in its place is still refuted."""
    text = MINMAX.read_text()
    rs = check_file(str(MINMAX), text, ["gfx1200"], 32, [str(LLC)], ["minnum"])
    assert [r.verdict for r in rs] == ["proved"]
    assert rs[0].queries <= 3
    out = subprocess.run([str(LLC), "-mtriple=amdgcn", "-mcpu=gfx1200", "-mattr=+wavefrontsize32", str(MINMAX),
                          "-o", "-"], capture_output=True, text=True, check=True).stdout
    bad = out.replace("v_min_num_f32_e32 v0, v0, v1", "v_max_num_f32_e32 v0, v0, v1", 1)
    assert bad != out
    asm = tmp_path / "minmax.s"
    asm.write_text(bad)
    rs = check_file(str(MINMAX), text, ["gfx1200"], 32, [], ["minnum"], asm=(str(asm), bad))
    assert [r.verdict for r in rs] == ["refuted"]


def test_given_facts_are_one_lanes():
    """Facts assumed where lane 1 is not poison say nothing of lane 0."""
    B = smt.Z3()
    e = B.fresh_lanes("exec", 2, cond=True)
    norm = smt.LaneNormal(B.session, e)
    assert norm.given(B.ult(B.fresh("x"), B.const(5)), 1)
    with pytest.raises(ValueError, match="lane 1's facts asked for lane 0"):
        norm.normal(B.fresh("y"), 0)
