"""cooperative groups' float cg::less / cg::greater reductions (issue #33):
the specs' ordered compare is IEEE `<` on every pair of an edge pool, on
both backends, and the tile lowerings (lowerings/cg/cg_reduce_{less,greater}
_f32_t16_*) are refuted when a select keeps the wrong operand.  [S:cuda-cg]"""

from __future__ import annotations

import itertools
import math
import struct
from pathlib import Path

import pytest

from tests.helpers import cli_json
from verify import catalog, smt
from verify.backend import Concrete

LIB = catalog.speclib()
ROOT = Path(__file__).resolve().parent.parent
POOL = [0, 0x80000000, 1, 0x80000001, 0x3F800000, 0xBF800000, 0x3F800001, 0x7F7FFFFF, 0xFF7FFFFF,
        0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001]


def _f(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _want(op: str, partner: int, own: int) -> int:
    """cg::less / cg::greater as CUDA's functors: `a < b ? a : b`, `a > b ? a : b` (a = partner)."""
    a, b = _f(partner), _f(own)
    hit = (a < b) if op == "less" else (a > b)  # False on a NaN and on +0 / -0, as IEEE says
    assert not (math.isnan(a) or math.isnan(b)) or not hit
    return partner if hit else own


@pytest.mark.parametrize("op", ["less", "greater"])
def test_the_specs_compare_is_ieee_order_on_both_backends(op: str) -> None:
    """A width-2 tile: lane 0 gets `x1 op x0`, lane 1 `x0 op x1`; every pair of
    the pool (NaNs, signed zeros, subnormals, infinities) as Python's float
    order says, concretely and through the solver's terms."""
    pairs = list(itertools.product(POOL, repeat=2))
    act = [True] * 32
    B = smt.Z3()
    syms = [B.fresh(f"x{i}") for i in range(32)]
    sym = LIB.evaluate("cg.reduce_f32", {"op": op, "width": 2}, B, 32, {"x": syms}, act)["out"][0]
    for k in range(0, len(pairs), 16):
        chunk = pairs[k:k + 16]
        xs = [v for p in chunk for v in p] + [0] * (32 - 2 * len(chunk))
        conc = LIB.evaluate("cg.reduce_f32", {"op": op, "width": 2}, Concrete(), 32, {"x": xs}, act)["out"][0]
        E = smt.Evaluator({f"x{i}": xs[i] for i in range(32)})
        for n, (x0, x1) in enumerate(chunk):
            assert conc[2 * n] == _want(op, x1, x0) and conc[2 * n + 1] == _want(op, x0, x1), (hex(x0), hex(x1))
            assert E(sym[2 * n]) == conc[2 * n] and E(sym[2 * n + 1]) == conc[2 * n + 1], (hex(x0), hex(x1))


def test_a_select_keeping_the_wrong_operand_is_refuted(tmp_path: Path) -> None:
    """The last stride's select swapped (own where partner < own): the lanes differ from
    cg::less on a tile whose values are not all equal; found by the concrete pre-search."""
    src = (ROOT / "lowerings/cg/cg_reduce_less_f32_t16_rdna_w32.s").read_text()
    last = "v_cndmask_b32_e32 v1, v1, v2, vcc_lo"
    assert src.count(last) == 3
    k = src.rindex(last)
    bad = tmp_path / "bad.s"
    bad.write_text(src[:k] + "v_cndmask_b32_e32 v1, v2, v1, vcc_lo" + src[k + len(last):])
    code, js, err = cli_json("lowering", str(bad), "--target", "gfx1100")
    assert code == 1, err
    assert [r["verdict"] for r in js["results"]] == ["refuted"]
    cex = js["results"][0]["counterexample"]
    row = cex["lanes"][0]  # lane 0 keeps lane 1's larger value where cg::less takes its own smaller one
    assert cex["exec"] == "0xffffffff" and row["lane"] == 0
    assert _f(row["expected"]) < _f(row["actual"]), row


T32 = [(op, kind, rdna) for op in ("less", "greater") for kind in ("reduce", "inclusive_scan", "exclusive_scan")
       for rdna in (False, True)]


@pytest.mark.parametrize("op,kind,rdna", T32)
@pytest.mark.slow
def test_tile32_lowerings_run_as_the_spec(op: str, kind: str, rdna: bool) -> None:
    """The thread_block_tile<32> forms (lowerings/_gen/prims.py
    cg_reduce_f32_cmp_t32, cg_scan_f32_cmp_t32) run concretely on values of
    the edge pool (NaNs, both zeros, infinities), lane for lane as
    cg.reduce_f32 / cg.*_scan_f32 with width=32 in each tile of the wave."""
    import random

    from helpers import simulate

    from lowerings._gen.prims import cg_reduce_f32_cmp_t32, cg_scan_f32_cmp_t32
    _, text = (cg_reduce_f32_cmp_t32(op, rdna) if kind == "reduce"
               else cg_scan_f32_cmp_t32(op, rdna, kind == "exclusive_scan"))
    prog = [ln for ln in text.splitlines() if ln and not ln.startswith(";")]
    out = int(next(ln for ln in text.splitlines() if ln.startswith("; @output")).split("= v")[1])
    target, wave = ("gfx1100", 32) if rdna else ("gfx942", 64)
    rnd = random.Random(5)
    ramp = [struct.unpack("<I", struct.pack("<f", float(k)))[0] for k in range(-wave // 2, wave // 2)]
    for trial in range(6):
        if trial < 4:
            pool = POOL if trial < 2 else [0, 0x80000000, 0x7FC00000, 0x3F800000]
            xs = [rnd.choice(pool) for _ in range(wave)]
        else:  # every prefix min (max) a new value: a lane reading the wrong partner shows
            xs = ramp if trial == 4 else ramp[::-1]
        got = simulate(prog, target, wave, (1 << wave) - 1, {"v0": xs}).v(out)
        for h in range(0, wave, 32):
            vals, dfn = LIB.evaluate(f"cg.{kind}_f32", {"op": op, "width": 32}, Concrete(), 32, {"x": xs[h:h + 32]},
                                     [True] * 32)["out"]
            for i in range(32):
                if dfn[i]:
                    assert got[h + i] == vals[i], (trial, h + i, hex(got[h + i]), hex(vals[i]))
