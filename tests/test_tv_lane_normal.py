"""Lane normal forms (verify/smt/lanenormal.py LaneNormal, [S:lane-normal]): HIP's warp
sum and inclusive scan as clang-22 emits them, and 64 chained cross-lane
steps, are proved without the solver comparing lane terms; the normal form
agrees with the terms it came from on random concrete inputs."""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest

from verify import smt
from verify.tv.check import check_file

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "tv"
LLC = shutil.which("llc-22")
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_tv_chains import chain_ir  # noqa: E402

needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")


def verdicts(path: Path, target: str, wave: int, fn: str) -> list[tuple[str, str, int, str]]:
    rs = check_file(str(path), path.read_text(), [target], wave, [str(LLC)], [fn])
    return [(r.function, r.target, r.wave, r.verdict) for r in rs]


@needs_llc
@pytest.mark.parametrize("fn", ["warp_sum", "warp_scan"])
@pytest.mark.slow
def test_hip_warp_reduce_wave32_proved(fn):
    assert verdicts(CORPUS / "clang22_warp_reduce_gfx1030.ll", "gfx1030", 32, fn) == [(fn, "gfx1030", 32, "proved")]


@pytest.mark.slow
@needs_llc
@pytest.mark.parametrize("fn", ["warp_sum", "warp_scan"])
@pytest.mark.parametrize("target", ["gfx1100", "gfx90a"])
def test_hip_warp_reduce_wave64_proved(fn, target):
    assert verdicts(CORPUS / f"clang22_warp_reduce_{target}.ll", target, 64, fn) == [(fn, target, 64, "proved")]


@needs_llc
@pytest.mark.slow
def test_chain_of_64_dpp_steps_proved(tmp_path):
    p = tmp_path / "chain.ll"
    p.write_text(chain_ir("dpp", 64, 32))
    assert verdicts(p, "gfx1030", 32, "chain") == [("chain", "gfx1030", 32, "proved")]


@pytest.mark.slow
@needs_llc
@pytest.mark.parametrize("op", ["swizzle", "permlanex16"])
def test_chain_of_64_steps_proved(tmp_path, op):
    p = tmp_path / "chain.ll"
    p.write_text(chain_ir(op, 64, 32))
    assert verdicts(p, "gfx1030", 32, "chain") == [("chain", "gfx1030", 32, "proved")]


@needs_llc
@pytest.mark.slow
def test_chain_with_a_wrong_step_refuted(tmp_path):
    """A chain whose GPU code reads the wrong lane in one step: refuted, the
    normal forms differing (a fast path must not hide it)."""
    p = tmp_path / "chain.ll"
    text = chain_ir("swizzle", 8, 32)
    p.write_text(text)
    asm = tmp_path / "chain.s"
    import subprocess
    out = subprocess.run([str(LLC), "-mtriple=amdgcn", "-mcpu=gfx1030", "-mattr=+wavefrontsize32", str(p), "-o", "-"],
                         capture_output=True, text=True, check=True).stdout
    bad = out.replace("swizzle(SWAP,1)", "swizzle(SWAP,2)", 1)
    assert bad != out
    asm.write_text(bad)
    rs = check_file(str(p), text, ["gfx1030"], 32, [], ["chain"], asm=(str(asm), bad))
    assert [r.verdict for r in rs] == ["refuted"]
    assert rs[0].cex is not None and any(r.wrong for r in rs[0].cex.rows)


# ---------------------------------------------------------------------------
# the normal form against the terms, concretely


def _random_term(B, rnd: random.Random, xs, es, depth: int):
    if depth <= 0 or rnd.random() < 0.2:
        return rnd.choice(xs + [B.const(rnd.randrange(1 << 32)), B.const(rnd.randrange(4))])
    k = rnd.randrange(8)
    a = _random_term(B, rnd, xs, es, depth - 1)
    b = _random_term(B, rnd, xs, es, depth - 1)
    if k == 0:
        return B.add(a, b)
    if k == 1:
        return B.sub(a, b)
    if k == 2:
        return B.xor(a, b)
    if k == 3:
        return B.shl(a, B.const(rnd.randrange(4)))
    if k == 4:  # a select on an EXEC bit, a conjunction, a negation or a compare
        e = rnd.choice(es)
        c = rnd.choice([e, B.not_b(e), B.and_b(e, rnd.choice(es)), B.or_b(e, rnd.choice(es)), B.ult(a, b)])
        return B.ite(c, a, b)
    if k == 5:  # a lane read at a computed lane (a store chain over 4 lanes)
        lanes = [_random_term(B, rnd, xs, es, depth - 2) for _ in range(4)]
        return B.select(lanes, B.and_(B.add(a, rnd.choice(xs)), B.const(3)))
    if k == 6:
        return B.mul(a, B.const(rnd.randrange(1, 5)))
    return B.add(B.add(a, b), a)


