"""Check a vote_probe.cu recording (tests/data/cuda_h100_votes.json) against
NVIDIA's documented semantics, in plain Python (no verify, no z3: it runs on
the GPU machine right after the probe).  Also a model of what the probe
writes (`model_recording`), so the checks are tested without a GPU.

    python3 tests/gpu/check_votes.py FILE.json     # exit 1 on a mismatch

Float cooperative-groups results are not "right or wrong": the script says
which combining order each record matches: seq (left to right), hs
(Hillis-Steele, below op own), tree (adjacent pairs first) and, for reduce,
bfly (the xor butterfly from the widest stride down, partner op own: lane
dependent for a non-commutative op).  On the H100 (CUDA 13.0) every f32
record matches hs for the scans and bfly for reduce.
"""

from __future__ import annotations

import json
import struct
import sys
from collections.abc import Callable
from typing import Any

M32 = 0xFFFFFFFF
Record = dict[str, Any]


# ---------------------------------------------------------------- schema

def _u32_list(v: Any, nullable: bool) -> bool:
    return (isinstance(v, list) and len(v) == 32
            and all((x is None and nullable) or (isinstance(x, int) and 0 <= x <= M32) for x in v))


def _hex32(v: Any) -> bool:
    return isinstance(v, str) and v.startswith("0x") and len(v) == 10


def schema_errors(data: Any) -> list[str]:
    """Every way `data` departs from the probe's output structure."""
    errs: list[str] = []
    if not isinstance(data, dict):
        return ["top level is not an object"]
    for k, t in (("device", str), ("cuda_runtime", int), ("driver", int), ("sm", str)):
        if not isinstance(data.get(k), t):
            errs.append(f"{k}: missing or not {t.__name__}")
    fields: dict[str, tuple[dict[str, Callable[[Any], bool]], list[str], list[str]]] = {
        "votes": ({"mask": _hex32, "callers": _hex32}, ["pred"], ["entry", "ballot", "any", "all", "activemask"]),
        "match": ({"mask": _hex32, "callers": _hex32}, ["value"], ["any", "all", "all_pred"]),
        "cg": ({"type": lambda v: v in ("f32", "i32"), "op": lambda v: isinstance(v, str),
                "width": lambda v: v in (1, 2, 4, 8, 16, 32)}, ["input", "reduce", "inclusive", "exclusive"], []),
    }
    for sec, (scalars, full, nullable) in fields.items():
        recs = data.get(sec)
        if not isinstance(recs, list) or not recs:
            errs.append(f"{sec}: missing or empty")
            continue
        for n, r in enumerate(recs):
            for k, ok in scalars.items():
                if not ok(r.get(k)):
                    errs.append(f"{sec}[{n}].{k}: bad value {r.get(k)!r}")
            for k in full:
                if not _u32_list(r.get(k), False):
                    errs.append(f"{sec}[{n}].{k}: not 32 u32 values")
            for k in nullable:
                if not _u32_list(r.get(k), True):
                    errs.append(f"{sec}[{n}].{k}: not 32 u32-or-null values")
    recs = data.get("shfl64")
    if not isinstance(recs, list) or not recs:
        errs.append("shfl64: missing or empty")
    else:
        for n, r in enumerate(recs):
            if r.get("kind") not in ("idx", "up", "down", "xor") or r.get("type") not in ("ll", "double") \
                    or r.get("width") not in (1, 2, 4, 8, 16, 32) or not isinstance(r.get("param"), int) \
                    or not _hex32(r.get("mask")):
                errs.append(f"shfl64[{n}]: bad kind/type/width/param/mask")
            for k, nullable_ok in (("input", False), ("output", True)):
                v = r.get(k)
                if not (isinstance(v, list) and len(v) == 32 and all(
                        (x is None and nullable_ok) or (isinstance(x, int) and 0 <= x < 1 << 64) for x in v)):
                    errs.append(f"shfl64[{n}].{k}: not 32 u64 values")
    return errs


# ---------------------------------------------------------------- NVIDIA's semantics, in Python

