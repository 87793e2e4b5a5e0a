"""`verify show cuda.* --json` against NVIDIA hardware.

tests/data/cuda_h100.json was recorded on an H100 (tests/data/README.md):
every __shfl*_sync for every power-of-two width 1..32 and parameters
-70..100 plus extremes, full mask, lane i holding i.  Each row must equal
what our spec library computes through the CLI.
"""

import io
import json
from pathlib import Path

import pytest

from verify.cli import main

DATA = json.loads((Path(__file__).parent / "data" / "cuda_h100.json").read_text())
MODES = {"idx": ("cuda.shfl_idx", "lane"), "up": ("cuda.shfl_up", "delta"),
         "down": ("cuda.shfl_down", "delta"), "xor": ("cuda.shfl_xor", "mask")}


def show(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(["show", *argv, "--json"], out, err)
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(MODES))
def test_shuffles_match_h100(mode):
    spec, pname = MODES[mode]
    rows = DATA["shfl"][mode]
    checked = 0
    for width, by_param in rows.items():
        for p, lanes in by_param.items():
            got = show(spec, f"{pname}={p}", f"width={width}", "--wave", "32")
            assert got["outputs"]["out"] == lanes, (spec, p, width)
            checked += 1
    assert checked == 6 * 179


def test_every_width_and_extreme_parameter_recorded():
    widths = sorted(int(w) for w in DATA["shfl"]["xor"])
    assert widths == [1, 2, 4, 8, 16, 32]
    params = {int(p) for p in DATA["shfl"]["down"]["32"]}
    assert {-2147483648, 2147483647, -1, 0, 31, 32, 33, 65536} <= params


def test_a_known_row_by_hand():
    # __shfl_xor_sync(~0, lane, 1, 4): the hardware swaps neighbours
    assert show("cuda.shfl_xor", "mask=1", "width=4", "--wave", "32")["outputs"]["out"][:4] == [1, 0, 3, 2]
    assert DATA["shfl"]["xor"]["4"]["1"][:4] == [1, 0, 3, 2]


@pytest.mark.slow
def test_reductions_match_h100():
    """`verify show cuda.reduce_* --wave 32 --input x=... --exec MASK --json` against __reduce_*_sync."""
    n = 0
    for rec in DATA["reduce"]:
        mask = int(rec["mask"], 16)
        got = show(f"cuda.reduce_{rec['op']}", "--wave", "32", "--exec", rec["mask"],
                   "--input", "x=" + ",".join(str(v) for v in rec["input"]))
        want = [v if (mask >> i) & 1 else None for i, v in enumerate(rec["output"])]
        assert got["outputs"]["out"] == want, rec
        n += 1
    assert n == 336
