"""Quadrants' bitonic_sort_kv(_tiled) on AMDGPU: the classic bitonic sorting
network, one compare-exchange stage per (stride s, block b), each stage as
Quadrants unrolls it (seeds/quadrants-subgroup-primitives.txt,
"bitonic_sort_kv"): the partner's key and value through shuffle_xor(s), the
lex compare (key, value) < (key', value'), and two selects by direction.

shuffle_xor(s) is one exchange instruction here: ds_swizzle SWAP,s inside each
32-lane half for s < 32; for s = 32 (64-lane tiles) v_permlane64_b32 on GFX11
and a ds_bpermute to lane ^ 32 on the GFX9 family (wave-wide there).

A stage: the lanes that keep the smaller pair of the two are the constant
mask KEEP (bit i set when (i & s == 0) equals "block ascending", the block
being ascending when i & b == 0 or b is the tile); with LT = "my pair is
below my partner's", a lane takes its partner's pair where LT ^ KEEP.  Equal
pairs are equal, so either choice is right.  Every stage reads only the key
and value registers (v0, v1) and writes them last: the checker's per-stage
argument (docs/bitonic.md) runs each stage from an arbitrary state."""

from __future__ import annotations


def layers(n: int) -> list[tuple[int, int]]:
    """(stride, block) of each stage of the bitonic sorter of n lanes, in order."""
    out = []
    b = 2
    while b <= n:
        s = b // 2
        while s >= 1:
            out.append((s, b))
            s //= 2
        b *= 2
    return out


def keep_mask(s: int, b: int, n: int, wave: int) -> int:
    """Lanes of the wave that keep the smaller pair in stage (s, b) of an n-lane tile."""
    m = 0
    for i in range(wave):
        asc = b == n or i & b == 0
        if (i & s == 0) == asc:
            m |= 1 << i
    return m


def exchange(s: int, wave: int, arch: str) -> list[str]:
    """The partner's key in v2 and value in v3 (lane i reads lane i ^ s)."""
    if s < 32:
        return [f"ds_swizzle_b32 v2, v0 offset:swizzle(SWAP,{s})",
                f"ds_swizzle_b32 v3, v1 offset:swizzle(SWAP,{s})",
                "s_waitcnt lgkmcnt(0)"]
    if arch == "gfx11":
        return ["v_permlane64_b32 v2, v0", "v_permlane64_b32 v3, v1"]
    return ["v_mbcnt_lo_u32_b32 v4, -1, 0",
            "v_mbcnt_hi_u32_b32 v4, -1, v4",
            "v_xor_b32_e32 v4, 32, v4",
            "v_lshlrev_b32_e32 v4, 2, v4",
            "ds_bpermute_b32 v2, v4, v0",
            "ds_bpermute_b32 v3, v4, v1",
            "s_waitcnt lgkmcnt(0)"]


def stage(s: int, b: int, n: int, wave: int, arch: str, flip: bool = False, ty: str = "i32") -> list[str]:
    keep = keep_mask(s, b, n, wave) ^ (((1 << wave) - 1) if flip else 0)
    out = [f"; stage: stride {s}, block {b}"] + exchange(s, wave, arch)
    if wave == 64:
        out += [f"v_cmp_lt_{ty}_e64 s[4:5], v0, v2",
                f"v_cmp_eq_{ty}_e64 s[6:7], v0, v2",
                f"v_cmp_lt_{ty}_e64 s[8:9], v1, v3",
                "s_and_b64 s[6:7], s[6:7], s[8:9]",
                "s_or_b64 s[4:5], s[4:5], s[6:7]",
                f"s_xor_b32 s4, s4, {keep & 0xFFFFFFFF:#010x}",
                f"s_xor_b32 s5, s5, {keep >> 32:#010x}",
                "v_cndmask_b32_e64 v0, v0, v2, s[4:5]",
                "v_cndmask_b32_e64 v1, v1, v3, s[4:5]"]
    else:
        out += [f"v_cmp_lt_{ty}_e64 s4, v0, v2",
                f"v_cmp_eq_{ty}_e64 s6, v0, v2",
                f"v_cmp_lt_{ty}_e64 s8, v1, v3",
                "s_and_b32 s6, s6, s8",
                "s_or_b32 s4, s4, s6",
                f"s_xor_b32 s4, s4, {keep:#010x}",
                "v_cndmask_b32_e64 v0, v0, v2, s4",
                "v_cndmask_b32_e64 v1, v1, v3, s4"]
    return out


TARGETS = {("any", 32): "gfx10, gfx11, gfx12", ("any", 64): "gfx9, gfx10, gfx11, gfx12",
           ("gfx9", 64): "gfx9", ("gfx11", 64): "gfx11, gfx12"}


def lowering(n: int, wave: int, arch: str = "any", drop: int | None = None, flip: int | None = None,
             ty: str = "i32") -> str:
    """The n-lane tiled sort for `wave` (arch "any" for n <= 32, "gfx9" or
    "gfx11" for n = 64).  drop/flip: a broken variant (stage `drop` left out,
    stage `flip` with every direction bit inverted), for tests."""
    log2 = n.bit_length() - 1
    name = f"bitonic_t{n}_w{wave}" + ("" if arch == "any" else f"_{arch}") + ("" if ty == "i32" else f"_{ty}")
    sregs = "s[4:9]" if wave == 64 else "s4, s6, s8"
    body: list[str] = []
    for k, (s, b) in enumerate(layers(n)):
        if k != drop:
            body += stage(s, b, n, wave, arch, flip=k == flip, ty=ty)
    clob = "v2, v3" + (", v4" if arch == "gfx9" else "") + f", {sregs}"
    how = ("ds_swizzle SWAP,s" if n <= 32 else
           "ds_swizzle SWAP,s, and v_permlane64_b32 for s = 32" if arch == "gfx11" else
           "ds_swizzle SWAP,s, and ds_bpermute to lane ^ 32 for s = 32")
    head = [
        f"; {name}: Quadrants' bitonic_sort_kv_tiled(key, value, {log2}) on wave{wave}: the {n}-lane tiles'",
        f"; (key, value) pairs sorted ascending by the pair ({ty}), in place, by the bitonic sorting",
        f"; network: {len(layers(n))} compare-exchange stages, the partner read with {how}.",
        "; Proved by the network argument (docs/bitonic.md).  Generated by lowerings/_gen/bitonic.py.",
        ";",
        f"; @spec     quadrants.bitonic_sort_kv log2_size={log2}" + ("" if ty == "i32" else " signed=0"),
        f"; @targets  {TARGETS[(arch, wave)]}",
        f"; @waves    {wave}",
        "; @exec     full",
        "; @input    key = v0, value = v1",
        "; @output   okey = v0, ovalue = v1",
        f"; @clobbers {clob}",
    ]
    return "\n".join(head + body) + "\n"


def files() -> dict[str, str]:
    out = {}
    for wave in (32, 64):
        for log2 in range(1, 6):
            out[f"quadrants/bitonic_t{1 << log2}_w{wave}.s"] = lowering(1 << log2, wave)
    for arch in ("gfx9", "gfx11"):
        out[f"quadrants/bitonic_t64_w64_{arch}.s"] = lowering(64, 64, arch)
    out["quadrants/bitonic_t32_w32_u32.s"] = lowering(32, 32, ty="u32")  # u32 keys and values
    return out
