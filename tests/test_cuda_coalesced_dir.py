"""coalesced_group::shfl_down / shfl_up (specs/cuda_prims.spec
`cg.coalesced_shfl_down`/`_up`) in the terms their lowerings build, and those
lowerings (lowerings/cuda_prims/coalesced_shfl_{down,up}1_w32.s) run
concretely.  [S:cuda-coalesced-shfl-dir]"""

from __future__ import annotations

import random
from pathlib import Path

from helpers import simulate

from lowerings._gen.cuda_prims import coalesced_shfl_dir_w64, coalesced_shfl_w64
from verify import catalog
from verify.backend import Concrete
from verify.spec import SpecLib

LIB = catalog.speclib()
ROOT = Path(__file__).resolve().parent.parent
M32 = 0xFFFFFFFF

# the two specs as cuda4 wrote them: an active lane and its rank said apart,
# the end of the group a signed compare, the whole warp `size == warp`
AS_WRITTEN = '''
spec down_as_written(delta, warp=32):
    lanes = warp
    rk(j) = count(active(k) for k in range(j))
    size = count(active(j) for j in range(warp))
    t = rk(i) + delta
    part = x[i] if t >= size else first(x[j] for j in range(warp) if active(j) and rk(j) == t)
    out = warp.down(b=delta, c=warp - 1, n=warp) if size == warp else part

spec up_as_written(delta, warp=32):
    lanes = warp
    rk(j) = count(active(k) for k in range(j))
    size = count(active(j) for j in range(warp))
    t = rk(i) - delta
    part = x[i] if t < 0 else first(x[j] for j in range(warp) if active(j) and rk(j) == t)
    out = warp.up(b=delta, c=0, n=warp) if size == warp else part
'''


def _out(lib: SpecLib, name: str, delta: int, exec_mask: int, x: list[int]) -> list[int | None]:
    act = [bool(exec_mask >> i & 1) for i in range(32)]
    vals, dfn = lib.evaluate(name, {"delta": delta}, Concrete(), 32, {"x": x}, act)["out"]
    return [v if d and a else None for v, d, a in zip(vals, dfn, act)]


def test_the_lowerings_terms_are_the_spec_as_written():
    """Where the rank sought fits 31 bits, the specs are cuda4's; a member's
    rank is never 0xffffffff, so `(rk(j) if active(j) else -1) == t` is
    `active(j) and rk(j) == t`."""
    old = SpecLib.from_text((ROOT / "specs" / "ptx.spec").read_text() + AS_WRITTEN, "as_written.spec")
    rnd = random.Random(5)
    x = list(range(0x100, 0x120))
    for exec_mask in (M32, 0x0F0F00F1, 0x80000000, rnd.getrandbits(32)):
        for delta in (0, 1, 5, 31, 33):
            assert _out(LIB, "cg.coalesced_shfl_down", delta, exec_mask, x) == \
                _out(old, "down_as_written", delta, exec_mask, x), (hex(exec_mask), delta)
            assert _out(LIB, "cg.coalesced_shfl_up", delta, exec_mask, x) == \
                _out(old, "up_as_written", delta, exec_mask, x), (hex(exec_mask), delta)


def test_a_delta_past_31_bits_keeps_the_lanes_own_value():
    """CUDA's header: __fns(mask, lane, delta + 1) finds no lane, so the lane
    reads its own value; the signed compare as written left it undefined."""
    x = list(range(0x100, 0x120))
    assert _out(LIB, "cg.coalesced_shfl_down", 0x7FFFFFFE, 0x0F0F00F1, x)[4] == 0x104


def test_the_lowerings_run_as_the_spec():
    rnd = random.Random(33)
    x = [rnd.getrandbits(32) for _ in range(32)]
    for kind in ("down", "up"):
        text = (ROOT / "lowerings" / "cuda_prims" / f"coalesced_shfl_{kind}1_w32.s").read_text()
        lines = [ln for ln in text.splitlines() if ln and not ln.startswith(";")]
        for exec_mask in (M32, 0x0F0F00F1, 0x80000001, rnd.getrandbits(32)):
            m = simulate(lines, "gfx1100", 32, exec_mask, {"v0": x})
            want = _out(LIB, f"cg.coalesced_shfl_{kind}", 1, exec_mask, x)
            assert [v if w is not None else None for v, w in zip(m.v(1), want)] == want, (kind, hex(exec_mask))


def test_the_gfx9_wave64_form_runs_as_the_spec_per_half():
    """lowerings/_gen/cuda_prims.py coalesced_shfl_dir_w64 (two 32-lane
    warps on a GFX9 wave64; not in the catalogue: unknown on gfx900 through
    the checker, [S:cuda-coalesced-shfl-w64]) run concretely: each half is its
    own warp, lane for lane as the spec over that half's EXEC word."""
    rnd = random.Random(64)
    x = [rnd.getrandbits(32) for _ in range(64)]
    for down in (True, False):
        _, text = coalesced_shfl_dir_w64(down, 1)
        lines = [ln for ln in text.splitlines() if ln and not ln.startswith(";")]
        for exec_mask in ((1 << 64) - 1, 0x0F0F00F1FFFFFFFF, 0x0000000100000000):
            m = simulate(lines, "gfx942", 64, exec_mask, {"v0": x})
            for h in (0, 32):
                want = _out(LIB, f"cg.coalesced_shfl_{'down' if down else 'up'}", 1, (exec_mask >> h) & M32, x[h:h + 32])
                assert [v if w is not None else None for v, w in zip(m.v(1)[h:h + 32], want)] == want, (down, h)


def test_the_gfx9_wave64_shfl_by_rank_runs_per_half():
    """lowerings/_gen/cuda_prims.py coalesced_shfl_w64 (not in the catalogue,
    [S:cuda-coalesced-shfl-w64]) run concretely: in each half, an active
    lane asking for rank r gets the value of that half's active lane whose
    rank (its active lanes below, in the half) is r."""
    rnd = random.Random(65)
    x = [rnd.getrandbits(32) for _ in range(64)]
    _, text = coalesced_shfl_w64()
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith(";")]
    for exec_mask in ((1 << 64) - 1, 0x0F0F00F1FFFFFFFF, 0x0000000100000000, 0xFFFF0000000000FF):
        members = [[h + j for j in range(32) if exec_mask >> (h + j) & 1] for h in (0, 32)]
        rank = [rnd.randrange(max(1, len(members[i // 32]))) for i in range(64)]
        m = simulate(lines, "gfx942", 64, exec_mask, {"v0": x, "v5": rank})
        for i in range(64):
            if exec_mask >> i & 1:
                assert m.v(1)[i] == x[members[i // 32][rank[i]]], (hex(exec_mask), i)
