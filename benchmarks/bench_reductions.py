"""Every reduction and scan proof's time, and the naive encoding beside the
monoid one.

    python benchmarks/bench_reductions.py [--naive-wave 8]

Part 1: every catalogue lowering whose spec folds lanes (red.*), per wave,
on the first target it declares, with the encoding `verify lowering` uses
(the monoid encoding for one-operator folds; the exact f32 tree uses bit-vectors).
Part 2: a whole-wave row scan at a small wave, naive vs monoid, per operator.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from verify import catalog
from verify.lowering_file import load_lowering
from verify.refine import prove_one
from verify.target import get, resolve_all


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--naive-wave", type=int, default=8, choices=(8, 16))
    ap.add_argument("--naive-timeout", type=float, default=60.0)
    args = ap.parse_args()

    rows = []
    for p in catalog.lowering_files():
        low = load_lowering(p)
        if not low.spec.startswith("red."):
            continue
        t = resolve_all(low.targets)[0]
        for wave in low.waves:
            t0 = time.perf_counter()
            r, _ = prove_one(low, t, wave)
            rows.append((low.name, t.name, wave, r.verdict, r.method.split(", ")[1], time.perf_counter() - t0))
    w = max(len(r[0]) for r in rows)
    print(f"{'lowering':<{w}}  target   wave  verdict  encoding               ms")
    for name, tn, wave, v, enc, dt in sorted(rows, key=lambda r: -r[5]):
        print(f"{name:<{w}}  {tn:<8} {wave:>4}  {v:<8} {enc:<22} {dt * 1000:7.1f}")
    w64 = [r[5] for r in rows if r[2] == 64]
    print(f"\n{len(rows)} reduction/scan proofs; wave64: {len(w64)}, median {statistics.median(w64) * 1000:.0f} ms, "
          f"max {max(w64) * 1000:.0f} ms; all: max {max(r[5] for r in rows) * 1000:.0f} ms; "
          f"not proved: {sum(r[3] != 'proved' for r in rows)}")

    from test_reductions import OPS, row_scan

    print(f"\nrow scan at wave{args.naive_wave}, naive bit-vector vs monoid encoding (timeout {args.naive_timeout:.0f} s):")
    for op in OPS:
        p = Path(f"/tmp/verify-bench-{op}.s")
        p.write_text(row_scan(op, args.naive_wave))
        low = load_lowering(p)
        out = []
        for enc in ("naive", "auto"):
            t0 = time.perf_counter()
            r, _ = prove_one(low, get("gfx1100"), args.naive_wave, timeout=args.naive_timeout, encoding=enc)
            out.append(f"{r.verdict} {time.perf_counter() - t0:7.2f} s")
        print(f"  {op:<5} naive: {out[0]:<20} monoid: {out[1]}")


if __name__ == "__main__":
    main()
