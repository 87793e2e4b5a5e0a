"""The random f32 search of exact claims (verify.cex.f32_search), before and
after issue #35.5, on the catalogue's largest case: wave_reduce_fsub_gfx9 on
gfx900, wave64, 300 random (mask, values) cases, none failing (the lowering
is correct, so every case runs).

  before: the scalar search as it was (tests/test_f32_search.py's reference:
          each case replayed with a trace, the spec run in all 64 lanes, its
          fold computed again in each lane: spec.py's group memo off)
  after:  verify.cex.f32_search (no trace, the spec in the active lanes only,
          a lane-free fold once per group, binary32 rounding by struct alone
          where it can: backend.fadd32 is the ctypes one in `before`)

Both must give the same answer; CPU seconds of this process, one run each.

Usage: python benchmarks/bench_f32_search.py [--trials N]
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_f32_search import _bits_reference, fresh_of, reference_search

from verify import backend, catalog, spec
from verify.cex import f32_search
from verify.target import resolve


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=300)
    args = ap.parse_args()
    low = catalog.load("wave_reduce_fsub_gfx9")
    target = resolve("gfx900")[0]
    enc = fresh_of(low, target, 64)
    lane_free, fadd32 = spec._call_lane_free, backend.fadd32
    spec._call_lane_free = lambda ctx, node, values: False  # type: ignore[assignment]
    backend.fadd32 = lambda a, b: _bits_reference(  # type: ignore[assignment]
        struct.unpack("<f", struct.pack("<I", a))[0] + struct.unpack("<f", struct.pack("<I", b))[0])
    t0 = time.process_time()
    before = reference_search(low, target, 64, {}, enc, trials=args.trials)
    t_before = time.process_time() - t0
    spec._call_lane_free, backend.fadd32 = lane_free, fadd32  # type: ignore[assignment]
    t0 = time.process_time()
    after = f32_search(low, target, 64, {}, enc, trials=args.trials)
    t_after = time.process_time() - t0
    assert before == after, (before, after)
    print(f"before (scalar reference): {t_before:8.2f} s CPU  ({args.trials} cases, answer {before})")
    print(f"after  (f32_search):       {t_after:8.2f} s CPU  ({args.trials} cases, answer {after})")
    print(f"speed-up: {t_before / t_after:.1f}x (goal >= 20)")


if __name__ == "__main__":
    main()
