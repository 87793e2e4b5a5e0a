"""`verify tv`: translation validation of the GPU code LLVM makes of LLVM IR."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from .. import target as T
from ..assume import parse_assume
from ..diag import STDIN, InputError, read_source
from ..summary import counts
from ..tv.check import TV_VERDICTS, check_file, check_pair_files, has_src_tgt, summary
from ..tv.irspec import check_spec
from ..tv.runlines import check_llc
from ..tv.tree import accepted, check_tree, coverage, coverage_lines, exit_code, parse_accept
from .common import check_jobs, dump, overall_verdict, print_lines, progress, shared, writable, write


def cmd_tv(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    accept = parse_accept(args.accept)
    writable(args.svg, "--svg")
    check_llc(args.llc)  # fail closed: a compiler that cannot run is bad input, before anything is compiled
    targets = [t.name for t in T.resolve(args.target)] if args.target else []
    paths = [p for p in (args.file, args.tgt) if p is not None]
    tree = args.coverage or any(Path(p).is_dir() for p in paths if p != "-")
    if args.spec:
        if tree or args.tgt or args.asm:
            raise InputError(None, "--spec checks one function of one file (no directory, TGT.ll or --asm)")
        results = check_spec(args.file, args.function, args.spec, targets, args.wave, args.llc, args.timeout,
                             parse_assume(args.assume), args.robust)
    elif tree:
        if args.asm:
            raise InputError(None, "--asm checks one file's code; it does not go with a directory")
        with progress(err, "tv", not args.json):
            results = check_tree(paths, targets, args.wave, args.llc, args.function or None, args.timeout,
                                 parse_assume(args.assume), args.robust, check_jobs(args.jobs))
    else:
        asm = (args.asm, read_source(args.asm)) if args.asm else None
        text = read_source(args.file)
        path = STDIN if args.file == "-" else args.file
        with progress(err, "tv", not args.json):
            if args.tgt or has_src_tgt(text):  # IR-to-IR (Alive2's @src/@tgt in one file)
                results = check_pair_files(path, text, args.tgt,
                                           read_source(args.tgt) if args.tgt else None, targets, args.wave,
                                           args.timeout, parse_assume(args.assume), args.robust,
                                           args.function or None)
            else:
                results = check_file(path, text, targets, args.wave, args.llc, args.function, args.timeout, asm,
                                     parse_assume(args.assume), args.robust, check_jobs(args.jobs))
        if not results:  # a module of declarations only: nothing was checked, which is no verdict
            raise InputError(None, f"{path}: the module defines no function to check")
    code = exit_code(results, accept)
    if args.svg:  # the first counterexample drawn (verify/svg.py trace_svg, from verify/tv/cextv.py)
        # (a function's lane table carries its picture, a kernel's counterexample its own)
        pics = [(str(getattr(ex, "svg", "")), str(getattr(ex, "svg_full", "")))
                for r in results if r.cex is not None for ex in [getattr(r.cex, "explained", None) or r.cex]]
        pick = next((p for p in pics if p[0]), None)
        if pick is None:
            print("note: --svg: no counterexample with a lane table to draw; nothing written", file=err)
        else:
            write(args.svg, pick[1] if args.svg_full else pick[0])
    n = counts((r.verdict for r in results), TV_VERDICTS)
    if args.coverage:
        cov = coverage(results)
        if args.json:
            return dump(shared("tv", {"coverage": cov}, [], n, overall_verdict([r.verdict for r in results])), out,
                        code)
        print_lines([*coverage_lines(cov), summary(results)], out)
        return code
    if args.json:
        return dump(shared("tv", {}, [{**r.to_json(), "passes": accepted(r, accept)} for r in results], n), out, code)
    lines = [ln for r in results for ln in r.lines()] + [summary(results)]
    print_lines(lines, out)
    return code


