#!/usr/bin/env python3
"""Check a shfl_probe JSON recording against reference models.

Shuffles are compared with the shfl.sync pseudo-code of the NVIDIA PTX ISA,
using the ``c`` operand that the CUDA headers build:

    c      = ((32 - w) << 8) | clamp        (clamp = 0 for up, 31 otherwise)
    bval   = p & 31
    cval   = c & 31
    segmask= (c >> 8) & 31
    maxLane= (lane & segmask) | (cval & ~segmask)
    minLane= lane & segmask
    up:   j = lane - bval;                    pval = j >= maxLane
    down: j = lane + bval;                    pval = j <= maxLane
    bfly: j = lane ^ bval;                    pval = j <= maxLane
    idx:  j = minLane | (bval & ~segmask);    pval = j <= maxLane
    result = v[j] if pval else v[lane]

Reductions are compared with a plain Python fold over the participating lanes
(add mod 2^32, signed/unsigned min/max, and/or/xor); non-participating lanes
must be null.

Usage: python3 check_probe.py [path/to/cuda_h100.json]
Exit status 0 when everything matches, 1 otherwise.  No GPU needed.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator

DEFAULT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "cuda_h100.json")

MASK32 = 0xFFFFFFFF
SHFL_KINDS = ("idx", "up", "down", "xor")
REDUCE_OPS = ("add", "min", "max", "umin", "umax", "and", "or", "xor")


def ptx_shfl(kind: str, lane: int, p: int, w: int, values: list[int]) -> int:
    """Value received by ``lane`` from shfl.sync (PTX ISA pseudo-code)."""
    clamp = 0 if kind == "up" else 31
    c = ((32 - w) << 8) | clamp
    bval = p & 31
    cval = c & 31
    segmask = (c >> 8) & 31
    max_lane = (lane & segmask) | (cval & ~segmask)
    min_lane = lane & segmask
    if kind == "up":
        j = lane - bval
        pval = j >= max_lane
    elif kind == "down":
        j = lane + bval
        pval = j <= max_lane
    elif kind == "xor":
        j = lane ^ bval
        pval = j <= max_lane
    elif kind == "idx":
        j = min_lane | (bval & ~segmask)
        pval = j <= max_lane
    else:
        raise ValueError(kind)
    return values[j] if pval else values[lane]


def to_s32(u: int) -> int:
    u &= MASK32
    return u - (1 << 32) if u & 0x80000000 else u


def py_reduce(op: str, xs: list[int]) -> int:
    """Reduction of unsigned 32-bit values; result as unsigned 32-bit."""
    if op == "add":
        return sum(xs) & MASK32
    if op == "min":
        return min(to_s32(x) for x in xs) & MASK32
    if op == "max":
        return max(to_s32(x) for x in xs) & MASK32
    if op == "umin":
        return min(xs)
    if op == "umax":
        return max(xs)
    acc = {"and": MASK32, "or": 0, "xor": 0}[op]
    for x in xs:
        if op == "and":
            acc &= x
        elif op == "or":
            acc |= x
        else:
            acc ^= x
    return acc


def shfl_mismatches(data: dict) -> Iterator[str]:
    values = list(range(32))
    for kind in SHFL_KINDS:
        for w_str, rows in data["shfl"][kind].items():
            w = int(w_str)
            for p_str, got in rows.items():
                p = int(p_str)
                if len(got) != 32:
                    yield f"shfl {kind} w={w} p={p}: {len(got)} entries, expected 32"
                    continue
                for lane in range(32):
                    want = ptx_shfl(kind, lane, p, w, values)
                    if got[lane] != want:
                        yield (f"shfl {kind} w={w} p={p} lane={lane}: hardware={got[lane]} "
                               f"pseudo-code={want}")


def reduce_mismatches(data: dict) -> Iterator[str]:
    for n, rec in enumerate(data["reduce"]):
        op, mask = rec["op"], int(rec["mask"], 16)
        inp, out = rec["input"], rec["output"]
        tag = f"reduce[{n}] op={op} mask={rec['mask']}"
        if op not in REDUCE_OPS:
            yield f"{tag}: unknown op"
            continue
        if len(inp) != 32 or len(out) != 32:
            yield f"{tag}: bad lengths {len(inp)}/{len(out)}"
            continue
        if any(not (0 <= x <= MASK32) for x in inp):
            yield f"{tag}: input not unsigned 32-bit"
        members = [inp[i] for i in range(32) if (mask >> i) & 1]
        want = py_reduce(op, members)
        for lane in range(32):
            if (mask >> lane) & 1:
                if out[lane] != want:
                    yield f"{tag} input={inp} lane={lane}: hardware={out[lane]} python={want}"
            elif out[lane] is not None:
                yield f"{tag} lane={lane}: not in mask but recorded {out[lane]}"


def counts(data: dict) -> dict:
    shfl_rows = sum(len(rows) for kind in SHFL_KINDS for rows in data["shfl"][kind].values())
    reduce_recs = len(data["reduce"])
    reduce_vals = sum(1 for r in data["reduce"] for x in r["output"] if x is not None)
    return {
        "shfl_rows": shfl_rows,
        "shfl_values": 32 * shfl_rows,
        "reduce_records": reduce_recs,
        "reduce_values": reduce_vals,
    }


def main(argv: list[str]) -> int:
    path = argv[1] if len(argv) > 1 else DEFAULT_PATH
    with open(path) as f:
        data = json.load(f)
    print(f"device={data['device']!r} cuda_runtime={data['cuda_runtime']} "
          f"driver={data['driver']} sm={data['sm']}")
    print("counts:", counts(data))
    bad = 0
    for section, gen in (("shfl", shfl_mismatches(data)), ("reduce", reduce_mismatches(data))):
        n = 0
        for msg in gen:
            n += 1
            if n <= 200:
                print("MISMATCH", msg)
        print(f"{section}: {n} mismatches")
        bad += n
    print("OK: all recorded values match the reference models" if bad == 0 else f"FAIL: {bad} mismatches")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
