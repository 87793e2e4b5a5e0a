"""The differential legality sweep (docs/semantics.md [S:legality]): every
op of the registry, on every target and wave verify models, each constant
class (integers -64..65, the float inline constants and 1/(2pi), f32 and
f16 inline patterns, 16-bit and 32-bit literals, float literals binary16
cannot hold), an SGPR and a VGPR in each source slot, compared with what
llvm-mc-22 accepts (one llvm-mc run per target and wave).

    PYTHONPATH=. python benchmarks/legality_sweep.py [--targets gfx900,gfx1200] [--show N]

Prints, per target and wave, the lines compared and the disagreements by
kind ("verify accepts": verify takes what llvm-mc-22 refuses, a legality
bug; "verify refuses": completeness), those a known gap explains
(tests/mc_sweep.py's known_gap) apart, then the totals.  Exit status 1 if
any disagreement is not a known gap.  About 9 minutes for every target on
one core.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import mc_sweep

from verify.target import TARGETS


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated target names")
    ap.add_argument("--show", type=int, default=5, help="unexplained disagreements shown per target")
    args = ap.parse_args(argv)
    if mc_sweep.MC is None:
        print("needs llvm-mc-22", file=sys.stderr)
        return 2
    per_wave = {}
    total, counts = 0, Counter()
    for name in args.targets.split(","):
        t = TARGETS[name]
        for wave in t.waves:
            if wave not in per_wave:
                cs = mc_sweep.cases(wave)
                per_wave[wave] = (cs, mc_sweep.parsed(cs))
            cs, ins = per_wave[wave]
            d = mc_sweep.compare(cs, ins, t, wave)
            kinds = Counter(k if mc_sweep.known_gap(c, t) is None or k == "verify accepts" else f"{k} (known gap)"
                            for k, c in d)
            total += len(cs)
            counts += kinds
            print(f"{name} wave{wave}: {len(cs)} lines, " + (", ".join(f"{v} {k}" for k, v in sorted(kinds.items()))
                                                               or "no disagreement"), flush=True)
            for k, c in [(k, c) for k, c in d if k == "verify accepts" or mc_sweep.known_gap(c, t) is None][:args.show]:
                print(f"    {k}: {c.line}")
    print(f"total: {total} (op, target, wave, slot, operand form) lines compared; "
          + (", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "no disagreement"))
    return 1 if any("known gap" not in k for k in counts) else 0


if __name__ == "__main__":
    sys.exit(main())
