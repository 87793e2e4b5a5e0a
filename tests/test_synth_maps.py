"""Lane maps derived once per instruction shape and renamed
(synth.search._MapCache) agree with maps run through the machine for
every register pair."""

import pytest

from verify import target as T
from verify.synth.components import OUT, TMP, X, build
from verify.synth.concrete import NotMovement, Space, component_map, default_masks
from verify.synth.search import _MapCache


def _direct(c, sp, t, wwm, first):
    try:
        return component_map(c, sp, t, wwm, blocks={0} if first else set(range(1, sp.K)))
    except NotMovement:
        return None


def _cached(cache, c, first):
    try:
        return cache.get(c, first)
    except NotMovement:
        return None


@pytest.mark.slow
def test_renamed_maps_equal_machine_runs():
    t = T.get("gfx1100")
    comps = build([t], 32, ["copy", "dpp16", "dpp8", "swizzle", "permlane16", "readlane"])
    sp = Space(32, default_masks(32)[:2])
    for wwm in (False, True):
        cache = _MapCache(sp, t, wwm)
        checked = set()
        for c in comps[::23]:
            for first in (True, False):
                assert _cached(cache, c, first) == _direct(c, sp, t, wwm, first), (c.text(), wwm, first)
            checked.add((c.dst, c.src))
        # every register pair took part: renamed, and aliased (dst == src)
        assert {(OUT, X), (TMP, X), (OUT, TMP), (OUT, OUT), (TMP, TMP)} <= checked


def test_a_map_is_run_once_per_shape():
    t = T.get("gfx900")
    comps = [c for c in build([t], 64, ["dpp16"]) if c.label == "row_shr:1"]
    assert len(comps) == 6  # v1/v2 from v0/v1/v2
    sp = Space(64, default_masks(64)[:2])
    cache = _MapCache(sp, t, False)
    maps = {(c.dst, c.src): cache.get(c, True) for c in comps}
    assert len(cache.refs) == 2  # one shape reads another register, one reads its own
    W = 64
    # row_shr:1: lane 1 of v2 reads lane 0 of v1; lane 0 keeps v2's own lane 0 (bound_ctrl off)
    assert maps[(TMP, OUT)][1] == sp.pos(OUT, 0, 0) and maps[(TMP, OUT)][0] == sp.pos(TMP, 0, 0)
    assert maps[(OUT, X)][W - 1] == sp.pos(X, 0, W - 2)


def test_group_generators_drop_powers_and_keep_the_group():
    # row rotations of an 8-lane toy: ror1 generates ror2 and ror3, so only
    # ror1 and the quad swap stay; the group (and its order) is the same
    from sympy.combinatorics import Permutation, PermutationGroup

    from verify.synth.reach import _without_powers, analyse

    ror = [[(i + k) % 8 for i in range(8)] for k in (1, 2, 3)]
    swap = [i ^ 1 for i in range(8)]
    gens = ror + [swap]
    kept = _without_powers(gens)
    assert [p.array_form for p in kept] == [ror[0], swap]
    assert PermutationGroup(kept).order() == PermutationGroup([Permutation(m) for m in gens]).order()
    r = analyse(gens, [True] * 4, [(i + 5) % 8 for i in range(8)])
    assert r.n_generators == 4 and r.in_group and r.group_order == 32
