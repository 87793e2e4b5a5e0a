"""Check a prims_probe.cu recording (tests/data/cuda_h100_prims.json) against
NVIDIA's documented semantics, in plain Python (no verify, no z3: it runs on
the GPU machine right after the probe).  Also a model of what the probe
writes (`model_recording`), so the checks are tested without a GPU.

    python3 tests/gpu/check_prims.py FILE.json     # exit 1 on a mismatch

Sources of the model: PTX ISA `shfl.sync` (pval), `fns`; CUDA's
cooperative_groups.h (coalesced_group::shfl/shfl_up/shfl_down through
__fns; labeled_partition/binary_partition groups by label); the CUDA
Programming Guide's match functions (bit equality) and the shuffle
overloads (short/char promote to int; __half/bf16 move 16 bits).  Lanes
with no documented value (a non-member, a group's first exclusive-scan
value) are not compared.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

M32 = 0xFFFFFFFF
Record = dict[str, Any]
Lanes = list[int | None]
MODES = ("idx", "up", "down", "bfly")
TYPES = ("i8", "u8", "i16", "u16", "f16", "bf16", "half2")


# ---------------------------------------------------------------- NVIDIA's semantics

def shfl(mode: str, lane: int, b: int, c: int) -> tuple[int, bool]:
    """PTX shfl.sync: (source lane, pval) for a 32-lane warp."""
    bval, cval, seg = b & 31, c & 31, (c >> 8) & 31
    max_lane = (lane & seg) | (cval & ~seg & 31)
    min_lane = lane & seg
    j = {"idx": min_lane | (bval & ~seg & 31), "up": lane - bval, "down": lane + bval, "bfly": lane ^ bval}[mode]
    ok = j >= max_lane if mode == "up" else j <= max_lane
    return (j if ok else lane), ok


def fns(mask: int, base: int, offset: int) -> int | None:
    """PTX fns.b32 (None: base above 31, undefined)."""
    if base > 31:
        return None
    offset = offset - (1 << 32) if offset & 0x80000000 else offset
    if offset == 0:
        return base if mask >> base & 1 else M32
    pos, count, inc = base, abs(offset) - 1, 1 if offset > 0 else -1
    while 0 <= pos < 32:
        if mask >> pos & 1:
            if count == 0:
                return pos
            count -= 1
        pos += inc
    return M32


def rank_model(mask: int, callers: int, pred: list[int]) -> Lanes:
    calls = mask & callers
    ballot = sum(1 << j for j in range(32) if calls >> j & 1 and pred[j])
    return [bin(ballot & ((1 << i) - 1)).count("1") if calls >> i & 1 else None for i in range(32)]


def coalesced_model(r: Record) -> dict[str, Lanes]:
    mask, d, x = int(r["callers"], 16), r["delta"], r["input"]
    size = bin(mask).count("1")
    members = [j for j in range(32) if mask >> j & 1]
    out: dict[str, Lanes] = {k: [None] * 32 for k in ("rank", "size", "shfl", "down", "up")}
    for i in members:
        rk = members.index(i)
        out["rank"][i], out["size"][i] = rk, size
        s = r["src"][i]
        out["shfl"][i] = x[members[s]] if s < size else None
        if size < 32 and d >= 0x7FFFFFFF:  # delta + 1 is no positive int for __fns: the H100 reads
            continue                       # a non-member lane at 0x7fffffff (coalesced_far)
        if size == 32:  # the header's full-warp path: __shfl_{down,up}_sync, delta modulo 32
            out["down"][i] = x[shfl("down", i, d, 31)[0]]
            out["up"][i] = x[shfl("up", i, d, 0)[0]]
        else:
            dn, up = fns(mask, i, (d + 1) & M32), fns(mask, i, (-(d + 1)) & M32)
            out["down"][i] = x[dn] if dn is not None and dn < 32 else x[i]
            out["up"][i] = x[up] if up is not None and up < 32 else x[i]
    return out


def labeled_model(r: Record) -> dict[str, Lanes]:
    mask, x = int(r["callers"], 16), r["input"]
    out: dict[str, Lanes] = {k: [None] * 32 for k in ("rank", "size", "reduce", "inclusive", "exclusive",
                                                      "b_reduce", "b_inclusive", "b_exclusive")}
    for pre, key in (("", lambda j: r["label"][j]), ("b_", lambda j: r["label"][j] & 1)):
        for i in range(32):
            if not mask >> i & 1:
                continue
            grp = [j for j in range(32) if mask >> j & 1 and key(j) == key(i)]
            below = [j for j in grp if j < i]
            if not pre:
                out["rank"][i], out["size"][i] = len(below), len(grp)
            out[pre + "reduce"][i] = sum(x[j] for j in grp) & M32
            out[pre + "inclusive"][i] = sum(x[j] for j in grp if j <= i) & M32
            out[pre + "exclusive"][i] = sum(x[j] for j in below) & M32 if below else None
    return out


def match64_model(r: Record) -> dict[str, Lanes]:
    calls = int(r["mask"], 16) & int(r["callers"], 16)
    val = [(r["lo"][j], 0 if r["type"] == "f32" else r["hi"][j]) for j in range(32)]  # bits, not IEEE
    lanes = [j for j in range(32) if calls >> j & 1]
    same = len({val[j] for j in lanes}) <= 1
    out: dict[str, Lanes] = {k: [None] * 32 for k in ("any", "all", "all_pred")}
    for i in lanes:
        out["any"][i] = sum(1 << j for j in lanes if val[j] == val[i])
        out["all"][i] = calls if same else 0
        out["all_pred"][i] = int(same)
    return out


def typed_model(r: Record) -> list[int]:
    mode = {"xor": "bfly"}.get(r["mode"], r["mode"])
    w, p = r["width"], r["param"]
    c = ((32 - w) << 8) | (0 if mode == "up" else 31)
    out = []
    for i in range(32):
        v = r["input"][shfl(mode, i, p & M32, c)[0]]
        t = r["type"]
        if t == "i8":
            v = (v & 0xFF) - (0x100 if v & 0x80 else 0)
        elif t == "u8":
            v &= 0xFF
        elif t == "i16":
            v = (v & 0xFFFF) - (0x10000 if v & 0x8000 else 0)
        elif t in ("u16", "f16", "bf16"):
            v &= 0xFFFF
        out.append(v & M32)
    return out


# ---------------------------------------------------------------- the check

def _u32s(v: Any, nullable: bool) -> bool:
    return isinstance(v, list) and len(v) == 32 and all(
        (x is None and nullable) or (isinstance(x, int) and 0 <= x <= M32) for x in v)


SECTIONS: dict[str, tuple[list[str], list[str]]] = {  # section: (full lane lists, nullable lane lists)
    "shflp": (["input", "out", "pred"], []),
    "fns": (["mask", "base", "offset", "out"], []),
    "rank": (["pred"], ["out"]),
    "coalesced": (["input", "src"], ["rank", "size", "shfl", "down", "up"]),
    "coalesced_far": (["input", "src"], ["rank", "size", "shfl", "down", "up"]),
    "labeled": (["input", "label"], ["rank", "size", "reduce", "inclusive", "exclusive", "b_reduce",
                                     "b_inclusive", "b_exclusive"]),
    "match64": (["lo", "hi"], ["any", "all", "all_pred"]),
    "typed": (["input", "out"], []),
}


def schema_errors(data: Any) -> list[str]:
    if not isinstance(data, dict):
        return ["top level is not an object"]
    errs = [f"{k}: missing or not {t.__name__}" for k, t in (("device", str), ("cuda_runtime", int),
                                                             ("driver", int), ("sm", str))
            if not isinstance(data.get(k), t)]
    for sec, (full, nullable) in SECTIONS.items():
        recs = data.get(sec)
        if not isinstance(recs, list) or not recs:
            errs.append(f"{sec}: missing or empty")
            continue
        for n, r in enumerate(recs):
            errs += [f"{sec}[{n}].{k}: not 32 u32 values" for k in full if not _u32s(r.get(k), False)]
            errs += [f"{sec}[{n}].{k}: not 32 u32-or-null values" for k in nullable if not _u32s(r.get(k), True)]
    return errs


def _cmp(bad: list[str], where: str, got: Lanes, want: Lanes) -> None:
    for i in range(32):
        if want[i] is not None and got[i] != want[i]:
            bad.append(f"{where} lane {i}: got {got[i]}, expected {want[i]}")
            return


def check(data: Record) -> list[str]:
    bad = schema_errors(data)
    if bad:
        return bad
    for n, r in enumerate(data["shflp"]):
        want = [shfl(r["mode"], i, r["b"], r["c"]) for i in range(32)]
        _cmp(bad, f"shflp[{n}] {r['mode']} b={r['b']} c={r['c']:#x} out", r["out"], [r["input"][j] for j, _ in want])
        _cmp(bad, f"shflp[{n}] {r['mode']} b={r['b']} c={r['c']:#x} pred", r["pred"], [int(ok) for _, ok in want])
    for n, r in enumerate(data["fns"]):
        _cmp(bad, f"fns[{n}]", r["out"], [fns(r["mask"][i], r["base"][i], r["offset"][i]) for i in range(32)])
    for n, r in enumerate(data["rank"]):
        _cmp(bad, f"rank[{n}] mask {r['mask']} callers {r['callers']}", r["out"],
             rank_model(int(r["mask"], 16), int(r["callers"], 16), r["pred"]))
    for sec, model in (("coalesced", coalesced_model), ("coalesced_far", coalesced_model),
                       ("labeled", labeled_model), ("match64", match64_model)):
        for n, r in enumerate(data[sec]):
            for k, want in model(r).items():
                _cmp(bad, f"{sec}[{n}].{k} callers {r['callers']}", r[k], want)
    for n, r in enumerate(data["typed"]):
        _cmp(bad, f"typed[{n}] {r['type']} {r['mode']} p={r['param']} w={r['width']}", r["out"], typed_model(r))
    return bad


def model_recording(seed: int = 7) -> Record:
    """A recording as the probe writes it, from the model above (fewer records)."""
    rnd = random.Random(seed)
    data: Record = {"device": "model", "cuda_runtime": 0, "driver": 0, "sm": "90"}
    lanes = range(32)
    data["shflp"] = []
    for mode in MODES:
        for b, c in ((1, 0x1F), (5, 0x181F), (33, 0), (3, 0x1C00), (0xFFFFFFFF, 3)):
            inp = [0xA0000000 | i << 8 | rnd.randrange(256) for i in lanes]
            src = [shfl(mode, i, b, c) for i in lanes]
            data["shflp"].append({"mode": mode, "b": b, "c": c, "input": inp, "out": [inp[j] for j, _ in src],
                                  "pred": [int(ok) for _, ok in src]})
    data["fns"] = []
    for k in range(3):
        m = [0xAAAAAAAA if k == 0 else rnd.getrandbits(32) for _ in lanes]
        b = [rnd.randrange(32) for _ in lanes]
        o = [rnd.randrange(-35, 36) & M32 for _ in lanes]
        data["fns"].append({"mask": m, "base": b, "offset": o, "out": [fns(m[i], b[i], o[i]) for i in lanes]})
    callers = (0xFFFFFFFF, 0x0F0F00F1, 0x7FFFFFFF)
    data["rank"] = []
    for mask in (0xFFFFFFFF, 0x12345678):
        for c in callers:
            pred = [rnd.choice([0, 1, 0x80000000]) for _ in lanes]
            data["rank"].append({"mask": f"0x{mask:08x}", "callers": f"0x{c:08x}", "pred": pred,
                                 "out": rank_model(mask, c, pred)})
    data["coalesced"], data["coalesced_far"], data["labeled"], data["match64"] = [], [], [], []
    for c in callers:
        for d in (1, 33):
            size = bin(c).count("1")
            r: Record = {"callers": f"0x{c:08x}", "delta": d, "input": [0xB0000000 | i << 8 for i in lanes],
                         "src": [rnd.randrange(size) for _ in lanes]}
            r.update(coalesced_model(r))
            data["coalesced"].append(r)
        r = {"callers": f"0x{c:08x}", "input": [rnd.getrandbits(28) for _ in lanes],
             "label": [rnd.choice([0, 1, 2, M32]) for _ in lanes]}
        r.update(labeled_model(r))
        data["labeled"].append(r)
        for ty in ("u64", "f64", "f32"):
            r = {"type": ty, "mask": "0xffffffff", "callers": f"0x{c:08x}",
                 "lo": [rnd.choice([0, 0x80000000, 7]) for _ in lanes], "hi": [rnd.choice([0, 1]) for _ in lanes]}
            r.update(match64_model(r))
            data["match64"].append(r)
    data["typed"] = []
    for t in TYPES:
        for mode, p, w in (("idx", 3, 32), ("xor", 1, 8), ("down", 17, 32), ("up", 1, 8)):
            r = {"type": t, "mode": mode, "param": p, "width": w,
                 "input": [rnd.getrandbits(32) for _ in lanes]}
            r["out"] = typed_model(r)
            data["typed"].append(r)
    for c in callers:  # last, as the probe writes it: the records above keep their inputs
        for d in (0x7FFFFFFE, 0xFFFFFFFF):
            size = bin(c).count("1")
            r = {"callers": f"0x{c:08x}", "delta": d, "input": [0xB0000000 | i << 8 for i in lanes],
                 "src": [rnd.randrange(size) for _ in lanes]}
            r.update(coalesced_model(r))
            data["coalesced_far"].append(r)
    return data


def main(argv: list[str]) -> int:
    with open(argv[1]) as f:
        data = json.load(f)
    bad = check(data)
    for sec in SECTIONS:
        print(f"{sec}: {len(data.get(sec) or [])} records")
    for b in bad[:50]:
        print("MISMATCH", b)
    print(f"{len(bad)} mismatches" if bad else "all records agree with NVIDIA's documented semantics")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
