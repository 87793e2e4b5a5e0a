"""Every spec of the library, the user's VERIFY_PATH ones included, runs the
same concretely and symbolically: one test that enumerates the library, so
a new spec is checked with no list to keep.

Parameters are found, not listed: each spec's parameters are tried from a
small fixed grid (its defaults, the integers specs take as masks, deltas,
widths and lanes, the operator names, and a per-lane `@p`), in a fixed
order, and the first combinations its `require`s and its evaluation accept
are the ones checked.  Hypothesis then draws the wave, the EXEC mask and the
lane values, derandomised (tests/conftest.py's profiles).
"""

from __future__ import annotations

import ast
import itertools
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from verify import catalog, smt
from verify.backend import Concrete
from verify.diag import InputError
from verify.spec import OPS, WIDE_TYPES

LIB = catalog.speclib()
INTS = [1, 5, 16, 0, 2, 3, 8, 31, -1, 32, 4, 7, 63]
TEXTS = sorted(OPS) + ["@p", "i ^ 1"]  # "i ^ 1": a lane formula (lane.map)
KEEP = 3  # parameter combinations checked per spec


def _inputs(name: str, wave: int, rnd: random.Random) -> dict[str, list[Any]]:
    spec = LIB.get(name)
    bits = 64 if spec.value_type in WIDE_TYPES else 32
    return {k: [rnd.getrandbits(bits) for _ in range(wave)] for k in [*spec.inputs, "p"]}


def _evaluates(name: str, params: dict[str, Any], wave: int) -> bool:
    try:
        LIB.evaluate(name, params, Concrete(), wave, _inputs(name, wave, random.Random(0)), [True] * wave)
    except (InputError, ValueError, TypeError, ZeroDivisionError):
        return False
    return True


def _required_values(spec: Any, param: str) -> list[Any]:
    """The constants a spec's `require`s compare `param` with (`mode in
    ("idx", "up")`, `warp == 32`): the first values worth trying."""
    out: list[Any] = []
    for st_ in spec.body:
        if st_.kind != "require":
            continue
        for node in ast.walk(st_.expr):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == param:
                for c in node.comparators:
                    elts = c.elts if isinstance(c, ast.Tuple) else [c]
                    out += [e.value for e in elts if isinstance(e, ast.Constant) and e.value not in out]
    return out


def _by_sum(sizes: list[int]) -> Iterator[tuple[int, ...]]:
    """Every index tuple into grids of these sizes, in order of the sum of
    its indices (then lexically), made lazily."""
    def parts(total: int, dims: list[int]) -> Iterator[tuple[int, ...]]:
        if not dims:
            if total == 0:
                yield ()
            return
        for k in range(min(total, dims[0] - 1) + 1):
            for rest in parts(total - k, dims[1:]):
                yield (k, *rest)
    for total in range(sum(n - 1 for n in sizes) + 1):
        yield from parts(total, sizes)


@cache
def valid_params(name: str) -> list[tuple[dict[str, Any], tuple[int, ...]]]:
    """Up to KEEP parameter combinations the spec accepts, each with the
    waves it accepts them for."""
    spec = LIB.get(name)
    free = [p for p in spec.params if p != "wave"]
    grids = []
    for p in free:
        first = ([spec.defaults[p]] if p in spec.defaults else []) + _required_values(spec, p)
        grids.append(first + [v for v in INTS + TEXTS if v not in first])
    found: list[tuple[dict[str, Any], tuple[int, ...]]] = []
    # combinations in order of the sum of their grid positions: defaults, the
    # values the requires name and the first values of every parameter first
    for ix in itertools.islice(_by_sum([len(g) for g in grids]), 3000):
        params = {p: g[k] for p, g, k in zip(free, grids, ix)}
        waves = tuple(w for w in (32, 64) if _evaluates(name, params, w))
        if waves:
            found.append((params, waves))
            if len(found) == KEEP:
                break
    return found


def _fresh(B: Any, name: str, wide: bool) -> Any:
    return (B.fresh(f"{name}.lo"), B.fresh(f"{name}.hi")) if wide else B.fresh(name)


def _env_of(name: str, value: int, wide: bool) -> dict[str, int]:
    return {f"{name}.lo": value & 0xFFFFFFFF, f"{name}.hi": value >> 32} if wide else {name: value}


def _as_int(ev: smt.Evaluator, v: Any) -> int:
    if isinstance(v, tuple):
        return int(_as_int(ev, v[0])) | int(_as_int(ev, v[1])) << 32
    return int(ev(v))


@pytest.mark.slow  # one example a spec (four cost 123 s of CPU in CI, 2026-11-30; two 55 s, 2026-12-01)
@pytest.mark.parametrize("name", sorted(LIB.specs))
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_spec_runs_the_same_concretely_and_symbolically(name: str, data: st.DataObject) -> None:
    combos = valid_params(name)
    assert combos, f"no parameters from the grid make {name} evaluate: widen the grid"
    params, waves = data.draw(st.sampled_from(combos), label="params")
    wave = data.draw(st.sampled_from(waves), label="wave")
    exec_mask = data.draw(st.integers(1, (1 << wave) - 1), label="exec")
    rnd = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    spec = LIB.get(name)
    wide = spec.value_type in WIDE_TYPES
    active = [bool(exec_mask >> i & 1) for i in range(wave)]
    values = _inputs(name, wave, rnd)
    try:
        conc = LIB.evaluate(name, params, Concrete(), wave, values, active)
    except InputError:  # these inputs are outside what the parameters allow (an operator read from a lane)
        assume(False)

    B = smt.Z3()
    sym_inputs = {k: [_fresh(B, f"{k}{i}", wide and k != "p") for i in range(wave)] for k in values}
    bits = [B.fresh_bool(f"e{i}") for i in range(wave)]
    sym = LIB.evaluate(name, params, B, wave, sym_inputs, bits)
    env: dict[str, Any] = {f"e{i}": active[i] for i in range(wave)}
    for k, vs in values.items():
        for i, v in enumerate(vs):
            env.update(_env_of(f"{k}{i}", v, wide and k != "p"))
    ev = smt.Evaluator(env)
    for out in spec.outputs:
        (cv, cd), (sv, sd) = conc[out], sym[out]
        for i in range(wave):
            assert bool(ev(sd[i])) == bool(cd[i]), (out, i, "defined")
            if cd[i]:
                c = cv[i] if isinstance(cv[i], int) else _as_int(ev, cv[i])
                assert _as_int(ev, sv[i]) == c, (out, i, "value")
