"""Published lane tables, reproduced by the simulator.

- the GCN3 article's full-wave DPP prefix sum (semantics reference 8a);
- the XOR-5 table under a partial EXEC (semantics reference 8b).
"""

import random

from helpers import signed, simulate

M = 0xFFFFFFFF


def S(x, a, b):
    return sum(x[a:b + 1]) & M


GCN3_SCAN = [
    "v_add_u32_dpp v1, v0, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0",
    "v_add_u32_dpp v1, v0, v1 row_shr:2 row_mask:0xf bank_mask:0xf bound_ctrl:0",
    "v_add_u32_dpp v1, v0, v1 row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:0",
    "v_add_u32_dpp v1, v1, v1 row_shr:4 row_mask:0xf bank_mask:0xe",
    "v_add_u32_dpp v1, v1, v1 row_shr:8 row_mask:0xf bank_mask:0xc",
    "v_add_u32_dpp v1, v1, v1 row_bcast:15 row_mask:0xa bank_mask:0xf",
    "v_add_u32_dpp v1, v1, v1 row_bcast:31 row_mask:0xc bank_mask:0xf",
]

# lane -> (a, b) ranges after I1..I7; (k, k) means x_k alone
TABLE = {
    0: [(0, 0)] * 7,
    2: [(1, 2)] + [(0, 2)] * 6,
    3: [(2, 3), (1, 3)] + [(0, 3)] * 5,
    4: [(3, 4), (2, 4), (1, 4)] + [(0, 4)] * 4,
    7: [(6, 7), (5, 7), (4, 7)] + [(0, 7)] * 4,
    8: [(7, 8), (6, 8), (5, 8), (1, 8)] + [(0, 8)] * 3,
    15: [(14, 15), (13, 15), (12, 15), (8, 15)] + [(0, 15)] * 3,
    16: [(16, 16)] * 5 + [(0, 16)] * 2,
    31: [(30, 31), (29, 31), (28, 31), (24, 31), (16, 31)] + [(0, 31)] * 2,
    32: [(32, 32)] * 6 + [(0, 32)],
    47: [(46, 47), (45, 47), (44, 47), (40, 47), (32, 47), (32, 47), (0, 47)],
    48: [(48, 48)] * 5 + [(32, 48), (0, 48)],
    63: [(62, 63), (61, 63), (60, 63), (56, 63), (48, 63), (32, 63), (0, 63)],
}


def test_gcn3_prefix_sum_table():
    x = [random.Random(7).getrandbits(20) + k for k in range(64)]
    for step in range(1, 8):
        m = simulate(GCN3_SCAN[:step], "gfx900", 64, (1 << 64) - 1, {"v0": x, "v1": 0})
        v1 = m.v(1)
        for lane, ranges in TABLE.items():
            a, b = ranges[step - 1]
            assert v1[lane] == S(x, a, b), (step, lane, a, b)
    # after I7 every lane holds its inclusive prefix sum
    assert m.v(1) == [S(x, 0, i) for i in range(64)]


def test_gcn3_scan_needs_no_write_rule():
    """Under the 'no write' rule bank-masked lanes keep v1; if masked lanes
    doubled instead (CLRX/gem5's own-value rule) lane 0 would not hold x0."""
    x = list(range(1, 65))
    m = simulate(GCN3_SCAN, "gfx900", 64, (1 << 64) - 1, {"v0": x})
    assert m.v(1)[0] == 1 and m.v(1)[1] == 3


EXEC_NO5 = ((1 << 64) - 1) & ~(1 << 5)
S100 = [100 + k for k in range(64)]


def xor5_table(lines, target, wave, mask=EXEC_NO5):
    m = simulate(lines, target, wave, mask & ((1 << wave) - 1), {"v0": S100, "v1": -1, "v2": -1})
    return signed(m.v(1)[:8])


def test_xor5_table_row_xmask():
    assert xor5_table(["v_mov_b32_dpp v1, v0 row_xmask:5 row_mask:0xf bank_mask:0xf"], "gfx1030", 32) == \
        [-1, 104, 107, 106, 101, -1, 103, 102]


def test_xor5_table_half_mirror_then_quad_perm():
    lines = ["v_mov_b32_dpp v2, v0 row_half_mirror row_mask:0xf bank_mask:0xf",
             "v_mov_b32_dpp v1, v2 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf"]
    assert xor5_table(lines, "gfx900", 64) == [-1, 104, 107, 106, 101, -1, 103, -1]


def test_xor5_table_swizzle():
    assert xor5_table(["ds_swizzle_b32 v1, v0 offset:0x141f"], "gfx900", 64) == \
        [0, 104, 107, 106, 101, -1, 103, 102]


def test_xor5_table_dpp8():
    assert xor5_table(["v_mov_b32_dpp v1, v0 dpp8:[5,4,7,6,1,0,3,2]"], "gfx1100", 32) == \
        [0, 104, 107, 106, 101, -1, 103, 102]


def test_xor5_ideal_with_full_exec():
    lines = ["v_mov_b32_dpp v2, v0 row_half_mirror row_mask:0xf bank_mask:0xf",
             "v_mov_b32_dpp v1, v2 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf"]
    assert xor5_table(lines, "gfx900", 64, (1 << 64) - 1) == [105, 104, 107, 106, 101, 100, 103, 102]


def test_inactive_source_assumption_changes_the_table():
    """dpp.inactive_src=zero: lane 0 reads 0 from inactive lane 5 and is written."""
    m = simulate(["v_mov_b32_dpp v1, v0 row_xmask:5 row_mask:0xf bank_mask:0xf"], "gfx1030", 32,
                 EXEC_NO5 & M, {"v0": S100, "v1": -1}, {"dpp.inactive_src": "zero"})
    assert signed(m.v(1)[:2]) == [0, 104]
