"""`verify asm`: real compiler output (a .s file) against specs."""

from __future__ import annotations

import argparse
from typing import TextIO

from .. import svg
from .. import target as T
from ..asmcheck import check_all
from ..assume import parse_assume
from ..diag import STDIN, InputError, read_source
from ..summary import counts
from ..summary import line as summary_line
from . import EXIT, worst
from .common import dump, print_lines, print_warnings, progress, shared, vacuous, writable, write
from .lowering import overall


def cmd_asm(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    writable(args.svg, "--svg")
    target = _one_target(args.target, "verify asm")
    path, text = (STDIN, read_source("-")) if args.file == "-" else (args.file, None)
    with progress(err, "asm", not args.json):
        rep = check_all(path, args.asserts, target, args.wave, args.exec, args.assume, args.robust, args.function,
                        args.lines, args.timeout, text)
    for c in rep.checked:
        if c.result.verdict == "error":
            what = f"--exec {args.exec}" if args.exec else "the region"
            vacuous(c.result, None, f"{args.file}: {c.assertion.text}: ", f" under {what}")
    print_warnings([w for c in rep.checked for w in c.result.warnings], err)
    code = overall([c.result for c in rep.checked])
    if args.svg and rep.checked:
        c = next((c for c in rep.checked if c.result.cex is not None and c.result.cex.rows), rep.checked[0])
        write(args.svg, svg.result_svg(c.low, [c.result], parse_assume(args.assume), args.svg_full))
    if rep.refused:  # a region in a loop: not proved, unsupported
        code = worst([code, EXIT["unsupported"]])
    n = counts([*(c.result.verdict for c in rep.checked), *("unsupported" for _ in rep.refused)])
    if args.json:
        js = rep.to_json(args.times)
        results = (js["assertions"] if "assertions" in js else
                   [{**a, "function": f["function"]} if "assertions" in f else
                    {"function": f["function"], "verdict": f["verdict"], "message": f["message"]}
                    for f in js["functions"] for a in (f.get("assertions") or [f])])
        return dump(shared("asm", js, results, n), out, code)
    print_lines(rep.lines(args.times, args.robust), out)
    if len(rep.checked) + len(rep.refused) > 1:
        print(summary_line(n), file=out)
    return code


def _one_target(name: str | None, what: str) -> str | None:
    """A --target that must name one target (a family or list of one is fine)."""
    if name is None:
        return None
    ts = T.resolve(name)
    if len(ts) != 1:
        raise InputError(None, f"--target {name} names {len(ts)} targets; {what} needs one (e.g. --target {ts[0].name})")
    return ts[0].name