def vote_model(mask: int, callers: int, pred: list[int]) -> dict[str, list[int | None]]:
    """What each lane receives: lanes that call are those in mask and callers."""
    calls = mask & callers
    ballot = sum(1 << j for j in range(32) if calls >> j & 1 and pred[j])
    res: dict[str, list[int | None]] = {k: [None] * 32 for k in ("entry", "ballot", "any", "all", "activemask")}
    for i in range(32):
        if callers >> i & 1:
            res["entry"][i] = callers
        if calls >> i & 1:
            res["ballot"][i] = ballot
            res["any"][i] = int(ballot != 0)
            res["all"][i] = int(ballot == calls)
            res["activemask"][i] = calls
    return res


def match_model(mask: int, callers: int, value: list[int]) -> dict[str, list[int | None]]:
    calls = mask & callers
    lanes = [j for j in range(32) if calls >> j & 1]
    same = len({value[j] for j in lanes}) <= 1
    res: dict[str, list[int | None]] = {k: [None] * 32 for k in ("any", "all", "all_pred")}
    for i in lanes:
        res["any"][i] = sum(1 << j for j in lanes if value[j] == value[i])
        res["all"][i] = calls if same else 0
        res["all_pred"][i] = int(same)
    return res


def shfl_src(kind: str, lane: int, param: int, width: int) -> int:
    """PTX shfl.sync's source lane (c = ((32 - w) << 8) | clamp)."""
    c = ((32 - width) << 8) | (0 if kind == "up" else 31)
    b = param & 31
    cval, seg = c & 31, (c >> 8) & 31
    max_lane = (lane & seg) | (cval & ~seg & 31)
    min_lane = lane & seg
    j = {"idx": min_lane | (b & ~seg & 31), "up": lane - b, "down": lane + b, "xor": lane ^ b}[kind]
    ok = j >= max_lane if kind == "up" else j <= max_lane
    return j if ok else lane


def shfl64_model(r: Record) -> list[int | None]:
    """The whole 64-bit value of the source lane; None where undefined (the
    lane does not call, or its source lane is outside the mask)."""
    mask = int(r["mask"], 16)
    out: list[int | None] = [None] * 32
    for i in range(32):
        if mask >> i & 1:
            j = shfl_src(r["kind"], i, r["param"], r["width"])
            out[i] = r["input"][j] if mask >> j & 1 else None
    return out


