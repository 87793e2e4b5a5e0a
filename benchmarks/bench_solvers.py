"""z3 against bitwuzla on the catalogue's proof obligations.

    pip install bitwuzla   # optional: pip install 'verify[solvers]'
    python benchmarks/bench_solvers.py [--timeout 60] [--every K] [--classes shuffle,vote,...]

Exports every value and exec obligation of the catalogue as SMT-LIB 2 (what
`verify prove --smt2 DIR` writes; runs shared between targets counted once),
then answers each file with z3 as verify asks it (tactic simplify,
ctx-simplify, smt), with z3's default solver, and with bitwuzla's defaults,
and prints the totals, medians, slowest files and any disagreement, then the
same per query class (a lowering's catalogue directory: shuffles, votes,
reductions and scans, 64-bit pairs, ...) and which solver the rule
``fewest-unknown-then-total`` picks for it: the one with the fewest unknown
answers, then the least total time, z3 on a tie (a choice made here, by
measurement, never by racing the solvers in a proof).  ``--every K`` takes
every K-th lowering file (a sample).  The results are in docs/ci.md
("Solvers").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import z3

from verify import catalog
from verify import target as T
from verify.lowering_file import load_lowering
from verify.refine import check_lowering


def obligations(every: int = 1, classes: set[str] | None = None) -> list[tuple[str, str]]:
    out = []
    files = [p for p in catalog.lowering_files() if classes is None or p.parent.name in classes]
    for p in files[::every]:
        low = load_lowering(p)
        for r in check_lowering(low, T.resolve_all(low.targets), low.waves, smt2=True):
            if r.shared_with is None:
                out += [(f"{p.parent.name}/{low.name}.{r.target}.w{r.wave}.{k}", v) for k, v in r.smt2.items()
                        if k not in ("contract", "defined")]
    return out


def z3_tactic(text: str, timeout: float) -> str:
    s = z3.Then("simplify", "ctx-simplify", "smt").solver()
    s.set("timeout", int(timeout * 1000))
    s.add(z3.parse_smt2_string(text))
    return str(s.check())


def z3_default(text: str, timeout: float) -> str:
    s = z3.Solver()
    s.set("timeout", int(timeout * 1000))
    s.from_string(text)
    return str(s.check())


def bitwuzla(text: str, timeout: float) -> str:
    import bitwuzla as bw

    tm, opts = bw.TermManager(), bw.Options()
    opts.set(bw.Option.TIME_LIMIT_PER, int(timeout * 1000))
    p = bw.Parser(tm, opts)
    p.parse(text.replace("(check-sat)", ""), True, False)
    return str(p.bitwuzla().check_sat())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--every", type=int, default=1, help="every K-th lowering file only")
    ap.add_argument("--classes", default="", help="only these catalogue directories (comma list)")
    args = ap.parse_args()
    solvers = {"z3 (verify's tactic)": z3_tactic, "z3 (default solver)": z3_default}
    try:
        import bitwuzla as bw

        solvers[f"bitwuzla {bw.version()}"] = bitwuzla
    except ImportError:
        print("bitwuzla is not installed: pip install bitwuzla")
    files = obligations(args.every, set(args.classes.split(",")) if args.classes else None)
    times: dict[str, list[float]] = {k: [] for k in solvers}
    answers: dict[str, list[str]] = {k: [] for k in solvers}
    for _name, text in files:
        for k, f in solvers.items():
            t0 = time.perf_counter()
            answers[k].append(f(text, args.timeout))
            times[k].append(time.perf_counter() - t0)
    print(f"{len(files)} obligations, timeout {args.timeout:.0f} s")
    for k in solvers:
        ts = times[k]
        worst = max(range(len(ts)), key=ts.__getitem__)
        print(f"{k:<24} total {sum(ts):8.2f} s  median {statistics.median(ts) * 1000:7.1f} ms  "
              f"max {ts[worst] * 1000:8.0f} ms ({files[worst][0]})  unknown {answers[k].count('unknown')}")
    by_class: dict[str, list[int]] = {}
    for k, (name, _) in enumerate(files):
        by_class.setdefault(name.split("/", 1)[0], []).append(k)
    print("\nper class (total s / unknown; the pick: fewest unknown, then least total, z3 on a tie)")
    for cls, ks in sorted(by_class.items()):
        cells = {s: (sum(times[s][k] for k in ks), sum(answers[s][k] == "unknown" for k in ks)) for s in solvers}
        pick = min(solvers, key=lambda s: (cells[s][1], cells[s][0], not s.startswith("z3 (verify")))
        print(f"{cls:<14} {len(ks):>4} obligations  " +
              "  ".join(f"{s.split(' (')[0] if s.startswith('bitwuzla') else s}: {c[0]:7.2f} s/{c[1]}"
                        for s, c in cells.items()) + f"  -> {pick}")
    ref = answers["z3 (verify's tactic)"]
    for k in solvers:
        for (name, _), a, b in zip(files, ref, answers[k]):
            if a != b and "unknown" not in (a, b):
                print(f"DISAGREE {name}: z3 {a}, {k} {b}")


if __name__ == "__main__":  # --write: what it prints becomes its measured block (docblock.py)
    import docblock

    sys.exit(docblock.run(main, "bench_solvers"))
