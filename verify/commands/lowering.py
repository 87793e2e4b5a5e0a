"""`verify lowering`: prove one lowering refines its spec."""

from __future__ import annotations

import argparse
from typing import TextIO

from .. import svg
from ..assume import parse_assume
from ..refine import Result, check_lowering, instantiations, lowering_json, lowering_lines, worst_verdict
from ..summary import counts
from ..summary import line as summary_line
from . import EXIT, EXIT_ERROR
from .common import dump, print_lines, print_warnings, progress, shared, vacuous, writable, write
from .loading import load


def overall(results: list[Result]) -> int:
    """The exit code of a set of results: that of the worst verdict."""
    return EXIT[worst_verdict(results)]


def cmd_lowering(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    assume = parse_assume(args.assume)
    writable(args.svg, "--svg")
    writable(args.smt2, "--smt2", directory=True)
    low = load(args.name)
    targets, waves, notes = instantiations(low, args.target, args.wave)
    with progress(err, "lowering", not args.json):
        results = check_lowering(low, targets, waves, args.timeout, assume, args.robust, smt2=bool(args.smt2))
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
        write(args.svg, svg.result_svg(low, results, assume, args.svg_full))
    if args.json:
        js = lowering_json(low, results, args.times)
        return dump(shared("lowering", js, js["results"], n, js["verdict"]), out, code)
    print_lines(lowering_lines(low, results, args.times, args.robust), out)
    if len(results) > 1:
        print(summary_line(n), file=out)
    return code