def f32(b: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", b & M32))[0])


def f32_bits(x: float) -> int:
    try:
        return int(struct.unpack("<I", struct.pack("<f", x))[0])
    except OverflowError:
        return 0x7F800000 if x > 0 else 0xFF800000


def _fadd(a: int, b: int) -> int:
    return f32_bits(f32(a) + f32(b))  # double then round: exact for one f32 add


def _fmin(a: int, b: int) -> int:  # cg::less: a < b ? a : b
    return a if f32(a) < f32(b) else b


def _fmax(a: int, b: int) -> int:  # cg::greater: a > b ? a : b
    return a if f32(a) > f32(b) else b


def _s32(v: int) -> int:
    return v - (1 << 32) if v & 0x80000000 else v


F_OPS: dict[str, Callable[[int, int], int]] = {"plus": _fadd, "less": _fmin, "greater": _fmax}
I_OPS: dict[str, Callable[[int, int], int]] = {
    "plus": lambda a, b: (a + b) & M32,
    "less": lambda a, b: a if _s32(a) < _s32(b) else b,
    "bit_xor": lambda a, b: a ^ b,
}


def fold_seq(op: Callable[[int, int], int], xs: list[int]) -> int:
    acc = xs[0]
    for x in xs[1:]:
        acc = op(acc, x)
    return acc


def fold_tree(op: Callable[[int, int], int], xs: list[int]) -> int:
    while len(xs) > 1:
        xs = [op(xs[k], xs[k + 1]) for k in range(0, len(xs) - 1, 2)] + ([xs[-1]] if len(xs) % 2 else [])
    return xs[0]


def fold_hs(op: Callable[[int, int], int], xs: list[int]) -> int:
    """The tree a Hillis-Steele inclusive scan builds in the last element's lane."""
    def t(i: int, k: int) -> int:
        if k == 0:
            return xs[i]
        h = 1 << (k - 1)
        return op(t(i - h, k - 1), t(i, k - 1)) if i >= h else t(i, k - 1)
    return t(len(xs) - 1, (len(xs) - 1).bit_length())


def bfly(op: Callable[[int, int], int], xs: list[int], lane: int) -> int:
    """What lane `lane` of the tile xs holds after the xor butterfly with
    strides len/2, ..., 2, 1, each step `partner op own` (NVIDIA's cg::reduce
    as recorded on the H100)."""
    v = list(xs)
    s = len(v) >> 1
    while s:
        v = [op(v[k ^ s], v[k]) for k in range(len(v))]
        s >>= 1
    return v[lane]


ORDERS: dict[str, Callable[[Callable[[int, int], int], list[int]], int]] = {
    "seq": fold_seq, "hs": fold_hs, "tree": fold_tree}
REDUCE_ORDERS = (*ORDERS, "bfly")


def same_f32(a: int, b: int) -> bool:
    na, nb = (a & 0x7FFFFFFF) > 0x7F800000, (b & 0x7FFFFFFF) > 0x7F800000
    return a == b or (na and nb)


def cg_orders(r: Record) -> dict[str, set[str]]:
    """For each result (reduce, inclusive, exclusive): the orders it matches."""
    w, xs = r["width"], r["input"]
    op = (F_OPS if r["type"] == "f32" else I_OPS)[r["op"]]
    eq = same_f32 if r["type"] == "f32" else (lambda a, b: a == b)
    out: dict[str, set[str]] = {}
    for res in ("reduce", "inclusive", "exclusive"):
        ok = set()
        for name in REDUCE_ORDERS if res == "reduce" else ORDERS:
            fold = ORDERS.get(name, fold_seq)
            good = True
            for i in range(32):
                base, k = i - i % w, i % w
                tile = xs[base:base + w]
                if res == "reduce":
                    want = bfly(op, tile, k) if name == "bfly" else fold(op, tile)
                elif res == "inclusive":
                    want = fold(op, tile[:k + 1])
                elif k == 0:
                    continue  # exclusive: the tile's first lane has no documented value
                else:
                    want = fold(op, tile[:k])
                if not eq(r[res][i], want):
                    good = False
                    break
            if good:
                ok.add(name)
        out[res] = ok
    return out


# ---------------------------------------------------------------- the check

def check(data: Record) -> tuple[list[str], dict[str, int]]:
    """(mismatches, cg order counts)."""
    bad = schema_errors(data)
    if bad:
        return bad, {}
    for n, r in enumerate(data["votes"]):
        want = vote_model(int(r["mask"], 16), int(r["callers"], 16), r["pred"])
        for k, v in want.items():
            if r[k] != v:
                bad.append(f"votes[{n}].{k} (mask {r['mask']}, callers {r['callers']}): got {r[k]}, NVIDIA's docs say {v}")
    for n, r in enumerate(data["match"]):
        want = match_model(int(r["mask"], 16), int(r["callers"], 16), r["value"])
        for k, v in want.items():
            if r[k] != v:
                bad.append(f"match[{n}].{k} (mask {r['mask']}, callers {r['callers']}): got {r[k]}, expected {v}")
    for n, r in enumerate(data["shfl64"]):
        out64 = shfl64_model(r)
        for i in range(32):
            if out64[i] is not None and r["output"][i] != out64[i]:
                bad.append(f"shfl64[{n}] {r['type']} {r['kind']} w={r['width']} p={r['param']} lane {i}: "
                           f"got {r['output'][i]:#x}, expected {out64[i]:#x}")
                break
    counts: dict[str, int] = {}
    for n, r in enumerate(data["cg"]):
        orders = cg_orders(r)
        for res, ok in orders.items():
            if r["type"] == "i32" and "seq" not in ok:
                bad.append(f"cg[{n}] i32 {r['op']} w={r['width']} {res}: not the integer {res}")
            for o in ok:
                key = f"{r['type']}.{r['op']}.{res}.{o}"
                counts[key] = counts.get(key, 0) + 1
    return bad, counts


def orders_matching_all(data: Record, counts: dict[str, int]) -> dict[str, list[str]]:
    """For each f32 operator and result ("f32.plus.reduce"): the orders every
    such record matches (the order NVIDIA's cg uses, when one is left)."""
    total: dict[str, int] = {}
    for r in data.get("cg", []):
        if r["type"] == "f32":
            for res in ("reduce", "inclusive", "exclusive"):
                key = f"f32.{r['op']}.{res}"
                total[key] = total.get(key, 0) + 1
    return {k: [o for o in REDUCE_ORDERS if counts.get(f"{k}.{o}", 0) == n] for k, n in total.items()}


def model_recording() -> Record:
    """A recording as the probe writes it, computed from NVIDIA's documented
    semantics and NVIDIA's cg orders (Hillis-Steele, bfly): the checker's own test."""
    import random
    rnd = random.Random(7)
    data: Record = {"device": "model", "cuda_runtime": 0, "driver": 0, "sm": "90", "votes": [], "match": [],
                    "shfl64": [], "cg": []}
    for mask in (0xFFFFFFFF, 0x0000FFFF, 0x80000001, 0x12345678):
        for callers in (0xFFFFFFFF, 0xFFFFFFF0):
            pred = [rnd.choice([0, 1, 0x80000000]) for _ in range(32)]
            data["votes"].append({"mask": f"0x{mask:08x}", "callers": f"0x{callers:08x}", "pred": pred,
                                  **vote_model(mask, callers, pred)})
            value = [rnd.randrange(3) for _ in range(32)]
            data["match"].append({"mask": f"0x{mask:08x}", "callers": f"0x{callers:08x}", "value": value,
                                  **match_model(mask, callers, value)})
    for kind in ("idx", "up", "down", "xor"):
        for width, param, mask in ((32, 5, 0xFFFFFFFF), (16, 3, 0x0000FFFF), (4, -1, 0xFFFFFFFF)):
            inp = [((0xA0000000 | (i << 8) | i) << 32) | rnd.getrandbits(32) for i in range(32)]
            r: Record = {"kind": kind, "type": "ll", "width": width, "param": param, "mask": f"0x{mask:08x}", "input": inp}
            r["output"] = [v if v is not None else (inp[i] if mask >> i & 1 else None)
                           for i, v in enumerate(shfl64_model(r))]
            data["shfl64"].append(r)
    for w in (4, 32):
        for ty, op in (("f32", "plus"), ("f32", "less"), ("i32", "plus")):
            if ty == "f32":
                xs = [f32_bits(rnd.choice([1e8, -1e8, 1.0, 0.1, -0.0])) for _ in range(32)]
            else:
                xs = [rnd.getrandbits(32) for _ in range(32)]
            fn = (F_OPS if ty == "f32" else I_OPS)[op]
            rec: Record = {"type": ty, "op": op, "width": w, "input": xs}
            rec["reduce"] = [bfly(fn, xs[i - i % w:i - i % w + w], i % w) for i in range(32)]
            rec["inclusive"] = [fold_hs(fn, xs[i - i % w:i + 1]) for i in range(32)]
            rec["exclusive"] = [fold_hs(fn, xs[i - i % w:i]) if i % w else 0 for i in range(32)]
            data["cg"].append(rec)
    return data


def main(argv: list[str]) -> int:
    with open(argv[1]) as f:
        data = json.load(f)
    bad, counts = check(data)
    for k in sorted(counts):
        print(f"cg order {k}: {counts[k]} records")
    for k, names in sorted(orders_matching_all(data, counts).items()):
        print(f"cg {k}: every record matches {', '.join(names) or 'NO order'}")
    for b in bad[:50]:
        print("MISMATCH", b)
    print(f"{len(bad)} mismatches" if bad else "all records agree with NVIDIA's documented semantics")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
