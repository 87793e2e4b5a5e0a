"""verify.cex.f32_search, the random concrete search of exact f32 claims,
against its scalar reference (the search as it was before issue #35: each
case replayed with a trace and compared in every lane): the same cases from
the same seed, so the same answer, failing state included."""

from __future__ import annotations

import ctypes
import math
import random
import struct
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from verify import backend, catalog
from verify.backend import Concrete, f32_bits
from verify.cex import f32_search
from verify.encode import encode, fixed_exec, mismatches, replay
from verify.lowering_file import load_lowering
from verify.target import resolve

ROOT = Path(__file__).resolve().parent.parent


def fresh_of(low: Any, target: Any, wave: int) -> SimpleNamespace:
    """An encoding's `fresh` (registers read before written: a list for a
    VGPR), as f32_search reads it, from one concrete run."""
    fresh: dict[str, Any] = {}

    def initial(kind: str, name: str, lane: int | None) -> Any:
        if kind == "scc":
            return False
        if lane is not None:
            fresh.setdefault(name, [0] * wave)
        else:
            fresh.setdefault(name, 0)
        return 0

    encode(low, target, wave, Concrete(), {}, initial, fixed_exec((1 << wave) - 1))
    return SimpleNamespace(fresh=fresh)


def reference_search(low: Any, target: Any, wave: int, assume: dict[str, str], enc: Any, trials: int = 300,
                     seed: int = 0) -> tuple[str, int, dict[str, Any]] | None:
    """The scalar search before issue #35, kept as the reference."""
    rnd = random.Random(seed)
    full = (1 << wave) - 1

    def value() -> int:
        k = rnd.random()
        if k < 0.05:
            return rnd.choice([0, 0x80000000, 0x3F800000, 0x7F800000, 0xFF800000])
        return f32_bits(rnd.uniform(-1, 1) * 10.0 ** rnd.randint(-8, 8))

    for k in range(trials):
        mask = full if low.exec_contract == "full" or k % 3 == 0 else rnd.getrandbits(wave) | 1
        vals = {n: ([value() for _ in range(wave)] if isinstance(t, list) else rnd.getrandbits(32))
                for n, t in enc.fresh.items()}
        bad = mismatches(replay(low, target, wave, assume, mask, vals), feq=True)
        if bad:
            return bad[0][0], mask, vals
    return None


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_a_refuted_tree_gives_the_reference_answer(seed: int) -> None:
    low = load_lowering(ROOT / "tests/golden/reduce_all_fadd_rowsfirst_exact.s")
    target = resolve("gfx1030")[0]
    enc = fresh_of(low, target, 32)
    want = reference_search(low, target, 32, {}, enc, seed=seed)
    assert want is not None and want[0] == "out"
    assert f32_search(low, target, 32, {}, enc, seed=seed) == want


def test_a_proved_reduction_finds_nothing_in_either() -> None:
    low = catalog.load("wave_reduce_fsub_gfx9")
    target = resolve("gfx900")[0]
    enc = fresh_of(low, target, 64)
    assert reference_search(low, target, 64, {}, enc, trials=6, seed=3) is None
    assert f32_search(low, target, 64, {}, enc, trials=6, seed=3) is None


def _bits_reference(x: float) -> int:
    """backend.f32_bits before issue #35: ctypes rounds, struct packs."""
    if math.isnan(x):
        return 0x7FC00000
    return int(struct.unpack("<I", struct.pack("<f", ctypes.c_float(x).value))[0])


def test_f32_rounding_is_the_ctypes_reference() -> None:
    rnd = random.Random(5)
    edge = [0.0, -0.0, math.inf, -math.inf, math.nan, 3.4028234663852886e38, 3.4028235677973366e38,
            3.402823567797337e38, -3.4028235677973366e38, 1e39, -1e39, 1.401298464324817e-45, 7e-46, 7.006e-46,
            -7e-46, 1.1754942e-38, 2.0 ** -149 * 1.5, 2.0 ** -150]
    doubles = edge + [struct.unpack("<d", rnd.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(20000)]
    doubles += [rnd.uniform(-1, 1) * 10.0 ** rnd.randint(-46, 39) for _ in range(20000)]
    assert [backend.f32_bits(x) for x in doubles] == [_bits_reference(x) for x in doubles]
    words = [rnd.getrandbits(32) for _ in range(4000)] + [0, 0x80000000, 0x7F7FFFFF, 0xFF7FFFFF, 1, 0x80000001]
    pairs = list(zip(words, reversed(words)))
    assert [backend.fadd32(a, b) for a, b in pairs] == [
        _bits_reference(backend.f32_value(a) + backend.f32_value(b)) for a, b in pairs]


@pytest.mark.slow  # about 5 s: 68 specs evaluated twice
def test_a_fold_computed_once_per_group_is_the_per_lane_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    """spec.py's group memo (a lane-free fold once per group) changes no
    lane: the library's reductions, scans and votes whose parameters all
    have defaults, on random inputs under random masks, with the memo and
    without (wave32; the two f32/integer subtractions in wave64 too)."""
    from verify import spec as spec_mod
    from verify.diag import InputError

    lib = catalog.speclib()
    rnd = random.Random(11)
    names = [n for n, s in lib.specs.items() if all(p in s.defaults for p in s.params) and s.value_type in ("u32", "f32")
             and any(w in n for w in ("reduce", "scan", "vote", "ballot", "any", "all"))]
    assert {"wave.reduce_fsub", "wave.reduce_sub"} <= set(names) and len(names) > 8
    real = spec_mod._call_lane_free
    for name in names:
        for W in (32, 64) if name in ("wave.reduce_fsub", "wave.reduce_sub") else (32,):
            inputs = {x: [rnd.getrandbits(32) for _ in range(W)] for x in lib.specs[name].inputs}
            active = [rnd.random() < 0.6 for _ in range(W)]
            got = []
            for on in (True, False):
                monkeypatch.setattr(spec_mod, "_call_lane_free", real if on else (lambda c, n, v: False))
                try:
                    got.append(lib.evaluate(name, {}, Concrete(), W, inputs, active))
                except InputError as e:
                    got.append(str(e))
            assert got[0] == got[1], (name, W)
    calls: list[bool] = []
    monkeypatch.setattr(spec_mod, "_call_lane_free", lambda c, n, v: calls.append(real(c, n, v)) or calls[-1])
    lib.evaluate("wave.reduce_fsub", {}, Concrete(), 64, {"x": list(range(64))}, [True] * 64)
    assert any(calls)  # the reduction's fold is one the memo takes
