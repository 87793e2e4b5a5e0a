"""__fns with a constant offset (specs/cuda_prims.spec `cuda.fns`), its
lowerings (lowerings/cuda_prims/fns_{next,prev}_{gcn,rdna}.s) and the VALU bit
scans they use (v_ffbl_b32, v_ffbh_u32).  [S:cuda-fns] [S:cuda-fns-const] [S:ffb]"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import cli_json, simulate

from lowerings._gen.cuda_prims import fns_varying
from verify import catalog
from verify.backend import Concrete

LIB = catalog.speclib()
M32 = 0xFFFFFFFF
ROOT = Path(__file__).resolve().parent.parent


def test_bit_scans_find_the_lowest_bit_and_count_leading_zeros():
    xs = [0, 1, 0x80000000, 0x00F00000, M32, 0x10, 6]
    for t in ("gfx900", "gfx1100"):
        m = simulate(["v_ffbl_b32_e32 v1, v0", "v_ffbh_u32_e32 v2, v0"], t, 64 if t == "gfx900" else 32, M32,
                     {"v0": xs + [0] * 57})
        assert m.v(1)[:7] == [M32, 0, 31, 20, 0, 4, 1]
        assert m.v(2)[:7] == [M32, 31, 0, 8, 0, 27, 29]


def _fns(params: dict[str, int], m: list[int], b: list[int], o: list[int] | None = None) -> list[int | None]:
    ins = {"x": m, "base": b} | ({"offset": o} if o is not None else {})
    vals, dfn = LIB.evaluate("cuda.fns", params, Concrete(), 32, ins, [True] * 32)["out"]
    return [v if d else None for v, d in zip(vals, dfn)]


@pytest.mark.slow
def test_constant_offsets_are_the_per_lane_spec():
    rnd = random.Random(33)
    for _ in range(3):  # (each evaluation runs the spec over 32 lanes: 0.15 s)
        m = [rnd.choice([0, M32, 0x80000001, rnd.getrandbits(32), rnd.getrandbits(32) & rnd.getrandbits(32)])
             for _ in range(32)]
        b = [rnd.randrange(32) for _ in range(32)]
        for off in (1, -1, 0, 3, -2):
            assert _fns({"offset": off}, m, b) == _fns({}, m, b, [off & M32] * 32)
    # the PTX ISA's examples: 0xaaaaaaaa from bit 3 or 2, one set bit up or down
    assert _fns({"offset": 1}, [0xAAAAAAAA] * 32, [3, 2] * 16)[:2] == [3, 3]
    assert _fns({"offset": -1}, [0xAAAAAAAA] * 32, [3, 2] * 16)[:2] == [3, 1]
    # nothing at or below base 0 / at or above base 31
    assert _fns({"offset": -1}, [0xFFFFFFFE] * 32, [0] * 32)[0] == M32
    assert _fns({"offset": 1}, [0x7FFFFFFF] * 32, [31] * 32)[0] == M32


# fns_next_gcn and fns_prev_gcn are in the catalogue's slow sample, which
# proves them on every target and wave they declare (the next test holds it)
@pytest.mark.slow
@pytest.mark.parametrize("name,target,wave", [("fns_next_rdna", "gfx1100", 32), ("fns_prev_rdna", "gfx1200", 32)])
def test_fns_lowering_is_proved(name, target, wave):
    code, js, err = cli_json("lowering", str(ROOT / "lowerings" / "cuda_prims" / f"{name}.s"), "--target", target,
                             "--wave", str(wave))
    assert js is not None, err
    assert js["verdict"] == "proved", js["results"][0]["obligations"]


def test_the_catalogue_slow_sample_proves_the_gcn_fns_lowerings():
    from helpers import catalogue_slow_sample
    assert {"fns_next_gcn", "fns_prev_gcn"} <= catalogue_slow_sample()


@pytest.mark.slow
def test_fns_prev_without_the_none_case_is_refuted(tmp_path):
    """31 - clz alone gives 32, not 0xffffffff, when no bit is at or below base."""
    p = tmp_path / "fns_prev_32.s"
    p.write_text("; @spec     cuda.fns offset=-1\n; @targets  gfx11\n; @waves    32\n; @exec     any\n"
                 "; @input    x = v0, base = v1\n; @output   out = v3\n; @clobbers v3, v4, v5\n"
                 "v_lshlrev_b32_e64 v4, v1, -2\nv_not_b32_e32 v4, v4\nv_and_b32_e32 v4, v0, v4\n"
                 "v_ffbh_u32_e32 v5, v4\nv_sub_nc_u32_e32 v3, 31, v5\n")
    code, js, err = cli_json("lowering", str(p), "--target", "gfx1100")
    assert js is not None, err
    assert js["verdict"] == "refuted", js["results"][0]["obligations"]
    cex = js["results"][0]["counterexample"]
    assert cex["obligation"] == "value(out)"
    row = cex["lanes"][0]
    assert (row["expected"], row["actual"]) == (M32, 32), row
    assert "v_sub_nc_u32_e32" in row["responsible"]
    lane = row["lane"]  # a lane whose mask has no bit at or below its base
    base = cex["inputs"]["v1"][lane]
    assert cex["inputs"]["v0"][lane] & ((2 << base) - 1) == 0


@pytest.mark.slow
def test_constant_offsets_agree_with_the_h100_recording():
    """Every recorded lane whose offset was 1 or -1 (tests/data/cuda_h100_prims.json,
    `fns`: __fns on NVIDIA hardware), against cuda.fns with that offset fixed."""
    import json
    data = json.loads((ROOT / "tests" / "data" / "cuda_h100_prims.json").read_text())
    seen = {1: 0, -1: 0}
    for n, r in enumerate(data["fns"]):
        for off in (1, -1):
            lanes = [i for i in range(32) if r["offset"][i] == off & M32]
            if not lanes:
                continue
            want = _fns({"offset": off}, r["mask"], r["base"])
            for i in lanes:
                assert want[i] == r["out"][i], (n, i, off, hex(r["mask"][i]), r["base"][i])
            seen[off] += len(lanes)
    assert seen[1] >= 5 and seen[-1] >= 5, seen


# cuda.fns as first written: every count over all 32 bits under `t >= b and t
# <= k`, both directions built whatever the offset (O(32^2) per lane).
FNS_AS_WRITTEN = '''
spec first.fns(base="@base", offset="@offset"):
    lanes = 1
    input x
    m = x[0]
    b = base
    o = offset
    bit(k) = (m >> k) & 1
    cnt_up(k) = count(bit(t) == 1 for t in range(32) if t >= b and t <= k)
    cnt_dn(k) = count(bit(t) == 1 for t in range(32) if t <= b and t >= k)
    k_up = lowest(bit(k) == 1 and k >= b and cnt_up(k) == o for k in range(32))
    k_dn = 31 - lowest(bit(31 - k) == 1 and 31 - k <= b and cnt_dn(31 - k) == 0 - o for k in range(32))
    at0 = b if ((m >> b) & 1) == 1 else -1
    r = at0 if o == 0 else ((k_up if k_up < 32 else -1) if o > 0 else k_dn)
    out = r if ule(b, 31) else undefined
'''


@pytest.mark.slow
def test_fns_is_the_spec_as_first_written_term_for_term():
    """The library's cuda.fns (counts over the bits up to k only, one
    direction per constant offset) builds the same solver terms as the
    O(32^2) text it replaced: the same meaning, proved by identity (z3's
    terms are hash-consed in one context), for a per-lane base and offset
    and for constant ones."""
    from verify import smt
    from verify.spec import SpecLib
    first = SpecLib.from_text(FNS_AS_WRITTEN, "first.spec")
    B = smt.Z3()
    ins = {k: [B.fresh(k)] for k in ("x", "base", "offset")}
    act = [B.fresh_bool("e")]
    for params in ({}, {"offset": 1}, {"offset": -1}, {"offset": 0}, {"base": 31, "offset": -2}):
        (v1, d1), = LIB.evaluate("cuda.fns", params, B, 1, ins, act).values()
        (v0, d0), = first.evaluate("first.fns", params, B, 1, ins, act).values()
        assert v1[0].eq(v0[0]), params
        assert d1[0] is d0[0] if isinstance(d0[0], bool) else d1[0].eq(d0[0]), params



@pytest.mark.parametrize("gcn,target,wave", [(True, "gfx942", 64), (False, "gfx1100", 32)])
def test_varying_offset_lowering_runs_as_the_spec(gcn, target, wave):
    """__fns with a per-lane offset (lowerings/_gen/cuda_prims.py
    fns_varying, not in the catalogue: its per-lane question is unknown
    through the checker's tactic, [S:cuda-fns-varying]) run concretely on
    masks with few and many bits, every base, offsets 0, +-1, +-2, past the
    count (+-33) and far (0x80000000), lane for lane as cuda.fns with `@offset`."""
    _, text = fns_varying(gcn, wave)
    prog = [ln for ln in text.splitlines() if ln and not ln.startswith(";")]
    rnd = random.Random(7)
    offs = [0, 1, -1, 2, -2, 5, -7, 32, -32, 33, -33, 0x80000000, 0x7FFFFFFF]
    m = [rnd.choice([0, M32, 0xAAAAAAAA, 0x80000001, rnd.getrandbits(32), rnd.getrandbits(32) & rnd.getrandbits(32)])
         for _ in range(wave)]
    b = [rnd.randrange(32) for _ in range(wave)]
    o = [rnd.choice(offs) & M32 for _ in range(wave)]
    got = simulate(prog, target, wave, (1 << wave) - 1, {"v0": m, "v1": b, "v2": o}).v(3)
    for h in range(0, wave, 32):
        want = _fns({}, m[h:h + 32], b[h:h + 32], o[h:h + 32])
        assert got[h:h + 32] == [w & M32 for w in want], h
    # the PTX ISA's example: 0xaaaaaaaa from bit 3: two set bits up is bit 5, two down bit 1
    got = simulate(prog, target, wave, (1 << wave) - 1, {"v0": [0xAAAAAAAA] * wave, "v1": [3] * wave,
                                                          "v2": [2, (-2) & M32, 0] + [1] * (wave - 3)}).v(3)
    assert got[:4] == [5, 1, 3, 3]
