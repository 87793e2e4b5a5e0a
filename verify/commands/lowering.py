"""`verify lowering`: prove one lowering refines its spec."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..assume import parse_assume
from ..refine import Result, check_lowering, instantiations, lowering_json, lowering_lines, worst_verdict
from ..summary import counts
from ..summary import line as summary_line
from . import EXIT, EXIT_ERROR, EXIT_UNKNOWN
from .common import dump, print_lines, print_warnings, progress, shared, vacuous, writable, write
from .loading import load


def overall(results: list[Result]) -> int:
    """The exit code of a set of results: that of the worst verdict."""
    return EXIT[worst_verdict(results)]


def cmd_lowering(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    assume = parse_assume(args.assume)
    writable(args.svg, "--svg")
    writable(args.smt2, "--smt2", directory=True)
    solver2 = ""  # the second solver's name, with --double-check
    if args.double_check:
        from ..smt import second  # the second solver loads only for --double-check (test_imports)

        try:
            solver2 = second.version()
        except second.Unavailable as e:
            print(f"verify: error: {e}", file=err)
            return EXIT_ERROR
    low = load(args.name)
    targets, waves, notes = instantiations(low, args.target, args.wave)
    with progress(err, "lowering", not args.json):
        results = check_lowering(low, targets, waves, args.timeout, assume, args.robust,
                                 smt2=bool(args.smt2) or bool(solver2))
    print_warnings([w for r in results for w in r.warnings], err)
    print_lines(notes, err)
    code = overall(results)
    if code == EXIT_ERROR:
        r = next(r for r in results if r.verdict == "error")
        o = next(o for o in r.obligations if o.verdict == "error")
        vacuous(r, low.spans.get("exec") if o.name == "contract" else low.spans.get("spec"))
    if args.smt2:
        from ..gate import smt2_files, write_files  # a command's own modules load with it (test_imports)

        write_files(args.smt2, smt2_files(low.name, {f"{r.target}.w{r.wave}": (r.shared_with, r.smt2) for r in results}))
    n = counts(r.verdict for r in results)
    if args.svg:
        from .. import svg  # (the picture's modules load with --svg: start-up, issue #35)

        write(args.svg, svg.result_svg(low, results, assume, args.svg_full))
    checked: list[str] = []
    if solver2:
        checked, agree = double_check(solver2, results)
        code = code if agree else max(code, EXIT_UNKNOWN)
    if args.json:
        js = lowering_json(low, results, args.times)
        extra: dict[str, Any] = {"double_check": checked} if solver2 else {}
        return dump(shared("lowering", {**js, **extra}, js["results"], n, js["verdict"]), out, code)
    print_lines(lowering_lines(low, results, args.times, args.robust), out)
    if len(results) > 1:
        print(summary_line(n), file=out)
    print_lines(checked, out)
    return code


def double_check(solver2: str, results: list[Result]) -> tuple[list[str], bool]:
    """Re-ask every obligation of each proved instantiation (one solver run
    per shared group) of the second solver: what it says, and whether it
    agrees everywhere."""
    from ..smt import second  # the second solver loads only for --double-check (test_imports)

    lines: list[str] = []
    asked = bad = 0
    for r in results:
        if r.verdict != "proved" or r.shared_with is not None:
            continue
        asked += len(r.smt2)
        for name, want, got in second.double_check(r.smt2):
            bad += 1
            lines.append(f"double-check: {r.target} wave{r.wave} {name}: {solver2} answers {got}; "
                         f"the obligation holds only if {want}")
    lines.append(f"double-check: {solver2} {'agrees on' if not bad else 'disagrees on ' + str(bad) + ' of'} "
                 f"{asked} obligation{'s' if asked != 1 else ''} of the proofs")
    return lines, bad == 0