@pytest.mark.parametrize("local", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_normal_form_agrees_with_the_terms(seed, local):
    rnd = random.Random(seed)
    B = smt.Z3()
    xs = [B.fresh(f"x{k}") for k in range(3)]
    es = [B.fresh_bool(f"e{k}") for k in range(4)]
    t = _random_term(B, rnd, xs, es, 6)
    norm = smt.LaneNormal(B.session, es, local=local)
    lane = rnd.randrange(4)
    node = norm.normal(t, lane)
    assert node is not None
    nt = norm.term(node)
    for _ in range(12):
        env: dict[str, int | bool] = {f"x{k}": rnd.randrange(1 << 32) for k in range(3)}
        env.update({f"e{k}": rnd.random() < 0.5 for k in range(4)})
        env[f"e{lane}"] = True  # where the lane runs
        ev = smt.Evaluator(env, B.session)
        assert ev(nt) == ev(t), (seed, env)


def test_normal_form_decides_exec_bits_and_orders_sums():
    B = smt.Z3()
    x, y = B.fresh("x"), B.fresh("y")
    e = B.fresh_lanes("exec", 2, cond=True)
    norm = smt.LaneNormal(B.session, e)
    # the GPU: ite(e1, read + y, y) with read = ite(e0, x, 0); the IR: y + ite(e1 & e0, x, 0)
    gpu = B.ite(e[1], B.add(B.ite(e[0], x, 0), y), y)
    ir = B.add(y, B.ite(B.and_b(e[1], e[0]), x, 0))
    assert norm.normal(gpu, 1) == norm.normal(ir, 1)
    assert norm.normal(gpu, 0) != norm.normal(ir, 0)  # lane 1 may not run: no such claim for lane 0
    # (x + y) + x and x + (x + y): one sum, x twice
    assert norm.normal(B.add(B.add(x, y), x), 0) == norm.normal(B.add(x, B.add(x, y)), 0)



def test_an_exec_bit_read_at_a_computed_lane_is_decided():
    """exec[index], its index a lane only once normal, may be any EXEC bit:
    the memo keys it by every decided bit, so lane i's own bit (and the bits
    the selects around decide) reach it.  It used to be keyed by the bits
    its index mentions, so lane 1's read of exec[1] stayed undecided and an
    8-step ds_bpermute chain (clang's __shfl_xor) went to the solver."""
    import z3

    B = smt.Z3()
    ctx = B.session.ctx
    e = B.fresh_lanes("exec", 4, cond=True)
    x = B.fresh_lanes("x", 4)
    y = B.fresh("y")
    # lane 1's read of EXEC at index ite(e3, 1, y): exec[1] where e3 holds
    t = B.ite(B.select(e, B.ite(e[3], 1, y)), x[0], x[1])
    gpu, ir = B.ite(e[3], t, 0), B.ite(e[3], x[0], 0)
    norm = smt.LaneNormal(B.session, e)
    assert norm.normal(gpu, 1) == norm.normal(ir, 1)
    assert norm.normal(gpu, 0) != norm.normal(ir, 0)  # where lane 0 runs exec[1] is not known

    def value(term, bits: int, yv: int) -> int:  # EXEC's bits, x[k] = 1000 + k, y = yv
        ex = z3.K(z3.BitVecSort(32, ctx), z3.BoolVal(False, ctx))
        xs = z3.K(z3.BitVecSort(32, ctx), z3.BitVecVal(0, 32, ctx))
        for k in range(4):
            ex = z3.Store(ex, z3.BitVecVal(k, 32, ctx), z3.BoolVal(bool(bits >> k & 1), ctx))
            xs = z3.Store(xs, z3.BitVecVal(k, 32, ctx), z3.BitVecVal(1000 + k, 32, ctx))
        subs = [(e[0].arg(0), ex), (x[0].arg(0), xs), (y, z3.BitVecVal(yv, 32, ctx))]
        return term if type(term) is int else z3.simplify(z3.substitute(term, *subs)).as_long()

    for lane in range(4):  # the normal form is the term's value wherever the lane runs
        nt = norm.term(norm.normal(gpu, lane))
        for bits in range(16):
            for yv in range(5):
                if bits >> lane & 1:
                    assert value(nt, bits, yv) == value(gpu, bits, yv), (lane, bits, yv)


@needs_llc
def test_chain_of_8_bpermute_steps_proved(tmp_path):
    """clang's __shfl_xor through ds_bpermute (address from mbcnt, xor, shift),
    8 steps: proved without the solver (0.7 s CPU; unknown after 24 s before
    exec[index] reads were keyed right and memo entries by the bits they
    consulted)."""
    p = tmp_path / "chain.ll"
    p.write_text(chain_ir("bpermute", 8, 32))
    assert verdicts(p, "gfx1030", 32, "chain") == [("chain", "gfx1030", 32, "proved")]


def test_a_ballots_bit_is_its_lanes_condition():
    """`(m >> k) & 1` of a ballot (a concatenation of per-lane bits) is lane
    k's bit: `== 1` (GPU code's v_cmp_eq 1) and the IR's `select c, 1, 0 != 0`
    meet; a neighbouring lane's bit, or a shift that is not a constant, does
    not; the normal form agrees with the term on every condition."""
    import z3

    B = smt.Z3()
    ctx = B.session.ctx
    e = B.fresh_lanes("exec", 4, cond=True)
    cs = [z3.Bool(f"c{k}", ctx) for k in range(4)]
    bits = [z3.If(c, z3.BitVecVal(1, 1, ctx), z3.BitVecVal(0, 1, ctx)) for c in cs]
    m = z3.Concat(z3.BitVecVal(0, 28, ctx), bits[3], bits[2], bits[1], bits[0])
    one = z3.BitVecVal(1, 32, ctx)
    norm = smt.LaneNormal(B.session, e)

    def gpu(k, sh=None):
        return (z3.LShR(m, z3.BitVecVal(k, 32, ctx) if sh is None else sh) & one) == one

    def ir(k):
        return z3.Not(z3.If(cs[k], one, z3.BitVecVal(0, 32, ctx)) == z3.BitVecVal(0, 32, ctx))
    for k in range(4):
        assert norm.normal(gpu(k), 0) == norm.normal(ir(k), 0)
        assert norm.normal(gpu((k + 1) % 4), 0) != norm.normal(ir(k), 0)
    assert norm.normal((m & one) == one, 0) == norm.normal(ir(0), 0)  # (no shift: bit 0)
    assert norm.normal(gpu(0, z3.BitVec("s", 32, ctx)), 0) != norm.normal(ir(0), 0)
    assert norm.normal(z3.LShR(m, z3.BitVecVal(5, 32, ctx)) & one, 0) == norm.normal(B.const(0), 0)
    for k in range(4):  # the normal form's value is the term's, for every condition
        t = z3.LShR(m, z3.BitVecVal(k, 32, ctx)) & one
        nt = norm.term(norm.normal(t, 0))
        for v in range(16):
            subs = [(c, z3.BoolVal(bool(v >> j & 1), ctx)) for j, c in enumerate(cs)]
            assert z3.simplify(z3.substitute(nt, *subs)).as_long() == z3.simplify(z3.substitute(t, *subs)).as_long()


@pytest.mark.parametrize("seed", range(20))
def test_lane_free_facts_agree_with_the_terms(seed):
    """given(P, None): P normalised with no EXEC bit decided; every lane's
    normal form is the term's value wherever that lane runs and P is false
    ([S:lane-normal-given]), in the whole-context and the local mode."""
    rnd = random.Random(1000 + seed)
    B = smt.Z3()
    xs = [B.fresh(f"x{k}") for k in range(3)]
    es = [B.fresh_bool(f"e{k}") for k in range(4)]
    t = _random_term(B, rnd, xs, es, 5)
    p = B.or_b(B.not_b(rnd.choice(es)), B.and_b(B.not_b(rnd.choice(es)), rnd.choice(es)))
    for local in (False, True):
        norm = smt.LaneNormal(B.session, es, local=local)
        if not norm.given(p, None):
            continue
        for lane in range(4):
            node = norm.normal(t, lane)
            assert node is not None
            nt = norm.term(node)
            for _ in range(12):
                env: dict[str, int | bool] = {f"x{k}": rnd.randrange(1 << 32) for k in range(3)}
                env.update({f"e{k}": rnd.random() < 0.5 for k in range(4)})
                env[f"e{lane}"] = True
                ev = smt.Evaluator(env, B.session)
                if ev(p):
                    continue  # (only where P is false)
                assert ev(nt) == ev(t), (seed, local, lane, env)


def test_a_lane_read_is_one_node_however_it_is_reached():
    """Local mode [S:lane-normal-local]: lane 2's value read under exec[2]
    inside a select on exec[3] and inside one on exec[1] is one node (the
    bits decided around it are not its context); the whole-context mode
    makes one node per path."""
    B = smt.Z3()
    e = B.fresh_lanes("exec", 4, cond=True)
    x = B.fresh_lanes("x", 4)
    lane2 = B.add(x[2], B.ite(e[3], x[3], 0))  # lane 2 reads lane 3
    lanes = [x[0], x[1], lane2, x[3]]
    # a read at a computed lane: 2 where lane 0 runs (GPU code's address, written under EXEC)
    read = B.select(lanes, B.and_(B.ite(e[0], B.const(2), B.fresh("old")), B.const(3)))
    t = B.add(B.ite(e[3], read, 0), B.ite(e[1], read, 0))
    for local, nodes in ((True, 1), (False, 2)):
        norm = smt.LaneNormal(B.session, e, local=local)
        norm.normal(t, 0)
        memo = norm._memo[read.get_id()]
        assert len({node for _, _, _, node in memo}) == nodes, (local, memo)


@needs_llc
@pytest.mark.parametrize("op, n, target, wave", [("bpermute", 16, "gfx1030", 32), ("readlane", 32, "gfx1030", 32)])
@pytest.mark.slow
def test_chains_that_revisit_lanes_proved(tmp_path, op, n, target, wave):
    """A ds_bpermute xor butterfly whose masks come round again (16 steps:
    never finished before [S:lane-normal-local]) and a readlane chain
    (32 steps: 2.8 s CPU before the lane-free poison facts, 0.5 s after)."""
    p = tmp_path / "chain.ll"
    p.write_text(chain_ir(op, n, wave))
    assert verdicts(p, target, wave, "chain") == [("chain", target, wave, "proved")]
