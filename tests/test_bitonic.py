"""bitonic_sort_kv: the spec against Python's sort, the network argument
(verify/sortnet.py, docs/bitonic.md) on the Quadrants lowerings, and broken
variants refuted with a counterexample."""

import io
import random
from pathlib import Path

import pytest

from lowerings._gen.bitonic import lowering
from verify import catalog, smt
from verify.backend import Concrete
from verify.cli import main
from verify.refine import check_lowering
from verify.sortnet import bitonic_layers, network_sorts, stages
from verify.target import resolve

LIB = catalog.speclib()
SPEC = "quadrants.bitonic_sort_kv"


def _s32(v):
    return v - (1 << 32) if v & 0x80000000 else v


def _sorted_by_python(keys, vals, n, signed):
    order = _s32 if signed else (lambda v: v)
    out = []
    for b in range(0, len(keys), n):
        out += sorted(zip(keys[b:b + n], vals[b:b + n]), key=lambda p: (order(p[0]), order(p[1])))
    return out


@pytest.mark.parametrize("log2,signed", [(1, 1), (3, 1), (3, 0), (5, 1), (5, 0)])
def test_spec_is_the_sorted_permutation(log2, signed):
    rnd = random.Random(log2 * 2 + signed)
    for _ in range(3):
        keys = [rnd.choice([0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF]) for _ in range(32)]
        vals = [rnd.choice([0, 5, 0xFFFFFFFF, 0x80000000]) for _ in range(32)]
        r = LIB.evaluate(SPEC, {"log2_size": log2, "signed": signed}, Concrete(), 32,
                         {"key": keys, "value": vals}, [True] * 32)
        assert all(r["okey"][1]) and all(r["ovalue"][1])
        assert list(zip(r["okey"][0], r["ovalue"][0])) == _sorted_by_python(keys, vals, 1 << log2, signed)


def test_spec_ties_break_on_value_and_a_missing_lane_is_undefined():
    keys = [2, 1, 2, 1] * 8
    vals = [9, 8, 3, 0xFFFFFFFF] * 8  # -1 sorts before 8 as i32
    r = LIB.evaluate(SPEC, {"log2_size": 2}, Concrete(), 32, {"key": keys, "value": vals}, [True] * 32)
    assert r["okey"][0][:4] == [1, 1, 2, 2] and r["ovalue"][0][:4] == [0xFFFFFFFF, 8, 3, 9]
    r = LIB.evaluate(SPEC, {"log2_size": 2}, Concrete(), 32, {"key": keys, "value": vals}, [False] + [True] * 31)
    assert r["okey"][1][:8] == [False] * 4 + [True] * 4


def test_spec_concrete_and_symbolic_agree():
    rnd = random.Random(3)
    keys = [rnd.choice([0, 1, 0xFFFFFFFF]) for _ in range(32)]
    vals = [rnd.choice([0, 2, 0x80000000]) for _ in range(32)]
    conc = LIB.evaluate(SPEC, {"log2_size": 2}, Concrete(), 32, {"key": keys, "value": vals}, [True] * 32)
    B = smt.Z3()
    ks, vs = [B.fresh(f"k{i}") for i in range(32)], [B.fresh(f"v{i}") for i in range(32)]
    sym = LIB.evaluate(SPEC, {"log2_size": 2}, B, 32, {"key": ks, "value": vs}, [True] * 32)
    ev = smt.Evaluator({**{f"k{i}": keys[i] for i in range(32)}, **{f"v{i}": vals[i] for i in range(32)}})
    for o in ("okey", "ovalue"):
        assert [ev(t) for t in sym[o][0]] == conc[o][0]


def test_layers_are_batchers():
    assert bitonic_layers(8) == [(1, 2), (2, 4), (1, 4), (4, 8), (2, 8), (1, 8)]
    assert [len(bitonic_layers(1 << k)) for k in range(1, 7)] == [1, 3, 6, 10, 15, 21]
    assert all(network_sorts(1 << k, 30) == "unsat" for k in range(1, 6))


def test_stages_end_where_key_and_value_are_written():
    low = catalog.load("bitonic_t8_w32")
    cuts = stages(low, 0, 1)
    assert len(cuts) == 6 and cuts[0][0] == 0 and cuts[-1][1] == len(low.program)


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    return main(argv, out, err), out.getvalue(), err.getvalue()


def test_lowering_proves_by_the_network_argument():
    rc, out, _ = _run(["lowering", "bitonic_t4_w32", "--target", "gfx1100"])
    assert rc == 0, out
    assert "proved for gfx1100 wave32 under exec=full" in out
    assert "claim: sorted by the network argument" in out


def _mutant(tmp_path: Path, name: str, **kw: int) -> str:
    p = tmp_path / f"{name}.s"
    p.write_text(lowering(8, 32, **kw))
    return str(p)


def test_a_wrong_direction_bit_is_refuted(tmp_path):
    rc, out, _ = _run(["lowering", _mutant(tmp_path, "flip", flip=4), "--target", "gfx1100"])
    assert rc == 1
    assert "stage(5: stride 2, block 8): refuted" in out
    assert "counterexample (value(okey))" in out
    assert "okey[4]  0x0         0x5 " in out
    # the flipped stage's direction mask (line 70: 0xcccccccc where 0x33333333 is right) is named for the
    # lanes whose value it alone decides; an earlier stage's mask can be named where one bit there also fixes it
    assert "line 70 s_xor_b32: s4[25] = 0, the mask of line 72 v_cndmask_b32_e64 for v1[25]" in out


def test_a_dropped_stage_is_refuted(tmp_path):
    rc, out, _ = _run(["lowering", _mutant(tmp_path, "drop", drop=2), "--target", "gfx1100"])
    assert rc == 1
    assert "stages: refuted: the lowering has 5 stages" in out
    assert "okey[19]  0x0       0x1 key[20]" in out


def test_the_network_argument_needs_a_full_exec(tmp_path):
    p = tmp_path / "anyexec.s"
    p.write_text(lowering(2, 32).replace("; @exec     full", "; @exec     any"))
    rc, _, err = _run(["lowering", str(p), "--target", "gfx1100"])
    assert rc == 2
    assert err.strip() == f"{p}:9:13: error: anyexec: a sort (quadrants.bitonic_sort_kv) is proved under '@exec full' only " \
                          "(Quadrants' contract: every lane active)"


@pytest.mark.slow
@pytest.mark.parametrize("name,target", [("bitonic_t64_w64_gfx9", "gfx942"), ("bitonic_t64_w64_gfx11", "gfx1100"),
                                         ("bitonic_t32_w32", "gfx1100"), ("bitonic_t32_w64", "gfx942")])
def test_wave_sized_sorts_prove(name, target):
    low = catalog.load(name)
    rs = check_lowering(low, resolve(target), list(low.waves))
    assert [r.verdict for r in rs] == ["proved"] * len(rs)
    assert all(o.verdict == "proved" for r in rs for o in r.obligations)


def test_signed_compares_against_an_unsigned_spec_are_refuted(tmp_path):
    p = tmp_path / "signedness.s"
    p.write_text(lowering(4, 32).replace("log2_size=2", "log2_size=2 signed=0"))
    rc, out, _ = _run(["lowering", str(p), "--target", "gfx1100"])
    assert rc == 1
    assert "stage(1: stride 1, block 2): refuted" in out
    assert "counterexample (value(okey))" in out
