"""The ds_bpermute baseline: what a compiler emits when it knows no better
(SCALE's post shows LLVM's): the lane id from v_mbcnt, the source lane's
byte address, ds_bpermute_b32, and for shifts a v_cndmask that keeps the
lane's own value at the segment edge.  Written per shuffle family from the
spec's name and parameters; it is proved like any other lowering, and where
the proof fails (a 64-lane warp on GFX10/GFX11 wave64, where ds_bpermute
stays inside each 32-lane half) there is no baseline.

>>> body("cuda.shfl_xor", {"mask": 5, "width": 16}, 64)[2:4]
['v_xor_b32_e32 v4, 5, v3', 'v_lshlrev_b32_e32 v4, 2, v4']
>>> body("cuda.shfl_idx", {"lane": 5, "width": 16}, 32)[1:4]
['v_and_b32_e32 v4, 16, v3', 'v_lshlrev_b32_e32 v4, 2, v4', 'ds_bpermute_b32 v1, v4, v0 offset:20']
>>> body("lane.map", {"src": "i ^ 1", "width": 4}, 64) is None
True
"""

from __future__ import annotations

from typing import Any

FAMILIES: dict[str, tuple[str, str, int | None]] = {
    "cuda.shfl_xor": ("xor", "mask", 32), "cuda64.shfl_xor": ("xor", "mask", 64),
    "cuda.shfl_down": ("down", "delta", 32), "cuda64.shfl_down": ("down", "delta", 64),
    "cuda.shfl_up": ("up", "delta", 32), "cuda64.shfl_up": ("up", "delta", 64),
    "cuda.shfl_idx": ("idx", "lane", 32), "cuda64.shfl_idx": ("idx", "lane", 64),
    "lane.bcast": ("idx", "lane", None),
}


def body(spec: str, params: dict[str, Any], wave: int) -> list[str] | None:
    """Assembly lines (input v0, output v1, scratch v3-v5, vcc), or None."""
    fam = FAMILIES.get(spec)
    if fam is None:
        return None
    kind, pname, n = fam
    p = params.get(pname)
    width = params.get("width", n)
    if not isinstance(p, int) or not isinstance(width, int) or width < 1 or width & (width - 1) or width > wave:
        return None
    vcc = "vcc" if wave == 64 else "vcc_lo"
    lines = ["v_mbcnt_lo_u32_b32 v3, -1, 0"]
    if wave == 64:
        lines.append("v_mbcnt_hi_u32_b32 v3, -1, v3")
    if kind == "xor":
        m = p & ((n or width) - 1)
        if m >= width:
            return None  # the source leaves the segment: the lanes keep or read earlier ones
        lines += [f"v_xor_b32_e32 v4, {m}, v3", "v_lshlrev_b32_e32 v4, 2, v4", "ds_bpermute_b32 v1, v4, v0",
                  "s_waitcnt lgkmcnt(0)"]
        return lines
    if kind == "idx":
        lane = p & (width - 1)
        hi = (wave - 1) & ~(width - 1)
        lines += [f"v_and_b32_e32 v4, {hi}, v3" if hi else "v_mov_b32_e32 v4, 0", "v_lshlrev_b32_e32 v4, 2, v4",
                  f"ds_bpermute_b32 v1, v4, v0{f' offset:{4 * lane}' if lane else ''}", "s_waitcnt lgkmcnt(0)"]
        return lines
    d = p & ((n or width) - 1)
    if d == 0 or d >= width:
        return None  # every lane keeps its own value: a copy, not a shuffle
    off = 4 * d if kind == "down" else 256 - 4 * d
    lines += ["v_lshlrev_b32_e32 v4, 2, v3", f"v_and_b32_e32 v5, {width - 1}, v3"]
    if kind == "down":
        lines.append(f"v_cmp_gt_u32_e32 {vcc}, {width - d}, v5")  # the source is inside the segment
    else:
        lines.append(f"v_cmp_le_u32_e32 {vcc}, {d}, v5")
    # the compare before ds_bpermute: its VCC is read 2 wait states later, as
    # gfx94x/gfx950 need after a VALU writes VCC  [S:hazards]
    lines += [f"ds_bpermute_b32 v1, v4, v0 offset:{off}", "s_waitcnt lgkmcnt(0)", f"v_cndmask_b32_e32 v1, v0, v1, {vcc}"]
    return lines


def clobbers(wave: int) -> list[str]:
    return ["v3", "v4", "v5", "vcc" if wave == 64 else "vcc_lo"]
