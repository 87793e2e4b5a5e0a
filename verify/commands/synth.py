"""`verify synth`: the cheapest proven lowering of a spec, or the tables of them."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any, TextIO

from .. import catalog
from .. import target as T
from ..diag import InputError
from ..summary import counts
from ..summary import line as summary_line
from ..synth import command_text, llvmref, redtable, save, synthesize, table
from ..synth import reduce as red_synth
from ..synth.components import parse_components
from . import EXIT_PROVED, EXIT_REFUTED, EXIT_UNKNOWN
from .common import dump, print_lines, progress, shared, writable
from .loading import parse_params


def cmd_synth(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.reductions_table:
        ok, msg = redtable.build(args.check)
        print(msg, file=out if ok else err)
        return 0 if ok else 1
    if args.table:
        if args.robust:
            raise InputError(None, "verify synth: --robust searches one entry; the table marks the entries that "
                                   "rely on a default variant instead")
        return _synth_table(args, out, err)
    if not args.spec:
        raise InputError(None, "verify synth: give a SPEC (see `verify specs`) or --table")
    if not args.target or not args.wave:
        raise InputError(None, "verify synth: --target and --wave are required")
    if args.max_ops < 1:
        raise InputError(None, "--max-ops must be at least 1")
    if args.max_states is not None and args.max_states < 1:
        raise InputError(None, "--max-states must be at least 1")
    writable(args.output, "-o")
    params = parse_params(args.params)
    lib = catalog.speclib()
    lib.bind(lib.get(args.spec), params)  # an unknown or missing parameter, before either search
    targets = T.resolve(args.target)
    classes = parse_components(args.components)
    name = Path(args.output).stem if args.output else "synth"
    cmd = command_text(args.spec, params, args.target, args.wave, args.exec_contract, args.max_ops, args.components,
                       args.robust)
    if red_synth.is_reduction_spec(args.spec) and "width" not in params:
        return _synth_red(args, params, targets, name, cmd, out, err)
    with progress(err, "synth", not args.json):
        o = synthesize(args.spec, params, targets, args.wave, args.exec_contract, args.max_ops, classes, name,
                       [args.target], cmd, args.timeout, args.time_limit, survey=True, robust=args.robust,
                       **({} if args.max_states is None else {"max_states": args.max_states}))
    wrote = None
    if args.output and o.text is not None:
        save(o, args.output, args.timeout)
        wrote = args.output
    code = {"proved": EXIT_PROVED, "none": EXIT_REFUTED, "unknown": EXIT_UNKNOWN}[o.verdict]
    if args.json:
        return _json(o.to_json(wrote, args.times), out, code)
    print_lines(o.lines(wrote, args.times), out)
    return code


def _synth_red(args: argparse.Namespace, params: dict[str, Any], targets: list[T.Target], name: str, cmd: str,
               out: TextIO, err: TextIO) -> int:
    """`verify synth red.*`: the reduction/scan search (verify/synth/reduce.py)."""
    if args.exec_contract != "any":
        raise InputError(None, "verify synth: reductions are synthesised under --exec any (whole-wave mode)")
    with progress(err, "synth", not args.json):
        o = red_synth.synthesize_red(args.spec, params, targets, args.wave, name, cmd, args.timeout,
                                     robust=args.robust, target_names=[args.target], time_limit=args.time_limit)
        o.llvm_lines, o.llvm = llvmref.compare_lines(args.spec, params, targets, args.wave, o.cost)
    wrote = None
    if args.output and o.text is not None:
        save(o, args.output, args.timeout)
        wrote = args.output
    code = EXIT_PROVED if o.verdict == "proved" else EXIT_REFUTED
    if args.json:
        return _json(o.to_json(wrote, args.times), out, code)
    print_lines(o.out_lines(wrote, args.times), out)
    return code


def _synth_table(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    cols = table.columns(args.target)
    if args.check:
        problems = table.check()
        print_lines(problems, err)
        print_lines([] if problems else [table.current_text()], out)
        return 1 if problems else 0
    t0 = time.perf_counter()
    with progress(err, "synth --table"):
        entries = table.build(cols)
    index, files = table.save(table.merge(entries, cols) if args.target else entries)
    took = f" in {time.perf_counter() - t0:.1f} s" if args.times else ""
    print(f"wrote {len(index)} entries, {len(files)} lowering files{took}", file=out)
    print(summary_line(counts((e["verdict"] for e in entries), {"none": "incorrect"})), file=out)
    return 0


def _json(js: dict[str, Any], out: TextIO, code: int) -> int:
    """A synthesis outcome with the keys every command's JSON shares (docs/json.md):
    its verdict (proved, none, unknown), its re-proofs as the results."""
    return dump(shared("synth", js, js["results"], counts(r["verdict"] for r in js["results"]), js["verdict"]), out, code)
